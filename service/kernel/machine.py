"""The game kernel shared by every game: events, steps, chance, table mode.

A game's history is a list of events. Each event has a ``type`` (past tense),
the ``turn`` it belongs to (setup is turn 0), who may see it (``vis``:
``"all"``, ``"referee"`` or a list of seats) and its ``data``.

History is made of *steps*. A step starts with a ``Decided`` event (a seat's
decision exactly as submitted; seat 0 is the system, whose only decision is
the setup) followed by its consequences: chance events (``DiceRolled``,
``CardDrawn``, ``ChanceChosen``, ``DeckShuffled``) and facts, and, when the
game ends, ``GameFinished``. In table mode a step pauses with a
``ChanceAwaited`` marker whenever it needs an outcome the referee has not
entered yet, and resumes when the referee enters it.

``Machine`` folds events into the kernel's state (``kernel_state``) and the
game's own state (``state``, plain msgpack-able data) and runs the game's rules
to turn a decision into events. It does no I/O.

A driver (a bot's loop, a search's playouts, a simulation) plays a game through
``Machine``'s public methods only: ``acting()`` (the seats to act now),
``legal(seat)`` (the decisions open to one) and ``play(seat, decision, chance)``
(a decision taken from that list runs at once, unchecked: it is legal by
construction; any other is checked as a submitted one, ``decide``). A seat's
submitted decision goes through ``decide``, the referee's through ``referee``,
a chance outcome at a table through ``enter_chance``. ``Machine.mid_game`` makes
a machine holding a game's state past its setup (a search's determinization).
"""

from __future__ import annotations

import json

import msgpack

from .chance import (CHANCE_TYPES, CHANCE_VALUE_FIELD, SeededChance, StatedChance, TableChance, canonical_order,
                     draw_card, roll_dice, validate)
from .copies import as_listed, named, offered, reading, show
from .corrections import check_decision
from .equal import strictly_equal
from .events import Ev, _FoldedEv, _pack, count_readers
from .errors import BadInput, IllegalDecision, NeedChance, NoChanceAwaited, NotYourTurn, PrivateerError
from .rules import Rules

# mypy takes a name ``TYPE_CHECKING`` as true; at run time ``typing`` is not imported (a quick
# `tools` call does without it: tests/store/test_direct_reads.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .chance import Chance
    from typing import Any

    from .events import Vis

    # the states before the current step, the kernel's and the game's (table mode)
    Base = tuple[dict[str, Any], Any]

UNKNOWN = "?"  # a card nobody has seen (table mode): "?deck#n"


def is_unknown(card: Any) -> bool:
    return isinstance(card, str) and card.startswith(UNKNOWN)
KERNEL_TYPES = CHANCE_TYPES | {"GameCreated", "Decided", "ChanceAwaited", "GameFinished", "EntropyAdded",
                               "Corrected", "SeatNamed", "SeatKeyRegistered", "RefereeKeyRegistered"}
# Events appended on their own, outside any seat's step: a seat's entropy before the setup,
# ``SeatNamed {seat, player}``, the name a seat is taken under (public; at creation, on joining),
# and ``SeatKeyRegistered {seat, key}``, the public key a seat signs its decisions with
# (service/seat_keys.py), and ``RefereeKeyRegistered {key}``, the key a table's referee signs what
# it enters with (service/referee_key.py). A history may be cut (a fork, a correction) just before one.
STEP_STARTS = ("Decided", "EntropyAdded", "SeatNamed", "SeatKeyRegistered", "RefereeKeyRegistered")
BESIDE_STEPS = ("SeatNamed", "SeatKeyRegistered", "RefereeKeyRegistered")  # appended on their own, never a consequence


def _copy(obj: Any) -> Any:
    return msgpack.unpackb(_pack(obj), raw=False, strict_map_key=False)


# public events that list cards without showing them: the game's catalog, a deck's cards shuffled
_LISTS_CARDS = frozenset(("GameCreated", "DeckShuffled"))
_SEAT_ONLY = Rules.decision_visibility  # a game that keeps it: its Decided is seen by the deciding seat
_new_ev = object.__new__


def same_events(a: list[Ev], b: list[Ev]) -> bool:
    return _pack([e.as_tuple() for e in a]) == _pack([e.as_tuple() for e in b])


def new_kernel_state(seats: int, table: bool) -> dict:
    """The kernel's own state of a new game: what the kernel keeps of every game, whatever
    its rules (``seen``: the readers' counts, the public's then each seat's)."""
    return {
        "seats": seats, "table": table, "counter": 0, "entropies": [],
        "finished": False, "result": None, "awaiting": None, "pending": None,
        "steps": 0, "seen": [0] * (seats + 1),
    }


def note_slip(step: Step, decision: dict) -> None:
    """``{"referee": "note", "text": ...}``: a physical slip the rules cannot
    express (a card shown by accident, a die knocked over), and what the
    referee ruled, put on the record as a public ``RefereeNoted`` event. It
    changes nothing in the game: what must change goes through a correction."""
    text = decision.get("text")
    if set(decision) != {"referee", "text"} or not isinstance(text, str) or not text.strip() or len(text) > 1000:
        raise BadInput('a referee note is {"referee": "note", "text": "what happened and what was ruled"}')
    step.emit("RefereeNoted", {"text": text.strip()}, "all")


def norm_vis(vis: Vis) -> Vis:
    if vis == "all" or vis == "referee":
        return vis
    if len(vis) == 1 and type(vis[0]) is int:
        return [vis[0]]  # one seat (a new list: the event shares nothing with the state)
    seats = sorted({int(s) for s in vis})
    return seats if seats else "referee"


class Step:
    """What the rules see while deciding: the working state and the means to
    emit events and draw chance. Every emitted event is applied at once to the
    working state, so the rules can look at ``step.state`` after each one.

    ``events``: the step's events, in order. On the fold path (a machine that keeps
    no events: a playout nobody records, a stored history folded) no event object
    is made for each event: one object, the step's own, takes each event's type,
    turn, visibility and data in turn, and ``events`` holds only it (so
    ``events[-1]`` is the last event emitted, on either path). Everything else an
    event does (the readers' counts, the kernel's state, the game's handler) is the
    same code on both paths."""

    __slots__ = ("machine", "state", "_turn", "_fold", "_keep", "_seen", "_table", "_kinds", "chance", "seat",
                 "events", "checked")

    def __init__(self, machine: "Machine", chance: Chance | None, seat: int, checked: bool = False, keep: bool | None = None,
                 shows: bool | None = None) -> None:
        """``shows``: whether the copies public events name take their labels (``Machine._show``):
        in a history that is stored or read (default: when the step keeps its events), not in a
        playout nobody reads, where it would cost a fifth of the work."""
        self.machine = machine
        self.state = machine.state  # the working state (changed in place by each event)
        self._turn = machine.rules.turn
        self._fold = machine.rules.fold
        if keep is None:
            keep = machine.keep_events
        self._keep = keep
        kernel_state = machine.kernel_state
        self._seen = kernel_state["seen"]  # the readers' counts (``emit`` adds to them; the list is never replaced)
        self._table = kernel_state["table"]  # (a game's mode never changes)
        # the game's copies of one face, where public events label them (service/kernel/copies.py)
        self._kinds = machine.rules.copies(machine.config) if (keep if shows is None else shows) else None
        # the fold path: the one event object each event is written into (see the class's text)
        self.events: list[Ev] = [] if keep else [_new_ev(Ev)]
        self.begin(chance, seat, checked)

    def begin(self, chance: Chance | None, seat: int, checked: bool = False) -> None:
        """What differs from one step to the next (a machine runs its live steps through
        one step object: ``Machine._step``)."""
        self.chance: Chance = chance  # type: ignore[assignment]  # (None: the step that folds stored events draws none)
        self.seat = seat
        # True when the kernel has already found the decision among the listed
        # ones (type-strict): the rules need not derive their list again
        self.checked = checked
        if self._keep:
            self.events = []

    @property
    def seats(self) -> int:
        return self.machine.kernel_state["seats"]

    def emit(self, type: str, data: dict[str, Any], vis: Vis = "all", turn: int | None = None) -> Ev:
        """An event of the step: its ``type``, its ``data`` (the step takes the dict: the caller
        gives a new one and keeps no hold on it), who may read it (``vis``: ``"all"``,
        ``"referee"`` or a list of seats) and its turn (None: the turn the rules' ``turn`` reads
        off the working state). It is taken at once by the kernel's state and the working state.
        This is the one bookkeeping of an event: a stored event is folded through here too
        (``Machine.apply``)."""
        keep = self._keep
        if keep:
            # frozen as emitted; the state may keep (and later change) what it is given, so the
            # event's ``data`` is read back from the frozen bytes (``_FoldedEv``): the handler
            # below takes ``data`` itself
            ev: Ev = _new_ev(_FoldedEv)
            ev.packed = _pack(data)
        else:
            ev = self.events[0]       # the fold path: no event object made, nothing frozen (the class's text)
            ev.data = data
        ev.type = type
        ev.turn = self._turn(self.state) if turn is None else turn
        # counted for whoever may read it, as ``count_readers`` counts (written out here, where every
        # event of every playout passes: tests/kernel/test_readers.py holds the two to one rule)
        seen = self._seen
        if vis == "all":
            seen[0] += 1
            if self._kinds and type not in _LISTS_CARDS:  # the copies it names, as the public now reads them
                self.machine._show(data, self._kinds)
        elif vis != "referee":  # a new list (the event shares nothing with the state), as ``norm_vis`` makes it
            vis = [vis[0]] if len(vis) == 1 and vis[0].__class__ is int else norm_vis(vis)
            for i in vis:
                seen[i] += 1
        ev.vis = vis
        if type in KERNEL_TYPES:  # what one of the kernel's own events changes in its state
            m = self.machine
            if type == "Decided":  # a new step: what was asked of the rules is stale
                m._legal = m._acting = None
                m.kernel_state["steps"] += 1
            elif type in CHANCE_TYPES:  # an outcome drawn from the stream: the counter moves past its blocks
                m.outcomes += 1
                counter = data["counter"]  # every outcome has one (None: entered at a table, or face down)
                if counter is not None:
                    m.kernel_state["counter"] = counter + data["draws"]
            else:
                m._kernel_fact(type, data)
        if self._table:  # at a table, the step pending, the chance awaited, the cards unseen
            self.machine._at_table(type, data, vis)
        apply = self._fold.get(type)  # then the game's state takes it
        if apply is not None:
            apply(self.state, data, ev)
        if keep:
            self.events.append(ev)
        return ev

    # chance -------------------------------------------------------------
    def roll(self, sides: int, n: int = 1, vis: Vis = "all", why: str = "", faces: dict | None = None) -> list[int]:
        """``faces``: names the referee may type for faces (``{"skull": 6}``)."""
        chance = self.chance
        if type(chance) is SeededChance:  # the seed's stream: the dice straight from it (as ``outcome`` does)
            stream = chance.stream
            start = stream.counter
            values = roll_dice(stream, sides, n)
            self.emit("DiceRolled", {"sides": sides, "n": n, "values": values, "why": why,
                                     "counter": start, "draws": stream.counter - start}, vis)
            return values
        spec = {"kind": "dice", "sides": sides, "n": n, "why": why}
        if faces:
            spec["faces"] = faces
        values, meta = chance.outcome(spec)
        self.emit("DiceRolled", {"sides": sides, "n": n, "values": values, "why": why,
                                 "counter": meta["counter"], "draws": meta["draws"]}, vis)
        return values

    def draw(self, deck: str, remaining: list, vis: Vis = "all", why: str = "", unknown_pool: list | None = None,
             stated: bool = False) -> Any:
        """Draw one card from ``remaining`` (the deck's cards, any order).

        ``stated``: a card a stated position names (``Rules.position``), in its setup: the
        position's next outcome, not the seed's or the table's.

        Table mode, a deck holding cards nobody has seen (``is_unknown``
        tokens, see ``shuffle(face_down=True)``): the referee names the card
        drawn; it is one of the known cards left, or, while unknown ones are
        left, one of ``unknown_pool`` (the identities still possible). The
        event then records the token it takes the place of (``token``)."""
        if not remaining:
            raise ValueError(f"draw from empty deck {deck!r}")
        chance = self.chance
        if type(chance) is SeededChance and not stated:  # the card straight from the seed's stream (as ``outcome`` draws it)
            stream = chance.stream
            start = stream.counter
            card, index = draw_card(stream, remaining)
            self.emit("CardDrawn", {"deck": deck, "card": card, "index": index, "of": len(remaining),
                                    "why": why, "counter": start, "draws": stream.counter - start}, vis)
            return card
        # unknown tokens exist only in table mode
        unknown = [c for c in remaining if is_unknown(c)]
        if not unknown:
            spec = self._named({"kind": "card", "deck": deck, "choices": list(remaining), "why": why})
            if stated:  # (recorded as such: the audit and the record tell it from an outcome entered)
                spec["stated"] = True
                card, meta = self.chance.outcome(spec)
                self.emit("CardDrawn", {"deck": deck, "card": card, "index": meta["index"], "of": len(remaining),
                                        "why": why, "counter": meta["counter"], "draws": meta["draws"], "stated": True}, vis)
                return card
            card, meta = self.chance.outcome(spec)
            self.emit("CardDrawn", {"deck": deck, "card": card, "index": meta["index"], "of": len(remaining),
                                    "why": why, "counter": meta["counter"], "draws": meta["draws"]}, vis)
            return card
        known = [c for c in remaining if not is_unknown(c)]
        spec = self._named({"kind": "card", "deck": deck, "choices": known + list(unknown_pool or []), "why": why})
        card, meta = self.chance.outcome(spec)
        token = None if card in known else unknown[0]
        self.emit("CardDrawn", {"deck": deck, "card": card, "index": None, "of": len(remaining), "why": why,
                                "counter": meta["counter"], "draws": meta["draws"], "token": token}, vis)
        return card

    def identify(self, deck: str, token: Any, unknown_pool: list, vis: Vis = "all", why: str = "") -> Any:
        """The identity of a card laid face down, when the rules turn it over.
        Seeded games hold real cards (returned as they are); at a table the
        referee names it, among ``unknown_pool`` (the identities still possible)."""
        if not is_unknown(token):
            return token
        spec = self._named({"kind": "card", "deck": deck, "choices": list(unknown_pool), "why": why})
        card, meta = self.chance.outcome(spec)
        self.emit("CardIdentified", {"deck": deck, "token": token, "card": card, "why": why,
                                     "counter": meta["counter"], "draws": meta["draws"]}, vis)
        return card

    def _named(self, spec: dict) -> dict:
        """At a table, what is printed on the cards goes with the request, so
        the referee may name a card as printed (service/kernel/chance.py)."""
        if self.machine.kernel_state["table"]:
            rules, state, deck = self.machine.rules, self.machine.state, spec["deck"]
            names = rules.card_names(state, deck)
            if names:
                spec["names"] = {c: names[c] for c in spec["choices"] if isinstance(c, str) and c in names}
                # copies of one name that differ, and other names a referee may type: only where the game has some
                for key, table in (("marks", rules.card_marks(state, deck)), ("aliases", rules.card_aliases(state, deck))):
                    if table:
                        given = {c: table[c] for c in spec["names"] if c in table}
                        if given:
                            spec[key] = given
        return spec

    def pick(self, options: list, vis: Vis = "all", why: str = "", stated: bool = False) -> Any:
        """``stated``: a value a stated position gives (as ``draw``'s)."""
        spec: dict = {"kind": "pick", "options": list(options), "why": why}
        extra = {}
        if stated:
            spec["stated"] = extra["stated"] = True
        value, meta = self.chance.outcome(spec)
        self.emit("ChanceChosen", {"options": list(options), "value": value, "index": meta["index"],
                                   "why": why, "counter": meta["counter"], "draws": meta["draws"], **extra}, vis)
        return value

    def shuffle(self, deck: str, cards: list, vis: Vis = "referee", why: str = "", face_down: bool = False) -> list:
        """``face_down``: the cards go where nobody sees them (set aside, laid
        face down). At a table nobody can name their order, so none is asked:
        the order is of unknown tokens (``?deck#n``), each named when the rules
        turn it over (``identify``) or draw it (``draw``), or never."""
        if face_down and self.machine.kernel_state["table"]:
            first = self.machine.kernel_state.get("unknown", 0) + 1
            order = [f"{UNKNOWN}{deck}#{first + i}" for i in range(len(cards))]
            self.emit("DeckShuffled", {"deck": deck, "order": order, "why": why, "face_down": True,
                                       "counter": None, "draws": 0}, vis)
            return order
        spec = {"kind": "shuffle", "deck": deck, "cards": list(cards), "why": why}
        order, meta = self.chance.outcome(spec)
        self.emit("DeckShuffled", {"deck": deck, "order": order, "why": why,
                                   "counter": meta["counter"], "draws": meta["draws"]}, vis)
        return order


class Machine:
    """Kernel state + game state for one game, and the step runner."""

    # what the rules answered for the state as it stands, dropped by every change
    # (``apply``, ``_adopt``): the seats to act and one seat's listed decisions
    _acting: tuple | None = None
    _legal: tuple | None = None
    _broken: str | None = None  # why the game's state is unusable (a listed decision the rules refused half-way)
    # False only while a playout that keeps no history runs (``LocalGame.play_out(keep=False)``):
    # its steps take the fold path (``Step``: no event objects made, none frozen)
    keep_events = True
    # chance events emitted through this machine object (not its copies), and by the steps it
    # ran on a copy and adopted (``_run``): what a playout on the fold path counts its outcomes
    # by (``LocalGame.play_out``), as it has no events to count
    outcomes = 0

    def __init__(self, rules: Rules, created: Ev) -> None:
        cfg = created.data
        self._hold(rules, cfg, new_kernel_state(cfg["seats"], cfg["table"]), rules.initial_state(cfg), None)

    @classmethod
    def held(cls, rules: Rules, config: dict, kernel_state: dict, state: Any, base: Base | None) -> "Machine":
        """A machine holding these very states (a copy's, a snapshot's)."""
        m = object.__new__(cls)
        m._hold(rules, config, kernel_state, state, base)
        return m

    @classmethod
    def mid_game(cls, rules: Rules, state: Any, seats: int) -> "Machine":
        """A seeded machine holding a game's ``state`` (owned by it: not copied) past its setup,
        for a driver to play on from there (a search plays a determinized state out on one:
        service/analysis/ismcts.py). Its kernel state is a new game's (``new_kernel_state``)
        with the setup's step counted, so the rules are asked who acts."""
        kernel_state = new_kernel_state(seats, False)
        kernel_state["steps"] = 1
        return cls.held(rules, {"seats": seats, "table": False}, kernel_state, state, None)

    def _hold(self, rules: Rules, config: dict, kernel_state: dict, state: Any, base: Base | None) -> None:
        # every machine's attributes set here, in this order (one layout for all of them)
        self.rules = rules
        self.config = config
        self.kernel_state = kernel_state
        self.state = state  # the game's state, as its rules keep it
        self.base: Base | None = base  # the states before the current step (table mode only)
        self._folder: Step | None = None  # the step stored events are folded through (``apply``)
        self._live: Step | None = None  # the step object the live steps are run through (``_step``)

    # Short names of the two states, read-only (the service's routes and audit, bench/, tests).
    @property
    def k(self) -> dict:
        """``kernel_state``"""
        return self.kernel_state

    @property
    def s(self) -> Any:
        """``state``"""
        return self.state

    # folding ------------------------------------------------------------
    def apply(self, ev: Ev) -> None:
        """Fold one stored event: through ``Step.emit``, the very bookkeeping its step's
        events went through when they were made, on a step that keeps nothing."""
        self.apply_read(ev.type, ev.turn, ev.vis, {**ev.data})

    def apply_read(self, type: str, turn: int, vis: Vis, data: dict) -> None:
        """``apply`` of a stored event given as its parts, its ``data`` handed over to the
        fold (the step takes it as it is, not a copy): data read from the store for this
        fold alone (service/replay.py), or ``apply``'s own copy."""
        self._legal = self._acting = None
        folder = self._folder
        if folder is None:
            folder = self._folder = Step(self, None, 0, keep=False, shows=True)  # the fold path: the events are the stored ones
        folder.emit(type, data, vis, turn)

    def _kernel_fact(self, t: str, data: dict) -> None:
        """What the kernel's rarer events change in its state (``Step.emit`` takes the
        others): the end of the game, a seat's entropy, a seat's name, a correction."""
        k = self.kernel_state
        if t == "GameFinished":
            k["finished"] = True
            k["result"] = {"scores": data["scores"], "winners": data["winners"]}
            if data.get("tiebreak"):
                k["result"]["tiebreak"] = data["tiebreak"]
        elif t == "EntropyAdded":
            k["entropies"].append(data["entropy"])
        elif t == "SeatNamed":
            self._seat_named(data)
        elif t == "SeatKeyRegistered":
            self._seat_key(data)
        elif t == "RefereeKeyRegistered":
            k["referee_key"] = data["key"]
        elif t == "Corrected":
            k["corrections"] = k.get("corrections", 0) + 1

    def _show(self, data: dict, kinds: dict) -> None:
        """A public event (``Step.emit``): the copies it names that the public had not seen
        take their kinds' next labels (service/kernel/copies.py)."""
        found: list = []
        for v in data.values():  # a string may be a copy's name; a list, dict or tuple is searched (``named``)
            t = v.__class__
            if t is str:
                if v in kinds:
                    found.append(v)
            elif t is list or t is dict or t is tuple:
                named(v, kinds, found)
        if found:
            show(self.kernel_state.setdefault("shown", {}), kinds, found)

    def _at_table(self, t: str, data: dict, vis: Vis) -> None:
        """What an event changes in the kernel's state at a table (``Step.emit``): a
        ``Decided`` keeps the states before its step and opens it (``pending``: its
        outcomes entered so far and how many consequences it had); an outcome is one
        more of them and ends the wait; ``ChanceAwaited`` starts one; a face-down
        shuffle lays unknown tokens."""
        k = self.kernel_state
        if t in CHANCE_TYPES:
            if data.get("face_down"):  # unknown tokens, asked of nobody
                k["unknown"] = k.get("unknown", 0) + len(data["order"])
            else:
                if k["pending"] is not None:
                    k["pending"]["outcomes"].append(data[CHANCE_VALUE_FIELD[t]])
                k["awaiting"] = None
        elif t == "Decided" or t == "Corrected":
            if k["awaiting"] is not None:
                # a correction inside the step (the only step a pause lets in; service/kernel/
                # corrections.py): not a consequence of it. The state the step re-runs from counts
                # it as the live state did, so a seat's numbering runs on across the re-run.
                self._before_too(vis, steps=t == "Decided", corrections=t == "Corrected")
                return
            if t == "Corrected":
                if k["pending"] is not None:
                    k["pending"]["emitted"] += 1
                return
            # the state before this step, for a chance entry to re-run it from: its Decided
            # (counted already for its readers and as a step) taken back out
            before = _copy(k)
            count_readers(before["seen"], vis, -1)
            before["steps"] -= 1
            self.base = (before, _copy(self.state))
            k["pending"] = {"seat": data["seat"], "decision": data["decision"], "outcomes": [], "emitted": -1}
        elif t == "ChanceAwaited":
            self._legal = self._acting = None
            k["awaiting"] = data
            if k["pending"] is not None:
                k["pending"]["emitted"] -= 1  # markers are not consequences
        elif t in BESIDE_STEPS:
            return  # not a consequence of the step a table may be entering (``pending``)
        if k["pending"] is not None:
            k["pending"]["emitted"] += 1

    def apply_retracted(self, ev: Ev) -> None:
        """A retracted event (service/kernel/corrections.py): it stays out of
        the game's line, but what it used of the chance stream stays used and
        what a viewer could read of it stays counted; a seat's name stays its name."""
        self._legal = self._acting = None
        k = self.kernel_state
        count_readers(k["seen"], ev.vis)
        counter = None
        if ev.type in CHANCE_TYPES and ev.data.get("counter") is not None:
            counter = k["counter"] = ev.data["counter"] + ev.data["draws"]
        if ev.type == "SeatNamed":
            self._seat_named(ev.data)
        elif ev.type == "SeatKeyRegistered":  # a seat's key stays its key, as its name does
            self._seat_key(ev.data)
        elif ev.type == "RefereeKeyRegistered":  # and the referee's its
            k["referee_key"] = ev.data["key"]
        elif k["awaiting"] is not None:  # retracted inside the step that awaits: its re-run counts it too
            self._before_too(ev.vis, counter=counter)

    def _before_too(self, vis: Vis, steps: bool = False, corrections: bool = False, counter: int | None = None) -> None:
        """What an event outside the pending step's line (a correction inside it, an event
        it retracted) adds to the kernel's state, added to the state the step re-runs from
        (``base``) as well: readers' counts, steps, corrections, the chance counter."""
        if self.base is None:
            return
        k = _copy(self.base[0])  # a new copy: other machines may share the one held
        count_readers(k["seen"], vis)
        k["steps"] += steps
        if corrections:
            k["corrections"] = k.get("corrections", 0) + 1
        if counter is not None:
            k["counter"] = counter
        self.base = (k, self.base[1])

    def _seat_named(self, data: dict) -> None:
        """``SeatNamed``: the seat's player, beside those named at creation, in ``config["players"]``
        (a new mapping: the ``GameCreated`` data is never changed). A table-mode step that
        awaits an outcome is re-run from the state before it: that state counts the event too."""
        players = dict(self.config.get("players") or {})
        players[str(data["seat"])] = data["player"]
        self.config = {**self.config, "players": players}
        if self.base is not None:  # (a new copy: other machines may share the one held)
            k = _copy(self.base[0])
            count_readers(k["seen"], "all")
            self.base = (k, self.base[1])

    def _seat_key(self, data: dict) -> None:
        """``SeatKeyRegistered``: the public key (hex) ``seat`` signs its decisions with, in
        ``kernel_state["seat_keys"]`` (absent in a game no seat registered a key in)."""
        self.kernel_state.setdefault("seat_keys", {})[str(data["seat"])] = data["key"]

    def correct(self, decision: dict, version: int, signed: dict[str, Any] | None = None) -> list[Ev]:
        """The correction step (its ``Decided`` and ``Corrected`` events), on a
        machine already folded to the line's state at ``to_version``;
        ``version`` is the last version before the correction; ``signed``: the
        referee's signature (service/referee_key.py), kept in its ``Decided``."""
        to_version, reason = check_decision(decision)
        if not to_version < version:
            raise BadInput(f"to_version must be before the game's version {version}")
        step = Step(self, None, 0)
        step.emit("Decided", {"seat": 0, "decision": decision, **(signed or {})}, "all")
        step.emit("Corrected", {"to_version": to_version, "retracted": [to_version + 1, version],
                                "reason": reason}, "all")
        return step.events

    def copy(self) -> "Machine":
        return self._with(self.kernel_state, self.state, self.base)

    def _with(self, kernel_state: dict, state: Any, base: Base | None) -> "Machine":
        """A machine of the same game holding a private copy of the two states."""
        return Machine.held(self.rules, self.config, _copy(kernel_state), _copy(state), base)

    # queries --------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.kernel_state["finished"]

    def turn(self) -> int:
        return self.rules.turn(self.state)

    def seen(self, seat: int | None, version: int) -> int:
        """The version as ``seat`` may know it: how many events it may read
        (None: the referee, who reads all ``version`` events; 0: the public).
        A seat's numbering never depends on what is hidden from it."""
        if seat is None:
            return version
        seen = self.kernel_state["seen"]
        return seen[0] + (seen[seat] if seat else 0)

    # The driver's API: what a loop that plays a game calls (LocalGame.play_out, the search's
    # playouts, the bots of the service, simulations): ``acting()``, ``legal(seat)``, then
    # ``play(seat, decision, chance)`` with a decision taken from that list.
    def to_act(self) -> list[int]:
        """The seats that must act now (a new list each call: the caller may keep it)."""
        return list(self.acting())

    def acting(self) -> tuple[int, ...]:
        """The seats that must act now, as the rules order them (none while the game is
        finished, before its setup, or awaiting a chance outcome at a table). The tuple is
        kept until the state changes: a driver asks at every step without a new object."""
        acting = self._acting
        if acting is None:
            k = self.kernel_state
            if k["finished"] or k["awaiting"] is not None or k["steps"] == 0:
                acting = ()
            else:
                acting = tuple(self.rules.to_act(self.state))
            self._acting = acting
        return acting

    def awaiting_chance(self) -> dict | None:
        """The chance awaited as a referee is shown it: its cards by the names a person reads
        (``said_request``)."""
        a = self.kernel_state["awaiting"]
        if a is None:
            return None
        a = self.said_request(a)
        out = {key: a[key] for key in ("kind", "why", "deck", "sides", "n", "options", "faces", "names", "marks",
                                       "aliases", "deck_said") if key in a}
        if a["kind"] == "card":
            out["choices"] = sorted({c if not isinstance(c, (dict, list)) else str(c)
                                     for c in canonical_order(a["choices"])}, key=str)
        return out

    def legal(self, seat: int) -> list[dict]:
        """The decisions open to ``seat`` now, as the rules list them (none for a seat not to
        act now). The list is kept until the state changes: the caller must change neither it
        nor its decisions. A decision taken from it, the very object, is legal by construction:
        ``play`` runs it without checking it again."""
        acting = self._acting
        if acting is None:
            acting = self.acting()
        if seat not in acting:
            return []
        cached = self._legal  # the list ``_listed`` keeps (read here without its call: a driver asks at every step)
        if cached is not None and cached[0] == seat:
            return cached[1]
        listed = self.rules.legal(self.state, seat)
        self._legal = (seat, listed)
        return listed

    def alike(self) -> dict:
        """What each copy of one face reads as to anyone but the referee, now (``copies.reading``)."""
        kinds = self.rules.copies(self.config)
        return reading(kinds, self.kernel_state.get("shown")) if kinds else kinds

    def said_choices(self, decisions: list[dict]) -> list[str]:
        """Decisions open now (``offered``'s), in words, told apart where two read alike
        (``Rules.say_choices``: by what the table sees)."""
        return self.rules.say_choices(self.state, self.config, decisions)

    def offered(self, seat: int) -> list[dict]:
        """``legal`` as a person choosing reads it: copies of one face read as one card,
        and one decision for each kind (service/kernel/copies.py), the actions the rules list
        first (``Rules.listed_first``: "done") at the top. ``decide`` takes them."""
        shown = offered(self.legal(seat), self.alike())
        first = self.rules.listed_first
        if first and any(d.get("action") in first for d in shown):
            shown = [d for d in shown if d.get("action") in first] + [d for d in shown if d.get("action") not in first]
        return shown

    def _listed(self, seat: int) -> list[dict]:
        """The rules' list for ``seat``, kept until the state changes (``apply``,
        ``_adopt``): a seat that looks at its decisions and then submits one
        does not have them derived twice."""
        cached = self._legal
        if cached is not None and cached[0] == seat:
            return cached[1]
        listed = self.rules.legal(self.state, seat)
        self._legal = (seat, listed)
        return listed

    # commands -------------------------------------------------------------
    def check_seat(self, seat: object) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= self.kernel_state["seats"]:
            raise BadInput(f"seat must be a number from 1 to {self.kernel_state['seats']}")

    def decide(self, seat: int, decision: Any, chance: Chance, read: bool = False,
               signed: dict[str, Any] | None = None) -> list[Ev]:
        """Run one step for ``seat``'s ``decision``; return its events.
        Raises before returning anything if the decision is refused.

        ``read``: the decision as the seat reads its decisions (``offered``), copies of one
        face read as it may read them; it must be one of them (service/kernel/copies.py).
        ``signed``: the seat's signature of its decision (``{"signature": hex}``,
        service/seat_keys.py), kept in the ``Decided`` event; when the decision it signed
        may stand for another listed one (a game with copies), ``as_signed`` says the one it signed."""
        sent = decision
        k = self.kernel_state
        if type(seat) is not int or not 1 <= seat <= k["seats"]:
            self.check_seat(seat)
        if k["finished"]:
            raise IllegalDecision("the game is finished")
        if k["awaiting"] is not None:
            raise NotYourTurn("the game is waiting for the referee to enter a chance outcome")
        if not isinstance(decision, dict):
            raise BadInput("a decision must be a JSON object")
        if seat not in self.acting():
            acting = ", ".join(map(str, self.to_act())) or "nobody"
            raise NotYourTurn(f"seat {seat} may not act now (to act: {acting})")
        alike = self.alike()
        if alike:  # a decision naming copies of one face: the listed one it stands for
            listed = as_listed(decision, self._listed(seat), alike, read)
            if listed is not None:
                decision = listed
            elif read:
                raise IllegalDecision(f"not one of the decisions seat {seat} may make now, exactly as "
                                      "`legal` lists them")
        if signed is not None and alike and "as_signed" not in signed:
            # in a game with copies, always (whether the decision the seat signed differs from the
            # listed one would tell which copy it holds), as JSON text, which no reading of copies
            # rewrites (a reader reads it as the seat sent it)
            signed = dict(signed, as_signed=json.dumps(sent, sort_keys=True, ensure_ascii=False,
                                                       separators=(",", ":")))
        return self._run(seat, decision, chance, strict=True, signed=signed)

    def play(self, seat: int, decision: dict, chance: Chance) -> list[Ev]:
        """The driver's step: ``seat``'s ``decision``, its chance drawn from ``chance``; its events.

        A decision taken from ``legal(seat)`` itself (the very object, on the state it was listed
        for: every change of the state drops the list) is legal by construction: it runs at
        once on the live state, and the rules are told it was listed (``Step.checked``), so
        they do not validate it again. That is how a search plays its playouts, the rules
        asked for one list a step. Anything else (an equal dict, one made by hand, one from
        another state's list), or any decision at a table (which keeps the state before each
        step), is a submitted decision (``decide``): refused unless the seat acts now and it
        is exactly one of the listed decisions, types included.

        On a machine that keeps no events (``keep_events`` False) a listed decision's step
        takes the fold path (``Step``): the events returned are not kept; ``outcomes``
        counts its chance outcomes."""
        cached = self._legal
        if cached is not None and cached[0] == seat and self._broken is None and not self.kernel_state["table"]:
            for d in cached[1]:
                if d is decision:
                    return self._run_live(seat, decision, chance, True)
        return self.decide(seat, decision, chance)

    def setup(self, chance: Chance, stated: list | None = None) -> list[Ev]:
        """``stated``: the hidden part of a stated position (``Rules.position``), the
        outcomes its setup asks ``stated``, served before ``chance`` is asked."""
        # a seeded game's first step runs live: a game whose setup failed is never stored or
        # played, so nothing needs keeping from before it (table mode keeps its base for the
        # re-runs of chance entry)
        k = self.kernel_state
        if not stated:
            return self._run(0, {"step": "setup"}, chance, live=not k["steps"] and not k["table"])
        served = StatedChance(stated, chance)
        events = self._run(0, {"step": "setup"}, served, live=not k["steps"] and not k["table"])
        if served.used != len(stated):
            raise BadInput(f"the position states {len(stated)} hidden outcomes, the setup took {served.used}")
        return events

    def referee(self, decision: Any, chance: Chance, signed: dict[str, Any] | None = None) -> list[Ev]:
        """A referee's step (seat 0 after the setup): a penalty or an
        adjustment the rules name (``Rules.referee``); public, audited like any step.
        ``signed``: the referee's signature (service/referee_key.py), kept in its ``Decided``."""
        if self.kernel_state["steps"] == 0:
            raise IllegalDecision("the game has not started")
        if self.kernel_state["finished"]:
            raise IllegalDecision("the game is finished")
        if self.kernel_state["awaiting"] is not None:
            raise NotYourTurn("the game is waiting for the referee to enter a chance outcome")
        if not isinstance(decision, dict) or "referee" not in decision:
            raise BadInput('a referee decision is a JSON object with a "referee" key')
        if decision["referee"] == "correct":
            raise BadInput("a correction retracts steps: use `tools correct` (Privateer.correct)")
        return self._run(0, decision, chance, signed=signed)

    def _run(self, seat: int, decision: dict, chance: Chance, strict: bool = False, live: bool = False,
             signed: dict[str, Any] | None = None) -> list[Ev]:
        # A decision exactly as listed runs on the live state: the rules accept
        # every listed decision, so nothing is refused half-way and no copy is
        # needed; so does a seeded game's setup (``live``). Anything else (a
        # decision to refuse, a referee's step, table mode, which keeps the
        # state before the step) runs on a private copy, adopted only when the
        # step went through.
        if self._broken:
            raise RuntimeError(f"this game's state is unusable after a failed step: {self._broken}")
        if live or (strict and not self.kernel_state["table"] and self._is_listed(seat, decision)):
            return self._run_live(seat, decision, chance, strict, signed)
        work = self.copy()
        events = self._step(work, seat, decision, chance, signed=signed)
        if strict:
            self._check_listed(seat, decision)
        self._adopt(work)
        self.outcomes += work.outcomes  # (the step's: the copy was made for it)
        return events

    def _run_live(self, seat: int, decision: dict, chance: Chance, checked: bool,
                  signed: dict[str, Any] | None = None) -> list[Ev]:
        """The step on the live state (``_run``): a decision found among the listed
        ones (``checked``), or a seeded game's setup."""
        try:
            return self._step(self, seat, decision, chance, checked, signed)
        except BaseException as e:  # a listed decision (or the setup) the rules refused: a bug in the rules
            self._broken = f"{type(e).__name__}: {e}"
            self._legal = self._acting = None
            raise

    def _step(self, work: "Machine", seat: int, decision: dict, chance: Chance, checked: bool = False,
              signed: dict[str, Any] | None = None) -> list[Ev]:
        # one step object for a machine's steps, while it holds the same state and keeps its
        # events or not alike: what differs from one step to the next is set anew
        step = work._live
        if step is None or step.state is not work.state or step._keep is not work.keep_events:
            step = work._live = Step(work, chance, seat, checked)
        else:
            step.begin(chance, seat, checked)
        rules = self.rules
        vis: Any
        if seat == 0:
            vis = "all"
        elif type(rules).decision_visibility is _SEAT_ONLY:  # the default: the deciding seat alone
            vis = [seat]
        else:
            vis = rules.decision_visibility(self.state, seat, decision)
        if signed is None:
            step.emit("Decided", {"seat": seat, "decision": decision}, vis)
        else:  # the seat's signature, seen by exactly those who see its decision
            step.emit("Decided", {"seat": seat, "decision": decision, **signed}, vis)
        try:
            if seat:
                rules.decide(step, seat, decision)
            elif decision.get("referee") == "note":
                note_slip(step, decision)
            elif "referee" in decision:
                rules.referee(step, decision)
            else:
                rules.setup(step)
            if rules.finished(work.state) and not work.kernel_state["finished"]:
                result = rules.outcome(work.state)
                extra = {"tiebreak": result["tiebreak"]} if result.get("tiebreak") else {}
                step.emit("GameFinished", {"scores": result["scores"], "winners": result["winners"],
                                           "seed": chance.reveal(), **extra}, "all")
        except NeedChance as need:
            step.emit("ChanceAwaited", {**need.spec}, "referee")
        work._legal = work._acting = None  # whatever was asked of the rules during the step is stale
        return step.events

    def _is_listed(self, seat: int, decision: dict, listed: list | None = None) -> bool:
        """``listed``: the list ``_listed(seat)`` gave, when the caller holds it."""
        if listed is None:
            listed = self._listed(seat)
        for d in listed:
            if d is decision:  # taken from the list itself (a bot's choice)
                return True
        return any(d == decision and strictly_equal(d, decision) for d in listed)

    def _check_listed(self, seat: int, decision: dict) -> None:
        """The rules accepted it; it must also be exactly one of the listed
        decisions, types included (``true`` is not ``1``, ``"41"`` is not ``41``)."""
        if not self._is_listed(seat, decision):
            raise IllegalDecision(f"not one of the decisions seat {seat} may make now, exactly as "
                                  "`legal` lists them (check each value's type: true is not 1)")

    def enter_chance(self, outcome: Any) -> list[Ev]:
        """Table mode: the referee enters the awaited outcome; the paused step
        is re-run from its start with every outcome entered so far, and only
        the events after those already recorded are returned."""
        awaiting = self.kernel_state["awaiting"]
        if awaiting is None:
            raise NoChanceAwaited("no chance outcome is awaited now")
        validate(self.said_request(awaiting), outcome)
        pending = self.kernel_state["pending"]
        done = pending["emitted"]
        assert self.base is not None  # a step is pending: its states before were kept
        base = self._with(self.base[0], self.base[1], None)
        events = base._run(pending["seat"], pending["decision"], TableChance(pending["outcomes"] + [outcome]))
        self._adopt(base)
        return events[1 + done:]

    def said_request(self, spec: dict) -> dict:
        """A chance request (as recorded) with its reason, its deck and its cards' names as the
        game says them (``Rules.say_text``, ``Rules.say_deck``, ``Rules.printed_name``): what a referee is shown and told in
        a refusal; a name recorded that reads otherwise stays one a referee may type."""
        out = dict(spec)
        if spec.get("why"):
            out["why"] = self.rules.say_text(self.config, spec["why"])
        if "deck" in spec:
            out["deck_said"] = self.rules.say_deck(self.config, spec["deck"])
        names = spec.get("names")
        if names:
            printed = self.rules.printed_name
            said = {c: printed(n) for c, n in names.items()}
            changed = {c: [n] for c, n in names.items() if said[c] != n}
            # a mark names what tells copies apart, an admiral the catalog may know only as
            # "Dutch admiral 2 (unknown)": said part by part ("Dutch admiral 2"), the card as
            # recorded (its name and that mark) staying a name a referee may type
            marks = {c: "; ".join(printed(part) for part in m.split("; ")) for c, m in (spec.get("marks") or {}).items()}
            for c, m in marks.items():
                if m != spec["marks"][c]:
                    changed.setdefault(c, []).append(f"{names[c]} ({spec['marks'][c]})")
            if changed:
                aliases = {c: list(v) for c, v in (spec.get("aliases") or {}).items()}
                for c, old in changed.items():
                    aliases[c] = aliases.get(c, []) + old
                out["aliases"] = aliases
            out["names"] = said
            if marks:
                out["marks"] = marks
        return out

    def enter_words(self, words: list) -> list[Ev]:
        """Several outcomes in a row, as the referee reads them off the table:
        each awaited chance takes as many words as it needs (``n`` for ``n``
        dice). A refusal names the word; the caller appends all or nothing."""
        if not words:
            raise BadInput("give at least one outcome")
        events: list[Ev] = []
        at_start: dict[str, int] = {}   # each deck awaited on the line, as it stood before the line: what the table still holds
        i = 0
        while i < len(words):
            awaited = self.kernel_state["awaiting"]
            if awaited is None and i == 0:
                raise NoChanceAwaited("no chance outcome is awaited now")
            if awaited is None:
                raise BadInput(f"outcome {i + 1} ({words[i]!r}) is one too many: no chance is awaited "
                               f"after the first {i}")
            take = 1
            if awaited["kind"] == "dice" and awaited["n"] > 1 and not isinstance(words[i], list):
                take = awaited["n"]
                if i + take > len(words):
                    raise BadInput(f"{awaited['n']} dice are awaited ({self.said_request(awaited).get('why', '')}): "
                                   f"give {awaited['n']} faces, got {len(words) - i}")
            outcome = words[i:i + take] if take > 1 else words[i]
            if awaited["kind"] == "card":
                at_start.setdefault(awaited["deck"], len(awaited["choices"]))
            try:
                events += self.enter_chance(outcome)
            except PrivateerError as e:
                at = f"outcome {i + 1}: " if len(words) > 1 else ""
                reason = e.reason
                left = len(awaited.get("choices") or ())
                if i and awaited["kind"] == "card" and at_start[awaited["deck"]] != left:   # a count as the table has it
                    reason = reason.replace(f"({left} cards left", f"({at_start[awaited['deck']]} cards left, "
                                            f"{left} after the outcomes before it on this line", 1)
                raise type(e)(at + reason + ("; nothing on this line was recorded" if i else "")) from None
            i += take
        return events

    def _adopt(self, other: "Machine") -> None:
        self.kernel_state, self.state, self.base = other.kernel_state, other.state, other.base
        self._folder = self._live = None  # they held the states replaced
        self._legal = self._acting = None

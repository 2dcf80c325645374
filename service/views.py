"""Read-side shapes shared by the CLI and the HTTP API: status, board views,
the event log filtered to what the caller may see.

What a seat (or the public) reads is numbered in its own sequence: its
``version`` is how many events it may read, and its log numbers them 1, 2, ...
in that order, so nothing in the numbering depends on events hidden from it.
Chance events a non-referee reads carry the outcome only: their ``index``
(a rank among the cards left, which would count other players' hidden
cards), ``counter`` and ``draws`` are for the referee and the audit."""

from __future__ import annotations

import json
import re

from service.kernel.copies import as_read
from service.kernel.corrections import is_correction, retracted_versions
from service.kernel.machine import CHANCE_TYPES, Ev, Machine
from service.kernel.patterns import pattern
from service.kernel.rules import by_seat, winners_said
from service.kernel.text import words
from service.records.text import decision_text

TYPE_CHECKING = False  # typing is not imported at run time: a direct read's start-up does without it
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any
    from uuid import UUID

    from service.kernel.rules import Rules


REFEREE_ONLY_FIELDS = ("index", "counter", "draws", "referee_signature")  # the last: service/referee_key.py

# The wording of the log (``describe``), raised whenever a line reads differently: a
# read model whose text an older wording wrote (service/projections: ``proj_events.text``)
# is rebuilt once, on its next catch-up (``projections.runner.catch_up``).
LOG_TEXT_VERSION = 4


def status(game_id: UUID, machine: Machine, version: int, head: bytes | None,
           seat: int | None = None) -> dict[str, Any]:
    """``seat``: whose numbering (None: the referee's, 0: the public's)."""
    cfg = machine.config
    result = machine.kernel_state["result"]
    return {
        "game_id": game_id.hex, "game": cfg["game"], "name": cfg.get("name", ""),
        "tournament": cfg.get("tournament", ""), "seats": cfg["seats"], "table": cfg["table"],
        "version": machine.seen(seat, version), "turn": machine.turn(), "finished": machine.finished,
        "to_act": machine.to_act(), "awaiting_chance": machine.awaiting_chance(),
        "scores": result["scores"] if result else None,
        "winners": result["winners"] if result else None,
        "tiebreak": result.get("tiebreak") if result else None,
        "players": cfg.get("players") or {},
        "options": cfg.get("options") or {},
        "commitment": cfg.get("commitment"), "fork": cfg.get("fork"),
        "head": head.hex() if head else None,
    }


def board(game_id: UUID | str, machine: Machine, version: int, seat: int | None) -> dict[str, Any]:
    """The table as ``seat`` saw it (None: the referee) at this point; ``game_id``: the
    game's UUID, or its hex text (a replay's: service/replay.py ``replay_board``)."""
    result = machine.kernel_state["result"]
    return {
        "game_id": game_id if type(game_id) is str else game_id.hex,  # type: ignore[union-attr]  # a UUID
        "game": machine.config["game"],
        "version": machine.seen(seat, version),
        "turn": machine.turn(), "finished": machine.finished, "to_act": machine.to_act(),
        "seat": seat, "scores": result["scores"] if result else None,
        "winners": result["winners"] if result else None,
        "board": seen_board(machine, seat),
    }


def seen_board(machine: Machine, seat: int | None) -> dict[str, Any]:
    """The game's view for ``seat`` (None: the referee), copies of one face read as that
    reader may read them (service/kernel/copies.py)."""
    b = machine.rules.view(machine.state, seat)
    return b if seat is None else as_read(b, machine.alike())


class CardNames:
    """How cards read in the log: ``names(deck)``, what is printed on the cards of ``deck``
    (card id -> name, ``Rules.card_names``; None where the ids are what is printed);
    ``names.decision(d)``, a decision in the game's words (``Rules.say_decision``);
    ``names.alike``, what each copy of one face reads as to anyone but the referee
    (``Machine.alike``, service/kernel/copies.py)."""

    def __init__(self, rules: Rules, config: dict[str, Any], state: Any = None, alike: dict[str, Any] | None = None):
        self._rules, self._config, self._state = rules, config, state
        self._cache: dict[str, dict[str, str] | None] = {}
        self.alike = alike or {}

    def __call__(self, deck: str) -> dict[str, str] | None:
        if self._state is None:
            return None
        if deck not in self._cache:  # (the catalog does not change during a game)
            self._cache[deck] = self._rules.card_names(self._state, deck)
        return self._cache[deck]

    def decision(self, decision: dict[str, Any]) -> str:
        return self._rules.say_decision(self._config, decision)

    @property
    def config(self) -> dict[str, Any] | None:
        """The game's ``GameCreated`` data (its catalog names the cards), where given."""
        return self._config or None


def card_namer(machine: Machine) -> CardNames:
    """How the cards of ``machine``'s game read, as its rules know them now."""
    return CardNames(machine.rules, machine.config, machine.state, machine.alike())


def decision_namer(rules: Rules, config: dict[str, Any]) -> CardNames:
    """What ``card_namer`` gives, from a game's ``GameCreated`` data alone (no state to
    read cards from): its decisions in words, no printed card names."""
    return CardNames(rules, config)


def entered_said(machine: Machine, entered: Iterable[tuple[int, Any, str, Any]]) -> list[str]:
    """The outcomes entered in a step (``corrections.step_outcomes``), each as the referee's log
    reads its chance event: "drew Frederico da Silva from the captain deck (...)", not its id."""
    names = card_namer(machine)
    players = machine.config.get("players")
    return [with_names(describe(machine.rules, Ev(e.type, e.turn, e.visible_to, e.data), names), players)
            for _, _, _, e in entered]


def log_entries(rules: Rules, stored: Iterable[Any], seat: int | None, after: int = 0, limit: int | None = None,
                start: int = 0, players: dict[str, str] | None = None,
                names: CardNames | None = None) -> list[dict[str, Any]]:
    """Events the caller may read, readable, numbered in the caller's own
    sequence. ``seat`` None is the referee (numbers are versions), 0 the
    public. ``start``: how many events the caller could read before
    ``stored[0]`` (0 when ``stored`` starts at version 1); ``after``/``limit``
    page in the caller's numbering. ``players``: names by seat for the text
    (read from ``GameCreated`` when ``stored`` starts with it). ``names``: the cards'
    printed names (``card_namer``), shown beside their ids."""
    stored = list(stored)
    if players is None and stored and stored[0].type == "GameCreated":
        players = dict(stored[0].data.get("players") or {})
        players.update({str(e.data["seat"]): e.data["player"] for e in stored if e.type == "SeatNamed"})
    retracted = retracted_versions(stored)
    alike = names.alike if seat is not None and names is not None else None
    out: list[dict[str, Any]] = []
    position = start
    positions: list[tuple[int, int]] = []  # (store version, caller's number) of what the caller reads
    for e in stored:
        ev = Ev(e.type, e.turn, e.visible_to, e.data)
        if seat is None:
            position = e.originator_version
        elif ev.visible_to(seat if seat else -1):
            position += 1
            positions.append((e.originator_version, position))
        else:
            continue
        if position <= after:
            continue
        if limit is not None and len(out) >= limit:
            break
        data = e.data
        if alike:  # copies of one face, as the public has seen them (service/kernel/copies.py)
            data = as_read(data, alike)
            ev = Ev(e.type, e.turn, e.visible_to, data)
        if seat is not None and (e.type in CHANCE_TYPES or (e.type == "Decided" and "referee_signature" in data)):
            data = {k: v for k, v in data.items() if k not in REFEREE_ONLY_FIELDS}
            ev = Ev(e.type, e.turn, e.visible_to, data)
        elif seat is not None and (e.type == "Corrected" or (e.type == "Decided" and is_correction(data.get("decision")))):
            data = _correction_in_own_numbers(data, positions, start)
            ev = Ev(e.type, e.turn, e.visible_to, data)
        text = describe(rules, ev, names)
        entry = {"version": position, "turn": e.turn, "type": e.type,
                 "visible_to": e.visible_to, "data": data,
                 "text": text if e.type == "SeatNamed" else with_names(text, players),
                 "timestamp": e.timestamp if type(e.timestamp) is str else e.timestamp.isoformat()}
        entry["retracted"] = e.originator_version in retracted
        if entry["retracted"]:
            entry["text"] = "[retracted] " + entry["text"]
        out.append(entry)
    return out


def _correction_in_own_numbers(data: dict[str, Any], positions: list[tuple[int, int]],
                               start: int) -> dict[str, Any]:
    """A correction names store versions; a seat reads them in its own numbers."""
    def own(v: int) -> int:
        return max([p for ver, p in positions if ver <= v] or [start])

    if "decision" in data:
        d = dict(data["decision"])
        d["to_version"] = own(d["to_version"])
        return dict(data, decision=d)
    first, last = data["retracted"]
    return dict(data, to_version=own(data["to_version"]),
                retracted=[own(first - 1) + 1, own(last)])


_seat = pattern(r"\bseat (\d+)\b")


def with_names(text: str, players: dict[str, str] | None) -> str:
    """``seat 2`` becomes ``seat 2 (Ada)`` where the seat's player is named."""
    if not players:
        return text
    return _seat().sub(lambda m: f"{m.group(0)} ({players[m.group(1)]})" if m.group(1) in players else m.group(0), text)


def _printed(names: CardNames | None, deck: str, card: Any) -> str:
    """``card`` with its printed name, when it has one that its id does not say: ``C28 (sugar)``."""
    if names is None or not isinstance(card, str):
        return str(card)
    name = (names(deck) or {}).get(card)
    if not name or name.lower() == words(card).lower():  # frances_wright: its id says it
        return card
    return f"{card} ({name})"


# the kernel's facts that only ``describe`` words (the chance events and what the referee is
# asked to enter may be the game's words: ``say_event``)
_KERNEL_TYPES = frozenset(("GameCreated", "Decided", "GameFinished", "RefereeNoted", "Corrected", "EntropyAdded",
                           "SeatNamed", "SeatKeyRegistered", "RefereeKeyRegistered"))


def describe(rules: Rules, ev: Ev, names: CardNames | None = None) -> str:
    """One readable line for ``ev``; ``names``: the cards' printed names (``card_namer``)."""
    d = ev.data
    t = ev.type
    if t == "GameCreated":
        # the game as its box names it (``Rules.title``), not its id
        title = rules.title if rules.name == d["game"] and rules.title else d["game"]
        return f"{title} created for {d['seats']} seats" + (" (table mode)" if d["table"] else "")
    if t == "Decided":
        if d["seat"] == 0 and "referee" in d["decision"]:
            return referee_text(d["decision"])
        if d["seat"] == 0:
            return "the table is set up" if d["decision"] == {"step": "setup"} else f"step: {json.dumps(d['decision'])}"
        say = getattr(names, "decision", None)
        if say is not None and isinstance(d["decision"], dict):
            return f"seat {d['seat']} decides: {say(d['decision'])}"
        return f"seat {d['seat']} decides: {decision_text(d['decision'])}"
    # the game's own words (``Rules.say_event``): its chance events too, its cards named from
    # the game's catalog (``names.config``; without it, the rules' default)
    if t not in _KERNEL_TYPES:
        text = rules.say_event(getattr(names, "config", None), ev)
        if text:
            return text
    if t == "DiceRolled":
        return f"rolled {d['n']}d{d['sides']}: {d['values']} ({d['why']})"
    if t == "CardDrawn":
        return f"drew {_printed(names, d['deck'], d['card'])} from {d['deck']} ({d['why']})"
    if t == "ChanceChosen":
        return f"chance chose {_plain(d['value'])} among {', '.join(_plain(o) for o in d['options'])} ({d['why']})"
    if t == "DeckShuffled":
        if d.get("face_down"):
            return f"laid {len(d['order'])} cards of {d['deck']} face down, unseen ({d['why']})"
        return f"shuffled {d['deck']} ({d['why']})"
    if t == "CardIdentified":
        return f"turned over {d['token']}: it is {_printed(names, d['deck'], d['card'])} ({d['why']})"
    if t == "ChanceAwaited":
        return f"waiting for the referee to enter: {d['kind']} ({d.get('why', '')})"
    if t == "GameFinished":
        text = f"game finished: {winners_said(d['winners'])}; scores {by_seat(d['scores'])}"
        tb = d.get("tiebreak")
        if tb:
            text += (f"; seats {', '.join(map(str, tb['tied']))} tied on points, tie-break {tb['rule']}: "
                     f"{by_seat(tb['cannon_cards'])}")
        return text
    if t == "RefereeNoted":
        return f"referee's note: {d['text']}"
    if t == "Corrected":
        first, last = d["retracted"]
        return f"correction: back to version {d['to_version']}, {first}-{last} retracted: {d.get('reason', '')}"
    if t == "EntropyAdded":
        return f"seat {d['seat']} added entropy to the seed"
    if t == "SeatNamed":
        return f"{d['player']} takes seat {d['seat']}"
    if t == "SeatKeyRegistered":  # service/seat_keys.py
        if d.get("handover"):
            return f"seat {d['seat']} moves to a new key, handed over by its old one (key {d['key'][:16]})"
        return f"seat {d['seat']} signs its decisions with its own key from now on (key {d['key'][:16]})"
    if t == "RefereeKeyRegistered":  # service/referee_key.py
        return f"the referee signs what it enters with its own key from now on (key {d['key'][:16]})"
    text = rules.describe(ev)
    if not text or text == t or text.startswith(t + " "):  # the rules name it only by its type
        return humanize(t, d)
    return text


def referee_text(decision: dict) -> str:
    """A referee's step in words (the facts that follow it say what it did)."""
    kind = decision.get("referee")
    if kind == "correct":
        return (f"the referee corrects the record: back to version {decision.get('to_version')} "
                f"({decision.get('reason', '')})")
    if kind == "note":
        return "the referee puts a note on the record"
    if kind == "penalty":
        return "the referee rules a penalty"
    if kind == "overrule_npc":
        return "the referee overrules an NPC's move"
    return f"referee: {json.dumps(decision)}"


def humanize(type_: str, data: dict) -> str:
    """An event the rules do not put in words: ``CommittingDone {"seat": 1,
    "cards": 1}`` reads ``committing done: seat 1, cards 1``."""
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", type_).lower()
    parts = []
    for k, v in data.items():
        if v is None or v == [] or v == {}:
            continue
        if k in ("seat", "player", "attacker", "defender", "owner") and isinstance(v, int) and not isinstance(v, bool):
            parts.append(f"{k} {v}" if k == "seat" else f"{k} seat {v}")
            continue
        parts.append(f"{k.replace('_', ' ')} {_plain(v)}")
    return words + (": " + ", ".join(parts) if parts else "")


def _plain(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, list):
        return "[" + ", ".join(_plain(x) for x in v) + "]"
    if isinstance(v, dict):  # by seat where the keys are seats: (seat 1 red, seat 2 blue)
        return "(" + ", ".join(f"{'seat ' if str(k).isdigit() else ''}{k} {_plain(x)}" for k, x in v.items()) + ")"
    return str(v)

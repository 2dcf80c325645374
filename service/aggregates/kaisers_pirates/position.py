"""A Kaiser's Pirates game from a stated position (docs/positions.md): each seat's
warships and raiders (damaged, revealed, short of supply, in an island refuge, their
damage markers), merchantmen (damaged), prizes (damaged, revealed: a prize taken is not
recognised until revealed, as ``hits.py`` takes it) and victory points, its hand of action
cards, a Deception or Fog Bank waiting on it, the discard pile, the round and whose turn;
the solitaire game's phantom player (section 5) and the team game's teams (section 4).

``normalise(config, position)`` (``Rules.position``) checks every ship, merchantman
and action card at most once (an action card by its id, ``qqq-1``, or by its type,
``QQQ``: any copy left; the Island Refuge under a ship and the card waiting on a player
are cards of the deck too), a force within the book's three ships and three merchantmen
(2.1), a hand within six cards (2.1.5), the deck enough for the hands, the discards and
the cards set aside (2.1.4), and each mark where the book allows it: limited supply on a
warship or raider (1.3.2), an island refuge for a warship or raider, hidden there
(3.3.20), more than one damage marker only with the optional rule 6.8, one card waiting
on a player (3.3.10, 3.3.14), a turn skipped by Bounding Main in the team game (3.3.4).
It returns ``{"public": ..., "stated": [...]}``: the cards of a hand are hidden, stated
for their seat alone.

The solitaire game (``--seats 1``): ``players`` holds the real player; ``phantom`` the
phantom's force, victory points, round points, the number of its unseen cards (5.2.2), a
card the real player placed on it, its next turn shortened by its own Deception or Recon
Aircraft (5.4.3 steps 9, 10) and the solitaire cards turned since the last reshuffle
(5.4.1). What the phantom plays on the real player is no card (5.4.3 steps 6, 7): a
Deception or Fog Bank on the real player, an island refuge of the phantom's, are its
pseudo-cards. The discard pile is face down (5.3.1): a number of cards, drawn unseen.
Anything the position does not state is dealt as at a round's start.

``lay(step)`` is the setup: the round begins, the named hands are drawn ``stated``,
``PositionLaid`` (public), the round's cards set aside, the forces not stated drawn as at
a round's start, the hands only counted dealt by chance (the phantom's face down), the
solitaire game's face-down discards drawn unseen; then the stated seat's turn begins (the
rules' entry then plays the phantom, ``rules.setup``).
"""

from __future__ import annotations

from service.kernel import BadInput, positions

from . import catalog as catalog_data
from . import optional, solitaire
from .board import PHANTOM, TEAMS, ix
from .deal import deck_left, draw_action, draw_merchant, draw_ship
from .flow import begin_turn, set_aside
from .state import initial_state, real_card

TYPE_CHECKING = False  # mypy takes the name as true; typing is not imported at run time
if TYPE_CHECKING:
    from typing import Any

    from service.kernel.events import Ev
    from service.kernel.machine import Step

    from .catalog import Index
    from .shapes import Placed, State, StatedCard, StatedPlayer, Status, VpEntry

PLAYER_KEYS = ("ships", "merchants", "prizes", "vp", "hand", "round_points", "pending")
PHANTOM_KEYS = PLAYER_KEYS + ("short_turn", "solitaire_turned")
TOP_KEYS = ("players", "to_play", "round", "discard")
# a force's cards and the marks each may carry: (the position's field, the word for one of its cards, the marks)
FORCES = (("ships", "ship", ("damaged", "revealed", "supply", "refuge", "markers")),
          ("merchants", "merchant", ("damaged", "markers")),
          ("prizes", "merchant", ("damaged", "revealed", "markers")))
# a mark the book gives warships and raiders only: (the word for the card, the mark) -> why not
NOT_FOR = {("merchant", "supply"): "limited supply marks warships and raiders only (1.3.2)",
           ("merchant", "refuge"): "an island refuge shelters a warship or raider only (3.3.20)"}
EXAMPLE = {"damaged": "true", "revealed": "true", "supply": "true", "refuge": "true", "markers": "2"}
PLACED = ("deception", "fog-bank")          # the cards placed on a player (3.3.10, 3.3.14)
SHORT = {"deception": "deception", "recon": "recon", "recon-aircraft": "recon"}     # 5.4.3 steps 9, 10


def _key(text: object) -> str:
    return "-".join(str(text).strip().lower().replace("'", "").split())


def _list(what: str, value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise BadInput(f"{what} must be a JSON list, not {value!r}"[:200])
    return value


def _action(what: str, text: object, free: list[str], i: Index, gone: dict[str, str] | None = None) -> str:
    """A free action card by its id (``qqq-1``) or its type as printed (``QQQ``: any copy left)."""
    if not isinstance(text, str) or not text.strip():
        raise BadInput(f"{what}: give an action card, not {text!r}")
    key = _key(text)
    if key in free:
        free.remove(key)
        return key
    for c in free:
        if i.card_type[c] == key:
            free.remove(c)
            return c
    if key not in i.card_type and key not in i.types:
        raise BadInput(f"{what}: there is no action card {text!r}")
    why = (gone or {}).get(key)
    if why:
        raise BadInput(f"{what}: {text!r} is {why}")
    raise BadInput(f"{what}: no {text!r} left (stated more times than the deck has copies)")


def _type_of(text: str, i: Index) -> str | None:
    """The type of an action card named by its id or its type (None: no such card)."""
    key = _key(text)
    if key in i.types:
        return key
    return i.card_type.get(key)


class _Table:
    """What a position of this game may take: the cards the game leaves in play (the
    solitaire game's 5.2, the optional rule 6.5's), its mode, and the cards still free."""

    def __init__(self, config: dict[str, Any], i: Index) -> None:
        opts = config.get("options") or {}
        self.i = i
        self.solo = bool(opts.get("solitaire"))
        self.team = bool(opts.get("team"))
        self.extra_damage = bool(opts.get("extra_damage"))
        key = config.get("catalog_digest") or "default"
        base = {k: v for k, v in config.items() if k != "position"}
        if self.solo:
            if "solitaire" not in config["catalog"]:
                raise BadInput("kaisers-pirates: the solitaire game needs a catalog with the solitaire deck "
                               "(a 'solitaire' key, as data/solitaire.json)")
            table = initial_state(dict(base, seats=2), key, i)     # the phantom is the second player
            solitaire.prepare(table, config["catalog"])
        else:
            table = initial_state(base, key, i)
        optional.prepare(table, i)
        in_play = set(table["pool"])
        self.free = [c for c in i.action_cards if c in in_play]       # (the catalog's order: "any copy")
        self.ships_out = set(table.get("unused_ships", ()))
        self.merchants_out = set(table.get("unused_merchants", ()))
        self.gone: dict[str, str] = {}       # a card, ship or type out of this game -> why
        removed_solo = {t for t in (i.solo or {}).get("removed", {}).get("value", ())} if self.solo else set()
        for c in table.get("unused", ()):
            self.gone[c] = ("not used in the solitaire game (5.2)" if i.tid(c) in removed_solo
                            else "out of the game with option beyond_1914 (6.5.3)")
        for t in {i.tid(c) for c in self.gone}:
            if all(c in self.gone for c in i.action_cards if i.tid(c) == t):
                self.gone[t] = next(self.gone[c] for c in self.gone if i.tid(c) == t)
        for s in self.ships_out:
            self.gone[s] = "out of the game with option beyond_1914 (6.5.1)"
        for m in self.merchants_out:
            self.gone[m] = "out of the game with option beyond_1914=historical (6.5.4)"
        self.used: set[str] = set()

    def action(self, what: str, text: object) -> str:
        return _action(what, text, self.free, self.i, self.gone)

    def vessel(self, what: str, entry: object, deck: dict[str, Any], word: str,
               marks: tuple[str, ...], phantom: bool) -> StatedCard:
        """A ship or merchantman: its name, or ``{"ship"|"merchant": name, "damaged": true, ...}``."""
        if isinstance(entry, dict):
            for m in entry:
                if (word, m) in NOT_FOR:
                    raise BadInput(f"{what}: {entry.get(word)!r}: {m}: {NOT_FOR[(word, m)]}"[:300])
            bad = sorted(set(entry) - {word, *marks})
            if bad or word not in entry:
                said = "".join(f', "{f}": {EXAMPLE[f]}' for f in marks)
                raise BadInput(f'{what}: {{"{word}": name{said}}}, not {entry!r}'[:200])
            name = entry[word]
        else:
            name, entry = entry, {}
        if isinstance(name, str) and _key(name) in self.gone and _key(name) in deck:
            raise BadInput(f"{what}: {deck[_key(name)]['name']} is {self.gone[_key(name)]}")
        if not isinstance(name, str) or _key(name) not in deck:
            raise BadInput(f"{what}: there is no {word} {name!r}")
        card = _key(name)
        printed = deck[card]["name"]
        if card in self.used:
            raise BadInput(f"{what}: {printed} is stated twice (every card once)")
        self.used.add(card)
        for f in ("damaged", "revealed", "supply"):
            if f in entry and not isinstance(entry[f], bool):
                raise BadInput(f"{what}: {printed}'s {f} is true or false, not {entry[f]!r}"[:200])
        out: StatedCard = {"card": card, "damaged": entry.get("damaged", False)}
        if "revealed" in marks:
            out["revealed"] = entry.get("revealed", False)
        if entry.get("supply"):
            out["supply"] = True
        if "markers" in entry:
            n = positions.whole(f"{what}: {printed}'s markers (damage markers)", entry["markers"], 1, 99)
            if entry.get("damaged") is False:
                raise BadInput(f"{what}: {printed} is stated undamaged with {n} damage marker{'s' * (n > 1)}")
            if n > 1 and not self.extra_damage:
                raise BadInput(f"{what}: {printed}'s markers: {n} damage markers, but a damaged ship damaged again "
                               f"takes no other marker (3.2.7) unless the optional rule 6.8 is on "
                               f"(option extra_damage=true)")
            out["damaged"] = True
            out["markers"] = n
        refuge = entry.get("refuge", False)
        if refuge is not False:
            if entry.get("revealed"):
                raise BadInput(f"{what}: {printed} is stated revealed and in an island refuge: a raider there is "
                               f"hidden and cannot be revealed (3.3.20)")
            out["refuge"] = self.refuge(f"{what}: {printed}'s refuge", refuge, phantom)
        return out

    def refuge(self, what: str, value: object, phantom: bool) -> str:
        """The Island Refuge card a ship shelters under: ``true`` (any copy left) or the card;
        the phantom's is no card (5.4.3 step 7)."""
        if value is True:
            text = "island-refuge"
        elif isinstance(value, str) and value.strip():
            text = value
        else:
            raise BadInput(f"{what}: true, or an Island Refuge card, not {value!r}"[:200])
        if _type_of(text, self.i) != "island-refuge":
            raise BadInput(f"{what}: {text!r} is not an Island Refuge card (3.3.20)")
        if phantom:
            return solitaire.pseudo("island-refuge")
        if value is True:
            return ""           # any copy: taken once every card named by its id is (``any_copies``)
        return self.action(what, text)

    def any_copies(self, players: list[StatedPlayer]) -> None:
        """The refuges stated ``true``: any Island Refuge left, once the cards named are taken."""
        for p in players:
            for c in p.get("ships", []):
                if c.get("refuge") == "":
                    c["refuge"] = self.action(f"seat {p['seat']}'s ships: {self.i.ships[c['card']]['name']}'s refuge",
                                              "island-refuge")

    def placed(self, what: str, value: object, pseudo: bool) -> Placed:
        """A Deception or Fog Bank waiting on a player (by the phantom: no card, 5.4.3 step 6)."""
        if isinstance(value, list):
            raise BadInput(f"{what}: one card: a player never has a Deception and a Fog Bank waiting at once "
                           f"(3.3.10, 3.3.14)")
        if not isinstance(value, str) or not value.strip():
            raise BadInput(f"{what}: 'Deception' or 'Fog Bank', not {value!r}"[:200])
        t = _type_of(value, self.i)
        if t is None:
            raise BadInput(f"{what}: there is no action card {value!r}"[:200])
        if t not in PLACED:
            raise BadInput(f"{what}: {value!r} is neither a Deception nor a Fog Bank (the cards placed on a "
                           f"player, 3.3.10, 3.3.14)")
        if pseudo:
            return {"card": solitaire.pseudo(t), "type": t}
        return {"card": self.action(what, value), "type": t}


def _seat(tb: _Table, who: str, seat: int, q: dict[str, Any], keys: tuple[str, ...], rnd: int) -> StatedPlayer:
    """One seat's part of the position (the phantom's too: ``seat`` 2 of the solitaire game)."""
    i = tb.i
    phantom = tb.solo and seat == PHANTOM
    if "skip" in q and not tb.team:
        raise BadInput(f"{who}'s skip: Bounding Main skips a turn in the team game only (3.3.4, section 4)")
    positions.keys(who, q, keys)
    force: dict[str, list[StatedCard]] = {}
    for k, word, marks in FORCES:
        if k in q:
            deck = i.ships if k == "ships" else i.merchants
            force[k] = [tb.vessel(f"{who}'s {k}", e, deck, word, marks, phantom) for e in _list(f"{who}'s {k}", q[k])]
    for k in ("ships", "merchants"):
        if len(force.get(k, [])) > i.force[k]:
            raise BadInput(f"{who}'s {k}: {len(force[k])} stated, a force has at most {i.force[k]} (2.1)")
    vp: list[VpEntry] = []
    everything = {**i.ships, **i.merchants}
    for name in _list(f"{who}'s vp", q.get("vp", [])):
        c = tb.vessel(f"{who}'s vp (ships sunk, merchantmen sunk or brought home)", name, everything,
                      "ship or merchantman", (), phantom)
        vp.append({"card": c["card"], "deck": "ship" if c["card"] in i.ships else "merchant", "double": False})
    points = _list(f"{who}'s round_points", q.get("round_points", [0] * (rnd - 1)))
    if len(points) != rnd - 1:
        raise BadInput(f"{who}'s round_points: one a round played, {rnd - 1} before round {rnd}")
    p: StatedPlayer = {"seat": seat, **force, "vp": vp,  # type: ignore[typeddict-item]  # (ships, merchants, prizes)
                       "round_points": [positions.whole(f"{who}'s round_points", v, 0, 99) for v in points],
                       "hand": 0, "hand_stated": False}
    hand = q.get("hand", i.hand_size)
    if isinstance(hand, list) and phantom:
        raise BadInput(f"{who}'s hand: a number of cards (dealt face down and never looked at, 5.2.2), not a list")
    if isinstance(hand, list):
        if len(hand) > i.hand_size:
            raise BadInput(f"{who}'s hand: {len(hand)} cards, a hand holds at most {i.hand_size} (2.1.5)")
        p["cards"] = [tb.action(f"{who}'s hand", c) for c in hand]
        p["hand"], p["hand_stated"] = len(hand), True
    else:
        p["hand"] = positions.whole(f"{who}'s hand (a list of cards, or a number dealt by chance)", hand, 0,
                                    i.hand_size)
    if q.get("pending") is not None:
        # the real player's in the solitaire game: the phantom's (no card, 5.4.3 step 6)
        p["pending"] = tb.placed(f"{who}'s pending", q["pending"], tb.solo and not phantom)
    if "skip" in q:
        if not isinstance(q["skip"], bool):
            raise BadInput(f"{who}'s skip is true or false, not {q['skip']!r}"[:200])
        if q["skip"]:
            p["skip"] = True
    return p


def _teams(value: object) -> None:
    """4.1: partners sit alternately; a position may say so, and nothing else."""
    seats = [sorted(t) for t in value if isinstance(t, list)] if isinstance(value, list) else []
    if sorted(seats) != [list(t) for t in TEAMS] or len(seats) != len(value):  # type: ignore[arg-type]
        raise BadInput(f"teams: partners sit alternately (4.1): [[1, 3], [2, 4]], not {value!r}"[:200])


def normalise(config: dict[str, Any], position: dict[str, Any]) -> dict[str, Any]:
    i = catalog_data.index(config["catalog"], config.get("catalog_digest") or "default")
    tb = _Table(config, i)
    seats = config["seats"]
    if "phantom" in position and not tb.solo:
        raise BadInput("phantom: only the solitaire game has a phantom player (section 5, --seats 1)")
    if "teams" in position and not tb.team:
        raise BadInput("teams: only the team game has teams (section 4, option team=true)")
    positions.keys("the position", position, TOP_KEYS + (("phantom",) if tb.solo else ("teams",) if tb.team else ()))
    people = positions.players(position, seats)
    if "teams" in position:
        _teams(position["teams"])
    rnd = positions.whole("round", position.get("round", 1), 1, 3)
    to_play = positions.whole("to_play" + (" (1 the player, 2 the phantom)" if tb.solo else ""),
                              position.get("to_play", 1), 1, 2 if tb.solo else seats)
    out: list[StatedPlayer] = []
    stated: list[str] = []
    for seat, q in enumerate(people, 1):
        out.append(_seat(tb, f"seat {seat}", seat, q, PLAYER_KEYS + (("skip",) if tb.team else ()), rnd))
    solo: dict[str, Any] | None = None
    if tb.solo:
        ph = position.get("phantom", {})
        out.append(_seat(tb, "the phantom", PHANTOM, ph, PHANTOM_KEYS, rnd))
        short = ph.get("short_turn")
        if short is not None and (not isinstance(short, str) or _key(short) not in SHORT):
            raise BadInput(f"the phantom's short_turn: 'Deception' (5.4.3 step 9) or 'Recon Aircraft' (step 10), "
                           f"not {short!r}"[:200])
        names = {_key(c["name"]): c["id"] for c in i.solo_cards.values()}
        turned: list[str] = []
        for c in _list("the phantom's solitaire_turned", ph.get("solitaire_turned", [])):
            cid = names.get(_key(c), _key(c)) if isinstance(c, str) else None
            if cid not in i.solo_cards:
                raise BadInput(f"the phantom's solitaire_turned: there is no solitaire card {c!r}"[:200])
            if cid in turned:
                raise BadInput(f"the phantom's solitaire_turned: {c!r} is stated twice (turned once until the "
                               f"reshuffle, 5.4.1)"[:200])
            turned.append(cid)  # type: ignore[arg-type]
        face_down = position.get("discard", 0)
        if isinstance(face_down, list):
            raise BadInput("discard: the solitaire game's discards are face down (5.3.1): give their number")
        solo = {"short": SHORT[_key(short)] if short is not None else None, "turned": turned,
                "face_down": positions.whole("discard (face down, 5.3.1: how many)", face_down, 0, 100)}
        discard: list[str] = []
    else:
        discard = [tb.action("the discards", c) for c in _list("discard", position.get("discard", []))]
    tb.any_copies(out)
    for p in out:
        if p.get("skip") and p["seat"] != to_play:
            raise BadInput(f"seat {p['seat']}'s skip: Bounding Main skips the turn of the next player (3.3.4): "
                           f"only the seat whose turn begins (to_play {to_play}) can be skipped")
        stated += p.pop("cards", [])
    opts = config.get("options") or {}
    deck: dict[str, Any] = i.solo or {}
    k: int = opts.get("removed", deck["removed_at_random"]["value"] if tb.solo else i.removed[seats])
    dealt = sum(p["hand"] for p in out if not p["hand_stated"]) + (solo["face_down"] if solo else 0)
    if dealt + k > len(tb.free):
        raise BadInput(f"counts not conserved: {dealt} action cards to deal and {k} to set aside, "
                       f"{len(tb.free)} left in the deck")
    public: dict[str, Any] = {"players": out, "discard": discard, "round": rnd, "to_play": to_play}
    if solo is not None:
        public["solitaire"] = solo
    return {"public": public, "stated": stated}


def lay(step: Step) -> None:
    """The setup of a game from a stated position, up to the stated seat's turn."""
    state = step.state
    pos = state["position"]
    step.emit("RoundStarted", {"round": pos["round"]})
    for q in pos["players"]:                     # the named hands first, each seen by its seat alone
        if q["hand_stated"]:
            for _ in range(q["hand"]):
                step.draw(f"action:hand-{q['seat']}", state["pool"], vis=[q["seat"]], stated=True,
                          why=f"a card in seat {q['seat']}'s hand (the position)")
                step.emit("ActionCardDrawn", {"seat": q["seat"], "left": deck_left(state)})
    laid: dict[str, Any] = {"players": [{k: v for k, v in q.items() if k not in ("hand", "hand_stated")}
                                        for q in pos["players"]],
                            "hands": {str(q["seat"]): q["hand"] for q in pos["players"]}, "discard": pos["discard"]}
    solo = pos.get("solitaire")
    if solo is not None:
        laid["solitaire"] = solo
    step.emit("PositionLaid", laid)
    set_aside(step)
    for q in pos["players"]:                     # a force not stated: drawn as at a round's start
        s = q["seat"]
        if "ships" not in q:
            for _ in range(ix(state).force["ships"]):
                draw_ship(step, s)
        if "merchants" not in q:
            for _ in range(ix(state).force["merchants"]):
                draw_merchant(step, s)
    for q in pos["players"]:                     # the hands only counted: dealt by chance (the phantom's unseen)
        if not q["hand_stated"]:
            for _ in range(q["hand"]):
                draw_action(step, q["seat"])
    for _ in range(solo["face_down"] if solo is not None else 0):
        _face_down(step)
    step.emit("FirstPlayerChosen", {"seat": pos["to_play"], "round": pos["round"]})
    begin_turn(step, pos["to_play"])


def _face_down(step: Step) -> None:
    """A card of the solitaire game's discard pile, face down (5.3.1): drawn unseen, as the
    phantom's draws are (``deal.draw_hidden``)."""
    state = step.state
    why = "a card of the face-down discard pile (the position, 5.3.1)"
    if state.get("unseen"):
        step.shuffle("action:phantom-discard", state["pool"][:1], vis="referee", face_down=True, why=why)
    else:
        step.draw("action:phantom-discard", state["pool"], vis="referee", why=why)


# the events ---------------------------------------------------------------------------

def _laid(state: State, d: dict[str, Any], ev: Ev) -> None:
    status = state["status"]
    extra_damage = bool(state["options"].get("extra_damage"))
    for q in d["players"]:
        p = state["players"][q["seat"] - 1]
        for k, pool in (("ships", "ship_pool"), ("merchants", "merchant_pool"), ("prizes", "merchant_pool")):
            for c in q.get(k, []):
                p[k].append(c["card"])
                state[pool].remove(c["card"])  # type: ignore[literal-required]  # ship_pool or merchant_pool
                st: Status = {"damaged": c["damaged"], "supply": c.get("supply", False),
                              "revealed": c.get("revealed", k == "merchants"), "refuge": c.get("refuge")}
                status[c["card"]] = st
                if c.get("refuge"):
                    st["since"] = 0                     # entered in an earlier turn: it may leave (3.3.20)
                    if real_card(c["refuge"]):
                        state["pool"].remove(c["refuge"])
                if extra_damage and c["damaged"]:
                    st["hits"] = c.get("markers", 1)    # 6.8.1
        for e in q["vp"]:
            p["vp"].append(dict(e))
            state["ship_pool" if e["deck"] == "ship" else "merchant_pool"].remove(e["card"])
        p["round_points"] = list(q["round_points"])
        if q.get("pending"):
            p["pending"] = dict(q["pending"])
            if real_card(q["pending"]["card"]):
                state["pool"].remove(q["pending"]["card"])
        if q.get("skip"):
            p["skip"] = True
    for c in d["discard"]:
        state["pool"].remove(c)
        state["discard"].append(c)
    solo = d.get("solitaire")
    if solo is not None:
        state["solo"]["short"] = solo["short"]
        state["solo"]["pile"] = [c for c in state["solo"]["pile"] if c not in solo["turned"]]
    state.pop("position", None)


HANDLERS = {"PositionLaid": _laid}

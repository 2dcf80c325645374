"""A Kaiser's Pirates game from a stated position (docs/positions.md): each seat's
warships and raiders (damaged, revealed), merchantmen (damaged), prizes (damaged,
revealed: a prize taken is not recognised until revealed, as ``hits.py`` takes it) and victory
points, its hand of action cards, the discard pile, the round and whose turn.

``normalise(config, position)`` (``Rules.position``) checks every ship, merchantman
and action card at most once (an action card by its id, ``qqq-1``, or by its type,
``QQQ``: any copy left), a force within the book's three ships and three merchantmen
(2.1), a hand within six cards (2.1.5) and the deck enough for the hands, the discards
and the cards set aside (2.1.4); it returns ``{"public": ..., "stated": [...]}``: the
cards of a hand are hidden, stated for their seat alone. ``lay(step)`` is the setup:
the round begins, the named hands are drawn ``stated``, ``PositionLaid`` (public), the
round's cards set aside, the forces not stated drawn as at a round's start, the hands
only counted dealt by chance; then the stated seat's turn begins. The solitaire and
team games take no position yet.
"""

from __future__ import annotations

from service.kernel import BadInput, positions

from . import catalog as catalog_data
from .board import ix
from .deal import deck_left, draw_action, draw_merchant, draw_ship
from .flow import begin_turn, set_aside

TYPE_CHECKING = False  # mypy takes the name as true; typing is not imported at run time
if TYPE_CHECKING:
    from typing import Any

    from service.kernel.events import Ev
    from service.kernel.machine import Step

    from .catalog import Index
    from .shapes import State

PLAYER_KEYS = ("ships", "merchants", "prizes", "vp", "hand", "round_points")
TOP_KEYS = ("players", "to_play", "round", "discard")


def _key(text: object) -> str:
    return "-".join(str(text).strip().lower().replace("'", "").split())


def _list(what: str, value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise BadInput(f"{what} must be a JSON list, not {value!r}"[:200])
    return value


def _action(what: str, text: object, free: list[str], i: Index) -> str:
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
    raise BadInput(f"{what}: no {text!r} left (stated more times than the deck has copies)")


def _force_card(what: str, entry: object, deck: dict[str, Any], used: set[str], word: str,
                flags: tuple[str, ...]) -> dict[str, Any]:
    """A ship or merchantman: its name, or ``{"ship"|"merchant": name, "damaged": true, ...}``."""
    if isinstance(entry, dict):
        bad = sorted(set(entry) - {word, *flags})
        if bad or word not in entry:
            marks_said = "".join(f', "{f}": true' for f in flags)
            raise BadInput(f'{what}: {{"{word}": name{marks_said}}}, not {entry!r}'[:200])
        name = entry[word]
        marks = {f: entry.get(f, False) for f in flags}
        if any(not isinstance(v, bool) for v in marks.values()):
            raise BadInput(f"{what}: {', '.join(flags)} are true or false")
    else:
        name, marks = entry, {f: False for f in flags}
    if not isinstance(name, str) or _key(name) not in deck:
        raise BadInput(f"{what}: there is no {word} {name!r}")
    card = _key(name)
    if card in used:
        raise BadInput(f"{what}: {deck[card]['name']} is stated twice (every card once)")
    used.add(card)
    return {"card": card, **marks}


def normalise(config: dict[str, Any], position: dict[str, Any]) -> dict[str, Any]:
    opts = config.get("options") or {}
    if opts.get("solitaire") or opts.get("team"):
        raise BadInput("kaisers-pirates: the solitaire and team games cannot start from a position yet")
    i = catalog_data.index(config["catalog"], config.get("catalog_digest") or "default")
    seats = config["seats"]
    positions.keys("the position", position, TOP_KEYS)
    people = positions.players(position, seats)
    rnd = positions.whole("round", position.get("round", 1), 1, 3)
    to_play = positions.whole("to_play", position.get("to_play", 1), 1, seats)
    free = list(i.action_cards)
    used: set[str] = set()
    everything = {**i.ships, **i.merchants}
    out, stated = [], []
    for seat, q in enumerate(people, 1):
        who = f"seat {seat}"
        positions.keys(who, q, PLAYER_KEYS)
        p: dict[str, Any] = {"seat": seat}
        for k, deck, word, flags in (("ships", i.ships, "ship", ("damaged", "revealed")),
                                     ("merchants", i.merchants, "merchant", ("damaged",)),
                                     ("prizes", i.merchants, "merchant", ("damaged", "revealed"))):
            if k in q:
                p[k] = [_force_card(f"{who}'s {k}", e, deck, used, word, flags) for e in _list(f"{who}'s {k}", q[k])]
        for k in ("ships", "merchants"):
            if len(p.get(k, [])) > i.force[k]:
                raise BadInput(f"{who}'s {k}: {len(p[k])} stated, a force has at most {i.force[k]} (2.1)")
        p["vp"] = []
        for name in _list(f"{who}'s vp", q.get("vp", [])):
            c = _force_card(f"{who}'s vp (ships sunk, merchantmen sunk or brought home)", name, everything, used,
                            "ship or merchantman", ())
            p["vp"].append({"card": c["card"], "deck": "ship" if c["card"] in i.ships else "merchant",
                            "double": False})
        points = _list(f"{who}'s round_points", q.get("round_points", [0] * (rnd - 1)))
        if len(points) != rnd - 1:
            raise BadInput(f"{who}'s round_points: one a round played, {rnd - 1} before round {rnd}")
        p["round_points"] = [positions.whole(f"{who}'s round_points", v, 0, 99) for v in points]
        hand = q.get("hand", i.hand_size)
        if isinstance(hand, list):
            if len(hand) > i.hand_size:
                raise BadInput(f"{who}'s hand: {len(hand)} cards, a hand holds at most {i.hand_size} (2.1.5)")
            cards = [_action(f"{who}'s hand", c, free, i) for c in hand]
            stated += cards
            p.update(hand=len(cards), hand_stated=True)
        else:
            p.update(hand=positions.whole(f"{who}'s hand (a list of cards, or a number dealt by chance)", hand, 0,
                                 i.hand_size), hand_stated=False)
        out.append(p)
    discard = [_action("the discards", c, free, i) for c in _list("discard", position.get("discard", []))]
    k = opts.get("removed", i.removed[seats])
    dealt = sum(p["hand"] for p in out if not p["hand_stated"])
    if dealt + k > len(free):
        raise BadInput(f"counts not conserved: {dealt} action cards to deal and {k} to set aside, "
                       f"{len(free)} left in the deck")
    return {"public": {"players": out, "discard": discard, "round": rnd, "to_play": to_play}, "stated": stated}


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
    step.emit("PositionLaid", {"players": [{k: v for k, v in q.items() if k not in ("hand", "hand_stated")}
                                       for q in pos["players"]],
              "hands": {str(q["seat"]): q["hand"] for q in pos["players"]}, "discard": pos["discard"]})
    set_aside(step)
    for q in pos["players"]:                     # a force not stated: drawn as at a round's start
        s = q["seat"]
        if "ships" not in q:
            for _ in range(ix(state).force["ships"]):
                draw_ship(step, s)
        if "merchants" not in q:
            for _ in range(ix(state).force["merchants"]):
                draw_merchant(step, s)
    for q in pos["players"]:                     # the hands only counted: dealt by chance
        if not q["hand_stated"]:
            for _ in range(q["hand"]):
                draw_action(step, q["seat"])
    step.emit("FirstPlayerChosen", {"seat": pos["to_play"], "round": pos["round"]})
    begin_turn(step, pos["to_play"])


# the events ---------------------------------------------------------------------------

def _laid(state: State, d: dict[str, Any], ev: Ev) -> None:
    status = state["status"]
    for q in d["players"]:
        p = state["players"][q["seat"] - 1]
        for k, pool in (("ships", "ship_pool"), ("merchants", "merchant_pool"), ("prizes", "merchant_pool")):
            for c in q.get(k, []):
                p[k].append(c["card"])
                state[pool].remove(c["card"])  # type: ignore[literal-required]  # ship_pool or merchant_pool
                status[c["card"]] = {"damaged": c["damaged"], "supply": False,
                                     "revealed": c.get("revealed", k == "merchants"), "refuge": None}
        for e in q["vp"]:
            p["vp"].append(dict(e))
            state["ship_pool" if e["deck"] == "ship" else "merchant_pool"].remove(e["card"])
        p["round_points"] = list(q["round_points"])
    for c in d["discard"]:
        state["pool"].remove(c)
        state["discard"].append(c)
    state.pop("position", None)


HANDLERS = {"PositionLaid": _laid}

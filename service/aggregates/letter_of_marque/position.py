"""A Letter of Marque game from a stated position (docs/positions.md): ships at sea on
their treasures, score piles, cannon cards, whose turn.

``normalise(config, position)`` (``Rules.position``) checks the counts (every treasure
card of a colour once, at most 5 ships and 2 armed bases a colour, every cannon card
once) and returns ``{"public": ..., "stated": [...]}``: the base of each ship at sea not
yet revealed is hidden, stated for its owner alone. ``lay(step)`` is the setup of such
a game: the bases picked ``stated`` first (seen by their owners), ``PositionLaid``
(public: the ships, treasures, piles, decks), each seat's ships' bases and reserve
(``ShipBaseChosen`` and ``ReserveStated``, its own), then the turn.

A ship brought home keeps its base secret: the reserve counts it as unarmed while an
unarmed base is left (the position cannot tell otherwise, and nobody else may know).
"""

from __future__ import annotations

from service.kernel import BadInput, positions

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    from typing import Any

    from service.kernel.events import Ev
    from service.kernel.machine import Step

    from .state import State

BASES = {"armed": True, "unarmed": False, "revealed armed": "revealed"}
PLAYER_KEYS = ("sea", "returned", "plundered", "captured", "cannons")


def _values(what: str, values: object) -> list:
    if not isinstance(values, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise BadInput(f"{what} is a list of treasure values")
    return values


def normalise(config: dict, position: dict) -> dict:
    cat = config["catalog"]
    seats = config["seats"]
    colours = (config.get("options") or {}).get("colours") or cat["colours"]["value"][:seats]
    positions.keys("the position", position, ("players", "to_play", "turn"))
    people = positions.players(position, seats)
    left = {c: list(cat["treasures"]["value"][c]) for c in colours}  # each colour's treasures not yet placed
    lost = {c: 0 for c in colours}           # a colour's ships plundered: unarmed, gone
    repelled = {c: 0 for c in colours}       # a colour's cannon cards captured in defence
    out = [_player(q, seat, colours, cat, left, lost, repelled) for seat, q in enumerate(people, 1)]
    stated: list = []
    for q in out:
        stated += _counted(q, cat, left[q["colour"]], lost[q["colour"]], repelled[q["colour"]])
    return {"public": {"players": out, "to_play": _to_play(position, colours, seats), "turn": _turn(position)},
            "stated": stated}


def _take(cat: dict, left: dict[str, list[int]], what: str, colour: str, value: int) -> None:
    """One treasure of ``colour`` placed by the position: one of those left, each once."""
    if value not in left[colour]:
        raise BadInput(f"{what}: no {colour} treasure worth {value} left (the {colour} deck holds "
                       f"{sorted(cat['treasures']['value'][colour])}, each once)")
    left[colour].remove(value)


def _player(q: dict, seat: int, colours: list[str], cat: dict, left: dict[str, list[int]], lost: dict[str, int],
            repelled: dict[str, int]) -> dict:
    """A seat's part of the position read: its ships at sea, the treasures it brought home
    and plundered (each taken from ``left``; a plunder counted in ``lost``), the cannon
    cards it captured (counted in ``repelled``)."""
    colour = colours[seat - 1]
    who = f"seat {seat} ({colour})"
    positions.keys(who, q, PLAYER_KEYS)
    sea = []
    if not isinstance(q.get("sea", []), list):
        raise BadInput(f"{who}: 'sea' is a list of ships, [treasure, base]")
    for item in q.get("sea", []):
        if not isinstance(item, list) or not 1 <= len(item) <= 2 or (len(item) == 2 and item[1] not in BASES):
            raise BadInput(f"{who}: a ship at sea is [treasure, \"armed\"|\"unarmed\"|\"revealed armed\"], "
                           f"not {item!r}")
        _take(cat, left, f"{who}'s ship at sea", colour, _values(f"{who}'s ship at sea", item[:1])[0])
        sea.append((item[0], BASES[item[1]] if len(item) == 2 else False))
    returned = _values(f"{who}'s returned treasures", q.get("returned", []))
    for v in returned:
        _take(cat, left, f"{who}'s returned treasure", colour, v)
    plundered = q.get("plundered", {})
    if not isinstance(plundered, dict):
        raise BadInput(f"{who}: 'plundered' is an object, colour -> treasure values taken")
    taken = []
    for c, values in sorted(plundered.items()):
        if c not in colours or c == colour:
            raise BadInput(f"{who}: cannot have plundered {c!r} (the others: "
                           f"{', '.join(x for x in colours if x != colour)})")
        for v in _values(f"{who}'s plundered {c} treasures", values):
            _take(cat, left, f"{who}'s plundered treasure", c, v)
            lost[c] += 1
            taken.append(v)
    captured = q.get("captured", [])
    if not isinstance(captured, list) or any(c not in colours or c == colour for c in captured):
        raise BadInput(f"{who}: 'captured' lists the colours of other players' cannon cards")
    for c in captured:
        repelled[c] += 1
    return {"seat": seat, "colour": colour, "sea": sea, "returned": returned, "plundered": taken,
            "captured": list(captured), "cannons": q.get("cannons")}


def _counted(q: dict, cat: dict, left: list[int], lost: int, repelled: int) -> list:
    """A seat's cannon cards and ships checked against the game's (every one once), its
    reserve derived, and ``q`` completed (cannons, deck, ships); the stated outcomes its
    setup asks: the hidden bases of its ships at sea, then its reserve's armed ships."""
    who = f"seat {q['seat']} ({q['colour']})"
    cannon_cards = cat["cannon_cards"]["value"]
    ships = cat["ships"]["value"]
    spent = len(q["plundered"]) + repelled
    cannons = cannon_cards - spent if q["cannons"] is None else q["cannons"]
    if not isinstance(cannons, int) or isinstance(cannons, bool) or cannons < 0 or cannons + spent != cannon_cards:
        raise BadInput(f"counts not conserved: {who} holds {cannons} cannon cards and spent {spent} "
                       f"({len(q['plundered'])} plunders, {repelled} repelled); the game gives {cannon_cards}")
    armed = sum(1 for _, b in q["sea"] if b is True or b == "revealed")
    unarmed = sum(1 for _, b in q["sea"] if b is False) + lost
    if armed > ships["armed"] or unarmed > ships["unarmed"] or \
            len(q["sea"]) + len(q["returned"]) + lost > ships["armed"] + ships["unarmed"]:
        raise BadInput(f"counts not conserved: {who} has {armed} armed and {unarmed} unarmed ships at sea or "
                       f"plundered and {len(q['returned'])} home; the game gives {ships['armed']} armed and "
                       f"{ships['unarmed']} unarmed")
    # the reserve: the ships brought home counted unarmed while an unarmed base is left
    home_unarmed = min(len(q["returned"]), ships["unarmed"] - unarmed)
    reserve = {"armed": ships["armed"] - armed - (len(q["returned"]) - home_unarmed),
               "unarmed": ships["unarmed"] - unarmed - home_unarmed}
    stated = [b for _, b in q["sea"] if b != "revealed"] + [reserve["armed"]]
    q.update(cannons=cannons, deck=sorted(left), lost=lost,
             ships=[{"treasure": v, "revealed": b == "revealed"} for v, b in q["sea"]])
    del q["sea"]
    return stated


def _to_play(position: dict, colours: list[str], seats: int) -> int:
    """The seat to play, given as a seat or a colour (default: seat 1)."""
    to_play = position.get("to_play", 1)
    if isinstance(to_play, str) and to_play in colours:
        to_play = colours.index(to_play) + 1
    if not isinstance(to_play, int) or isinstance(to_play, bool) or not 1 <= to_play <= seats:
        raise BadInput(f"to_play: a seat (1 to {seats}) or a colour ({', '.join(colours)}), not {to_play!r}")
    return to_play


def _turn(position: dict) -> int:
    turn = position.get("turn", 1)
    if not isinstance(turn, int) or isinstance(turn, bool) or turn < 1:
        raise BadInput(f"turn must be a whole number from 1, not {turn!r}")
    return turn


def lay(step: Step) -> None:
    state = step.state
    pos = state["position"]
    ships_total = None
    bases = {}
    for q in pos["players"]:                        # the hidden part first, each seat's alone
        seat = q["seat"]
        bases[seat] = [step.pick([True, False], vis=[seat], stated=True,
                                 why=f"the base of seat {seat}'s ship at sea on treasure {s['treasure']} (the position)")
                       for s in q["ships"] if not s["revealed"]]
        ships_total = ships_total or dict(state["players"][seat - 1]["reserve"])
        bases[seat].append(step.pick(list(range(ships_total["armed"] + 1)), vis=[seat], stated=True,
                                     why=f"armed ships in seat {seat}'s reserve (the position)"))
    step.emit("PlayersSeated", {"colours": {str(q["seat"]): q["colour"] for q in pos["players"]}})
    step.emit("PositionLaid", {"players": [{k: v for k, v in q.items()} for q in pos["players"]]})
    for q in pos["players"]:
        seat = q["seat"]
        hidden = [s for s in state["sea"] if s["owner"] == seat and not s["revealed"]]
        for ship, armed in zip(hidden, bases[seat]):
            step.emit("ShipBaseStated", {"ship": ship["id"], "armed": armed}, vis=[seat])
        armed_left = bases[seat][-1]
        total = sum(state["players"][seat - 1]["reserve"].values())
        step.emit("ReserveStated", {"seat": seat, "reserve": {"armed": armed_left, "unarmed": total - armed_left}}, vis=[seat])
    step.emit("TurnStarted", {"seat": pos["to_play"]}, turn=pos["turn"])


# the events ---------------------------------------------------------------------------

def _laid(state: State, d: dict[str, Any], ev: Ev) -> None:
    for q in d["players"]:
        p = state["players"][q["seat"] - 1]
        n = len(q["returned"]) + q["lost"]
        p.update(deck=list(q["deck"]), cannons=q["cannons"], treasures=list(q["returned"]) + list(q["plundered"]),
                 captured=list(q["captured"]), launched=n + len(q["ships"]))
        p["reserve"] = {"armed": 0, "unarmed": p["reserve"]["armed"] + p["reserve"]["unarmed"] - p["launched"]}
        for i, s in enumerate(q["ships"]):
            state["sea"].append({"id": f"{q['colour']}-{n + i + 1}", "owner": q["seat"], "treasure": s["treasure"],
                                 "armed": True if s["revealed"] else None, "revealed": s["revealed"]})

    state.pop("position", None)


def _base_stated(state: State, d: dict[str, Any], ev: Ev) -> None:
    for s in state["sea"]:
        if s["id"] == d["ship"]:
            s["armed"] = d["armed"]


def _reserve_stated(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["players"][d["seat"] - 1]["reserve"] = dict(d["reserve"])


HANDLERS = {"PositionLaid": _laid, "ShipBaseStated": _base_stated, "ReserveStated": _reserve_stated}

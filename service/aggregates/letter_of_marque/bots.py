"""Bots for ``tools simulate``: they pick among the legal decisions.

* ``random``: any legal decision.
* ``captain``: a privateer who bluffs. It decides from its seat's view only
  (``view.py``: its own bases, every treasure, what attacks revealed), so what
  it cannot see never changes its choice.

  - Its ships: it guards its rich treasures (6 and 7) with its armed ships and
    sends the poor ones unarmed; but one time in three (``BLUFF``) it does the
    opposite: an armed ship on a poor treasure is bait (an attack on it gives it
    the attacker's cannon card), an unarmed one on a rich treasure looks guarded.
  - Its turn: it attacks the ship whose plunder is worth most against what a
    repelled attack costs (a point to its owner and a cannon card), with the
    chance that the ship is unarmed reckoned from the owner's bases not yet
    shown and the treasure's value (players guard the rich ones); it brings
    home an unarmed ship while some opponent still holds a cannon card, the
    richest first, but leaves a poor unarmed one at sea one time in three as if
    it were armed (the bluff: a ship left at sea looks guarded); it launches
    while its deck lasts; its armed ships stay at sea as bait until nothing
    else is left to do; and once its own ships are home and its deck is empty
    it spends its cannon cards, which count for nothing at the end.
"""

from __future__ import annotations

from .view import view

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    from random import Random
    from typing import Any

    from .state import State


BLUFF = 1 / 3       # how often the captain plays against its hand
RICH = 6            # a treasure worth guarding


def random_bot(state: State, seat: int, legal: list[dict[str, Any]], rng: Random) -> dict[str, Any]:
    return rng.choice(legal)


def _unarmed_chance(v: dict, ship: dict) -> float:
    """The chance that an opponent's ship not yet revealed is unarmed, from what the
    seat sees: the owner's armed bases not yet shown among its ships not yet shown
    (two of five), leaning armed on a rich treasure and unarmed on a poor one."""
    owner = ship["owner"]
    shown = [s for s in v["sea"] if s["owner"] == owner and s["revealed"]]
    armed_shown = sum(1 for s in shown if s["armed"] is True)
    launched_or_kept = 5 - len(shown)
    armed_left = max(0, 2 - armed_shown)
    p_armed = armed_left / launched_or_kept if launched_or_kept > 0 else 0.0
    lean = {3: 0.6, 4: 0.8, 5: 1.0, 6: 1.3, 7: 1.5}.get(ship["treasure"], 1.0)
    return max(0.0, min(1.0, 1.0 - p_armed * lean))


def _attack_worth(v: dict, ship: dict) -> float:
    """What an attack on ``ship`` is worth: its treasure moved from its owner's pile to
    ours when it is unarmed, a point to the owner when it is armed."""
    if ship["revealed"]:
        return -1.0 if ship["armed"] else 2.0 * ship["treasure"]
    p = _unarmed_chance(v, ship)
    return p * 2.0 * ship["treasure"] - (1.0 - p) * 1.0


def captain_bot(state: State, seat: int, legal: list[dict[str, Any]], rng: Random) -> dict[str, Any]:
    v = view(state, seat)
    me = v["players"][str(seat)]
    acts: dict[str, list[dict[str, Any]]] = {}
    for d in legal:
        acts.setdefault(d["action"], []).append(d)
    if "place" in acts:
        return _place(me, acts["place"], rng)
    mine = {s["ship"]: s for s in v["sea"] if s["owner"] == seat}
    theirs = {s["ship"]: s for s in v["sea"] if s["owner"] != seat}
    foes_cannons = sum(p["cannon_cards"] for k, p in v["players"].items() if k != str(seat))
    attacks = sorted(acts.get("attack", []), key=lambda d: (-_attack_worth(v, theirs[d["ship"]]), d["ship"]))
    best = attacks[0] if attacks else None
    worth = _attack_worth(v, theirs[best["ship"]]) if best else 0.0
    cannons_left = me["cannon_cards"]
    # a cannon card is worth keeping while targets may come: spend it when the plunder is rich
    if best is not None and worth >= (3.0 if cannons_left > 1 else 4.0):
        return best
    returns = sorted(acts.get("return", []), key=lambda d: (-mine[d["ship"]]["treasure"], d["ship"]))
    unarmed = [d for d in returns if mine[d["ship"]]["armed"] is False]
    armed = [d for d in returns if mine[d["ship"]]["armed"] is not False]
    if unarmed and foes_cannons > 0:
        ship = mine[unarmed[0]["ship"]]
        # the bluff: a poor unarmed ship stays at sea as if it were guarded (while the deck lasts)
        if not (ship["treasure"] < RICH - 1 and "launch" in acts and rng.random() < BLUFF):
            return unarmed[0]
    if "launch" in acts:
        return acts["launch"][0]
    if best is not None and worth > 0 and not returns:
        return best                     # nothing left to bring home: unused cannon cards count for nothing
    if unarmed:
        return unarmed[0]
    if armed:
        return armed[0]
    if best is not None and worth > 0:
        return best
    return acts.get("pass", legal)[0]


def _place(me: dict, options: list, rng: Random) -> dict:
    """Armed on a rich treasure, unarmed on a poor one; against its hand one time in
    three (a bluff); whatever is left in the reserve otherwise."""
    value = me["drawn"]
    want = value is not None and value >= RICH
    if rng.random() < BLUFF:
        want = not want
    for d in options:
        if d["armed"] == want:
            return d
    return options[0]


BOTS = {"random": random_bot, "captain": captain_bot}

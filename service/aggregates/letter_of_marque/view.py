"""What each seat may see of a Letter of Marque table, and readable log lines.

Hidden: which ship is armed (its base) until an attack reveals it; the
armed/unarmed make-up of another player's reserve. Everything else is face up:
treasures under ships, score piles, cannon cards left, deck sizes.
"""

from __future__ import annotations

from .words import ship

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    from typing import Any

    from service.kernel.events import Ev

    from .state import State


def view(state: State, seat: int | None) -> dict[str, Any]:
    referee = seat is None
    sea = []
    for s in state["sea"]:
        known = referee or s["owner"] == seat or s["revealed"]
        sea.append({"ship": s["id"], "owner": s["owner"], "treasure": s["treasure"],
                    "armed": s["armed"] if known else "hidden", "revealed": s["revealed"]})
    players = {}
    for i, p in enumerate(state["players"]):
        n = i + 1
        mine = referee or n == seat
        players[str(n)] = {
            "colour": p["colour"],
            "deck": len(p["deck"]),
            "drawn": p["drawn"],
            "reserve": dict(p["reserve"]) if mine else {"ships": sum(p["reserve"].values())},
            "cannon_cards": p["cannons"],
            "score_pile": {"treasures": list(p["treasures"]), "enemy_cannon_cards": list(p["captured"])},
            "points": sum(p["treasures"]) + len(p["captured"]),
        }
        if referee:
            players[str(n)]["deck_cards"] = sorted(p["deck"])
    return {"phase": state["phase"], "turn": state["turn"], "current": state["current"],
            "placing": list(state["placing"]), "sea": sea, "players": players}



def describe(ev: Ev) -> str:
    """One line of the log: a ship by its colour and the order it was launched in."""
    d = ev.data
    t = ev.type
    if t == "ShipLaunched":
        return f"seat {d['seat']} puts {ship(d['ship'])} to sea on a treasure worth {d['treasure']}"
    if t == "ShipBaseChosen":
        return f"{ship(d['ship'])} is {'armed' if d['armed'] else 'unarmed'} (secret)"
    if t == "ShipReturned":
        return f"seat {d['seat']} brings {ship(d['ship'])} home with its treasure worth {d['treasure']}"
    if t == "ShipAttacked":
        return f"seat {d['attacker']} attacks seat {d['defender']}'s {ship(d['ship'])} with a cannon card"
    if t == "ShipRevealed":
        return f"{ship(d['ship'])} is revealed: {'armed' if d['armed'] else 'unarmed'}"
    if t == "AttackRepelled":
        return f"seat {d['defender']} repels the attack and takes seat {d['attacker']}'s {d['cannon']} cannon card"
    if t == "TreasurePlundered":
        return f"seat {d['attacker']} plunders {ship(d['ship'])}: treasure worth {d['treasure']} taken, ship removed"
    if t == "Passed":
        return f"seat {d['seat']} passes"
    if t == "TurnStarted":
        return f"turn {ev.turn}: seat {d['seat']} to play"
    if t == "TurnEnded":
        return f"seat {d['seat']} ends the turn"
    if t == "PlayersSeated":
        return "the players take their colours: " + ", ".join(f"seat {s} {c}" for s, c in d["colours"].items())
    if t == "PreliminaryTurnStarted":
        return "the preliminary turn: each player puts a first ship to sea"
    if t == "PreliminaryTurnEnded":
        return "the preliminary turn is over"
    if t == "PositionLaid":
        return "the game starts from a stated position: " + "; ".join(
            f"seat {q['seat']} ({q['colour']}) {len(q['ships'])} ships at sea, {len(q['deck'])} treasures in the deck, "
            f"{q['cannons']} cannon cards" for q in d["players"])
    if t == "ShipBaseStated":
        return f"{ship(d['ship'])} is {'armed' if d['armed'] else 'unarmed'} (secret, the position)"
    if t == "ReserveStated":
        return f"seat {d['seat']}'s reserve: {d['reserve']['armed']} armed, {d['reserve']['unarmed']} unarmed (secret)"
    if t == "TreasureDeckShuffled":
        return f"seat {d['seat']} shuffles a treasure deck of {d['cards']} cards"
    return ""


def say_event(config: dict | None, ev: Ev) -> str | None:
    """A treasure drawn, said by its worth (``views.describe`` asks first)."""
    d = ev.data
    if ev.type == "CardDrawn":
        return f"{d.get('why') or 'drawn'}: a treasure worth {d['card']}"
    return None

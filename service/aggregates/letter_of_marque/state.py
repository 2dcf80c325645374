"""Letter of Marque state and ``evolve``: how each event changes the table.

The state is the referee's: it knows every ship's base. ``view.py`` decides
what a seat may see of it.
"""

from __future__ import annotations

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    from typing import Any, NotRequired, TypedDict

    from service.kernel.events import Ev

    class Player(TypedDict):
        colour: str
        deck: list[int]            # treasure values, top first
        drawn: int | None          # treasure drawn, not yet under a ship
        reserve: dict[str, int]    # "armed", "unarmed": ship bases in reserve
        cannons: int
        launched: int
        treasures: list[int]       # score pile: treasure values
        captured: list[str]        # score pile: enemy cannon cards (their colours)

    class Ship(TypedDict):
        id: str                    # "<colour>-<n>"
        owner: int
        treasure: int
        armed: bool | None         # None: not yet placed
        revealed: bool

    class State(TypedDict):
        rules_version: str
        turn: int
        phase: str                 # setup -> preliminary -> play
        current: int | None        # seat whose turn it is (play phase)
        placing: list[int]         # seats holding a drawn treasure, choosing a ship
        players: list[Player]
        sea: list[Ship]            # ships at sea, in launch order
        position: NotRequired[dict[str, Any]]  # a stated position, until the setup lays it


DECK = "treasure:"  # a colour's treasure deck is named DECK + colour


def deck_name(colour: str) -> str:
    return DECK + colour


def initial_state(config: dict[str, Any]) -> State:
    cat = config["catalog"]
    colours = (config.get("options") or {}).get("colours") or cat["colours"]["value"][: config["seats"]]
    state = _initial(cat, config, colours)
    if config.get("position") is not None:
        state["position"] = config["position"]  # a stated position, laid by the setup (position.py)
    return state


def _initial(cat: dict[str, Any], config: dict[str, Any], colours: list[str]) -> State:
    return {
        "rules_version": str(config.get("rules_version", "1")),
        "turn": 0,
        "phase": "setup",          # setup -> preliminary -> play
        "current": None,           # seat whose turn it is (play phase)
        "placing": [],             # seats holding a drawn treasure, choosing a ship
        "players": [
            {
                "colour": c,
                "deck": list(cat["treasures"]["value"][c]),
                "drawn": None,     # treasure drawn, not yet under a ship
                "reserve": dict(cat["ships"]["value"]),
                "cannons": cat["cannon_cards"]["value"],
                "launched": 0,
                "treasures": [],   # score pile: treasure values
                "captured": [],    # score pile: enemy cannon cards (their colours)
            }
            for c in colours
        ],
        "sea": [],                 # ships at sea, in launch order
    }


def _ship(state: State, ship_id: str) -> Ship:
    for ship in state["sea"]:
        if ship["id"] == ship_id:
            return ship
    raise KeyError(f"no ship {ship_id!r} at sea")  # (events name ships at sea)


def _seat_of_deck(state: State, deck: str) -> int:
    if deck.startswith(DECK):  # (the colour read off the name, not every colour's name made)
        colour = deck[len(DECK):]
        for i, p in enumerate(state["players"]):
            if p["colour"] == colour:
                return i + 1
    raise KeyError(f"no colour's treasure deck {deck!r}")  # (every draw is from one)


def _card_drawn(state: State, d: dict[str, Any], ev: Ev) -> None:
    seat = _seat_of_deck(state, d["deck"])
    p = state["players"][seat - 1]
    p["deck"].remove(d["card"])
    p["drawn"] = d["card"]
    state["placing"].append(seat)


def _preliminary_started(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["phase"] = "preliminary"


def _ship_launched(state: State, d: dict[str, Any], ev: Ev) -> None:
    p = state["players"][d["seat"] - 1]
    p["drawn"] = None
    p["launched"] += 1
    state["placing"].remove(d["seat"])
    state["sea"].append({"id": d["ship"], "owner": d["seat"], "treasure": d["treasure"],
                         "armed": None, "revealed": False})


def _ship_base_chosen(state: State, d: dict[str, Any], ev: Ev) -> None:
    ship = _ship(state, d["ship"])
    ship["armed"] = d["armed"]
    p = state["players"][ship["owner"] - 1]
    p["reserve"]["armed" if d["armed"] else "unarmed"] -= 1


def _ship_returned(state: State, d: dict[str, Any], ev: Ev) -> None:
    ship = _ship(state, d["ship"])
    state["sea"].remove(ship)
    state["players"][d["seat"] - 1]["treasures"].append(ship["treasure"])


def _ship_revealed(state: State, d: dict[str, Any], ev: Ev) -> None:
    ship = _ship(state, d["ship"])
    ship["armed"] = d["armed"]
    ship["revealed"] = True


def _attack_repelled(state: State, d: dict[str, Any], ev: Ev) -> None:
    attacker = state["players"][d["attacker"] - 1]
    attacker["cannons"] -= 1
    state["players"][d["defender"] - 1]["captured"].append(attacker["colour"])


def _treasure_plundered(state: State, d: dict[str, Any], ev: Ev) -> None:
    ship = _ship(state, d["ship"])
    state["sea"].remove(ship)
    attacker = state["players"][d["attacker"] - 1]
    attacker["cannons"] -= 1
    attacker["treasures"].append(ship["treasure"])


def _turn_started(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["phase"] = "play"
    state["turn"] = ev.turn
    state["current"] = d["seat"]


HANDLERS = {
    "CardDrawn": _card_drawn,
    "PreliminaryTurnStarted": _preliminary_started,
    "ShipLaunched": _ship_launched,
    "ShipBaseChosen": _ship_base_chosen,
    "ShipReturned": _ship_returned,
    "ShipRevealed": _ship_revealed,
    "AttackRepelled": _attack_repelled,
    "TreasurePlundered": _treasure_plundered,
    "TurnStarted": _turn_started,
}


def game_over(state: State) -> bool:
    """The book: the game ends when no ship is at sea and every treasure deck is empty."""
    return (state["phase"] == "play" and not state["sea"] and not state["placing"]
            and all(not p["deck"] for p in state["players"]))

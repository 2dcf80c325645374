"""The set-up (the book: "Preparazione del gioco", p. 5): the board's tiles, tokens
and missions, a secret captain for each player and the ship each chooses, the starting
glory card and gold, the first player; their events, applied here.
"""

from __future__ import annotations

from .captains import reveal_new_captain
from .catalog import tables
from .mechanics import bank_pays, deal_glory

TYPE_CHECKING = False   # (the imports below are the type checker's: none at run time)
if TYPE_CHECKING:
    from collections.abc import Collection
    from service.kernel.events import Ev
    from service.kernel.machine import Step
    from typing import Any
    from .shapes import Decision, State


def ship_choices(state: State) -> list[Decision]:
    return [{"action": "choose_ship", "ship": t} for t, s in tables(state)["ships"].items() if s["starting"]]


def setup(step: Step) -> None:
    """The board (the book: "Preparazione del tabellone", p. 5): demand tiles face up, upgrade
    tiles and merchant tokens face down, missions, the glory track; a secret captain each."""
    state = step.state
    board(step)
    step.emit("GloryTrackSet", {"glory": {str(p["seat"]): 0 for p in state["players"]}, "target": state["target"]})
    for p in state["players"]:
        seat = p["seat"]
        c = step.draw("captains", state["decks"]["captains"], vis=[seat], why=f"secret captain for seat {seat}")
        step.emit("CaptainDealt", {"seat": seat, "captain": c}, vis=[seat])
    step.emit("ShipChoiceOpened", {"ships": [d["ship"] for d in ship_choices(state)]})


def board(step: Step, taken: Collection[str] = ()) -> None:
    """The board's tiles, tokens and missions (``setup``). ``taken``: upgrade tiles on
    ships already (a stated position, position.py): the others go one face down to each
    port, in the board's order, while they last."""
    state = step.state
    S = tables(state)
    ports = S["ports"]
    unseen = state.get("unseen", False)
    if unseen:  # at a table: each port's tile is named as it is turned face up; the reserve stays unseen
        left = sorted(S["demand"])
        demand = {}
        for port in ports:
            demand[port] = step.draw("demand_tiles", left, vis="all", why=f"face-up demand tile for {port}")
            left = [t for t in left if t != demand[port]]
        reserve = step.shuffle("demand_tiles", left, vis="referee", face_down=True,
                               why="the rest of the demand tiles: a face-down reserve")
    else:
        order = step.shuffle("demand_tiles", sorted(S["demand"]), vis="all",
                             why="demand tiles: one face up at each port, the rest a face-down reserve")
        demand = {port: order[i] for i, port in enumerate(ports)}
        reserve = order[len(ports):]
    step.emit("DemandTilesPlaced", {"demand": demand, "goods": {z: S["demand"][t] for z, t in demand.items()},
              "reserve": sorted(reserve)})
    tiles = step.shuffle("upgrades", sorted(t for t in S["upgrade"] if t not in taken), vis="referee",
                         face_down=unseen, why="upgrade tiles: one face down at each port")
    step.emit("UpgradeTilesPlaced", {"tiles": {port: tile for port, tile in zip(ports, tiles)}}, vis="referee")
    step.emit("UpgradeTilesFaceDown", {"ports": list(ports[:len(tiles)])})
    zones = S["zone_order"]
    toks = step.shuffle("merchant_tokens", sorted(S["merchant"]), vis="referee", face_down=unseen,
                        why="merchant tokens: one face down in every sea zone")
    step.emit("MerchantTokensPlaced", {"tokens": {z: toks[i] for i, z in enumerate(zones)}}, vis="referee")
    step.emit("MerchantTokensFaceDown", {"zones": list(zones)})
    for _ in range(S["rules"]["missions_on_board"]):
        m = step.draw("missions", state["decks"]["missions"], vis="all", why="a mission for the board")
        step.emit("MissionPlaced", {"mission": m, "name": S["missions"][m]["name"], "port": S["missions"][m]["location"]})


def choose_ship(step: Step, seat: int, decision: Decision) -> bool:
    """A captain's ship, chosen in secret (the book: "Preparazione del gioco", p. 5). In play:
    a new captain's, revealed at once. At set-up, once every ship is chosen: the captains
    revealed, a glory card and the starting gold each, the first player drawn; True then
    (the flow starts the first turn)."""
    state = step.state
    step.emit("ShipChosen", {"seat": seat, "ship": decision["ship"]}, vis=[seat])
    step.emit("ShipChoiceLocked", {"seat": seat})
    if state["phase"] == "play":
        reveal_new_captain(step, seat, decision["ship"])
        return False
    if any("choose_ship" in p["pending"] for p in state["players"]):
        return False
    step.emit("CaptainsRevealed", {"seats": {str(p["seat"]): {"captain": p["captain"], "ship": p["chosen"]}
                                         for p in state["players"]}})
    start = tables(state)["rules"]["start_gold"]
    for p in state["players"]:
        deal_glory(step, p["seat"], "set-up")
        step.emit("GoldReceived", {"seat": p["seat"], "amount": bank_pays(state, start), "why": "starting gold"})
    seats = [p["seat"] for p in state["players"]]
    if state.get("table_seen"):     # the book draws one of the players' captain cards: at a table, named so
        owner = {p["captain"]: p["seat"] for p in state["players"]}
        first = owner[step.draw("first_player", sorted(owner), vis="all",
                                why="first player: the captain card drawn at random among the players'")]
    else:
        first = step.pick(seats, vis="all", why="first player: one of the captain cards drawn at random")
    i = seats.index(first)
    step.emit("FirstPlayerChosen", {"seat": first, "order": seats[i:] + seats[:i]})
    return True

# actions ------------------------------------------------------------------------


# the events ---------------------------------------------------------------------------

def _demand_placed(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["board"]["demand"] = dict(d["demand"])
    state["decks"]["demand_reserve"] = list(d["reserve"])


def _upgrades_placed(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["board"]["upgrades"].update(d["tiles"])


def _merchants_placed(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["board"]["merchants"].update(d["tokens"])


def _first_player(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["order"] = list(d["order"])
    state["phase"] = "play"


APPLY = {
    "DemandTilesPlaced": _demand_placed,
    "UpgradeTilesPlaced": _upgrades_placed,
    "MerchantTokensPlaced": _merchants_placed,
    "FirstPlayerChosen": _first_player,
}

"""A tournament's state and what each of its events does to it (pure).

State (plain msgpack-able data)::

    {"turn": the round seated last (0 before round 1), "planned": the rounds to play,
     "players": names in the order registered, "joined": {name: first round they may play},
     "dropped": {name: reason}, "finished": bool,
     "rounds": [{"round": n, "tables": [{"table": i, "players": [names in seat order],
                                         "game_id": hex or None, "mode": "service" | "table" | None,
                                         "result": None or {"places", "points", "scores", "game_id",
                                                            "reason"}}],
                 "byes": [names], "closed": bool, "standings": None or [rows]}]}
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not imported at run time
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeAlias

    from service.kernel.events import Ev

    State: TypeAlias = dict[str, Any]  # the tournament's state, as the module's text says
    Data: TypeAlias = dict[str, Any]   # an event's data


def initial_state(config: dict[str, Any]) -> State:
    return {"turn": 0, "planned": config["options"]["rounds"], "players": [], "joined": {}, "dropped": {},
            "rounds": [], "finished": False}


def registered(state: State, data: Data, ev: Ev) -> None:
    state["players"].append(data["player"])
    state["joined"][data["player"]] = data["from_round"]


def dropped(state: State, data: Data, ev: Ev) -> None:
    state["dropped"][data["player"]] = data.get("reason", "")


def round_seated(state: State, data: Data, ev: Ev) -> None:
    state["turn"] = data["round"]
    state["rounds"].append({
        "round": data["round"], "byes": list(data["byes"]), "closed": False, "standings": None,
        "tables": [{"table": i, "players": list(players), "game_id": None, "mode": None, "result": None}
                   for i, players in enumerate(data["tables"], 1)],
    })


def games_linked(state: State, data: Data, ev: Ev) -> None:
    tables = state["rounds"][-1]["tables"]
    for number, linked in data["tables"].items():
        table = tables[int(number) - 1]
        table["game_id"] = linked["game_id"]
        table["mode"] = linked["mode"]


def table_result(state: State, data: Data, ev: Ev) -> None:
    table = state["rounds"][-1]["tables"][data["table"] - 1]
    table["result"] = {k: data.get(k) for k in ("places", "points", "scores", "game_id", "reason")}


def round_closed(state: State, data: Data, ev: Ev) -> None:
    rnd = state["rounds"][-1]
    rnd["closed"] = True
    rnd["standings"] = data["standings"]


def finished(state: State, data: Data, ev: Ev) -> None:
    state["finished"] = True


HANDLERS: dict[str, Callable[[State, Data, Ev], None]] = {"PlayerRegistered": registered, "PlayerDropped": dropped, "RoundSeated": round_seated,
            "TableGamesLinked": games_linked, "TableResult": table_result, "RoundClosed": round_closed,
            "TournamentFinished": finished}


# queries ----------------------------------------------------------------------------------------
def current_round(state: State) -> dict[str, Any] | None:
    return state["rounds"][-1] if state["rounds"] else None


def round_open(state: State) -> bool:
    rnd = current_round(state)
    return rnd is not None and not rnd["closed"]


def active(state: State) -> list[str]:
    """The players who may be seated in the next round, in the order registered."""
    nxt = state["turn"] + 1
    return [p for p in state["players"] if p not in state["dropped"] and state["joined"][p] <= nxt]


def last_standings(state: State) -> list[dict[str, Any]] | None:
    for rnd in reversed(state["rounds"]):
        if rnd["closed"]:
            return rnd["standings"]
    return None

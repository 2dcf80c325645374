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


def initial_state(config: dict) -> dict:
    return {"turn": 0, "planned": config["options"]["rounds"], "players": [], "joined": {}, "dropped": {},
            "rounds": [], "finished": False}


def registered(state, data, ev):
    state["players"].append(data["player"])
    state["joined"][data["player"]] = data["from_round"]


def dropped(state, data, ev):
    state["dropped"][data["player"]] = data.get("reason", "")


def round_seated(state, data, ev):
    state["turn"] = data["round"]
    state["rounds"].append({
        "round": data["round"], "byes": list(data["byes"]), "closed": False, "standings": None,
        "tables": [{"table": i, "players": list(players), "game_id": None, "mode": None, "result": None}
                   for i, players in enumerate(data["tables"], 1)],
    })


def games_linked(state, data, ev):
    tables = state["rounds"][-1]["tables"]
    for number, linked in data["tables"].items():
        table = tables[int(number) - 1]
        table["game_id"] = linked["game_id"]
        table["mode"] = linked["mode"]


def table_result(state, data, ev):
    table = state["rounds"][-1]["tables"][data["table"] - 1]
    table["result"] = {k: data.get(k) for k in ("places", "points", "scores", "game_id", "reason")}


def round_closed(state, data, ev):
    rnd = state["rounds"][-1]
    rnd["closed"] = True
    rnd["standings"] = data["standings"]


def finished(state, data, ev):
    state["finished"] = True


HANDLERS = {"PlayerRegistered": registered, "PlayerDropped": dropped, "RoundSeated": round_seated,
            "TableGamesLinked": games_linked, "TableResult": table_result, "RoundClosed": round_closed,
            "TournamentFinished": finished}


# queries ----------------------------------------------------------------------------------------
def current_round(state) -> dict | None:
    return state["rounds"][-1] if state["rounds"] else None


def round_open(state) -> bool:
    rnd = current_round(state)
    return rnd is not None and not rnd["closed"]


def active(state) -> list[str]:
    """The players who may be seated in the next round, in the order registered."""
    nxt = state["turn"] + 1
    return [p for p in state["players"] if p not in state["dropped"] and state["joined"][p] <= nxt]


def last_standings(state) -> list[dict] | None:
    for rnd in reversed(state["rounds"]):
        if rnd["closed"]:
            return rnd["standings"]
    return None

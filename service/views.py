"""Read-side shapes shared by the CLI and the HTTP API: status, board views,
the event log filtered to what the caller may see."""

from __future__ import annotations

from service.kernel.machine import Ev, Machine


def status(game_id, machine: Machine, version: int, head: bytes | None) -> dict:
    cfg = machine.config
    result = machine.k["result"]
    return {
        "game_id": game_id.hex, "game": cfg["game"], "name": cfg.get("name", ""),
        "tournament": cfg.get("tournament", ""), "seats": cfg["seats"], "table": cfg["table"],
        "version": version, "turn": machine.turn(), "finished": machine.finished,
        "to_act": machine.to_act(), "awaiting_chance": machine.awaiting_chance(),
        "scores": result["scores"] if result else None,
        "winners": result["winners"] if result else None,
        "commitment": cfg.get("commitment"), "fork": cfg.get("fork"),
        "head": head.hex() if head else None,
    }


def board(game_id, machine: Machine, version: int, seat: int | None) -> dict:
    """The table as ``seat`` saw it (None: the referee) at this point."""
    result = machine.k["result"]
    return {
        "game_id": game_id.hex, "game": machine.config["game"], "version": version,
        "turn": machine.turn(), "finished": machine.finished, "to_act": machine.to_act(),
        "seat": seat, "scores": result["scores"] if result else None,
        "winners": result["winners"] if result else None,
        "board": machine.rules.view(machine.s, seat),
    }


def log_entries(rules, stored, seat: int | None) -> list[dict]:
    """Events the caller may see, readable. ``seat`` None is the referee."""
    out = []
    for e in stored:
        ev = Ev(e.type, e.turn, e.visible_to, e.data)
        if not ev.visible_to(seat):
            continue
        out.append({"version": e.originator_version, "turn": e.turn, "type": e.type,
                    "visible_to": e.visible_to, "data": e.data,
                    "text": describe(rules, ev), "timestamp": e.timestamp.isoformat()})
    return out


def describe(rules, ev: Ev) -> str:
    d = ev.data
    t = ev.type
    if t == "GameCreated":
        return f"{d['game']} created for {d['seats']} seats" + (" (table mode)" if d["table"] else "")
    if t == "Decided":
        who = "setup" if d["seat"] == 0 else f"seat {d['seat']} decides"
        return f"{who}: {d['decision']}"
    if t == "DiceRolled":
        return f"rolled {d['n']}d{d['sides']}: {d['values']} ({d['why']})"
    if t == "CardDrawn":
        return f"drew {d['card']} from {d['deck']} ({d['why']})"
    if t == "ChanceChosen":
        return f"chance chose {d['value']} of {d['options']} ({d['why']})"
    if t == "DeckShuffled":
        return f"shuffled {d['deck']} ({d['why']})"
    if t == "ChanceAwaited":
        return f"waiting for the referee to enter: {d['kind']} ({d.get('why', '')})"
    if t == "GameFinished":
        return f"game finished: scores {d['scores']}, winners {d['winners']}"
    if t == "EntropyAdded":
        return f"seat {d['seat']} added entropy to the seed"
    return rules.describe(ev) or t

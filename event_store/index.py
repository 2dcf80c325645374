"""The games index: one row per game, kept with its events' head."""

from __future__ import annotations

import json

INDEX_COLUMNS = ("game_id", "game", "name", "tournament", "seats", "table_mode", "created",
                 "version", "head", "turn", "finished", "scores", "winners", "parent")


def index_row_params(index: dict) -> tuple:
    row = dict(index)
    row["scores"] = json.dumps(row.get("scores")) if row.get("scores") is not None else None
    row["winners"] = json.dumps(row.get("winners")) if row.get("winners") is not None else None
    return tuple(row.get(c) for c in INDEX_COLUMNS)


def decode_row(row: dict) -> dict:
    out = dict(row)
    for key in ("scores", "winners"):
        if out.get(key):
            out[key] = json.loads(out[key])
    if out.get("head") is not None:
        out["head"] = bytes(out["head"]).hex()
    out["finished"] = bool(out.get("finished"))
    out["table_mode"] = bool(out.get("table_mode"))
    return out

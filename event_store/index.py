"""The games index: one row per game, kept with its events' head."""

from __future__ import annotations

import json

from service.kernel.games import HISTORIES

INDEX_COLUMNS = ("game_id", "game", "name", "tournament", "seats", "table_mode", "created",
                 "version", "head", "turn", "finished", "scores", "winners", "parent")


# The game's status as ``tools status`` shows it (the referee's numbering),
# kept beside the index in the events' transaction, so a status is one query
# away (event_store/reads.py) instead of a fold of the game.
STATUS_TABLE_NAME = "privateer_status"

# one encoder for every step (``json.dumps`` with separators builds one a call)
_compact = json.JSONEncoder(separators=(",", ":")).encode


def status_params(index: dict) -> tuple | None:
    st = index.get("status")
    if st is None:
        return None
    return (index["game_id"], index["version"], index.get("corrections", 0), _compact(st))


def prefix_bounds(prefix: str) -> tuple[str, str]:
    """``game_id >= low AND game_id < high`` selects the ids starting with
    ``prefix`` through the primary key (a LIKE would read every row)."""
    return prefix, prefix[:-1] + chr(ord(prefix[-1]) + 1)


def index_row_params(index: dict) -> tuple:
    row = dict(index)
    row["scores"] = json.dumps(row.get("scores")) if row.get("scores") is not None else None
    row["winners"] = json.dumps(row.get("winners")) if row.get("winners") is not None else None
    return tuple(row.get(c) for c in INDEX_COLUMNS)


class IndexRow:
    """A game's index row and status row as statement parameters, encoded when
    the step is prepared, so its transaction only executes them."""

    __slots__ = ("game_id", "params", "status")

    def __init__(self, index: dict):
        self.game_id = index["game_id"]
        self.params = index_row_params(index)
        self.status = status_params(index)


# the rows ``games_listed`` lists, as SQLite reads them (the recorder and a direct read)
SQLITE_GAMES = "SELECT * FROM privateer_games ORDER BY created"
SQLITE_STATUSES = f"SELECT game_id, status FROM {STATUS_TABLE_NAME}"


def games_listed(rows: list[dict], statuses: dict[str, str]) -> list[dict]:
    """The games index as it is listed: each row decoded, with its player
    names (from the game's status row, where kept). Histories that are not
    games (a tournament: service/kernel/games.py ``HISTORIES``) are not listed."""
    out = [decode_row(r) for r in rows if r["game"] not in HISTORIES]
    for r in out:
        st = statuses.get(r["game_id"])
        r["players"] = (json.loads(st).get("players") or {}) if st else {}
    return out


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

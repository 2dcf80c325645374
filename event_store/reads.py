"""Reads a direct query answers, without the application: ``tools status``
(one row) and ``tools replay`` (a snapshot and the rows after it) on an SQLite
store start in a fraction of the time the ``eventsourcing`` machinery takes to
import. The rows are the library's own tables, decoded with our codec.

``SqliteReader.open`` returns None, and each query None, when the store cannot
answer directly (a PostgreSQL URL, no such file, a store written before the
status table, a prefix that is not unique, a status row behind the events, a
corrected game): the caller then asks the application, which gives the full
answer or the precise error.
"""

from __future__ import annotations

import json
import os
import sqlite3

TYPE_CHECKING = False  # typing is not imported at run time: a direct read's start-up does without it
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

from .codec import unpack_event_row, unpack_state_item
from .index import SQLITE_GAMES, SQLITE_STATUSES, STATUS_TABLE_NAME, games_listed, prefix_bounds


def _game_id_pattern(game_id: str) -> str | None:
    text = (game_id or "").strip().lower().replace("-", "")
    if len(text) < 6 or len(text) > 32 or any(ch not in "0123456789abcdef" for ch in text):
        return None
    return text


class SqliteReader:
    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    @classmethod
    def open(cls, db: str) -> "SqliteReader | None":
        if db.startswith(("postgresql://", "postgres://")) or not os.path.isfile(db):
            return None
        try:
            return cls(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30))
        except sqlite3.Error:
            return None

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> SqliteReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def current(self, game_id: str) -> tuple[str, dict[str, Any]] | None:
        """``(game id hex, status)`` of the one game ``game_id`` names, when its
        status row is there, up to date, and its line has no correction."""
        text = _game_id_pattern(game_id)
        if text is None:
            return None
        try:
            ids = self.conn.execute("SELECT game_id FROM privateer_games WHERE game_id >= ? AND game_id < ? "
                                    "LIMIT 2", prefix_bounds(text)).fetchall()
            if len(ids) != 1:
                return None
            gid = ids[0][0]
            row = self.conn.execute(f"SELECT version, corrections, status FROM {STATUS_TABLE_NAME} "
                                    "WHERE game_id = ?", (gid,)).fetchone()
            if row is None or row[2] is None or row[1]:
                return None
            last = self.conn.execute("SELECT MAX(originator_version) FROM stored_events WHERE originator_id = ?",
                                     (gid,)).fetchone()[0]
            if last != row[0]:
                return None
            return gid, json.loads(row[2])
        except (sqlite3.Error, ValueError):
            return None

    def games(self) -> list[dict[str, Any]] | None:
        """``Privateer.games``, or None (a store without the index or status tables)."""
        try:
            self.conn.row_factory = sqlite3.Row
            rows = [dict(r) for r in self.conn.execute(SQLITE_GAMES)]
            statuses = {r["game_id"]: r["status"] for r in self.conn.execute(SQLITE_STATUSES)}
        except sqlite3.Error:
            return None
        finally:
            self.conn.row_factory = None
        return games_listed(rows, statuses)

    def snapshot_versions(self, gid: str, lte: int | None = None) -> list[int]:
        sql = "SELECT originator_version FROM stored_snapshots WHERE originator_id = ?"
        params: tuple = (gid,)
        if lte is not None:
            sql += " AND originator_version <= ?"
            params += (lte,)
        try:
            return [r[0] for r in self.conn.execute(sql + " ORDER BY originator_version", params)]
        except sqlite3.Error:  # a store without snapshots
            return []

    def _snapshot_row(self, gid: str, version: int) -> bytes:
        return self.conn.execute("SELECT state FROM stored_snapshots WHERE originator_id = ? AND "
                                 "originator_version = ?", (gid, version)).fetchone()[0]

    def snapshot(self, gid: str, version: int) -> dict[str, Any]:
        """The snapshot's plain state (service/snapshots.py), its times as the
        ISO text stored (``unpack_event_row``)."""
        return unpack_event_row(self._snapshot_row(gid, version))["state"]

    def snapshot_max_turn(self, gid: str, version: int) -> int | None:
        """The snapshot's ``state["max_turn"]`` (None when it has none), read
        without decoding the rest (``unpack_state_item``)."""
        return unpack_state_item(self._snapshot_row(gid, version), "max_turn")

    def events(self, gid: str, gt: int = 0, lte: int | None = None,
               page: int = 256) -> Iterator[tuple[int, dict[str, Any]]]:
        """``(version, envelope dict)`` of the game's events after ``gt``, a page
        at a time; the ``timestamp`` is the ISO text stored (``unpack_event_row``)."""
        while True:
            sql = ("SELECT originator_version, state FROM stored_events WHERE originator_id = ? "
                   "AND originator_version > ?")
            params: tuple[Any, ...] = (gid, gt)
            if lte is not None:
                sql += " AND originator_version <= ?"
                params += (lte,)
            try:
                rows = self.conn.execute(sql + " ORDER BY originator_version LIMIT ?", params + (page,)).fetchall()
            except sqlite3.OperationalError as e:
                from .sqlite_recorder import damaged

                raise damaged(gid, e) from None
            for version, state in rows:
                yield version, unpack_event_row(state)
            if len(rows) < page:
                return
            gt = rows[-1][0]


def sqlite_status(db: str, game_id: str) -> dict[str, Any] | None:
    """The status of one game of an SQLite store (referee's numbering), or None."""
    reader = SqliteReader.open(db)
    if reader is None:
        return None
    with reader:
        found = reader.current(game_id)
    return found[1] if found else None

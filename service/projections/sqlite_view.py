"""The read models in the SQLite store's own file, written with sqlite-utils.

Each catch-up batch is ONE transaction (``BEGIN IMMEDIATE``) holding the row
changes and the new tracking position, and it commits only if the position is
still the one the batch started from: two runners can never both apply the
same events (exactly once).
"""

from __future__ import annotations

import json
import sqlite3

import sqlite_utils

from .model import Batch, rank_rows, ratings
from .sql import RECOUNT_DELETE, RECOUNT_INSERT, RESULTS, RESULTS_OF, TABLES


class PositionMoved(Exception):
    """Another runner advanced the tracking position first."""


class SQLiteView:
    def __init__(self, path: str) -> None:
        self.conn = sqlite3.connect(path, timeout=30)
        self.db = sqlite_utils.Database(self.conn)
        self.create()

    def close(self) -> None:
        self.conn.close()

    # schema -------------------------------------------------------------------
    def create(self) -> None:
        self.db.table("proj_games").create({
            "game_id": str, "game": str, "name": str, "tournament": str, "seats": int,
            "table_mode": int, "created": str, "parent": str, "players": str, "finished": int,
            "finished_at": str, "events": int, "winners": str, "shared": int,
        }, pk="game_id", if_not_exists=True)
        self.db.table("proj_scores").create({
            "game_id": str, "seat": int, "player": str, "tournament": str, "game": str,
            "score": float, "winner": int, "shared": int, "win_share": float, "counted": int,
        }, pk=("game_id", "seat"), if_not_exists=True)
        self.db.table("proj_standings").create({
            "tournament": str, "game": str, "player": str, "played": int, "wins": int,
            "shared_wins": int, "win_share": float, "points": float, "best": float,
        }, pk=("tournament", "game", "player"), if_not_exists=True)
        self.db.table("proj_events").create({"game_id": str, "seq": int, "turn": int, "type": str, "text": str,
                                       "data": str}, pk=("game_id", "seq"), if_not_exists=True)
        self.db.table("proj_boards").create({"game_id": str, "version": int, "turn": int, "finished": int,
                                       "board": str}, pk="game_id", if_not_exists=True)
        self.db.table("proj_tracking").create({"application_name": str, "notification_id": int},
                                        pk="application_name", if_not_exists=True)
        self.db.table("proj_scores").create_index(["tournament", "game"], if_not_exists=True)

    def drop(self) -> None:
        """Drop every read-model table and the tracking position, in one transaction."""
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            for t in TABLES + ("proj_tracking",):
                self.conn.execute(f"DROP TABLE IF EXISTS {t}")
            self.conn.execute("COMMIT")
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.create()

    # tracking -----------------------------------------------------------------
    def position(self, name: str) -> int | None:
        row = self.conn.execute("SELECT notification_id FROM proj_tracking WHERE application_name = ?",
                                (name,)).fetchone()
        return row[0] if row else None

    def stamp(self, name: str, value: int) -> None:
        """Keep ``value`` under ``name`` beside the positions (what the read model was built with)."""
        with self.conn:
            self.conn.execute("INSERT OR REPLACE INTO proj_tracking (application_name, notification_id) "
                              "VALUES (?, ?)", (name, value))

    def public_count(self, game_id: str) -> int:
        row = self.conn.execute("SELECT MAX(seq) FROM proj_events WHERE game_id = ?", (game_id,)).fetchone()
        return row[0] or 0

    def lookup(self, game_id: str) -> dict | None:
        rows = list(self.db.query("SELECT * FROM proj_games WHERE game_id = ?", [game_id]))
        return _decode_game(rows[0]) if rows else None

    def commit(self, batch: Batch, name: str, prev: int | None, new: int) -> None:
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            if self.position(name) != prev:
                raise PositionMoved(f"the {name} projection moved past {prev} meanwhile")
            if batch.games:
                self.db.table("proj_games").insert_all(
                    [{**g, "players": json.dumps(g["players"]), "winners": None} for g in batch.games.values()])
            for gid, names in batch.names.items():
                self.db.table("proj_games").update(gid, {"players": json.dumps(names)})
            for gid, f in batch.finished.items():
                self.db.table("proj_games").update(gid, {**f, "winners": json.dumps(f["winners"])})
            if batch.scores:
                self.db.table("proj_scores").insert_all(batch.scores)
            if batch.events:
                self.db.table("proj_events").insert_all(batch.events)
            if batch.boards:
                self.db.table("proj_boards").upsert_all(list(batch.boards.values()), pk="game_id")
            for tournament, game in sorted(batch.touched):
                self.conn.execute(RECOUNT_DELETE.format(p="?"), (tournament, game))
                self.conn.execute(RECOUNT_INSERT.format(p="?"), (tournament, game))
            self.db.table("proj_tracking").upsert({"application_name": name, "notification_id": new},
                                            pk="application_name")
            self.conn.execute("COMMIT")
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise

    # queries ------------------------------------------------------------------
    def standings(self, tournament: str | None = None, rated: dict | None = None) -> list[dict]:
        """Ranked, each row with the player's rating (``rated``: ``self.ratings``, else read now)."""
        if tournament is None:
            rows = self.db.query("SELECT * FROM proj_standings")
        else:
            rows = self.db.query("SELECT * FROM proj_standings WHERE tournament = ?", [tournament])
        return rank_rows(list(rows), self.ratings(tournament) if rated is None else rated)

    def ratings(self, tournament: str | None = None) -> dict:
        """The players' ratings (``model.ratings``) over the counted results."""
        if tournament is None:
            return ratings(list(self.db.query(RESULTS)))
        return ratings(list(self.db.query(RESULTS_OF.format(p="?"), [tournament])))

    def scores(self, tournament: str | None = None) -> list[dict]:
        sql = "SELECT * FROM proj_scores"
        params = []
        if tournament is not None:
            sql += " WHERE tournament = ?"
            params.append(tournament)
        return list(self.db.query(sql + " ORDER BY game_id, seat", params))

    def games(self) -> list[dict]:
        return [_decode_game(r) for r in self.db.query("SELECT * FROM proj_games ORDER BY created, game_id")]

    def dump(self) -> dict:
        """Every read-model table, rows in key order (for comparisons)."""
        return {t: [dict(r) for r in self.db.query(f"SELECT * FROM {t} ORDER BY {_order(t)}")]
                for t in TABLES}


def _order(table: str) -> str:
    return {"proj_games": "game_id", "proj_scores": "game_id, seat",
            "proj_standings": "tournament, game, player", "proj_events": "game_id, seq",
            "proj_boards": "game_id"}[table]


def _decode_game(row: dict) -> dict:
    out = dict(row)
    out["players"] = json.loads(out["players"]) if out.get("players") else {}
    out["winners"] = json.loads(out["winners"]) if out.get("winners") else None
    return out

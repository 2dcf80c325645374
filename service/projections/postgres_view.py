"""The read models in the PostgreSQL store's schema: a tracking recorder of the
``eventsourcing`` library (table ``privateer_standings_tracking``), so the
library's ``ProjectionRunner`` can follow the store live (its subscription polls the log), and
the catch-up runner uses the very same view.

Every change is written in one transaction with the tracking record; the
tracking row is locked and compared with the position the batch started from,
so events are applied exactly once even with several runners.
"""

from __future__ import annotations

import json

from eventsourcing.application import Application
from eventsourcing.persistence import IntegrityError, Tracking
from eventsourcing.postgres import PostgresTrackingRecorder
from eventsourcing.projection import Projection
from psycopg.sql import SQL, Identifier

from service.app import Privateer

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any
    
    from eventsourcing.postgres import PostgresDatastore
    from psycopg import Cursor
    from collections.abc import Callable

from .boards import public_boards
from .created import created_data
from .model import Batch, add_event, rank_rows, ratings
from .sql import RECOUNT_DELETE, RECOUNT_INSERT, RESULTS, RESULTS_OF, TABLES

PROJECTION_NAME = "privateer_standings"
TRACKING_TABLE = PROJECTION_NAME + "_tracking"


class PositionMoved(Exception):
    """Another runner advanced the tracking position first."""


CREATE = [
    "CREATE TABLE IF NOT EXISTS proj_games (game_id TEXT PRIMARY KEY, game TEXT, name TEXT, "
    "tournament TEXT, seats INTEGER, table_mode INTEGER, created TEXT, parent TEXT, players TEXT, "
    "finished INTEGER, finished_at TEXT, events INTEGER, winners TEXT, shared INTEGER)",
    "CREATE TABLE IF NOT EXISTS proj_scores (game_id TEXT, seat INTEGER, player TEXT, tournament TEXT, "
    "game TEXT, score DOUBLE PRECISION, winner INTEGER, shared INTEGER, win_share DOUBLE PRECISION, "
    "counted INTEGER, PRIMARY KEY (game_id, seat))",
    "CREATE INDEX IF NOT EXISTS proj_scores_tournament_game ON proj_scores (tournament, game)",
    "CREATE TABLE IF NOT EXISTS proj_standings (tournament TEXT, game TEXT, player TEXT, "
    "played INTEGER, wins INTEGER, shared_wins INTEGER, win_share DOUBLE PRECISION, "
    "points DOUBLE PRECISION, best DOUBLE PRECISION, PRIMARY KEY (tournament, game, player))",
    "CREATE TABLE IF NOT EXISTS proj_events (game_id TEXT, seq INTEGER, turn INTEGER, type TEXT, text TEXT, "
    "data TEXT, PRIMARY KEY (game_id, seq))",
    "CREATE TABLE IF NOT EXISTS proj_boards (game_id TEXT PRIMARY KEY, version INTEGER, turn INTEGER, "
    "finished INTEGER, board TEXT)",
]
GAME_COLUMNS = ("game_id", "game", "name", "tournament", "seats", "table_mode", "created", "parent",
                "players", "finished", "finished_at", "events", "winners", "shared")
SCORE_COLUMNS = ("game_id", "seat", "player", "tournament", "game", "score", "winner", "shared",
                 "win_share", "counted")


class PostgresStandingsView(PostgresTrackingRecorder):
    def __init__(self, datastore: PostgresDatastore, *, tracking_table_name: str = TRACKING_TABLE, **kwargs: Any) -> None:
        super().__init__(datastore, tracking_table_name=tracking_table_name, **kwargs)
        self.search_path = SQL("SET LOCAL search_path TO {}").format(Identifier(self.datastore.schema))
        self.sql_create_statements[:0] = [SQL("CREATE SCHEMA IF NOT EXISTS {}").format(
            Identifier(self.datastore.schema))]
        self.sql_create_statements += [self.search_path] + [SQL(s) for s in CREATE]  # type: ignore[misc]  # (psycopg runs any Composable)
        self.lock_tracking = SQL(
            "SELECT notification_id FROM {}.{} WHERE application_name = %s FOR UPDATE"
        ).format(Identifier(self.datastore.schema), Identifier(self.tracking_table_name))

    def create_table(self) -> None:
        from event_store.postgres import ddl_lock

        with ddl_lock(self.datastore):
            with self.datastore.transaction(commit=True) as curs:
                curs.execute(self.sql_create_statements[0])
            super().create_table()

    def drop(self) -> None:
        """Drop every read-model table and the tracking table, in one transaction."""
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(self.search_path)
            for t in TABLES + (self.tracking_table_name,):
                curs.execute(SQL("DROP TABLE IF EXISTS {}").format(Identifier(t)))
        self.tracking_table_exists = False
        self.tracking_migration_previous = self.tracking_migration_current = None
        self.create_table()

    # tracking -----------------------------------------------------------------
    def position(self, name: str) -> int | None:
        return self.max_tracking_id(name)

    def stamp(self, name: str, value: int) -> None:
        """Keep ``value`` under ``name`` in the tracking table (what the read model was built
        with); ``position(name)`` reads the highest kept."""
        try:
            self.insert_tracking(Tracking(name, value))
        except IntegrityError:  # kept already (another runner, or a later build's)
            pass

    def public_count(self, game_id: str) -> int:
        rows = self._query("SELECT MAX(seq) AS n FROM proj_events WHERE game_id = %s", (game_id,))
        return rows[0]["n"] or 0

    def lookup(self, game_id: str) -> dict | None:
        rows = self._query("SELECT * FROM proj_games WHERE game_id = %s", (game_id,))
        return _decode_game(rows[0]) if rows else None

    def commit(self, batch: Batch, name: str, prev: int | None, new: int, *, check_prev: bool = True) -> None:
        try:
            with self.datastore.transaction(commit=True) as curs:
                curs.execute(self.search_path)
                if check_prev:
                    curs.execute(self.lock_tracking, (name,))
                    row = curs.fetchone()
                    if (row["notification_id"] if row else None) != prev:
                        raise PositionMoved(f"the {name} projection moved past {prev} meanwhile")
                self._write(curs, batch)
                self._insert_tracking(curs, Tracking(name, new))
        except IntegrityError as e:
            raise PositionMoved(f"the {name} projection already has notification {new}: {e}") from None

    def _write(self, curs: Cursor[Any], batch: Batch) -> None:
        if batch.games:
            curs.executemany(
                f"INSERT INTO proj_games ({', '.join(GAME_COLUMNS)}) VALUES ({', '.join(['%s'] * len(GAME_COLUMNS))})",
                [tuple(json.dumps(g[c]) if c in ("players", "winners") and g[c] is not None else g[c]
                       for c in GAME_COLUMNS) for g in batch.games.values()])
        for gid, names in batch.names.items():
            curs.execute("UPDATE proj_games SET players = %s WHERE game_id = %s", (json.dumps(names), gid))
        for gid, f in batch.finished.items():
            curs.execute("UPDATE proj_games SET finished = %s, finished_at = %s, events = %s, winners = %s, "
                         "shared = %s WHERE game_id = %s",
                         (f["finished"], f["finished_at"], f["events"], json.dumps(f["winners"]),
                          f["shared"], gid))
        if batch.scores:
            curs.executemany(
                f"INSERT INTO proj_scores ({', '.join(SCORE_COLUMNS)}) VALUES ({', '.join(['%s'] * len(SCORE_COLUMNS))})",
                [tuple(s[c] for c in SCORE_COLUMNS) for s in batch.scores])
        for tournament, game in sorted(batch.touched):
            curs.execute(RECOUNT_DELETE.format(p="%s"), (tournament, game))
            curs.execute(RECOUNT_INSERT.format(p="%s"), (tournament, game))
        if batch.events:
            curs.executemany("INSERT INTO proj_events (game_id, seq, turn, type, text, data) "
                             "VALUES (%s, %s, %s, %s, %s, %s)",
                             [(r["game_id"], r["seq"], r["turn"], r["type"], r["text"], r["data"])
                              for r in batch.events])
        for r in batch.boards.values():
            curs.execute("INSERT INTO proj_boards (game_id, version, turn, finished, board) VALUES "
                         "(%s, %s, %s, %s, %s) ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, "
                         "turn = excluded.turn, finished = excluded.finished, board = excluded.board",
                         (r["game_id"], r["version"], r["turn"], r["finished"], r["board"]))

    # queries ------------------------------------------------------------------
    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[dict]:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(self.search_path)
            curs.execute(sql, params)
            return [dict(r) for r in curs.fetchall()]

    def standings(self, tournament: str | None = None, rated: dict | None = None) -> list[dict]:
        """Ranked, each row with the player's rating (``rated``: ``self.ratings``, else read now)."""
        rated = self.ratings(tournament) if rated is None else rated
        if tournament is None:
            return rank_rows(self._query("SELECT * FROM proj_standings"), rated)
        return rank_rows(self._query("SELECT * FROM proj_standings WHERE tournament = %s", (tournament,)), rated)

    def ratings(self, tournament: str | None = None) -> dict:
        """The players' ratings (``model.ratings``) over the counted results."""
        if tournament is None:
            return ratings(self._query(RESULTS))
        return ratings(self._query(RESULTS_OF.format(p="%s"), (tournament,)))

    def scores(self, tournament: str | None = None) -> list[dict]:
        if tournament is None:
            return self._query("SELECT * FROM proj_scores ORDER BY game_id, seat")
        return self._query("SELECT * FROM proj_scores WHERE tournament = %s ORDER BY game_id, seat", (tournament,))

    def games(self) -> list[dict]:
        return [_decode_game(r) for r in self._query("SELECT * FROM proj_games ORDER BY created, game_id")]

    def dump(self) -> dict:
        order = {"proj_games": "game_id", "proj_scores": "game_id, seat",
                 "proj_standings": "tournament, game, player", "proj_events": "game_id, seq",
                 "proj_boards": "game_id"}
        return {t: self._query(f"SELECT * FROM {t} ORDER BY {order[t]}") for t in TABLES}

    def close(self) -> None:
        pass  # the datastore belongs to the application


def _decode_game(row: dict) -> dict:
    out = dict(row)
    out["players"] = json.loads(out["players"]) if out.get("players") else {}
    out["winners"] = json.loads(out["winners"]) if out.get("winners") else None
    return out


class StandingsProjection(Projection[PostgresStandingsView]):
    """For the library's ``ProjectionRunner``: one event, one transaction with its tracking."""

    name = PROJECTION_NAME
    db: str | None = None  # the store followed (set by ``runner.follow``), to refresh the public boards
    _app: Privateer | None = None
    _config_of: Callable[[str], dict | None] | None = None

    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        batch = Batch()
        if self.db is not None and StandingsProjection._app is None:
            StandingsProjection._app = Privateer(self.db)
            StandingsProjection._config_of = staticmethod(created_data(StandingsProjection._app))
        config_of = StandingsProjection._config_of if self.db is not None else None
        add_event(batch, domain_event, self.view.lookup, self.view.public_count, config_of)
        if batch.events and self.db is not None:
            public_boards(StandingsProjection._app, batch)  # type: ignore[arg-type]  # (set above whenever self.db is)
        self.view.commit(batch, tracking.application_name, None, tracking.notification_id, check_prev=False)


class PrivateerFollowed(Privateer):
    """``Privateer`` constructed from an environment (as the library's runner does)."""

    name = "privateer"

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        self.db = "postgresql"
        self.snapshot_interval = 0
        Application.__init__(self, env=env)

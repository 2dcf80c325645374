"""SQLite recorder: the library's application recorder plus the games index
and the game secrets, written in the same transaction as the events."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from eventsourcing.persistence import DataError, IntegrityError, InterfaceError, InternalError, OperationalError
from eventsourcing.sqlite import SQLiteApplicationRecorder

from service.kernel.errors import DamagedHistory

from .commit_process import execute_step
from .index import INDEX_COLUMNS, SQLITE_GAMES, SQLITE_STATUSES, STATUS_TABLE_NAME, prefix_bounds
from . import service_tables
from .service_tables import CREATE_STATEMENTS as SERVICE_TABLES
from .service_tables import service_statements, write_service_rows

if TYPE_CHECKING:
    from uuid import UUID

    from eventsourcing.persistence import StoredEvent
    from eventsourcing.sqlite import SQLiteConnectionPool, SQLiteDatastore

    from .commit_process import Statement
    from .index import IndexRow

INDEX_TABLE = (
    "CREATE TABLE IF NOT EXISTS privateer_games ("
    "game_id TEXT PRIMARY KEY, game TEXT, name TEXT, tournament TEXT, seats INTEGER, "
    "table_mode INTEGER, created TEXT, version INTEGER, head BLOB, turn INTEGER, "
    "finished INTEGER, scores TEXT, winners TEXT, parent TEXT)"
)
SECRETS_TABLE = "CREATE TABLE IF NOT EXISTS privateer_secrets (game_id TEXT PRIMARY KEY, seed BLOB)"
STATUS_TABLE = (f"CREATE TABLE IF NOT EXISTS {STATUS_TABLE_NAME} "
                "(game_id TEXT PRIMARY KEY, version INTEGER, corrections INTEGER, status TEXT)")
UPSERT_STATUS = (f"INSERT INTO {STATUS_TABLE_NAME} VALUES (?, ?, ?, ?) ON CONFLICT(game_id) DO UPDATE SET "
                 "version=excluded.version, corrections=excluded.corrections, status=excluded.status")

UPSERT = (
    f"INSERT INTO privateer_games ({', '.join(INDEX_COLUMNS)}) "
    f"VALUES ({', '.join('?' for _ in INDEX_COLUMNS)}) "
    "ON CONFLICT(game_id) DO UPDATE SET version=excluded.version, head=excluded.head, "
    "turn=excluded.turn, finished=excluded.finished, scores=excluded.scores, "
    "winners=excluded.winners"
)


STATEMENT_CACHE = 128


def damaged(game_id: object, e: Exception) -> Exception:
    """A row that SQLite cannot give back as it was written (a BLOB rewritten as
    text that is not UTF-8) is a damaged history, said in one line; any other
    error is itself."""
    if "Could not decode" not in str(e):
        return e
    gid = game_id.hex if hasattr(game_id, "hex") else game_id
    return DamagedHistory(f"game {gid}: a stored event no longer reads back as the bytes written "
                          "(its row was changed outside privateer): this history does not verify")


def _cached_statements(pool: SQLiteConnectionPool) -> None:
    """The library opens its connections with ``cached_statements=True``, a
    cache of ONE prepared statement: a decision's transaction (its events, the
    index and status upserts) re-parses every statement every time. Open the
    pool's connections as it does, with a real cache."""
    if getattr(pool, "_privateer_cached", False):
        return
    from eventsourcing.sqlite import SQLITE3_DEFAULT_LOCK_TIMEOUT, SQLiteConnection

    def create() -> SQLiteConnection:
        try:
            c = sqlite3.connect(database=pool.db_name, uri=True, check_same_thread=False,
                                isolation_level=None, cached_statements=STATEMENT_CACHE,
                                timeout=pool.lock_timeout or SQLITE3_DEFAULT_LOCK_TIMEOUT)
        except (sqlite3.Error, TypeError) as e:
            raise InterfaceError(e) from e
        if not pool.is_sqlite_memory_mode and not pool.is_journal_mode_wal:
            cursor = c.cursor()
            try:
                cursor.execute("PRAGMA journal_mode;")
            except sqlite3.DatabaseError as e:  # not a database, or a damaged one: said in one line
                raise damaged_store(pool.db_name, e) from None
            if cursor.fetchone()[0].lower() != "wal":
                cursor.execute("PRAGMA journal_mode=WAL;")
                pool.journal_mode_was_changed_to_wal = True
            pool.is_journal_mode_wal = True
        c.row_factory = sqlite3.Row
        return SQLiteConnection(sqlite_conn=c, max_age=pool.max_age)

    pool._create_connection = create  # type: ignore[method-assign]  # the pool's factory, replaced
    pool._privateer_cached = True  # type: ignore[attr-defined]  # our mark on the library's pool


def damaged_store(db: str, e: Exception) -> Exception:
    """The store's file cannot be read as a database (truncated, overwritten): one line."""
    return DamagedHistory(f"the store {db} cannot be read ({e}): its file is damaged")


@contextmanager
def _mapped_errors() -> Iterator[None]:
    """``sqlite3`` errors as the library's classes (as its own transaction maps them)."""
    try:
        yield
    except sqlite3.IntegrityError as e:
        raise IntegrityError(e) from e
    except sqlite3.OperationalError as e:
        raise OperationalError(e) from e
    except sqlite3.InterfaceError as e:
        raise InterfaceError(e) from e
    except sqlite3.DataError as e:
        raise DataError(e) from e
    except sqlite3.InternalError as e:
        raise InternalError(e) from e
    except sqlite3.DatabaseError as e:  # "database disk image is malformed", "file is not a database"
        raise damaged_store("", e) from None


class IndexedSQLiteRecorder(SQLiteApplicationRecorder):
    def __init__(self, datastore: SQLiteDatastore, *args: Any, **kwargs: Any):
        _cached_statements(datastore.pool)
        self._readers = threading.local()
        super().__init__(datastore, *args, **kwargs)

    def construct_create_table_statements(self) -> list[str]:
        return super().construct_create_table_statements() + [INDEX_TABLE, SECRETS_TABLE, STATUS_TABLE] + SERVICE_TABLES

    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> None:
        """One transaction on the pool's writer connection, straight through
        ``sqlite3`` (the library's cursor and transaction wrappers cost more
        than the statements): the step's ``statements``, then ``COMMIT``.
        Errors map to the library's classes as its own transaction does (an
        ``IntegrityError`` is a stale version). Returns None: nothing reads
        the new rows' notification ids back."""
        pool = self.datastore.pool
        conn = pool.get_connection(is_writer=True)
        try:
            with _mapped_errors():
                execute_step(conn._sqlite_conn, self.statements(stored_events, **kwargs))
        finally:
            pool.put_connection(conn)
        return None

    @property
    def snapshots_table_name(self) -> str:
        """The snapshot store's table (the library's ``stored_snapshots``)."""
        return self.events_table_name.rsplit("_", 1)[0] + "_snapshots"

    def statements(self, stored_events: Sequence[StoredEvent], *, index: IndexRow | None = None,
                   secret: tuple[str, bytes] | None = None, idempotency: Sequence[Any] | None = None,
                   credential: Sequence[Any] | None = None, invitation_use: Sequence[Any] | None = None,
                   snapshots: Sequence[StoredEvent] | None = None, tracking: object = None,
                   signatures: Sequence[Sequence[Any]] | None = None, end: Sequence[Any] | None = None,
                   **kwargs: Any) -> list[Statement]:
        """What one step's transaction executes, in order, as ``(sql, many,
        params)``: the events (one ``executemany``), the service rows, the
        games index and status rows, the secret, the snapshots (stored rows
        of the snapshot store, a cache: one already there for that version
        is kept, as it holds the same state). ``insert_events`` runs them;
        so does the commit process (event_store/commit_process.py)."""
        if tracking is not None:  # the library's tracking rows go through its own path
            raise NotImplementedError("tracking is not written by this recorder")
        out: list[Statement] = [(self.insert_events_statement, True,
                [(s.originator_id.hex if not isinstance(s.originator_id, str) else s.originator_id,
                  s.originator_version, s.topic, s.state) for s in stored_events])]
        out += [(sql, False, params) for sql, params in service_statements(
            idempotency=idempotency, credential=credential, invitation_use=invitation_use, signatures=signatures,
            end=end)]
        if index is not None:  # an IndexRow (event_store/index.py)
            out.append((UPSERT, False, index.params))
            if index.status is not None:
                out.append((UPSERT_STATUS, False, index.status))
        if secret is not None:
            out.append(("INSERT INTO privateer_secrets VALUES (?, ?)", False, (secret[0], secret[1])))
        if snapshots:
            out.append((f"INSERT OR IGNORE INTO {self.snapshots_table_name} VALUES (?,?,?,?)", True,
                        [(s.originator_id.hex if not isinstance(s.originator_id, str) else s.originator_id,
                          s.originator_version, s.topic, s.state) for s in snapshots]))
        return out

    def select_events(self, originator_id: UUID | str, **kwargs: Any) -> Sequence[StoredEvent]:
        try:
            return super().select_events(originator_id, **kwargs)
        except OperationalError as e:
            raise damaged(originator_id, e) from None

    def convert_originator_id(self, originator_id: str) -> UUID | str:
        """The library makes a UUID from the text id of every row it reads; the
        rows of one game share it: one UUID per game read instead of one per row."""
        last = getattr(self, "_last_id", None)
        if last is not None and last[0] == originator_id:
            return last[1]
        converted = super().convert_originator_id(originator_id)
        self._last_id = (originator_id, converted)
        return converted

    def count_notifications(self, after: int) -> int:
        """How many events the log holds after id ``after`` (a reader's progress to come)."""
        rows = self._query(f"SELECT count(*) AS n FROM {self.events_table_name} WHERE rowid > ?", (after,))
        return int(rows[0]["n"])

    # queries of our own tables -----------------------------------------------
    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        """A read of our own tables on this thread's read connection (WAL: it
        sees the last commit and waits for no writer), outside the library's
        pool, whose queue would hold every read behind a commit in progress.
        An in-memory store has one database per connection: its pool it is."""
        pool = self.datastore.pool
        if pool.is_sqlite_memory_mode:
            with self.datastore.transaction(commit=False) as c:
                c.execute(sql, params)
                return [dict(r) for r in c.fetchall()]
        reader = getattr(self._readers, "conn", None)
        if reader is None:
            reader = sqlite3.connect(pool.db_name, uri=True, isolation_level=None, cached_statements=STATEMENT_CACHE,
                                     timeout=pool.lock_timeout or 5)
            reader.row_factory = sqlite3.Row
            self._readers.conn = reader
        with _mapped_errors():
            return [dict(r) for r in reader.execute(sql, params).fetchall()]

    def select_games(self, prefix: str | None = None) -> list[dict]:
        if prefix:
            return self._query("SELECT * FROM privateer_games WHERE game_id >= ? AND game_id < ? ORDER BY created",
                               prefix_bounds(prefix))
        return self._query(SQLITE_GAMES)

    def select_corrections(self, game_id: str) -> int | None:
        """How many corrections the game's line holds (its status row), or None without one."""
        rows = self._query(f"SELECT corrections FROM {STATUS_TABLE_NAME} WHERE game_id = ?", (game_id,))
        return int(rows[0]["corrections"] or 0) if rows else None

    def select_statuses(self) -> dict[str, str]:
        """The status row (JSON text) of every game that has one."""
        return {r["game_id"]: r["status"] for r in self._query(SQLITE_STATUSES)}

    def select_secret(self, game_id: str) -> bytes | None:
        rows = self._query("SELECT seed FROM privateer_secrets WHERE game_id = ?", (game_id,))
        return bytes(rows[0]["seed"]) if rows else None

    # the HTTP service's tables (event_store/service_tables.py) -----------------
    def select_role(self, game_id: str, token_hash: str) -> str | None:
        from .service_tables import SELECT_ROLE_QMARK

        rows = self._query(SELECT_ROLE_QMARK, (game_id, token_hash))
        return rows[0]["role"] if rows else None

    def select_roles(self, game_id: str) -> list[str]:
        from .service_tables import SELECT_ROLES_QMARK

        return [r["role"] for r in self._query(SELECT_ROLES_QMARK, (game_id,))]

    def select_idempotency(self, game_id: str, scope: str, key: str) -> dict | None:
        from .service_tables import SELECT_IDEMPOTENCY_QMARK

        rows = self._query(SELECT_IDEMPOTENCY_QMARK, (game_id, scope, key))
        return rows[0] if rows else None

    def insert_credential(self, game_id: str, role: str, token_hash: str, created: str,
                          invitation_use: tuple | None = None) -> None:
        """A credential on its own (a seat joining without entropy), with the
        invitation it consumes, in one transaction; raises the library's
        ``IntegrityError`` if the role is taken or the invitation used."""
        self.insert_service_rows(credential=(game_id, role, token_hash, created), invitation_use=invitation_use)

    def insert_service_rows(self, **rows: Any) -> None:
        """Service rows (``write_service_rows`` kwargs) in a transaction of their own."""
        with self.datastore.transaction(commit=True) as c:
            write_service_rows(c, **rows)

    def select_invitation(self, game_id: str, code_hash: str) -> dict | None:
        from .service_tables import SELECT_INVITATION_QMARK

        rows = self._query(SELECT_INVITATION_QMARK, (game_id, code_hash))
        return rows[0] if rows else None

    def select_invitations(self, game_id: str) -> list[dict]:
        from .service_tables import SELECT_INVITATIONS_QMARK

        return self._query(SELECT_INVITATIONS_QMARK, (game_id,))

    def select_published(self, game_id: str) -> bool:
        from .service_tables import SELECT_PUBLISHED_QMARK

        return bool(self._query(SELECT_PUBLISHED_QMARK, (game_id,)))

    def select_keys(self) -> list[dict]:
        """The service's signing keys (event_store/signing.py), oldest first."""
        return self._query(service_tables.SELECT_KEYS)

    def select_rotations(self) -> list[dict]:
        """The service's key rotations (event_store/signing.py), oldest first."""
        return self._query(service_tables.SELECT_ROTATIONS)

    def select_signatures(self, game_id: str) -> list[dict]:
        """The game's signed heads, by version."""
        return self._query(service_tables.SELECT_SIGNATURES_QMARK, (game_id,))

    def select_end(self, game_id: str) -> dict | None:
        """The signed end kept with an imported finished game (spec/SPEC.md §4a), or None."""
        rows = self._query(service_tables.SELECT_END_QMARK, (game_id,))
        return rows[0] if rows else None

    def select_feed(self, after: int, limit: int) -> list[dict]:
        """The feed of heads' entries after ``seq`` ``after``, at most ``limit`` (event_store/heads_feed.py)."""
        return self._query(service_tables.SELECT_FEED_QMARK, (after, limit))

    def select_feed_last(self) -> dict | None:
        """The feed's last entry (``seq``, ``entry``), None while it is empty."""
        rows = self._query(service_tables.SELECT_FEED_LAST)
        return rows[0] if rows else None

    def select_feed_game_last(self, game_id: str) -> dict | None:
        """The game's last entry in the feed (``version``, ``head``), None before its first."""
        rows = self._query(service_tables.SELECT_FEED_GAME_LAST_QMARK, (game_id,))
        return rows[0] if rows else None

    def select_catalog(self, digest: str) -> dict | None:
        """A loaded catalog (service/catalogs.py) by its digest, None if none was loaded."""
        rows = self._query(service_tables.SELECT_CATALOG_QMARK, (digest,))
        return rows[0] if rows else None

    def select_catalogs(self) -> list[dict]:
        """The loaded catalogs (without their content), oldest first."""
        return self._query(service_tables.SELECT_CATALOGS)

    def select_unfed(self) -> list[dict]:
        """The signed heads the feed has not taken yet, oldest signature first."""
        return self._query(service_tables.SELECT_UNFED)

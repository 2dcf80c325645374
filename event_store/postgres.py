"""PostgreSQL: the library's application recorder plus the games index and the
game secrets, written in the same transaction as the events (mirrors
``sqlite_recorder.py``).

``--db postgresql://user[:password]@host[:port]/dbname[?schema=NAME&pool=N]``

* ``schema`` (or the environment's ``POSTGRES_SCHEMA``): the schema holding
  every table; it is created on first use, like the tables.
* ``pool``: connections per process (default 1, with up to 9 more on demand).

The tables, with the application name ``privateer``: ``privateer_events`` (the
library's: originator_id uuid, originator_version, topic, state bytea — our
MessagePack bytes, unchanged — and notification_id), ``privateer_snapshots``,
``privateer_games`` (the index) and ``privateer_secrets``.

Several processes may append to one database at once, without a table lock: the
notification ids are numbered so that a reader never passes over an event committed
late (event_store/pg_log.py), and the primary key (originator_id, originator_version)
turns a concurrent append at the same version into an ``IntegrityError``, which the
application reports as a stale version. Every server follows the log
(``listen_for_commits``) to wake its streams and bots at other servers' commits.
"""

from __future__ import annotations

import hashlib
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, unquote, urlsplit

import psycopg
from eventsourcing.persistence import IntegrityError, InterfaceError, Notification, OperationalError, PersistenceError
from eventsourcing.postgres import PostgresAggregateRecorder, PostgresApplicationRecorder, PostgresSubscription
from eventsourcing.utils import retry
from psycopg.sql import SQL, Composed, Identifier

from service.kernel.errors import BadInput

from .index import INDEX_COLUMNS, STATUS_TABLE_NAME, prefix_bounds
from . import pg_log, service_tables

if TYPE_CHECKING:
    from eventsourcing.persistence import StoredEvent
    from psycopg.abc import Query
    from eventsourcing.postgres import PostgresDatastore

    from .index import IndexRow

    # one step as ``insert_events`` takes it: its stored events and the rows written with them
    Step = tuple[Sequence[StoredEvent], dict[str, Any]]


def postgres_env(url: str) -> dict[str, str]:
    """The ``eventsourcing`` environment for a ``postgresql://`` URL."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as e:
        raise BadInput(f"--db {url!r} is not a valid PostgreSQL URL: {e}") from None
    dbname = unquote(parts.path.lstrip("/"))
    if not dbname or "/" in dbname:
        raise BadInput(f"--db {url!r} must name a database: postgresql://user@host:port/dbname")
    query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
    unknown = set(query) - {"schema", "pool"}
    if unknown:
        raise BadInput(f"--db {url!r}: unknown parameter(s) {', '.join(sorted(unknown))} "
                       "(known: schema, pool)")
    env = {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": dbname,
        "POSTGRES_HOST": unquote(parts.hostname or "127.0.0.1"),
        "POSTGRES_PORT": str(port or 5432),
        "POSTGRES_USER": unquote(parts.username or "postgres"),
        "POSTGRES_PASSWORD": unquote(parts.password or ""),
        "POSTGRES_CONNECT_TIMEOUT": "5",
        "POSTGRES_POOL_SIZE": query.get("pool", "1"),
        "POSTGRES_MAX_OVERFLOW": "9",
        "POSTGRES_LOCK_TIMEOUT": "30",
        "CREATE_TABLE": "true",
        "APPLICATION_RECORDER_TOPIC": "event_store.postgres:IndexedPostgresRecorder",
    }
    if not env["POSTGRES_POOL_SIZE"].isdigit() or int(env["POSTGRES_POOL_SIZE"]) < 1:
        raise BadInput(f"--db {url!r}: pool must be a positive number")
    if query.get("schema"):
        schema = query["schema"]
        if not schema.replace("_", "").isalnum():
            raise BadInput(f"--db {url!r}: schema must be letters, digits and _")
        env["POSTGRES_SCHEMA"] = schema
    return env


EVENTS_TABLE = "privateer_events"
FOLLOW_SECONDS = 0.01  # a follower of the log looks for commits this often


def listen_for_commits(url: str, on_commit: Callable[[str], object], stop: threading.Event,
                       heard: HeardRows | None = None) -> None:
    """Block until ``stop`` (a ``threading.Event``) is set, calling ``on_commit(game_id_hex)``
    for every commit to a game of this database and schema, by any process: the log is
    followed every ``FOLLOW_SECONDS`` (``pg_log.Follower``: a commit is seen once it is
    visible, a late one too). A lost connection is opened again after a second. ``heard``:
    the recorder's rows, kept only while this connection follows (``HeardRows``); with it,
    this process's own commits (``HeardRows.wrote``) are not passed on: the process that
    commits a step tells its own streams and bots at once (service/http/steps.py).
    (No LISTEN/NOTIFY: a transaction that notifies takes, at its commit, a lock that every
    notifying transaction of the PostgreSQL server waits for, held over the WAL's flush.)"""
    env = postgres_env(url)
    schema = env.get("POSTGRES_SCHEMA") or "public"
    follow, begin = pg_log.follow_sql(schema, EVENTS_TABLE), pg_log.start_sql(schema, EVENTS_TABLE)
    while not stop.is_set():
        try:
            with psycopg.connect(dbname=env["POSTGRES_DBNAME"], host=env["POSTGRES_HOST"],
                                 port=int(env["POSTGRES_PORT"]), user=env["POSTGRES_USER"],
                                 password=env["POSTGRES_PASSWORD"] or None, connect_timeout=5,
                                 autocommit=True, row_factory=psycopg.rows.dict_row) as conn:
                row = conn.execute(begin).fetchone()
                follower = pg_log.Follower(int(row["last"]) if row else 0)
                if heard is not None:
                    heard.start()
                try:
                    while not stop.wait(FOLLOW_SECONDS):
                        rows = conn.execute(follow, (follower.last, follower.newest, follower.LIMIT)).fetchall()
                        for game_id, version in follower.take(rows).items():
                            if heard is not None:
                                heard.heard(game_id, version)
                                if heard.mine(game_id, version):  # this process's own commit: told already
                                    continue
                            on_commit(game_id)
                finally:
                    if heard is not None:
                        heard.stop()
        except psycopg.Error:
            stop.wait(1.0)


class HeardRows:
    """Games-index rows this process has read or written, kept while it hears every commit
    to the database (``listen_for_commits``): a request then finds its game's row here
    instead of asking the database, a round trip in which a server's event loop waits.

    A game's versions only grow, and every commit is heard, with its game and new version,
    once it is visible (the log followed: ``listen_for_commits``). A row is kept only while
    it is at least the last version heard for its game, and a commit heard with a later
    version drops it; whatever holds a row kept here is behind the store by no more than
    the follower's next look (10 ms, a few more when a commit is late), as a row read a
    moment ago is. A step made on such a row is refused by
    the store's keys as any stale step is (409), never stored twice. While the listening
    connection is down nothing is kept (every row is read again), and every row is dropped
    when it comes back (commits may have been missed meanwhile)."""

    MAX_ROWS = 20_000

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._rows: dict[str, dict[str, Any]] = {}
        self._versions: dict[str, int] = {}   # the last version heard of each game
        self._written: dict[str, int] = {}    # the last version this process committed of each game
        self.hearing = False

    def start(self) -> None:
        with self._lock:
            self._rows.clear()
            self.hearing = True

    def stop(self) -> None:
        with self._lock:
            self.hearing = False
            self._rows.clear()

    def get(self, game_id: str) -> dict[str, Any] | None:
        row = self._rows.get(game_id) if self.hearing else None
        return dict(row) if row is not None else None

    def keep(self, row: dict[str, Any]) -> None:
        """A row read from the store (or just written), kept if nothing later was heard of its game."""
        with self._lock:
            if not self.hearing:
                return
            game_id, version = row["game_id"], int(row["version"])
            if version < self._versions.get(game_id, 0):
                return
            old = self._rows.get(game_id)
            if old is not None and int(old["version"]) > version:
                return
            if len(self._rows) >= self.MAX_ROWS:
                self._rows.clear()
            self._rows[game_id] = dict(row)

    def wrote(self, game_id: str, version: int) -> None:
        """This process commits the game at ``version`` (and tells its own streams)."""
        with self._lock:
            if len(self._written) >= self.MAX_ROWS:
                self._written.clear()
            self._written[game_id] = version

    def unwrote(self, game_id: str, version: int) -> None:
        """That commit (``wrote``) failed."""
        with self._lock:
            if self._written.get(game_id) == version:
                del self._written[game_id]

    def mine(self, game_id: str, version: int) -> bool:
        """Whether the game's ``version`` was committed by this process."""
        return self._written.get(game_id) == version

    def heard(self, game_id: str, version: int | None) -> None:
        """A commit to the game, notified: rows of earlier versions are dropped (without a
        version, from a build that did not send it: the row is dropped)."""
        with self._lock:
            if version is None:
                self._rows.pop(game_id, None)
                return
            if version > self._versions.get(game_id, 0):
                self._versions[game_id] = version
            row = self._rows.get(game_id)
            if row is not None and int(row["version"]) < version:
                del self._rows[game_id]


class PolledSubscription(PostgresSubscription):
    """The library's subscription (its ``ProjectionRunner``: ``tools projections follow``),
    looking at the log every ``SUBSCRIPTION_SECONDS``: no transaction sends ``NOTIFY`` (see
    ``listen_for_commits``), and an event is readable only once the horizon passes it
    (pg_log.py), which no notification would say."""

    SUBSCRIPTION_SECONDS = 0.05

    def _listen(self) -> None:
        while not self._has_been_stopped and not self._thread_error:
            time.sleep(self.SUBSCRIPTION_SECONDS)
            self._has_been_notified.set()


def connect_problem(datastore: PostgresDatastore, error: Exception) -> str:
    """Why the pool could not connect, in one line (the pool only says it timed out)."""
    kwargs = datastore.pool.kwargs  # the connection's, as the datastore gave them
    kw: dict[str, Any] = dict(kwargs) if isinstance(kwargs, dict) else {}
    kw.pop("row_factory", None)
    where = f"{kw.get('user')}@{kw.get('host')}:{kw.get('port')}/{kw.get('dbname')}"
    try:
        psycopg.connect(**kw, connect_timeout=3).close()
    except psycopg.Error as e:
        return f"{where}: " + " ".join(str(e).split())[:300]
    return f"{where}: " + " ".join(str(error).split())[:300]


_VERSION = INDEX_COLUMNS.index("version")
_BEGIN, _COMMIT, _ROLLBACK = SQL("BEGIN"), SQL("COMMIT"), SQL("ROLLBACK")
_SERVICE_TABLE = re.compile(r"\bprivateer_\w+")


def _table_created(statement: str) -> str:
    """The name of the table a ``CREATE TABLE IF NOT EXISTS`` statement creates."""
    found = re.search(r"CREATE TABLE IF NOT EXISTS (\w+)", statement)
    if found is None:
        raise ValueError(f"not a CREATE TABLE statement: {statement[:60]!r}")
    return found.group(1)


SERVICE_TABLE_NAMES = [_table_created(s) for s in service_tables.CREATE_STATEMENTS]


@contextmanager
def ddl_lock(datastore: PostgresDatastore) -> Iterator[None]:
    """A session advisory lock (per schema) held on its own connection while
    tables are created: concurrent CREATE ... IF NOT EXISTS / CREATE OR REPLACE
    statements in several processes otherwise fail ("tuple concurrently updated")."""
    key = int.from_bytes(hashlib.sha256(f"privateer-ddl:{datastore.schema}".encode()).digest()[:8], "big",
                         signed=True)
    with datastore.get_connection() as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (key,))
        try:
            yield
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (key,))


def _library_error(e: psycopg.Error) -> Exception:
    """A psycopg error as the event library's own (what ``datastore.get_connection`` raises)."""
    for theirs, ours in ((psycopg.IntegrityError, IntegrityError), (psycopg.OperationalError, OperationalError),
                         (psycopg.InterfaceError, InterfaceError)):
        if isinstance(e, theirs):
            return ours(str(e))
    return PersistenceError(str(e))


class IndexedPostgresRecorder(PostgresApplicationRecorder):
    """The library's PostgreSQL application recorder, plus the games index and
    the secrets, both written inside the events' transaction."""

    def __init__(self, datastore: PostgresDatastore, *, events_table_name: str = "stored_events"):
        self._schema_sql: dict[str, Composed] = {}  # the service tables' SQL in our schema (``_in_schema``)
        self._insert_sql: dict[int, Composed] = {}  # the events' INSERT by number of rows (``_insert_rows``)
        self.heard = HeardRows()  # index rows, kept while a listener hears every commit (``listen_for_commits``)
        try:
            super().__init__(datastore, events_table_name=events_table_name)  # connects
        except (OperationalError, InterfaceError) as e:
            raise BadInput(f"cannot use the PostgreSQL database: {connect_problem(datastore, e)}") from None
        schema = Identifier(self.datastore.schema)
        self.games_table = SQL("{}.{}").format(schema, Identifier("privateer_games"))
        self.secrets_table = SQL("{}.{}").format(schema, Identifier("privateer_secrets"))
        self.status_table = SQL("{}.{}").format(schema, Identifier(STATUS_TABLE_NAME))
        # Our statements run first in create_table(), so the schema exists
        # before the library creates its types and tables in it.
        self.sql_create_statements[:0] = [
            SQL("CREATE SCHEMA IF NOT EXISTS {}").format(schema),
        ]
        self.sql_create_statements += [
            SQL("CREATE TABLE IF NOT EXISTS {} ("
                "game_id TEXT PRIMARY KEY, game TEXT, name TEXT, tournament TEXT, seats INTEGER, "
                "table_mode INTEGER, created TEXT, version INTEGER, head BYTEA, turn INTEGER, "
                "finished INTEGER, scores TEXT, winners TEXT, parent TEXT)").format(self.games_table),
            SQL("CREATE TABLE IF NOT EXISTS {} (game_id TEXT PRIMARY KEY, seed BYTEA)").format(
                self.secrets_table),
            SQL("CREATE TABLE IF NOT EXISTS {} (game_id TEXT PRIMARY KEY, version INTEGER, corrections INTEGER, "
                "status TEXT)").format(
                self.status_table),
        ]
        # The HTTP service's tables (event_store/service_tables.py) are written
        # unqualified: they run with the search path set to our schema.
        self.set_search_path = SQL("SET LOCAL search_path TO {}").format(schema)
        self.sql_create_statements += [self.set_search_path] + [
            Composed([SQL(s)]) for s in service_tables.CREATE_STATEMENTS]
        # the events' notification ids without a table lock (also the migration of a store made before)
        self.sql_create_statements += pg_log.create_statements(self.datastore.schema, self.events_table_name)
        self._select_notifications_sql: dict[tuple[bool, bool, bool], Composed] = {}
        self.upsert_index = SQL(
            "INSERT INTO {} ({}) VALUES ({}) ON CONFLICT (game_id) DO UPDATE SET "
            "version=excluded.version, head=excluded.head, turn=excluded.turn, "
            "finished=excluded.finished, scores=excluded.scores, winners=excluded.winners"
        ).format(self.games_table, SQL(", ").join(Identifier(c) for c in INDEX_COLUMNS),
                 SQL(", ").join(SQL("%s") for _ in INDEX_COLUMNS))
        self.insert_secret = SQL("INSERT INTO {} VALUES (%s, %s)").format(self.secrets_table)
        self.insert_snapshot = SQL("INSERT INTO {} (originator_id, originator_version, topic, state) "
                                   "VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING").format(
            SQL("{}.{}").format(schema, Identifier(self.snapshots_table_name)))
        self.upsert_status = SQL("INSERT INTO {} VALUES (%s, %s, %s, %s) ON CONFLICT (game_id) DO UPDATE SET "
                                 "version=excluded.version, corrections=excluded.corrections, "
                                 "status=excluded.status").format(self.status_table)

    def create_table(self) -> None:
        """Create the schema and every table on first use. Several processes
        may start at once on a fresh database: the DDL runs under an advisory
        lock, and is skipped altogether once every table exists and the events'
        ids are numbered as pg_log.py says (a store made before is migrated: the
        statements are idempotent)."""
        try:
            exists = self._tables_exist()
        except (OperationalError, InterfaceError) as e:
            raise BadInput(f"cannot use the PostgreSQL database: {connect_problem(self.datastore, e)}") from None
        if exists:
            self.datastore.register_type_adapters()
            return
        with ddl_lock(self.datastore):
            if self._tables_exist():
                self.datastore.register_type_adapters()
                return
            with self.datastore.transaction(commit=True) as curs:
                curs.execute(self.sql_create_statements[0])
            super().create_table()
            # the snapshot store's table, created here under the lock too
            PostgresAggregateRecorder(self.datastore, events_table_name=self.snapshots_table_name).create_table()

    @property
    def snapshots_table_name(self) -> str:
        return self.events_table_name.rsplit("_", 1)[0] + "_snapshots"

    def _tables_exist(self) -> bool:
        names = [self.events_table_name, "privateer_games", "privateer_secrets", STATUS_TABLE_NAME,
                 self.snapshots_table_name,
                 *SERVICE_TABLE_NAMES]
        with self.datastore.transaction(commit=False) as curs:
            curs.execute("SELECT bool_and(to_regclass(n) IS NOT NULL) AS ok FROM unnest(%s::text[]) AS n",
                         ([f'"{self.datastore.schema}"."{n}"' for n in names],))
            row = curs.fetchone()
            if not (row is not None and row["ok"]):
                return False
            curs.execute(pg_log.migrated_check(self.datastore.schema, self.events_table_name))
            row = curs.fetchone()
            return bool(row is not None and row["ok"])

    # reading the notification log (below the horizon: pg_log.py) -----------------
    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def select_notifications(self, start: int | None, limit: int, stop: int | None = None,
                             topics: Sequence[str] = (), *, inclusive_of_start: bool = True) -> Sequence[Notification]:
        """The library's, reading only events no transaction still running can precede."""
        shape = (inclusive_of_start, stop is not None, bool(topics))
        sql = self._select_notifications_sql.get(shape)
        if sql is None:
            sql = self._select_notifications_sql[shape] = pg_log.select_notifications_sql(
                self.datastore.schema, self.events_table_name, inclusive_of_start=shape[0], stop=shape[1],
                topics=shape[2])
        params: list[Any] = [start or 0]
        if stop is not None:
            params.append(stop)
        if topics:
            params.append(list(topics))
        params.append(limit)
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(sql, params, prepare=True)
            return [Notification(id=r["notification_id"], originator_id=r["originator_id"],
                                 originator_version=r["originator_version"], topic=r["topic"],
                                 state=bytes(r["state"])) for r in curs.fetchall()]

    def count_notifications(self, after: int) -> int:
        """How many events a reader may read now after id ``after`` (its progress to come: the
        ids are not dense, pg_log.py)."""
        rows = self._query(pg_log.count_notifications_sql(self.datastore.schema, self.events_table_name), (after,))
        return int(rows[0]["n"])

    def subscribe(self, gt: int | None = None, topics: Sequence[str] = ()) -> PolledSubscription:
        return PolledSubscription(recorder=self, gt=gt, topics=topics)

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def max_notification_id(self) -> int | None:
        """The last id a reader may read now (``select_notifications``)."""
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(pg_log.max_notification_id_sql(self.datastore.schema, self.events_table_name))
            row = curs.fetchone()
            return None if row is None else row["max"]

    # writing -------------------------------------------------------------------
    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> None:
        """One step's transaction (``insert_steps`` of one); raises its error. Returns None
        (the notification ids are not read back: nothing here uses them)."""
        with self.datastore.get_connection() as conn:
            self._one_flight(conn, [(stored_events, kwargs)])
        return None

    def insert_steps(self, steps: list[Step]) -> list[Exception | None]:
        """Several steps (``(stored_events, kwargs)`` as ``insert_events`` takes them) in one
        transaction: one wait for the WAL's flush for all of them. Returns
        each step's error or None. When the transaction is refused for a step's conflict (a
        stale version, a used idempotency key), nothing of it was written: each step is then
        committed in a transaction of its own, to learn which one it was. Any other failure
        (a lost connection: whether the commit happened is unknown) is every step's error."""
        if not steps:
            return []
        with self.datastore.get_connection() as conn:
            if len(steps) > 1:
                try:
                    self._one_flight(conn, steps)
                    return [None] * len(steps)
                except psycopg.IntegrityError:  # one step of them conflicts: each committed alone below, its own error said
                    pass
                except psycopg.Error as e:
                    return [_library_error(e)] * len(steps)
            errors: list[Exception | None] = []
            for step in steps:
                try:
                    self._one_flight(conn, [step])
                    errors.append(None)
                except psycopg.Error as e:
                    errors.append(_library_error(e))
            return errors

    def _one_flight(self, conn: psycopg.Connection[Any], steps: list[Step]) -> None:
        """The transaction of ``steps`` (BEGIN, each step's rows, the events' INSERT, COMMIT)
        sent as one message: the server runs it through without waiting for this process, so
        the rows it locks (a game's index row) are held for the server's own work and the
        WAL's flush only, never while this process waits for the CPU or its interpreter's
        lock. (The library's ``insert_events`` pipelines the statements one by one, syncs
        after the INSERT and sends COMMIT after reading its results.)
        The parameters are bound here (psycopg's ``ClientCursor``), before anything is sent.
        On an error the server skips the rest; the transaction is then rolled back here."""
        statements = self.flight_statements(steps)
        # marked before the commit, that the follower of the log does not pass this process's own on
        written = [(index.game_id, int(index.params[_VERSION])) for _, kw in steps
                   if (index := kw.get("index")) is not None]
        for game_id, version in written:
            self.heard.wrote(game_id, version)
        with psycopg.ClientCursor(conn) as curs:
            text = ";\n".join(curs.mogrify(sql, params) for sql, params in statements)
            try:
                curs.execute(text.encode())
            except psycopg.Error:
                for game_id, version in written:
                    self.heard.unwrote(game_id, version)
                if not conn.closed and conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                    try:
                        conn.execute(_ROLLBACK)
                    except psycopg.Error:
                        conn.close()  # the pool replaces it
                raise
        for _, kwargs in steps:
            index = kwargs.get("index")
            if index is not None:
                self.heard.keep(dict(zip(INDEX_COLUMNS, index.params)))

    def flight_statements(self, steps: list[Step]) -> list[tuple[Query, Any]]:
        """The transaction of ``steps`` as ``(sql, params)``, from BEGIN to COMMIT. The steps
        go in the order of their games' ids: two servers' transactions that write the same
        games take their rows' locks in one order, never each waiting for the other."""
        steps = sorted(steps, key=lambda step: str(step[1]["index"].game_id) if step[1].get("index") else "")
        events = [e for stored, _ in steps for e in stored]
        statements: list[tuple[Query, Any]] = [(_BEGIN, None)]
        for _stored, kwargs in steps:
            statements += self._step_statements(**kwargs)
        if events:  # their notification ids: the column's default (pg_log.py), no table lock
            statements += [(self._insert_rows(len(events)),
                            [v for e in events for v in (e.originator_id, e.originator_version, e.topic, e.state)])]
        statements.append((_COMMIT, None))
        return statements

    def _insert_rows(self, n: int) -> Composed:
        """The events' INSERT, for ``n`` rows (the library's own inserts an array of its composite
        type, which a client-side binding cannot name)."""
        sql = self._insert_sql.get(n)
        if sql is None:
            if len(self._insert_sql) > 256:
                self._insert_sql.clear()
            sql = self._insert_sql[n] = SQL(
                "INSERT INTO {}.{} (originator_id, originator_version, topic, state) VALUES {}").format(
                Identifier(self.datastore.schema), Identifier(self.events_table_name),
                SQL(", ").join([SQL("(%s, %s, %s, %s)")] * n))
        return sql

    def _step_statements(self, *, index: IndexRow | None = None, secret: tuple[str, bytes] | None = None,
                         idempotency: Sequence[Any] | None = None, credential: Sequence[Any] | None = None,
                         invitation_use: Sequence[Any] | None = None, snapshots: Sequence[StoredEvent] | None = None,
                         signatures: Sequence[Sequence[Any]] | None = None,
                         end: Sequence[Any] | None = None) -> list[tuple[Query, Any]]:
        """One step's statements besides its events, ``(sql, params)``: they run in the events'
        transaction, before the events' INSERT (a duplicate version, a used key or code rolls the
        whole transaction back)."""
        out: list[tuple[Query, Any]] = []
        if idempotency is not None or credential is not None or invitation_use is not None or signatures \
                or end is not None:
            out.append((self.set_search_path, None))
            out += [(SQL(sql), params) for sql, params in service_tables.service_statements(
                idempotency=idempotency, credential=credential, invitation_use=invitation_use,
                signatures=signatures, end=end, style="pyformat")]
        if index is not None:  # an IndexRow (event_store/index.py)
            out.append((self.upsert_index, index.params))
            if index.status is not None:
                out.append((self.upsert_status, index.status))
        if secret is not None:
            out.append((self.insert_secret, (secret[0], secret[1])))
        for snap in snapshots or ():  # a cache: one already there for that version holds the same state
            out.append((self.insert_snapshot, (snap.originator_id, snap.originator_version, snap.topic, snap.state)))
        return out

    # queries of our own tables ---------------------------------------------
    def _query(self, sql: str | SQL | Composed, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        # One SELECT on the pool's autocommit connection: it reads one snapshot by itself;
        # a BEGIN and ROLLBACK around it (and a SET LOCAL search_path for the service
        # tables) would be more round trips to the server, each one waited for on the
        # HTTP service's event loop
        if isinstance(sql, str):  # the service tables' portable SQL: its tables in our schema
            sql = self._in_schema(sql)
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(sql, params)
            return [dict(r) for r in curs.fetchall()]

    def _in_schema(self, sql: str) -> Composed:
        """``sql`` (the service tables' portable SQL) with every ``privateer_*`` table
        named in our schema."""
        cached = self._schema_sql.get(sql)
        if cached is None:
            names = _SERVICE_TABLE.findall(sql)
            unknown = set(names) - set(SERVICE_TABLE_NAMES) - {"privateer_games"}  # the games index: our schema too
            if unknown:  # a column or a literal that looks like a table: name the table in the SQL instead
                raise ValueError(f"not a service table: {', '.join(sorted(unknown))}")
            template = _SERVICE_TABLE.sub("{}", sql.replace("{", "{{").replace("}", "}}"))
            cached = self._schema_sql[sql] = SQL(template).format(
                *(Identifier(self.datastore.schema, n) for n in names))
        return cached

    def select_games(self, prefix: str | None = None) -> list[dict]:
        """The index rows of the games whose ids start with ``prefix`` (all without one); a
        whole id's row from ``heard`` while it is kept there."""
        if prefix:
            whole = len(prefix) == 32
            if whole:
                row = self.heard.get(prefix)
                if row is not None:
                    return [row]
            rows = self._query(SQL("SELECT * FROM {} WHERE game_id >= %s AND game_id < %s ORDER BY created").format(
                self.games_table), prefix_bounds(prefix))
            if whole and len(rows) == 1:
                self.heard.keep(rows[0])
            return rows
        return self._query(SQL("SELECT * FROM {} ORDER BY created").format(self.games_table))

    def select_corrections(self, game_id: str) -> int | None:
        """How many corrections the game's line holds (its status row), or None without one."""
        rows = self._query(SQL("SELECT corrections FROM {} WHERE game_id = %s").format(self.status_table), (game_id,))
        return int(rows[0]["corrections"] or 0) if rows else None

    def select_statuses(self) -> dict[str, str]:
        """The status row (JSON text) of every game that has one."""
        rows = self._query(SQL("SELECT game_id, status FROM {}").format(self.status_table))
        return {r["game_id"]: r["status"] for r in rows}

    def select_secret(self, game_id: str) -> bytes | None:
        rows = self._query(SQL("SELECT seed FROM {} WHERE game_id = %s").format(self.secrets_table),
                           (game_id,))
        return bytes(rows[0]["seed"]) if rows else None

    # the HTTP service's tables (event_store/service_tables.py) ---------------
    def select_role(self, game_id: str, token_hash: str) -> str | None:
        rows = self._query(service_tables.SELECT_ROLE_PYFORMAT, (game_id, token_hash))
        return rows[0]["role"] if rows else None

    def select_roles(self, game_id: str) -> list[str]:
        return [r["role"] for r in self._query(service_tables.SELECT_ROLES_PYFORMAT, (game_id,))]

    def select_idempotency(self, game_id: str, scope: str, key: str) -> dict | None:
        rows = self._query(service_tables.SELECT_IDEMPOTENCY_PYFORMAT, (game_id, scope, key))
        return rows[0] if rows else None

    def insert_credential(self, game_id: str, role: str, token_hash: str, created: str,
                          invitation_use: tuple | None = None) -> None:
        """A credential on its own (a seat joining without entropy), with the
        invitation it consumes, in one transaction; raises the library's
        ``IntegrityError`` if the role is taken or the invitation used."""
        self.insert_service_rows(credential=(game_id, role, token_hash, created), invitation_use=invitation_use)

    def insert_service_rows(self, **rows: Any) -> None:
        """Service rows (``write_service_rows`` kwargs) in a transaction of their own."""
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(self.set_search_path)
            service_tables.write_service_rows(curs, style="pyformat", **rows)

    def select_invitation(self, game_id: str, code_hash: str) -> dict | None:
        rows = self._query(service_tables.SELECT_INVITATION_PYFORMAT, (game_id, code_hash))
        return rows[0] if rows else None

    def select_invitations(self, game_id: str) -> list[dict]:
        return self._query(service_tables.SELECT_INVITATIONS_PYFORMAT, (game_id,))

    def select_published(self, game_id: str) -> bool:
        return bool(self._query(service_tables.SELECT_PUBLISHED_PYFORMAT, (game_id,)))

    def select_keys(self) -> list[dict]:
        """The service's signing keys (event_store/signing.py), oldest first."""
        return self._query(service_tables.SELECT_KEYS)

    def select_rotations(self) -> list[dict]:
        """The service's key rotations (event_store/signing.py), oldest first."""
        return self._query(service_tables.SELECT_ROTATIONS)

    def select_signatures(self, game_id: str) -> list[dict]:
        """The game's signed heads, by version."""
        return self._query(service_tables.SELECT_SIGNATURES_PYFORMAT, (game_id,))

    def select_end(self, game_id: str) -> dict | None:
        """The signed end kept with an imported finished game (spec/SPEC.md §4a), or None."""
        rows = self._query(service_tables.SELECT_END_PYFORMAT, (game_id,))
        return rows[0] if rows else None

    def select_feed(self, after: int, limit: int) -> list[dict]:
        """The feed of heads' entries after ``seq`` ``after``, at most ``limit`` (event_store/heads_feed.py)."""
        return self._query(service_tables.SELECT_FEED_PYFORMAT, (after, limit))

    def select_feed_last(self) -> dict | None:
        """The feed's last entry (``seq``, ``entry``), None while it is empty."""
        rows = self._query(service_tables.SELECT_FEED_LAST)
        return rows[0] if rows else None

    def select_feed_game_last(self, game_id: str) -> dict | None:
        """The game's last entry in the feed (``version``, ``head``), None before its first."""
        rows = self._query(service_tables.SELECT_FEED_GAME_LAST_PYFORMAT, (game_id,))
        return rows[0] if rows else None

    def select_catalog(self, digest: str) -> dict | None:
        """A loaded catalog (service/catalogs.py) by its digest, None if none was loaded."""
        rows = self._query(service_tables.SELECT_CATALOG_PYFORMAT, (digest,))
        return rows[0] if rows else None

    def select_catalogs(self) -> list[dict]:
        """The loaded catalogs (without their content), oldest first."""
        return self._query(service_tables.SELECT_CATALOGS)

    def select_unfed(self) -> list[dict]:
        """The signed heads the feed has not taken yet, oldest signature first."""
        return self._query(service_tables.SELECT_UNFED)

"""The notification log on PostgreSQL: ids in commit-safe order without a table lock.

The event library numbers the log from a sequence and takes ``LOCK TABLE ... IN EXCLUSIVE
MODE`` in every writing transaction, so that ids are handed out in commit order and a
reader that goes on from the last id it read never passes over an event committed late.
That lock is held until the commit's WAL flush is over: every writer of every server waits
for every other's flush, one at a time.

Here an event's ``notification_id`` is its transaction's id (``pg_current_xact_id()``,
64 bits, never reused) shifted left by ``ID_BITS``, plus its rank in the transaction
(the column's default, ``privateer_notification_id()``). Writers take no lock: concurrent
transactions commit, and their flushes are made together by PostgreSQL. A reader reads only
below the *horizon*, ``pg_snapshot_xmin(pg_current_snapshot()) << ID_BITS``, taken in the
reading statement's own snapshot: every transaction with an id below the snapshot's xmin
has ended (committed, its rows visible; or rolled back), and every transaction still
running or yet to come has an id at or above it. So every event below the horizon is
visible to that read, and every event committed after it has an id at or above it:
a reader that goes on after the last id it read passes over nothing, reads nothing twice,
and reads a game's events in version order (a game's next step is written by a transaction
that began after the step before it committed, with a later transaction id).

The price: the horizon waits for the oldest transaction that holds a transaction id on
the whole PostgreSQL server (any database): a transaction left open holds up the log's
readers (the projections' catch-up, the servers' wake-ups) until it ends, never the writers.

Existing stores keep their ids (1, 2, … from the library's sequence, all below any new
id); ``MIGRATE`` sets the column's default, once, under the DDL lock (event_store/postgres.py).
"""

from __future__ import annotations

from psycopg.sql import SQL, Composed, Identifier

ID_BITS = 20              # events in one transaction, at most 2**20 - 1
FUNCTION = "privateer_notification_id"
COUNTER = "privateer.notification_rank"   # the transaction-local count of its events so far

# the first id no reader may read yet, in the reading statement's snapshot
HORIZON = SQL(f"(pg_snapshot_xmin(pg_current_snapshot())::text::bigint << {ID_BITS})")


def create_statements(schema: str, table: str) -> list[Composed]:
    """The id's function and the column's default (both idempotent)."""
    function = Identifier(schema, FUNCTION)
    return [
        SQL("CREATE OR REPLACE FUNCTION {}() RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$ "
            "DECLARE rank bigint := coalesce(nullif(current_setting({}, true), ''), '0')::bigint + 1; "
            "BEGIN "
            f"IF rank >= {1 << ID_BITS} THEN "
            f"RAISE EXCEPTION 'more than {(1 << ID_BITS) - 1} events in one transaction'; END IF; "
            "PERFORM set_config({}, rank::text, true); "
            f"RETURN (pg_current_xact_id()::text::bigint << {ID_BITS}) + rank; "
            "END $$").format(function, COUNTER, COUNTER),
        SQL("ALTER TABLE {} ALTER COLUMN notification_id SET DEFAULT {}()").format(
            Identifier(schema, table), function),
    ]


def migrated_check(schema: str, table: str) -> Composed:
    """One row, ``ok``: whether the events table's ids come from ``FUNCTION``."""
    return SQL("SELECT coalesce(bool_or(pg_get_expr(d.adbin, d.adrelid) LIKE {}), false) AS ok "
               "FROM pg_attrdef d JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum "
               "WHERE d.adrelid = to_regclass({}) AND a.attname = 'notification_id'").format(
        f"%{FUNCTION}()%", f'"{schema}"."{table}"')


def select_notifications_sql(schema: str, table: str, *, inclusive_of_start: bool, stop: bool,
                             topics: bool) -> Composed:
    """The library's ``select_notifications`` query, below the horizon; parameters in order:
    start, [stop], [topics], limit."""
    where = [SQL("notification_id >= %s") if inclusive_of_start else SQL("notification_id > %s"),
             SQL("notification_id < ") + HORIZON]
    if stop:
        where.append(SQL("notification_id <= %s"))
    if topics:
        where.append(SQL("topic = ANY(%s)"))
    return SQL("SELECT * FROM {} WHERE {} ORDER BY notification_id LIMIT %s").format(
        Identifier(schema, table), SQL(" AND ").join(where))


def max_notification_id_sql(schema: str, table: str) -> Composed:
    """The last id a reader may read now (below the horizon)."""
    return SQL("SELECT max(notification_id) AS max FROM {} WHERE notification_id < ").format(
        Identifier(schema, table)) + HORIZON


def count_notifications_sql(schema: str, table: str) -> Composed:
    """How many events a reader may read now after ``%s``."""
    return SQL("SELECT count(*) AS n FROM {} WHERE notification_id > %s AND notification_id < ").format(
        Identifier(schema, table)) + HORIZON


def follow_sql(schema: str, table: str) -> Composed:
    """The commits a follower has not seen (``follow``): the events after ``last`` (the
    horizon it had read up to) that are below the horizon now or after ``newest`` (the last
    id it saw above the horizon); each row says whether it is below the horizon (``settled``).
    Parameters: last, newest, limit."""
    return SQL("SELECT notification_id AS id, originator_id, originator_version, notification_id < {h} AS settled "
               "FROM {t} WHERE notification_id > %s AND (notification_id < {h} OR notification_id > %s) "
               "ORDER BY notification_id LIMIT %s").format(h=HORIZON, t=Identifier(schema, table))


def start_sql(schema: str, table: str) -> Composed:
    """Where a follower starts: the last id below the horizon (0 in an empty log)."""
    return SQL("SELECT coalesce(max(notification_id), 0) AS last FROM {} WHERE notification_id < ").format(
        Identifier(schema, table)) + HORIZON


class Follower:
    """What a follower of the log has seen: ``take(rows)`` of ``follow_sql`` returns each game's
    last version among the rows not seen before (game id hex → version), and moves on.
    An event read above the horizon is taken at once (it is committed: visible) and kept in
    ``seen`` until the horizon passes it, so that it is not taken again; an event committed
    late, below an id seen already, is read once the horizon passes it."""

    LIMIT = 1000

    def __init__(self, last: int):
        self.last = last        # every event up to here was taken
        self.newest = last      # the last id read above the horizon
        self.seen: set[int] = set()

    def take(self, rows: list) -> dict[str, int]:
        games: dict[str, int] = {}
        for r in rows:
            nid = r["id"]
            if r["settled"]:
                self.last = max(self.last, nid)
                if nid in self.seen:
                    self.seen.discard(nid)
                    continue
            else:
                if nid in self.seen:
                    continue
                self.seen.add(nid)
                self.newest = max(self.newest, nid)
            gid = r["originator_id"].hex
            games[gid] = max(games.get(gid, 0), r["originator_version"])
        if self.seen:
            self.seen = {n for n in self.seen if n > self.last}
        self.newest = max(self.newest, self.last)
        return games

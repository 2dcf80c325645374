"""The notification log on PostgreSQL, as its readers (the projections' catch-up) use it:
several processes append at once, and a reader that goes on from the last id it read never
passes over an event whose transaction commits after the reader has read later ones."""

from __future__ import annotations

import threading

import psycopg

from .test_postgres import _step


def _flight(app, prepared):
    return (prepared.rows, {**prepared.kwargs, "snapshots": prepared.snapshots})


def test_a_reader_never_passes_over_an_event_committed_late(pg_store):
    """Transaction A writes its events and stays open; B, begun after, commits; a reader reads
    the log; A commits; the reader goes on after the last id it read. Every event of A and B
    is read exactly once, in increasing ids, and each game's events in version order."""
    app = pg_store.app()
    a, b = app.create("loot", 3), app.create("letter-of-marque", 3)
    start = max(n.id for n in app.recorder.select_notifications(start=1, limit=1000))
    step_a, step_b = _step(app, a), _step(app, b)
    statements = app.recorder.flight_statements([_flight(app, step_a)])
    assert statements[-1][0].as_string(None) == "COMMIT"
    kw = {k: v for k, v in app.recorder.datastore.pool.kwargs.items() if k != "row_factory"}
    late = psycopg.connect(**kw, autocommit=True)
    try:
        with psycopg.ClientCursor(late) as curs:
            text = ";\n".join(curs.mogrify(sql, params) for sql, params in statements[:-1])
            curs.execute(text.encode())          # A: written, not committed
        errors: list = []
        other = threading.Thread(target=lambda: errors.extend(app.recorder.insert_steps([_flight(app, step_b)])))
        other.start()
        other.join(2.0)                          # B commits now (or, while A holds a lock, after A)
        first = list(app.recorder.select_notifications(start=start + 1, limit=1000))
        late.execute("COMMIT")
        other.join(30)
        assert errors == [None]
        pos = first[-1].id if first else start
        second = list(app.recorder.select_notifications(start=pos + 1, limit=1000))
    finally:
        late.close()
    read = first + second
    ids = [n.id for n in read]
    assert ids == sorted(set(ids))
    assert sorted((n.originator_id, n.originator_version) for n in read) == sorted(
        (e.originator_id, e.originator_version) for e in step_a.rows + step_b.rows)
    for gid in (a, b):
        versions = [n.originator_version for n in read if n.originator_id == gid]
        assert versions == sorted(versions)


def test_many_writers_at_once_and_a_reader_following(pg_store):
    """Four threads commit steps of their own games at once (no table lock) while a reader
    follows the log from the last id it read: it reads every event exactly once."""
    from .test_postgres import _step

    apps = [pg_store.app() for _ in range(4)]
    games = [app.create("loot", 3) for app in apps]
    created = {gid: app.load(gid).version for app, gid in zip(apps, games)}
    reader = apps[0].recorder
    start = reader.max_notification_id() or 0
    stop = threading.Event()
    read: list = []

    def follow():
        pos = start
        while True:
            done = stop.is_set()
            notes = reader.select_notifications(start=pos + 1, limit=500)
            read.extend(notes)
            if notes:
                pos = notes[-1].id
            elif done:
                return

    def write(app, gid):
        for _ in range(15):
            app.commit(_step(app, gid))

    follower = threading.Thread(target=follow)
    follower.start()
    writers = [threading.Thread(target=write, args=(app, gid)) for app, gid in zip(apps, games)]
    for w in writers:
        w.start()
    for w in writers:
        w.join(120)
    stop.set()
    follower.join(120)
    ids = [n.id for n in read]
    assert ids == sorted(set(ids))
    stored = [(e.originator_id, e.originator_version) for gid in games for e in reader.select_events(gid)
              if e.originator_version > created[gid]]
    got = [(n.originator_id, n.originator_version) for n in read]
    assert sorted(got) == sorted(stored) and len(got) == len(set(got))
    for gid in games:
        versions = [v for g, v in got if g == gid]
        assert versions == sorted(versions) and len(versions) >= 15


def test_a_store_made_before_keeps_its_ids_and_is_migrated_once(pg_store):
    """A store whose events were numbered by the library's sequence (a store made before):
    opened, its events' default is set once (under the DDL lock), its games read as before,
    and its new events come after its old ones in the log."""
    from service.app import Privateer

    from .test_postgres import _step

    app = pg_store.app()
    gid = app.create("loot", 3)
    app.commit(_step(app, gid))
    schema = app.recorder.datastore.schema
    kw = {k: v for k, v in app.recorder.datastore.pool.kwargs.items() if k != "row_factory"}
    with psycopg.connect(**kw, autocommit=True) as conn:   # as the library numbered them
        conn.execute(f'ALTER TABLE "{schema}".privateer_events ALTER COLUMN notification_id '
                     f"SET DEFAULT nextval('\"{schema}\".privateer_events_notification_id_seq')")
        conn.execute(f'UPDATE "{schema}".privateer_events SET notification_id = -notification_id')
        conn.execute(f'UPDATE "{schema}".privateer_events SET notification_id = n FROM (SELECT notification_id AS o, '
                     f'row_number() OVER (ORDER BY notification_id DESC) AS n FROM "{schema}".privateer_events) AS r '
                     "WHERE notification_id = r.o")
    old = [(n.id, n.originator_version) for n in app.recorder.select_notifications(start=1, limit=1000)]
    assert [i for i, _ in old] == list(range(1, len(old) + 1))
    version = app.load(gid).version
    app.close()
    again = [Privateer(pg_store.url) for _ in range(2)]   # migrated by the first, found so by the second
    try:
        assert again[0].load(gid).version == version
        again[1].commit(_step(again[1], gid))
        notes = again[0].recorder.select_notifications(start=1, limit=1000)
        assert [(n.id, n.originator_version) for n in notes[:len(old)]] == old
        assert [n.originator_version for n in notes[len(old):]] == list(range(version + 1, again[0].load(gid).version + 1))
        assert notes[len(old)].id > old[-1][0] and again[0].recorder.max_notification_id() == notes[-1].id
    finally:
        for a in again:
            a.close()
    assert "1 of 1 games audit clean" in pg_store.cli("audit", "--all").stdout


def test_a_transactions_steps_go_in_the_order_of_their_games(pg_store):
    """Two servers committing steps of the same two games in one transaction each take the
    games' rows in one order (no table lock serialises them now: none may wait for the other)."""
    app = pg_store.app()
    a, b = app.create("loot", 3), app.create("letter-of-marque", 3)
    steps = [_flight(app, _step(app, g)) for g in (a, b)]
    one, other = app.recorder.flight_statements(steps), app.recorder.flight_statements(steps[::-1])
    assert [params for _, params in one] == [params for _, params in other]
    assert app.recorder.insert_steps(steps[::-1]) == [None, None]

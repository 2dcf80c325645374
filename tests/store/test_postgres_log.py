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

"""PostgreSQL specifics: the schema and tables are created on first use, also
by several processes starting at once; bad URLs give one-line errors."""

from __future__ import annotations

import subprocess
import sys

import psycopg
import pytest

from .conftest import PG_BASE


def test_fresh_schema_many_processes_at_once(pg_store):
    schema = pg_store.url.split("schema=")[1]
    procs = [subprocess.Popen([sys.executable, "-m", "tools", "new", "letter-of-marque", "--seats", "2"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=pg_store.env())
             for _ in range(4)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, outs
    ids = {o[0].strip() for o in outs}
    assert len(ids) == 4
    with psycopg.connect(PG_BASE, autocommit=True) as conn:
        tables = {r[0] for r in conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = %s", (schema,))}
    assert {"privateer_events", "privateer_games", "privateer_secrets", "privateer_snapshots"} <= tables
    out = pg_store.cli("audit", "--all")
    assert "4 of 4 games audit clean" in out.stdout


def test_bad_urls_are_one_line_errors(pg_store):
    for url in ("postgresql://127.0.0.1:5432/", "postgresql://127.0.0.1:5432/test?colour=red",
                "postgresql://127.0.0.1:5432/test?schema=bad-name!", "postgresql://127.0.0.1:notaport/test",
                "postgresql://127.0.0.1:1/test"):
        p = pg_store.cli("games", "--db", url, check=2)
        assert p.stderr.startswith("error:") and len(p.stderr.strip().splitlines()) == 1, p.stderr


def test_messagepack_bytes_in_postgres(pg_store):
    app = pg_store.app()
    gid = app.create("letter-of-marque", 2)
    row = app.recorder.select_events(gid)[0]
    decoded = app.mapper.transcoder.decode(row.state)  # our MessagePack, byte for byte
    assert decoded["type"] == "GameCreated" and isinstance(decoded["hash"], bytes)
    assert row.state[:1] != b"{"  # not JSON


def test_service_rows_are_read_in_the_stores_own_schema(pg_store, request):
    from service.app import Privateer

    from .conftest import new_pg_url

    here = pg_store.app()
    other = Privateer(new_pg_url(request))   # another schema of the same database
    try:
        gid = here.create("letter-of-marque", 2).hex
        here.recorder.insert_credential(gid, "seat:1", "h" * 64, "2026-11-26T00:00:00+00:00")
        other.create("letter-of-marque", 2)
        # one statement each, its tables named in the store's schema (no search path to set)
        assert here.recorder.select_role(gid, "h" * 64) == "seat:1"
        assert here.recorder.select_roles(gid) == ["seat:1"]
        assert other.recorder.select_role(gid, "h" * 64) is None
        assert other.recorder.select_roles(gid) == []
        assert here.recorder.select_idempotency(gid, "seat:1", "k") is None
        with pytest.raises(ValueError, match="not a service table: privateer_nothing"):
            here.recorder._query("SELECT 1 FROM privateer_nothing")
    finally:
        other.close()


def _step(app, gid, version=None):
    """A step of ``gid`` made on the game as it stood at ``version`` (now: None), prepared, not written."""
    game = app.load(gid, version=version)
    seat = game.machine.to_act()[0]
    game.record(game.machine.decide(seat, game.machine.legal(seat)[0], app.chance_for(game)))
    return app.prepare(game)


def test_steps_committed_together_and_a_stale_one_alone(pg_store):
    """Several games' steps in one transaction (the HTTP service's group commits): all stored;
    with a stale one among them, the others are still stored and only that one is refused."""
    from eventsourcing.persistence import IntegrityError

    app = pg_store.app()
    a, b, c = (app.create(g, 3) for g in ("loot", "letter-of-marque", "kaisers-pirates"))
    start = {g: app.load(g).version for g in (a, b, c)}
    steps = [_step(app, g) for g in (a, b, c)]
    assert app.recorder.insert_steps([(p.rows, {**p.kwargs, "snapshots": p.snapshots}) for p in steps]) == [None] * 3
    after = {g: app.load(g).version for g in (a, b, c)}
    assert all(after[g] > start[g] for g in (a, b, c))
    # b's step made on its old version again: refused alone, a's and c's next steps stored
    steps = [_step(app, a), _step(app, b, start[b]), _step(app, c)]
    errors = app.recorder.insert_steps([(p.rows, {**p.kwargs, "snapshots": p.snapshots}) for p in steps])
    assert errors[0] is None and errors[2] is None and isinstance(errors[1], IntegrityError)
    assert app.load(b).version == after[b] and app.load(a).version > after[a] and app.load(c).version > after[c]
    assert {r["game_id"]: r["version"] for r in app.recorder.select_games()} == {
        g.hex: app.load(g).version for g in (a, b, c)}
    assert "3 of 3 games audit clean" in pg_store.cli("audit", "--all").stdout


def test_a_refused_step_leaves_its_connection_usable(pg_store):
    """A step refused in the middle of its one-message transaction is rolled back: nothing of it
    is written (not its index row, not its idempotency row) and the next step on the same
    (single) connection commits."""
    from service.kernel.errors import StaleVersion

    app = pg_store.app()
    gid = app.create("loot", 3)
    v0 = app.load(gid).version
    app.commit(_step(app, gid))
    v1 = app.load(gid).version
    stale = _step(app, gid, v0)
    stale.kwargs["idempotency"] = (gid.hex, "seat:1", "k1", "fp", 201, "{}")
    with pytest.raises(StaleVersion):
        app.write(stale)
    assert app.recorder.select_idempotency(gid.hex, "seat:1", "k1") is None
    assert app.recorder.select_games(gid.hex)[0]["version"] == v1
    app.commit(_step(app, gid))
    assert app.recorder.select_games(gid.hex)[0]["version"] == app.load(gid).version > v1


def test_index_rows_kept_while_every_commit_is_heard(pg_store):
    """A process that hears every commit (LISTEN) keeps the index rows it read or wrote and
    asks the store no more for them; a commit by another process drops the row (its
    notification names the new version), and nothing is kept while nobody listens."""
    import threading
    import time

    from event_store.postgres import listen_for_commits

    here, there = pg_store.app(), pg_store.app()   # two processes' recorders on one store
    gid = here.create("loot", 3)
    heard = here.recorder.heard
    assert not heard.hearing and here.recorder.select_games(gid.hex) and heard.get(gid.hex) is None
    stop = threading.Event()
    told = []   # what the listener passes on: other processes' commits (this one tells its own)
    listener = threading.Thread(target=listen_for_commits, args=(pg_store.url, told.append, stop, heard))
    listener.start()
    try:
        deadline = time.monotonic() + 10
        while not heard.hearing and time.monotonic() < deadline:
            time.sleep(0.01)
        row = here.recorder.select_games(gid.hex)[0]
        assert heard.get(gid.hex) == row                           # read once, then kept
        here.commit(_step(here, gid))                               # this process's own step: kept as written
        mine = heard.get(gid.hex)
        assert mine is not None and mine["version"] == here.load(gid).version
        there.commit(_step(there, gid))                             # another process's step
        deadline = time.monotonic() + 10
        while (heard.get(gid.hex) is not None or not told) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert heard.get(gid.hex) is None
        assert told == [gid.hex]
        assert here.recorder.select_games(gid.hex)[0]["version"] == there.load(gid).version > mine["version"]
        # a row read before the later commit was heard is not kept over it
        heard.keep(dict(mine))
        assert heard.get(gid.hex)["version"] == there.load(gid).version
    finally:
        stop.set()
        listener.join(10)
    assert not heard.hearing and heard.get(gid.hex) is None

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

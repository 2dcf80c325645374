"""The feed of heads and its witness (event_store/heads_feed.py, service/witness.py,
`tools witness`): a witness that followed a game's feed reports the operator's
cut-and-replay of it, naming the game and the version; a rewritten feed, or an
export cut short or rewritten, is reported too; the feed names no game."""

from __future__ import annotations

import json
import random
import sqlite3
import uuid

import pytest

from event_store.heads_feed import FIRST_PREV, catch_up, entry_problem, game_tag, published
from service.app import Privateer
from service.http.client import ServerProcess
from service.witness import Witness
from tests import needs


def _play(app, gid, decisions: int | None, rng: random.Random) -> list[int]:
    """Random legal decisions (None: to the game's end); the version of each Decided event."""
    out = []
    while decisions is None or len(out) < decisions:
        m = app.load(gid).machine
        if m.finished:
            break
        seat = m.to_act()[0]
        app.act(gid, seat, rng.choice(m.legal(seat)))
        out.append(next(e.originator_version for e in reversed(app.stored_events(gid)) if e.type == "Decided"))
    return out


def _cut_back(db: str, gid: uuid.UUID, version: int) -> None:
    """The operator, on the store's file: the game's events from ``version`` on are gone, with
    their signed heads, snapshots and the index row's end (the feed's table is left as it is)."""
    conn = sqlite3.connect(db)
    conn.execute("DELETE FROM stored_events WHERE originator_id = ? AND originator_version >= ?", (gid.hex, version))
    conn.execute("DELETE FROM privateer_signatures WHERE game_id = ? AND version >= ?", (gid.hex, version))
    conn.execute("DELETE FROM stored_snapshots WHERE originator_id = ?", (gid.hex,))
    conn.commit()
    conn.close()
    app = Privateer(db)
    game = app.load(gid)
    assert game.version == version - 1
    conn = sqlite3.connect(db)
    conn.execute("UPDATE privateer_games SET version = ?, head = ? WHERE game_id = ?", (game.version, game.head, gid.hex))
    conn.commit()
    conn.close()
    app.close()


def test_the_feed_takes_each_head_of_a_finished_game_once_chained_and_signed(tmp_path):
    app = Privateer(str(tmp_path / "s.db"))
    gid = app.create("letter-of-marque", 3, seed=b"\x05" * 32)
    _play(app, gid, 6, random.Random(2))
    # a live game stays out: its versions count events hidden from its seats
    assert catch_up(app.recorder, app.signer) == 0 and app.recorder.select_feed(0, 100) == []
    _play(app, gid, None, random.Random(3))
    first = catch_up(app.recorder, app.signer)
    signed = app.recorder.select_signatures(gid.hex)
    assert first == len(signed) > 6
    assert catch_up(app.recorder, app.signer) == 0          # nothing new: nothing appended
    rows = app.recorder.select_feed(0, 1000)
    assert [r["seq"] for r in rows] == list(range(1, len(rows) + 1))
    assert {(r["version"], r["head"]) for r in rows} == {(s["version"], s["head"])
                                                          for s in app.recorder.select_signatures(gid.hex)}
    keys, prev = app.signer.own_keys(), FIRST_PREV
    since = (0, FIRST_PREV.hex())
    for n, r in enumerate(rows, 1):
        e = published(r)
        assert "game_id" not in e and gid.hex not in json.dumps(e)     # the feed names the game by its tag
        assert e["tag"] == game_tag(gid.bytes).hex()
        assert entry_problem(e, prev, n, keys) is None
        assert (e["since_version"], e["since_head"]) == since
        prev, since = bytes.fromhex(e["entry"]), (e["version"], e["head"])
    # any change to an entry, or an entry out of its place, is told
    bad = dict(published(rows[2]), head="00" * 32)
    assert "its hash is not the hash" in entry_problem(bad, bytes.fromhex(rows[1]["entry"]), 3, keys)
    assert "does not follow" in entry_problem(published(rows[2]), FIRST_PREV, 3, keys)
    app.close()


def test_two_stores_on_one_file_catching_up_in_turn_keep_one_chain(tmp_path):
    db = str(tmp_path / "s.db")
    a, b = Privateer(db), Privateer(db)
    g1 = a.create("letter-of-marque", 3, seed=b"\x01" * 32)
    g2 = b.create("letter-of-marque", 3, seed=b"\x02" * 32)
    _play(a, g1, None, random.Random(1))
    assert catch_up(b.recorder, b.signer) > 0
    _play(b, g2, None, random.Random(2))
    assert catch_up(a.recorder, a.signer) == len(a.recorder.select_signatures(g2.hex))
    rows = a.recorder.select_feed(0, 1000)
    keys, prev = a.signer.own_keys(), FIRST_PREV
    for n, r in enumerate(rows, 1):
        assert entry_problem(published(r), prev, n, keys) is None
        prev = bytes.fromhex(r["entry"])
    assert len(rows) == len(a.recorder.select_signatures(g1.hex)) + len(a.recorder.select_signatures(g2.hex))
    a.close()
    b.close()


@pytest.fixture
def served(tmp_path):
    db = str(tmp_path / "service.db")
    srv = ServerProcess(db).start()
    yield db, srv
    srv.stop()


def test_a_witness_reports_the_operators_cut_and_replay(served, cli, tmp_path):
    db, srv = served
    app = Privateer(db)
    gid = app.create("letter-of-marque", 3, seed=b"\x07" * 32)
    decided = _play(app, gid, None, random.Random(5))
    app.close()
    state = str(tmp_path / "witness.db")

    seen = cli.run("witness", "follow", srv.url, "--state", state, "--json")
    assert seen.returncode == 0, seen.stdout + seen.stderr
    report = json.loads(seen.stdout)
    assert report["ok"] and report["new"] >= len(decided)
    export = tmp_path / "before.pgame"
    cli.ok("export", gid.hex, "-o", str(export), "--db", db)
    assert cli.run("witness", "check", str(export), "--state", state).returncode == 0

    # the operator cuts the game back to before its middle decision and plays other choices to an end
    cut = decided[len(decided) // 2]
    _cut_back(db, gid, cut)
    app = Privateer(db)
    _play(app, gid, None, random.Random(99))
    app.close()

    p = cli.run("witness", "follow", srv.url, "--state", state, "--json")
    assert p.returncode == 1, p.stdout + p.stderr
    findings = json.loads(p.stdout)["findings"]
    first = findings[0]
    assert first["kind"] == "rewritten" and first["game"] == gid.hex, findings
    assert first["version"] >= cut, findings
    assert f"game {gid.hex}: history rewritten at version {first['version']}" in first["text"]

    # the new history's export does not hold the heads the witness saw
    after = tmp_path / "after.pgame"
    cli.ok("export", gid.hex, "-o", str(after), "--db", db)
    p = cli.run("witness", "check", str(after), "--state", state, "--json")
    assert p.returncode == 1
    kinds = {f["kind"] for f in json.loads(p.stdout)["findings"]}
    assert kinds <= {"differs", "truncated"} and kinds, p.stdout


def test_a_witness_reports_a_feed_rewritten_behind_it(served, cli, tmp_path):
    db, srv = served
    app = Privateer(db)
    gid = app.create("letter-of-marque", 3, seed=b"\x03" * 32)
    _play(app, gid, None, random.Random(1))
    app.close()
    state = str(tmp_path / "witness.db")
    assert cli.run("witness", "follow", srv.url, "--state", state).returncode == 0
    w = Witness(state)
    kept = w.entries()
    w.close()

    # the operator empties the feed: it is built again from the signed heads, with new times (and another game)
    conn = sqlite3.connect(db)
    conn.execute("DELETE FROM privateer_heads_feed")
    conn.commit()
    conn.close()
    app = Privateer(db)
    _play(app, app.create("letter-of-marque", 3, seed=b"\x04" * 32), None, random.Random(2))
    app.close()
    p = cli.run("witness", "follow", srv.url, "--state", state, "--json")
    assert p.returncode == 1, p.stdout + p.stderr
    first = json.loads(p.stdout)["findings"][0]
    assert first["kind"] == "feed" and first["seq"] == kept + 1, first
    assert "does not follow" in first["text"] or "where entry" in first["text"]


def test_the_feed_on_postgresql(postgresql, tmp_path):
    schema = f"feed_{uuid.uuid4().hex[:10]}"
    try:
        app = Privateer(needs.schema_url(schema))
        gid = app.create("letter-of-marque", 3, seed=b"\x09" * 32)
        _play(app, gid, None, random.Random(4))
        n = catch_up(app.recorder, app.signer)
        assert n == len(app.recorder.select_signatures(gid.hex))
        assert catch_up(app.recorder, app.signer) == 0
        rows = app.recorder.select_feed(0, 100)
        keys, prev = app.signer.own_keys(), FIRST_PREV
        for i, r in enumerate(rows, 1):
            assert entry_problem(published(r), prev, i, keys) is None
            prev = bytes.fromhex(r["entry"])
        app.close()
    finally:
        needs.drop_schema(schema)

"""The write path packs each stored row itself (``Game.record``, from the bytes
the kernel froze at emission): the rows must be exactly what the library's own
mapper makes of the same events, and the game must audit clean."""

from __future__ import annotations

import pytest

from service.app import Privateer
from service.audit import audit_game
from service.simulate import simulate

GAMES = [("letter-of-marque", 3), ("loot", 4), ("kaisers-pirates", 2), ("merchants-and-marauders", 3)]


@pytest.mark.parametrize("game,seats", GAMES)
def test_stored_rows_are_the_library_mappers_bytes(tmp_path, game, seats):
    app = Privateer(str(tmp_path / "w.db"))
    gid = simulate(game, seats, 1, seed=f"write-path-{game}", app=app)["game_ids"][0]
    rows = app.recorder.select_events(app.resolve_id(gid))
    assert len(rows) > 50
    mapper = app.mapper
    for row in rows:
        again = mapper.to_stored_event(mapper.to_domain_event(row))
        assert (again.topic, again.originator_version, again.state) == (row.topic, row.originator_version, row.state)
    assert audit_game(app, app.resolve_id(gid)).ok


def test_a_steps_events_share_its_timestamp_and_steps_follow_in_time(tmp_path):
    app = Privateer(str(tmp_path / "t.db"))
    gid = simulate("letter-of-marque", 3, 1, seed="ts", app=app)["game_ids"][0]
    events = app.stored_events(app.resolve_id(gid))
    steps: list[list] = []
    for e in events[1:]:
        if e.type == "Decided" or not steps:
            steps.append([])
        steps[-1].append(e)
    assert len(steps) > 10
    for step in steps:
        assert len({e.timestamp for e in step}) == 1
    times = [step[0].timestamp for step in steps]
    assert times == sorted(times)


def _facts(app, gid):
    return [(e.originator_version, e.type, e.turn, e.visible_to, e.data) for e in app.stored_events(app.resolve_id(gid))]


def test_overlapped_commits_store_the_same_games_as_waiting_for_each(tmp_path):
    a = Privateer(str(tmp_path / "a.db"))
    b = Privateer(str(tmp_path / "b.db"))
    one = simulate("loot", 3, 2, seed="same", app=a, overlap=True)
    two = simulate("loot", 3, 2, seed="same", app=b, overlap=False)
    assert one["decisions"] == two["decisions"] > 20
    for x, y in zip(one["game_ids"], two["game_ids"]):
        facts = _facts(a, x)
        assert [f[1:] for f in facts if f[1] != "GameCreated"] == [f[1:] for f in _facts(b, y) if f[1] != "GameCreated"]
        assert facts[-1][1] == "GameFinished"
        assert audit_game(a, a.resolve_id(x)).ok


def test_a_failed_commit_stops_the_writer_and_leaves_an_auditable_prefix(tmp_path, monkeypatch):
    app = Privateer(str(tmp_path / "f.db"))
    recorder = app.recorder
    real = recorder.commit_only
    calls = {"n": 0}

    def failing(conn):
        calls["n"] += 1
        if calls["n"] == 12:
            conn._sqlite_conn.rollback()
            raise OSError("disk full (simulated)")
        real(conn)

    monkeypatch.setattr(recorder, "commit_only", failing)
    with pytest.raises(OSError, match="disk full"):
        simulate("letter-of-marque", 3, 1, seed="fail", app=app, overlap=True)
    (row,) = app.games()
    gid = app.resolve_id(row["game_id"])
    stored = app.stored_events(gid)
    # the create, the setup and ten steps were committed; the twelfth step and nothing after it
    assert row["version"] == stored[-1].originator_version
    assert sum(1 for e in stored if e.type == "Decided") == 1 + 10
    assert not row["finished"]
    assert audit_game(app, gid).ok


def test_reads_of_the_index_do_not_wait_for_a_write_in_progress(tmp_path):
    """The games index, roles and seeds are read on a connection of the reading
    thread's own: a transaction written but not yet committed (a step whose
    commit waits for the disk) and a second writer queued behind it (another
    request's decision) hold none of them up, and they see only what is
    committed. Through the library's pool, the queued writer held every read."""
    import threading
    import time

    app = Privateer(str(tmp_path / "r.db"))
    gid = simulate("letter-of-marque", 3, 1, seed="r", app=app)["game_ids"][0]
    finished = app.recorder.select_games(prefix=gid)[0]["version"]
    other = app.create("loot", 3, seed=b"o" * 32).hex
    newer = app.load(app.resolve_id(other))
    m = newer.machine
    seat = m.to_act()[0]
    newer.record(m.decide(seat, m.legal(seat)[0], app.chance_for(newer)))
    conn = app.write_uncommitted(app.prepare(newer))  # the write connection holds an open transaction
    queued = threading.Thread(target=app.recorder.insert_service_rows, kwargs={"published": (gid, "now")})
    seen = {}

    def read():
        seen["rows"] = app.recorder.select_games(prefix=other)
        seen["secret"] = app.recorder.select_secret(other)
        seen["finished"] = app.recorder.select_games(prefix=gid)
    reader = threading.Thread(target=read)
    try:
        queued.start()
        time.sleep(0.2)  # the second writer waits for the write connection
        assert queued.is_alive()
        reader.start()
        reader.join(3)
        assert not reader.is_alive(), "a read waited for the writers"
    finally:
        app.recorder.commit_written(conn)
        queued.join(10)
        reader.join(10)
    assert seen["rows"][0]["version"] < newer.version  # the step not yet committed is not seen
    assert seen["secret"] is not None and seen["finished"][0]["version"] == finished
    assert app.recorder.select_games(prefix=other)[0]["version"] == newer.version
    assert app.recorder.select_published(gid)

"""The write path packs each stored row itself (``Game.record``, from the bytes
the kernel froze at emission): the rows must be exactly what the library's own
mapper makes of the same events, and the game must audit clean."""

from __future__ import annotations

import pytest

from service.app import Privateer
from service.records.audit import audit_game
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
    # the commit process writes the same values, of the same SQLite types, as a direct save
    import sqlite3

    def shapes(path):
        with sqlite3.connect(path) as db:
            return [db.execute(f"SELECT {', '.join(f'typeof({c})' for c in cols)} FROM {table} ORDER BY rowid").fetchall()
                    + db.execute(f"SELECT {', '.join(same)} FROM {table} ORDER BY rowid").fetchall()
                    for table, cols, same in (
                        ("stored_events", ("originator_id", "originator_version", "topic", "state"),
                         ("originator_version", "topic")),
                        ("privateer_games", ("game_id", "version", "head", "turn", "finished", "scores", "winners"),
                         ("game", "seats", "version", "turn", "finished", "scores", "winners")),
                        ("privateer_status", ("game_id", "version", "corrections", "status"), ("version", "corrections")))]
    assert shapes(str(tmp_path / "a.db")) == shapes(str(tmp_path / "b.db"))
    # and the snapshots, written in the transactions of the steps that crossed into them
    def snapshots(path, gid):
        with sqlite3.connect(path) as db:
            return db.execute("SELECT originator_version, typeof(state) FROM stored_snapshots "
                              "WHERE originator_id = ? ORDER BY originator_version", (gid,)).fetchall()
    for x, y in zip(one["game_ids"], two["game_ids"]):
        assert snapshots(str(tmp_path / "a.db"), x) == snapshots(str(tmp_path / "b.db"), y) != []


def _steps(app, gid):
    """The stored game's steps after its setup: the first version of each."""
    return [e.originator_version for e in app.stored_events(app.resolve_id(gid)) if e.type == "Decided"][1:]


def test_a_failed_commit_stops_the_writer_and_leaves_an_auditable_prefix(tmp_path, monkeypatch):
    """A row already at the version the twelfth step writes (another writer
    got there first): the commit process fails that step, writes nothing
    after it, and the caller gets ``StaleVersion``, as from a direct save."""
    import sqlite3
    from service.kernel.errors import StaleVersion

    plain = Privateer(str(tmp_path / "plain.db"))
    gid = simulate("letter-of-marque", 3, 1, seed="fail", app=plain, overlap=False)["game_ids"][0]
    twelfth = _steps(plain, gid)[11]

    from service import writer as writer_module

    path = str(tmp_path / "f.db")
    real = writer_module.StepWriter.submit
    rival = {}

    def submit(self, game, **rows):
        if not rival:  # the rival's row, where the twelfth step's first event goes
            rival["id"] = game.id
            with sqlite3.connect(path) as db:
                db.execute("INSERT INTO stored_events VALUES (?, ?, ?, ?)", (game.id.hex, twelfth, "rival", b""))
        real(self, game, **rows)

    monkeypatch.setattr(writer_module.StepWriter, "submit", submit)
    app = Privateer(path)
    with pytest.raises(StaleVersion, match="changed while this decision was being made"):
        simulate("letter-of-marque", 3, 1, seed="fail", app=app, overlap=True)
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM stored_events WHERE topic = 'rival'")
    fixed = rival["id"]
    (row,) = app.games()
    stored = app.stored_events(fixed)
    # the create, the setup and eleven steps were committed; the twelfth step and nothing after it
    assert stored[-1].originator_version == twelfth - 1 == row["version"]
    assert len(_steps(app, fixed.hex)) == 11
    assert not row["finished"]
    assert audit_game(app, fixed).ok


def test_a_dead_commit_process_is_an_error_not_a_stored_game(tmp_path, monkeypatch):
    """The commit process killed mid-game: the caller is told, and what is
    stored is a prefix that audits clean."""
    import os
    import signal

    from service import writer as writer_module

    real = writer_module.StepWriter.submit
    sent = {"n": 0}

    def submit(self, game, **rows):
        sent["n"] += 1
        if sent["n"] == 30:
            self._collect()  # the first 29 are committed: the game's creation and 28 steps
            os.kill(self._process._proc.pid, signal.SIGKILL)
            self._process._proc.wait()
        real(self, game, **rows)

    monkeypatch.setattr(writer_module.StepWriter, "submit", submit)
    app = Privateer(str(tmp_path / "k.db"))
    with pytest.raises(Exception, match="commit process ended|Broken pipe"):
        simulate("loot", 3, 1, seed="kill", app=app, overlap=True)
    (row,) = app.games()
    assert len(_steps(app, row["game_id"])) == 28
    assert audit_game(app, app.resolve_id(row["game_id"])).ok


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
    import sqlite3

    prepared = app.prepare(newer)
    writing = sqlite3.connect(str(tmp_path / "r.db"), isolation_level=None)  # the commit process's part
    writing.execute("BEGIN")
    for sql, many, params in app.recorder.statements(prepared.rows, **prepared.kwargs):
        (writing.executemany if many else writing.execute)(sql, params)
    queued = threading.Thread(target=app.recorder.insert_service_rows, kwargs={"published": (gid, "now")})
    seen = {}

    def read():
        seen["rows"] = app.recorder.select_games(prefix=other)
        seen["secret"] = app.recorder.select_secret(other)
        seen["finished"] = app.recorder.select_games(prefix=gid)
    reader = threading.Thread(target=read)
    try:
        pool = app.recorder.datastore.pool
        assert pool.num_in_use == 0
        queued.start()
        deadline = time.monotonic() + 60
        while pool.num_in_use == 0:  # until the second writer holds the pool's write connection
            assert time.monotonic() < deadline and queued.is_alive(), "the second writer never took its connection"
            time.sleep(0.005)
        assert queued.is_alive()
        reader.start()
        reader.join(3)
        assert not reader.is_alive(), "a read waited for the writers"
    finally:
        writing.execute("COMMIT")
        queued.join(10)
        reader.join(10)
    assert seen["rows"][0]["version"] < newer.version  # the step not yet committed is not seen
    assert seen["secret"] is not None and seen["finished"][0]["version"] == finished
    assert app.recorder.select_games(prefix=other)[0]["version"] == newer.version
    assert app.recorder.select_published(gid)

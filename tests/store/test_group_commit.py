"""Group commit (event_store/group_commit.py): the steps waiting at once share
one commit, each step still all or nothing, and nobody hears of a step before
its commit."""

from __future__ import annotations

import sqlite3
import threading

from event_store.group_commit import GroupCommitter, commit_group


def _db(path) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE IF NOT EXISTS ev (game TEXT, version INT, PRIMARY KEY (game, version))")
    db.execute("CREATE TABLE IF NOT EXISTS keys (k TEXT PRIMARY KEY)")
    return db


def _step(game, versions, key=None):
    out = [("INSERT INTO ev VALUES (?, ?)", True, [(game, v) for v in versions])]
    if key is not None:
        out.append(("INSERT INTO keys VALUES (?)", False, (key,)))
    return out


def _rows(path):
    db = sqlite3.connect(path)
    try:
        return sorted(db.execute("SELECT game, version FROM ev")), sorted(db.execute("SELECT k FROM keys"))
    finally:
        db.close()


def test_a_stale_step_is_undone_alone_and_the_rest_of_its_group_commits(tmp_path):
    path = str(tmp_path / "g.db")
    db = _db(path)
    db.execute("INSERT INTO ev VALUES ('b', 2)")  # another writer's row at b's second version
    results = commit_group(db, [_step("a", [1, 2], key="ka"),
                                _step("b", [1, 2, 3], key="kb"),   # its version 2 is taken: all of it undone
                                _step("c", [1])])
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], sqlite3.IntegrityError)
    assert _rows(path) == ([("a", 1), ("a", 2), ("b", 2), ("c", 1)], [("ka",)])
    assert not db.in_transaction


def test_a_group_that_cannot_commit_writes_nothing_and_every_step_hears_why(tmp_path):
    path = str(tmp_path / "g.db")
    _db(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process holds the write lock past the timeout
    db = sqlite3.connect(path, isolation_level=None, timeout=0.05)
    try:
        results = commit_group(db, [_step("a", [1]), _step("b", [1])])
    finally:
        holder.execute("ROLLBACK")
    assert all(isinstance(r, sqlite3.OperationalError) for r in results) and len(results) == 2
    assert _rows(path) == ([], [])


def test_each_step_is_acknowledged_after_its_commit_and_waiting_steps_share_one(tmp_path):
    path = str(tmp_path / "g.db")
    _db(path).close()
    committer = GroupCommitter(path, 5.0)
    seen: dict = {}
    lock = threading.Lock()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # the first group waits for the lock: the rest queue behind it

    def done_for(game):
        def done(error):
            stored = _rows(path)[0]  # read by another connection when the step is acknowledged
            with lock:
                seen[game] = (error, (game, 1) in stored)
        return done

    games = [f"g{i}" for i in range(20)]
    for g in games:
        committer.submit(_step(g, [1]), done_for(g))
    holder.execute("ROLLBACK")
    committer.submit(_step("g0", [1]), done_for("again"))  # a stale version, in a later group
    committer.close()
    assert {g: seen[g] for g in games} == {g: (None, True) for g in games}
    assert isinstance(seen["again"][0], sqlite3.IntegrityError)
    groups, steps = committer.groups, committer.steps
    assert steps == 21 and groups < steps  # the steps that waited were committed together
    assert _rows(path)[0] == sorted((g, 1) for g in games)

"""The commit process commits the steps that wait together in one transaction
(one wait for the disk), each step a savepoint of its own: a failed step is
rolled back alone, the steps before it stand, none after it is written, and
the acknowledgements say exactly which were committed
(event_store/commit_process.py)."""

from __future__ import annotations

import io
import marshal
import sqlite3
import struct

from event_store.commit_process import FAILED, OK, commit_group, serve, split_frames

_LEN = struct.Struct("<I")
INSERT = "INSERT INTO t VALUES (?, ?)"


def _db(path) -> sqlite3.Connection:
    db = sqlite3.connect(str(path), isolation_level=None)
    db.execute("CREATE TABLE IF NOT EXISTS t (k INTEGER PRIMARY KEY, v TEXT)")
    return db


def _step(*keys: int) -> bytes:
    body = marshal.dumps([[INSERT, True, [[k, f"v{k}"] for k in keys]]])
    return _LEN.pack(len(body)) + body


ACK = _LEN.pack(0)


def _keys(path) -> list[int]:
    with sqlite3.connect(str(path)) as db:
        return [k for (k,) in db.execute("SELECT k FROM t ORDER BY k")]


def test_steps_waiting_together_are_committed_in_one_transaction(tmp_path):
    db = _db(tmp_path / "g.db")
    said: list[str] = []
    db.set_trace_callback(said.append)
    frames, rest = split_frames(_step(1, 2) + ACK + _step(3) + ACK + _step(4)[:5])
    assert rest == _step(4)[:5] and frames[1] is None and frames[3] is None and len(frames) == 4
    assert commit_group(db, frames, 0) == (2, 0, None)
    assert said.count("COMMIT") == 1 and said.count("BEGIN") == 1
    assert _keys(tmp_path / "g.db") == [1, 2, 3]


def test_a_failed_step_in_a_group_fails_alone_and_nothing_after_it_is_written(tmp_path):
    path = tmp_path / "f.db"
    _db(path).execute("INSERT INTO t VALUES (5, 'taken')")
    # steps 1; 2 (acknowledged); 3; then a step whose key is taken; then 6 (never executed)
    inp = io.BytesIO(_step(1) + _step(2) + ACK + _step(3) + _step(5) + ACK + _step(6) + ACK)
    out = io.BytesIO()
    assert serve(str(path), 5.0, inp, out) == 1
    answer = out.getvalue()
    assert answer[:2] == OK + FAILED  # the first acknowledgement, then the failure
    kind, message, committed = marshal.loads(answer[6:6 + _LEN.unpack(answer[2:6])[0]])
    assert kind == "IntegrityError" and "UNIQUE" in message
    assert committed == 1  # step 3, after the acknowledged ones, before the failure
    assert _keys(path) == [1, 2, 3, 5]


def test_steps_are_acknowledged_only_once_committed_and_the_end_of_input_ends_the_process(tmp_path):
    path = tmp_path / "a.db"
    _db(path)
    inp = io.BytesIO(b"".join(_step(k) + ACK for k in range(1, 11)) + _step(11)[:7])  # the last frame cut short
    out = io.BytesIO()
    assert serve(str(path), 5.0, inp, out) == 0
    assert out.getvalue() == OK * 10
    assert _keys(path) == list(range(1, 11))

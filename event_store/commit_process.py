"""The commit process: a SQLite store's step transactions, committed by a
process of their own while the caller computes the next step.

A commit waits for the disk (the WAL's fsync). A thread of the caller's own
could wait for it too, but each of its statements needs the interpreter the
caller is busy computing with, and each hand-over of that lock costs about as
much as the commit saves. This process has an interpreter of its own: the
caller (``service/writer.py``) sends it each step's statements (the
recorder's ``statements``) through a pipe and goes on; the pipe's buffer is
the queue, and a full pipe holds the caller back.

The steps are committed in the order sent; those that arrived while the last
commit waited for the disk are committed together, one transaction and one
wait for the disk for all of them (``commit_group``; each step a savepoint of
its own, so a step that fails is rolled back alone). Nothing is acknowledged
before its commit. The first failure ends the process: no later step is
written, so the stored game is a prefix of what was played (and audits clean).

Protocol, over the process's stdin and stdout:

- in, one frame per step: a 4-byte little-endian length, then ``marshal``
  ``[[sql, many, params], ...]``, executed in order between ``BEGIN`` and
  ``COMMIT`` (``many``: ``executemany`` over a list of parameter rows); a
  frame of length 0 asks where it stands;
- out: nothing per step (a step costs no write of its own); one byte 0 for
  each frame of length 0, once every step before it is committed; on the
  first failure one byte 1, a 4-byte length and ``marshal`` ``[error class,
  message, steps committed since the last frame of length 0]``, and the
  process ends. At the end of its input it ends (a frame cut short is not a
  step, and is not written).

Both ends are the same interpreter (``sys.executable``), so the frames are
``marshal``'s (of plain values only: text, bytes, integers, None, lists). The
process imports only the standard library and starts without ``site``: run
as ``python -S event_store/commit_process.py DB_URI TIMEOUT``.
"""

from __future__ import annotations

import marshal
import signal
import sqlite3
import struct
import sys

TYPE_CHECKING = False  # typing is not imported at run time: the process starts on as little as it can
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import IO, Any, TypeAlias

    # one statement of a step's transaction: (sql, many, params), params a list of rows when many
    Statement: TypeAlias = tuple[str, bool, Any]


_LEN = struct.Struct("<I")
OK, FAILED = b"\x00", b"\x01"


def execute_step(db: sqlite3.Connection, statements: Iterable[Sequence[Any]]) -> None:
    """One step's ``(sql, many, params)`` in one transaction on ``db`` (opened
    with ``isolation_level=None``): committed, or rolled back and raised. The
    recorder's own ``insert_events`` writes a step with it too."""
    db.execute("BEGIN")
    try:
        for sql, many, params in statements:
            if many:
                db.executemany(sql, params)
            else:
                db.execute(sql, params)
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise


def serve(db_name: str, timeout: float, inp: IO[bytes], out: IO[bytes]) -> int:
    """Commit the steps read from ``inp``, those waiting together (``commit_group``);
    0 at the end of input, 1 after a failure."""
    db = sqlite3.connect(db_name, uri=True, isolation_level=None, timeout=timeout, cached_statements=128)
    read = getattr(inp, "read1", inp.read)  # what has arrived (waits only while nothing has)
    buf = b""
    committed = 0  # since the last frame of length 0
    try:
        while True:
            more = read(READ_BYTES)
            if not more:
                return 0  # the end of input (a frame cut short is not a step)
            buf += more
            frames, buf = split_frames(buf)
            if not frames:
                continue
            acks, committed, failure = commit_group(db, frames, committed)
            if acks:
                out.write(OK * acks)
            if failure is not None:
                report = marshal.dumps([type(failure).__name__, str(failure), committed])
                out.write(FAILED + _LEN.pack(len(report)) + report)
                out.flush()
                return 1
            out.flush()
    finally:
        db.close()


READ_BYTES = 1 << 20  # at most, at a time: the pipe's buffer (``PIPE_BYTES``)


def split_frames(buf: bytes) -> tuple[list[bytes | None], bytes]:
    """The complete frames at the start of ``buf`` (a step's body, or None for
    a frame of length 0), and the rest (a frame not yet complete)."""
    frames: list[bytes | None] = []
    i, n = 0, len(buf)
    while i + 4 <= n:
        (size,) = _LEN.unpack_from(buf, i)
        if i + 4 + size > n:
            break
        frames.append(buf[i + 4:i + 4 + size] if size else None)
        i += 4 + size
    return frames, buf[i:]


def commit_group(db: sqlite3.Connection, frames: Sequence[bytes | None],
                 committed: int) -> tuple[int, int, Exception | None]:
    """The steps of ``frames`` that were waiting together, in one transaction:
    one commit (one wait for the disk) for all of them, as PostgreSQL's
    group commit does. Each step is a savepoint of its own: a step that fails
    is rolled back alone, the steps before it are committed, and none after
    it is executed (the process ends on it, as on a step committed alone).
    Returns the frames of length 0 now answered (every step before each is
    committed), the steps committed since the last of them, and the failure
    (None: every step was committed)."""
    acks = 0
    failure: Exception | None = None
    done = committed
    db.execute("BEGIN")
    try:
        for frame in frames:
            if frame is None:
                acks += 1
                done = 0
                continue
            db.execute("SAVEPOINT step")
            try:
                for sql, many, params in marshal.loads(frame):
                    if many:
                        db.executemany(sql, params)
                    else:
                        db.execute(sql, params)
            except Exception as e:  # noqa: BLE001 - this step's failure, reported; the steps before it stand
                if not db.in_transaction:  # an error SQLite ends the whole transaction on (a full disk, I/O)
                    return 0, committed, e
                db.execute("ROLLBACK TO step")
                db.execute("RELEASE step")
                failure = e
                break
            db.execute("RELEASE step")
            done += 1
        db.execute("COMMIT")
    except Exception as e:  # noqa: BLE001 - the commit itself failed: nothing of the group is written
        if db.in_transaction:
            db.execute("ROLLBACK")
        return 0, committed, e
    return acks, done, failure


# The pipe's buffer is the queue of steps sent and not yet read: at the
# system's default (64 KiB, a few dozen steps) the caller blocks, and the two
# processes wake each other, every few steps; at 1 MiB (Linux's limit for an
# unprivileged process) the caller runs ahead. ``MAX_IN_FLIGHT`` in
# service/writer.py still bounds what is held.
PIPE_BYTES = 1 << 20


def _widen(pipe: IO[bytes]) -> None:
    try:
        import fcntl

        fcntl.fcntl(pipe.fileno(), fcntl.F_SETPIPE_SZ, PIPE_BYTES)
    except (ImportError, AttributeError, OSError):
        pass  # not Linux, or not allowed: the default buffer works, with more waiting


class CommitProcess:
    """The caller's end: ``send`` a step's statements, ``acks`` for the steps
    sent. Started on a SQLite file (an in-memory database is one connection's:
    no other process can reach it)."""

    def __init__(self, db_name: str, timeout: float):
        import subprocess

        self._proc = subprocess.Popen([sys.executable, "-S", __file__, db_name, repr(float(timeout))],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        if self._proc.stdin is None or self._proc.stdout is None:
            raise OSError("the commit process was started without its pipes")
        self._in: IO[bytes] = self._proc.stdin
        self._out: IO[bytes] = self._proc.stdout
        _widen(self._in)

    @staticmethod
    def serves(recorder: object) -> bool:
        pool = getattr(getattr(recorder, "datastore", None), "pool", None)
        return bool(hasattr(recorder, "statements") and pool is not None
                    and getattr(pool, "db_name", None) and not pool.is_sqlite_memory_mode)

    def send(self, statements: list[Statement], ack: bool = False) -> None:
        """Queue one step (its transaction's statements); ``ack``: and ask for
        its acknowledgement (a frame of length 0 after it), to be read from
        ``ack_fd`` with ``AckReader``. Raises ``BrokenPipeError`` if the
        process has ended (``acks`` or the ack stream says why)."""
        body = marshal.dumps(statements)
        self._write(_LEN.pack(len(body)) + body + (_LEN.pack(0) if ack else b""))

    @property
    def ack_fd(self) -> int:
        """The file descriptor the acknowledgements are read from."""
        return self._out.fileno()

    def _write(self, frame: bytes) -> None:
        """All of ``frame`` (a raw pipe may take part of it, after a signal)."""
        view = memoryview(frame)
        while view:
            view = view[self._in.write(view) or 0:]

    def acks(self) -> tuple[int | None, tuple[str, str] | None]:
        """Wait until every step sent is committed: (None, None); or, if one
        failed, how many of those sent since the last ``acks`` were committed
        before it, and the failure that stopped the process (its error class
        and message)."""
        try:
            self._write(_LEN.pack(0))
        except OSError:
            pass  # the process has ended: its report says why
        mark = self._out.read(1)
        if mark == OK:
            return None, None
        ended = ("OperationalError", f"the commit process ended (exit code {self._proc.wait()}) "
                                     "before committing every step")
        if mark != FAILED:
            return 0, ended
        head = self._read(4)
        report = _report(self._read(_LEN.unpack(head)[0]) if len(head) == 4 else b"")
        if report is None:
            return 0, ended
        kind, message, done = report
        return done, (kind, message)

    def _read(self, n: int) -> bytes:
        got = b""
        while len(got) < n:
            more = self._out.read(n - len(got))
            if not more:
                break
            got += more
        return got

    def close(self) -> int:
        """End the input (every step sent is committed first) and wait for the process."""
        try:
            self._in.close()
        except OSError:  # the process has ended already: its exit code says how
            pass
        code = self._proc.wait()
        self._out.close()
        return code


def _report(body: bytes) -> tuple[str, str, int] | None:
    """A failure report's ``(error class, message, steps committed before it)``,
    or None when it was cut short (the failure is still a failure)."""
    try:
        kind, message, done = marshal.loads(body)
    except (ValueError, EOFError, TypeError):  # a malformed report (marshal's errors, or not three items)
        return None
    return kind, message, done


class AckReader:
    """The acknowledgement stream, read in pieces as they come (a caller on
    an event loop reads what ``ack_fd`` has and ``feed``s it here).
    ``feed(data)`` gives the acknowledgements now complete, in order: ``None``
    for each step committed (each frame of length 0), then, if a step
    failed, ``(error class, message)``; ``feed(b"")`` is the end of the
    stream (the process ended): ``("OperationalError", ...)`` if it ended
    without a report."""

    def __init__(self) -> None:
        self._buf = b""
        self._failed = False

    def feed(self, data: bytes) -> list[tuple[str, str] | None]:
        if self._failed:
            return []
        if not data:
            self._failed = True
            return [("OperationalError", "the commit process ended before committing every step")]
        buf = self._buf + data
        out: list[tuple[str, str] | None] = []
        i = 0
        while i < len(buf) and buf[i:i + 1] == OK:
            out.append(None)
            i += 1
        buf = buf[i:]
        if buf:
            if buf[:1] != FAILED:
                self._failed = True
                return out + [("OperationalError", "the commit process answered out of protocol")]
            if len(buf) >= 5:
                (n,) = _LEN.unpack(buf[1:5])
                if len(buf) >= 5 + n:
                    self._failed = True
                    report = _report(buf[5:5 + n])
                    return out + [report[:2] if report else ("OperationalError", "the commit process failed")]
        self._buf = buf
        return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the caller decides: it ends our input, we finish what came
    return serve(argv[0], float(argv[1]), sys.stdin.buffer, sys.stdout.buffer)


if __name__ == "__main__":
    sys.exit(main())

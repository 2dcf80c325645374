"""The commit process: a SQLite store's step transactions, committed by a
process of their own while the caller computes the next step.

A commit waits for the disk (the WAL's fsync). A thread of the caller's own
could wait for it too, but each of its statements needs the interpreter the
caller is busy computing with, and each hand-over of that lock costs about as
much as the commit saves. This process has an interpreter of its own: the
caller (``service/writer.py``) sends it each step's statements (the
recorder's ``statements``) through a pipe and goes on; the pipe's buffer is
the queue, and a full pipe holds the caller back.

Each step is still one transaction of its own, committed in the order sent.
Nothing is acknowledged before its commit. The first failure ends the
process: no later step is written, so the stored game is a prefix of what was
played (and audits clean).

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
    """Commit each step read from ``inp``; 0 at the end of input, 1 after a failure."""
    db = sqlite3.connect(db_name, uri=True, isolation_level=None, timeout=timeout, cached_statements=128)
    read = inp.read
    committed = 0  # since the last frame of length 0
    try:
        while True:
            head = read(4)
            if len(head) < 4:
                return 0
            (n,) = _LEN.unpack(head)
            if n == 0:
                out.write(OK)
                out.flush()
                committed = 0
                continue
            body = read(n)
            if len(body) < n:
                return 0
            try:
                execute_step(db, marshal.loads(body))
            except Exception as e:  # noqa: BLE001 - reported to the caller, then the process ends
                report = marshal.dumps([type(e).__name__, str(e), committed])
                out.write(FAILED + _LEN.pack(len(report)) + report)
                out.flush()
                return 1
            committed += 1
    finally:
        db.close()


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

"""A process of its own that commits an SQLite store's transactions, one at a
time, in the order they are sent.

``CommitProcess(path, ...)`` starts it (this file, run by the same Python, on
a connection of its own to the same database file). ``send(statements)`` hands
it one transaction: a list of ``(sql, [params, ...])``, each executed with
``executemany`` between ``BEGIN`` and ``COMMIT``. ``wait()`` returns when that
transaction is committed, or raises the ``sqlite3`` error it failed with (it
was rolled back: nothing of it is stored).

Why a process: a commit waits for the disk (fsync). A thread can wait for it
without holding the interpreter, but it must take the interpreter back to say
it is done and to start the next one, and each hand-over stops the thread
that is computing the next step (measured: ~180 µs of a ~500 µs step). A
process has an interpreter of its own: while it writes and commits step n,
the caller computes step n+1 without stopping, and reads the answer from a
pipe where it is already waiting.

Frames on both pipes are MessagePack objects, one after another; the answer
to each transaction is ``None`` (committed) or ``[error class, message]``.
The process ends when its input closes (also when the caller dies).
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys

import msgpack

_ERRORS = {cls.__name__: cls for cls in (sqlite3.IntegrityError, sqlite3.OperationalError, sqlite3.DataError,
                                         sqlite3.InternalError, sqlite3.InterfaceError, sqlite3.ProgrammingError,
                                         sqlite3.NotSupportedError, sqlite3.DatabaseError)}


class CommitProcessGone(sqlite3.OperationalError):
    """The commit process ended (killed, or it could not start): whether the
    transaction in flight was committed is for the store to say (a commit is
    all or nothing); nothing after it was written."""


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


class CommitProcess:
    def __init__(self, path: str, *, synchronous: int, timeout: float):
        self._proc = subprocess.Popen(
            [sys.executable, "-I", os.path.abspath(__file__), path, str(int(synchronous)), str(float(timeout))],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0, close_fds=True)
        self._in = self._proc.stdin.fileno()
        self._out = self._proc.stdout.fileno()
        self._answers = msgpack.Unpacker(raw=False, use_list=True)
        self._pack = msgpack.Packer(use_bin_type=True).pack
        self._closed = False
        self.wait()  # the process has opened the database (or says why it could not)

    def send(self, statements: list) -> None:
        try:
            _write_all(self._in, self._pack(statements))
        except (BrokenPipeError, OSError) as e:
            raise self._gone() from e

    def wait(self) -> None:
        """The answer to the oldest transaction sent and not yet answered."""
        unpacker = self._answers
        while True:
            for answer in unpacker:
                if answer is None:
                    return
                kind, message = answer
                raise _ERRORS.get(kind, sqlite3.DatabaseError)(message)
            try:
                chunk = os.read(self._out, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                raise self._gone()
            unpacker.feed(chunk)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            self._proc.stdin.close()
        except OSError:
            pass
        try:
            self._proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        self._proc.stdout.close()

    def _gone(self) -> CommitProcessGone:
        code = self._proc.poll()
        how = "is still running but stopped answering" if code is None else f"ended (exit status {code})"
        return CommitProcessGone(f"the store's commit process {how}: no later step was written")


# the process ---------------------------------------------------------------------------
def _serve(path: str, synchronous: int, timeout: float) -> None:
    pack = msgpack.Packer(use_bin_type=True).pack
    out = sys.stdout.fileno()
    try:
        db = sqlite3.connect(path, uri=True, isolation_level=None, timeout=timeout, cached_statements=128)
        db.execute(f"PRAGMA synchronous={int(synchronous)}")
    except sqlite3.Error as e:
        _write_all(out, pack([type(e).__name__, str(e)]))
        return
    _write_all(out, pack(None))
    frames = msgpack.Unpacker(raw=False, use_list=False, strict_map_key=False)
    while True:
        chunk = os.read(0, 65536)
        if not chunk:
            return
        frames.feed(chunk)
        for statements in frames:
            try:
                db.execute("BEGIN")
                try:
                    for sql, params in statements:
                        db.executemany(sql, params)
                    db.execute("COMMIT")
                except BaseException:
                    db.rollback()
                    raise
            except sqlite3.Error as e:
                answer = [type(e).__name__, str(e)]
            else:
                answer = None
            _write_all(out, pack(answer))


if __name__ == "__main__":
    _serve(sys.argv[1], int(sys.argv[2]), float(sys.argv[3]))

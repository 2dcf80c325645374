"""The service's step commits, off the event loop.

A commit waits for the disk (the WAL's fsync). Made on the event loop, that
wait holds up every other request; made on a thread of the server's own, the
thread needs the interpreter's lock for each statement while the loop is
computing, and waits for it (measured under bench/http_bench.py: half the
decisions per second of committing on the loop). So on an SQLite file the
steps go to the commit process (event_store/commit_process.py), which has
an interpreter of its own: ``await commit(prepared)`` sends the step's
statements with a request for its acknowledgement, and the loop answers
other requests until the acknowledgement arrives on the process's output
(``loop.add_reader``).

The steps are committed in the order sent, those that arrived while the
process waited for the disk together (one transaction, one wait for the disk;
each step a savepoint of its own), and nothing is answered before its commit. A step that fails fails alone: its error is the
one ``Privateer.commit`` raises (a stale version is ``StaleVersion``); the
process ends on it, as it does, and the steps sent after it, not written, go
to a new process in the same order. If the process ends without a report,
the steps not acknowledged fail with the store's error (their commits are
unknown; an idempotency key makes a retry safe).

On PostgreSQL the steps go to a thread of the server's own (``GroupCommits``):
there the wait is the database server's (the WAL's flush; the notification ids
need no lock: event_store/pg_log.py), and the thread waits in psycopg without
the interpreter's lock. The steps that arrive while a commit is under way are
committed together in the next transaction (the recorder's ``insert_steps``:
one flush for all of them), so a busy server commits more
steps, not more transactions. A step that conflicts (a stale version) fails
alone: the others are committed each in its own transaction then.

Elsewhere (an in-memory SQLite, a loop that cannot watch a pipe) ``commit``
commits on the loop, as before.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections import deque
from typing import TYPE_CHECKING, Any, TypeGuard

from event_store.commit_process import AckReader, CommitProcess
from service.app import Prepared, Privateer
from service.kernel.errors import StaleVersion
from service.writer import step_error

if TYPE_CHECKING:  # psycopg is only installed with PostgreSQL's extra
    from event_store.postgres import IndexedPostgresRecorder
    from event_store.sqlite_recorder import IndexedSQLiteRecorder

Statements = list[tuple[Any, ...]]  # one step's transaction, as the commit process executes it


# steps committed in one PostgreSQL transaction, at most
MAX_GROUP = 64


class GroupCommits:
    """A thread committing the steps queued on PostgreSQL, those waiting together."""

    def __init__(self, app: Privateer, recorder: IndexedPostgresRecorder):
        self.app = app
        self.recorder = recorder
        self._queue: deque[tuple[Prepared, asyncio.AbstractEventLoop, asyncio.Future[None]]] = deque()
        self._ready = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="privateer-commits-pg", daemon=True)
        self._thread.start()

    @staticmethod
    def serves(recorder: object) -> TypeGuard[IndexedPostgresRecorder]:
        return hasattr(recorder, "insert_steps")

    async def commit(self, prepared: Prepared) -> None:
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        with self._ready:
            if self._closed:
                raise RuntimeError("the server is closing")
            self._queue.append((prepared, loop, future))
            self._ready.notify()
        await future

    def close(self) -> None:
        """Every step queued committed, then the thread ended."""
        with self._ready:
            self._closed = True
            self._ready.notify()
        self._thread.join(60)

    def _run(self) -> None:
        while True:
            with self._ready:
                while not self._queue and not self._closed:
                    self._ready.wait()
                if not self._queue:
                    return
                group = [self._queue.popleft() for _ in range(min(MAX_GROUP, len(self._queue)))]
            try:
                errors: list[BaseException | None] = list(self.recorder.insert_steps(
                    [(p.rows, {**p.kwargs, "snapshots": p.snapshots}) for p, _, _ in group]))
            except Exception as e:  # noqa: BLE001 - no connection at all: every step's error, raised by its request
                errors = [e] * len(group)
            for (prepared, loop, future), error in zip(group, errors):
                if error is not None:
                    error = self._as_raised(prepared, error)
                try:
                    loop.call_soon_threadsafe(_settle, future, error)
                except RuntimeError:  # that request's loop is closed: nobody waits for the answer
                    pass

    def _as_raised(self, prepared: Prepared, error: BaseException) -> BaseException:
        """The error as ``Privateer.write`` raises it (a stale version is ``StaleVersion``)."""
        try:
            with self.app.stale_version(prepared):
                raise error
        except Exception as e:  # noqa: BLE001 - returned, for the waiting request to raise
            return e


def _settle(future: asyncio.Future[None], error: BaseException | None) -> None:
    if future.done():
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)


def by_process(recorder: object) -> TypeGuard[IndexedSQLiteRecorder]:
    """An SQLite file's recorder: its steps may go to the commit process."""
    return CommitProcess.serves(recorder)


class Committer:
    def __init__(self, app: Privateer):
        self.app = app
        recorder = app.recorder
        self._group = GroupCommits(app, recorder) if GroupCommits.serves(recorder) else None
        # the recorder whose steps go to the commit process; None: committed on the loop
        self._file: IndexedSQLiteRecorder | None = recorder if by_process(recorder) else None
        self._process: CommitProcess | None = None
        self._reader: AckReader | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        # (prepared, statements, future), sent and not acknowledged
        self._waiting: deque[tuple[Prepared, Statements, asyncio.Future[None]]] = deque()

    async def commit(self, prepared: Prepared) -> None:
        """``Privateer.write(prepared)``, the loop free while the disk is waited for; a step whose
        head a rotation made out of date (its key retired before the head's time) is signed
        again and written again (``Privateer.signed_again``)."""
        try:
            await self._commit(prepared)
        except StaleVersion:
            if not self.app.signed_again(prepared):
                raise
            await self._commit(prepared)

    async def _commit(self, prepared: Prepared) -> None:
        if self._group is not None:
            await self._group.commit(prepared)
            return
        loop = asyncio.get_running_loop()
        recorder = self._file
        process = None if recorder is None else self._ready(recorder, loop)
        if recorder is None or process is None:
            self.app.write(prepared)
            return
        statements = recorder.statements(prepared.rows, **prepared.kwargs, snapshots=prepared.snapshots)
        future = loop.create_future()
        self._waiting.append((prepared, statements, future))
        self._send(process, statements)
        await future

    def close(self) -> None:
        """Every step sent committed, then the process (or thread) ended."""
        if self._group is not None:
            self._group.close()
        self._stop()

    # --------------------------------------------------------------------------
    def _ready(self, recorder: IndexedSQLiteRecorder, loop: asyncio.AbstractEventLoop) -> CommitProcess | None:
        """The process watched by ``loop``: started, or moved from a loop that
        has nothing in flight (a test client runs each request on a loop of its own);
        None: commit on the loop."""
        if self._process is not None and self._loop is not loop:
            if self._waiting:
                return None
            self._stop()
        if self._process is None:
            pool = recorder.datastore.pool
            process = CommitProcess(pool.db_name, pool.lock_timeout or 5.0)
            try:
                os.set_blocking(process.ack_fd, False)
                loop.add_reader(process.ack_fd, self._readable)
            except (NotImplementedError, OSError):  # a loop that cannot watch a pipe
                process.close()
                self._file = None
                return None
            self._process, self._reader, self._loop = process, AckReader(), loop
        return self._process

    @staticmethod
    def _send(process: CommitProcess, statements: Statements) -> None:
        try:
            process.send(statements, ack=True)
        except OSError:
            pass  # the process has ended: its output says why (``_readable``)

    def _readable(self) -> None:
        process, reader = self._process, self._reader
        if process is None or reader is None:  # stopped: its pipe is no longer watched
            return
        try:
            data = os.read(process.ack_fd, 65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        for ack in reader.feed(data):
            prepared, _, future = self._waiting.popleft()
            if ack is None:
                if not future.done():
                    future.set_result(None)
                continue
            if not future.done():  # that step failed, alone: the process has ended on it
                future.set_exception(step_error(self.app, prepared, *ack))
            self._restart(ended_without_report=not data)
            return

    def _restart(self, ended_without_report: bool) -> None:
        """A new process for the steps sent after the one that failed."""
        rest = list(self._waiting)
        self._waiting.clear()
        self._stop()
        if ended_without_report:  # their commits are unknown: failed, not sent again
            for prepared, _, future in rest:
                if not future.done():
                    future.set_exception(step_error(self.app, prepared, "OperationalError",
                                                    "the commit process ended before acknowledging this step"))
            return
        recorder = self._file
        process = self._ready(recorder, asyncio.get_running_loop()) if rest and recorder is not None else None
        if process is None:
            for prepared, _, future in rest:  # no process to send them to: committed here, in order
                try:
                    self.app.write(prepared)
                except Exception as e:  # noqa: BLE001 - that request's error, raised by it
                    if not future.done():
                        future.set_exception(e)
                else:
                    if not future.done():
                        future.set_result(None)
            return
        for item in rest:
            self._waiting.append(item)
            self._send(process, item[1])

    def _stop(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        loop, self._loop = self._loop, None
        if loop is not None and not loop.is_closed():
            try:
                loop.remove_reader(process.ack_fd)
            except (ValueError, OSError, RuntimeError):  # not watched, or its pipe already closed: nothing to remove
                pass
        process.close()

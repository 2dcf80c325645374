"""Stored play that does not wait for the disk between steps.

``StepWriter.submit(game)`` prepares the game's pending step (its rows, index
and status, exactly as ``Privateer.save_game``) and hands its statements to the
commit process (event_store/commit_process.py), then returns: while that
process commits step n (and waits for the disk), the caller computes step
n+1. Steps are committed one at a time, in order, each in its own
transaction.

Nothing is acknowledged before its commit: whoever needs to know that a step
is stored calls ``flush`` (or ``close``, or leaves the ``with`` block); then
the steps committed go into the repository's cache. A step's snapshot (if it
crossed into one) is written in its own transaction, as by ``Privateer.commit``.
The first failure stops the writer: no later step is written (the stored
game is a prefix of what was played, and audits clean), and that error is
raised by every later ``submit``, ``flush`` and ``close``; a stale version is
``StaleVersion``, as from ``Privateer.save_game``. On a store the commit process
cannot reach (PostgreSQL, an in-memory SQLite), ``submit`` commits as
``save_game`` does.

While steps are in flight the commit process may hold the store's write
lock: ``flush`` before writing to the store any other way (a new game, say).
"""

from __future__ import annotations

from types import TracebackType
from typing import TYPE_CHECKING, Any

from eventsourcing.persistence import (DataError, IntegrityError, InterfaceError, InternalError, OperationalError,
                                       PersistenceError)

from event_store.commit_process import CommitProcess
from event_store.sqlite_recorder import IndexedSQLiteRecorder
from service.kernel.errors import StaleVersion
from service.logs import logger

if TYPE_CHECKING:
    from service.aggregate import Game
    from service.app import Prepared, Privateer

log = logger(__name__)

# steps sent before the writer waits for their commits (bounds the steps held
# in memory until their commits are known)
MAX_IN_FLIGHT = 4096
_ERRORS = {c.__name__: c for c in (IntegrityError, OperationalError, InterfaceError, DataError, InternalError)}


class StepWriter:
    def __init__(self, app: Privateer):
        self.app = app
        recorder = app.recorder
        self._process: CommitProcess | None = None
        self._recorder: IndexedSQLiteRecorder | None = None  # the recorder whose statements the process runs
        if isinstance(recorder, IndexedSQLiteRecorder) and CommitProcess.serves(recorder):  # started now: it is ready while the first game is set up
            pool = recorder.datastore.pool
            self._process = CommitProcess(pool.db_name, pool.lock_timeout or 5.0)
            self._recorder = recorder
        self._direct = self._process is None
        self._in_flight: list[Prepared] = []                    # prepared steps sent, their commits not yet known
        self._failed: BaseException | None = None

    def submit(self, game: Game, **rows: Any) -> None:
        """Prepare ``game``'s pending step and send it to be committed. Raises
        the writer's first failure, if any (then nothing more is written)."""
        self._check()
        prepared = self.app.prepare(game, **rows)
        if self._direct:
            self.app.commit(prepared)
            return
        if self._process is None or self._recorder is None:
            raise RuntimeError("this writer is closed")
        self._in_flight.append(prepared)
        try:
            self._process.send(self._recorder.statements(prepared.rows, **prepared.kwargs,
                                                                snapshots=prepared.snapshots))
        except OSError:  # the process has ended: its acknowledgements say why
            self._collect()
            raise
        if len(self._in_flight) >= MAX_IN_FLIGHT:
            self._collect()

    def flush(self) -> None:
        """Wait for every step sent to be committed; raise the first failure."""
        self._check()
        self._collect()

    def close(self) -> None:
        try:
            self.flush()
        finally:
            self._stop()

    def abandon(self) -> None:
        """Stop once the steps sent are committed, raising nothing (the caller
        is already failing with an error of its own)."""
        try:
            self._collect()
        except Exception:  # kept in _failed and logged, not raised over the caller's error
            log.warning("a step in flight failed while the writer was abandoned (the caller's own error is raised)",
                        exc_info=True)
        finally:
            self._stop()

    def __enter__(self) -> "StepWriter":
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if exc_type is None:
            self.close()
        else:
            self.abandon()

    def _check(self) -> None:
        if self._failed is not None:
            raise self._failed

    def _collect(self) -> None:
        """The outcome of the steps in flight: those committed go into the
        cache; a failure is kept and raised."""
        sent, self._in_flight = self._in_flight, []
        if not sent:
            return
        if self._process is None:
            raise RuntimeError("this writer is closed")
        done, failure = self._process.acks()
        for prepared in sent[:done]:
            self.app.committed(prepared)
        if failure is not None:
            self._failed = step_error(self.app, sent[done or 0], *failure)
            raise self._failed

    def _stop(self) -> None:
        if self._process is not None:
            process, self._process = self._process, None
            process.close()


def step_error(app: Privateer, prepared: Prepared, kind: str, message: str) -> BaseException:
    """The error a step's failure in the commit process is, as the same
    failure of ``Privateer.commit`` raises it (a stale version is
    ``StaleVersion``)."""
    try:
        with app.stale_version(prepared):
            raise _ERRORS.get(kind, OperationalError)(f"{kind}: {message}")
    except (PersistenceError, StaleVersion) as e:  # returned, for the caller to raise
        return e
    raise AssertionError("unreachable: the block above always raises")

"""Stored play that does not wait for the disk between steps.

``StepWriter.submit(game)`` writes the game's pending step as one transaction
(its rows, index and status, exactly as ``Privateer._save``) and hands only its
``COMMIT`` to a thread of its own, then returns: while the disk makes step n
durable (a wait during which SQLite does not hold the interpreter), the caller
computes step n+1. The next ``submit`` first waits for that commit: steps are
committed one at a time, in order, each in its own transaction.

Nothing is acknowledged before its commit: whoever needs to know that a step
is stored calls ``flush`` (or ``close``, or leaves the ``with`` block). The
first failure stops the writer: no later step is written (the stored game is
a prefix of what was played, and audits clean), and that error is raised by
every later ``submit``, ``flush`` and ``close``. On a store whose recorder
cannot split a transaction (PostgreSQL), ``submit`` commits as ``_save`` does.

While a step is in flight the writer holds the store's write connection:
``flush`` before writing to the store any other way (a new game, say).
"""

from __future__ import annotations

import queue
import threading

_STOP = object()


class StepWriter:
    def __init__(self, app):
        self.app = app
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._started: queue.SimpleQueue = queue.SimpleQueue()
        self._done: queue.SimpleQueue = queue.SimpleQueue()
        self._in_flight = None   # the prepared step whose commit the thread is making
        self._failed: BaseException | None = None
        self._thread = None

    def submit(self, game, **rows) -> None:
        """Write ``game``'s pending step and start its commit. Raises the
        writer's first failure, if any (then nothing more is written)."""
        self._check()
        prepared = self.app.prepare(game, **rows)   # while the previous step's commit waits for the disk
        self._join()
        conn = self.app.write_uncommitted(prepared)
        if conn is None:  # a store without the split: commit here
            self.app.commit(prepared)
            return
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="privateer-commits", daemon=True)
            self._thread.start()
        self._in_flight = (prepared, conn)
        self._jobs.put(conn)
        self._started.get()  # the thread has the job: it lets go of the interpreter inside COMMIT

    def flush(self) -> None:
        """Wait for the step in flight to be committed; raise the first failure."""
        self._join()
        self._check()

    def close(self) -> None:
        try:
            self.flush()
        finally:
            self._stop()

    def abandon(self) -> None:
        """Stop once the step in flight is committed, raising nothing (the
        caller is already failing with an error of its own)."""
        try:
            self._join()
        except BaseException:  # noqa: BLE001 - kept in _failed, not raised over the caller's error
            pass
        finally:
            self._stop()

    def __enter__(self) -> "StepWriter":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.close()
        else:
            self.abandon()

    def _check(self) -> None:
        if self._failed is not None:
            raise self._failed

    def _join(self) -> None:
        in_flight, self._in_flight = self._in_flight, None
        if in_flight is None:
            return
        prepared, conn = in_flight
        error = self._done.get()
        self.app.recorder.release(conn)
        if error is not None:
            self._failed = error
            raise error
        self.app.committed(prepared)

    def _stop(self) -> None:
        if self._thread is not None:
            self._jobs.put(_STOP)
            self._thread.join()
            self._thread = None

    def _run(self) -> None:
        commit = self.app.recorder.commit_only
        started, done = self._started, self._done
        while True:
            conn = self._jobs.get()
            if conn is _STOP:
                return
            started.put(None)
            try:
                commit(conn)
            except BaseException as e:  # noqa: BLE001 - handed to the caller
                done.put(e)
            else:
                done.put(None)

"""Stored play that does not wait for the disk between steps.

``StepWriter.submit(game)`` prepares the game's pending step (its rows, index
and status, exactly as ``Privateer._save``) and hands its transaction to the
store's commit process (event_store/commit_process.py), then returns: while
that process writes and commits step n, the caller computes step n+1. The
next ``submit`` first waits for that commit: steps are committed one at a
time, in order, each in its own transaction.

Nothing is acknowledged before its commit: whoever needs to know that a step
is stored calls ``flush`` (or ``close``, or leaves the ``with`` block). The
first failure stops the writer: no later step is written (the stored game is
a prefix of what was played, and audits clean), and that error is raised by
every later ``submit``, ``flush`` and ``close``; a version already taken is
``StaleVersion``, as from ``_save``. On a store without a commit process
(PostgreSQL, an in-memory SQLite database), ``submit`` commits as ``_save``
does.

While a step is in flight, write to the store any other way (a new game, say)
only after ``flush``.
"""

from __future__ import annotations

import sqlite3
from contextlib import contextmanager

from eventsourcing.persistence import IntegrityError, OperationalError

_NONE = object()  # no commit process yet (made at the first submit)


@contextmanager
def _mapped():
    """The process's ``sqlite3`` errors as the library's classes, as the store raises them."""
    try:
        yield
    except sqlite3.IntegrityError as e:
        raise IntegrityError(e) from e
    except sqlite3.Error as e:
        raise OperationalError(e) from e


class StepWriter:
    def __init__(self, app):
        self.app = app
        self._process = _NONE
        self._in_flight = None   # the prepared step whose commit the process is making
        self._failed: BaseException | None = None

    def submit(self, game, **rows) -> None:
        """Prepare ``game``'s pending step and start its commit. Raises the
        writer's first failure, if any (then nothing more is written)."""
        self._check()
        prepared = self.app.prepare(game, **rows)   # while the previous step's commit waits for the disk
        self._join()
        process = self._process
        if process is _NONE:
            make = getattr(self.app.recorder, "commit_process", None)
            process = self._process = make() if make is not None else None
        if process is None:  # a store without one: commit here
            self.app.commit(prepared)
            return
        statements = self.app.recorder.statements(prepared.rows, **prepared.kwargs)
        self._in_flight = prepared
        try:
            with _mapped():
                process.send(statements)
        except BaseException as e:
            self._in_flight = None
            self._failed = e
            raise

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
        prepared, self._in_flight = self._in_flight, None
        if prepared is None:
            return
        try:
            # a version already taken: StaleVersion, as from _save
            with self.app._stale(prepared), _mapped():
                self._process.wait()
        except BaseException as e:
            self._failed = e
            raise
        self.app.committed(prepared)

    def _stop(self) -> None:
        process, self._process = self._process, _NONE
        if process is not _NONE and process is not None:
            process.close()

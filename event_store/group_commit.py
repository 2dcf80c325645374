"""Group commit: the steps of many games that wait at once, committed at once.

A step's transaction ends by waiting for the disk (the WAL's fsync), and on
this kind of machine that wait is about a third of what a decision costs the
HTTP server. Its event loop would wait through every one of them, while the
requests of the other tables queue behind.

``GroupCommitter`` is a thread with an SQLite connection of its own. It takes
every step waiting when its last commit ended, writes each in a savepoint of
one transaction (``BEGIN IMMEDIATE``), and commits once: one wait for the disk
for all of them. While it waits, ``sqlite3`` lets go of the interpreter, so
the server goes on with the next requests, whose steps form the next group.

Each step is still all or nothing: one that fails (a stale version: another
writer's row already at one of its versions) is rolled back to its savepoint
alone and the others commit. If the commit itself fails, none of the group is
written, and every step of it hears so. A step's caller hears its outcome
(``done(None)`` or ``done(error)``, called on the committer's thread) only
after the commit: nothing is acknowledged before it is on disk.
"""

from __future__ import annotations

import sqlite3
import threading

from .commit_process import execute


def commit_group(db: sqlite3.Connection, steps: list) -> list:
    """Each step's ``(sql, many, params)`` in a savepoint of one transaction on
    ``db`` (opened with ``isolation_level=None``), then one commit. Returns, per
    step, None (committed) or the error that undid it."""
    results: list = [None] * len(steps)
    try:
        db.execute("BEGIN IMMEDIATE")
        for i, statements in enumerate(steps):
            db.execute("SAVEPOINT step")
            try:
                execute(db, statements)
            except sqlite3.DatabaseError as e:  # this step alone is undone
                db.execute("ROLLBACK TO step")
                results[i] = e
            db.execute("RELEASE step")
        db.execute("COMMIT")
    except BaseException as e:  # noqa: BLE001 - nothing of the group was written: each step hears why
        if db.in_transaction:
            db.execute("ROLLBACK")
        return [e] * len(steps)
    return results


class GroupCommitter:
    """Steps committed in groups by a thread of their own (see the module's text)."""

    def __init__(self, db_name: str, timeout: float):
        self._db_name = db_name
        self._timeout = timeout
        self._waiting: list = []
        self._cv = threading.Condition()
        self._closed = False
        self.groups = self.steps = 0  # how many commits, and steps in them (for a look at the batching)
        self._thread: threading.Thread | None = None  # started by the first step

    def submit(self, statements: list, done) -> None:
        """Queue one step; ``done(None | error)`` is called after its group's commit."""
        with self._cv:
            if self._closed:
                raise RuntimeError("the group committer is closed")
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="group-commit", daemon=True)
                self._thread.start()
            self._waiting.append((statements, done))
            self._cv.notify()

    def close(self) -> None:
        """Commit what is waiting, then stop."""
        with self._cv:
            self._closed = True
            self._cv.notify()
            thread = self._thread
        if thread is not None:
            thread.join()

    def _run(self) -> None:
        db = sqlite3.connect(self._db_name, uri=True, isolation_level=None, timeout=self._timeout,
                             check_same_thread=False, cached_statements=128)
        try:
            while True:
                with self._cv:
                    while not self._waiting and not self._closed:
                        self._cv.wait()
                    if not self._waiting:
                        return
                    group, self._waiting = self._waiting, []
                results = commit_group(db, [statements for statements, _ in group])
                self.groups += 1
                self.steps += len(group)
                for (_, done), result in zip(group, results):
                    done(result)
        finally:
            db.close()

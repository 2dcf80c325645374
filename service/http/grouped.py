"""The play loop's decisions committed in groups (event_store/group_commit.py),
each awaited on the event loop: while a group waits for the disk, the loop
serves the next requests. Only on an SQLite file (``serving``); elsewhere
each decision commits as it is made."""

from __future__ import annotations

import asyncio
import sqlite3

from event_store import group_commit
from event_store.commit_process import CommitProcess
from event_store.sqlite_recorder import mapped_errors
from service.app import Privateer


class GroupCommitter:
    def __init__(self, db_name: str, timeout: float):
        self._committer = group_commit.GroupCommitter(db_name, timeout)

    @classmethod
    def serving(cls, app: Privateer) -> "GroupCommitter | None":
        """One for ``app``'s store, or None where steps cannot be committed this way."""
        if not CommitProcess.serves(app.recorder):
            return None
        pool = app.recorder.datastore.pool
        return cls(pool.db_name, pool.lock_timeout or 5.0)

    @property
    def counts(self) -> tuple[int, int]:
        """``(groups committed, steps in them)``."""
        return self._committer.groups, self._committer.steps

    async def commit(self, statements: list, prepared) -> None:
        """Commit one step (``prepared``'s statements) with the group it joins. A
        version another writer took first is ``StaleVersion``, as from
        ``Privateer.commit``; nothing of the step was written."""
        loop = asyncio.get_running_loop()
        outcome = loop.create_future()

        def done(error) -> None:  # on the committer's thread
            loop.call_soon_threadsafe(_settle, outcome, error)

        self._committer.submit(statements, done)
        error = await outcome
        if error is None:
            return
        if isinstance(error, sqlite3.IntegrityError):
            raise Privateer.stale(prepared) from None
        with mapped_errors():
            raise error

    def close(self) -> None:
        self._committer.close()


def _settle(outcome: asyncio.Future, error) -> None:
    if not outcome.done():  # (a request given up on hears nothing)
        outcome.set_result(error)

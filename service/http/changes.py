"""Wake-ups for live streams and bots: when a game is committed to, the streams of
that game wake at once instead of polling the games index.

This process's commits wake its streams and bots directly. On PostgreSQL a thread of
every server follows the log (event_store/postgres.py ``listen_for_commits``) and turns
every other process's commit into the same wake-up (``heard``), so commits by another
``--workers`` process, another server or ``tools act`` wake the stream too; bots hear
them apart (``on_commit``'s ``elsewhere``). On SQLite, commits by other processes are
seen by the fallback: a stream that is not woken looks at the index every
``FALLBACK_SECONDS``.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # psycopg is only installed with PostgreSQL's extra
    from event_store.postgres import HeardRows

FALLBACK_SECONDS = 1.0
EVERY_GAME = "*"  # ``watch(EVERY_GAME)``: woken by a commit to any game (the games list's stream)


class Changes:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiters: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Event]]] = {}
        self._listeners: list[Callable[[str], None]] = []
        self._elsewhere: list[Callable[[str], None]] = []

    def on_commit(self, listener: Callable[[str], None], elsewhere: Callable[[str], None] | None = None) -> None:
        """``listener(gid_hex)`` is called (from any thread) after each commit to any game by
        this process; ``elsewhere(gid_hex)`` (else ``listener``) after each by another process
        (heard from the log on PostgreSQL: ``listen``)."""
        self._listeners.append(listener)
        self._elsewhere.append(elsewhere or listener)

    def committed(self, gid_hex: str, here: bool = True) -> None:
        """Called (from any thread) after a commit to the game (``here``: by this process)."""
        for listener in self._listeners if here else self._elsewhere:
            listener(gid_hex)
        with self._lock:
            waiters = list(self._waiters.get(gid_hex, ())) + list(self._waiters.get(EVERY_GAME, ()))
        for loop, event in waiters:
            try:
                loop.call_soon_threadsafe(event.set)
            except RuntimeError:  # that stream's loop is closed
                pass

    @contextmanager
    def watch(self, gid_hex: str) -> Iterator[asyncio.Event]:
        """An ``asyncio.Event`` set at each commit to the game (to any game: ``EVERY_GAME``)
        while the block runs."""
        entry = (asyncio.get_running_loop(), asyncio.Event())
        with self._lock:
            self._waiters.setdefault(gid_hex, set()).add(entry)
        try:
            yield entry[1]
        finally:
            with self._lock:
                waiters = self._waiters.get(gid_hex)
                if waiters is not None:
                    waiters.discard(entry)
                    if not waiters:
                        del self._waiters[gid_hex]

    def listen(self, db: str, heard: HeardRows | None = None) -> threading.Event | None:
        """On PostgreSQL, a daemon thread that wakes the streams at every commit to the
        database (by any process); returns the ``threading.Event`` that stops it, or None.
        ``heard``: the recorder's ``HeardRows``, kept while the thread hears every commit."""
        if not db.startswith(("postgresql://", "postgres://")):
            return None
        from event_store.postgres import listen_for_commits

        stop = threading.Event()
        threading.Thread(target=listen_for_commits, args=(db, self.heard, stop, heard), daemon=True,
                         name="privateer-commits").start()
        return stop

    def heard(self, gid_hex: str) -> None:
        """A commit to the game by another process, heard from the log."""
        self.committed(gid_hex, here=False)

    def watched(self) -> int:
        with self._lock:
            return sum(len(w) for w in self._waiters.values())


async def woken_or_timeout(event: asyncio.Event, seconds: float) -> bool:
    try:
        await asyncio.wait_for(event.wait(), timeout=seconds)
        return True
    except asyncio.TimeoutError:
        return False

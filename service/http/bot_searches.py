"""The bots' searches side by side: a decision of a game whose bot is several searches
(``service.analysis.bot.settings``) is that many independent searches, run here in a pool of
worker processes (one core each; a thread would wait for the interpreter's lock: with the first
search in the calling thread, the pool's own threads waited for it to hand the other over,
0.050 -> 0.060 s a M&M decision), their statistics merged by the bot
exactly as when they run one after the other (``one_by_one``), so a decision depends only
on its seeds. The pool starts at the first split decision (its workers ``forkserver``'s
children: the server's threads are not copied into them) and each worker imports the split
games' rules as it starts, so the first search is not late for its slot by an import. A worker
that dies (killed, out of memory) breaks the pool: that decision's searches run in the calling
thread (the same decision) and the next decision starts a new pool."""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from service.analysis.bot import search_one, split, split_games
from service.kernel.games import get_rules
from service.logs import logger

log = logger(__name__)


def _ready(games: tuple[str, ...]) -> None:
    """A worker's start: the split games' rules imported (and the search's modules with this one's)."""
    for game in games:
        get_rules(game)


class BotSearches:
    """``bot_for``'s ``searches`` for the service's bots: a decision's searches in the pool, one
    a worker; a decision of one search in the calling thread (nothing to run beside it)."""

    def __init__(self, workers: int = max(map(split, split_games()), default=1),
                 search: Callable[[dict[str, Any]], list[dict[str, Any]]] = search_one) -> None:
        """``search``: one search from its keywords (bench/strength.py's times it where it runs)."""
        self.workers = workers
        self.search = search
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def __call__(self, parts: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
        if len(parts) > 1 and self.workers > 1:
            pool = self._started()
            try:
                return list(pool.map(self.search, parts))
            except BrokenProcessPool:  # a worker died (killed, out of memory): this decision here, a new pool next
                log.exception("the bots' search pool broke; this decision's searches run in the server's thread")
                self._forget(pool)
        return [self.search(p) for p in parts]

    def _started(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(self.workers, multiprocessing.get_context("forkserver"),
                                                 initializer=_ready, initargs=(tuple(split_games()),))
            return self._pool

    def _forget(self, pool: ProcessPoolExecutor) -> None:
        """``pool`` shut down, and no longer this one's (the next split decision starts another)."""
        with self._lock:
            if self._pool is pool:
                self._pool = None
        pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        if self._pool is not None:
            self._forget(self._pool)

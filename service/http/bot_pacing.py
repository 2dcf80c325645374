"""A bot's pacing (service/http/bots.py's docstring tells why): the slots of a run of
its decisions, which depend only on their count (``slot``, ``slot_for``; bench.strength
models a run with them), and its searches ahead on a private copy of the game (``Ahead``,
``Plan``)."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from service.aggregate import Game

# a run of a bot's decisions: the first appended one quantum after the run began, each next one
# PACE quanta after the one before (``slot``)
PACE = 0.7
AHEAD = 4  # decisions searched ahead of the one waiting for its slot (on a private copy of the game)
# a game's quantum unless the service is given one (``PRIVATEER_BOT_QUANTUM``): above its ismcts bot's
# slowest search on a two-core machine that is not overloaded (service/http/README.md)
QUANTUM = 0.2
# the games whose bot's decision is two searches side by side (service/analysis/bot.py ``settings``)
QUANTA = {"merchants-and-marauders": 0.1, "kaisers-pirates": 0.15}


def quantum_for(game: str, given: float | None = None) -> float:
    """The quantum of ``game``'s bots: ``given`` (the service's, for every game) unless None,
    else the game's own (``QUANTA``, else ``QUANTUM``)."""
    return given if given is not None else QUANTA.get(game, QUANTUM)


def slot(k: int, quantum: float) -> float:
    """When a run's ``k``-th decision (1, 2, ...) is appended, in seconds from the moment the
    run began: one quantum, then one every ``PACE`` quanta; 0 quantum: at once."""
    return quantum + (k - 1) * PACE * quantum


def slot_for(ready: float, taken: int, quantum: float) -> int:
    """The slot of a decision found ``ready`` seconds after its run began, the run's first
    ``taken`` slots used: the first later slot not before ``ready`` (a decision not ready at
    its slot goes at the next one)."""
    if quantum <= 0:
        return taken + 1
    return max(taken + 1, 1 + math.ceil((ready - quantum) / (PACE * quantum) - 1e-9))


@dataclass
class Plan:
    """A decision of the bot's and the game it was chosen in, as the bot's thread saw it."""
    seat: int
    name: str  # the bot's
    decision: dict[str, Any]  # as the seat reads it
    seen: int  # the seat's count there (the expected version)
    version: int  # the game's version there (all its events)
    steps: int
    legal: list[dict[str, Any]]  # the seat's decisions there
    public: int = -1  # the public's count there
    public_after: int = -1  # the public's count once it is appended as planned
    version_after: int = -1
    game: Game | None = None  # the private copy, the decision applied, to plan the next on (None: no next)
    game_name: str = ""  # its rules' (the game's quantum: ``quantum_for``)


@dataclass
class Run:
    """A run of one bot seat's decisions (nothing public happened between them but its own)."""
    seat: int
    began: float  # the loop's time
    public: int  # the public's count after the run's last decision
    taken: int = 0  # slots used


class Ahead:
    """The bot's searches of a run, one after the other in its thread (``pool``, ``search``:
    ``Bots._plan``): the first on the game as committed, each next on the private copy the
    one before left, at most ``AHEAD`` beyond the decision
    waiting for its slot (``appended`` makes room for one more)."""

    def __init__(self, pool: Executor, plan: Callable[[UUID, Plan | None], Plan | None], gid: UUID) -> None:
        self.plans: asyncio.Queue[Plan | BaseException | None] = asyncio.Queue()
        self._room = asyncio.Semaphore(AHEAD + 1)
        self._task = asyncio.get_running_loop().create_task(self._search(pool, plan, gid))

    async def _search(self, pool: Executor, search: Callable[[UUID, Plan | None], Plan | None], gid: UUID) -> None:
        loop = asyncio.get_running_loop()
        plan: Plan | None = None
        while True:
            await self._room.acquire()
            try:
                plan = await loop.run_in_executor(pool, search, gid, plan)
            except Exception as e:  # noqa: BLE001 - handed to the bot's task, which logs it
                self.plans.put_nowait(e)
                return
            self.plans.put_nowait(plan)
            if plan is None or plan.game is None:
                return

    def appended(self) -> None:
        self._room.release()

    def stop(self) -> None:
        self._task.cancel()

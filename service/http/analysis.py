"""``GET /games/{id}/analysis``: a seat's decisions at a point of a game, each
in words with its estimated win rate, mean score and the playouts behind it,
from that seat's own information: what ``tools analyse`` answers for the same
point, playouts and seed (``service.analyse.analyse_machine``, one code path).

Who may ask (checked before anything of the game's state is read, so a
refusal says nothing about the position):

* a seat, for itself (its own token; ``seat`` omitted or its own);
* the game's referee and the organiser, for any seat (``seat`` given);
* once the game is finished, anyone, for any seat, at a point where that seat
  had seen nothing the caller may not read (the service does not reveal hands
  or secret choices at the end: the log and the views still hide them, and an
  analysis is made from everything the seat saw; in the four games this holds
  only before the setup deals what is private, so after the game the seats'
  analyses stay, in practice, the seats' own and the referee's);
* nobody else: 403 (before the end: one message whatever the seat or point).

An analysis is long work: ``playouts`` is capped (``Limits.analysis_playouts``),
the search runs in its own small thread pool (``WORKERS`` at once), never on
the event loop, and at most ``WAITING`` requests run or wait for it (then 429).
Each caller (a credential; without one, an address) has at most ``PER_CALLER``
of them running or waiting: a further one is 429 with ``Retry-After``, so one
caller cannot hold every slot while another caller still gets one. A request
whose client goes away stops its search between two playouts (``leaving``,
looked at every ``WATCH`` seconds), which frees its slot.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from uuid import UUID

from service.analyse import analyse_machine, check_point
from service.aggregate import Game
from service.app import Privateer
from service.kernel.errors import BadInput, PrivateerError
from service.kernel.events import may_read
from service.kernel.machine import Machine

from .auth import Caller, Forbidden, token_hash
from .current import Current

WORKERS = 2   # analyses computed at once (each holds a core while it runs)
WAITING = 8   # analyses running or waiting in one process; beyond: 429
PER_CALLER = 1  # analyses one caller may have running or waiting at once; beyond: 429
RETRY_AFTER = 5  # seconds, said with a 429 (Retry-After)
WATCH = 0.25  # seconds between two looks at whether the client is still there


class Busy(PrivateerError):
    http_status = 429
    kind = "busy"


class Abandoned(PrivateerError):
    """The client went away: the search stopped between two playouts (nobody reads the answer)."""
    http_status = 499
    kind = "abandoned"


def caller_key(token: str | None, address: str | None) -> str:
    """Who asks, for the share of analyses: a credential (its hash: the organiser key, a
    referee key and each seat token are each a caller), else the client's address."""
    return f"token:{token_hash(token)}" if token else f"address:{address or '?'}"


ONLY_OWN = ("an analysis of an unfinished game is for its seats (each its own decisions, with its own token) "
            "and its referee")
HIDDEN_FROM_YOU = ("by then that seat had seen what you may not (its hand, its secret choices): its analysis there "
                   "is for that seat and the referee, even after the game")


def allowed_seat(caller: Caller, seat: int | None, finished: bool) -> tuple[int, bool]:
    """The seat the caller may have analysed, and whether what that seat had seen
    must be checked against what the caller may read (``Forbidden`` before the
    end: the same refusal whatever the position, the seat number or the point)."""
    if caller.role == "seat" and caller.seat is not None and seat in (None, caller.seat):  # a seat's own
        return caller.seat, False
    if not caller.is_referee and not finished:
        raise Forbidden(ONLY_OWN)
    if seat is None:
        raise BadInput("say which seat's decisions to weigh (seat)")
    return seat, not caller.is_referee


class Analyses:
    def __init__(self, app: Privateer, current: Current, max_playouts: int):
        self.app = app
        self.current = current
        self.max_playouts = max_playouts
        self._pool = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="privateer-analysis")
        self._lock = threading.Lock()
        self._running = 0
        self._by_caller: dict[str, int] = {}
        self.playouts = 0  # playouts played by this process's analyses (GET /health)

    @property
    def running(self) -> int:
        """Analyses running or waiting now."""
        return self._running

    async def run(self, gid: UUID, caller: Caller, seat: int | None, at_turn: int | None, at_event: int | None,
                  playouts: int, seed: str, before: int | None = None, who: str = "",
                  leaving: Callable[[], Awaitable[bool]] | None = None) -> dict:
        """The analysis, computed off the event loop (its own pool), for caller ``who``
        (``caller_key``); ``leaving()``: whether the client has gone (then the search stops)."""
        if before is not None and (at_turn is not None or at_event is not None):
            raise BadInput("give at_turn, at_event or before, not two of them")
        check_point(at_turn, at_event, playouts)
        if playouts > self.max_playouts:
            raise BadInput(f"playouts: at most {self.max_playouts} here (ask `tools analyse` for more)")
        with self._lock:
            if self._by_caller.get(who, 0) >= PER_CALLER:
                raise Busy(f"you have {PER_CALLER} analysis running or waiting here already; ask again when "
                           "it is done")
            if self._running >= WAITING:
                raise Busy(f"{WAITING} analyses are running or waiting here; ask again shortly")
            self._running += 1
            self._by_caller[who] = self._by_caller.get(who, 0) + 1
        stop = threading.Event()
        try:
            loop = asyncio.get_running_loop()
            work = loop.run_in_executor(self._pool, self.analyse, gid, caller, seat, at_turn, at_event,
                                        playouts, seed, before, stop)
            while leaving is not None and not stop.is_set():
                done, _ = await asyncio.wait({work}, timeout=WATCH)
                if done:
                    break
                if await leaving():
                    stop.set()  # the search stops after the playout it is playing (or before its first)
            return await work
        finally:
            with self._lock:
                self._running -= 1
                self._by_caller[who] -= 1
                if not self._by_caller[who]:
                    del self._by_caller[who]

    def analyse(self, gid: UUID, caller: Caller, seat: int | None, at_turn: int | None, at_event: int | None,
                playouts: int, seed: str, before: int | None = None, stop: threading.Event | None = None) -> dict:
        if stop is not None and stop.is_set():  # its client left while it waited for a thread
            raise Abandoned("the client went away before the analysis began")
        now = self.current.game(gid).machine
        seat, check = allowed_seat(caller, seat, now.finished)
        now.check_seat(seat)
        if before is not None:
            machine, version = self._before(gid, caller, seat, before)
            where = f"before event {before}"
        elif at_turn is None and at_event is None:
            machine, version, _ = self.current.fold(gid)
            machine, where = machine.copy(), "now"
        else:
            # the caller counts in its own numbers (a seat's, the public's; the referee's are the store's)
            store_event = self.current.store_version(gid, caller.view_seat, at_event) if at_event else None
            machine, version, _ = self.app.fold(gid, to_turn=at_turn, to_event=store_event)
            where = f"at turn {at_turn}" if at_turn is not None else f"after event {at_event}"
        if check:
            self._nothing_hidden(gid, caller, seat, version)
        return analyse_machine(gid, machine, version, seat, where, playouts, seed, self._counted(stop))

    def _counted(self, stop: threading.Event | None) -> Callable[[int], None]:
        """The search's progress callback: counts the playouts, and stops the search
        (``Abandoned``) once ``stop`` is set."""

        def progress(done: int) -> None:
            with self._lock:
                self.playouts += 1
            if stop is not None and stop.is_set():
                raise Abandoned(f"the client went away: the search stopped after {done} playouts")

        return progress

    def _nothing_hidden(self, gid: UUID, caller: Caller, seat: int, version: int) -> None:
        """After the game, another seat or the public may have a seat's options weighed
        only where that seat had seen nothing the caller may not read: the service does
        not reveal hands or secret choices at the end (the log and the views still hide
        them), and an analysis is made from everything the seat saw."""
        mine = caller.view_seat or 0
        for e in self.app.stored_events(gid, lte=version):
            if may_read(e.visible_to, seat) and not may_read(e.visible_to, mine):
                raise Forbidden(HIDDEN_FROM_YOU)

    def _before(self, gid: UUID, caller: Caller, seat: int, before: int) -> tuple[Machine, int]:
        """The game just before event ``before`` (the caller's count), which must be one of the
        seat's own decisions: the point at which the seat chose."""
        store = self.current.store_version(gid, caller.view_seat, before)
        event = next(iter(self.app.events.get(gid, gt=store - 1, limit=1)))
        decided = isinstance(event, Game.Recorded) and event.type == "Decided" and event.data.get("seat") == seat
        if not decided:
            raise BadInput(f"event {before} is not a decision of seat {seat}")
        machine, version, _ = self.app.fold(gid, to_event=store - 1)
        return machine, version

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

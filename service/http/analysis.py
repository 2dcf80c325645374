"""``GET /games/{id}/analysis``: a seat's decisions at a point of a game, each
in words with its estimated win rate, mean score and the playouts behind it,
from that seat's own information: what ``tools analyse`` answers for the same
point, playouts and seed (``service.analyse.analyse_machine``, one code path).

Who may ask (checked before anything of the game's state is read, so a
refusal says nothing about the position):

* a seat, for itself (its own token; ``seat`` omitted or its own);
* the game's referee and the organiser, for any seat (``seat`` given);
* once the game is finished, anyone, for any seat, in a game that drew its
  chance from a seed (the seed is revealed at the end, so every hand can be
  recomputed from the log); in a table-mode game what a seat held may never be
  revealed, so there it stays the seat's and the referee's;
* nobody else: 403, one message whatever the position.

An analysis is long work: ``playouts`` is capped (``Limits.analysis_playouts``),
the search runs in its own small thread pool (``WORKERS`` at once), never on
the event loop, and at most ``WAITING`` requests wait for it (then 429).
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from uuid import UUID

from service.analyse import analyse_machine, check_point
from service.kernel.errors import BadInput, PrivateerError

from .auth import Caller, Forbidden

WORKERS = 2   # analyses computed at once (each holds a core while it runs)
WAITING = 8   # analyses running or waiting in one process; beyond: 429


class Busy(PrivateerError):
    http_status = 429
    kind = "busy"


ONLY_OWN = ("an analysis of an unfinished game is for its seats (each its own decisions, with its own token) "
            "and its referee")
ONLY_OWN_TABLE = ("an analysis of a table-mode game is for its seats (each its own decisions, with its own "
                  "token) and its referee, even after the game: what a seat held may never have been shown")


def allowed_seat(caller: Caller, seat: int | None, finished: bool, table: bool) -> int:
    """The seat the caller may have analysed, or ``Forbidden`` (the same refusal
    whatever the position, the seat number or the point asked for)."""
    if caller.role == "seat" and seat in (None, caller.seat):
        return caller.seat
    open_to_all = finished and not table
    if not caller.is_referee and not open_to_all:
        raise Forbidden(ONLY_OWN_TABLE if finished else ONLY_OWN)
    if seat is None:
        raise BadInput("say which seat's decisions to weigh (seat)")
    return seat


class Analyses:
    def __init__(self, app, current, max_playouts: int):
        self.app = app
        self.current = current
        self.max_playouts = max_playouts
        self._pool = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="privateer-analysis")
        self._lock = threading.Lock()
        self._running = 0

    async def run(self, gid: UUID, caller: Caller, seat: int | None, at_turn: int | None, at_event: int | None,
                  playouts: int, seed: str, before: int | None = None) -> dict:
        """The analysis, computed off the event loop (its own pool)."""
        if before is not None and (at_turn is not None or at_event is not None):
            raise BadInput("give at_turn, at_event or before, not two of them")
        check_point(at_turn, at_event, playouts)
        if playouts > self.max_playouts:
            raise BadInput(f"playouts: at most {self.max_playouts} here (ask `tools analyse` for more)")
        with self._lock:
            if self._running >= WAITING:
                raise Busy(f"{WAITING} analyses are running or waiting here; ask again shortly")
            self._running += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._pool, self.analyse, gid, caller, seat, at_turn, at_event,
                                              playouts, seed, before)
        finally:
            with self._lock:
                self._running -= 1

    def analyse(self, gid: UUID, caller: Caller, seat: int | None, at_turn: int | None, at_event: int | None,
                playouts: int, seed: str, before: int | None = None) -> dict:
        now = self.current.game(gid).machine
        seat = allowed_seat(caller, seat, now.finished, bool(now.k["table"]))
        now.check_seat(seat)
        if before is not None:
            machine, version = self._before(gid, caller, seat, before)
            return analyse_machine(gid, machine, version, seat, f"before event {before}", playouts, seed)
        if at_turn is None and at_event is None:
            machine, version, _ = self.current.fold(gid)
            machine, where = machine.copy(), "now"
        else:
            # the caller counts in its own numbers (a seat's, the public's; the referee's are the store's)
            store_event = self.current.store_version(gid, caller.view_seat, at_event) if at_event else None
            machine, version, _ = self.app.fold(gid, to_turn=at_turn, to_event=store_event)
            where = f"at turn {at_turn}" if at_turn is not None else f"after event {at_event}"
        return analyse_machine(gid, machine, version, seat, where, playouts, seed)

    def _before(self, gid: UUID, caller: Caller, seat: int, before: int):
        """The game just before event ``before`` (the caller's count), which must be one of the
        seat's own decisions: the point at which the seat chose."""
        store = self.current.store_version(gid, caller.view_seat, before)
        event = next(iter(self.app.events.get(gid, gt=store - 1, limit=1)))
        if event.type != "Decided" or event.data.get("seat") != seat:
            raise BadInput(f"event {before} is not a decision of seat {seat}")
        machine, version, _ = self.app.fold(gid, to_event=store - 1)
        return machine, version

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

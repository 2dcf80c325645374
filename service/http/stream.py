"""A game's live stream (Server-Sent Events) for one caller: the events it may
see, in its own numbers, its status at once and after each batch that changes
it, and an end (finished, a time limit or an event limit), woken by commits
(service/http/changes.py). A step whose events are all hidden from the caller
sends it nothing: not even a status, whose arrival would tell when the step
was made."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any
from uuid import UUID

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from service.kernel.rules import Rules
from service.views import card_namer, log_entries

from .auth import Caller
from .changes import FALLBACK_SECONDS, woken_or_timeout
from .core import GameService
from .limits import Limits

SSE_EVENT = {  # one Server-Sent Event (OpenAPI 3.2 itemSchema)
    "type": "object", "required": ["event", "data"],
    "properties": {
        "event": {"type": "string", "enum": ["game-event", "status", "end"]},
        "id": {"type": "string", "pattern": "^[0-9]+$"},
        "data": {"type": "string", "contentMediaType": "application/json",
                 "contentSchema": {"type": "object", "required": ["version"],
                                   "properties": {"version": {"type": "integer"},
                                                  "reason": {"type": "string",
                                                             "enum": ["finished", "time limit", "event limit"]}}}},
        "retry": {"type": "integer"},
    },
}
KEEP_ALIVE = 15  # seconds of quiet before a comment line keeps the connection open


Cursor = tuple[int, int]  # (store version, the caller's own number)


def _batch(svc: GameService, gid: UUID, caller: Caller, rules: Rules,
           cursor: Cursor) -> tuple[list[dict[str, Any]], Cursor, dict[str, Any]]:
    """New events after the cursor (store version, caller's own number), and the status as the
    caller reads it."""
    after, own = cursor
    stored = list(svc.app.events.get(gid, gt=after))
    seat = caller.view_seat
    current = svc.current.game(gid).machine if stored else None
    entries = log_entries(rules, stored, seat, start=own if seat is not None else 0,
                          players=current.config.get("players") if current else None,
                          names=card_namer(current) if current else None)
    last = stored[-1].originator_version if stored else after
    machine, version, _ = svc.current.fold(gid)
    st = {"version": machine.seen(seat, version), "turn": machine.turn(), "to_act": machine.to_act(),
          "finished": machine.finished}
    own_last = entries[-1]["version"] if entries else own
    return entries, (last, own_last), st


def _event(e: dict[str, Any]) -> str:
    return f"id: {e['version']}\nevent: game-event\ndata: {json.dumps(e)}\n\n"


def _end(after: int, finished: bool, reason: str) -> str:
    return f"event: end\ndata: {json.dumps({'version': after, 'finished': finished, 'reason': reason})}\n\n"


async def events(svc: GameService, limits: Limits, request: Request, gid: UUID, caller: Caller, rules: Rules,
                 cursor: Cursor, timeout: float) -> AsyncIterator[str]:
    """The stream's text, from ``cursor`` (store version, the caller's own number)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    quiet_since = loop.time()
    first = True
    told = None  # the status last sent: one is sent at once, then only when it changes for this caller
    budget = limits.stream_events  # game-events this stream may still send
    with svc.changes.watch(gid.hex) as woken:
        while True:
            if await request.is_disconnected():
                return
            woken.clear()  # before reading: a commit after this read wakes the wait below
            row = await run_in_threadpool(svc.current.index_row, gid)
            if row is None:
                return
            if first or int(row["version"]) > cursor[0]:
                entries, new_cursor, st = await run_in_threadpool(_batch, svc, gid, caller, rules, cursor)
                if len(entries) > budget:  # the cap: send up to it, then end where the client resumes
                    for e in entries[:budget]:
                        yield _event(e)
                    last = entries[budget - 1]["version"] if budget else cursor[1]
                    yield _end(last, False, "event limit")
                    return
                budget -= len(entries)
                for e in entries:
                    yield _event(e)
                cursor = new_cursor
                if st != told:  # (a step hidden from the caller changes nothing it reads: no word of it)
                    told = st
                    yield f"id: {cursor[1]}\nevent: status\ndata: {json.dumps(st)}\n\n"
                    quiet_since = loop.time()
                first = False
            if row["finished"] and int(row["version"]) <= cursor[0]:
                yield _end(cursor[1], True, "finished")
                return
            now = loop.time()
            if now > deadline:
                yield _end(cursor[1], False, "time limit")
                return
            if now - quiet_since >= KEEP_ALIVE:
                quiet_since = now
                yield ": keep-alive\n\n"
            # woken by a commit of this process, else a look at the index now and then
            # (commits of other processes); never past the deadline
            await woken_or_timeout(woken, min(FALLBACK_SECONDS, max(0.01, deadline - now)))

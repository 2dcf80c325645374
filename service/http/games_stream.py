"""The games list as a caller may read it (``GET /games``), and its live stream
(``GET /streams/games``): the list again each time it changes for that caller,
woken by commits to any game (service/http/changes.py)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

from fastapi import Request
from starlette.concurrency import run_in_threadpool

from .changes import EVERY_GAME, FALLBACK_SECONDS, woken_or_timeout
from .core import GameService
from .stream import KEEP_ALIVE

SSE_GAMES = {  # one Server-Sent Event (OpenAPI 3.2 itemSchema)
    "type": "object", "required": ["event", "data"],
    "properties": {
        "event": {"type": "string", "enum": ["games", "end"]},
        "data": {"type": "string", "contentMediaType": "application/json"},
    },
}


def listed(svc: GameService, token: str | None) -> list[dict[str, Any]]:
    """The games index as ``token``'s holder may read it: a fork not yet published only for its
    referee and the organiser; the store's version and a live game's head (both move with events
    hidden from the public) for the organiser only."""
    organiser = token is not None and svc.callers.is_organiser_token(token)
    return [dict(r, published=svc.access.published(r["game_id"]) if r.get("parent") else None,
                 version=r["version"] if organiser else None,
                 head=r["head"] if organiser or r["finished"] else None)
            for r in svc.access.listed(svc.app.games(), token)]


async def games_events(svc: GameService, request: Request, token: str | None, timeout: float) -> AsyncIterator[str]:
    """``event: games`` with the whole list at once and whenever it changes for this caller; ``event: end``
    at the time limit (the client opens the stream again)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    quiet_since = loop.time()
    sent = None
    with svc.changes.watch(EVERY_GAME) as woken:
        while True:
            if await request.is_disconnected():
                return
            woken.clear()  # before reading: a commit after this read wakes the wait below
            rows = await run_in_threadpool(listed, svc, token)
            text = json.dumps(rows, sort_keys=True)
            now = loop.time()
            if text != sent:
                sent = text
                quiet_since = now
                yield f"event: games\ndata: {text}\n\n"
            if now > deadline:
                yield f"event: end\ndata: {json.dumps({'reason': 'time limit'})}\n\n"
                return
            if now - quiet_since >= KEEP_ALIVE:
                quiet_since = now
                yield ": keep-alive\n\n"
            # woken by a commit of this process; commits of other processes: the index now and then
            await woken_or_timeout(woken, min(FALLBACK_SECONDS, max(0.01, deadline - now)))

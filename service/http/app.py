"""The HTTP JSON API (FastAPI). ``create_app(db, organiser_key)`` assembles it
from its routers (``routes_*.py``, one per concern); ``tools serve`` runs it
with uvicorn.

Status codes: 200/201 ok, 400 malformed input, 401 no or unknown credential,
403 a credential without the right (or a wrong invitation code), 404 unknown
game (or a private fork the caller may not know of), 409 stale expected
version, a taken seat or a used invitation, 413 a body over the size limit,
422 a decision the rules refuse (with the rules' reason). Nothing is appended
on any error. Errors are ``{"error", "reason"}`` (service/http/errors.py).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from service.app import Privateer
from service.logs import configure

from . import errors, routes_docs, routes_games, routes_history, routes_play, routes_reads, routes_seats
from . import routes_analysis, routes_catalogs, routes_heads, routes_pages, routes_standings, routes_tournaments
from .core import GameService
from .fast import PlayLoop
from .headers import SecurityHeaders
from .heap import settle
from .bodies import WholeBody
from .limits import Limits
from .requestlog import RequestLog
from .routes_reads import VIEWER


def create_app(db: str | None, organiser_key: str, limits: Limits | None = None, play_loop: bool = True) -> FastAPI:
    """``play_loop=False``: every request goes through the framework's routes
    (the fast path's answers are tested against theirs)."""
    limits = limits or Limits.from_env()
    svc = GameService(Privateer(db), organiser_key, limits.analysis_playouts, limits.bot_quantum)

    @asynccontextmanager
    async def lifespan(_api: FastAPI) -> AsyncIterator[None]:
        svc.bots.attach(asyncio.get_running_loop())  # the bots' steps are made on the server's loop
        yield
        svc.close()  # the steps sent are committed before the server ends

    api = routes_docs.Api(
        lifespan=lifespan,
        title="privateer",
        version="1",
        description="Referee, record and replay pirate tabletop games: seats, hidden views, live stream. "
                    "Credentials travel as `Authorization: Bearer <organiser key | referee key | seat token>`; "
                    "without one you are a spectator and see public facts only.",
        docs_url=None, redoc_url=None,  # served by routes_docs from installed files: no CDN, works offline
    )
    api.state.service = svc
    api.state.limits = limits
    errors.install(api)
    routes_docs.mount_docs(api)
    api.mount("/viewer-assets", StaticFiles(directory=VIEWER), name="viewer-assets")
    for routes in (routes_docs, routes_standings, routes_games, routes_play, routes_seats, routes_reads,
                   routes_history, routes_analysis, routes_tournaments, routes_heads, routes_catalogs, routes_pages):
        api.include_router(routes.router)
    if play_loop:
        api.add_middleware(PlayLoop, service=svc)
    api.add_middleware(WholeBody, max_body=limits.max_body,  # the play loop reads checked bodies
                       larger={"/catalogs": limits.max_catalog})
    api.add_middleware(SecurityHeaders)  # every answer carries them, refusals of a body too
    api.add_middleware(RequestLog)  # outermost: every request is logged, refusals of a body too
    return api


def app_from_env() -> FastAPI:
    """For uvicorn's worker processes (``tools serve --workers N``)."""
    configure(default_level="INFO")  # the worker's log, as ``tools serve`` set it ($PRIVATEER_LOG_FORMAT)
    api = create_app(os.environ.get("PRIVATEER_DB"), os.environ["PRIVATEER_ORGANISER_KEY"])
    settle()
    return api

"""Reading a game as the caller may see it: the board (or the replay viewer's
page for a browser), its picture, the log, a replay, the live stream."""

from __future__ import annotations

from pathlib import Path as FilePath
from typing import Annotated, Any, Optional

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import FileResponse, HTMLResponse, Response, StreamingResponse
from starlette.concurrency import run_in_threadpool

from service.kernel.errors import PrivateerError
from service.render.svg import board_svg

from . import models as m
from .pages import no_game_page
from .route_params import ERRORS, MAY, Auth, GameIdPath, Service, wants_html
from .stream import SSE_EVENT, events

VIEWER = FilePath(__file__).with_name("viewer")  # the replay viewer's page, served as files (no build step)

router = APIRouter()


@router.get("/games/{game_id}/view", response_model=m.Board, responses=ERRORS, tags=["public"], **MAY)
def view(request: Request, game_id: GameIdPath, svc: Service,
         authorization: Auth = None) -> dict[str, Any] | HTMLResponse | FileResponse:
    """The table as the caller may see it: a seat's view, the referee's, or the public one.
    A browser (asking for text/html) gets the replay viewer page instead."""
    if wants_html(request):
        try:
            svc.callers.locate(game_id, authorization)
        except PrivateerError as e:  # a person's browser: a page that says so
            return HTMLResponse(no_game_page(e.reason), status_code=e.http_status)
        return FileResponse(VIEWER / "index.html", media_type="text/html")
    gid, caller = svc.callers.who(game_id, authorization)
    return svc.reads.board(gid, caller)


@router.get("/games/{game_id}/picture", responses={**ERRORS, 200: {
                "content": {"image/svg+xml": {}}, "description": "The table as an SVG picture."}},
            response_class=Response, tags=["public"], **MAY)
def picture(game_id: GameIdPath, svc: Service, authorization: Auth = None,
            to_turn: Annotated[Optional[int], Query(ge=0, le=m.MAX_VERSION)] = None,
            to_event: Annotated[Optional[int], Query(ge=1, le=m.MAX_VERSION)] = None) -> Response:
    """The table as a picture (SVG), now or at the end of a turn (or after an event), as the caller may see it."""
    gid, caller = svc.callers.who(game_id, authorization)
    b = svc.reads.board(gid, caller, to_turn=to_turn, to_event=to_event)
    b["seat"] = caller.view_seat
    return Response(board_svg(b, svc.current.game(gid).machine.config), media_type="image/svg+xml")


@router.get("/games/{game_id}/log", response_model=m.LogPage, responses=ERRORS, tags=["public"], **MAY)
def log(game_id: GameIdPath, svc: Service, authorization: Auth = None,
        after: Annotated[int, Query(ge=0, le=m.MAX_VERSION, description="Versions after this one.")] = 0,
        limit: Annotated[int, Query(ge=1, le=1000, description="At most this many versions.")] = 200
        ) -> dict[str, Any]:
    """The events the caller may see, paged by version."""
    gid, caller = svc.callers.who(game_id, authorization)
    return svc.reads.log(gid, caller, after, limit)


@router.get("/games/{game_id}/replay", response_model=m.Board, responses=ERRORS, tags=["public"], **MAY)
def replay(game_id: GameIdPath, svc: Service, authorization: Auth = None,
           to_turn: Annotated[Optional[int], Query(ge=0, le=m.MAX_VERSION)] = None,
           to_event: Annotated[Optional[int], Query(ge=1, le=m.MAX_VERSION)] = None) -> dict[str, Any]:
    """The table at the end of a turn (or after a version), as the caller may see it."""
    gid, caller = svc.callers.who(game_id, authorization)
    return svc.reads.board(gid, caller, to_turn=to_turn, to_event=to_event)


@router.get("/games/{game_id}/stream", tags=["public"], **MAY, responses={
    **ERRORS, 200: {"content": {"text/event-stream": {"itemSchema": SSE_EVENT}},
                    "description": "Server-Sent Events: `event: game-event` (a log entry the caller may "
                                   "see, `id` its version) and `event: status` (version, to_act, finished) "
                                   "after each batch; ends with `event: end` when the game is finished "
                                   "or a limit (time, events) is reached: `{version, finished, reason}`; "
                                   "resume with `?after=version`."}})
async def stream(request: Request, game_id: GameIdPath, svc: Service, authorization: Auth = None,
                 after: Annotated[Optional[int], Query(ge=0, le=m.MAX_VERSION)] = None,
                 last_event_id: Annotated[Optional[str], Header(alias="Last-Event-ID", max_length=30,
                                                                include_in_schema=False)] = None,
                 timeout: Annotated[float, Query(gt=0, le=3600, description="Close after this many seconds.")] = 600
                 ) -> StreamingResponse:
    """Live events the caller may see (Server-Sent Events), from `after` (or Last-Event-ID)."""
    limits = request.app.state.limits
    gid, caller = await run_in_threadpool(svc.callers.who, game_id, authorization)
    start = after
    if start is None and last_event_id is not None:
        try:
            start = max(0, int(last_event_id))
        except ValueError:
            start = None
    rules = await run_in_threadpool(svc.current.rules_of, gid)
    timeout = min(timeout, limits.stream_seconds)
    # the client counts in its own numbers; the stream follows the store's versions
    cursor = (await run_in_threadpool(svc.current.store_version, gid, caller.view_seat, start), start) \
        if start else (0, 0)
    return StreamingResponse(events(svc, limits, request, gid, caller, rules, cursor, timeout),
                             media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

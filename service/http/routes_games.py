"""The games index and the creation of a game."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Query, Request
from fastapi.responses import StreamingResponse

from . import models as m
from .auth import Caller, bearer
from .bots import check_bots
from .games_stream import SSE_GAMES, games_events, listed
from .route_params import ERRORS, MAY, NEEDS, Auth, Service
from .seats import check_person_name

router = APIRouter()


@router.post("/games", response_model=m.Created, status_code=201, responses=ERRORS, tags=["organiser"], **NEEDS)
def create_game(body: m.CreateGame, svc: Service, authorization: Auth = None) -> dict[str, Any]:
    """Create a game (organiser). Returns the game's referee key, once. Seats given `bots` are taken by
    those bots at once (the service plays their turns)."""
    svc.callers.organiser(bearer(authorization))
    asked = body.model_dump()
    bots = check_bots(body.game, body.seats, asked.pop("bots"))
    for seat, name in (asked.get("players") or {}).items():
        check_person_name(name, f"players: seat {seat}")
    created = svc.games.create(asked)
    if bots:
        gid = UUID(created["game_id"])
        row = svc.current.known_row(gid, fresh=True)
        for seat, name in sorted(bots.items()):
            svc.bots.seat(gid, row, seat, name)
        created["status"] = svc.reads.status(gid, Caller("organiser"))
    return created


@router.get("/games", response_model=list[m.GameRow], responses=ERRORS, tags=["public"], **MAY)
def list_games(svc: Service, authorization: Auth = None) -> list[dict[str, Any]]:
    """The games index; a fork not yet published is listed only for its referee and the organiser."""
    return listed(svc, bearer(authorization))


@router.get("/streams/games", tags=["public"], **MAY, responses={
    **ERRORS, 200: {"content": {"text/event-stream": {"itemSchema": SSE_GAMES}},
                    "description": "Server-Sent Events: `event: games` with the games list as `GET /games` gives "
                                   "it to the caller, at once and whenever it changes; `event: end` at the time "
                                   "limit (open it again)."}})
async def games_stream(request: Request, svc: Service, authorization: Auth = None,
                       timeout: Annotated[float, Query(gt=0, le=3600, description="Close after this many "
                                                                                  "seconds.")] = 600
                       ) -> StreamingResponse:
    """The games list, live (Server-Sent Events): what `GET /games` gives the caller, again at each change."""
    limits = request.app.state.limits
    return StreamingResponse(games_events(svc, request, bearer(authorization), min(timeout, limits.stream_seconds)),
                             media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

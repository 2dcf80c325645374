"""A seat's options weighed: ``GET /games/{id}/analysis`` (service/http/analysis.py)."""

from __future__ import annotations

from typing import Annotated, Any, Optional

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from . import models as m
from .analysis import RETRY_AFTER, Busy, caller_key
from .auth import bearer
from .errors import answer
from .route_params import ERRORS, MAY, Auth, GameIdPath, Service

router = APIRouter()


@router.get("/games/{game_id}/analysis", response_model=m.Analysis, tags=["seats"], **MAY,
            responses={**ERRORS, 429: {"model": m.ErrorBody}})
async def analysis(request: Request, game_id: GameIdPath, svc: Service, authorization: Auth = None,
                   seat: Annotated[Optional[int], Query(ge=1, le=64, description=(
                       "Whose decisions (a seat's token: its own, may be omitted)."))] = None,
                   at_turn: Annotated[Optional[int], Query(ge=0, le=m.MAX_VERSION, description=(
                       "At the end of this turn."))] = None,
                   at_event: Annotated[Optional[int], Query(ge=1, le=m.MAX_VERSION, description=(
                       "After this version, in the caller's own count."))] = None,
                   before: Annotated[Optional[int], Query(ge=1, le=m.MAX_VERSION, description=(
                       "Just before this event, one of the seat's own decisions, in the caller's own count: "
                       "what were its options?"))] = None,
                   playouts: Annotated[int, Query(ge=1, description=(
                       "Playouts in all, as `tools analyse --playouts` (at most PRIVATEER_ANALYSIS_MAX_PLAYOUTS, "
                       "2000 unless set)."))] = 1000,
                   seed: Annotated[str, Query(min_length=1, max_length=100, description=(
                       "The search's seed: the same seed gives the same answer (as `tools analyse --seed`)."))] = "0"
                   ) -> dict[str, Any] | JSONResponse:
    """The decisions a seat may take at a point of the game (now, the end of a turn, after an event, or
    just before one of its own decisions),
    each in words with its estimated win rate, mean score and the playouts behind it, from that seat's
    own information (information-set Monte Carlo tree search); `tools analyse` gives the same answer
    for the same seed. A seat may ask for itself, the referee for any seat; once the game is finished,
    anyone for any seat at a point where that seat had seen nothing the asker may not read (the end
    reveals no hand and no secret choice). Refused with 403 otherwise. One analysis at a time for each
    caller (a credential, else an address): another while it runs or waits is 429 with Retry-After, as is
    any when 8 run or wait here. A client that goes away stops its search."""
    gid, caller = svc.callers.who(game_id, authorization)
    who = caller_key(bearer(authorization), request.client.host if request.client else None)
    try:
        return await svc.analyses.run(gid, caller, seat, at_turn, at_event, playouts, seed, before, who=who,
                                      leaving=request.is_disconnected)
    except Busy as e:
        refused = answer(e)
        refused.headers["Retry-After"] = str(RETRY_AFTER)
        return refused

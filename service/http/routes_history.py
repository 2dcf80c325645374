"""A game's history: its audit, a fork of it at a decision boundary, and the publication of a fork."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from . import models as m
from .auth import bearer
from .route_params import ERRORS, MAY, NEEDS, Auth, GameIdPath, Service

router = APIRouter()


@router.post("/games/{game_id}/fork", response_model=m.Created, status_code=201, responses=ERRORS,
             tags=["organiser"], **NEEDS)
def fork(game_id: GameIdPath, body: m.ForkGame, svc: Service, authorization: Auth = None) -> dict[str, Any]:
    """A new game whose history is this one's up to a decision boundary (organiser). The fork is
    private (unlisted, 404 to anyone but the organiser and its referee) until published."""
    svc.callers.organiser(bearer(authorization))
    gid, _, _ = svc.callers.locate(game_id, authorization)
    return svc.games.fork(gid, body.at_turn, body.at_event)


@router.post("/games/{game_id}/publish", response_model=m.Published, responses=ERRORS, tags=["referee"], **NEEDS)
def publish(game_id: GameIdPath, svc: Service, authorization: Auth = None) -> dict[str, Any]:
    """Make a fork public (organiser or the fork's referee): listed and readable by anyone. Refused
    while a game it was forked from is unfinished."""
    gid, _, row = svc.callers.referee(game_id, authorization)
    return svc.games.publish(gid, row)


@router.get("/games/{game_id}/audit", response_model=m.AuditOut, responses=ERRORS, tags=["public"], **MAY)
def audit(game_id: GameIdPath, svc: Service, authorization: Auth = None) -> dict[str, Any]:
    """Chain, chance and rules re-checked; a violation's details only for the referee."""
    gid, caller = svc.callers.who(game_id, authorization)
    return svc.audits.audit(gid, caller)

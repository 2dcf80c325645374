"""The play loop: a game's status, the decisions open to a seat, a decision,
the referee's chance outcomes (table mode) and corrections.

The play loop's routes (status, legal, decisions, chance) are declared ``async``: their
work is a few hundred microseconds in memory plus at most one local commit, so they
run on the event loop itself; a hop to the thread pool and back costs more than that
(measured: bench/http_bench.py). The plain form of three of them (status, legal, a
decision) is answered before the framework's routing (service/http/fast.py) by the
same functions the routes wrap: ``status_of``, ``legal_of`` and ``decide_on``.
"""

from __future__ import annotations

from typing import Annotated, Any, Optional

from fastapi import APIRouter, Query

from . import models as m
from .core import GameService
from .route_params import ERRORS, MAY, NEEDS, Auth, GameIdPath, IdemKey, Service

router = APIRouter()


def status_of(svc: GameService, game_id: str, authorization: str | None) -> dict[str, Any]:
    gid, caller = svc.callers.who(game_id, authorization)
    return svc.reads.status(gid, caller)


def legal_of(svc: GameService, game_id: str, authorization: str | None, seat: int | None) -> dict[str, Any]:
    gid, caller = svc.callers.who(game_id, authorization)
    return svc.reads.legal(gid, caller, seat)


async def decide_on(svc: GameService, game_id: str, authorization: str | None, body: m.SubmitDecision,
                    key: str | None) -> dict[str, Any]:
    gid, caller = svc.callers.who(game_id, authorization)
    return await svc.steps.decide(gid, caller, body.decision, body.expected_version, body.seat, key, body.signature,
                                  body.referee_signature)


@router.get("/games/{game_id}", response_model=m.Status, responses=ERRORS, tags=["public"], **MAY)
async def game_status(game_id: GameIdPath, svc: Service, authorization: Auth = None) -> dict[str, Any]:
    return status_of(svc, game_id, authorization)


@router.get("/games/{game_id}/legal", response_model=m.Legal, responses=ERRORS, tags=["seats"], **NEEDS)
async def legal(game_id: GameIdPath, svc: Service, authorization: Auth = None,
                seat: Annotated[Optional[int], Query(ge=1, le=64, description="Referee only.")] = None
                ) -> dict[str, Any]:
    """The decisions the caller's seat may submit now, each exactly as /decisions takes it."""
    return legal_of(svc, game_id, authorization, seat)


@router.post("/games/{game_id}/decisions", response_model=m.Appended, status_code=201, responses=ERRORS,
             tags=["seats"], **NEEDS)
async def decide(game_id: GameIdPath, body: m.SubmitDecision, svc: Service, authorization: Auth = None,
                 idempotency_key: IdemKey = None) -> dict[str, Any]:
    """Submit the caller's seat's decision against the version it was made on."""
    return await decide_on(svc, game_id, authorization, body, idempotency_key)


@router.post("/games/{game_id}/chance", response_model=m.Appended, status_code=201, responses=ERRORS,
             tags=["referee"], **NEEDS)
async def chance(game_id: GameIdPath, body: m.EnterChance, svc: Service, authorization: Auth = None,
                 idempotency_key: IdemKey = None) -> dict[str, Any]:
    """Table mode: the referee enters the awaited die roll, card or pick."""
    gid, caller = svc.callers.who(game_id, authorization)
    return await svc.steps.enter_chance(gid, caller, body.outcome, body.expected_version, idempotency_key,
                                        words=body.words)


@router.post("/games/{game_id}/corrections", response_model=m.Appended, status_code=201, responses=ERRORS,
             tags=["referee"], **NEEDS)
def correct(game_id: GameIdPath, body: m.Correct, svc: Service, authorization: Auth = None) -> dict[str, Any]:
    """Retract every step after `to_version`, or (table mode) the last `outcomes` entered in the
    current step, the setup's deal included, or replace the outcome at `place` in it, on the record:
    the retracted events stay in the log (marked `retracted`), replay and audit follow the corrected
    line. `words` are entered in place of the retracted outcomes, in the same append."""
    gid, caller = svc.callers.who(game_id, authorization)
    return svc.steps.correct(gid, caller, body)

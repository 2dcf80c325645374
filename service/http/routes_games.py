"""The games index and the creation of a game."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from fastapi import APIRouter

from . import models as m
from .auth import Caller, bearer
from .bots import check_bots
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
    token = bearer(authorization)
    organiser = token is not None and svc.callers.is_organiser_token(token)
    # the store's version counts events hidden from the public: only the organiser sees it here
    return [dict(r, published=svc.access.published(r["game_id"]) if r.get("parent") else None,
                 version=r["version"] if organiser else None)
            for r in svc.access.listed(svc.app.games(), token)]

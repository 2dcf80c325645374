"""Seats: invitations, joining with one, and the start of a game that waits for its seats."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path

from . import models as m
from .auth import Caller
from .route_params import ERRORS, NEEDS, Auth, GameIdPath, Service

router = APIRouter()


@router.post("/games/{game_id}/invitations", response_model=m.Invitation, status_code=201, responses=ERRORS,
             tags=["referee"], **NEEDS)
def invite(game_id: GameIdPath, body: m.Invite, svc: Service, authorization: Auth = None) -> dict[str, Any]:
    """Invite a player to a seat (organiser or the game's referee): a one-time code for that
    seat, shown once (stored hashed), optionally naming the player the seat is reserved for."""
    gid, _, row = svc.callers.referee(game_id, authorization)
    return svc.seats.invite(gid, row, body.seat, body.player)


@router.get("/games/{game_id}/invitations", response_model=list[m.InvitationRow], responses=ERRORS,
            tags=["referee"], **NEEDS)
def invitations(game_id: GameIdPath, svc: Service, authorization: Auth = None) -> list[dict[str, Any]]:
    """The game's invitations (never their codes) and whether each was used."""
    gid, _, _ = svc.callers.referee(game_id, authorization)
    return svc.seats.invitations(gid)


@router.post("/games/{game_id}/seats/{seat}/join", response_model=m.Joined, status_code=201, responses=ERRORS,
             tags=["seats"])
def join_seat(game_id: GameIdPath, seat: Annotated[int, Path(ge=1, le=64)], body: m.JoinSeat,
              svc: Service) -> dict[str, Any]:
    """Take a seat with its invitation code: returns the seat's token, once (stored hashed); the
    code is used up in the same transaction. Optional entropy is mixed into the seed's key (only
    before the setup: games created with wait_for_seats). The setup runs when the last seat of a
    waiting game is taken."""
    gid, row, _ = svc.callers.locate(game_id, None, code=body.code)
    return svc.seats.join(gid, row, seat, body.code, body.entropy, body.player)


@router.post("/games/{game_id}/seats/{seat}/key", response_model=m.Status, status_code=201, responses=ERRORS,
             tags=["seats"], **NEEDS)
def register_seat_key(game_id: GameIdPath, seat: Annotated[int, Path(ge=1, le=64)], body: m.SeatKey, svc: Service,
                      authorization: Auth = None) -> dict:
    """The seat's own Ed25519 public key (its token only): a public `SeatKeyRegistered`
    event; a seat with a key already (a new device) registers another only with `handover`, its
    old key's signature of the new one. From then on every decision of the seat must carry its signature (`signature`,
    spec/SPEC.md §6a), which the service checks: nobody else can decide in its name."""
    gid, caller = svc.callers.who(game_id, authorization)
    svc.seats.register_key(gid, caller, seat, body.public_key, body.handover)
    return svc.reads.status(gid, caller)


@router.post("/games/{game_id}/referee/key", response_model=m.Status, status_code=201, responses=ERRORS,
             tags=["referee"], **NEEDS)
def register_referee_key(game_id: GameIdPath, body: m.RefereeKey, svc: Service, authorization: Auth = None) -> dict:
    """A table's referee's own Ed25519 public key (the referee's key only; once; a table-mode game's):
    a public `RefereeKeyRegistered` event. From then on every entry of the referee (a seat's decision,
    its own step, a correction) must carry its signature (`referee_signature`, spec/SPEC.md §9a)."""
    gid, caller, _ = svc.callers.referee(game_id, authorization)
    svc.seats.register_referee_key(gid, body.public_key)
    return svc.reads.status(gid, caller)


@router.post("/games/{game_id}/seats/{seat}/bot", response_model=m.Status, status_code=201, responses=ERRORS,
             tags=["referee"], **NEEDS)
def seat_bot(game_id: GameIdPath, seat: Annotated[int, Path(ge=1, le=64)], body: m.SeatBot, svc: Service,
             authorization: Auth = None) -> dict[str, Any]:
    """Seat a bot (organiser or the game's referee): it takes the seat as a person would (named
    "<bot> (bot)" for everyone to see) and the service plays its turns, each from the seat's own view."""
    gid, _, row = svc.callers.referee(game_id, authorization)
    svc.bots.seat(gid, row, seat, body.bot)
    return svc.reads.status(gid, Caller("referee"))


@router.post("/games/{game_id}/start", response_model=m.Started, responses=ERRORS, tags=["referee"], **NEEDS)
def start_game(game_id: GameIdPath, svc: Service, authorization: Auth = None) -> dict[str, Any]:
    """Run the setup of a game created with wait_for_seats (referee or organiser). A game that has
    started already (by its last seat's join, at its creation or an earlier start) is said so:
    200, `already_started`, and nothing is appended."""
    gid, _, _ = svc.callers.referee(game_id, authorization)
    return svc.seats.start(gid)

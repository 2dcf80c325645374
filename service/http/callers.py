"""Who is calling, for a request: the organiser, a game's referee, a seat or a
spectator, from the Authorization header; and the game the request names,
located before any question of rights (404 first, as for a private fork the
caller may not know of)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from service.app import Privateer
from service.kernel.errors import BadInput
from service.kernel.machine import Machine

from .access import Access
from .auth import Caller, Forbidden, Unauthorized, bearer, is_organiser, token_hash

CACHE_ROLES = 100_000


class Callers:
    def __init__(self, app: Privateer, access: Access, organiser_key: str):
        self.app = app
        self.access = access
        self.organiser_key = organiser_key
        self._roles: dict[tuple[str, str], str] = {}

    def organiser(self, token: str | None) -> Caller:
        if token is None:
            raise Unauthorized("this needs the organiser key (Authorization: Bearer <key>)")
        if not is_organiser(token, self.organiser_key):
            raise Forbidden("only the organiser may do this")
        return Caller("organiser")

    def is_organiser_token(self, token: str | None) -> bool:
        return is_organiser(token, self.organiser_key)

    def caller(self, gid: UUID, token: str | None) -> Caller:
        if token is None:
            return Caller("spectator")
        if is_organiser(token, self.organiser_key):
            return Caller("organiser")
        key = (gid.hex, token_hash(token))
        role = self._roles.get(key)
        if role is None:
            role = self.app.recorder.select_role(*key)
            if role is None:
                raise Unauthorized(f"this token is not valid for game {gid.hex}")
            if len(self._roles) >= CACHE_ROLES:
                self._roles.clear()
            self._roles[key] = role  # a credential, once granted, never changes
        if role == "referee":
            return Caller("referee")
        return Caller("seat", int(role.split(":", 1)[1]))

    def locate(self, game_id: str, authorization: str | None,
               code: str | None = None) -> tuple[UUID, dict[str, Any], str | None]:
        """The game (404 before any auth question, and for a private fork the
        caller may not know of), its index row and the caller's token."""
        try:
            token, bad = bearer(authorization), None
        except Unauthorized as e:
            token, bad = None, e
        gid, row = self.access.locate(game_id, token, code)
        if bad is not None:
            raise bad
        return gid, row, token

    def who_row(self, game_id: str, authorization: str | None) -> tuple[UUID, Caller, dict[str, Any]]:
        """The game, the caller and the game's index row."""
        gid, row, token = self.locate(game_id, authorization)
        caller = self.caller(gid, token)
        if caller.role == "seat" and row.get("parent"):
            self.access.guard_seats(row, "no seat reads")
        return gid, caller, row

    def who(self, game_id: str, authorization: str | None) -> tuple[UUID, Caller]:
        gid, caller, _ = self.who_row(game_id, authorization)
        return gid, caller

    def referee(self, game_id: str, authorization: str | None) -> tuple[UUID, Caller, dict[str, Any]]:
        """``who_row`` for what only the game's referee (or the organiser) may do."""
        gid, caller, row = self.who_row(game_id, authorization)
        if not caller.is_referee:
            if caller.role == "spectator":
                raise Unauthorized("this needs the referee key or the organiser key")
            raise Forbidden("only the referee or the organiser may do this")
        return gid, caller, row


def seat_for(caller: Caller, seat: int | None, machine: Machine, acting: bool) -> int:
    """The seat a request is for: a seat token's own, or the one the referee names
    (and, to act, only in a table-mode game)."""
    if caller.role == "seat" and caller.seat is not None:  # a seat's caller always has its seat
        if seat is not None and seat != caller.seat:
            raise Forbidden(f"this token is seat {caller.seat}'s, not seat {seat}'s")
        return caller.seat
    if caller.role == "spectator":
        raise Unauthorized("this needs a seat token (Authorization: Bearer <token>)")
    if seat is None:
        raise BadInput("the referee must say which seat (seat)")
    if acting and not machine.k["table"]:
        raise Forbidden("in a game that draws its own chance, only a seat's token may decide for it")
    machine.check_seat(seat)
    return seat

"""What a caller may read of a game: its status, the board, the decisions open
to a seat, the log; every number in the caller's own count (README: versions
are counted by each caller)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Any
from uuid import UUID

from service.app import Privateer
from service.kernel.errors import BadInput
from service.kernel.machine import Machine
from service.views import board as board_view
from service.views import card_namer, log_entries
from service.views import status as status_view

from .access import Access
from .auth import Caller
from .bot_seats import BotSeats
from .callers import seat_for
from .current import Current


SEATED_KEPT = 4096  # games whose seats taken are kept (``_seated``)


class Reads:
    def __init__(self, app: Privateer, current: Current, access: Access, bot_seats: BotSeats):
        self.app = app
        self.current = current
        self.access = access
        self.bot_seats = bot_seats
        # game id -> (the version read at, its seats taken, bots, joined players): ``_seated``
        self._seated: OrderedDict[str, tuple[int, list[int], dict[str, str], dict[str, str]]] = OrderedDict()

    def status(self, gid: UUID, caller: Caller, folded: tuple[Machine, int, bytes] | None = None) -> dict[str, Any]:
        machine, version, head = folded or self.current.fold(gid)
        st = status_view(gid, machine, version, head, seat=caller.view_seat)
        st["started"] = machine.k["steps"] > 0
        if caller.view_seat is not None and not machine.finished:
            # a live game's head moves with events hidden from this reader: its changes would tell
            # when a hidden step was made, and how many (SPEC §6, §13: the seat's receipts carry
            # its heads; every head is fed once the game ends)
            st["head"] = None
        if st["awaiting_chance"] is not None and not caller.is_referee:
            st["awaiting_chance"] = {"kind": st["awaiting_chance"].get("kind")}
        st["published"] = self.access.published(gid.hex) if st.get("fork") else None
        _, taken, bots, joined = self._seated_at(gid, version, int(st["seats"]))
        st["seats_taken"], st["bots"] = list(taken), dict(bots)
        st["players"] = {**joined, **(st.get("players") or {})}
        return st

    def _seated_at(self, gid: UUID, version: int, seats: int) -> tuple[int, list[int], dict[str, str], dict[str, str]]:
        """The seats taken, the bots' seats and the players who joined; once every seat is
        taken, read once for each version of the game (no seat is given up: the roles only
        grow; a joined player's name, written just after the join, is read again at the
        next step at the latest)."""
        kept = self._seated.get(gid.hex)
        if kept is not None and kept[0] == version:
            self._seated.move_to_end(gid.hex)
            return kept
        roles = self.app.recorder.select_roles(gid.hex)
        taken = sorted(int(r.split(":", 1)[1]) for r in roles if r.startswith("seat:"))
        # the seats the service's bots play, from the seats' records (never from a name)
        bots = {str(seat): bot for seat, bot in sorted(self.bot_seats.of(gid, roles).items())}
        # the players named by the invitations used to join, beside those named at creation
        joined = {str(r["seat"]): r["player"] for r in self.app.recorder.select_invitations(gid.hex)
                  if r.get("used") is not None and r.get("player")}
        kept = (version, taken, bots, joined)
        if len(taken) < seats:
            return kept
        self._seated[gid.hex] = kept
        if len(self._seated) > SEATED_KEPT:
            self._seated.popitem(last=False)
        return kept

    def board(self, gid: UUID, caller: Caller, to_turn: int | None = None,
              to_event: int | None = None) -> dict[str, Any]:
        if to_turn is not None and to_event is not None:
            raise BadInput("give to_turn or to_event, not both")
        seat = caller.view_seat
        if to_turn is None and to_event is None:
            machine, version, _ = self.current.fold(gid)
        else:
            if to_event is not None:  # the caller counts in its own numbers
                to_event = self.current.store_version(gid, seat, to_event)
            machine, version, _ = self.app.fold(gid, to_turn=to_turn, to_event=to_event)
        b = board_view(gid, machine, version, seat)
        b["viewer"] = caller.viewer
        b["seat"] = caller.seat
        return b

    def legal(self, gid: UUID, caller: Caller, seat: int | None) -> dict[str, Any]:
        machine, version, _ = self.current.fold(gid)
        seat = seat_for(caller, seat, machine, acting=False)
        return {"game_id": gid.hex, "seat": seat, "version": machine.seen(caller.view_seat, version),
                "to_act": machine.to_act(), "decisions": machine.offered(seat)}

    def log(self, gid: UUID, caller: Caller, after: int, limit: int) -> dict[str, Any]:
        """Paged in the caller's own numbers (a seat's or the public's: see service/views.py)."""
        rules = self.current.rules_of(gid)
        seat = caller.view_seat
        stored: Sequence[Any]
        if seat is None:
            stored = list(self.app.events.get(gid, gt=after, limit=limit + 1))
            more = len(stored) > limit
            current = self.current.game(gid).machine
            entries = log_entries(rules, stored[:limit], None, players=current.config.get("players"),
                                  names=card_namer(current))
            return {"game_id": gid.hex, "version": self.current.version_of(gid), "events": entries,
                    "next_after": entries[-1]["version"] if more and entries else None}
        stored = self.app.stored_events(gid)
        machine, version, _ = self.current.fold(gid)
        entries = log_entries(rules, stored, seat, after=after, limit=limit + 1, names=card_namer(machine))
        more = len(entries) > limit
        entries = entries[:limit]
        return {"game_id": gid.hex, "version": machine.seen(seat, version), "events": entries,
                "next_after": entries[-1]["version"] if more and entries else None}

"""Taking the seats of a game: invitations (one-time codes, stored hashed),
joining with one (the seat's credential, the code used up and any entropy in
one transaction), and the start of a game that waits for its seats."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.persistence import IntegrityError, RecordConflictError

from service.app import Privateer
from service.kernel.errors import BadInput, IllegalDecision, StaleVersion
from service.kernel.machine import Ev, Machine
from service.kernel.text import player_name
from service.referee_key import key_event as referee_key_event
from service.seat_keys import AlreadyRegistered, key_event

from .access import Access
from .auth import Caller, Conflict, Forbidden, new_token, token_hash
from .checks import now
from .current import Current
from .reads import Reads
from .steps import Steps

JOIN_ATTEMPTS = 5
BEFORE_SETUP = ("GameCreated", "EntropyAdded")  # the events of a game waiting for its seats
BOT_LABEL = re.compile(r"\(\s*bot\b[^()]*\)\s*$", re.IGNORECASE)  # "ismcts (bot)", "random (bot, seat 2)"


def check_person_name(name: str | None, where: str = "player") -> None:
    """A person's name may not end with the label the service gives the seats its bots play
    (``(bot)``, service/http/bots.py): that label is reserved, so no person passes for a bot.
    (Which seats are bots is read from how each was taken, never from a name: ``BotSeats``, service/http/bot_seats.py.)"""
    if name and BOT_LABEL.search(name):
        raise BadInput(f"{where}: {name.strip()!r} ends with '(bot)', the label of the seats the service's bots "
                       "play; give a person's name")


class Seats:
    def __init__(self, app: Privateer, current: Current, access: Access, reads: Reads, steps: Steps):
        self.app = app
        self.current = current
        self.access = access
        self.reads = reads
        self.steps = steps

    def invite(self, gid: UUID, row: dict[str, Any], seat: int, player: str) -> dict[str, Any]:
        """A one-time code for one seat (the caller is the organiser or the referee)."""
        if not 1 <= seat <= int(row["seats"]):
            raise BadInput(f"seat must be a number from 1 to {row['seats']}")
        player = player_name(player, "the invitation's player name") if player.strip() else ""
        check_person_name(player)
        self.access.guard_seats(row, "no invitations")
        if f"seat:{seat}" in self.app.recorder.select_roles(gid.hex):
            raise Conflict(f"seat {seat} of game {gid.hex} is already taken")
        code = new_token("inv")
        self.app.recorder.insert_service_rows(invitation=(gid.hex, token_hash(code), seat, player, now()))
        return {"game_id": gid.hex, "seat": seat, "player": player, "code": code}

    def invitations(self, gid: UUID) -> list[dict[str, Any]]:
        return [{"seat": int(r["seat"]), "player": r["player"], "created": r["created"], "used": r["used"]}
                for r in self.app.recorder.select_invitations(gid.hex)]

    def join(self, gid: UUID, row: dict[str, Any], seat: int, code: str, entropy: str | None,
             player: str = "") -> dict[str, Any]:
        raw = _entropy(entropy) if entropy is not None else None
        player = player_name(player, "the joining player's name") if (player or "").strip() else ""
        check_person_name(player)
        invitation = self.app.recorder.select_invitation(gid.hex, token_hash(code))
        if invitation is None:
            raise Forbidden(f"this invitation code is not valid for game {gid.hex}")
        if int(invitation["seat"]) != seat:
            raise Forbidden(f"this invitation is for seat {invitation['seat']}, not seat {seat}")
        self.access.guard_seats(row, "no seats may be taken")
        for attempt in range(JOIN_ATTEMPTS):
            try:
                token, machine = self._join_once(gid, seat, raw, token_hash(code), invitation["player"] or player)
                break
            except StaleVersion:
                # another seat's entropy (or the start) was appended first: look again
                if attempt == JOIN_ATTEMPTS - 1:
                    raise
        self.start_if_full(gid, machine)
        if player and not invitation["player"]:
            self.app.recorder.insert_service_rows(invitation_player=(player, gid.hex, token_hash(code)))
            invitation = dict(invitation, player=player)
        st = self.reads.status(gid, Caller("seat", seat))
        return {"game_id": gid.hex, "seat": seat, "player": invitation["player"], "token": token,
                "version": st["version"],
                "entropy_added": entropy is not None, "status": st}

    def start_if_full(self, gid: UUID, machine: Machine) -> None:
        """A waiting game whose seats are all taken now: its setup runs."""
        if machine.k["steps"] == 0:
            taken = [r for r in self.app.recorder.select_roles(gid.hex) if r.startswith("seat:")]
            if len(taken) >= machine.k["seats"]:
                try:
                    self.start(gid)
                except StaleVersion:
                    pass  # someone else started it

    def _taken(self, gid: UUID, role: str, code_hash: str) -> None:
        """Conflict if the seat is taken or the invitation used."""
        if role in self.app.recorder.select_roles(gid.hex):
            raise Conflict(f"{role.replace(':', ' ')} of game {gid.hex} is already taken")
        inv = self.app.recorder.select_invitation(gid.hex, code_hash)
        if inv is not None and inv["used"] is not None:
            raise Conflict("this invitation was already used")

    def _join_once(self, gid: UUID, seat: int, raw: bytes | None, code_hash: str,
                   player: str = "") -> tuple[str, Machine]:
        """The seat taken (its credential, the invitation used) with what joining appends, in
        one transaction: the seat's entropy, if given, and its name (``Privateer.name_seat``)."""
        game = self.current.working_copy(gid)
        machine = game.machine
        machine.check_seat(seat)
        role = f"seat:{seat}"
        self._taken(gid, role, code_hash)
        token = new_token("seat")
        when = now()
        cred = (gid.hex, role, token_hash(token), when)
        use = (gid.hex, code_hash, role, when)  # consumed with the credential, in its transaction
        events: list[Ev] = []
        if raw is not None:
            if machine.k["table"]:
                raise BadInput("a table-mode game draws no chance from a seed: it takes no entropy")
            if machine.k["steps"] > 0 or machine.k["counter"] > 0:
                raise IllegalDecision("entropy can only be added before any chance is drawn: create the "
                                      "game with wait_for_seats and join before it starts")
            ev = Ev("EntropyAdded", 0, "all", {"seat": seat, "entropy": raw.hex()})
            machine.apply(ev)
            events.append(ev)
        events += self.app.name_seat(game, seat, player)
        if not events:
            try:
                self.app.recorder.insert_credential(*cred, invitation_use=use)
            except (IntegrityError, RecordConflictError):
                self._taken(gid, role, code_hash)
                raise Conflict(f"seat {seat} of game {gid.hex} was taken at the same moment") from None
            return token, machine
        game.record(events)
        try:
            self.steps.save(game, credential=cred, invitation_use=use)  # seat, invitation, entropy, name: one transaction
        except StaleVersion:
            self._taken(gid, role, code_hash)
            raise
        return token, machine

    def register_key(self, gid: UUID, caller: Caller, seat: int, key: str, handover: str | None = None) -> None:
        """The seat's own public key, as a public ``SeatKeyRegistered`` event (service/seat_keys.py):
        only the seat's own token registers it; another one later only with its old key's ``handover``."""
        if caller.role != "seat" or caller.seat != seat:
            raise Forbidden(f"only seat {seat}'s own token registers its key")
        game = self.current.working_copy(gid)
        try:
            event = key_event(game.machine, seat, key, gid, handover)
        except AlreadyRegistered:
            return  # the seat's key already (a new device registering after its handover): nothing appended
        game.record([event])
        self.steps.save(game)

    def register_referee_key(self, gid: UUID, key: str) -> None:
        """A table's referee's own public key, as a public ``RefereeKeyRegistered`` event
        (service/referee_key.py); the caller is the referee."""
        game = self.current.working_copy(gid)
        game.record([referee_key_event(game.machine, key)])
        self.steps.save(game)

    def start(self, gid: UUID) -> dict:
        """Run the setup of a waiting game; a game started already is said so
        (``already_started``, ``note``: how it started), and nothing is appended."""
        game = self.current.working_copy(gid)
        if game.machine.k["steps"] == 0:
            game.record(game.machine.setup(self.app.chance_for(game)))
            try:
                self.steps.save(game)
                return dict(self.reads.status(gid, Caller("referee")), already_started=False,
                            note="the setup ran now")
            except StaleVersion:  # a join (entropy, the last seat) or another start came first
                if self.current.working_copy(gid).machine.k["steps"] == 0:
                    raise
        return dict(self.reads.status(gid, Caller("referee")), already_started=True,
                    note=self._how_started(gid, game.machine.k["seats"]))

    def _how_started(self, gid: UUID, seats: int) -> str:
        """Whether the last seat's join ran the setup (every seat's invitation
        was used before the setup's first event), or it ran before that."""
        setup = next((e for e in self.app.stored_events(gid) if e.type not in BEFORE_SETUP), None)
        used = [_when(r["used"]) for r in self.app.recorder.select_invitations(gid.hex) if r.get("used")]
        if setup is not None and len(used) >= seats and max(used) <= _when(setup.timestamp):
            return "the game had already started: its last seat's join ran the setup"
        return "the game had already started: its setup ran before its seats were all taken " \
               "(at its creation, or at an earlier start)"


def _when(stamp: object) -> datetime:
    return stamp if isinstance(stamp, datetime) else datetime.fromisoformat(str(stamp))


def _entropy(text: str) -> bytes:
    try:
        raw = bytes.fromhex(text)
    except ValueError:
        raise BadInput("entropy must be hex text") from None
    if not 1 <= len(raw) <= 64:
        raise BadInput("entropy must be 1 to 64 bytes")
    return raw

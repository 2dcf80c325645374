"""The service's commands and queries, without HTTP: what every route calls.

Every command either appends (and, when the caller gave an idempotency key,
records its first result in the same transaction) or raises a typed error
before anything is written.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import re
import threading
from collections import OrderedDict
from datetime import datetime, timezone
from uuid import UUID, uuid4

import msgpack
from eventsourcing.persistence import IntegrityError, RecordConflictError

from service.aggregate import Game
from service.app import Privateer
from service.kernel.chance import SeededChance, TableChance
from service.kernel.errors import BadInput, IllegalDecision, PrivateerError, StaleVersion, UnknownGame
from service.kernel.local import created_event
from service.kernel.machine import Ev
from service.kernel.rules import get_rules
from service.views import board as board_view
from service.views import card_namer, log_entries
from service.views import status as status_view

from .access import Access, request_rows
from .changes import Changes
from .committer import Committer
from .auth import Caller, Conflict, Forbidden, Unauthorized, is_organiser, new_token, token_hash

MAX_DEPTH = 32
INT_MIN, UINT_MAX = -(2**63), 2**64 - 1
CACHE_GAMES = 2000
CACHE_ROLES = 100_000
JOIN_ATTEMPTS = 5
AUDIT_CACHE = 500
REDACTED = "details of a failed audit are for the referee"


def check_json(value, what: str, depth: int = 0):
    """Refuse what JSON allows but the store cannot keep or give back
    (NaN, infinities, integers beyond 64 bits, very deep nesting)."""
    if depth > MAX_DEPTH:
        raise BadInput(f"{what} is nested too deeply")
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return
    if isinstance(value, int):
        if not INT_MIN <= value <= UINT_MAX:
            raise BadInput(f"{what} holds an integer beyond 64 bits")
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise BadInput(f"{what} holds a number that is not finite")
        return
    if isinstance(value, list):
        for v in value:
            check_json(v, what, depth + 1)
        return
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                raise BadInput(f"{what} has a key that is not a string")
            check_json(v, what, depth + 1)
        return
    raise BadInput(f"{what} holds a {type(value).__name__}, which JSON does not have")


def fingerprint(obj) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _now() -> str:
    return datetime.now(timezone.utc).isoformat()


class Replayed(Exception):
    """Not an error: the first result of an idempotent request."""

    def __init__(self, status: int, body: dict):
        self.status = status
        self.body = body


class GameService:
    def __init__(self, app: Privateer, organiser_key: str):
        self.app = app
        self.organiser_key = organiser_key
        self._rules: dict[UUID, object] = {}
        self._lock = threading.Lock()
        # the latest committed aggregate of each game: a cache checked against the store's
        # version (the games index, written with the events) on every use
        self._cache: OrderedDict[UUID, Game] = OrderedDict()
        self._roles: dict[tuple[str, str], str] = {}
        self.changes = Changes()  # wakes this process's live streams
        self._listening = self.changes.listen(app.db)  # and, on PostgreSQL, every process's commits
        self.access = Access(app, organiser_key)
        # audit reports by (game, version, head): callers other than the referee get the cached
        # report of the current head, so anonymous calls do not re-run a whole game each time
        self._audits: OrderedDict[tuple, dict] = OrderedDict()
        self._audit_locks: dict[UUID, threading.Lock] = {}
        self.audit_runs = 0
        # the play loop's steps: committed off the event loop, a game's one after another
        self.committer = Committer(app)
        self._deciding: dict[UUID, list] = {}

    def close(self) -> None:
        """Stop listening for other processes' commits (PostgreSQL); the
        steps sent committed first."""
        if self._listening is not None:
            self._listening.set()
        self.committer.close()

    # who --------------------------------------------------------------------
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

    def rules_of(self, gid: UUID):
        rules = self._rules.get(gid)
        if rules is None:
            rules = self.app.load(gid, version=1).machine.rules
            self._rules[gid] = rules
        return rules

    # the current state ----------------------------------------------------------
    def current(self, gid: UUID) -> Game:
        """The game as committed now (read-only: do not change it)."""
        row = self.index_row(gid)
        if row is None:
            raise UnknownGame(f"no game with id {gid.hex}")
        with self._lock:
            hit = self._cache.get(gid)
            if hit is not None and hit.version == int(row["version"]):
                self._cache.move_to_end(gid)
                return hit
        game = self.app.load(gid)
        self._remember(game)
        return game

    def _remember(self, game: Game) -> None:
        with self._lock:
            old = self._cache.get(game.id)
            if old is None or old.version <= game.version:
                self._cache[game.id] = game
                self._cache.move_to_end(game.id)
            while len(self._cache) > CACHE_GAMES:
                self._cache.popitem(last=False)

    def working_copy(self, gid: UUID) -> Game:
        """A private copy of the current game to decide on and save."""
        base = self.current(gid)
        game = object.__new__(type(base))
        game.__dict__.update(base.__dict__)
        game.machine = base.machine.copy()
        game._pending_events = []
        return game

    def save(self, game: Game, **rows) -> None:
        Pending(self, game, self.app.prepare(game, **rows), None, None).run()

    def fold(self, gid: UUID):
        game = self.current(gid)
        return game.machine, game.version, game.head

    # reads --------------------------------------------------------------------
    def status(self, gid: UUID, caller: Caller, folded=None) -> dict:
        machine, version, head = folded or self.fold(gid)
        st = status_view(gid, machine, version, head, seat=caller.view_seat)
        st["started"] = machine.k["steps"] > 0
        if st["awaiting_chance"] is not None and not caller.is_referee:
            st["awaiting_chance"] = {"kind": st["awaiting_chance"].get("kind")}
        st["published"] = self.access.published(gid.hex) if st.get("fork") else None
        st["seats_taken"] = sorted(int(r.split(":", 1)[1]) for r in self.app.recorder.select_roles(gid.hex)
                                   if r.startswith("seat:"))
        # the players named by the invitations used to join, beside those named at creation
        joined = {str(r["seat"]): r["player"] for r in self.app.recorder.select_invitations(gid.hex)
                  if r.get("used") is not None and r.get("player")}
        st["players"] = {**joined, **(st.get("players") or {})}
        return st

    def board(self, gid: UUID, caller: Caller, to_turn=None, to_event=None) -> dict:
        if to_turn is not None and to_event is not None:
            raise BadInput("give to_turn or to_event, not both")
        seat = caller.view_seat
        if to_turn is None and to_event is None:
            machine, version, _ = self.fold(gid)
        else:
            if to_event is not None:  # the caller counts in its own numbers
                to_event = self.store_version(gid, seat, to_event)
            machine, version, _ = self.app.fold(gid, to_turn=to_turn, to_event=to_event)
        b = board_view(gid, machine, version, seat)
        b["viewer"] = caller.viewer
        b["seat"] = caller.seat
        return b

    def legal(self, gid: UUID, caller: Caller, seat: int | None) -> dict:
        machine, version, _ = self.fold(gid)
        seat = self._seat_for(caller, seat, machine, acting=False)
        return {"game_id": gid.hex, "seat": seat, "version": machine.seen(caller.view_seat, version),
                "to_act": machine.to_act(), "decisions": machine.legal(seat)}

    def log(self, gid: UUID, caller: Caller, after: int, limit: int) -> dict:
        """Paged in the caller's own numbers (a seat's or the public's: see service/views.py)."""
        rules = self.rules_of(gid)
        seat = caller.view_seat
        if seat is None:
            stored = list(self.app.events.get(gid, gt=after, limit=limit + 1))
            more = len(stored) > limit
            current = self.current(gid).machine
            entries = log_entries(rules, stored[:limit], None, players=current.config.get("players"),
                                  names=card_namer(current))
            return {"game_id": gid.hex, "version": self.version_of(gid), "events": entries,
                    "next_after": entries[-1]["version"] if more and entries else None}
        stored = self.app.stored_events(gid)
        machine, version, _ = self.fold(gid)
        entries = log_entries(rules, stored, seat, after=after, limit=limit + 1, names=card_namer(machine))
        more = len(entries) > limit
        entries = entries[:limit]
        return {"game_id": gid.hex, "version": machine.seen(seat, version), "events": entries,
                "next_after": entries[-1]["version"] if more and entries else None}

    def store_version(self, gid: UUID, seat: int | None, n: int) -> int:
        """The store version of the ``n``-th event ``seat`` may read (None: the referee)."""
        if seat is None or n <= 0:
            return n
        count = 0
        for e in self.app.stored_events(gid):
            if e.visible_to == "all" or (seat and isinstance(e.visible_to, list) and seat in e.visible_to):
                count += 1
                if count == n:
                    return e.originator_version
        raise BadInput(f"there is no event {n} for this caller (it may read {count})")

    def version_of(self, gid: UUID) -> int:
        rows = self.app.recorder.select_games(prefix=gid.hex)
        if not rows:
            raise UnknownGame(f"no game with id {gid.hex}")
        return int(rows[0]["version"])

    def index_row(self, gid: UUID, fresh: bool = False) -> dict | None:
        memo = None if fresh else request_rows.get()
        if memo is not None and gid.hex in memo:
            return memo[gid.hex]
        rows = self.app.recorder.select_games(prefix=gid.hex)
        return rows[0] if rows else None

    @staticmethod
    def _audit_key(gid: UUID, row: dict) -> tuple:
        head = row.get("head")
        if isinstance(head, (bytearray, memoryview)):
            head = bytes(head)
        return gid, int(row["version"]), head

    def audit(self, gid: UUID, caller: Caller) -> dict:
        """The referee (or organiser) always gets a fresh run; anyone else the
        report cached for the game's current (version, head), run once."""
        from service.audit import audit_game

        row = self.index_row(gid)
        if row is None:
            raise UnknownGame(f"no game with id {gid.hex}")
        key = self._audit_key(gid, row)
        report = None if caller.is_referee else self._audits.get(key)
        if report is None:
            with self._lock:
                lock = self._audit_locks.setdefault(gid, threading.Lock())
            with lock:  # one run per game at a time; those who waited take its result
                report = None if caller.is_referee else self._audits.get(key)
                if report is None:
                    report = audit_game(self.app, gid).as_dict()
                    with self._lock:
                        self.audit_runs += 1
                    after = self.index_row(gid, fresh=True)
                    if after is not None and self._audit_key(gid, after) == key:
                        with self._lock:
                            self._audits[key] = report
                            while len(self._audits) > AUDIT_CACHE:
                                self._audits.popitem(last=False)
        report = dict(report)
        if report["first_bad"] is not None and not caller.is_referee:
            report["first_bad"] = dict(report["first_bad"], reason=REDACTED)
        return report

    # commands -----------------------------------------------------------------
    def create(self, body: dict) -> dict:
        rules = get_rules(body["game"])
        check_json(body.get("options") or {}, "options")
        created, seed = created_event(rules, body["seats"], body.get("options") or {}, body.get("table", False),
                                      None, body.get("name", ""), body.get("tournament", ""),
                                      players=body.get("players") or {})
        gid = uuid4()
        agg = Game.start(gid, created)
        if not body.get("wait_for_seats"):
            agg.record(agg.machine.setup(TableChance([]) if created.data["table"] else SeededChance(seed, [], 0)))
        referee_key = new_token("ref")
        self.app._save(agg, secret=seed, credential=(gid.hex, "referee", token_hash(referee_key), _now()))
        return {"game_id": gid.hex, "referee_key": referee_key, "status": self.status(gid, Caller("organiser"))}

    def fork(self, gid: UUID, at_turn: int | None, at_event: int | None) -> dict:
        from service.history import fork

        self.version_of(gid)
        new_id = fork(self.app, gid, at_turn, at_event)
        referee_key = new_token("ref")
        self.app.recorder.insert_credential(new_id.hex, "referee", token_hash(referee_key), _now())
        return {"game_id": new_id.hex, "referee_key": referee_key, "status": self.status(new_id, Caller("organiser"))}

    # seats: invitations -------------------------------------------------------------
    def invite(self, gid: UUID, row: dict, seat: int, player: str) -> dict:
        """A one-time code for one seat (the caller is the organiser or the referee)."""
        if not 1 <= seat <= int(row["seats"]):
            raise BadInput(f"seat must be a number from 1 to {row['seats']}")
        self.access.guard_seats(row, "no invitations")
        if f"seat:{seat}" in self.app.recorder.select_roles(gid.hex):
            raise Conflict(f"seat {seat} of game {gid.hex} is already taken")
        code = new_token("inv")
        self.app.recorder.insert_service_rows(invitation=(gid.hex, token_hash(code), seat, player, _now()))
        return {"game_id": gid.hex, "seat": seat, "player": player, "code": code}

    def invitations(self, gid: UUID) -> list[dict]:
        return [{"seat": int(r["seat"]), "player": r["player"], "created": r["created"], "used": r["used"]}
                for r in self.app.recorder.select_invitations(gid.hex)]

    def publish(self, gid: UUID, row: dict) -> dict:
        if not row.get("parent"):
            raise BadInput(f"game {gid.hex} is not a fork: it is public already")
        reason = self.access.unfinished_ancestor(row)
        if reason is not None:
            raise Forbidden(f"fork {gid.hex} cannot be published yet: {reason}")
        if not self.access.published(gid.hex):
            try:
                self.app.recorder.insert_service_rows(published=(gid.hex, _now()))
            except (IntegrityError, RecordConflictError):
                pass  # published at the same moment by another request
        return {"game_id": gid.hex, "published": True}

    def join(self, gid: UUID, row: dict, seat: int, code: str, entropy: str | None, player: str = "") -> dict:
        raw = self._entropy(entropy) if entropy is not None else None
        player = (player or "").strip()
        if player and re.match(r"^seat \d+$", player):
            raise BadInput(f"{player!r} names a seat, not a player: give the player's name")
        invitation = self.app.recorder.select_invitation(gid.hex, token_hash(code))
        if invitation is None:
            raise Forbidden(f"this invitation code is not valid for game {gid.hex}")
        if int(invitation["seat"]) != seat:
            raise Forbidden(f"this invitation is for seat {invitation['seat']}, not seat {seat}")
        self.access.guard_seats(row, "no seats may be taken")
        for attempt in range(JOIN_ATTEMPTS):
            try:
                token, machine = self._join_once(gid, seat, raw, token_hash(code))
                break
            except StaleVersion:
                # another seat's entropy (or the start) was appended first: look again
                if attempt == JOIN_ATTEMPTS - 1:
                    raise
        if machine.k["steps"] == 0:
            taken = [r for r in self.app.recorder.select_roles(gid.hex) if r.startswith("seat:")]
            if len(taken) >= machine.k["seats"]:
                try:
                    self.start(gid)
                except (Conflict, StaleVersion):
                    pass  # someone else started it
        if player and not invitation["player"]:
            self.app.recorder.insert_service_rows(invitation_player=(player, gid.hex, token_hash(code)))
            invitation = dict(invitation, player=player)
        st = self.status(gid, Caller("seat", seat))
        return {"game_id": gid.hex, "seat": seat, "player": invitation["player"], "token": token,
                "version": st["version"],
                "entropy_added": entropy is not None, "status": st}

    def _taken(self, gid: UUID, role: str, code_hash: str) -> None:
        """Conflict if the seat is taken or the invitation used."""
        if role in self.app.recorder.select_roles(gid.hex):
            raise Conflict(f"{role.replace(':', ' ')} of game {gid.hex} is already taken")
        inv = self.app.recorder.select_invitation(gid.hex, code_hash)
        if inv is not None and inv["used"] is not None:
            raise Conflict("this invitation was already used")

    def _join_once(self, gid: UUID, seat: int, raw: bytes | None, code_hash: str):
        game = self.working_copy(gid)
        machine = game.machine
        machine.check_seat(seat)
        role = f"seat:{seat}"
        self._taken(gid, role, code_hash)
        token = new_token("seat")
        now = _now()
        cred = (gid.hex, role, token_hash(token), now)
        use = (gid.hex, code_hash, role, now)  # consumed with the credential, in its transaction
        if raw is None:
            try:
                self.app.recorder.insert_credential(*cred, invitation_use=use)
            except (IntegrityError, RecordConflictError):
                self._taken(gid, role, code_hash)
                raise Conflict(f"seat {seat} of game {gid.hex} was taken at the same moment") from None
            return token, machine
        if machine.k["table"]:
            raise BadInput("a table-mode game draws no chance from a seed: it takes no entropy")
        if machine.k["steps"] > 0 or machine.k["counter"] > 0:
            raise IllegalDecision("entropy can only be added before any chance is drawn: create the "
                                  "game with wait_for_seats and join before it starts")
        ev = Ev("EntropyAdded", 0, "all", {"seat": seat, "entropy": raw.hex()})
        machine.apply(ev)
        game.record([ev])
        try:
            self.save(game, credential=cred, invitation_use=use)  # seat, invitation, entropy: one transaction
        except StaleVersion:
            self._taken(gid, role, code_hash)
            raise
        return token, machine

    @staticmethod
    def _entropy(text: str) -> bytes:
        try:
            raw = bytes.fromhex(text)
        except ValueError:
            raise BadInput("entropy must be hex text") from None
        if not 1 <= len(raw) <= 64:
            raise BadInput("entropy must be 1 to 64 bytes")
        return raw

    def start(self, gid: UUID) -> dict:
        game = self.working_copy(gid)
        if game.machine.k["steps"] > 0:
            raise Conflict("the game has already started")
        game.record(game.machine.setup(self.app.chance_for(game)))
        self.save(game)
        return self.status(gid, Caller("referee"))

    def _seat_for(self, caller: Caller, seat: int | None, machine, acting: bool) -> int:
        if caller.role == "seat":
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

    def _idempotent(self, gid: UUID, caller: Caller, key: str | None, request: dict):
        if key is None:
            return None, None
        if not 1 <= len(key) <= 200:
            raise BadInput("Idempotency-Key must be 1 to 200 characters")
        fp = fingerprint(request)
        self._replay_if_recorded(gid.hex, caller.scope, key, fp)
        return key, fp

    def _replay_if_recorded(self, gid_hex: str, scope: str, key: str, fp: str) -> None:
        """A request with this idempotency key already committed: its answer again (``Replayed``)."""
        rec = self.app.recorder.select_idempotency(gid_hex, scope, key)
        if rec is not None:
            self._replay(rec, fp)

    @staticmethod
    def _replay(rec: dict, fp: str):
        if rec["fingerprint"] != fp:
            raise IllegalDecision("this Idempotency-Key was already used for a different request")
        raise Replayed(int(rec["status"]), json.loads(rec["body"]))

    @staticmethod
    def _check_version(game: Game, caller: Caller, expected_version: int | None) -> None:
        """``expected_version`` is in the caller's own numbers (a seat's count)."""
        if expected_version is None:
            return
        have = game.machine.seen(caller.view_seat, game.version)
        if expected_version != have:
            raise StaleVersion(f"expected version {expected_version}, the game is at version {have}")

    def _pending(self, gid, caller, game, events, key, fp, decided: int | None = None) -> "Pending":
        """The step's transaction and its answer, for ``_committed``."""
        game.record(events)
        pending = list(game._pending_events)
        m = game.machine
        seat = caller.view_seat
        start = 0
        if seat is not None:
            start = m.seen(seat, 0) - sum(1 for e in events if e.visible_to(seat or -1))
        body = {"game_id": gid.hex, "version": m.seen(seat, game.version), "turn": m.turn(),
                "to_act": m.to_act(), "finished": m.finished,
                "events": log_entries(m.rules, pending, seat, start=start, players=m.config.get("players"),
                                      names=card_namer(m))}
        # the deciding seat's receipt: the signed head after its step (kept with an idempotent answer)
        body["receipt"] = self.app.receipt(game, decided) if decided is not None else None
        if key is None:
            return Pending(self, game, self.app.prepare(game), body, None)
        row = (gid.hex, caller.scope, key, fp, 201, json.dumps(body))
        return Pending(self, game, self.app.prepare(game, idempotency=row), body, (gid.hex, caller.scope, key, fp))

    async def _committed(self, gid: UUID, make) -> dict:
        """``make()`` (a ``Pending`` step, made on the loop) committed off the
        loop (``Committer``), its answer. A game's steps are made one after
        another, each on the last one committed: a step waits for the one
        before it to be committed (several seats may act at once)."""
        entry = self._deciding.get(gid)
        if entry is None:
            entry = self._deciding[gid] = [asyncio.Lock(), 0]
        entry[1] += 1
        waited = entry[0].locked()
        try:
            async with entry[0]:
                if waited:  # the index row this request read is older than the steps it waited for
                    request_rows.set(None)
                pending = make()
                try:
                    await self.committer.commit(pending.prepared)
                except StaleVersion:
                    pending.stale()
                    raise
                return pending.answer()
        finally:
            entry[1] -= 1
            if not entry[1]:
                del self._deciding[gid]

    async def decide(self, gid: UUID, caller: Caller, decision, expected_version: int, seat: int | None,
                     key: str | None) -> dict:
        """A seat's decision, on the event loop (``_committed``)."""
        return await self._committed(gid, lambda: self._decision(gid, caller, decision, expected_version, seat, key))

    def _decision(self, gid: UUID, caller: Caller, decision, expected_version: int, seat: int | None,
                  key: str | None) -> "Pending":
        check_json(decision, "the decision")
        try:
            msgpack.packb(decision, use_bin_type=True)
        except (TypeError, ValueError, OverflowError):
            raise BadInput("the decision cannot be stored") from None
        game = self.working_copy(gid)
        seat = self._seat_for(caller, seat, game.machine, acting=True)
        key, fp = self._idempotent(gid, caller, key, {"op": "decide", "seat": seat, "decision": decision,
                                                       "expected_version": expected_version})
        self._check_version(game, caller, expected_version)
        try:
            events = game.machine.decide(seat, decision, self.app.chance_for(game))
        except PrivateerError:
            raise
        except Exception as e:
            if decision not in game.machine.legal(seat):
                raise IllegalDecision(f"not one of the decisions seat {seat} may make now "
                                      f"(see /legal)") from None
            raise e
        return self._pending(gid, caller, game, events, key, fp, decided=seat)

    def correct(self, gid: UUID, caller: Caller, to_version: int, reason: str, expected_version: int) -> dict:
        """The referee retracts the last step(s), on the record (service/kernel/corrections.py)."""
        if not caller.is_referee:
            if caller.role == "spectator":
                raise Unauthorized("a correction needs the referee key")
            raise Forbidden("only the referee corrects a game")
        events = self.app.correct(gid, to_version, reason, expected_version)
        request_rows.set(None)
        self.changes.committed(gid.hex)
        game = self.current(gid)
        m = game.machine
        stored = self.app.last_stored(gid, len(events))
        return {"game_id": gid.hex, "version": game.version, "turn": m.turn(), "to_act": m.to_act(),
                "finished": m.finished, "events": log_entries(m.rules, stored, None, players=m.config.get("players"),
                                                              names=card_namer(m))}

    async def enter_chance(self, gid: UUID, caller: Caller, outcome, expected_version: int, key: str | None,
                           words: list | None = None) -> dict:
        """Table mode: the referee's entry of the awaited chance, on the event loop (``_committed``)."""
        return await self._committed(gid, lambda: self._chance(gid, caller, outcome, expected_version, key, words))

    def _chance(self, gid: UUID, caller: Caller, outcome, expected_version: int, key: str | None,
                words: list | None) -> "Pending":
        if not caller.is_referee:
            if caller.role == "spectator":
                raise Unauthorized("entering chance needs the referee key")
            raise Forbidden("only the referee enters chance outcomes")
        if (outcome is None) == (words is None):
            raise BadInput("give the outcome, or words for several")
        check_json(outcome if words is None else words, "the outcome")
        game = self.working_copy(gid)
        key, fp = self._idempotent(gid, caller, key, {"op": "chance", "outcome": outcome, "words": words,
                                                       "expected_version": expected_version})
        self._check_version(game, caller, expected_version)
        if not game.machine.k["table"]:
            raise BadInput("this game draws its own chance from its committed seed; "
                           "only table-mode games take chance outcomes")
        try:
            events = game.machine.enter_chance(outcome) if words is None else game.machine.enter_words(words)
        except PrivateerError:
            raise
        except Exception as e:
            raise BadInput(f"the outcome does not fit what is awaited ({type(e).__name__})") from None
        return self._pending(gid, caller, game, events, key, fp)


class Pending:
    """A step made and not yet committed: its transaction (``prepared``, for
    ``Privateer.write``) and the answer it gives once committed. ``run``
    commits it here and now. ``idempotency``: ``(game id, scope, key,
    fingerprint)`` of a request that gave an idempotency key, else None."""

    __slots__ = ("svc", "game", "prepared", "body", "idempotency")

    def __init__(self, svc: GameService, game: Game, prepared, body: dict | None, idempotency: tuple | None):
        self.svc, self.game, self.prepared, self.body, self.idempotency = svc, game, prepared, body, idempotency

    def run(self) -> dict | None:
        try:
            self.svc.app.write(self.prepared)
        except StaleVersion:
            self.stale()
            raise
        return self.answer()

    def answer(self) -> dict | None:
        """After the commit: the caches, the live streams, the answer."""
        svc = self.svc
        svc.app.committed(self.prepared)
        request_rows.set(None)  # what this request read of the index is behind now
        svc._remember(self.game)
        svc.changes.committed(self.game.id.hex)
        return self.body

    def stale(self) -> None:
        """After a stale version: if the same request (its idempotency key)
        was committed first, its answer (``Replayed``)."""
        if self.idempotency is not None:
            self.svc._replay_if_recorded(*self.idempotency)

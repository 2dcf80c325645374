"""Steps of play: a seat's decision, the referee's chance outcomes (table mode)
and corrections. A step is made on a private copy of the game, checked against
the version the caller saw (in its own count), and committed with its answer
(and, given an idempotency key, that answer recorded in the same transaction),
or refused before anything is written."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from uuid import UUID

import msgpack

from service.aggregate import Game
from service.app import Prepared, Privateer
from service.kernel.errors import BadInput, IllegalDecision, PrivateerError, StaleVersion
from service.kernel.machine import Ev
from service.kernel.text import referee_decision
from service.logs import logger
from service.referee_key import RefereeSign, given, referee_fields, with_referee
from service.seat_keys import signed_fields
from service.views import card_namer, log_entries

from .access import request_rows
from .auth import Caller, Forbidden, Unauthorized
from .callers import seat_for
from .changes import Changes
from .checks import check_json, fingerprint
from .committer import Committer
from .current import Current
from .models import Correct

log = logger(__name__)


class Replayed(Exception):
    """Not an error: the first result of an idempotent request."""

    def __init__(self, status: int, body: dict[str, Any]):
        self.status = status
        self.body = body


class Steps:
    def __init__(self, app: Privateer, current: Current, changes: Changes, committer: Committer):
        self.app = app
        self.current = current
        self.changes = changes
        # the play loop's steps: committed off the event loop, a game's one after another
        self.committer = committer
        self._deciding: dict[UUID, list[Any]] = {}  # [its lock, the steps waiting for it]

    def save(self, game: Game, **rows: Any) -> None:
        """Commit a step made on a working copy, here and now (service rows in its transaction)."""
        Pending(self, game, self.app.prepare(game, **rows), {}, None).run()

    # idempotency --------------------------------------------------------------
    def _idempotent(self, gid: UUID, caller: Caller, key: str | None,
                    request: dict[str, Any]) -> tuple[str | None, str | None]:
        """The key and the request's fingerprint; a request already committed under the key
        is answered again here (``Replayed``)."""
        key, fp = self._keyed(key, request)
        if key is not None:
            self.replay_if_recorded(gid.hex, caller.scope, key, fp)
        return key, fp

    @staticmethod
    def _keyed(key: str | None, request: dict[str, Any]) -> tuple[str | None, str | None]:
        """The key and the request's fingerprint, without looking whether the key was used:
        the play loop's steps do not read the store for it before every step. A request
        already committed under its key cannot be committed again (the key's row is unique,
        written in the step's transaction, and the step's versions are taken), so it ends in
        a refusal, and a refused request with a key looks for its first answer then
        (``_or_replayed``, ``Pending.stale``)."""
        if key is None:
            return None, None
        if not 1 <= len(key) <= 200:
            raise BadInput("Idempotency-Key must be 1 to 200 characters")
        return key, fingerprint(request)

    @contextmanager
    def _or_replayed(self, gid: UUID, caller: Caller, key: str | None, fp: str | None) -> Iterator[None]:
        """Around a step's making: a refusal of a request whose key was used is that
        request's first answer (``Replayed``), or the refusal of a key used for another request."""
        try:
            yield
        except Exception:
            if key is not None:
                self.replay_if_recorded(gid.hex, caller.scope, key, fp)
            raise

    def replay_if_recorded(self, gid_hex: str, scope: str, key: str, fp: str | None) -> None:
        """A request with this idempotency key already committed: its answer again (``Replayed``)."""
        rec = self.app.recorder.select_idempotency(gid_hex, scope, key)
        if rec is not None:
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
            whose = f" in seat {caller.seat}'s count (the version its own status, /legal and stream give)" \
                if caller.role == "seat" else ""
            raise StaleVersion(f"expected version {expected_version}, the game is at version {have}{whose}")

    # a step and its answer ---------------------------------------------------------
    def _pending(self, gid: UUID, caller: Caller, game: Game, events: list[Ev], key: str | None, fp: str | None,
                 decided: int | None = None) -> Pending:
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
        # the deciding seat's receipt (the signed head after its step, signed with it); none for other steps
        prepared = self.app.prepare(game, receipt=decided)
        body["receipt"] = prepared.receipt
        if key is None:
            return Pending(self, game, prepared, body, None)
        prepared.kwargs["idempotency"] = (gid.hex, caller.scope, key, fp, 201, json.dumps(body))
        return Pending(self, game, prepared, body, (gid.hex, caller.scope, key, fp))

    async def _committed(self, gid: UUID, make: Callable[[], Pending]) -> dict[str, Any]:
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

    # decisions ----------------------------------------------------------------------
    async def decide(self, gid: UUID, caller: Caller, decision: dict, expected_version: int, seat: int | None,
                     key: str | None, signature: str | None = None, referee_signature: str | None = None) -> dict:
        """A seat's decision, on the event loop (``_committed``); ``signature``: the seat's
        own (service/seat_keys.py), required of a seat that registered a key; ``referee_signature``:
        a table's referee's (service/referee_key.py), required once it registered a key."""
        return await self._committed(gid, lambda: self._decision(gid, caller, decision, expected_version, seat, key,
                                                                 signature, referee_signature))

    def _decision(self, gid: UUID, caller: Caller, decision: dict, expected_version: int, seat: int | None,
                  key: str | None, signature: str | None = None, referee_signature: str | None = None) -> "Pending":
        check_json(decision, "the decision")
        try:
            msgpack.packb(decision, use_bin_type=True)
        except (TypeError, ValueError, OverflowError):
            raise BadInput("the decision cannot be stored") from None
        game = self.current.working_copy(gid)
        seat = seat_for(caller, seat, game.machine, acting=True)
        key, fp = self._keyed(key, {"op": "decide", "seat": seat, "decision": decision,
                                         "expected_version": expected_version})
        with self._or_replayed(gid, caller, key, fp):
            self._check_version(game, caller, expected_version)
            signed = signed_fields(gid, game.machine, game.version, seat, decision, signature)
            signed = with_referee(signed, referee_fields(gid, game.machine, game.version, game.head, seat, decision,
                                                         _given(referee_signature), seat_signed=signed is not None))
            try:
                # a seat's decision as it reads its list (copies of one face: service/kernel/copies.py)
                events = game.machine.decide(seat, decision, self.app.chance_for(game), read=not caller.is_referee,
                                             signed=signed)
            except PrivateerError:
                raise
            except Exception as e:
                if decision not in game.machine.legal(seat):
                    raise IllegalDecision(f"not one of the decisions seat {seat} may make now "
                                          f"(see /legal)") from None
                raise e
        return self._pending(gid, caller, game, events, key, fp, decided=seat)

    # the referee's steps ------------------------------------------------------------------
    async def referee(self, gid: UUID, caller: Caller, decision: dict[str, Any], expected_version: int | None,
                      key: str | None, referee_signature: str | None = None) -> dict[str, Any]:
        """A referee's step (a penalty the rules name, a note on the record: ``Machine.referee``),
        against the version it was made on, on the event loop (``_committed``). ``caller``: the
        referee (``Callers.referee``)."""
        return await self._committed(gid, lambda: self._referee(gid, caller, decision, expected_version, key,
                                                                referee_signature))

    def _referee(self, gid: UUID, caller: Caller, decision: dict[str, Any], expected_version: int | None,
                 key: str | None, referee_signature: str | None = None) -> Pending:
        check_json(decision, "the decision")
        game = self.current.working_copy(gid)
        key, fp = self._idempotent(gid, caller, key, {"op": "referee", "decision": decision,
                                                      "expected_version": expected_version})
        self._check_version(game, caller, expected_version)
        decision = referee_decision(decision)
        signed = referee_fields(gid, game.machine, game.version, game.head, 0, decision, _given(referee_signature))
        events = game.machine.referee(decision, self.app.chance_for(game), signed=signed)
        return self._pending(gid, caller, game, events, key, fp)

    # chance (table mode) --------------------------------------------------------------
    async def enter_chance(self, gid: UUID, caller: Caller, outcome: Any, expected_version: int, key: str | None,
                           words: list[Any] | None = None) -> dict[str, Any]:
        """Table mode: the referee's entry of the awaited chance, on the event loop (``_committed``)."""
        return await self._committed(gid, lambda: self._chance(gid, caller, outcome, expected_version, key, words))

    def _chance(self, gid: UUID, caller: Caller, outcome: Any, expected_version: int, key: str | None,
                words: list[Any] | None) -> Pending:
        if not caller.is_referee:
            if caller.role == "spectator":
                raise Unauthorized("entering chance needs the referee key")
            raise Forbidden("only the referee enters chance outcomes")
        if (outcome is None) == (words is None):
            raise BadInput("give the outcome, or words for several")
        check_json(outcome if words is None else words, "the outcome")
        game = self.current.working_copy(gid)
        key, fp = self._keyed(key, {"op": "chance", "outcome": outcome, "words": words,
                                         "expected_version": expected_version})
        with self._or_replayed(gid, caller, key, fp):
            self._check_version(game, caller, expected_version)
            if not game.machine.k["table"]:
                raise BadInput("this game draws its own chance from its committed seed; "
                               "only table-mode games take chance outcomes")
            try:
                events = game.machine.enter_chance(outcome) if words is None else game.machine.enter_words(words)
            except PrivateerError:
                raise
            except (TypeError, ValueError, KeyError, IndexError, AttributeError) as e:
                # an outcome of a shape the rules cannot take (anything else is a bug: answered 500, logged)
                log.warning("an outcome of a shape the rules cannot take: refused", exc_info=True,
                            extra={"game_id": gid.hex})
                raise BadInput(f"the outcome does not fit what is awaited ({type(e).__name__})") from None
        return self._pending(gid, caller, game, events, key, fp)

    # corrections ----------------------------------------------------------------------
    def correct(self, gid: UUID, caller: Caller, body: Correct) -> dict[str, Any]:
        """The referee retracts the last step(s), or the last outcome(s) of the current step, on the
        record (service/kernel/corrections.py); ``body``: ``models.Correct``."""
        if not caller.is_referee:
            if caller.role == "spectator":
                raise Unauthorized("a correction needs the referee key")
            raise Forbidden("only the referee corrects a game")
        given = [k for k in ("to_version", "outcomes", "place") if getattr(body, k) is not None]
        if len(given) != 1:
            raise BadInput("give one of to_version (whole steps), outcomes or place (outcomes of the current step)")
        words = body.words or []
        if words:
            check_json(words, "words")
        if body.to_version is not None:
            if words:
                raise BadInput("to_version retracts whole steps: enter outcomes afterwards with POST /chance")
            events = self.app.correct(gid, body.to_version, body.reason, body.expected_version, said="to_version",
                                      referee=_given(body.referee_signature))
        elif body.outcomes is not None:
            events = self.app.retract_outcomes(gid, body.outcomes, body.reason, body.expected_version, words,
                                               said="to_version", referee=_given(body.referee_signature))
        else:
            assert body.place is not None  # exactly one of the three is given (above)
            events = self.app.replace_outcome(gid, body.place, words, body.reason, body.expected_version,
                                              said="to_version", referee=_given(body.referee_signature))
        request_rows.set(None)
        self.changes.committed(gid.hex)
        game = self.current.game(gid)
        m = game.machine
        stored = self.app.last_stored(gid, len(events))
        return {"game_id": gid.hex, "version": game.version, "turn": m.turn(), "to_act": m.to_act(),
                "finished": m.finished, "events": log_entries(m.rules, stored, None, players=m.config.get("players"),
                                                              names=card_namer(m))}


class Pending:
    """A step made and not yet committed: its transaction (``prepared``, for
    ``Privateer.write``) and the answer it gives once committed. ``run``
    commits it here and now. ``idempotency``: ``(game id, scope, key,
    fingerprint)`` of a request that gave an idempotency key, else None. A step saved
    here and now (``Steps.save``) answers nothing: ``{}``."""

    __slots__ = ("steps", "game", "prepared", "body", "idempotency")

    def __init__(self, steps: Steps, game: Game, prepared: Prepared, body: dict[str, Any],
                 idempotency: tuple[str, str, str, str | None] | None):
        self.steps, self.game, self.prepared, self.body, self.idempotency = steps, game, prepared, body, idempotency

    def run(self) -> dict[str, Any]:
        try:
            self.steps.app.write(self.prepared)
        except StaleVersion:
            self.stale()
            raise
        return self.answer()

    def answer(self) -> dict[str, Any]:
        """After the commit: the caches, the live streams, the answer (its receipt the one
        committed: signed again with the head if a rotation made it out of date)."""
        steps = self.steps
        if self.body.get("receipt") is not None:
            self.body["receipt"] = self.prepared.receipt
        steps.app.committed(self.prepared)
        request_rows.set(None)  # what this request read of the index is behind now
        steps.current.remember(self.game)
        steps.changes.committed(self.game.id.hex)
        return self.body

    def stale(self) -> None:
        """After a stale version: if the same request (its idempotency key)
        was committed first, its answer (``Replayed``)."""
        if self.idempotency is not None:
            self.steps.replay_if_recorded(*self.idempotency)


def _given(signature: str | None) -> RefereeSign | None:
    """A referee's signature sent with its entry (service/referee_key.py), if any."""
    return given(signature) if signature is not None else None

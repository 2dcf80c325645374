"""The application: create games, take decisions and chance outcomes, read
games back. Persistence is the ``eventsourcing`` Application with our
MessagePack transcoder and indexed recorder."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Any, cast
from uuid import UUID, uuid4

import msgpack

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import DomainEventProtocol
from eventsourcing.persistence import IntegrityError, RecordConflictError, StoredEvent, Transcoder
from eventsourcing.utils import get_topic

from event_store.chain import iso
from event_store.codec import EXT_DATETIME, MsgPackTranscoder, pack
from event_store.index import IndexRow, games_listed
from event_store.signing import KeyFile, Signer, key_file_path
from event_store.store import resolve_db, store_env
from service.aggregate import Envelope, Game
from service.logs import logger
from service.snapshots import (CatalogUnknown, SnapshotOutdated, created_catalog, events_after, fold_start,
                               project_game, snapshot_interval as snapshot_interval_setting)
from service.kernel.chance import SeededChance, TableChance
from service.kernel.corrections import line_of, outcome_places, places_said, retracted_versions, step_outcomes
from service.kernel.corrections import setup_end as first_point
from service.kernel.errors import BadInput, IllegalDecision, StaleVersion, UnknownGame
from service.kernel.local import check_players, created_event, positioned
from service.kernel.text import reason as reason_typed
from service.kernel.text import referee_decision
from service.kernel.machine import STEP_STARTS, Ev, Machine
from service.kernel.rules import catalog_digest, remember_catalog
from service.kernel.games import get_rules
from service.referee_key import RefereeSign, referee_fields, with_referee
from service.referee_key import key_event as referee_key_event
from service.seat_keys import key_event, signed_fields
from service.views import status as status_view

if TYPE_CHECKING:
    from event_store.store import IndexedRecorder


log = logger(__name__)
# the events saved through Privateer.save's own mapping (class_version > 1, plain attributes)
_TOPICS: dict[type, tuple[str, int]] = {cls: (get_topic(cls), cls.class_version) for cls in (Game.Created, Game.Recorded)}


class Prepared:
    """One step's transaction, ready to write (``Privateer.prepare``)."""

    __slots__ = ("games", "rows", "kwargs", "snapshots", "head", "receipt")

    def __init__(self, games: Iterable[Game], rows: list[StoredEvent], kwargs: dict[str, Any],
                 snapshots: list[StoredEvent], head: tuple | None = None):
        self.games, self.rows, self.kwargs, self.snapshots = games, rows, kwargs, snapshots
        self.head = head  # the service's signed head of the step (a privateer_signatures row), first of ``signatures``
        self.receipt: dict[str, Any] | None = None  # the deciding seat's, signed with the head (``prepare``'s ``receipt``)


class Privateer(Application[UUID]):
    name = "privateer"
    recorder: IndexedRecorder

    def __init__(self, db: str | None = None, snapshot_interval: int | None = None):
        self.db = resolve_db(db)
        self._seeds: dict[UUID, bytes] = {}  # game id -> its secret seed (``chance_for``)
        env = store_env(self.db)
        # Snapshots every N events (PRIVATEER_SNAPSHOT_INTERVAL, default 100, 0 = off):
        # a replay cache only, see service/snapshots.py.
        self.snapshot_interval = snapshot_interval_setting(snapshot_interval)
        if self.snapshot_interval:
            env["IS_SNAPSHOTTING_ENABLED"] = "y"  # ``_snapshot_row`` takes them, in the step's transaction
        super().__init__(env=env)
        # the store's signing key: every step's head is signed; its private half is in the key file, never the store
        self.signer = Signer(self.recorder, KeyFile(key_file_path(self.db)))

    def construct_transcoder(self) -> Transcoder:
        return cast("Transcoder", MsgPackTranscoder())  # the library's interface, duck-typed (event_store/codec.py)

    # ids ----------------------------------------------------------------------
    def resolve_id(self, game_id: str) -> UUID:
        """A full game id, or a unique prefix of at least 6 characters."""
        text = (game_id or "").strip().lower().replace("-", "")
        if len(text) == 32:
            try:
                return UUID(text)
            except ValueError:  # not hexadecimal: tried as a prefix, then refused below
                pass
        if len(text) >= 6 and all(ch in "0123456789abcdef" for ch in text):
            rows = self.recorder.select_games(prefix=text)
            if len(rows) == 1:
                return UUID(rows[0]["game_id"])
            if len(rows) > 1:
                raise BadInput(f"game id prefix {game_id!r} is ambiguous ({len(rows)} games)")
        if 0 < len(text) < 6 and all(ch in "0123456789abcdef" for ch in text):
            raise BadInput(f"give 6 or more characters of the game id (got {game_id!r})")
        if len(text) != 32 and not all(ch in "0123456789abcdef" for ch in text):
            raise UnknownGame(f"no game with id {game_id!r}: a game id is 32 hexadecimal characters "
                              "(a unique prefix of 6 or more will do; `tools games` lists them)")
        raise UnknownGame(f"no game with id {game_id!r}")

    # loading ------------------------------------------------------------------
    def load(self, game_id: UUID, version: int | None = None) -> Game:
        failed: Exception | None = None
        # the games' projector (service/snapshots.py), as the repository applies it to a Game's events
        project: Callable[[Game | None, Iterable[Envelope]], Game | None] = project_game
        try:
            try:
                game = self.repository.get(game_id, version=version, projector_func=project)
            except CatalogUnknown:  # its snapshot left out a catalog this process does not hold yet
                self._hold_catalog(game_id)
                game = self.repository.get(game_id, version=version, projector_func=project)
        except AggregateNotFoundError:
            raise UnknownGame(f"no game with id {game_id}") from None
        except SnapshotOutdated:  # taken by an older build: fold the events themselves
            log.debug("snapshot from an older build: folding the events", extra={"game_id": game_id.hex})
            game = None
        except Exception as e:
            # folding every event in order can fail past a correction (a retracted step
            # left the state the later steps do not fit): fold along the line instead
            log.debug("the fold in order failed: folding along the line", exc_info=True,
                      extra={"game_id": game_id.hex})
            game, failed = None, e
        if game is None or game.machine.kernel_state.get("corrections"):
            # a corrected game folds along its line, from its events (snapshots may lie off it)
            try:
                game = Game.along_line(self.stored_events(game_id, lte=version))
            except Exception as e:  # the line does not fold either: raised, with the first failure as its cause
                if failed is not None:
                    raise e from failed
                raise
            if game is None:
                raise UnknownGame(f"no game with id {game_id}") from None
            if failed is not None and not game.machine.kernel_state.get("corrections"):
                # no correction explains it: a bug (in the rules, a snapshot or the store), worked around
                log.warning("the game failed to load (%s); loaded along its line instead", type(failed).__name__,
                            exc_info=failed, extra={"game_id": game_id.hex})
        return game

    def _hold_catalog(self, game_id: UUID) -> None:
        """The catalog of the game's ``GameCreated``, held by the digest computed here."""
        cat = created_catalog(self, game_id)
        remember_catalog(catalog_digest(cat), cat)

    def stored_events(self, game_id: UUID, lte: int | None = None) -> list[Envelope]:
        """The game's events as stored (envelopes), in order."""
        return cast("list[Envelope]", list(self.events.get(game_id, lte=lte)))

    def last_stored(self, game_id: UUID, n: int) -> list[Envelope]:
        """The game's last ``n`` events as stored, in order (only those rows are read)."""
        if n <= 0:
            return []
        return cast("list[Envelope]", list(self.events.get(game_id, desc=True, limit=n))[::-1])

    def index_row(self, game: Game) -> dict[str, Any]:
        m = game.machine
        cfg = m.config
        return {
            "game_id": game.id.hex, "game": cfg["game"], "name": cfg.get("name", ""),
            "tournament": cfg.get("tournament", ""), "seats": cfg["seats"],
            "table_mode": int(cfg["table"]), "created": iso(game.created_on),
            "version": game.version, "head": game.head, "turn": m.turn(),
            "finished": int(m.finished),
            "scores": m.kernel_state["result"]["scores"] if m.finished else None,
            "winners": m.kernel_state["result"]["winners"] if m.finished else None,
            "parent": (cfg.get("fork") or {}).get("parent"),
            "status": status_view(game.id, m, game.version, game.head),
            "corrections": m.kernel_state.get("corrections", 0),
        }

    def save_game(self, game: Game, secret: bytes | None = None, **service_rows: Any) -> None:
        """Commit the game's new events (its step, or its creation with its ``secret`` seed)
        in one transaction, with its index and status row and its head signed (``prepare``,
        ``commit``): how every writer of a game's steps saves them. ``service_rows``:
        ``idempotency=`` / ``credential=`` rows of the HTTP service
        (event_store/service_tables.py), ``signatures=`` of earlier heads, ``sign_head=False``
        for an imported history; written in the events' transaction."""
        self.commit(self.prepare(game, secret, **service_rows))

    def prepare(self, game: Game, secret: bytes | None = None, receipt: int | None = None,
                **service_rows: Any) -> Prepared:
        """Everything one step's transaction writes, made now from the game in
        memory: its events' rows, its index and status row, the service rows,
        and the snapshot it crosses into (if any). ``commit`` writes it.
        ``receipt``: the deciding seat, whose receipt is signed with the head
        (``Prepared.receipt``; ``Signer.step``)."""
        index = IndexRow(self.index_row(game))
        # ``sign_head=False``: an imported history, whose signatures are the file's (service/records/history.py)
        own, signed_receipt = [], None
        if service_rows.pop("sign_head", True):
            head, signed_receipt = self.signer.step(game.id, game.version, game.head, self._seat_count(game, receipt))
            own = [head]
        signed = own + list(service_rows.pop("signatures", ()))
        prepared = self._prepared([game], index=index, secret=(game.id.hex, secret) if secret is not None else None,
                                  signatures=signed, **service_rows)
        prepared.head = own[0] if own else None
        prepared.receipt = signed_receipt
        return prepared

    @staticmethod
    def _seat_count(game: Game, seat: int | None) -> tuple[int, int] | None:
        """``(seat, the seat's own version)`` for its receipt, or None."""
        return None if seat is None else (seat, game.machine.seen(seat, game.version))

    def signed_again(self, prepared: Prepared) -> bool:
        """When a rotation committed between a step's signing and its commit, retiring the key
        before the head's time (the step's transaction refused it, as a stale version): its head
        signed again with the key that signs now, and True (the caller writes it again)."""
        own = prepared.head
        if own is None or self.signer.in_life(own[4], own[3]):
            return False
        game = next(iter(prepared.games))
        seat = None if prepared.receipt is None else prepared.receipt["seat"]
        prepared.head, prepared.receipt = self.signer.step(game.id, game.version, game.head,
                                                           self._seat_count(game, seat), read=True)
        prepared.kwargs["signatures"] = [prepared.head] + list(prepared.kwargs["signatures"])[1:]
        answer = prepared.kwargs.get("idempotency")
        if answer is not None and prepared.receipt is not None:  # the answer kept for a retry carries the receipt
            body = json.loads(answer[5])
            body["receipt"] = prepared.receipt
            prepared.kwargs["idempotency"] = (*answer[:5], json.dumps(body))
        return True

    def receipt(self, game: Game, seat: int) -> dict[str, Any]:
        """A seat's receipt for the game's head as it stands (after the seat's step)."""
        return self.signer.receipt(game.id, seat, game.machine.seen(seat, game.version), game.head)

    def save(self, *games: Game, **kwargs: Any) -> None:  # type: ignore[override]  # Games only, no recordings
        """The library's ``save`` for our aggregates, without its per-call
        runtime Protocol checks and wrappers: only ``Game`` aggregates are
        ever saved here. The events are mapped to stored rows as the library's
        mapper maps them (the same bytes), recorded in one transaction, then
        snapshots are taken from the games in memory. Returns None (the
        library's recordings, notification ids read back, are not used)."""
        self.commit(self._prepared(games, **kwargs))

    def _prepared(self, games: Iterable[Game], **kwargs: Any) -> Prepared:
        to_stored = self._to_stored
        rows: list[StoredEvent] = []
        snapshots: list[StoredEvent] = []
        for game in games:
            events = game.collect_events()
            rows += [to_stored(e) for e in events]
            snapshot = self._snapshot_row(game, len(events))
            if snapshot is not None:
                snapshots.append(snapshot)
        return Prepared(games, rows, kwargs, snapshots)

    def commit(self, prepared: Prepared) -> None:
        """One transaction: the step's rows and the snapshot it crossed into
        (a cache, written in the same commit: no second wait for the disk, and
        never a snapshot of events that were not stored). A stale version is
        ``StaleVersion``: nothing was written."""
        self.write(prepared)
        self.committed(prepared)

    def write(self, prepared: Prepared) -> None:
        """``commit``'s transaction alone; the caller then calls ``committed``
        (the HTTP service waits for it off its event loop: service/http/committer.py)."""
        try:
            with self.stale_version(prepared):
                self.recorder.insert_events(prepared.rows, **prepared.kwargs, snapshots=prepared.snapshots)
        except StaleVersion:
            if not self.signed_again(prepared):
                raise
            with self.stale_version(prepared):
                self.recorder.insert_events(prepared.rows, **prepared.kwargs, snapshots=prepared.snapshots)

    def committed(self, prepared: Prepared) -> None:
        """After a step's commit: the repository's cache."""
        repo = self.repository
        if repo.cache and not repo.fastforward:
            for game in prepared.games:
                repo.cache.put(game.id, game)

    @staticmethod
    @contextmanager
    def stale_version(prepared: Prepared) -> Iterator[None]:
        """Around a step's transaction: a conflict with a step committed meanwhile (the game's
        versions taken) raised as ``StaleVersion``, nothing written."""
        try:
            yield
        except (IntegrityError, RecordConflictError):
            ids = ", ".join(str(g.id) for g in prepared.games)
            raise StaleVersion(f"game {ids} changed while this decision was being made; "
                               "read its status and try again") from None

    def _to_stored(self, event: DomainEventProtocol[UUID]) -> StoredEvent:
        """``Mapper.to_stored_event`` for our events, byte for byte: the
        event's attributes in their order, without the id and version, with
        ``class_version``; the timestamp as the codec's extension 2 (its ISO
        text), which is what the codec's hook would make of it. An event made
        by ``Game.record`` brings its state already packed (``_stored``)."""
        mapper = self.mapper
        cls = type(event)
        known = _TOPICS.get(cls)
        packed = event.__dict__.pop("_stored", None)
        if known is None or mapper.compressor is not None or mapper.cipher is not None:
            return mapper.to_stored_event(event)
        topic, class_version = known
        if packed is not None:
            return StoredEvent(originator_id=event.originator_id, originator_version=event.originator_version,
                               topic=topic, state=packed)
        state = dict(vars(event))
        originator_id = state.pop("originator_id")
        originator_version = state.pop("originator_version")
        ts = state.get("timestamp")
        if type(ts) is datetime:
            state["timestamp"] = msgpack.ExtType(EXT_DATETIME, iso(ts).encode())
        state["class_version"] = class_version
        return StoredEvent(originator_id=originator_id, originator_version=originator_version,
                           topic=topic, state=pack(state))

    def _snapshot_row(self, game: Game, appended: int) -> StoredEvent | None:
        """When the step that appended ``appended`` events crossed a multiple of
        the interval: the snapshot of the game as it stands in memory at the
        step's end, as its stored row (packed now: the game goes on changing).
        Nothing just written is read back. A failed snapshot is only a missed
        cache entry (None)."""
        interval = self.snapshot_interval
        if not interval or self.snapshots is None:
            return None
        last = game.version
        if not last // interval > (last - appended) // interval:
            return None
        try:
            return self.snapshots.mapper.to_stored_event(game.Snapshot.take(game))
        except Exception:
            log.exception("the snapshot at version %d failed: none is stored (the game is unchanged)", last,
                          extra={"game_id": game.id.hex})
            return None

    def _remember_seed(self, game_id: UUID, seed: bytes) -> None:
        if len(self._seeds) >= 4096:
            self._seeds.clear()
        self._seeds[game_id] = seed

    def chance_for(self, game: Game) -> SeededChance | TableChance:
        m = game.machine
        if m.kernel_state["table"]:
            return TableChance([])
        seed = self._seeds.get(game.id)
        if seed is None:
            seed = self.recorder.select_secret(game.id.hex)
            if seed is not None:  # written once with the game and never changed: kept for its next step
                self._remember_seed(game.id, seed)
        if seed is None:
            raise BadInput("this game's secret seed is not in this store (imported without it?): "
                           "it cannot draw chance here")
        return SeededChance(seed, [bytes.fromhex(e) for e in m.kernel_state["entropies"]], m.kernel_state["counter"])

    # commands -----------------------------------------------------------------
    def create(self, game: str, seats: int, *, table: bool = False, options: dict | None = None,
               name: str = "", tournament: str = "", seed: bytes | None = None,
               catalog: dict | None = None, players: dict | None = None, position: dict | None = None) -> UUID:
        agg, seed = self.new_game(game, seats, table=table, options=options, name=name, tournament=tournament,
                                  seed=seed, catalog=catalog, players=players, position=position)
        self.save_game(agg, secret=seed)
        return agg.id

    def new_game(self, game: str, seats: int, *, table: bool = False, options: dict | None = None,
                 name: str = "", tournament: str = "", seed: bytes | None = None,
                 catalog: dict | None = None, players: dict | None = None,
                 setup: bool = True, position: dict | None = None) -> tuple[Game, bytes | None]:
        """The game ``create`` stores, not yet saved: its aggregate (created, the
        seats named at creation each a ``SeatNamed`` event, its setup recorded
        unless ``setup`` is False: a game that waits for its seats) and its secret
        seed, which the save that stores it carries (``secret=``). Its chance
        draws from that seed from now on. ``position``: a stated position to start
        from (``Rules.position``): its public part in ``GameCreated``, its hidden part
        laid by the setup (which then cannot wait for the seats: nothing would keep it)."""
        rules = get_rules(game)
        if position is not None and not setup:
            raise BadInput("a game from a stated position lays it at creation: it cannot wait for its seats")
        created, seed = created_event(rules, seats, options, table, seed, name, tournament, catalog,
                                      players=players, position=position)
        stated = positioned(rules, created.data, position)[1] if position is not None else None
        agg = Game.start(uuid4(), created)
        named = created.data["players"]
        agg.record([self._seat_named(agg, int(s), named[s]) for s in sorted(named, key=int)])
        if setup:
            agg.record(agg.machine.setup(TableChance([]) if seed is None else SeededChance(seed, [], 0), stated))
        if seed is not None:  # None at a table (``created_event``)
            self._remember_seed(agg.id, seed)
        return agg, seed

    def name_seat(self, game: Game, seat: int, player: str) -> list[Ev]:
        """The name ``seat`` is taken under (an invitation's, or the joining
        player's), as a public ``SeatNamed`` event applied to ``game`` (the caller
        saves it): none when ``player`` is empty or the seat has its name already
        (the first name stands). A name that is not a player's, or that another
        seat has, is refused before anything is applied."""
        current = game.machine.config.get("players") or {}
        if not (player or "").strip() or str(seat) in current:
            return []
        player = check_players({**current, str(seat): player}, game.machine.k["seats"])[str(seat)]
        return [self._seat_named(game, seat, player)]

    @staticmethod
    def _seat_named(game: Game, seat: int, player: str) -> Ev:
        m = game.machine
        ev = Ev("SeatNamed", m.turn(), "all", {"seat": seat, "player": player})
        m.apply(ev)
        return ev

    def act(self, game_id: UUID, seat: int, decision: Any, expect_version: int | None = None,
            idempotency: tuple[Any, ...] | None = None, signature: str | None = None,
            referee: RefereeSign | None = None) -> list[Ev]:
        """``signature``: the seat's own (service/seat_keys.py), required of a seat that registered a key;
        ``referee``: the referee's signing of what it enters at a table (service/referee_key.py),
        required once the referee registered a key."""
        game = self.load(game_id)
        self._check_version(game, expect_version)
        signed = signed_fields(game_id, game.machine, game.version, seat, decision, signature)
        signed = with_referee(signed, referee_fields(game_id, game.machine, game.version, game.head, seat, decision,
                                                     referee, seat_signed=signed is not None))
        events = game.machine.decide(seat, decision, self.chance_for(game), signed=signed)
        game.record(events)
        self.save_game(game, idempotency=idempotency)
        return events

    def register_seat_key(self, game_id: UUID, seat: int, key: str, handover: str | None = None) -> list[Ev]:
        """``seat``'s own public key (hex), as a public ``SeatKeyRegistered`` event (service/seat_keys.py);
        ``handover``: a seat that has a key already moves to this one with its old key's signature."""
        game = self.load(game_id)
        events = [key_event(game.machine, seat, key, game_id, handover)]
        game.record(events)
        self.save_game(game)
        return events

    def register_referee_key(self, game_id: UUID, key: str) -> list[Ev]:
        """A table's referee's own public key (hex), as a public ``RefereeKeyRegistered`` event
        (service/referee_key.py)."""
        game = self.load(game_id)
        events = [referee_key_event(game.machine, key)]
        game.record(events)
        self.save_game(game)
        return events

    def referee(self, game_id: UUID, decision: Any, expect_version: int | None = None,
                referee: RefereeSign | None = None) -> list[Ev]:
        """A referee's step: a penalty or adjustment the game's rules name (``referee``: as in ``act``)."""
        decision = referee_decision(decision)
        game = self.load(game_id)
        self._check_version(game, expect_version)
        signed = referee_fields(game_id, game.machine, game.version, game.head, 0, decision, referee)
        events = game.machine.referee(decision, self.chance_for(game), signed=signed)
        game.record(events)
        self.save_game(game)
        return events

    def enter_chance(self, game_id: UUID, outcome: Any, expect_version: int | None = None,
                     idempotency: tuple[Any, ...] | None = None) -> list[Ev]:
        game = self._table_game(game_id, expect_version)
        events = game.machine.enter_chance(outcome)
        game.record(events)
        self.save_game(game, idempotency=idempotency)
        return events

    def correct(self, game_id: UUID, to_version: int, reason: str, expect_version: int | None = None,
                enter: list | None = None, *, said: str = "--to-version", referee: RefereeSign | None = None) -> list[Ev]:
        """Retract every step after ``to_version`` (a step boundary of the
        game's line), or, at a table, the outcomes of the last step from the one
        awaited at ``to_version`` on (its ``ChanceAwaited`` marker), on the record:
        see service/kernel/corrections.py. ``enter``: outcomes entered at once in
        the retracted ones' place, in the same append (all of it, or nothing). ``said``: how
        the caller names the version to keep, in a refusal (the CLI's flag, the API's field). ``referee``: as in ``act``."""
        return self._correct(game_id, self.stored_events(game_id), to_version, reason, expect_version, enter, said,
                             referee)

    def _correct(self, game_id: UUID, stored: list[Envelope], to_version: int, reason: str, expect_version: int | None,
                 enter: list | None, said: str = "--to-version", referee: RefereeSign | None = None) -> list[Ev]:
        """``correct`` on the game's events as stored (read once by the caller)."""
        current = self.load(game_id)
        self._check_version(current, expect_version)
        if current.machine.finished:
            raise IllegalDecision("the game is finished: a finished result is not corrected (fork it instead)")
        last = stored[-1].originator_version
        if not isinstance(to_version, int) or not 1 <= to_version < last:
            raise BadInput(f"{said} must be from 1 to {last - 1} (the game is at version {last})")
        retracted = retracted_versions(stored)
        line = line_of(stored)
        after = [e for e in line if e.originator_version > to_version]
        if to_version in retracted:
            raise BadInput(f"version {to_version} was already retracted by an earlier correction")
        places = outcome_places(stored) if current.machine.kernel_state["table"] else []
        if to_version not in places:
            if stored[to_version - 1].type == "ChanceAwaited":  # the step there would await an outcome
                raise BadInput(f"version {to_version} leaves a step waiting for an outcome: correct to the end "
                               "of the step before, or to an outcome's place" + places_said(places))
            setup_end = first_point(line, STEP_STARTS)
            if to_version < setup_end:
                raise BadInput(f"version {to_version} is inside the setup; the earliest point is {setup_end}"
                               + places_said(places))
            if after and after[0].type not in STEP_STARTS:
                starts = [e.originator_version - 1 for e in line
                          if e.type == "Decided" and e.originator_version > setup_end]
                before = max([v for v in starts if v < to_version] or [setup_end])
                raise BadInput(f"version {to_version} is in the middle of a step; correct to {before} "
                               "(the end of the step before) instead" + places_said(places))
        game = Game.along_line(stored, retracted | set(range(to_version + 1, last + 1)))
        if game is None:
            raise UnknownGame(f"no game with id {game_id}")
        decision = {"referee": "correct", "to_version": to_version, "reason": reason_typed(reason)}
        signed = referee_fields(game_id, current.machine, current.version, current.head, 0, decision, referee)
        events = game.machine.correct(decision, last, signed)
        if enter:
            events = events + game.machine.enter_words(enter)
        game.record(events)
        self.save_game(game)
        return events

    def retract_outcomes(self, game_id: UUID, count: int, reason: str, expect_version: int | None = None,
                         enter: list | None = None, *, said: str = "--to-version",
                         referee: RefereeSign | None = None) -> list[Ev]:
        """Table mode: retract the last ``count`` outcomes entered in the game's last
        step (the setup's included), on the record, and enter ``enter`` in their place
        (none: the step awaits the first retracted one again)."""
        return self._retract(game_id, self.stored_events(game_id), count, reason, expect_version, enter, said,
                             referee)

    def _retract(self, game_id: UUID, stored: list[Envelope], count: int, reason: str, expect_version: int | None,
                 enter: list | None, said: str = "--to-version", referee: RefereeSign | None = None) -> list[Ev]:
        if not stored:
            raise UnknownGame(f"no game with id {game_id}")
        if not stored[0].data.get("table"):
            raise BadInput("this game draws its own chance from its committed seed: only a table-mode game's "
                           f"entries are taken back (a step of its own is undone with {said})")
        places = outcome_places(stored)
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= len(places):
            raise BadInput(f"the last step has {len(places)} outcome(s) entered: retract from 1 to {len(places)}"
                           if places else "the last step has no outcome entered to retract "
                           f"(a step of its own is undone with {said})")
        return self._correct(game_id, stored, places[-count], reason, expect_version, enter, said, referee)

    def replace_outcome(self, game_id: UUID, place: int, words: list, reason: str,
                        expect_version: int | None = None, *, said: str = "--to-version",
                        referee: RefereeSign | None = None) -> list[Ev]:
        """Table mode: the ``place``-th outcome entered in the game's last step (1: its first)
        becomes ``words`` (one outcome: a card, a die, ``n`` dice as ``n`` words); the outcomes
        after it are entered again as they were. One correction and one append."""
        stored = self.stored_events(game_id)
        entered = [value for _, value, _, _ in step_outcomes(stored)]
        if not words:
            raise BadInput("a replaced outcome needs the outcome to put in its place")
        if not isinstance(place, int) or isinstance(place, bool) or not 1 <= place <= len(entered):
            raise BadInput(f"the current step has {len(entered)} outcome(s) entered: the place is from 1 to "
                           f"{len(entered)}" if entered else "the current step has no outcome entered")
        return self._retract(game_id, stored, len(entered) - place + 1, reason, expect_version,
                             list(words) + entered[place:], said, referee)

    def entered_outcomes(self, game_id: UUID) -> list[tuple]:
        """The outcomes on the line of the game's last step, in the order entered (table mode):
        ``(place, value, why, event)`` (service/kernel/corrections.py ``step_outcomes``)."""
        return step_outcomes(self.stored_events(game_id))

    def outcome_places(self, game_id: UUID) -> list[int]:
        """Where a correction may cut the game's last step (service/kernel/corrections.py)."""
        stored = self.stored_events(game_id)
        if not stored or not stored[0].data.get("table"):
            return []
        return outcome_places(stored)

    def enter_chances(self, game_id: UUID, words: list, expect_version: int | None = None) -> list[Ev]:
        """Several outcomes in one go, as the referee reads them off the table
        (a whole deal, or ``4 6`` for two dice): each awaited chance takes as
        many words as it needs (``n`` for ``n`` dice), in order. All of them
        are appended together, or none (the refusal names the word)."""
        game = self._table_game(game_id, expect_version)
        events = game.machine.enter_words(words)
        game.record(events)
        self.save_game(game)
        return events

    def _table_game(self, game_id: UUID, expect_version: int | None) -> Game:
        game = self.load(game_id)
        self._check_version(game, expect_version)
        if not game.machine.kernel_state["table"]:
            raise BadInput("this game draws its own chance from its committed seed; "
                           "only table-mode games (created with --table) take chance outcomes")
        return game

    @staticmethod
    def _check_version(game: Game, expect_version: int | None) -> None:
        if expect_version is not None and expect_version != game.version:
            raise StaleVersion(f"expected version {expect_version}, the game is at version {game.version}")

    def _fold_line(self, game_id: UUID, to_turn: int | None, to_event: int | None) -> tuple[Machine, int, bytes | None]:
        """``fold`` for a corrected game: along its line, from its events."""
        stored = self.stored_events(game_id)
        retracted = retracted_versions(stored)
        machine: Machine | None = None
        version, head = 0, None
        for e in stored:
            if to_event is not None and e.originator_version > to_event:
                break
            ev = Ev(e.type, e.turn, e.visible_to, e.data)
            if machine is None:
                machine = Machine(get_rules(e.data["game"]), ev)
            if e.originator_version in retracted:
                machine.apply_retracted(ev)
            else:
                if to_turn is not None and e.turn > to_turn:
                    break
                machine.apply(ev)
            version, head = e.originator_version, e.hash
        if machine is None:
            raise UnknownGame(f"no game with id {game_id}")
        return machine, version, head

    # queries ------------------------------------------------------------------
    def games(self) -> list[dict]:
        """The games index, with each game's player names (``games_listed``)."""
        return games_listed(self.recorder.select_games(), self.recorder.select_statuses())

    def fold(self, game_id: UUID, *, to_turn: int | None = None,
             to_event: int | None = None) -> tuple[Machine, int, bytes | None]:
        """Replay a game's events up to the end of a turn or up to a version.
        Returns ``(machine, last_version, head_hash)``."""
        # a corrected game folds along its line; the status row says whether there is one
        # (a store written before status rows: the game itself says)
        corrections = self.recorder.select_corrections(game_id.hex)
        if corrections is None:
            corrections = self.load(game_id).machine.kernel_state.get("corrections")
        if corrections:
            return self._fold_line(game_id, to_turn, to_event)
        machine: Machine | None = None
        version, head = 0, None
        start = fold_start(self, game_id, to_turn, to_event)  # a snapshot, if one serves
        if start is not None:
            machine, version, head = start
        for e in events_after(self, game_id, version or None, to_event, paged=to_turn is not None):
            if to_turn is not None and e.turn > to_turn:
                break
            ev = Ev(e.type, e.turn, e.visible_to, e.data)
            if machine is None:
                machine = Machine(get_rules(e.data["game"]), ev)
            machine.apply(ev)
            version, head = e.originator_version, e.hash
        if machine is None:
            raise UnknownGame(f"no game with id {game_id}")
        return machine, version, head

"""What the read-only commands show (replay, status, legal, log, games),
read straight from an SQLite store (event_store/reads.py) without the
``eventsourcing`` application: a replay is the newest usable snapshot and the
events after it, folded through the game's ``Machine``. Each read gives
exactly what the application gives; where it cannot (see ``SqliteReader``),
the ``*_for_reading`` functions ask the application instead.
"""

from __future__ import annotations

from event_store.chain import chain_version, genesis, link
from event_store.reads import SqliteReader
from event_store.store import resolve_db
from service.kernel.errors import BadInput
from service.kernel.machine import Ev, Machine
from service.kernel.games import get_rules
from service.logs import logger
from service.snapshots import SnapshotOutdated, first_catalog, machine_from, snapshot_interval

TYPE_CHECKING = False  # typing is not imported at run time: a direct read's start-up does without it
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any, TypeAlias, TypeVar
    from uuid import UUID

    T = TypeVar("T")
    Folded: TypeAlias = tuple[UUID, Machine, int, bytes | None]  # (game id, machine, version, head)
    # (game id in hex, machine, version, chain problem)
    Replayed: TypeAlias = tuple[str, Machine, int, str | None]

log = logger(__name__)


def as_uuid(hex_id: str) -> UUID:
    """The game id a direct read found (its hex text, as the store keeps it) as a UUID.
    ``uuid`` is imported at the first UUID made (importing it takes ``platform`` with
    it, a few percent of a replay's start-up): a replay (``replay_board``) needs none,
    its id read as text and checked as bytes."""
    from uuid import UUID

    return UUID(hex_id)


def _read(db: str, read: Callable[[SqliteReader], T]) -> T | None:
    """``read(reader)`` on the SQLite file ``db``; None when ``db`` is not one."""
    reader = SqliteReader.open(db)
    if reader is None:
        return None
    with reader:
        return read(reader)


def direct_fold(db: str, game_id: str, *, to_turn: int | None = None, to_event: int | None = None) -> Folded | None:
    """``(game id, machine, version, head)`` or None."""
    snapshot_interval()  # a bad setting is reported however the answer is found
    return _read(db, lambda reader: _fold(reader, game_id, to_turn, to_event))


def _fold(reader: SqliteReader, game_id: str, to_turn: int | None, to_event: int | None) -> Folded | None:
    found = reader.current(game_id)
    if found is None:
        return None
    folded = _fold_game(reader, found[0], to_turn, to_event)
    return None if folded is None else (as_uuid(folded[0]), *folded[1:])


def _fold_game(reader: SqliteReader, gid: str, to_turn: int | None, to_event: int | None,
               check: ChainCheck | None = None) -> tuple[str, Machine, int, bytes | None] | None:
    """``_fold`` of the game whose id (hex) is ``gid`` (the id given back as it is);
    with ``check``, each event up
    to the last folded is also added to it (those before the snapshot the fold
    starts from read for it alone; each before it is folded)."""
    start = _start(reader, gid, to_turn, to_event)
    machine: Machine | None = None
    version, head = 0, None
    if start is not None:
        machine, version, head = start
    if check is not None and version:
        for row in reader.events(gid, gt=0, lte=version):
            check.add(*row)
    for v, env in reader.events(gid, gt=version, lte=to_event):
        if to_turn is not None and env["turn"] > to_turn:
            break
        if check is not None:
            check.add(v, env)  # (before the fold, which takes the event's data and may change it)
        if machine is None:  # the creation: its data is the game's config too, so ``apply`` copies it
            ev = Ev(env["type"], env["turn"], env["visible_to"], env["data"])
            machine = Machine(get_rules(env["data"]["game"]), ev)
            machine.apply(ev)
        else:  # the data was read for this fold alone: handed over, not copied
            machine.apply_read(env["type"], env["turn"], env["visible_to"], env["data"])
        version, head = v, env["hash"]
    if machine is None:
        return None
    return gid, machine, version, head


def direct_replay(db: str, game_id: str, *, to_turn: int | None = None,
                  to_event: int | None = None) -> Replayed | None:
    """``(game id in hex, machine, version, chain problem)`` or None: ``direct_fold`` and
    the check of the hash chain up to where it stopped (``chain_problem``: None
    when it verifies) in one read of the store, each event read once: the fold's
    events are checked as they are read, the ones before the snapshot it starts
    from are read for the check alone."""
    snapshot_interval()  # a bad setting is reported however the answer is found
    return _read(db, lambda reader: _replay(reader, game_id, to_turn, to_event))


def _replay(reader: SqliteReader, game_id: str, to_turn: int | None, to_event: int | None) -> Replayed | None:
    found = reader.current(game_id)
    if found is None:
        return None
    check = ChainCheck(found[0])
    folded = _fold_game(reader, found[0], to_turn, to_event, check)
    if folded is None:
        return None
    return *folded[:3], check.problem


class ReadEvent:
    """A stored event as a direct read gives it: what the views read of the
    library's events (``log_entries``), its time as the ISO text stored."""

    __slots__ = ("originator_version", "type", "turn", "visible_to", "data", "timestamp")

    def __init__(self, version: int, env: dict[str, Any]):
        self.originator_version = version
        self.type, self.turn, self.visible_to = env["type"], env["turn"], env["visible_to"]
        self.data, self.timestamp = env["data"], env["timestamp"]


def events_for_reading(db: str | None, game_id: str) -> tuple[UUID, list[Any]]:
    """``(game id, its stored events in order)``: straight from an SQLite
    store where ``direct_fold`` could answer (``ReadEvent``s), else the
    application's."""
    def events(reader: SqliteReader) -> tuple[UUID, list[Any]] | None:
        found = reader.current(game_id)
        if found is not None:
            return as_uuid(found[0]), [ReadEvent(v, env) for v, env in reader.events(found[0])]
        return None

    direct = _read(resolve_db(db), events)
    if direct is not None:
        return direct
    from service.app import Privateer

    a = Privateer(db)
    gid = a.resolve_id(game_id)
    return gid, a.stored_events(gid)


def game_log(db: str | None, game_id: str, seat: int | None) -> list[dict[str, Any]]:
    """``tools log``: the game's events as ``seat`` may read them (None: the referee,
    every event, the retracted ones marked), in words (``views.log_entries``)."""
    from service.views import card_namer, log_entries

    _, stored = events_for_reading(db, game_id)
    created = stored[0]
    machine = Machine(get_rules(created.data["game"]), Ev(created.type, created.turn, created.visible_to, created.data))
    if seat is not None:
        machine.check_seat(seat)
    return log_entries(machine.rules, stored, seat, players=machine.config.get("players"), names=card_namer(machine))


def games_for_reading(db: str | None) -> list[dict[str, Any]]:
    """``Privateer.games``: straight from an SQLite store where it can."""
    rows = _read(resolve_db(db), SqliteReader.games)
    if rows is not None:
        return rows
    from service.app import Privateer

    return Privateer(db).games()


def chain_problem(game_id: UUID, rows: Iterable[tuple[int, dict[str, Any]]]) -> str | None:
    """Why the hash chain of ``rows`` ((version, envelope dict), from version 1
    on) does not verify, or None: the check ``tools audit`` makes first,
    for what a replay shows (the audit also re-runs chance and rules)."""
    check = ChainCheck(game_id.hex)
    for version, env in rows:
        check.add(version, env)
        if check.problem is not None:
            break
    return check.problem


class ChainCheck:
    """``chain_problem`` an event at a time, as the events are read from version 1
    on (``add``): the first problem, or None. An event is checked before a fold
    applies it: a game's state may keep its lists and change them later.
    ``game_id``: the game's id in hex, as the store keeps it."""

    __slots__ = ("game_id", "problem", "_n", "_prev", "_chain", "_id")

    def __init__(self, game_id: str):
        self.game_id = game_id
        self._id = bytes.fromhex(game_id)   # what the chain hashes: the id's 16 bytes
        self.problem: str | None = None
        self._n = 0
        self._prev: bytes | None = None
        self._chain = 0

    def add(self, version: int, env: dict[str, Any]) -> None:
        if self.problem is None:
            self.problem = self._check(version, env)

    def _check(self, version: int, env: dict[str, Any]) -> str | None:
        n = self._n = self._n + 1
        if n == 1:
            if env.get("type") != "GameCreated":
                return "the history does not start with its creation"
            try:
                self._chain = chain_version(env["data"])
            except ValueError as e:
                return str(e)
            self._prev = genesis(self._id, self._chain)
        if version != n:
            return f"event {n} is missing"
        if env.get("prev") != self._prev:
            return f"event {version}'s link to the one before is broken"
        try:
            h = link(self._id, version, env["timestamp"], env["type"], env["turn"], env["visible_to"],
                     env["data"], env["prev"], env.get("salt"), self._chain)
        except Exception as e:  # the problem, said to the caller (the traceback at DEBUG)
            log.debug("event %d cannot be hashed", version, exc_info=True, extra={"game_id": self.game_id})
            return f"event {version} cannot be hashed ({e})"
        if h != env.get("hash"):
            return f"event {version} does not match its hash (it was changed)"
        self._prev = h
        return None


def verify_to(db: str, game_id: UUID, version: int) -> str | None:
    """The chain problem of a game's events up to ``version`` on an SQLite
    store read directly; None when they verify (or the store is not SQLite)."""
    return _read(db, lambda reader: chain_problem(game_id, reader.events(game_id.hex, gt=0, lte=version)))


def _start(reader: SqliteReader, gid: str, to_turn: int | None,
           to_event: int | None) -> tuple[Machine, int, bytes] | None:
    """The newest snapshot that serves (service/snapshots.py ``fold_start``)."""
    versions = reader.snapshot_versions(gid, lte=to_event)
    if not versions:
        return None
    try:
        if to_turn is None:
            best = (versions[-1], reader.snapshot(gid, versions[-1]))
        else:  # max_turn never decreases with the version: binary search
            # probing each snapshot's max_turn alone; only the one chosen is decoded
            lo, hi, found = 0, len(versions) - 1, None
            while lo <= hi:
                mid = (lo + hi) // 2
                mt = reader.snapshot_max_turn(gid, versions[mid])
                if mt is not None and mt <= to_turn:
                    found, lo = versions[mid], mid + 1
                else:
                    hi = mid - 1
            if found is None:
                return None
            best = (found, reader.snapshot(gid, found))
        version, state = best

        def catalog_of() -> dict[str, Any]:  # for a snapshot that left the catalog out: the game's own
            return first_catalog(created["data"] for _, created in reader.events(gid, gt=0, lte=1))

        return machine_from(state, catalog_of), version, state["head"]
    except (SnapshotOutdated, KeyError, TypeError, ValueError):
        return None


def fold_for_reading(db: str | None, game_id: str, to_turn: int | None = None,
                     to_event: int | None = None) -> tuple[UUID, Machine, int]:
    """``(game id, machine, version)``: straight from an SQLite store when it
    can (``direct_fold``), else through the application."""
    direct = direct_fold(resolve_db(db), game_id, to_turn=to_turn, to_event=to_event)
    if direct is not None:
        return direct[:3]
    return _fold_by_application(db, game_id, to_turn, to_event)


def _fold_by_application(db: str | None, game_id: str, to_turn: int | None,
                         to_event: int | None) -> tuple[UUID, Machine, int]:
    from service.app import Privateer

    a = Privateer(db)
    gid = a.resolve_id(game_id)
    machine, version, _ = a.fold(gid, to_turn=to_turn, to_event=to_event)
    return gid, machine, version


def replay_for_reading(db: str | None, game_id: str, to_turn: int | None = None,
                       to_event: int | None = None) -> Replayed:
    """``(game id in hex, machine, version, chain problem)``: ``fold_for_reading`` and
    ``chain_problem_to`` in one read of an SQLite store when it can
    (``direct_replay``), else each as it can."""
    direct = direct_replay(resolve_db(db), game_id, to_turn=to_turn, to_event=to_event)
    if direct is not None:
        return direct
    gid, machine, version = _fold_by_application(db, game_id, to_turn, to_event)
    return gid.hex, machine, version, chain_problem_to(db, gid, version)


def chain_problem_to(db: str | None, gid: UUID, version: int) -> str | None:
    """Why the events a replay shows do not verify (their hash chain), or None."""
    target = resolve_db(db)
    if not target.startswith(("postgresql://", "postgres://")):
        return verify_to(target, gid, version)
    from service.app import Privateer

    a = Privateer(db)
    rows = [(e.originator_version, {"type": e.type, "turn": e.turn, "visible_to": e.visible_to, "data": e.data,
                                    "prev": e.prev, "hash": e.hash, "salt": getattr(e, "salt", None),
                                    "timestamp": e.timestamp}) for e in a.stored_events(gid, lte=version)]
    return chain_problem(gid, rows)


def replay_board(db: str | None, game_id: str, to_turn: int | None = None, to_event: int | None = None,
                 seat: int | None = None) -> tuple[dict[str, Any], Machine]:
    """What ``tools replay`` shows: ``(board, machine)``, the board as ``seat``
    saw it (None: the referee) at the end of ``to_turn`` or after ``to_event``,
    with a ``warning`` when the history shown does not verify and a ``note``
    when the turn or event asked for was not reached."""
    from service.views import board

    if to_turn is not None and to_event is not None:
        raise BadInput("give --to-turn or --to-event, not both")
    gid, machine, version, problem = replay_for_reading(db, game_id, to_turn, to_event)
    if seat is not None:
        machine.check_seat(seat)
    b = board(gid, machine, version, seat)
    if problem is not None:
        b["warning"] = f"this history does not verify ({problem}): what it shows may not be what happened; " \
                       "run `tools audit`"
    if to_turn is not None and b["turn"] < to_turn:
        # turns never go back: a replay that stops short of the turn read the whole history
        b["note"] = (f"turn {to_turn} was not reached: the game {'ended' if b['finished'] else 'stands'} "
                     f"at turn {b['turn']}; this is its last state")
    if to_event is not None and version < to_event:
        b["note"] = f"event {to_event} was not reached: the game has {version} events; this is its last state"
    return b, machine

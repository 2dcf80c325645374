"""Snapshots of a game: a cache for replay, never evidence.

Every ``PRIVATEER_SNAPSHOT_INTERVAL`` events (default 100; 0 turns snapshots
off) the application stores the game's state after that version in the
snapshot store (``privateer_snapshots`` on PostgreSQL, ``stored_snapshots`` on
SQLite), encoded with our MessagePack codec, in the same transaction as the
step that crossed the multiple (``Privateer.commit``): never a snapshot of
events that were not stored, and no second commit. The aggregate holds a ``Machine``
object (rules + state); the snapshot holds only its plain data:

    {"config": GameCreated data, "k": kernel state, "s": game state,
     "base": table-mode step base or None, "head": chain hash at that version,
     "max_turn": highest turn of any event up to that version,
     "created_on", "modified_on", "format": 4, "catalog_left_out": bool}

A read-only catalog (``Rules.shared_catalog``: The Kaiser's Pirates, Merchants &
Marauders) is left out of the config (its value None, its digest kept): it
would be 95% of each snapshot's bytes, and the same in every snapshot of the game.
Loading puts back the catalog this process holds under that digest
(``known_catalog``), else the game's own, read from its ``GameCreated``.
Snapshots of an older format are outdated: the game is folded from its events.

Loading a game for a command (``Privateer.load``) and replaying it
(``Privateer.fold``) start from the newest usable snapshot and apply the
events after it. ``tools audit`` reads the stored events only: a wrong or
tampered snapshot can change what a replay shows, never what the audit says.
"""

from __future__ import annotations

import os

from service.logs import logger

TYPE_CHECKING = False  # typing is not imported at run time: a direct read's start-up does without it
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator
    from datetime import datetime
    from typing import Any, Protocol
    from uuid import UUID

    from eventsourcing.domain import BaseAggregate, DomainEventProtocol, Snapshot, TMutableOrImmutableAggregate
    from eventsourcing.persistence import EventStore

    from service.kernel.machine import Machine

    GameSnapshot: type[Snapshot]  # made on first use (``__getattr__``)

    # What this module reads of the application and its aggregates (service/app.py, service/aggregate.py,
    # which import this module: named here by what they have, not imported)
    class Snapshotted(Protocol):
        """A game's aggregate (``Game``) as its snapshot holds it."""

        machine: Machine
        head: bytes
        max_turn: int

        @property
        def id(self) -> UUID: ...
        @property
        def version(self) -> int: ...
        @property
        def created_on(self) -> datetime: ...
        @property
        def modified_on(self) -> datetime: ...

    class Stored(Protocol):
        """A game's event as stored and read back (``Envelope``)."""

        @property
        def originator_version(self) -> int: ...
        @property
        def type(self) -> str: ...
        @property
        def turn(self) -> int: ...
        @property
        def visible_to(self) -> Any: ...
        @property
        def data(self) -> dict[str, Any]: ...
        @property
        def hash(self) -> bytes: ...

    class Stores(Protocol):
        """The application's stores (``Privateer``)."""

        @property
        def events(self) -> EventStore[UUID]: ...
        @property
        def snapshots(self) -> EventStore[UUID] | None: ...

log = logger(__name__)

DEFAULT_INTERVAL = 100
ENV_INTERVAL = "PRIVATEER_SNAPSHOT_INTERVAL"


def snapshot_interval(value: int | None = None) -> int:
    """The configured interval: the argument, else the environment, else the default."""
    if value is None:
        text = os.environ.get(ENV_INTERVAL, "").strip()
        if not text:
            return DEFAULT_INTERVAL
        try:
            value = int(text)
        except ValueError:
            from service.kernel.errors import BadInput

            raise BadInput(f"{ENV_INTERVAL} must be a whole number of events, not {text!r}") from None
    return max(0, int(value))


SNAPSHOT_FORMAT = 4  # 2: the kernel state counts what each viewer may read ("seen"); 3: a shared
                     # catalog is left out; 4: the kernel state holds the labels public events gave to
                     # copies of one face ("shown", service/kernel/copies.py), which older ones lack
READS = (4,)


class SnapshotOutdated(Exception):
    """A snapshot taken by an older build: replay from the events instead."""


class CatalogUnknown(SnapshotOutdated):
    """A snapshot that left its catalog out, loaded with no way to the game's
    own: this process holds no catalog of that digest (``Privateer.load``
    reads it from the game's ``GameCreated`` and loads again)."""


def machine_from(state: dict[str, Any], catalog_of: Callable[[], dict[str, Any]] | None = None) -> Machine:
    """``catalog_of()``: the game's catalog as its ``GameCreated`` holds it,
    for a snapshot that left it out (asked only if this process holds no
    catalog of that digest)."""
    if state.get("format") not in READS or "seen" not in state["k"]:
        raise SnapshotOutdated("snapshot format")
    from service.kernel.machine import Machine
    from service.kernel.rules import known_catalog
    from service.kernel.games import get_rules

    cfg = state["config"]
    if state.get("catalog_left_out"):
        cat = known_catalog(cfg.get("catalog_digest"))
        if cat is None:
            if catalog_of is None:
                raise CatalogUnknown(f"catalog {cfg.get('catalog_digest')}")
            cat = catalog_of()
        cfg = {**cfg, "catalog": cat}  # back in its place: the key was kept
    base = state.get("base")
    m = Machine.held(get_rules(cfg["game"]), cfg, state["k"], state["s"], tuple(base) if base is not None else None)
    restored = getattr(m.rules, "restored", None)
    if restored is not None:    # the rules may rebuild what they keep out of the state (a card index),
        restored(cfg, m.state)  # or refuse a state built on older tables (SnapshotOutdated)
    return m


def __getattr__(name: str) -> Any:  # the class made on first use
    """``GameSnapshot`` is made on first use (PEP 562): the library is imported
    only by what stores or loads through it, not by a direct read
    (service/replay.py). Stored snapshots name it by this module's topic."""
    if name == "GameSnapshot":
        cls = _make_game_snapshot()
        globals()["GameSnapshot"] = cls
        return cls
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _make_game_snapshot() -> type[Snapshot]:
    from eventsourcing.domain import Snapshot
    from eventsourcing.utils import get_topic, resolve_topic

    class GameSnapshot(Snapshot):
        """The ``eventsourcing`` snapshot of a ``Game``: plain data only."""

        state: dict[str, Any]  # plain data: str keys, msgpack values

        @classmethod
        def take(cls, aggregate: Snapshotted) -> GameSnapshot:  # type: ignore[override]  # only a Game is snapshotted
            m = aggregate.machine
            left_out = m.rules.shared_catalog and "catalog" in m.config
            state = {
                "config": {**m.config, "catalog": None} if left_out else m.config,
                "k": m.kernel_state, "s": m.state, "base": m.base, "head": aggregate.head,
                "max_turn": getattr(aggregate, "max_turn", None),
                "created_on": aggregate.created_on, "modified_on": aggregate.modified_on,
                "format": SNAPSHOT_FORMAT, "catalog_left_out": left_out,
            }
            return cls(originator_id=aggregate.id, originator_version=aggregate.version,
                       timestamp=cls.create_timestamp(), topic=get_topic(type(aggregate)), state=state)

        def mutate(self, _: None = None) -> BaseAggregate[UUID]:
            cls = resolve_topic(self.topic)
            st = self.state
            agg = object.__new__(cls)
            object.__setattr__(agg, "__dict__", {
                "_id": self.originator_id, "_version": self.originator_version,
                "_created_on": st["created_on"], "_modified_on": st["modified_on"],
                "_pending_events": [], "machine": machine_from(st), "head": st["head"],
                "max_turn": st.get("max_turn"),
            })
            return agg

    GameSnapshot.__module__ = __name__
    GameSnapshot.__qualname__ = "GameSnapshot"
    return GameSnapshot


def fold_start(app: Stores, game_id: UUID, to_turn: int | None,
               to_event: int | None) -> tuple[Machine, int, bytes] | None:
    """The newest snapshot usable for a replay to ``to_turn``/``to_event``:
    ``(machine, version, head)``, or None. A snapshot at version v serves a
    replay to turn T only if no event up to v belongs to a turn after T."""
    store = getattr(app, "snapshots", None)
    if store is None:
        return None

    def catalog_of() -> dict[str, Any]:
        return created_catalog(app, game_id)

    try:
        if to_turn is None:
            for snap in store.get(game_id, desc=True, lte=to_event, limit=1):
                return machine_from(snap.state, catalog_of), snap.originator_version, snap.state["head"]
            return None
        # max_turn never decreases with the version: binary search over the
        # stored rows, decoding only the snapshots probed
        rows = store.recorder.select_events(game_id, lte=to_event)
        lo, hi, best = 0, len(rows) - 1, None
        while lo <= hi:
            mid = (lo + hi) // 2
            snap = store.mapper.to_domain_event(rows[mid])
            mt = snap.state.get("max_turn")
            if mt is not None and mt <= to_turn:
                best, lo = snap, mid + 1
            else:
                hi = mid - 1
        if best is None:
            return None
        return machine_from(best.state, catalog_of), best.originator_version, best.state["head"]
    except SnapshotOutdated:  # taken by an older build: replay from the events
        return None
    except Exception:  # a snapshot is only a cache: replay from the events instead, and say why
        log.warning("a snapshot could not be read: replaying from the events", exc_info=True,
                    extra={"game_id": getattr(game_id, "hex", game_id)})
        return None


def created_catalog(app: Stores, game_id: UUID) -> dict[str, Any]:
    """The catalog of the game's ``GameCreated`` (its first event)."""
    created: Iterable[Stored] = app.events.get(game_id, lte=1)  # type: ignore[assignment]  # a Game's events
    return first_catalog(e.data for e in created)


def first_catalog(created_data: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The catalog of the first ``GameCreated`` data ``created_data`` gives (the
    game's first event, however it was read)."""
    for data in created_data:
        return data["catalog"]
    raise SnapshotOutdated("the game has no GameCreated")


def project_game(aggregate: TMutableOrImmutableAggregate | None,
                 domain_events: Iterable[DomainEventProtocol[Any]]) -> TMutableOrImmutableAggregate | None:
    """The library's ``project_aggregate`` without its per-event
    ``isinstance(event, CanMutateProtocol)`` assertion, which (a runtime
    Protocol check) would take over half of the time of loading a game."""
    for event in domain_events:
        aggregate = event.mutate(aggregate)  # type: ignore[attr-defined]  # a Game's events: the check skipped
    return aggregate


def events_after(app: Stores, game_id: UUID, gt: int | None, lte: int | None, paged: bool,
                 page: int = 256) -> Iterator[Stored]:
    """A game's stored events after version ``gt``; ``paged`` reads them a page
    at a time (a replay to a turn usually stops long before the end)."""
    if not paged:
        yield from app.events.get(game_id, gt=gt, lte=lte)  # type: ignore[misc]  # a Game's: Envelopes
        return
    while True:
        rows: list[Stored] = list(app.events.get(game_id, gt=gt, lte=lte, limit=page))  # type: ignore[arg-type]  # a Game's
        yield from rows
        if len(rows) < page:
            return
        gt = rows[-1].originator_version

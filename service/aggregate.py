"""One event-sourced aggregate per game (``eventsourcing`` library).

The aggregate is a thin adapter: its events are envelopes (type, turn,
visible_to, data, salt, prev, hash) around the kernel's events, and applying
one feeds it to the game's ``Machine``. The rules never see this module.

Envelope class version 2 added ``salt`` (chain version 2, event_store/chain.py);
events stored before it are upcast with ``salt = None`` and verified with the
chain version 1 algorithm.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any
from uuid import UUID

from eventsourcing.domain import Aggregate

import msgpack

from event_store.chain import CHAIN_VERSION, canon, chain_version, genesis, iso, link, new_salt, new_salts
from event_store.codec import pack_recorded, packed_timestamp
from service.kernel.machine import Ev, Machine
from service.kernel.games import get_rules
from service.snapshots import GameSnapshot

_pack = msgpack.Packer(use_bin_type=True).pack
_new_event = object.__new__


_CATALOG_CANON: dict[bytes, bytes] = {}


def catalog_canon(data: dict[str, Any]) -> dict[str, bytes] | None:
    """``{"catalog": canon(catalog)}`` for a ``GameCreated``'s data, packed
    canonically once a process per catalog (a game's catalog is hundreds of
    maps: packing it canonically costs 2 to 5 ms a game for The Kaiser's
    Pirates and Merchants & Marauders; its plain MessagePack, the key it is
    kept under, 0.5 ms). The same plain bytes are the same values of the same
    types, so the same canonical bytes. None without a catalog, or one the
    plain packer refuses (then the seal packs it as any data)."""
    catalog = data.get("catalog")
    if type(catalog) is not dict:
        return None
    try:
        key = _pack(catalog)
    except (TypeError, ValueError, OverflowError):  # not plain data: ``seal`` says what is wrong with it
        return None
    packed = _CATALOG_CANON.get(key)
    if packed is None:
        packed = canon(catalog)
        if len(_CATALOG_CANON) < 16:
            _CATALOG_CANON[key] = packed
    return {"catalog": packed}


def _unpack(packed: bytes) -> Any:
    return msgpack.unpackb(packed, raw=False, strict_map_key=False)


class Game(Aggregate):
    Snapshot = GameSnapshot  # plain data (config, k, s, head), see service/snapshots.py

    if TYPE_CHECKING:  # set by the events' ``apply`` (and a snapshot's ``mutate``), not aggregate fields
        machine: Machine
        head: bytes
        max_turn: int
        retracted: set[int]

    class Created(Aggregate.Created):
        class_version = 2
        type: str
        turn: int
        visible_to: Any
        data: dict
        prev: bytes
        hash: bytes
        salt: bytes | None

        @staticmethod
        def upcast_v1_v2(state: dict) -> None:
            state["salt"] = None

        def apply(self, game: "Game") -> None:
            created = Ev(self.type, self.turn, self.visible_to, self.data)
            game.machine = Machine(get_rules(self.data["game"]), created)
            game.machine.apply(created)
            game.head = self.hash
            game.max_turn = self.turn

    class Recorded(Aggregate.Event):
        class_version = 2
        type: str
        turn: int
        visible_to: Any
        data: dict
        prev: bytes
        hash: bytes
        salt: bytes | None

        @staticmethod
        def upcast_v1_v2(state: dict) -> None:
            state["salt"] = None

        def apply(self, game: "Game") -> None:
            ev = Ev(self.type, self.turn, self.visible_to, self.data)
            if self.originator_version in getattr(game, "retracted", ()):
                game.machine.apply_retracted(ev)
            else:
                game.machine.apply(ev)
            game.head = self.hash
            game.max_turn = max(game.max_turn, self.turn)

    @classmethod
    def along_line(cls, events: Iterable[Envelope], retracted: set[int] | None = None) -> Game | None:
        """Fold a corrected game's events along its line: the retracted ones
        (service/kernel/corrections.py; ``retracted``: these instead) only
        count, they do not apply."""
        from service.kernel.corrections import retracted_versions

        stored = list(events)
        if retracted is None:
            retracted = retracted_versions(stored)
        game: Game | None = None
        for e in stored:
            game = e.mutate(game)
            if game is not None:
                game.retracted = retracted
        return game

    @classmethod
    def start(cls, game_id: UUID, created: Ev) -> "Game":
        """A new game on the current chain version (recorded in ``GameCreated``);
        its catalog's canonical bytes are packed once a process (``catalog_canon``)."""
        created.data["chain"] = CHAIN_VERSION
        ts = cls.Created.create_timestamp()
        prev = genesis(game_id)
        salt = new_salt()
        h = link(game_id, 1, ts, created.type, created.turn, created.vis, created.data, prev, salt,
                 known=catalog_canon(created.data))
        return cls._create(cls.Created, id=game_id, timestamp=ts, type=created.type,
                           turn=created.turn, visible_to=created.vis, data=created.data,
                           prev=prev, hash=h, salt=salt)

    def record(self, events: list[Ev], salts: list[bytes | None] | None = None) -> None:
        """Append events the machine has already applied (``Machine.decide``
        folds them into its own state as it makes them), chaining each. Each
        event's data is taken as it was when emitted (``Ev.frozen``), whatever
        the rules' state did to shared lists since. ``salts``: reuse these
        (a fork keeps its parent's seals), else fresh ones.

        The events of one call are one step, stored in one transaction: they
        share its timestamp. Each envelope also carries its stored row's state,
        packed here from the bytes frozen at emission (``_stored``, see
        ``Privateer._to_stored``): nothing is packed twice."""
        chain = chain_version(self.machine.config)
        fresh = new_salts(len(events)) if chain >= 2 else []
        ts = self.Recorded.create_timestamp()
        ts_text = iso(ts)
        ts_packed = packed_timestamp(ts_text)
        game_id = self.id
        pending = self._pending_events
        new = _new_event
        cls = self.Recorded
        version = self.version
        head = self.head
        max_turn = self.max_turn
        for i, ev in enumerate(events):
            version += 1
            packed = ev.packed if ev.packed is not None else _pack(ev.data)
            data = _unpack(packed)
            salt = None
            if chain >= 2:
                salt = salts[i] if salts is not None and salts[i] is not None else fresh[i]
            turn, vis = ev.turn, ev.vis
            h = link(game_id, version, ts_text, ev.type, turn, vis, data, head, salt, chain)
            rec = new(cls)
            rec.__dict__.update(originator_id=game_id, originator_version=version, timestamp=ts, type=ev.type,
                                turn=turn, visible_to=vis, data=data, prev=head, hash=h, salt=salt)
            rec.__dict__["_stored"] = pack_recorded(ts_packed, ev.type, turn, vis, packed, head, h, salt,
                                                    cls.class_version)
            pending.append(rec)
            head = h
            if turn > max_turn:
                max_turn = turn
        if events:
            self.version = version
            self.modified_on = ts
            self.head = head
            self.max_turn = max_turn


# a game's event as stored and read back (``Privateer.stored_events``)
Envelope = Game.Created | Game.Recorded

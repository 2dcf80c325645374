"""One event-sourced aggregate per game (``eventsourcing`` library).

The aggregate is a thin adapter: its events are envelopes (type, turn,
visible_to, data, prev, hash) around the kernel's events, and applying one
feeds it to the game's ``Machine``. The rules never see this module.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate

from event_store.chain import genesis, link
from service.kernel.machine import Ev, Machine
from service.kernel.rules import get_rules
from service.snapshots import GameSnapshot


class Game(Aggregate):
    Snapshot = GameSnapshot  # plain data (config, k, s, head), see service/snapshots.py

    class Created(Aggregate.Created):
        type: str
        turn: int
        visible_to: Any
        data: dict
        prev: bytes
        hash: bytes

        def apply(self, game: "Game") -> None:
            created = Ev(self.type, self.turn, self.visible_to, self.data)
            game.machine = Machine(get_rules(self.data["game"]), created)
            game.machine.apply(created)
            game.head = self.hash
            game.max_turn = self.turn

    class Recorded(Aggregate.Event):
        type: str
        turn: int
        visible_to: Any
        data: dict
        prev: bytes
        hash: bytes

        def apply(self, game: "Game") -> None:
            game.machine.apply(Ev(self.type, self.turn, self.visible_to, self.data))
            game.head = self.hash
            game.max_turn = max(game.max_turn, self.turn)

    @classmethod
    def start(cls, game_id: UUID, created: Ev) -> "Game":
        ts = cls.Created.create_timestamp()
        prev = genesis(game_id)
        h = link(game_id, 1, ts, created.type, created.turn, created.vis, created.data, prev)
        return cls._create(cls.Created, id=game_id, timestamp=ts, type=created.type,
                           turn=created.turn, visible_to=created.vis, data=created.data,
                           prev=prev, hash=h)

    def record(self, events: list[Ev]) -> None:
        """Append events the machine has already applied (``Machine.decide``
        folds them into its own state as it makes them), chaining each."""
        for ev in events:
            version = self.version + 1
            ts = self.Recorded.create_timestamp()
            h = link(self.id, version, ts, ev.type, ev.turn, ev.vis, ev.data, self.head)
            self._pending_events.append(self.Recorded(
                originator_id=self.id, originator_version=version, timestamp=ts, type=ev.type,
                turn=ev.turn, visible_to=ev.vis, data=ev.data, prev=self.head, hash=h))
            self.version = version
            self.modified_on = ts
            self.head = h
            self.max_turn = max(self.max_turn, ev.turn)

"""The games as committed now: each game's latest aggregate, cached and checked
against the store's version (the games index, written with the events) on
every use; private working copies to decide on; the saving of a step."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any
from uuid import UUID

from service.aggregate import Game
from service.app import Privateer
from service.kernel.errors import BadInput, UnknownGame
from service.kernel.events import may_read
from service.kernel.machine import Machine
from service.kernel.rules import Rules

from .access import request_rows

CACHE_GAMES = 2000


class Current:
    def __init__(self, app: Privateer):
        self.app = app
        self._rules: dict[UUID, Rules] = {}
        self._lock = threading.Lock()
        self._cache: OrderedDict[UUID, Game] = OrderedDict()

    def rules_of(self, gid: UUID) -> Rules:
        rules = self._rules.get(gid)
        if rules is None:
            rules = self.app.load(gid, version=1).machine.rules
            self._rules[gid] = rules
        return rules

    def game(self, gid: UUID) -> Game:
        """The game as committed now (read-only: do not change it)."""
        row = self.known_row(gid)
        with self._lock:
            hit = self._cache.get(gid)
            if hit is not None and hit.version == int(row["version"]):
                self._cache.move_to_end(gid)
                return hit
        game = self.app.load(gid)
        self.remember(game)
        return game

    def remember(self, game: Game) -> None:
        with self._lock:
            old = self._cache.get(game.id)
            if old is None or old.version <= game.version:
                self._cache[game.id] = game
                self._cache.move_to_end(game.id)
            while len(self._cache) > CACHE_GAMES:
                self._cache.popitem(last=False)

    def working_copy(self, gid: UUID) -> Game:
        """A private copy of the current game to decide on and save."""
        return self.copy_of(self.game(gid))

    @staticmethod
    def copy_of(base: Game) -> Game:
        """A private copy of ``base`` (a game ``game`` gave)."""
        game = object.__new__(type(base))
        game.__dict__.update(base.__dict__)
        game.machine = base.machine.copy()
        game._pending_events = []
        return game

    def fold(self, gid: UUID) -> tuple[Machine, int, bytes]:
        game = self.game(gid)
        return game.machine, game.version, game.head

    def store_version(self, gid: UUID, seat: int | None, n: int) -> int:
        """The store version of the ``n``-th event ``seat`` may read (None: the referee)."""
        if seat is None or n <= 0:
            return n
        count = 0
        for e in self.app.stored_events(gid):
            if may_read(e.visible_to, seat):
                count += 1
                if count == n:
                    return e.originator_version
        raise BadInput(f"there is no event {n} for this caller (it may read {count})")

    def version_of(self, gid: UUID) -> int:
        rows = self.app.recorder.select_games(prefix=gid.hex)
        if not rows:
            raise UnknownGame(f"no game with id {gid.hex}")
        return int(rows[0]["version"])

    def known_row(self, gid: UUID, fresh: bool = False) -> dict[str, Any]:
        """The game's row of the games index (``UnknownGame`` without one)."""
        row = self.index_row(gid, fresh)
        if row is None:
            raise UnknownGame(f"no game with id {gid.hex}")
        return row

    def index_row(self, gid: UUID, fresh: bool = False) -> dict[str, Any] | None:
        memo = None if fresh else request_rows.get()
        if memo is not None and gid.hex in memo:
            return memo[gid.hex]
        rows = self.app.recorder.select_games(prefix=gid.hex)
        return rows[0] if rows else None

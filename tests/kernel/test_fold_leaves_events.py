"""Folding stored events never changes them: a game's state may hold on to what an
event gave it (a list of targets, a hand), and a rule that later changes that list
in place would change the event already read (a chain check, a log, a view made
from the same objects after the fold would then read another history)."""

from __future__ import annotations

import copy
import random

import pytest

from service.kernel.local import LocalGame
from service.kernel.machine import Ev, Machine
from service.kernel.games import available_games


@pytest.mark.parametrize("game", available_games())
@pytest.mark.parametrize("n", range(3))
def test_folding_stored_events_leaves_each_event_as_stored(game, n):
    seats = 2 if game != "kaisers-pirates" or n else 3
    g = LocalGame(game, seats, seed=f"fold-leaves-{game}-{n}".encode().ljust(32, b"."))
    g.play_out(random.Random(n), keep=True)
    events = [Ev(e.type, e.turn, e.vis, copy.deepcopy(e.data)) for e in g.events]
    stored = copy.deepcopy([e.data for e in events])
    m = Machine(g.rules, events[0])
    for e in events:
        m.apply(e)
    changed = [i for i, (e, s) in enumerate(zip(events, stored)) if e.data != s]
    assert not changed, f"event {changed[0] + 1} ({events[changed[0]].type}) changed by the fold"
    assert m.kernel_state["finished"]

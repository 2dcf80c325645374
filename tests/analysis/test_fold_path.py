"""The search's playouts take the kernel's fold path (no event objects, service/kernel/machine.py
``Step``): the answer is the very one the same search gives on machines that keep their events."""

from __future__ import annotations

import pytest

from service.analysis import ismcts

from .positions import GAMES, position


@pytest.mark.parametrize("game", GAMES)
def test_the_search_answers_the_same_on_the_fold_path(game, monkeypatch):
    g = position(game, 5, 20)
    seat = g.to_act()[0]
    assert ismcts.machine_at(g.rules, g.state, GAMES[game]).keep_events is False
    folded = ismcts.search(g.rules, g.state, seat, playouts=12, seed=4)
    made = ismcts.machine_at

    def keeping(rules, state, seats):
        m = made(rules, state, seats)
        m.keep_events = True
        return m

    monkeypatch.setattr(ismcts, "machine_at", keeping)
    assert ismcts.search(g.rules, g.state, seat, playouts=12, seed=4) == folded

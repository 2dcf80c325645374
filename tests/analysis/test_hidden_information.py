"""What must be true (issue 34): for a fixed seed, changing in a copy of the state
anything the seat may not see leaves its analysis and its IS-MCTS bot's choice
identical, in every game. And the test can tell: a search that read the true
state (no sampler) answers differently for some of the same pairs."""

from __future__ import annotations

import random

import pytest

from service.analysis.bot import bot_for
from service.analysis.ismcts import search
from service.kernel.games import get_rules
from service.kernel.sampling import copy_state

from .positions import GAMES, other_truth, position

POINTS = [(seed, steps) for seed in (1, 2, 3, 4) for steps in (6, 30, 90)]
PLAYOUTS = {"letter-of-marque": 40, "loot": 40, "kaisers-pirates": 12, "merchants-and-marauders": 8}


def _pairs(game):
    for seed, steps in POINTS:
        g = position(game, seed, steps)
        seat = g.to_act()[0]
        other = other_truth(game, g.state, seat)
        if other is not None and len(g.legal(seat)) > 1:
            yield g, seat, other


def _reading_the_truth(state, seat, rng):
    return copy_state(state)


@pytest.mark.parametrize("game", GAMES)
def test_what_the_seat_may_not_see_changes_neither_its_analysis_nor_its_bots_choice(game):
    rules, k = get_rules(game), PLAYOUTS[game]
    bot = bot_for(rules, playouts=k)
    tried = told = 0
    for g, seat, other in _pairs(game):
        assert rules.view(other, seat) == rules.view(g.state, seat)
        assert search(rules, g.state, seat, k, seed=3) == search(rules, other, seat, k, seed=3)
        legal = g.legal(seat)
        assert bot(g.state, seat, legal, random.Random(1)) == bot(other, seat, legal, random.Random(1))
        tried += 1
        told += (search(rules, g.state, seat, k, seed=3, determinize=_reading_the_truth)
                 != search(rules, other, seat, k, seed=3, determinize=_reading_the_truth))
    assert tried >= 2
    assert told >= 1  # a search that read the hidden cards would be caught

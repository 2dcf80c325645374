"""Each game's sampler: a determinization keeps what the seat sees, depends on
nothing else, and is a state the rules play to the end."""

from __future__ import annotations

import random

import pytest

from service.analysis.ismcts import machine_at, seats_of
from service.kernel.chance import SeededChance
from service.kernel.games import get_sampler
from service.kernel.rules import get_rules
from service.kernel.sampling import copy_state

from .positions import GAMES, other_truth, position

POINTS = [(seed, steps) for seed in (1, 2, 3) for steps in (4, 25, 80)]


def play_to_end(rules, state, rng) -> dict:
    m = machine_at(rules, state, seats_of(state))
    chance = SeededChance(rng.getrandbits(128).to_bytes(16, "big"), [], 0)
    steps = 0
    while not m.k["finished"]:
        seat = m._acting_now()[0]
        m._run_live(seat, rng.choice(m._listed(seat)), chance, True)
        steps += 1
        assert steps < 100_000
    return m.k["result"]


@pytest.mark.parametrize("game", GAMES)
def test_a_determinization_keeps_the_seats_view_and_plays_to_the_end(game):
    rules, determinize = get_rules(game), get_sampler(game)
    changed = 0
    for seed, steps in POINTS:
        g = position(game, seed, steps)
        for seat in range(1, GAMES[game] + 1):
            before = copy_state(g.state)
            d = determinize(g.state, seat, random.Random(seed))
            assert g.state == before  # the true state is not touched
            assert rules.view(d, seat) == rules.view(g.state, seat)
            changed += d != g.state
            result = play_to_end(rules, d, random.Random(seed * 7 + seat))
            assert set(result["winners"]) <= set(range(1, GAMES[game] + 1))
    assert changed  # something hidden was drawn again somewhere


@pytest.mark.parametrize("game", GAMES)
def test_a_determinization_depends_only_on_what_the_seat_sees(game):
    rules, determinize = get_rules(game), get_sampler(game)
    tried = 0
    for seed, steps in POINTS:
        g = position(game, seed, steps)
        for seat in range(1, GAMES[game] + 1):
            other = other_truth(game, g.state, seat)
            if other is None:
                continue
            assert other != g.state
            assert rules.view(other, seat) == rules.view(g.state, seat)  # the change is hidden from the seat
            assert determinize(other, seat, random.Random(5)) == determinize(g.state, seat, random.Random(5))
            tried += 1
    assert tried >= 3

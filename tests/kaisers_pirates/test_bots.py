"""The heuristic bot (issue 34): the chance to sink (3.2.7: the highest die of each
group, at least double sinks), and what it commits and intercepts in seeded games."""

import random

import pytest

from service.aggregates.kaisers_pirates.board import ix
from service.aggregates.kaisers_pirates.bots import _intercept_worth, p_sink
from service.kernel.local import LocalGame
from service.kernel.games import get_rules

rules = get_rules("kaisers-pirates")
heuristic = rules.bots["heuristic"]


def test_the_chance_to_sink_is_the_highest_die_reaching_twice_the_highest():
    # a d10 against a d8: defence 1..5 need 2, 4, 6, 8, 10 (9, 7, 5, 3, 1 faces of 10); 6..8 never
    assert p_sink([10], [8]) == pytest.approx((9 + 7 + 5 + 3 + 1) / 80)
    assert p_sink([10], [8], 2) > p_sink([10], [8]) > p_sink([10], [8], -1)    # Surprise Attack; night
    assert p_sink([10, 8, 6], [8]) > p_sink([10, 8], [8]) > p_sink([10], [8])
    assert p_sink([4], [10]) == pytest.approx((3 + 1) / 40)                    # only against a 1 or a 2


def _decisions(seats: int, games: int = 3):
    for k in range(games):
        g = LocalGame("kaisers-pirates", seats, seed=f"kp-bots:{seats}:{k}".encode().ljust(32, b"."))
        rng = random.Random(k)
        while not g.machine.finished:
            seat = g.to_act()[0]
            legal = g.legal(seat)
            d = heuristic(g.state, seat, legal, rng)
            yield g.state, seat, legal, d
            g.act(seat, d)


@pytest.mark.parametrize("seats", [1, 2])
def test_it_intercepts_with_plain_cards_on_its_likeliest_sink_and_keeps_its_reactions(seats):
    commits = intercepts = 0
    for state, _seat, legal, d in _decisions(seats):
        i = ix(state)
        if d["action"] == "commit":
            commits += 1
            assert i.kind(d["card"]) != "reaction"          # kept for the opponents' turns
            if d["use"] == "intercept" and d["ship"]:           # a German ship's: not at night (-1)
                assert not i.ctype(d["card"])["intercept"].get("night")
        if d["action"] == "intercept":
            intercepts += 1
            best = max(_intercept_worth(state, i, x) for x in legal if x["action"] == "intercept")
            assert _intercept_worth(state, i, d) == best
    assert commits > 10 and intercepts > 3

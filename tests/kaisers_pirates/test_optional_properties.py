"""The optional rules together: every combination is accepted or refused with a
reason, and random games under random combinations end with the cards conserved,
nothing hidden shown, and every listed decision accepted."""

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kp_helpers import check_visibility, play

from service.aggregates.kaisers_pirates.rules import RULES
from service.kernel import BadInput

FLAGS = ["coal", "sails", "wolf", "tournament", "fast_raiders", "keep_three", "extra_damage", "torpedo_prizes",
         "shallow_pursuit", "sailing_merchants", "prize_resupply"]
BEYOND = [None, "true", "historical", "no-breakout", "historical+no-breakout"]


def expected_refusal(seats, flags, beyond, team):
    """The book's conflicts, stated independently of the code: a word the refusal must contain.
    (Every rule is allowed in solitaire, 6.0 "Molte di queste regole possono essere applicate
    anche al gioco in solitario", the phantom deciding in its interest, 5.0; keep_three with
    the team game: 6.7's three ships are claimed from 4.9's pool.)"""
    if beyond and "no-breakout" in beyond and seats != 4:
        return "4 players"
    if beyond and "tournament" in flags:
        return "Nurnberg"
    return None


def test_every_combination_is_accepted_or_refused_with_a_reason():
    counts = {"accepted": 0, "refused": 0}
    for seats in (1, 2, 3, 4):
        for n in range(len(FLAGS) + 1):
            for flags in itertools.combinations(FLAGS, n):
                for beyond in BEYOND:
                    for team in ((False, True) if seats == 4 else (False,)):
                        opts = {f: "true" for f in flags}
                        if beyond:
                            opts["beyond_1914"] = beyond
                        if team:
                            opts["team"] = "true"
                        want = expected_refusal(seats, flags, beyond, team)
                        try:
                            out = RULES.parse_options(seats, opts)
                        except BadInput as e:
                            assert want is not None, (seats, opts, str(e))
                            assert want in str(e), (want, str(e))
                            counts["refused"] += 1
                            continue
                        assert want is None, (seats, opts, want)
                        assert {k for k, v in out.items() if v is True} >= set(flags)
                        counts["accepted"] += 1
    assert counts["accepted"] > 10000 and counts["refused"] > 1000


@pytest.mark.parametrize("k,v", [("coal", "yes"), ("beyond_1914", "1915"), ("keep_three", "3")])
def test_bad_values_are_refused_naming_the_option(k, v):
    with pytest.raises(BadInput, match=k):
        RULES.parse_options(2, {k: v})


def play_options(seats, options, seed, probe_every=0):
    g, _ = play(seats, seed, options=options, check_every=40, probe_every=probe_every,
                bots=["random", "heuristic"])
    check_visibility(g, seats)
    return g


@st.composite
def combos(draw):
    seats = draw(st.sampled_from([1, 2, 3, 4]))
    while True:
        flags = draw(st.lists(st.sampled_from(FLAGS), unique=True))
        beyond = draw(st.sampled_from(BEYOND))
        if expected_refusal(seats, flags, beyond, False) is None:
            break
    opts = {f: "true" for f in flags}
    if beyond:
        opts["beyond_1914"] = beyond
    return seats, opts


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(c=combos(), seed=st.integers(0, 2**31 - 1))
def test_random_games_under_random_options(c, seed):
    seats, opts = c
    g = play_options(seats, opts, seed, probe_every=60)
    assert g.machine.k["result"] is not None


def test_every_rule_at_once_four_players():
    opts = {f: "true" for f in FLAGS if f != "tournament"}
    opts["beyond_1914"] = "historical+no-breakout"
    seen = set()
    for seed in range(3):
        g = play_options(4, opts, seed)
        seen |= {e.type for e in g.events}
    assert {"PursuitChosen", "ShipKept"} <= seen

"""Properties over many seeded games played by the bots."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.kernel import IllegalDecision
from service.kernel.local import LocalGame

from loot_helpers import DECK, MERCHANTS, all_cards, gold_total

CONFIGS = [(2, False), (3, False), (4, False), (5, False), (4, True), (6, True), (8, True)]
SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))


def test_deck_is_the_books():
    assert len(DECK) == 78 and len(MERCHANTS) == 25
    assert sum(int(m.split("-")[1][:-1]) for m in MERCHANTS) == 100
    for colour in ("blue", "green", "purple", "gold"):
        pirates = [c for c in DECK if c.startswith(colour + "-") and c != colour + "-captain"]
        assert sorted(int(c.split("-")[1][:-1]) for c in pirates) == [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4]
        assert colour + "-captain" in DECK
    assert "admiral" in DECK


def _partner(pairs, seat):
    return (seat + 1 if seat % 2 else seat - 1) if pairs else None


def _may_see_hand(pairs, viewer, seat):
    return viewer == seat or viewer == _partner(pairs, seat)


def check_views(g, n, pairs):
    st_ = g.state
    for viewer in range(1, n + 1):
        v = g.rules.view(st_, viewer)
        text = json.dumps(v)
        for s in range(1, n + 1):
            hand = v["players"][str(s)]["hand"]
            if _may_see_hand(pairs, viewer, s):
                assert hand == sorted(st_["hands"][s - 1])
            else:
                assert hand is None
                assert not any(f'"{c}"' in text for c in st_["hands"][s - 1])
        assert not any(f'"{c}"' in text for c in st_["pile"])


def check_events(g, pairs):
    taker = None
    for e in g.events:
        if e.type == "CardTaken":
            taker = e.data["seat"]
        elif e.type == "CardDrawn":
            assert e.vis == sorted({taker} | ({_partner(pairs, taker)} if pairs else set()))
        elif e.type == "ChanceAwaited":
            assert e.vis == "referee"


def play_checked(n, pairs, seed, bot, check_every=1, legal_every=0):
    options = {"pairs": "true"} if pairs else {}
    g = LocalGame("loot", n, options, seed=seed.to_bytes(8, "big") * 4)
    rng = random.Random(seed)
    steps = 0
    while not g.machine.finished:
        st_ = g.state
        assert gold_total(st_) == 100
        assert sorted(all_cards(st_)) == DECK
        if steps % check_every == 0:
            check_views(g, n, pairs)
        seat = g.to_act()[0]
        legal = g.legal(seat)
        assert legal, "a seat to act always has a legal decision"
        if legal_every and steps % legal_every == 0:
            for d in legal:
                g.machine.copy().decide(seat, d, g.chance())  # accepted (raises otherwise)
        # the end condition holds exactly when the rules say the game is over
        pile_empty = not st_["pile"]
        hands = st_["hands"]
        if pairs:
            out = any(not hands[i] and not hands[i + 1] for i in range(0, n, 2))
        else:
            out = any(not h for h in hands)
        assert not (pile_empty and out)
        d = g.rules.bots[bot](st_, seat, legal, rng)
        g.act(seat, d)
        steps += 1
        assert steps < 3000
    st_ = g.state
    assert st_["sea"] == [] and not st_["pile"]
    assert gold_total(st_) == 100 and sorted(all_cards(st_)) == DECK
    hands = st_["hands"]
    if pairs:
        assert any(not hands[i] and not hands[i + 1] for i in range(0, n, 2))
    else:
        assert any(not h for h in hands)
    result = g.machine.k["result"]
    scores = {int(s): v for s, v in result["scores"].items()}
    assert set(scores) == set(range(1, n + 1))
    check_events(g, pairs)
    check_views(g, n, pairs)
    return g, steps


@pytest.mark.parametrize("n,pairs", CONFIGS)
@pytest.mark.parametrize("bot", ["random", "greedy"])
@SETTINGS
@given(seed=st.integers(0, 2**63))
def test_games_end_conserve_gold_and_hide_hands(n, pairs, bot, seed):
    play_checked(n, pairs, seed, bot, check_every=3, legal_every=7)


@pytest.mark.parametrize("n,pairs", CONFIGS)
def test_complete_random_games(n, pairs):
    for seed in range(5):
        g, steps = play_checked(n, pairs, 1000 + seed, "random", check_every=50)
        assert g.events[-1].type == "GameFinished"
        if pairs:
            r = g.rules.outcome(g.state)
            for team in r["teams"].values():
                a, b = team["seats"]
                assert r["scores"][str(a)] == r["scores"][str(b)] == team["score"]


@SETTINGS
@given(seed=st.integers(0, 2**63), junk=st.sampled_from([
    {"action": "discard", "card": "merchant-5a"}, {"action": "admiral", "merchant": "merchant-9z"},
    {"action": "captain", "card": "blue-captain", "merchant": "merchant-2a"},
    {"action": "pirate", "card": "blue-4a"}, {"action": "draw", "x": 1}, {}, {"action": 3}]))
def test_unlisted_decisions_are_refused_and_append_nothing(seed, junk):
    g = LocalGame("loot", 3, seed=seed.to_bytes(8, "big") * 4)
    rng = random.Random(seed)
    for _ in range(rng.randrange(0, 60)):
        if g.machine.finished:
            return
        seat = g.to_act()[0]
        g.act(seat, rng.choice(g.legal(seat)))
    if g.machine.finished:
        return
    seat = g.to_act()[0]
    if junk in g.legal(seat):
        return
    n_events, state = len(g.events), json.dumps(g.state, sort_keys=True)
    with pytest.raises(IllegalDecision):
        g.act(seat, junk)
    assert len(g.events) == n_events and json.dumps(g.state, sort_keys=True) == state

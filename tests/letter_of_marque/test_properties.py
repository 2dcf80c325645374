"""Properties over many seeds: random legal play always ends, never raises,
conserves every card and ship, every legal decision is accepted, and no seat
ever sees another seat's hidden base."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from service.kernel.local import LocalGame

seeds = st.binary(min_size=32, max_size=32)


def check_conservation(g):
    s = g.state
    plunders = {}
    for e in g.events:
        if e.type == "TreasurePlundered":
            plunders[e.data["attacker"]] = plunders.get(e.data["attacker"], 0) + 1
    for i, p in enumerate(s["players"]):
        seat, colour = i + 1, p["colour"]
        # treasure cards of this colour: deck + drawn + under ships at sea + in any score pile
        values = list(p["deck"]) + ([p["drawn"]] if p["drawn"] is not None else [])
        at_sea = [sh for sh in s["sea"] if sh["owner"] == seat]
        values += [sh["treasure"] for sh in at_sea]
        piled = sum(1 for e in g.events if e.type in ("ShipReturned",) and e.data["seat"] == seat)
        stolen = sum(1 for e in g.events if e.type == "TreasurePlundered" and e.data["defender"] == seat)
        assert len(values) + piled + stolen == 5
        # ships: reserve + at sea + gone (returned or plundered) == 5
        assert sum(p["reserve"].values()) + len(at_sea) + piled + stolen == 5
        # cannon cards: in hand + captured by opponents + removed by plundering == 3
        captured_by_others = sum(q["captured"].count(colour) for q in s["players"])
        assert p["cannons"] + captured_by_others + plunders.get(seat, 0) == 3
    total_pile = sum(len(p["treasures"]) for p in s["players"])
    assert total_pile == sum(1 for e in g.events if e.type in ("ShipReturned", "TreasurePlundered"))


def check_views(g):
    for seat in range(1, len(g.state["players"]) + 1):
        view = g.rules.view(g.state, seat)
        for ship in view["sea"]:
            if ship["owner"] != seat and not ship["revealed"]:
                assert ship["armed"] == "hidden"
        for n, p in view["players"].items():
            if int(n) != seat:
                assert set(p["reserve"]) == {"ships"}
            assert "deck_cards" not in p
    # events: another seat's secret base choice is never visible
    for e in g.events:
        if e.type in ("ShipBaseChosen", "Decided") and e.vis != "all":
            assert e.vis == [e.data.get("seat", None) or _owner(g, e)]


def _owner(g, e):
    colour = e.data["ship"].split("-")[0]
    return next(i + 1 for i, p in enumerate(g.state["players"]) if p["colour"] == colour)


@settings(max_examples=40, deadline=None)
@given(seed=seeds, seats=st.integers(2, 6), bot_seed=st.integers(0, 2**32))
def test_random_play_ends_conserves_and_never_leaks(seed, seats, bot_seed):
    g = LocalGame("letter-of-marque", seats, seed=seed)
    rng = random.Random(bot_seed)
    steps = 0
    while not g.machine.finished:
        seat = g.to_act()[0]
        legal = g.legal(seat)
        assert legal, "a seat to act always has a legal decision"
        g.act(seat, rng.choice(legal))
        steps += 1
        assert steps < 500
        if steps % 7 == 0:
            check_conservation(g)
            check_views(g)
    check_conservation(g)
    check_views(g)
    assert g.events[-1].type == "GameFinished"
    result = g.machine.k["result"]
    assert set(result["scores"]) == {str(s) for s in range(1, seats + 1)}


@settings(max_examples=15, deadline=None)
@given(seed=seeds, seats=st.integers(2, 6), bot_seed=st.integers(0, 2**32))
def test_every_listed_decision_is_accepted(seed, seats, bot_seed):
    g = LocalGame("letter-of-marque", seats, seed=seed)
    rng = random.Random(bot_seed)
    while not g.machine.finished:
        for seat in g.to_act():
            for d in g.legal(seat):
                trial = g.machine.copy()
                trial.decide(seat, d, g.chance())  # must not raise
        seat = g.to_act()[0]
        g.act(seat, rng.choice(g.legal(seat)))


@settings(max_examples=10, deadline=None)
@given(seed=seeds)
def test_same_seed_same_game(seed):
    a = LocalGame("letter-of-marque", 4, seed=seed)
    b = LocalGame("letter-of-marque", 4, seed=seed)
    a.play_out(random.Random(1))
    b.play_out(random.Random(1))
    assert [(e.type, e.data) for e in a.events[1:]] == [(e.type, e.data) for e in b.events[1:]]

"""The seating's guarantees (service/tournaments/seating.py, its module text), as properties over
player counts 5-60, tables of 2 to 6 and 1 to 6 rounds, with standings in any order."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.tournaments.seating import (Past, first_round, later_round, repeat_bound, table_cost,
                                         table_sizes)


def play(n: int, largest: int, rounds: int, rnd):
    """Seat ``rounds`` rounds of ``n`` players, the standings drawn at random each round;
    every guarantee checked as each round is seated. Returns the rounds."""
    players = [f"p{i}" for i in range(n)]
    allowed = list(range(2, largest + 1))
    history: list[dict] = []
    for r in range(rounds):
        sizes, byes = table_sizes(n, allowed, largest)
        assert sum(sizes) + byes == n and all(2 <= s <= largest for s in sizes)
        assert max(sizes) - min(sizes) <= 1 and byes == (n % 2 if largest == 2 else 0)
        past = Past.of(history)
        ranked = players[:]
        rnd.shuffle(ranked)
        if r == 0:
            tables, out = first_round(ranked, sizes, byes)
        else:
            tables, out = later_round(ranked, sizes, byes, past)
        check_round(r + 1, ranked, sizes, tables, out, past, history)
        history.append({"tables": [{"players": t} for t in tables], "byes": out})
    return history


def check_round(number, ranked, sizes, tables, out, past, history):
    # 1. everyone seated exactly once, or a bye; the sizes as stated
    seated = [p for t in tables for p in t]
    assert sorted(seated + out) == sorted(ranked)
    assert sorted(map(len, tables), reverse=True) == sizes
    # 2. a second bye only once everyone seated has had one
    for b in out:
        assert all(past.byes.get(b, 0) <= past.byes.get(p, 0) for p in seated)
    if number == 1:
        return
    # 6. the first seat to a player of the table who has played first least often
    for t in tables:
        assert past.firsts(t[0]) == min(past.firsts(p) for p in t)
    index = {p: i for i, p in enumerate(q for q in ranked if q in set(seated))}
    met = [[past.times_met(p, q) for q in index] for p in index]
    firsts = [past.firsts(p) for p in index]
    groups = [[index[p] for p in t] for t in tables]
    # 3. no swap of two players of different tables lowers (repeats, first seats, spread)
    costs = [table_cost(g, met, firsts) for g in groups]
    for a in range(len(groups)):
        for b in range(a + 1, len(groups)):
            before = tuple(x + y for x, y in zip(costs[a], costs[b]))
            for i, p in enumerate(groups[a]):
                for j, q in enumerate(groups[b]):
                    ga = groups[a][:i] + [q] + groups[a][i + 1:]
                    gb = groups[b][:j] + [p] + groups[b][j + 1:]
                    after = tuple(x + y for x, y in zip(table_cost(ga, met, firsts), table_cost(gb, met, firsts)))
                    assert after >= before, (number, tables)
    # 4. each player's earlier meetings at its table within the stated bound
    most = max(sum(past.met.get(p, {}).values()) for p in seated)
    for t in tables:
        bound = repeat_bound(len(seated), max(sizes), len(t), most)
        for p in t:
            assert sum(past.times_met(p, q) for q in t if q != p) <= bound, (number, t, bound)
    # 5. round 2: no round-1 opponent again with at least as many tables as round 1's largest
    if number == 2 and len(tables) >= max(len(x["players"]) for x in history[0]["tables"]):
        assert all(past.times_met(p, q) == 0 for t in tables for p in t for q in t)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(5, 60), largest=st.integers(2, 6), rounds=st.integers(1, 6), rnd=st.randoms(use_true_random=False))
def test_seating_keeps_its_guarantees(n, largest, rounds, rnd):
    play(n, largest, rounds, rnd)


def test_thirteen_at_four_meet_nobody_again_in_round_two():
    import random

    for seed in range(30):
        history = play(13, 4, 2, random.Random(seed))
        first = {p: t["players"] for t in history[0]["tables"] for p in t["players"]}
        for t in history[1]["tables"]:
            for p in t["players"]:
                assert not set(first[p]) & (set(t["players"]) - {p})


def test_a_bye_goes_to_a_different_player_each_round():
    import random

    history = play(9, 2, 6, random.Random(3))
    byes = [p for r in history for p in r["byes"]]
    assert len(byes) == 6 and len(set(byes)) == 6


def test_table_sizes_of_a_game_with_gaps():
    # Loot in pairs seats 4, 6 or 8: 14 players at up to 8 are tables of 8 and 6; 13 leave one out
    assert table_sizes(14, [4, 6, 8], 8) == ([8, 6], 0)
    assert table_sizes(13, [4, 6, 8], 8) == ([6, 6], 1)
    assert table_sizes(13, [2, 3, 4], 4) == ([4, 3, 3, 3], 0)
    assert table_sizes(7, [2], 2) == ([2, 2, 2], 1)

"""The ismcts bot's work a decision: Merchants & Marauders' bot searches with its lighter
budget and horizon (service/analysis/bot.py ``GAMES``), the other games' with the
defaults, and a seeded decision is the same again; the M&M heuristic bots' kept tables
(distances, goods wanted) answer as a fresh computation does, after the board changed too."""

from __future__ import annotations

import random
from collections import deque

from service.aggregates.merchants_and_marauders import bots as mm_bots
from service.aggregates.merchants_and_marauders.catalog import tables
from service.analysis.bot import BUDGET, GAMES, bot_for, work
from service.analysis.ismcts import HORIZON, best, search
from service.kernel.games import get_rules
from service.kernel.local import LocalGame

GAME = "merchants-and-marauders"


def _mid_game(steps: int = 60) -> LocalGame:
    g = LocalGame(GAME, 2, seed=b"bot-work".ljust(32, b"."))
    rng = random.Random(2)
    merchant = g.rules.bots["merchant"]
    for _ in range(steps):
        seat = g.to_act()[0]
        g.act(seat, merchant(g.state, seat, g.legal(seat), rng))
    while len(g.legal(g.to_act()[0])) < 2:
        seat = g.to_act()[0]
        g.act(seat, g.legal(seat)[0])
    return g


def test_each_game_has_its_work():
    assert work(GAME) == GAMES[GAME][1:3] and GAMES[GAME][1] < BUDGET
    assert work("loot") == (BUDGET, HORIZON)


def test_the_mm_bot_is_the_search_with_its_work_and_the_same_again():
    g = _mid_game()
    seat = g.to_act()[0]
    legal = g.legal(seat)
    bot = bot_for(get_rules(GAME), parts=1)  # one search (the bot's two: test_bot_split.py)
    first = bot(g.state, seat, legal, random.Random(5))
    assert bot(g.state, seat, legal, random.Random(5)) == first
    budget, horizon = work(GAME)
    stats = search(g.rules, g.state, seat, 50, random.Random(5).getrandbits(64), budget=budget, horizon=horizon)
    assert stats[best(stats)]["decision"] == first


def _bfs(adj, goals, avoid):
    dist = {z: 0 for z in goals}
    q = deque(goals)
    while q:
        z = q.popleft()
        for n in adj[z]:
            if n not in dist and n not in avoid:
                dist[n] = dist[z] + 1
                q.append(n)
    return dist


def test_kept_distances_and_goods_wanted_answer_as_a_fresh_computation():
    g = _mid_game()
    state = g.state
    adj = tables(state)["adj"]
    zones = sorted(adj)
    for goal, avoid in [(zones[0], set()), (zones[3], {zones[1], zones[5]}), (zones[0], {zones[2]})]:
        for _ in range(2):  # the second answer is the kept one
            assert mm_bots._dist_to(state, {goal}, avoid) == _bfs(adj, [goal], avoid)
    S = tables(state)
    fresh = {}
    for z, t in state["board"]["demand"].items():
        fresh.setdefault(S["demand"][t], []).append(z)
    assert mm_bots._wanted(state) == fresh and mm_bots._wanted(state) == fresh
    demand = state["board"]["demand"]
    a, b = sorted(demand)[:2]
    if demand[a] != demand[b]:  # a tile moved: the goods wanted follow the board
        demand[a], demand[b] = demand[b], demand[a]
        moved = {}
        for z, t in demand.items():
            moved.setdefault(S["demand"][t], []).append(z)
        assert mm_bots._wanted(state) == moved != fresh

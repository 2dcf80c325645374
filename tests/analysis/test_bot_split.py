"""A Merchants & Marauders or Kaiser's Pirates bot decision is two independent searches (root
parallel, service/analysis/bot.py ``settings``): the bot takes the most played decision of their merged
statistics (``ismcts.merge``: playouts summed, rates averaged over them), the searches seeded in
turn from its stream, each with half the game's playouts and budget; the service's pool of worker
processes (service/http/bot_searches.py) gives exactly what one search after the other gives, so
a seeded game plays the same wherever its searches ran; the other games' bot is one search."""

from __future__ import annotations

import os
import random
import signal

import pytest

from service.analysis.bot import PLAYOUTS, bot_for, one_by_one, settings, split, split_games, work
from service.analysis.ismcts import best, key, merge, search
from service.http.bot_searches import BotSearches
from service.kernel.games import get_rules
from service.kernel.local import LocalGame

GAME = "merchants-and-marauders"


def _mid_game(game: str = GAME, steps: int = 60) -> LocalGame:
    g = LocalGame(game, 2, seed=b"bot-split".ljust(32, b"."))
    rng = random.Random(3)
    for _ in range(steps):
        seat = g.to_act()[0]
        g.act(seat, rng.choice(g.legal(seat)))
    while len(g.legal(g.to_act()[0])) < 2:
        seat = g.to_act()[0]
        g.act(seat, g.legal(seat)[0])
    return g


def _parts(g: LocalGame, seat: int, seeds: list[int], game: str = GAME) -> list[dict]:
    playouts, budget, horizon, _ = settings(game)
    assert budget is not None
    n = len(seeds)
    return [{"game": game, "state": g.state, "seat": seat, "playouts": playouts // n, "seed": s,
             "budget": budget // n, "horizon": horizon} for s in seeds]


@pytest.fixture
def pool():
    searches = BotSearches()
    yield searches
    searches.close()


def test_merged_statistics_sum_the_playouts_and_average_the_rates_over_them():
    g = _mid_game()
    seat = g.to_act()[0]
    parts = one_by_one(_parts(g, seat, [11, 12]))
    merged = merge(parts)
    by_key = [{key(r["decision"]): r for r in p} for p in parts]
    assert [key(r["decision"]) for r in merged][:len(parts[0])] == [key(r["decision"]) for r in parts[0]]
    assert sum(r["playouts"] for r in merged) == sum(r["playouts"] for p in parts for r in p)
    for row in merged:
        rows = [b[key(row["decision"])] for b in by_key if key(row["decision"]) in b]
        played = sum(r["playouts"] for r in rows)
        assert row["playouts"] == played
        if played:
            won = sum(r["win_rate"] * r["playouts"] for r in rows if r["playouts"])
            assert row["win_rate"] == pytest.approx(won / played)
        else:
            assert row["win_rate"] is None


@pytest.mark.parametrize("game", [GAME, "kaisers-pirates"])
def test_the_bot_takes_the_most_played_of_two_searches_seeded_in_turn(game):
    assert split(game) == 2 and split("loot") == 1 and split_games() == [GAME, "kaisers-pirates"]
    g = _mid_game(game)
    seat = g.to_act()[0]
    legal = g.legal(seat)
    chosen = bot_for(get_rules(game))(g.state, seat, legal, random.Random(7))
    rng = random.Random(7)
    seeds = [rng.getrandbits(64), rng.getrandbits(64)]
    parts = _parts(g, seat, seeds, game)
    assert [p["playouts"] for p in parts] == [settings(game)[0] // 2] * 2
    merged = merge(one_by_one(parts))
    assert merged[best(merged)]["decision"] == chosen


def test_searches_in_worker_processes_give_what_one_after_the_other_gives(pool):
    g = _mid_game()
    seat = g.to_act()[0]
    parts = _parts(g, seat, [21, 22])
    assert pool(parts) == one_by_one(parts)
    assert pool._pool is not None  # they ran in the workers
    legal = g.legal(seat)
    assert (bot_for(get_rules(GAME), searches=pool)(g.state, seat, legal, random.Random(9))
            == bot_for(get_rules(GAME))(g.state, seat, legal, random.Random(9)))


def test_a_game_not_split_is_one_search_as_before():
    g = _mid_game("loot", 20)
    seat = g.to_act()[0]
    legal = g.legal(seat)
    chosen = bot_for(get_rules("loot"))(g.state, seat, legal, random.Random(4))
    stats = search(g.rules, g.state, seat, PLAYOUTS, random.Random(4).getrandbits(64), budget=work("loot")[0],
                   horizon=work("loot")[1])
    assert stats[best(stats)]["decision"] == chosen


def test_a_worker_that_dies_costs_the_decision_nothing(pool, caplog):
    g = _mid_game()
    seat = g.to_act()[0]
    parts = _parts(g, seat, [31, 32])
    assert pool(parts) == one_by_one(parts)
    broken = pool._pool
    assert broken is not None
    worker = next(iter(broken._processes.values()))
    os.kill(worker.pid, signal.SIGKILL)  # killed from outside
    worker.join()
    assert pool(parts) == one_by_one(parts)  # searched here instead
    assert "search pool broke" in caplog.text
    assert pool(parts) == one_by_one(parts) and pool._pool is not None and pool._pool is not broken

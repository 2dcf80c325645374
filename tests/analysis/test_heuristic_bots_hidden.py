"""Each game's heuristic bots choose from what their seat may see (issue 34): for a
fixed seed, a determinization of the state (everything the seat may not see drawn
again, service/aggregates/<game>/sampler.py) leaves the bot's choice identical, at
every decision of a few seeded games the bots play among themselves."""

from __future__ import annotations

import random

import pytest

from service.kernel.games import get_sampler
from service.kernel.local import LocalGame
from service.kernel.games import get_rules

# (game, seats, the bots seated in turn, every how many decisions one is checked)
TABLES = [("letter-of-marque", 3, ["captain"], 1), ("loot", 3, ["greedy"], 2), ("kaisers-pirates", 2, ["heuristic"], 5),
          ("merchants-and-marauders", 4, ["pirate", "merchant"], 7)]


@pytest.mark.parametrize("game,seats,names,every", TABLES, ids=[t[0] for t in TABLES])
def test_a_heuristic_bot_chooses_the_same_whatever_its_seat_cannot_see(game, seats, names, every):
    rules, determinize = get_rules(game), get_sampler(game)
    checked = 0
    for i in range(2):
        g = LocalGame(game, seats, seed=f"hidden-bots:{game}:{i}".encode().ljust(32, b"."))
        bots = {s: rules.bots[names[(s - 1) % len(names)]] for s in range(1, seats + 1)}
        rng = random.Random(i)
        step = 0
        while not g.machine.finished and step < 3000:
            seat = g.to_act()[0]
            legal = g.legal(seat)
            if step % every == 0 and len(legal) > 1:
                other = determinize(g.state, seat, random.Random(step))
                assert rules.view(other, seat) == rules.view(g.state, seat)
                mine = bots[seat](g.state, seat, legal, random.Random(step))
                assert bots[seat](other, seat, legal, random.Random(step)) == mine, (game, i, step, seat)
                checked += 1
            g.act(seat, bots[seat](g.state, seat, legal, rng))
            step += 1
    assert checked >= 20

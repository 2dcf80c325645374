"""``python -m bench.strength N [--only GAME] [--playouts K] [--budget B] [--seed S]``:
the ismcts bot (service/analysis) against each game's heuristic bot in 2-seat
games, N games a game, the seats alternated (the ismcts bot is seat 1 in even
games, seat 2 in odd ones); its win share (a shared win counts 1/k) with the
seats' split, and the CPU time. Not a test: the issue's target is 60% of 200
games. Letter of Marque has no heuristic bot yet: it plays ``random`` there.

``--cost``: instead, the determinization's cost: at a seeded mid-game position
of each game, the CPU time of a 1,000-playout analysis (the search of
``tools analyse``, without the store) against 1,000 bare random playouts from the
same position (the issue's target: at most 2x).
"""

from __future__ import annotations

import argparse
import os
import random
import time

from service.analysis.bot import BUDGET, PLAYOUTS, bot_for
from service.analysis.ismcts import search
from service.kernel.local import LocalGame
from service.kernel.rules import get_rules

STEPS = {"letter-of-marque": 10, "loot": 30, "kaisers-pirates": 60, "merchants-and-marauders": 150}  # mid-game
OPPONENT = {"letter-of-marque": "random", "loot": "greedy", "kaisers-pirates": "heuristic",
            "merchants-and-marauders": "merchant"}


def duel(game: str, n: int, playouts: int, budget: int | None, seed: str) -> dict:
    rules = get_rules(game)
    ismcts = bot_for(rules, playouts=playouts, budget=budget)
    other = rules.bots[OPPONENT[game]]
    share = [0.0, 0.0]
    played = [0, 0]
    started = time.process_time()
    for i in range(n):
        me = 1 if i % 2 == 0 else 2
        bots = {me: ismcts, 3 - me: other}
        g = LocalGame(game, 2, seed=f"strength:{seed}:{game}:{i}".encode().ljust(32, b"."))
        rng = random.Random(f"{seed}:{i}")
        while not g.machine.finished:
            seat = g.to_act()[0]
            g.act(seat, bots[seat](g.state, seat, g.legal(seat), rng))
        winners = g.machine.k["result"]["winners"]
        share[me - 1] += 1.0 / len(winners) if me in winners else 0.0
        played[me - 1] += 1
    return {"game": game, "games": n, "opponent": OPPONENT[game], "win_share": sum(share) / n if n else 0.0,
            "as_seat_1": share[0] / played[0] if played[0] else None,
            "as_seat_2": share[1] / played[1] if played[1] else None,
            "cpu_seconds": time.process_time() - started}


def cost(game: str, playouts: int = 1000) -> dict:
    """CPU seconds of a ``playouts``-playout search and of as many bare playouts, same position."""
    g = LocalGame(game, 2, seed=f"cost:{game}".encode().ljust(32, b"."))
    rng = random.Random(1)
    steps = STEPS[game]
    for _ in range(steps):
        seat = g.to_act()[0]
        g.act(seat, rng.choice(g.legal(seat)))
        if g.machine.finished:
            raise SystemExit(f"{game} ended before step {steps}: pick fewer steps")
    seat = g.to_act()[0]
    started = time.process_time()
    search(g.rules, g.state, seat, playouts, seed=1)
    analysed = time.process_time() - started
    started = time.process_time()
    for i in range(playouts):
        bare = LocalGame.__new__(LocalGame)
        bare.__dict__.update(g.__dict__)
        bare.machine, bare.events, bare.actions = g.machine.copy(), [], 0
        bare.play_out(random.Random(i), keep=False)
    plain = time.process_time() - started
    return {"game": game, "playouts": playouts, "analysis_cpu": analysed, "bare_cpu": plain,
            "ratio": analysed / plain if plain else None}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.strength", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("games", type=int, nargs="?", default=20, help="games a game (default 20)")
    p.add_argument("--only", action="append", help="only this game (again for more)")
    p.add_argument("--playouts", type=int, default=PLAYOUTS, help=f"the ismcts bot's playouts a decision ({PLAYOUTS})")
    p.add_argument("--budget", type=int, default=BUDGET, help=f"its playout decisions a decision ({BUDGET}; 0: none)")
    p.add_argument("--seed", default="1")
    p.add_argument("--cost", action="store_true", help="time an analysis against bare playouts instead")
    args = p.parse_args(argv)
    games = args.only or list(OPPONENT)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for game in games:
        if args.cost:
            r = cost(game)
            print(f"{game}: {r['playouts']} playouts, analysis {r['analysis_cpu']:.2f} s CPU, bare "
                  f"{r['bare_cpu']:.2f} s CPU: {r['ratio']:.2f}x")
        else:
            r = duel(game, args.games, args.playouts, args.budget or None, args.seed)
            print(f"{game}: ismcts vs {r['opponent']}, {r['games']} games: win share {r['win_share']:.0%} "
                  f"(seat 1 {r['as_seat_1']:.0%}, seat 2 {r['as_seat_2']:.0%}), {r['cpu_seconds']:.0f} s CPU")
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

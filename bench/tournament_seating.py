"""Seating a tournament: 200 players x 6 rounds, in CPU seconds (issue 44's target: under 2 s).

``python -m bench.tournament_seating [--players N] [--rounds R] [--seats S ...] [--repeat K] [--json]``

For each table size, the seating of every round (service/tournaments/seating.py: round 1 dealt from
a shuffle, later rounds by the swap search, or at two-player tables by the matching) with the
standings drawn at random each round (the search's hardest case: every table's standings spread
out), measured with ``time.process_time`` (the best of ``--repeat`` runs), and as a share of the
2 s target. Also reported: the repeat meetings left over the whole tournament (pairs who met
twice or more).
"""

from __future__ import annotations

import argparse
import json
import random
import time

from service.tournaments.seating import Past, first_round, later_round, table_sizes


TARGET = 2.0  # CPU seconds for 200 players x 6 rounds (issue 44)


def seat_all(players: int, rounds: int, seats: int, seed: int) -> tuple[float, int]:
    rng = random.Random(seed)
    names = [f"p{i:03d}" for i in range(players)]
    history: list[dict] = []
    started = time.process_time()
    for r in range(rounds):
        sizes, byes = table_sizes(players, list(range(2, seats + 1)), seats)
        ranked = names[:]
        rng.shuffle(ranked)
        if r == 0:
            tables, out = first_round(ranked, sizes, byes)
        else:
            tables, out = later_round(ranked, sizes, byes, Past.of(history))
        history.append({"tables": [{"players": t} for t in tables], "byes": out})
    cpu = time.process_time() - started
    met = Past.of(history).met
    repeats = sum(1 for p in met for q, n in met[p].items() if p < q and n > 1)
    return cpu, repeats


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.tournament_seating", description=__doc__.split("\n")[0])
    p.add_argument("--players", type=int, default=200)
    p.add_argument("--rounds", type=int, default=6)
    p.add_argument("--seats", type=int, nargs="*", default=[2, 3, 4, 5, 6])
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    rows = []
    for seats in args.seats:
        runs = [seat_all(args.players, args.rounds, seats, seed) for seed in range(args.repeat)]
        cpu = min(r[0] for r in runs)
        rows.append({"players": args.players, "rounds": args.rounds, "seats": seats, "cpu_seconds": round(cpu, 3),
                     "of_target": round(cpu / TARGET, 2), "repeat_pairs": max(r[1] for r in runs)})
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"seating {args.players} players x {args.rounds} rounds (CPU seconds, best of {args.repeat}; "
          f"the share of the {TARGET:.0f} s target)")
    for r in rows:
        print(f"  tables of up to {r['seats']}: {r['cpu_seconds']:.3f} s  ({r['of_target']:.2f} of the target); "
              f"pairs met twice or more: {r['repeat_pairs']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

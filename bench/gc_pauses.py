"""The cyclic collector's share of a serving process's CPU, at Python's default
thresholds and at the server's (service/http/heap.py ``THRESHOLDS``), side by side.

``python -m bench.gc_pauses [--games 40] [--rounds 60] [--json]``

Each setting runs in a process of its own (the same seeded games, the same
decisions): ``games`` games of the four kinds are created in one store, the heap
is frozen as a server freezes it (``heap.settle``'s ``gc.freeze()``), then the
games are played round robin through ``Privateer.act`` (the repository's cache
holds every game, as a server's does) for ``rounds`` rounds. A callback on
``gc.callbacks`` times every collection (the thread's CPU time). Reported per
setting: the collections of each generation, the collector's CPU against the
whole run's, the longest collection (a pause every request in flight waits
for), and the CPU per decision.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

DEFAULT = (700, 10, 10)


def _probe(thresholds: tuple[int, int, int], games: int, rounds: int) -> dict:
    """One setting, in this process."""
    import gc
    import random
    import time

    from service.app import Privateer

    counts, spent, longest, began = [0, 0, 0], [0.0, 0.0, 0.0], [0.0], [0.0]

    def timed(phase: str, info: dict) -> None:
        if phase == "start":
            began[0] = time.thread_time()
            return
        t = time.thread_time() - began[0]
        counts[info["generation"]] += 1
        spent[info["generation"]] += t
        longest[0] = max(longest[0], t)

    kinds = [("letter-of-marque", 3), ("loot", 4), ("kaisers-pirates", 3), ("merchants-and-marauders", 4)]
    app = Privateer(os.path.join(tempfile.mkdtemp(prefix="privateer-gc-"), "gc.db"), snapshot_interval=0)
    gids = [app.create(*kinds[i % len(kinds)], seed=bytes([i % 256]) * 32) for i in range(games)]
    gc.collect()
    gc.freeze()
    gc.set_threshold(*thresholds)
    rng = random.Random(1)
    gc.callbacks.append(timed)
    cpu0, decisions = time.process_time(), 0
    for _ in range(rounds):
        for gid in gids:
            m = app.load(gid).machine
            if m.finished or m.awaiting_chance() is not None or not m.to_act():
                continue
            seat = m.to_act()[0]
            app.act(gid, seat, rng.choice(m.legal(seat)))
            decisions += 1
    cpu = time.process_time() - cpu0
    gc.callbacks.remove(timed)
    return {"thresholds": list(thresholds), "decisions": decisions, "collections": counts,
            "collector_ms": [round(x * 1000, 1) for x in spent], "collector_share": sum(spent) / cpu,
            "longest_ms": round(longest[0] * 1000, 1), "cpu_ms_per_decision": round(cpu / max(1, decisions) * 1000, 2)}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.gc_pauses", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--rounds", type=int, default=60)
    p.add_argument("--json", action="store_true")
    p.add_argument("--probe", help=argparse.SUPPRESS)  # one setting, in a child process: "young,middle,old"
    args = p.parse_args(argv)
    if args.probe:
        print(json.dumps(_probe(tuple(int(x) for x in args.probe.split(",")), args.games, args.rounds)))
        return 0
    from service.http.heap import THRESHOLDS

    rows = []
    for thresholds in (DEFAULT, THRESHOLDS):
        out = subprocess.run([sys.executable, "-m", "bench.gc_pauses", "--games", str(args.games), "--rounds",
                              str(args.rounds), "--probe", ",".join(map(str, thresholds))],
                             capture_output=True, text=True, check=True)
        rows.append(json.loads(out.stdout.strip().splitlines()[-1]))
    result = {"load": os.getloadavg(), "rows": rows,
              "share_ratio": rows[1]["collector_share"] / rows[0]["collector_share"]}
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    for r in rows:
        print(f"thresholds {tuple(r['thresholds'])}: {r['decisions']} decisions, collections {r['collections']}, "
              f"collector {r['collector_ms']} ms ({100 * r['collector_share']:.1f}% of the CPU), longest "
              f"{r['longest_ms']} ms, {r['cpu_ms_per_decision']} ms CPU a decision")
    print(f"the server's thresholds: the collector's share {result['share_ratio']:.2f}x the default's "
          f"(load average {result['load'][0]:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

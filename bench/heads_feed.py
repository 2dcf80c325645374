"""The cost of the feed of heads (event_store/heads_feed.py), as a ratio of a step.

``python -m bench.heads_feed [--games N] [--json]``

In one run, on one SQLite file: N seeded Letter of Marque games are played to
their end through ``Privateer.act`` (CPU time per step: decide, chain, sign the
head, commit), then the feed catches up with all their heads (``catch_up``:
find the heads not fed, sign each entry, append them in one transaction), then
the feed is read back as a witness reads it (``read`` after 0, pages of 1000).
Reported: CPU per step, per entry appended and per entry read, and each
entry's cost as a share of a step's (a step signs one head: one entry each).
A step does not wait for the feed: the feed takes heads when it is read.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import tempfile
import time
from pathlib import Path

from event_store.heads_feed import catch_up, read
from service.app import Privateer


def play_to_end(app: Privateer, seed: int) -> int:
    """One seeded game to its end; how many steps."""
    gid = app.create("letter-of-marque", 3, seed=bytes([seed % 256]) * 32)
    rng = random.Random(seed)
    steps = 0
    while True:
        m = app.load(gid).machine
        if m.finished:
            return steps
        seat = m.to_act()[0]
        app.act(gid, seat, rng.choice(m.legal(seat)))
        steps += 1


def measure(games: int = 10) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="privateer-feed-"))
    try:
        app = Privateer(str(tmp / "feed.db"))
        play_to_end(app, 999)
        catch_up(app.recorder, app.signer)  # warm: the key made, the statements prepared
        start = time.process_time()
        steps = sum(play_to_end(app, seed) for seed in range(games))
        step_cpu = (time.process_time() - start) / steps
        start = time.process_time()
        fed = catch_up(app.recorder, app.signer)
        feed_cpu = (time.process_time() - start) / fed
        start = time.process_time()
        got, after = 0, 0
        while True:
            page = read(app.recorder, after, 1000)
            if not page:
                break
            got += len(page)
            after = page[-1]["seq"]
        read_cpu = (time.process_time() - start) / got
        app.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return {"games": games, "steps": steps, "entries_appended": fed, "entries_read": got,
            "step_cpu_ms": round(step_cpu * 1000, 3), "append_cpu_ms": round(feed_cpu * 1000, 3),
            "read_cpu_ms": round(read_cpu * 1000, 4), "append_to_step": round(feed_cpu / step_cpu, 3),
            "read_to_step": round(read_cpu / step_cpu, 4)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    out = measure(args.games)
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(f"{out['steps']} steps of {out['games']} games: {out['step_cpu_ms']} ms CPU a step")
    print(f"feed: {out['entries_appended']} entries appended, {out['append_cpu_ms']} ms CPU each "
          f"({out['append_to_step']}× a step); read back {out['read_cpu_ms']} ms each ({out['read_to_step']}× a step)")


if __name__ == "__main__":
    main()

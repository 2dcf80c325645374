"""The cost of signing each step's head, as a ratio of the unsigned step.

``python -m bench.signing [--rounds N] [--decisions N] [--json]``

The same seeded Loot game (fixed seed, the same random decisions) is played
step by step through ``Privateer.act`` (decide, chain, prepare, commit on an
SQLite file) by two applications in the same run: the service as it is (its
head signed with Ed25519 and the signature row written in the step's
transaction) and the same application whose ``prepare`` leaves the signature
out. Rounds alternate which goes first; each round measures CPU time per step
(``time.process_time``: the disk's waits are not counted, the signing is).
Reported: the median over rounds of each, and signed / unsigned.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from event_store.index import IndexRow
from service.app import Privateer


class Unsigned(Privateer):
    """The application with its ``prepare`` as before signing: no signed head, no signature row."""

    def prepare(self, game, secret=None, **service_rows):
        index = IndexRow(self.index_row(game))
        return self._prepared([game], index=index, secret=(game.id.hex, secret) if secret is not None else None,
                              **service_rows)


def play(app, decisions: int, seed: int) -> float:
    """CPU seconds per step of ``decisions`` decisions of one seeded game."""
    gid = app.create("loot", 3, seed=bytes([seed % 256]) * 32)
    rng = random.Random(seed)
    game = app.load(gid)
    start = time.process_time()
    done = 0
    while done < decisions and not game.machine.finished:
        m = game.machine
        seat = m.to_act()[0]
        app.act(gid, seat, rng.choice(m.legal(seat)))
        game = app.load(gid)
        done += 1
    return (time.process_time() - start) / max(done, 1)


def measure(rounds: int = 7, decisions: int = 150) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="privateer-signing-"))
    try:
        apps = {"signed": Privateer(str(tmp / "signed.db")), "unsigned": Unsigned(str(tmp / "unsigned.db"))}
        play(apps["signed"], 5, 999)  # warm: the key made, the rules imported
        play(apps["unsigned"], 5, 999)
        times: dict[str, list[float]] = {"signed": [], "unsigned": []}
        for r in range(rounds):
            order = ("signed", "unsigned") if r % 2 == 0 else ("unsigned", "signed")
            for name in order:
                times[name].append(play(apps[name], decisions, r))
        signed, unsigned = statistics.median(times["signed"]), statistics.median(times["unsigned"])
        return {"rounds": rounds, "decisions_per_round": decisions,
                "signed_step_us": round(signed * 1e6, 1), "unsigned_step_us": round(unsigned * 1e6, 1),
                "ratio": round(signed / unsigned, 3), "per_round": {k: [round(x * 1e6, 1) for x in v]
                                                                   for k, v in times.items()}}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--decisions", type=int, default=150)
    p.add_argument("--json", action="store_true")
    a = p.parse_args()
    r = measure(a.rounds, a.decisions)
    if a.json:
        print(json.dumps(r, indent=2))
        return
    print(f"signing each step's head: {r['signed_step_us']} us CPU per signed step against "
          f"{r['unsigned_step_us']} us unsigned (median of {r['rounds']} interleaved rounds of "
          f"{r['decisions_per_round']} Loot decisions on SQLite): ratio {r['ratio']}")


if __name__ == "__main__":
    main()

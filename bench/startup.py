"""The wall time of ``tools`` calls, process start included, against a bare
``python -c "import sqlite3, msgpack, json"`` in the same run.

The calls are interleaved round by round (bare, then each command), and the
median of the rounds is taken, so a change of the machine's load hits every
figure alike. Bytecode is written as on a user's machine (the bench unsets
``PYTHONDONTWRITEBYTECODE``) and one warm-up round is not counted.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

BARE = [sys.executable, "-c", "import sqlite3, msgpack, json"]


def _wall(cmd, env) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, capture_output=True, env=env, check=True)
    return time.perf_counter() - t


def measure(db: str, game_id: str, rounds: int = 7) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PRIVATEER_SNAPSHOT_INTERVAL"] = "100"
    tools = [sys.executable, "-m", "tools"]
    commands = {
        "tools --help": tools + ["--help"],
        "tools status --json": tools + ["status", game_id, "--json", "--db", db],
        "tools legal --seat 1 --json": tools + ["legal", game_id, "--seat", "1", "--json", "--db", db],
        "tools replay --to-turn 12 --json": tools + ["replay", game_id, "--to-turn", "12", "--json", "--db", db],
        "tools replay --to-turn 12": tools + ["replay", game_id, "--to-turn", "12", "--db", db],
    }
    times: dict[str, list[float]] = {"bare": []}
    times.update({name: [] for name in commands})
    for r in range(rounds + 1):
        bare = _wall(BARE, env)
        if r:
            times["bare"].append(bare)
        for name, cmd in commands.items():
            t = _wall(cmd, env)
            if r:
                times[name].append(t)
    med = {name: statistics.median(ts) for name, ts in times.items()}
    return {"bare_seconds": med["bare"],
            "commands": {name: {"seconds": med[name], "ratio": med[name] / med["bare"]} for name in commands}}

"""The wall time of ``tools`` calls, process start included, against a bare
``python -c "import sqlite3, msgpack, json"`` in the same run.

``tools --help`` is also taken against ``python -c pass`` (issue 45's figure).

The calls are interleaved round by round (bare, then each command), and the
median of the rounds is taken, so a change of the machine's load hits every
figure alike. Bytecode is written as on a user's machine (the bench unsets
``PYTHONDONTWRITEBYTECODE``) and one warm-up round is not counted.

``tools act`` records a step (its commit waits for the disk, as at a table):
each round it acts on a fresh copy of a store holding one new game, in its
plain form and in the form only the command answers (``--db=PATH``), so the
two figures show what answering before Typer is imported saves.

``measure_replays``: ``tools replay GAME_ID --to-turn 12``, for a person and
``--json``, of one stored game of each game, interleaved with the bare python
the same way (issue 34), each also as processor time against ``python -c pass``'s
(``pass_cpu_ratio``: issue 45's figure, at most 2.5); and, for reference, the bare python importing rich and
drawing a small table with it (``RICH_FLOOR``): what the form for a person
costs at least while rich draws it. Each figure also as processor time (user
and system) against the bare python's, which a busy machine distorts less.
"""

from __future__ import annotations

import os
import resource
import sqlite3
import statistics
import subprocess
import sys
import time

BARE = [sys.executable, "-c", "import sqlite3, msgpack, json"]
PASS = [sys.executable, "-c", "pass"]   # issue 45's baseline for ``tools --help``
# the table for a person is drawn with rich: the bare python importing it and drawing a small table
RICH_FLOOR = [sys.executable, "-c", "import io, sqlite3, msgpack, json\n"
              "from rich.console import Console, Group\nfrom rich.table import Table\nfrom rich.text import Text\n"
              "t = Table('player', 'hand', 'captured', title='Players', title_justify='left')\n"
              "t.add_row('seat 1', 'blue 3, red 2', '12 gold (3 merchants)')\n"
              "Console(file=io.StringIO(), width=80, highlight=False).print(Group(Text('turn 12', style='bold'), t))"]


def _wall(cmd, env) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, capture_output=True, env=env, check=True)
    return time.perf_counter() - t


def _wall_and_cpu(cmd, env) -> tuple[float, float]:
    """The wall time of the call, and the processor time (user and system) its process took:
    on a busy machine the wall time grows with the waiting, the processor time far less."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = _wall(cmd, env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _new_game(folder: str) -> tuple[str, str, int]:
    """A store holding one new Letter of Marque game: (its path, the game's id, a seat to act)."""
    from service.app import Privateer

    db = os.path.join(folder, "act.db")
    a = Privateer(db)
    gid = a.create("letter-of-marque", 3, seed=b"bench-act".ljust(32, b"."))
    seat = a.fold(gid)[0].to_act()[0]
    a.close()
    return db, gid.hex, seat


def _copy_store(src: str, dst: str) -> None:
    """A fresh copy of an SQLite store, its write-ahead log included."""
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(dst + suffix):
            os.remove(dst + suffix)
    with sqlite3.connect(src) as a, sqlite3.connect(dst) as b:
        a.backup(b)
    a.close()
    b.close()


def measure(db: str, game_id: str, rounds: int = 7) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PRIVATEER_SNAPSHOT_INTERVAL"] = "100"
    tools = [sys.executable, "-m", "tools"]
    folder = os.path.dirname(os.path.abspath(db))
    # the page ``tools --help`` keeps (tools/help_page.py): drawn in the warm-up round, as a user's first call
    env["PRIVATEER_CACHE_DIR"] = os.path.join(folder, "tools-cache")
    act_db, act_gid, act_seat = _new_game(folder)
    fresh = os.path.join(folder, "act-round.db")
    act = ["act", act_gid, "--seat", str(act_seat), "1"]
    commands = {
        "tools --help": tools + ["--help"],
        "tools status --json": tools + ["status", game_id, "--json", "--db", db],
        "tools status": tools + ["status", game_id, "--db", db],
        "tools legal --seat 1 --json": tools + ["legal", game_id, "--seat", "1", "--json", "--db", db],
        "tools replay --to-turn 12 --json": tools + ["replay", game_id, "--to-turn", "12", "--json", "--db", db],
        "tools replay --to-turn 12": tools + ["replay", game_id, "--to-turn", "12", "--db", db],
        "tools act (a new game's first step)": tools + act + ["--db", fresh],
        "tools act, through the command (--db=PATH)": tools + act + [f"--db={fresh}"],
    }
    times: dict[str, list[float]] = {"bare": [], "pass": []}
    times.update({name: [] for name in commands})
    for r in range(rounds + 1):
        bare = _wall(BARE, env)
        nothing = _wall(PASS, env)
        if r:
            times["bare"].append(bare)
            times["pass"].append(nothing)
        for name, cmd in commands.items():
            if name.startswith("tools act"):
                _copy_store(act_db, fresh)
            t = _wall(cmd, env)
            if r:
                times[name].append(t)
    med = {name: statistics.median(ts) for name, ts in times.items()}
    return {"bare_seconds": med["bare"], "pass_seconds": med["pass"],
            "commands": {name: {"seconds": med[name], "ratio": med[name] / med["bare"],
                                "pass_ratio": med[name] / med["pass"]} for name in commands}}


def measure_replays(stores: list[tuple[dict, str, str]], rounds: int = 7) -> dict:
    """``stores``: (the game's spec, as ``bench.suite.closest_game`` gives it; its SQLite
    store; its id). Each round: the bare python, then each game's replay, text and
    ``--json``; the median of the rounds (one warm-up round not counted)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    tools = [sys.executable, "-m", "tools", "replay"]
    commands = {}
    for spec, db, gid in stores:
        base = tools + [gid, "--to-turn", "12"]
        commands[(spec["game"], "text")] = base + ["--db", db]
        commands[(spec["game"], "json")] = base + ["--json", "--db", db]
    commands["rich"] = RICH_FLOOR
    times: dict = {"bare": [], "pass": []}
    times.update({k: [] for k in commands})
    for r in range(rounds + 1):
        bare = _wall_and_cpu(BARE, env)
        nothing = _wall_and_cpu(PASS, env)
        if r:
            times["bare"].append(bare)
            times["pass"].append(nothing)
        for k, cmd in commands.items():
            t = _wall_and_cpu(cmd, env)
            if r:
                times[k].append(t)
    med = {k: (statistics.median(w for w, _ in ts), statistics.median(c for _, c in ts)) for k, ts in times.items()}

    def figures(k) -> dict:
        return {"seconds": med[k][0], "ratio": med[k][0] / med["bare"][0],
                "cpu_seconds": med[k][1], "cpu_ratio": med[k][1] / med["bare"][1],
                "pass_cpu_ratio": med[k][1] / med["pass"][1]}

    games = []
    for spec, _, _ in stores:
        row = dict(spec)
        for form in ("text", "json"):
            row[form] = figures((spec["game"], form))
        games.append(row)
    return {"bare_seconds": med["bare"][0], "bare_cpu_seconds": med["bare"][1],
            "pass_cpu_seconds": med["pass"][1], "rounds": rounds, "games": games,
            "rich_floor": figures("rich")}

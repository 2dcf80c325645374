"""``python -m bench.replay_work [GAME ...]``: the instructions ``tools replay GAME_ID
--to-turn 12`` spends on each part of its work, for one ~2,000-event stored game of each
game (bench/suite.py section 8b's: ``closest_game``, ``store_game``), counted by
valgrind's callgrind beside ``python -c pass`` (issue 45's baseline).

A process's processor time moves with the machine's load; its instructions do not
(bench/instructions.py). Each part is counted as the difference of two processes, each
importing every module the replay loads (its imports counted once, as ``imports``) and
then doing the work up to and including that part, with the collector off as
tools/quick.py runs it:

* ``read``: the game found and its events to turn 12 read and unpacked (event_store/reads.py);
* ``chain``: their hash chain checked (service/replay.py ``ChainCheck``);
* ``creation``: the game's machine made from its creation (a game's catalog tables);
* ``fold``: the other events folded;
* ``board``: the view of the board (service/views.py ``board``);
* ``text`` and ``json``: the board printed for a person, and as JSON.

Needs ``valgrind`` (a line says so without it). The instructions of the whole command
are also given, and its ratio to ``python -c pass``'s. About a minute a game.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

PARTS = ("imports", "read", "chain", "creation", "fold", "board", "text", "json")
TURN = 12


def _work(part: str, db: str, gid: str, modules: list[str]) -> None:
    """Import ``modules``, then do the replay's work up to ``part`` (in a process counted)."""
    import importlib

    gc.disable()  # as tools/quick.py runs a command
    for m in modules:
        with contextlib.suppress(Exception):  # a module some other platform's code imports
            importlib.import_module(m)
    if part == "imports":
        return
    from event_store.reads import SqliteReader
    from service.kernel.games import get_rules
    from service.kernel.machine import Ev, Machine
    from service.replay import ChainCheck
    from service.views import board

    with SqliteReader(__import__("sqlite3").connect(db)) as reader:
        found = reader.current(gid)
        assert found is not None, "the store cannot be read directly"
        rows = []
        for v, env in reader.events(found[0]):
            if env["turn"] > TURN:
                break
            rows.append((v, env))
    if part == "read":
        return
    check = ChainCheck(found[0])
    for row in rows:
        check.add(*row)
    assert check.problem is None, check.problem
    if part == "chain":
        return
    created = rows[0][1]
    ev = Ev(created["type"], created["turn"], created["visible_to"], created["data"])
    machine = Machine(get_rules(created["data"]["game"]), ev)
    machine.apply(ev)
    if part == "creation":
        return
    for _, env in rows[1:]:
        machine.apply_read(env["type"], env["turn"], env["visible_to"], env["data"])
    if part == "fold":
        return
    b = board(check.game_id, machine, rows[-1][0], None)
    if part == "board":
        return
    with contextlib.redirect_stdout(io.StringIO()):
        if part == "text":
            from tools.boards import print_board

            print_board(b, machine.config)
        else:
            from tools.plain import out_json

            out_json(b)


def _counted(args: list[str]) -> int:
    """The instructions of ``python ARGS`` under callgrind (bytecode written as a user's is,
    one warm-up run not counted)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONHASHSEED"] = "0"
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    subprocess.run([sys.executable, *args], capture_output=True, env=env, cwd=root, check=True)
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={os.path.join(tmp, 'cg.out')}",
                              sys.executable, *args], capture_output=True, text=True, env=env, cwd=root)
    found = re.search(r"Collected : (\d+)", out.stderr)
    if out.returncode != 0 or not found:
        raise RuntimeError(f"{args}: {out.stderr.strip().splitlines()[-1:] or out.returncode}")
    return int(found.group(1))


def _modules(db: str, gid: str) -> list[str]:
    """The modules the replay (text and JSON) loads, as a process running it finds them."""
    code = ("import sys, io, contextlib\nfrom tools import answers\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    answers.replay({db!r}, {gid!r}, to_turn={TURN})\n"
            f"    answers.replay({db!r}, {gid!r}, to_turn={TURN}, json_out=True)\n"
            "print('\\n'.join(sorted(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return [m for m in out.stdout.split() if m != "__main__"]


def measure(game: str, tmp: str) -> dict:
    from bench.suite import closest_game, store_game
    from service.app import Privateer

    spec = closest_game(game)
    db = os.path.join(tmp, f"replay-{game}.db")
    gid = store_game(Privateer(db, snapshot_interval=0), spec).hex
    listed = os.path.join(tmp, f"modules-{game}.txt")
    with open(listed, "w") as f:
        f.write("\n".join(_modules(db, gid)))
    me = ["-m", "bench.replay_work", "--part"]
    counts = {part: _counted([*me, part, db, gid, listed]) for part in PARTS}
    whole = {form: _counted(["-m", "tools", "replay", gid, "--to-turn", str(TURN), "--db", db, *extra])
             for form, extra in (("text", []), ("json", ["--json"]))}
    steps = {"imports": counts["imports"]}
    last = "imports"
    for part in PARTS[1:6]:
        steps[part] = counts[part] - counts[last]
        last = part
    steps["text"] = counts["text"] - counts["board"]
    steps["json"] = counts["json"] - counts["board"]
    return {**spec, "parts": steps, "whole": whole}


def main(argv: list[str] | None = None) -> int:
    from service.kernel.games import game_names

    p = argparse.ArgumentParser(prog="python -m bench.replay_work", description=__doc__.split("\n\n")[0])
    p.add_argument("games", nargs="*", default=["merchants-and-marauders"], help="games (default: M&M)")
    p.add_argument("--part", nargs=4, metavar=("PART", "DB", "GAME_ID", "MODULES"), help=argparse.SUPPRESS)
    p.add_argument("--json", action="store_true", help="the figures as JSON")
    args = p.parse_args(argv)
    if args.part:
        part, db, gid, listed = args.part
        with open(listed) as f:
            _work(part, db, gid, f.read().split())
        return 0
    unknown = [g for g in args.games if g not in game_names()]
    if unknown:
        p.error(f"unknown game {', '.join(unknown)}")
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: instruction counts skipped")
        return 0
    bare = _counted(["-c", "pass"])
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for game in args.games:
            rows.append(measure(game, tmp))
    if args.json:
        print(json.dumps({"pass": bare, "games": rows}, indent=2))
        return 0
    print(f"python -c pass: {bare / 1e6:.1f}M instructions")
    for r in rows:
        print(f"{r['game']} ({r['seats']} seats, {r['events']} events): tools replay --to-turn {TURN}")
        for form, n in r["whole"].items():
            print(f"  whole command, {form:4s} {n / 1e6:7.1f}M  {n / bare:.2f}x python -c pass")
        for part, n in r["parts"].items():
            print(f"  {part:9s} {n / 1e6:7.1f}M")
    return 0


if __name__ == "__main__":
    sys.exit(main())

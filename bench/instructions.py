"""``python -m bench.instructions [GAME ...] [--games N]``: CPU instructions per
playout action, ours against OpenSpiel's ``python_liars_poker``, counted by
valgrind's callgrind.

The wall-clock ratios of ``python -m bench`` move with whatever else the
machine runs (on a shared 2-core VM, by a quarter from one hour to the next);
instructions do not. Each side plays the playouts of bench/playouts.py (the
same games, seeds and random choices) under callgrind twice, with N games and
with none (imports, loading and the warm-up game cancel out): instructions per
action = (instructions with N games − with none) ÷ the N games' actions.
Run with ``PYTHONHASHSEED=0`` for the same count run after run. Needs
``valgrind`` (skipped with a line saying so without it) and, for the reference
row, OpenSpiel (``pip install -e '.[bench]'``). A game takes one to two
minutes: this is not part of ``python -m bench``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

from service.kernel.games import game_names, get_rules

OPENSPIEL = "openspiel"


def play(target: str, n: int) -> int:
    """Play ``n`` playouts of ``target`` (after the warm-up); their actions."""
    from bench import playouts

    if target == OPENSPIEL:
        one = playouts.openspiel_player()
        if one is None:
            raise SystemExit("OpenSpiel is not installed")
        one(-1)
    else:
        r = get_rules(target)
        one = playouts.our_player(target, min(r.max_seats, max(r.min_seats, 3)))
    return sum(one(i) for i in range(n))


def _counted(target: str, n: int) -> tuple[int, int]:
    """(instructions, actions) of ``play(target, n)`` in a process under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={os.path.join(tmp, 'cg.out')}",
                              sys.executable, "-m", "bench.instructions", "--play", target, str(n)],
                             capture_output=True, text=True, env=dict(os.environ, PYTHONHASHSEED="0"),
                             cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if out.returncode != 0:
        raise RuntimeError(f"{target}: {out.stderr.strip().splitlines()[-1] if out.stderr.strip() else out.returncode}")
    found = re.search(r"Collected : (\d+)", out.stderr)
    if not found:
        raise RuntimeError(f"{target}: callgrind gave no count")
    return int(found.group(1)), int(out.stdout.split()[-1])


def per_action(target: str, n: int) -> tuple[float, int]:
    with_n, actions = _counted(target, n)
    without, _ = _counted(target, 0)
    return (with_n - without) / actions, actions


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.instructions", description=__doc__.split("\n\n")[0])
    games = game_names()
    p.add_argument("games", nargs="*", default=games, help="games (default: every registered game)")
    p.add_argument("--games", dest="n", type=int, default=5, help="playouts counted per game (default 5)")
    p.add_argument("--play", nargs=2, metavar=("TARGET", "N"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.play:
        print(play(args.play[0], int(args.play[1])))
        return 0
    unknown = [g for g in args.games if g not in games]
    if unknown:
        p.error(f"unknown game {', '.join(unknown)} (known: {', '.join(games)})")
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: instruction counts skipped")
        return 0
    try:
        ref, ref_actions = per_action(OPENSPIEL, 200)
        print(f"{'openspiel python_liars_poker':32s} {ref / 1000:7.1f}k instructions/action ({ref_actions} actions)",
              flush=True)
    except RuntimeError as e:
        ref = None
        print(f"OpenSpiel reference skipped ({e})", flush=True)
    for game in args.games:
        ours, actions = per_action(game, args.n)
        ratio = f"   ratio {ref / ours:.2f} (OpenSpiel's ÷ ours: >= 1.0 is as lean)" if ref else ""
        print(f"{game:32s} {ours / 1000:7.1f}k instructions/action ({actions} actions){ratio}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``python -m bench.golden [--games N] [--only GAME] [--views] [--table]``: one
digest per game of everything a fixed set of seeded bot games produces;
``--check`` and ``--write``: the committed digests (bench/golden.json).

A speed change to the kernel or to a game's rules must leave every event the
same, byte for byte: run this before and after and compare the lines. Each
digest covers, for every game of the set (seats, options and bots across the
game's range): every event's type, turn, visibility and data as emitted (its
frozen bytes), the decisions listed to the seat that acts at each step, and
(with ``--views``) every seat's and the referee's view at the end.

``--table`` digests the same configurations played at a table instead: every
die, card, pick and shuffle entered by the referee, chosen at random among
what the awaited chance offers, so what a table-mode game asks the referee
(its ``ChanceAwaited`` events: the choices and their order) is covered too.

The bots a configuration names are the game's own: a change to a bot moves its
game's digest too (say so in the commit, and take the new digests as the baseline).

bench/golden.json holds the digests of one seeded game of every configuration of
each built-in game: its events, with every view at the end, and played at a table
(``COMMITTED``); tests/test_golden.py checks them. ``--check`` compares them as a
run of this code gives them; ``--write`` writes them, when a change to the rules,
a bot or a view is meant to move them (say which in the commit).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path

import msgpack

from service.kernel.games import BUILT_IN, game_names

# (seats, options, bot): the configurations each game's digest covers; a registered game not
# named here is played at its fewest and most seats with the random bot (``configs``)
CONFIGS = {
    "letter-of-marque": [(2, {}, "random"), (3, {}, "random"), (6, {}, "random")],
    "loot": [(2, {}, "random"), (3, {}, "greedy"), (5, {}, "random"), (4, {"pairs": "true"}, "greedy"),
             (6, {"pairs": "true"}, "random")],
    "kaisers-pirates": [(1, {}, "random"), (2, {}, "heuristic"), (3, {}, "random"), (4, {}, "heuristic"),
                        (4, {"team": "true"}, "random"),
                        (3, {"coal": "true", "sails": "true", "wolf": "true", "fast_raiders": "true",
                             "keep_three": "true", "extra_damage": "true", "torpedo_prizes": "true",
                             "shallow_pursuit": "true", "sailing_merchants": "true", "prize_resupply": "true",
                             "tournament": "true"}, "random"),
                        (4, {"beyond_1914": "historical"}, "heuristic")],
    "merchants-and-marauders": [(2, {}, "random"), (3, {}, "merchant"), (4, {}, "pirate"), (3, {}, "random")],
}

_pack = msgpack.Packer(use_bin_type=True).pack


def configs(game: str) -> list:
    """The configurations of ``game``'s digest."""
    if game in CONFIGS:
        return CONFIGS[game]
    from service.kernel.games import get_rules

    r = get_rules(game)
    return [(seats, {}, "random") for seats in sorted({r.min_seats, r.max_seats})]


def _play(g, bot: str, rng: random.Random, h) -> None:
    """Play ``g`` to its end with ``bot``, each listed decision into ``h``; at a
    table, every chance outcome awaited entered at random (``entered_at_random``)."""
    m = g.machine
    choose = g.rules.bots[bot]
    steps = 0
    while not m.finished:
        awaiting = m.kernel_state["awaiting"]
        if awaiting is not None:
            g.enter(entered_at_random(awaiting, rng))
        else:
            seat = m.to_act()[0]
            listed = m.legal(seat)
            h.update(_pack(listed))
            g.act(seat, choose(m.state, seat, listed, rng))
        steps += 1
        if steps > 200_000:
            raise RuntimeError(f"{m.config['game']} did not end")


def _events(h, events) -> None:
    for e in events:
        h.update(_pack([e.type, e.turn, e.vis]))
        h.update(e.packed if e.packed is not None else _pack(e.data))


class _Both:
    """Two digests fed the same bytes (the events, and the events with the views)."""

    def __init__(self, *hashes):
        self.hashes = hashes

    def update(self, data: bytes) -> None:
        for h in self.hashes:
            h.update(data)


def digests(game: str, games: int, views: bool = True) -> tuple[str, str | None]:
    """The digest of ``game``'s seeded games and (with ``views``) the digest of the same games
    with every seat's and the referee's view at the end, from one play of them."""
    from service.kernel.local import LocalGame

    plain, viewed = hashlib.sha256(), hashlib.sha256()
    both = _Both(plain, viewed) if views else plain
    for seats, options, bot in configs(game):
        for i in range(games):
            material = hashlib.sha256(f"golden:{game}:{seats}:{sorted(options.items())}:{bot}:{i}".encode()).digest()
            g = LocalGame(game, seats, options, seed=material)
            _play(g, bot, random.Random(material), both)
            _events(both, g.events)
            if views:
                for seat in [None, *range(1, seats + 1)]:
                    viewed.update(_pack(g.rules.view(g.machine.state, seat)))
    return plain.hexdigest(), viewed.hexdigest() if views else None


def digest(game: str, games: int, views: bool = False) -> str:
    plain, viewed = digests(game, games, views)
    return viewed if viewed is not None else plain


def entered_at_random(awaiting: dict, rng: random.Random):
    """An outcome the referee could enter for ``awaiting`` (the machine's marker)."""
    kind = awaiting["kind"]
    if kind == "dice":
        faces = [rng.randint(1, awaiting["sides"]) for _ in range(awaiting["n"])]
        return faces if awaiting["n"] > 1 else faces[0]
    if kind == "pick":
        return rng.choice(awaiting["options"])
    if kind == "shuffle":
        return rng.sample(sorted(awaiting["cards"], key=str), len(awaiting["cards"]))
    return rng.choice(sorted(awaiting["choices"], key=str))


def table_digest(game: str, games: int) -> str:
    from service.kernel.local import LocalGame

    h = hashlib.sha256()
    for seats, options, bot in configs(game):
        for i in range(games):
            g = LocalGame(game, seats, options, table=True)
            _play(g, bot, random.Random(f"golden-table:{game}:{seats}:{sorted(options.items())}:{bot}:{i}"), h)
            _events(h, g.events[1:])  # the first holds the game's creation date
    return h.hexdigest()


# bench/golden.json: for each built-in game, the digests of one seeded game per configuration
GOLDEN = Path(__file__).with_name("golden.json")
COMMITTED_GAMES = 1
KINDS = ("events", "views", "table")  # the digests committed: events; with the views; played at a table


def committed(game: str, kinds=KINDS) -> dict[str, str]:
    """``game``'s digests as bench/golden.json holds them (``kinds`` of them), computed by this code."""
    out = {}
    if "events" in kinds or "views" in kinds:
        events, views = digests(game, COMMITTED_GAMES, views="views" in kinds)
        out["events"] = events
        if views is not None:
            out["views"] = views
    if "table" in kinds:
        out["table"] = table_digest(game, COMMITTED_GAMES)
    return {kind: out[kind] for kind in kinds}


def read_committed() -> dict[str, dict[str, str]]:
    """bench/golden.json: game -> kind -> digest."""
    return json.loads(GOLDEN.read_text())["digests"]


def _write_or_check(write: bool) -> int:
    games = [g.name for g in BUILT_IN]
    now = {}
    for game in games:
        now[game] = committed(game)
        print(game, " ".join(f"{kind} {d}" for kind, d in now[game].items()), flush=True)
    if write:
        about = ("python -m bench.golden --write: for each built-in game, the digests of one seeded game of every "
                 "configuration (bench/golden.py): its events (--games 1), with the views (--games 1 --views), "
                 "played at a table (--table --games 1)")
        GOLDEN.write_text(json.dumps({"about": about, "digests": now}, indent=1) + "\n")
        print(f"written to {GOLDEN}")
        return 0
    if not GOLDEN.exists():
        print(f"no {GOLDEN}: python -m bench.golden --write makes it", file=sys.stderr)
        return 1
    before = read_committed()
    moved = [f"{game} {kind}" for game in games for kind in KINDS if before.get(game, {}).get(kind) != now[game][kind]]
    if moved:
        print(f"not as committed in {GOLDEN.name}: {', '.join(moved)}", file=sys.stderr)
        return 1
    print(f"as committed in {GOLDEN.name}")
    return 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.golden", description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=6, help="seeded games per configuration (default 6)")
    p.add_argument("--only", default=None, help="one game")
    p.add_argument("--views", action="store_true", help="also every seat's view at the end")
    p.add_argument("--table", action="store_true",
                   help="the games played at a table, every chance outcome entered (default 2 games each)")
    committed_runs = p.add_mutually_exclusive_group()
    committed_runs.add_argument("--check", action="store_true",
                                help="compare the committed digests (bench/golden.json) with this code's; exit 1 "
                                     "when any differs")
    committed_runs.add_argument("--write", action="store_true",
                                help="write this code's digests to bench/golden.json (when a change is meant to "
                                     "move them)")
    args = p.parse_args(argv)
    if args.check or args.write:
        if args.only or args.views or args.table or args.games != 6:
            p.error("--check and --write take no other option (the committed runs are fixed: bench/golden.py)")
        return _write_or_check(args.write)
    for game in game_names():
        if args.only and game != args.only:
            continue
        if args.table:
            print(game, "table", table_digest(game, args.games if args.games != 6 else 2), flush=True)
        else:
            print(game, digest(game, args.games, args.views), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

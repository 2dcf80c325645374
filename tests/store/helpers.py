from __future__ import annotations

import json
import random
from uuid import UUID

import msgpack

from service.simulate import simulate

_pack = msgpack.Packer(use_bin_type=True).pack


def play(app, game="letter-of-marque", seats=3, games=1, seed="s", tournament="", players=None):
    stats = simulate(game, seats, games, seed=seed, app=app, tournament=tournament, players=players)
    return [UUID(g) for g in stats["game_ids"]]


def play_partly(app, gid, decisions: int, rng=None) -> int:
    """Make up to ``decisions`` random legal decisions through ``app.act``."""
    rng = rng or random.Random(1)
    n = 0
    for _ in range(decisions):
        m, version, _ = app.fold(gid)
        if m.finished or not m.to_act():
            break
        seat = m.to_act()[0]
        app.act(gid, seat, rng.choice(m.legal(seat)), expect_version=version)
        n += 1
    return n


def state_bytes(machine) -> bytes:
    return _pack([machine.k, machine.s])


def versions(app, gid) -> list[int]:
    return [e.originator_version for e in app.stored_events(gid)]


def cli_json(store, *args):
    return json.loads(store.cli(*args, "--json").stdout)

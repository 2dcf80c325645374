"""The playouts' shortcut gives what the plain computation gives, on every state of
seeded bot games: the hold asked against the ship's Cargo before the captain's
abilities (``over_capacity``). The legal
lists themselves are covered byte for byte by ``python -m bench.golden``."""

import random

from service.aggregates.merchants_and_marauders.port import over_capacity
from service.aggregates.merchants_and_marauders.state import capacity
from service.kernel.local import LocalGame

from .helpers import GAME


def _states(seats, glory, seed, steps=400):
    """The state after each decision of a random bot game (the same object, changed in place)."""
    g = LocalGame(GAME, seats, options={"glory": glory}, seed=seed.encode().ljust(32, b"."))
    rng = random.Random(seed)
    m = g.machine
    for _ in range(steps):
        if m.finished:
            return
        seat = m.to_act()[0]
        g.act(seat, rng.choice(m.legal(seat)))
        yield m.state


def test_over_capacity_as_computed():
    seen = over = 0
    for seed in range(4):
        for state in _states(2 + seed % 3, 10, f"hold-{seed}"):
            for p in state["players"]:
                if p["ship"] is None or p["captain"] is None:
                    continue
                plain = len(p["cargo"]) > capacity(state, p)
                assert over_capacity(state, p) == plain
                seen += 1
                over += plain
    assert seen and over            # (the seeds hold ships over their hold, not only under it)

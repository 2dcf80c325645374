"""A determinization of a Loot table for one seat (service/kernel/sampling.py).

Hidden from a seat (view.py): the cards in the hands it does not see (all but
its own and, in the pairs game, its partner's) and the draw pile. Those cards
are gathered into one pool, put in canonical order and dealt back with the
caller's ``rng``: each hidden hand keeps its number of cards, the pile its
size. Everything else (the sea, the discard pile, the captured merchants) was
played face up and is kept.
"""

from __future__ import annotations

import random

from service.kernel.sampling import copy_state, deal

from .state import partner


def determinize(state: dict, seat: int, rng: random.Random) -> dict:
    out = copy_state(state)
    seen = {seat, partner(out, seat)}
    hidden = [s for s in range(1, out["seats"] + 1) if s not in seen]
    pool = list(out["pile"])
    for s in hidden:
        pool += out["hands"][s - 1]
    *hands, pile = deal(pool, [len(out["hands"][s - 1]) for s in hidden], rng)
    for s, hand in zip(hidden, hands):
        out["hands"][s - 1] = sorted(hand)
    out["pile"] = sorted(pile)  # unordered for the rules: each draw is a random card of it
    return out

"""Bots for ``tools simulate``: they pick among the legal decisions."""

from __future__ import annotations


def random_bot(state, seat, legal, rng):
    return rng.choice(legal)


BOTS = {"random": random_bot}

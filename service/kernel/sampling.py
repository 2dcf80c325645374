"""Tools for a game's sampler (``service/aggregates/<game>/sampler.py``): a
determinization is a full state a seat cannot tell apart from the true one,
built from what the seat may see only (service/analysis/ismcts.py).

The rule every sampler keeps: gather what is hidden from the seat into pools,
put each pool in a canonical order (``canonical``: it no longer remembers where
each card lay), then deal it back with the caller's ``rng`` to the hidden
places, counts kept. Two states the seat cannot tell apart then give the same
determinization for the same ``rng`` state.

At a table a place may hold a card nobody has seen, an unknown token (``?deck#n``,
``machine.is_unknown``). A determinization holds none: each token's place is given a
card it could be (of its own kind, one not seen elsewhere, none twice), as a hidden
place is, and the state is played as a seeded game's. The rules and the bots a playout
runs then never meet a token where they expect a card.
"""

from __future__ import annotations

import random

import msgpack

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

_pack = msgpack.Packer(use_bin_type=True).pack


def copy_state(state: Any) -> Any:
    """A private deep copy of a state (plain msgpack-able data)."""
    return msgpack.unpackb(_pack(state), raw=False, strict_map_key=False)


def canonical(cards: Iterable[Any]) -> list:
    """The cards in an order that says nothing of where they came from: by their type's
    name, then their text (cards that are all text: their own order, the same one)."""
    out = list(cards)
    if all(c.__class__ is str for c in out):
        out.sort()
        return out
    out.sort(key=lambda c: (type(c).__name__, str(c)))
    return out


def shuffled(cards: Iterable[Any], rng: random.Random) -> list:
    """``cards`` in canonical order, then shuffled by ``rng``."""
    out = canonical(cards)
    rng.shuffle(out)
    return out


def deal(pool: Iterable[Any], counts: list[int], rng: random.Random) -> list[list]:
    """The pool shuffled and cut into piles of ``counts`` (in order); the cards
    left over form one more pile at the end."""
    cards = shuffled(pool, rng)
    piles, at = [], 0
    for n in counts:
        piles.append(cards[at:at + n])
        at += n
    piles.append(cards[at:])
    return piles

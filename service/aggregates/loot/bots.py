"""Bots for ``tools simulate``: they pick among the legal decisions.

``greedy`` looks only at what its seat may see (its hand and the table): it
plays a captain or the Admiral when that takes the lead on a merchant, else
the smallest pirate that takes the lead on the richest merchant, else a
merchant ship from its hand (richest first), else draws; once the pile is
empty it discards its weakest card.
"""

from __future__ import annotations

from .cards import info
from .state import attack_of, battle, leader, side_of

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    from random import Random
    from typing import Any

    from .state import State


def random_bot(state: State, seat: int, legal: list[dict[str, Any]], rng: Random) -> dict[str, Any]:
    return rng.choice(legal)


def _score(state: State, side: int, d: dict[str, Any]) -> float:
    action = d["action"]
    if action == "draw":
        return 2.0
    if action == "merchant":
        return 3.0 + info(d["card"])[2] / 2
    if action == "discard":
        k, _, v = info(d["card"])
        return -v if k == "pirate" else -10.0
    b = battle(state, d["merchant"])
    assert b is not None  # (a listed decision names a merchant at sea)
    if leader(b) == side:
        return -5.0  # already winning it
    if action in ("captain", "admiral"):
        return 6.0 + b["gold"] if b["attacks"] else -5.0
    if b["top"] is not None:
        return -5.0  # skulls cannot beat a captain or the Admiral
    skulls = info(d["card"])[2]
    mine = attack_of(b, side)
    strength = skulls + (mine["skulls"] if mine else 0)
    others = max((a["skulls"] for a in b["attacks"] if a["side"] != side), default=0)
    if strength > others:
        return 4.0 + b["gold"] - skulls / 4
    return -1.0


def greedy_bot(state: State, seat: int, legal: list[dict[str, Any]], rng: Random) -> dict[str, Any]:
    side = side_of(state, seat)
    best, picks = None, []
    for d in legal:
        s = _score(state, side, d)
        if best is None or s > best:
            best, picks = s, [d]
        elif s == best:
            picks.append(d)
    return rng.choice(picks)


BOTS = {"random": random_bot, "greedy": greedy_bot}

"""A determinization of a Letter of Marque table for one seat (service/kernel/sampling.py).

Hidden from a seat (view.py): whether another player's unrevealed ship at sea
is armed, and the armed/unarmed make-up of another player's reserve (its size
is public). Everything else (treasures, decks' contents, which are the
catalog's less the treasures put to sea, cannon cards, score piles) is kept.

For each other player: its unrevealed ships at sea (by id, in order) and its
reserve share what is left of its 2 armed and 3 unarmed bases (the book's
fixed set, catalog.py) after the bases it has shown at sea. Among the splits
that fit (armed bases in the reserve, armed ships among the hidden ones at
sea) one is drawn at random; then which hidden ships are armed.
"""

from __future__ import annotations

import random

from service.kernel.sampling import copy_state

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    from .state import State

SHIPS = {"armed": 2, "unarmed": 3}  # the rulebook's, checked by catalog.py for every game


def determinize(state: State, seat: int, rng: random.Random) -> State:
    out = copy_state(state)
    for i, p in enumerate(out["players"]):
        owner = i + 1
        if owner == seat:
            continue
        mine = [s for s in out["sea"] if s["owner"] == owner]
        hidden = sorted((s for s in mine if not s["revealed"] and s["armed"] is not None), key=lambda s: s["id"])
        armed_left = SHIPS["armed"] - sum(1 for s in mine if s["revealed"] and s["armed"])
        unarmed_left = SHIPS["unarmed"] - sum(1 for s in mine if s["revealed"] and not s["armed"])
        reserve = sum(p["reserve"].values())
        h = len(hidden)
        splits = [(a, s) for a in range(reserve + 1) for s in range(h + 1)
                  if a + s <= armed_left and (reserve - a) + (h - s) <= unarmed_left]
        if not splits:  # cannot be for a state the rules made; stay playable
            a = min(reserve, max(armed_left, 0))
            splits = [(a, min(h, max(armed_left - a, 0)))]
        a, s = splits[rng.randrange(len(splits))]
        p["reserve"] = {"armed": a, "unarmed": reserve - a}
        armed = set(rng.sample(range(h), s))
        for j, ship in enumerate(hidden):
            ship["armed"] = j in armed
    return out

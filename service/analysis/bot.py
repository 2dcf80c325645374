"""The ``ismcts`` bot, seated in every game (``service.kernel.games.GENERIC_BOTS``):
it takes the decision its information-set search (ismcts.py) played most, from
``PLAYOUTS`` playouts (fewer once they have played ``BUDGET`` decisions), seeded from
the game's bot stream (so a seeded simulation plays the same game again), with the
search's defaults, as ``tools analyse`` runs it (playouts guided by the game's
heuristic bot, its progressive bias, the widening, the score margin)."""

from __future__ import annotations

from .ismcts import BIAS, HORIZON, MARGIN, WIDEN, best, search

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    import random
    from typing import Any

    from service.kernel.rules import Rules

    from .ismcts import Bot, Determinize

PLAYOUTS = 50
ROLLOUT = "guided"  # the playouts' bot (ismcts.rollout_bot): the game's heuristic bot, a little random
BUDGET = 4_000  # decisions played in one decision's playouts at most (long games play fewer playouts)


def bot_for(rules: Rules, playouts: int = PLAYOUTS, rollout: str = ROLLOUT, budget: int | None = BUDGET,
            bias: float = BIAS, margin: float = MARGIN, horizon: int | None = HORIZON,
            widen: float | None = WIDEN, determinize: Determinize | None = None) -> Bot:
    """``determinize``: the game's sampler unless given (``search``; bench/strength.py's
    ``--oracle`` gives one that sees everything, to measure what hidden information costs)."""

    def ismcts_bot(state: Any, seat: int, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
        if len(legal) == 1:
            return legal[0]
        stats = search(rules, state, seat, playouts, rng.getrandbits(64), rollout, budget=budget,
                       bias=bias, margin=margin, horizon=horizon, widen=widen, determinize=determinize)
        chosen = stats[best(stats)]["decision"]
        for d in legal:  # the listed object itself (the kernel runs it at once)
            if d == chosen:
                return d
        return legal[0]

    return ismcts_bot

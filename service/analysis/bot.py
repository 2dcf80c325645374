"""The ``ismcts`` bot, seated in every game (``service.kernel.games.GENERIC_BOTS``):
it takes the decision its information-set search (ismcts.py) played most, from
``PLAYOUTS`` playouts (fewer once they have played ``BUDGET`` decisions), seeded from
the game's bot stream (so a seeded simulation plays the same game again), with the
search's defaults, as ``tools analyse`` runs it (playouts guided by the game's
heuristic bot, its progressive bias, the widening, the score margin).

A game in ``LIGHTER`` gives its bot a smaller budget and a shorter horizon in one
proportion: as many playouts, each valued by the game's mid-game outcome sooner after
the tree, for half the work (Merchants & Marauders, measured side by side on a busy
machine: a decision 0.35 -> 0.19 s CPU, bench.strength --decision; against the merchant
bot, bench.strength --duels, 5 of the first 9 seeded games won where the bot before won 6,
7 of 13 in all: too few games yet to tell a loss of strength from chance)."""

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
GAME = -1  # bot_for's budget or horizon: the game's (``work``)
# (budget, horizon) of the games whose bot works less a decision than BUDGET, HORIZON
LIGHTER = {"merchants-and-marauders": (2_000, 40)}


def work(game: str) -> tuple[int, int | None]:
    """The bot's (budget, horizon) in ``game``."""
    return LIGHTER.get(game, (BUDGET, HORIZON))


def bot_for(rules: Rules, playouts: int = PLAYOUTS, rollout: str = ROLLOUT, budget: int | None = GAME,
            bias: float = BIAS, margin: float = MARGIN, horizon: int | None = GAME,
            widen: float | None = WIDEN, determinize: Determinize | None = None) -> Bot:
    """``budget``, ``horizon``: the game's (``work``) unless given (None: none);
    ``determinize``: the game's sampler unless given (``search``; bench/strength.py's
    ``--oracle`` gives one that sees everything, to measure what hidden information costs)."""
    budget = work(rules.name)[0] if budget == GAME else budget
    horizon = work(rules.name)[1] if horizon == GAME else horizon

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

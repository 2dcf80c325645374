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
7 of 13 in all: too few games yet to tell a loss of strength from chance).

A game in ``SPLIT`` searches a decision as that many independent searches of its
share of the playouts and budget (root parallelization, ``ismcts.merge``), each
seeded in turn from the bot's stream, their root statistics merged: ``searches``
runs them, by default one after the other in this process; the service's bots run
them side by side in a pool of processes (service/http/bot_searches.py), for half
the wall time on two cores. The decision depends only on the seeds, not on where the
searches ran: a seeded game plays the same either way."""

from __future__ import annotations

from service.kernel.games import get_rules

from .ismcts import BIAS, HORIZON, MARGIN, WIDEN, best, merge, search

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    import random
    from collections.abc import Callable
    from typing import Any, TypeAlias

    from service.kernel.rules import Rules

    from .ismcts import Bot, Determinize

    # runs a decision's searches (each ``search_part``'s keywords), their statistics in the same order
    Searches: TypeAlias = Callable[[list[dict[str, Any]]], list[list[dict[str, Any]]]]

PLAYOUTS = 50
ROLLOUT = "guided"  # the playouts' bot (ismcts.rollout_bot): the game's heuristic bot, a little random
BUDGET = 4_000  # decisions played in one decision's playouts at most (long games play fewer playouts)
GAME = -1  # bot_for's budget or horizon: the game's (``work``)
# (budget, horizon) of the games whose bot works less a decision than BUDGET, HORIZON
LIGHTER = {"merchants-and-marauders": (2_000, 40)}
# the games whose bot searches a decision as that many independent searches (root parallel)
SPLIT = {"merchants-and-marauders": 2}


def work(game: str) -> tuple[int, int | None]:
    """The bot's (budget, horizon) in ``game``."""
    return LIGHTER.get(game, (BUDGET, HORIZON))


def split(game: str) -> int:
    """How many independent searches the bot's decision is in ``game`` (``SPLIT``; 1: one)."""
    return SPLIT.get(game, 1)


def search_part(game: str, state: Any, seat: int, playouts: int, seed: int, **options: Any) -> list[dict[str, Any]]:
    """One of a decision's searches: ``ismcts.search`` in the game named (a pool's worker
    is handed names and plain data only)."""
    return search(get_rules(game), state, seat, playouts, seed, **options)


def search_one(part: dict[str, Any]) -> list[dict[str, Any]]:
    """``search_part`` with its keywords in one dict (what a pool maps over)."""
    return search_part(**part)


def one_by_one(parts: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """``searches``' default: a decision's searches one after the other in this process."""
    return [search_part(**p) for p in parts]


def bot_for(rules: Rules, playouts: int = PLAYOUTS, rollout: str = ROLLOUT, budget: int | None = GAME,
            bias: float = BIAS, margin: float = MARGIN, horizon: int | None = GAME,
            widen: float | None = WIDEN, determinize: Determinize | None = None, parts: int = GAME,
            searches: Searches | None = None) -> Bot:
    """``budget``, ``horizon``: the game's (``work``) unless given (None: none);
    ``determinize``: the game's sampler unless given (``search``; bench/strength.py's
    ``--oracle`` gives one that sees everything, to measure what hidden information costs:
    its searches run in this process); ``parts``: the game's (``split``) unless given, the
    playouts and the budget shared among them; ``searches``: what runs them (``one_by_one``
    unless given)."""
    budget = work(rules.name)[0] if budget == GAME else budget
    horizon = work(rules.name)[1] if horizon == GAME else horizon
    parts = split(rules.name) if parts == GAME else parts
    run = one_by_one if searches is None or determinize is not None else searches
    options: dict[str, Any] = {"rollout": rollout, "bias": bias, "margin": margin, "horizon": horizon, "widen": widen}
    if determinize is not None:
        options["determinize"] = determinize
    shares = [playouts // parts + (i < playouts % parts) for i in range(parts)]
    budgets = [None if budget is None else budget // parts + (i < budget % parts) for i in range(parts)]

    def ismcts_bot(state: Any, seat: int, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
        if len(legal) == 1:
            return legal[0]
        calls = [{"game": rules.name, "state": state, "seat": seat, "playouts": shares[i],
                  "seed": rng.getrandbits(64), "budget": budgets[i], **options} for i in range(parts)]
        stats = run(calls)
        merged = stats[0] if parts == 1 else merge(stats)
        chosen = merged[best(merged)]["decision"]
        for d in legal:  # the listed object itself (the kernel runs it at once)
            if d == chosen:
                return d
        return legal[0]

    return ismcts_bot

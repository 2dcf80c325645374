"""The ``ismcts`` bot, seated in every game (``service.kernel.games.GENERIC_BOTS``):
it takes the decision its information-set search (ismcts.py) played most, from
``PLAYOUTS`` playouts (fewer once they have played ``BUDGET`` decisions), seeded from
the game's bot stream (so a seeded simulation plays the same game again), with the
search's defaults, as ``tools analyse`` runs it (playouts guided by the game's
heuristic bot, its progressive bias, the widening, the score margin).

A game in ``GAMES`` gives its bot other settings. Merchants & Marauders: a smaller
budget and a shorter horizon in one proportion: as many playouts, each valued by the
game's mid-game outcome sooner after the tree, for half the work (measured side by side
on a busy machine: a decision 0.35 -> 0.19 s CPU, bench.strength --decision).

A decision of a game whose settings say more than one search is that many independent
searches of its share of the playouts and budget (root parallelization, ``ismcts.merge``),
each seeded in turn from the bot's stream, their root statistics merged: ``searches``
runs them, by default one after the other in this process; the service's bots run
them side by side in a pool of processes (service/http/bot_searches.py), for half
the wall time on two cores (what lets a bot's whole turn fit in 2 s: issue 45). The
decision depends only on the seeds, not on where the searches ran: a seeded game plays
the same either way. Against the game's heuristic bot, the same seeded games side by side
(bench.strength --duels): Merchants & Marauders, two searches of 25 playouts, 44.0% of 100
games won against 44.5% for one search of 50 (21 games better, 22 worse); The Kaiser's
Pirates, two of 25 won 50% of 40 against 62.5% for one of 50, so its two searches play 35
each (70 in all, budget 5,600): 62% of 60 (first 40: 60% against 62.5%, 11 better, 12 worse).
"""

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

    # runs a decision's searches (each ``search_one``'s keywords), their statistics in the same order
    Searches: TypeAlias = Callable[[list[dict[str, Any]]], list[list[dict[str, Any]]]]

PLAYOUTS = 50
ROLLOUT = "guided"  # the playouts' bot (ismcts.rollout_bot): the game's heuristic bot, a little random
BUDGET = 4_000  # decisions played in one decision's playouts at most (long games play fewer playouts)
GAME = -1  # bot_for's playouts, budget, horizon or parts: the game's (``settings``)
# (playouts, budget, horizon, searches) a decision in the games whose bot is not PLAYOUTS, BUDGET, HORIZON in one
# search; the playouts and the budget in all, shared among the searches
GAMES: dict[str, tuple[int, int | None, int | None, int]] = {
    "merchants-and-marauders": (PLAYOUTS, 2_000, 40, 2),
    "kaisers-pirates": (70, 5_600, HORIZON, 2),
}


def settings(game: str) -> tuple[int, int | None, int | None, int]:
    """The bot's (playouts, budget, horizon, searches) a decision in ``game``."""
    return GAMES.get(game, (PLAYOUTS, BUDGET, HORIZON, 1))


def work(game: str) -> tuple[int | None, int | None]:
    """The bot's (budget, horizon) in ``game``."""
    return settings(game)[1:3]


def split(game: str) -> int:
    """How many independent searches the bot's decision is in ``game`` (1: one)."""
    return settings(game)[3]


def split_games() -> list[str]:
    """The games whose bot's decision is more than one search."""
    return [game for game in GAMES if split(game) > 1]


def search_one(part: dict[str, Any]) -> list[dict[str, Any]]:
    """One of a decision's searches: ``ismcts.search``'s keywords in one dict, the game by its
    name (a pool's worker is handed names and plain data only)."""
    options = dict(part)
    return search(get_rules(options.pop("game")), **options)


def one_by_one(parts: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """``searches``' default: a decision's searches one after the other in this process."""
    return [search_one(p) for p in parts]


def bot_for(rules: Rules, playouts: int = GAME, rollout: str = ROLLOUT, budget: int | None = GAME,
            bias: float = BIAS, margin: float = MARGIN, horizon: int | None = GAME,
            widen: float | None = WIDEN, determinize: Determinize | None = None, parts: int = GAME,
            searches: Searches | None = None) -> Bot:
    """``playouts``, ``budget``, ``horizon``: the game's (``settings``) unless given (None: none);
    ``determinize``: the game's sampler unless given (``search``; bench/strength.py's
    ``--oracle`` gives one that sees everything, to measure what hidden information costs:
    its searches run in this process); ``parts``: the game's (``split``) unless given, the
    playouts and the budget shared among them; ``searches``: what runs them (``one_by_one``
    unless given)."""
    game = settings(rules.name)
    playouts = game[0] if playouts == GAME else playouts
    budget = game[1] if budget == GAME else budget
    horizon = game[2] if horizon == GAME else horizon
    parts = game[3] if parts == GAME else parts
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

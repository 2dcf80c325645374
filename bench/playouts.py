"""Random playouts in memory, side by side with OpenSpiel's pure-Python
``python_liars_poker`` in the same run.

An *action* is what OpenSpiel counts as one ``apply_action``: a player's
decision or one chance outcome. For our games that is one ``Decided`` event or
one chance event (a die roll, a card drawn, a shuffle, a pick). Both sides play
uniformly random legal moves (our ``random`` bot; ``random.choice`` over
``legal_actions`` and the chance outcomes' distribution for OpenSpiel).
Our playouts keep no history (``LocalGame.play_out(keep=False)``): every
event is still emitted and folded, but none is kept, so none is frozen for a
record; the setup's events are kept and counted.

OpenSpiel is an optional bench dependency (``pip install '.[bench]'``); when it
is not installed the comparison row says so and only our figures are given.
"""

from __future__ import annotations

import random
import time


def _for(budget: float, one_game) -> dict:
    """Play games with ``one_game(i)`` (which returns its action count) until
    ``budget`` seconds have passed; actions per second over the whole run."""
    games = actions = 0
    started = time.perf_counter()
    while True:
        actions += one_game(games)
        games += 1
        elapsed = time.perf_counter() - started
        if elapsed >= budget:
            return {"games": games, "actions": actions, "seconds": elapsed, "actions_per_second": actions / elapsed}


def our_player(game: str, seats: int):
    """``one(i)``: play game ``i`` of ``game`` at random in memory, return its actions."""
    from service.kernel.local import LocalGame
    from service.kernel.machine import CHANCE_TYPES

    rng = random.Random(f"playout-{game}")

    def one(i, rng=rng):
        g = LocalGame(game, seats, seed=f"playout-{game}-{i}".encode().ljust(32, b"."))
        g.play_out(rng, keep=False)  # no history kept, as OpenSpiel's playouts keep none
        return g.actions + sum(1 for e in g.events if e.type == "Decided" or e.type in CHANCE_TYPES)  # + setup

    # the game's package imported and its catalog checked once, as OpenSpiel's game is
    # loaded before its clock starts (the imports were 2-7% of a 2 s budget)
    one(-1, random.Random("warm-up"))
    return one


def our_actions_per_second(game: str, seats: int, budget: float) -> dict:
    return _for(budget, our_player(game, seats))


def openspiel_player():
    """``one(i)``: one ``python_liars_poker`` random playout, its actions; None
    when OpenSpiel is not installed."""
    try:
        import pyspiel
        from open_spiel.python.games import liars_poker  # noqa: F401  (registers python_liars_poker)
    except ImportError:
        return None
    g = pyspiel.load_game("python_liars_poker")
    rng = random.Random("openspiel")

    def one(_):
        s, actions = g.new_initial_state(), 0
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes, probs = zip(*s.chance_outcomes())
                a = rng.choices(outcomes, probs)[0]
            else:
                a = rng.choice(s.legal_actions())
            s.apply_action(a)
            actions += 1
        return actions

    return one


def openspiel_actions_per_second(budget: float) -> dict | None:
    """``python_liars_poker`` random playouts, or None when OpenSpiel is not installed."""
    one = openspiel_player()
    return None if one is None else _for(budget, one)


def compare(games_seats: list[tuple[str, int]], budget: float) -> dict:
    """Our playouts per game and OpenSpiel's, interleaved (OpenSpiel before and
    after ours, the mean of the two taken) so a load change hits both sides."""
    before = openspiel_actions_per_second(budget / 2)
    ours = {game: our_actions_per_second(game, seats, budget) for game, seats in games_seats}
    after = openspiel_actions_per_second(budget / 2) if before is not None else None
    ref = None if before is None else (before["actions_per_second"] + after["actions_per_second"]) / 2
    return {"openspiel_actions_per_second": ref,
            "games": {game: dict(r, seats=dict(games_seats)[game],
                                 ratio=None if ref is None else r["actions_per_second"] / ref)
                      for game, r in ours.items()}}

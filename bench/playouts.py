"""Random playouts in memory, side by side with OpenSpiel's pure-Python
``python_liars_poker`` in the same run.

An *action* is what OpenSpiel counts as one ``apply_action``: a player's
decision or one chance outcome. For our games that is one ``Decided`` event or
one chance event (a die roll, a card drawn, a shuffle, a pick). Both sides play
uniformly random legal moves (our ``random`` bot; ``random.choice`` over
``legal_actions`` and the chance outcomes' distribution for OpenSpiel).

Our playouts are measured in both forms: as a bot's look-ahead plays them
(``LocalGame.play_out(keep=False)``: the fold path, no event objects made,
the same rules run) and with the events kept, as a recorded game keeps them
(each frozen as it is emitted). The setup's events are kept and counted in both.

``compare`` measures CPU time (``time.process_time``: what the other processes
of a loaded machine take is not counted against either side) in interleaved
rounds: in every round, each game's slices run right after a slice of OpenSpiel,
and each ratio is taken against that slice; the figure is the median over the
rounds. ``python -m bench.playouts [--rounds 8] [--budget 0.5]`` prints it.

OpenSpiel is an optional bench dependency (``pip install '.[bench]'``); when it
is not installed the comparison says so and only our figures are given.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time


def _for(budget: float, one_game) -> dict:
    """Play games with ``one_game(i)`` (which returns its action count) until
    ``budget`` seconds of this process's CPU time have passed; actions per second."""
    games = actions = 0
    started = time.process_time()
    while True:
        actions += one_game(games)
        games += 1
        elapsed = time.process_time() - started
        if elapsed >= budget:
            return {"games": games, "actions": actions, "seconds": elapsed, "actions_per_second": actions / elapsed}


def our_player(game: str, seats: int, keep: bool = False):
    """``one(i)``: play game ``i`` of ``game`` at random in memory, return its actions.
    ``keep``: the events kept (and frozen), as a recorded game keeps them."""
    from service.kernel.local import LocalGame
    from service.kernel.machine import CHANCE_TYPES

    rng = random.Random(f"playout-{game}")

    def one(i, rng=rng):
        g = LocalGame(game, seats, seed=f"playout-{game}-{i}".encode().ljust(32, b"."))
        g.play_out(rng, keep=keep)
        return g.actions + sum(1 for e in g.events if e.type == "Decided" or e.type in CHANCE_TYPES)

    # the game's package imported and its catalog checked once, as OpenSpiel's game is
    # loaded before its clock starts (the imports were 2-7% of a 2 s budget)
    one(-1, random.Random("warm-up"))
    return one


def our_actions_per_second(game: str, seats: int, budget: float, keep: bool = False) -> dict:
    return _for(budget, our_player(game, seats, keep))


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


FORMS = {"fold": False, "kept": True}  # the figure's name: keep


def compare(games_seats: list[tuple[str, int]], budget: float, rounds: int = 8, progress=None) -> dict:
    """Our playouts per game, in both forms, and OpenSpiel's, in ``rounds``
    interleaved rounds of ``budget`` CPU seconds a slice: in each round, for each
    game, a slice of OpenSpiel, then the game's fold slice and its kept slice,
    each ratio taken against the OpenSpiel slice just before it. Medians over the rounds."""
    reference = openspiel_player()
    if reference is not None:
        reference(-1)
    players = {(game, form): our_player(game, seats, keep) for game, seats in games_seats
               for form, keep in FORMS.items()}
    per: dict = {game: {form: [] for form in FORMS} for game, _ in games_seats}
    refs: list[float] = []
    for r in range(rounds):
        for game, _ in games_seats:
            ref = None if reference is None else _for(budget, reference)["actions_per_second"]
            if ref is not None:
                refs.append(ref)
            for form in FORMS:
                aps = _for(budget, players[game, form])["actions_per_second"]
                per[game][form].append((aps, None if ref is None else aps / ref))
        if progress:
            progress(f"round {r + 1}/{rounds}")
    games: dict = {}
    for game, seats in games_seats:
        row: dict = {"seats": seats}
        for form in FORMS:
            runs = per[game][form]
            row[form] = {"actions_per_second": statistics.median(a for a, _ in runs),
                         "ratio": None if reference is None else statistics.median(q for _, q in runs),
                         "ratios": None if reference is None else [round(q, 3) for _, q in runs]}
        # the names the suite's rows read: the fold path's figures
        row["actions_per_second"] = row["fold"]["actions_per_second"]
        row["ratio"] = row["fold"]["ratio"]
        games[game] = row
    return {"openspiel_actions_per_second": statistics.median(refs) if refs else None,
            "rounds": rounds, "budget": budget, "clock": "process CPU time", "games": games}


def main(argv=None) -> int:
    from service.kernel.games import game_names, get_rules

    p = argparse.ArgumentParser(prog="python -m bench.playouts", description=__doc__.split("\n\n")[0])
    p.add_argument("games", nargs="*", default=None, help="games (default: every registered game)")
    p.add_argument("--rounds", type=int, default=8, help="interleaved rounds (default 8)")
    p.add_argument("--budget", type=float, default=0.5, help="CPU seconds a slice (default 0.5)")
    args = p.parse_args(argv)
    names = args.games or game_names()
    gs = [(g, min(get_rules(g).max_seats, max(get_rules(g).min_seats, 3))) for g in names]
    load = os.getloadavg()
    res = compare(gs, args.budget, args.rounds, progress=lambda t: print(f"  … {t}", file=sys.stderr, flush=True))
    load_after = os.getloadavg()
    ref = res["openspiel_actions_per_second"]
    print(f"load average before {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, after "
          f"{load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}; {args.rounds} rounds of "
          f"{args.budget} CPU s a slice")
    print("OpenSpiel python_liars_poker:", "not installed" if ref is None else f"{ref:,.0f} actions/s (median)")
    for game, row in res["games"].items():
        parts = []
        for form in FORMS:
            f = row[form]
            ratio = "" if f["ratio"] is None else f" ratio {f['ratio']:.2f} {f['ratios']}"
            parts.append(f"{form} {f['actions_per_second']:,.0f}/s{ratio}")
        print(f"{game:26s} ({row['seats']} seats)  " + "  |  ".join(parts))
    return 0


if __name__ == "__main__":
    sys.exit(main())

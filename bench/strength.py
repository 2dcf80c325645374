"""``python -m bench.strength N [--only GAME] [--playouts K] [--budget B] [--seed S]
[--full] [--tables | --duels]``: the bots' strength, not a test (the issue's targets).

The tables (``--tables``, or by default before the duels):

* Merchants & Marauders, 4 seats, two ``pirate`` and two ``merchant`` bots (the
  seats rotated game by game): each side's win share, the captains each side's two
  bots lose a game (and to whom), the glory a bot ends with, and how the games end (the
  target: each side wins at least 25%, the pirates lose at most 3 captains a game,
  games end by glory rather than a deck run out);
* The Kaiser's Pirates' heuristic bot against the phantom player (solitaire);
* each game's heuristic bot against ``random`` in 2-seat games, seats alternated.

The duels (``--duels``, or by default after the tables): the ismcts bot
(service/analysis) against each game's heuristic bot (``OPPONENT``) in 2-seat
games, N games a game (default 4: a Merchants & Marauders game takes the ismcts
bot about 20 s CPU), the seats alternated (the ismcts bot is seat 1 in even
games, seat 2 in odd ones); its win share (a shared win counts 1/k) with the
seats' split, and the CPU time. ``--variant ROLLOUT:BIAS:MARGIN:HORIZON:WIDEN[:BUDGET]``
(repeatable) plays the duels once for each setting of the search, side by side in
one run (``random:0:0:0:0:4000``: the bot before issue 34's work; ``:::80::4000``: the Merchants & Marauders bot before issue 45's). Not a test: the issue's target is 60% of 200
games (``--full``). Each run prints the load average before and after. Each duel game
is seeded by its number alone, so ``--jobs N`` plays the same games in N processes and
``--from K`` starts a slice of a run at game K; ``--jsonl FILE`` keeps each game's result
(its number, the ismcts bot's seat, the winners and scores) as a line, and a progress line
per game goes to stderr. ``--oracle``: the ismcts bot sees every hidden card (its
determinizations are copies of the true state; the future draws stay unknown), a
measure of what a game's hidden information costs a search, not a bot to seat.

``--decision``: instead, what a decision costs the ismcts bot (issue 45's target: at
most 0.15 s CPU on average): the CPU time of each of its decisions with more than one
option in duel games 0 and 1 of each game (seated 1, then 2; up to N decisions a game,
default 80), the mean and the slowest; beside it, in the same run, the mean CPU of a
seeded 2-seat game played through by the game's heuristic bots (``reference``), so
the ratio tells a slower machine from a slower bot.

``--turn``: instead, a bot's turn as the service plays it (service/http/bots.py): in duel
game 0 the ismcts bot's decisions are chosen by the service's ``choose`` (a state drawn
from the seat's view, then the search, a split decision's searches side by side in the
service's pool of worker processes, ``TimedSearches``); a turn's decisions fall in runs (the bot's decisions
with no step of the other seat between), each paced as the service paces it (``paced``:
the searches one after the other, up to ``AHEAD`` ahead of the decision waiting, each
decision at its run's slot, ``slot_for``; tests/http/test_bot_timing.py checks the model
against the service's loop); beside it, the pacing before issue 45's work (``quantised``:
each decision searched once the one before is appended, then appended at the first multiple
of the quantum). A turn's wall time is the sum over its runs, for the first N turns of the
bot (default 20; 300: the whole game): its mean, slowest and 95th percentile, the turns over
2 s and the decisions late for their slot, at the quantum given (``--quantum``, default the
game's, service/http/bot_pacing.py ``quantum_for``), with each search's wall time and with its
CPU time as its wall time (a split decision's: its slowest search's; what the turn takes when
each search has a core to itself: a figure a busy machine distorts far less); the slowest run
(what a person at the table waits for the bot between two steps of its own); and the
searches' time alone. A step of the other seat
hidden from the bot's seat would keep a run going in the service; the model ends it (a
quantum more, not less).

``--cost``: instead, the determinization's cost: at a seeded mid-game position
of each game, the CPU time of a 1,000-playout analysis (the search of
``tools analyse``, without the store) against 1,000 bare playouts from the same
position played by the search's own rollout bot (the issue's target, "the
determinization's cost": at most 2x), and against 1,000 bare random playouts (what the
guided rollouts' heuristic bot adds besides).
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import multiprocessing
import os
import random
import sys
import time

from service.analysis.bot import GAME, PLAYOUTS, ROLLOUT, bot_for, search_one, split
from service.analysis.ismcts import BIAS, MARGIN, WIDEN
from service.analysis.ismcts import rollout_bot, search
from service.http.bot_pacing import AHEAD, quantum_for, slot, slot_for
from service.http.bot_searches import BotSearches
from service.http.bots import choose
from service.http.limits import Limits
from service.kernel.local import LocalGame
from service.kernel.games import get_rules

STEPS = {"letter-of-marque": 10, "loot": 30, "kaisers-pirates": 60, "merchants-and-marauders": 150}  # mid-game
OPPONENT = {"letter-of-marque": "captain", "loot": "greedy", "kaisers-pirates": "heuristic",
            "merchants-and-marauders": "merchant"}


FULL = 200  # --full: the count of games
TURN_TARGET = 2.0  # --turn: issue 45's longest bot turn (seconds of wall time)


def _play(g, bots: dict, rng: random.Random) -> None:
    while not g.machine.finished:
        seat = g.to_act()[0]
        g.act(seat, bots[seat](g.state, seat, g.legal(seat), rng))


def mm_table(n: int, seed: str) -> dict:
    """``n`` 4-seat Merchants & Marauders games, two pirate and two merchant bots."""
    game = "merchants-and-marauders"
    rules = get_rules(game)
    order = ["pirate", "merchant", "pirate", "merchant"]
    wins = {"pirate": 0.0, "merchant": 0.0}
    lost = {"pirate": 0, "merchant": 0}
    killers: dict = {}
    glory = {"pirate": [], "merchant": []}
    ends: dict = {}
    for i in range(n):
        names = {s: order[(s - 1 + i) % 4] for s in range(1, 5)}
        g = LocalGame(game, 4, seed=f"table:{seed}:{i}".encode().ljust(32, b"."))
        _play(g, {s: rules.bots[b] for s, b in names.items()}, random.Random(f"{seed}:{i}"))
        winners = g.machine.k["result"]["winners"]
        for w in winners:
            wins[names[w]] += 1.0 / len(winners)
        ends[g.state["end_reason"]] = ends.get(g.state["end_reason"], 0) + 1
        foe: dict = {}
        for e in g.events:
            if e.type == "CombatBegun":
                a, d = e.data["a"], e.data["d"]
                foe[a], foe[d] = d, a
            if e.type == "CaptainDied":
                lost[names[e.data["seat"]]] += 1
                by = foe.get(e.data["seat"]) if e.data["why"] == "beaten in combat" else None
                by = "an NPC" if isinstance(by, str) else f"a {names[by]}" if by else str(e.data["why"])
                key = (names[e.data["seat"]], by)
                killers[key] = killers.get(key, 0) + 1
        for s, b in names.items():
            glory[b].append(g.machine.k["result"]["scores"][str(s)])
    return {"games": n, "wins": {k: v / n for k, v in wins.items()},
            "captains_lost_a_game": {k: v / n for k, v in lost.items()},  # two bots of each side a game
            "why": killers, "glory": {k: sum(v) / len(v) if v else 0.0 for k, v in glory.items()}, "ends": ends}


def versus_random(game: str, n: int, seed: str) -> dict:
    """The game's heuristic bot against ``random``, 2 seats, seats alternated."""
    rules = get_rules(game)
    mine = rules.bots[OPPONENT[game]]
    share = 0.0
    for i in range(n):
        me = 1 if i % 2 == 0 else 2
        g = LocalGame(game, 2, seed=f"vsrandom:{seed}:{game}:{i}".encode().ljust(32, b"."))
        _play(g, {me: mine, 3 - me: rules.bots["random"]}, random.Random(f"{seed}:{i}"))
        winners = g.machine.k["result"]["winners"]
        share += 1.0 / len(winners) if me in winners else 0.0
    return {"game": game, "bot": OPPONENT[game], "games": n, "win_share": share / n if n else 0.0}


def solitaire(n: int, seed: str) -> float:
    """The Kaiser's Pirates' heuristic bot against the phantom player (1 seat): its win share."""
    game = "kaisers-pirates"
    bot = get_rules(game).bots[OPPONENT[game]]
    won = 0
    for i in range(n):
        g = LocalGame(game, 1, seed=f"solitaire:{seed}:{i}".encode().ljust(32, b"."))
        _play(g, {1: bot}, random.Random(f"{seed}:{i}"))
        won += 1 in g.machine.k["result"]["winners"]
    return won / n if n else 0.0


def variant(spec: str, budget: int | None = GAME) -> dict:
    """``ROLLOUT:BIAS:MARGIN:HORIZON:WIDEN[:BUDGET[:PARTS]]`` (any part left empty: the bot's default, or
    ``budget`` for BUDGET; HORIZON, WIDEN or BUDGET 0: none; PARTS: the independent searches a
    decision is, service/analysis/bot.py ``settings``) as ``bot_for`` keywords."""
    parts = (spec.split(":") + ["", "", "", "", "", "", ""])[:7]
    return {"rollout": parts[0] or ROLLOUT, "bias": float(parts[1] or BIAS), "margin": float(parts[2] or MARGIN),
            "horizon": (int(parts[3]) or None) if parts[3] else GAME,
            "widen": (float(parts[4]) or None) if parts[4] else WIDEN,
            "budget": (int(parts[5]) or None) if parts[5] else budget,
            "parts": int(parts[6]) if parts[6] else GAME}


def seeing_all(state: dict, seat: int, rng: random.Random) -> dict:
    """``--oracle``'s determinization: the true state itself (a copy), hidden cards and all."""
    return copy.deepcopy(state)


def duel_game(game: str, i: int, playouts: int, budget: int | None, seed: str, spec: str = "",
              oracle: bool = False) -> dict:
    """Game ``i`` of a duel: the ismcts bot is seat 1 when ``i`` is even, seat 2 when odd; each game
    is seeded by its number alone (``strength:SEED:GAME:i``), so any slice of a run, in any process,
    plays the same games as the whole run."""
    rules = get_rules(game)
    ismcts = bot_for(rules, playouts=playouts, determinize=seeing_all if oracle else None, **variant(spec, budget))
    other = rules.bots[OPPONENT[game]]
    started = time.process_time()
    me = 1 if i % 2 == 0 else 2
    bots = {me: ismcts, 3 - me: other}
    g = LocalGame(game, 2, seed=f"strength:{seed}:{game}:{i}".encode().ljust(32, b"."))
    rng = random.Random(f"{seed}:{i}")
    _play(g, bots, rng)
    result = g.machine.k["result"]
    winners = result["winners"]
    return {"game": game, "i": i, "ismcts_seat": me, "share": 1.0 / len(winners) if me in winners else 0.0,
            "winners": winners, "scores": result.get("scores"), "cpu_seconds": time.process_time() - started}


def _duel_game(args: tuple) -> dict:
    return duel_game(*args)


def duel(game: str, n: int, playouts: int, budget: int | None, seed: str, spec: str = "", *,
         first: int = 0, jobs: int = 1, each=None, oracle: bool = False) -> dict:
    """Games ``first`` to ``first + n - 1`` of the duel, in ``jobs`` processes; ``each(row)`` is
    called with each game's row as it ends (in the order they end)."""
    todo = [(game, i, playouts, budget, seed, spec, oracle) for i in range(first, first + n)]
    rows = []
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            for row in pool.imap_unordered(_duel_game, todo):
                rows.append(row)
                if each:
                    each(row)
    else:
        for t in todo:
            rows.append(duel_game(*t))
            if each:
                each(rows[-1])
    share = [sum(r["share"] for r in rows if r["ismcts_seat"] == s) for s in (1, 2)]
    played = [sum(1 for r in rows if r["ismcts_seat"] == s) for s in (1, 2)]
    return {"game": game, "games": n, "opponent": OPPONENT[game], "win_share": sum(share) / n if n else 0.0,
            "as_seat_1": share[0] / played[0] if played[0] else None,
            "as_seat_2": share[1] / played[1] if played[1] else None,
            "cpu_seconds": sum(r["cpu_seconds"] for r in rows)}


def cost(game: str, playouts: int = 1000) -> dict:
    """CPU seconds of a ``playouts``-playout search and of as many bare playouts from the
    same position: played by the search's own rollout bot (``guided``: the ratio is what the
    determinization and the tree cost) and by the random bot (the ratio adds what the
    heuristic bot costs a playout)."""
    g = LocalGame(game, 2, seed=f"cost:{game}".encode().ljust(32, b"."))
    rng = random.Random(1)
    steps = STEPS[game]
    for _ in range(steps):
        seat = g.to_act()[0]
        g.act(seat, rng.choice(g.legal(seat)))
        if g.machine.finished:
            raise SystemExit(f"{game} ended before step {steps}: pick fewer steps")
    seat = g.to_act()[0]
    started = time.process_time()
    search(g.rules, g.state, seat, playouts, seed=1)
    analysed = time.process_time() - started

    def bare(bot) -> float:
        started = time.process_time()
        for i in range(playouts):
            b = LocalGame.__new__(LocalGame)
            b.__dict__.update(g.__dict__)
            b.machine, b.events, b.actions = g.machine.copy(), [], 0
            b.play_out(random.Random(i), bot=bot, keep=False)
        return time.process_time() - started

    guided, plain = bare(rollout_bot(g.rules, ROLLOUT)), bare("random")
    return {"game": game, "playouts": playouts, "analysis_cpu": analysed, "bare_cpu": guided,
            "ratio": analysed / guided if guided else None, "random_cpu": plain,
            "ratio_random": analysed / plain if plain else None}


REFERENCE_GAMES = 20  # --decision: the heuristic bots' games timed beside (their mean CPU is the reference)


def decision_cpu(game: str, decisions: int = 80, seed: str = "1", playouts: int = GAME,
                 budget: int | None = GAME, spec: str = "") -> dict:
    """The CPU seconds of the ismcts bot's decisions with more than one option, in duel
    games 0 and 1 (the bot seated 1, then 2), ``decisions`` at most a game; and the CPU of
    seeded game of the heuristic bots, the mean of ``REFERENCE_GAMES`` (``reference``)."""
    rules = get_rules(game)
    ismcts = bot_for(rules, playouts=playouts, **variant(spec, budget))
    other = rules.bots[OPPONENT[game]]
    times: list[float] = []
    for i in (0, 1):
        me = 1 if i % 2 == 0 else 2
        g = LocalGame(game, 2, seed=f"strength:{seed}:{game}:{i}".encode().ljust(32, b"."))
        rng = random.Random(f"{seed}:{i}")
        mine = 0
        while not g.machine.finished and mine < decisions:
            seat = g.to_act()[0]
            legal = g.legal(seat)
            if seat == me and len(legal) > 1:
                started = time.process_time()
                d = ismcts(g.state, seat, legal, rng)
                times.append(time.process_time() - started)
                mine += 1
            else:
                d = (ismcts if seat == me else other)(g.state, seat, legal, rng)
            g.act(seat, d)
    started = time.process_time()
    for i in range(REFERENCE_GAMES):
        g = LocalGame(game, 2, seed=f"reference:{seed}:{game}:{i}".encode().ljust(32, b"."))
        _play(g, {1: other, 2: other}, random.Random(f"{seed}:{i}"))
    reference = (time.process_time() - started) / REFERENCE_GAMES
    mean = sum(times) / len(times) if times else 0.0
    return {"game": game, "decisions": len(times), "mean_cpu": mean, "max_cpu": max(times, default=0.0),
            "reference_cpu": reference, "ratio": mean / reference if reference else None}


def quantised(searches: list[float], quantum: float) -> float:
    """A run's wall time before issue 45's pacing: each decision searched once the one before is
    appended, and appended at the first multiple of the quantum (at least one) after its turn to
    decide began; for the comparison alone."""
    return sum(max(1, math.ceil(s / quantum - 1e-9)) * quantum if quantum > 0 else s for s in searches)


def paced(searches: list[float], quantum: float, ahead: int = AHEAD) -> list[float]:
    """The moments a run's decisions are appended, in seconds from the run's start, as the service's
    bots play it (service/http/bots.py): each search (``searches``: their times, in order) starts as
    the one before ends, at most ``ahead`` beyond the decision waiting for its slot; a decision goes
    at its run's first free slot not before it is found and the one before it is appended (``slot_for``)."""
    at: list[float] = []
    taken, free = 0, 0.0
    for j, took in enumerate(searches):
        free = max(free, at[j - ahead - 1] if j > ahead else 0.0) + took
        taken = slot_for(max(free, at[-1] if at else 0.0), taken, quantum)
        at.append(max(free, slot(taken, quantum)))
    return at


def timed_search(part: dict) -> list[dict]:
    """``search_one``, its CPU time (where it ran) in its first row's ``cpu_seconds``."""
    started = time.process_time()
    stats = search_one(part)
    stats[0]["cpu_seconds"] = time.process_time() - started
    return stats


class TimedSearches:
    """The service's ``BotSearches`` (a split decision's searches side by side in worker
    processes), each decision's slowest search's CPU time kept (``cpu``): a decision's CPU time
    when each of its searches has a core to itself."""

    def __init__(self) -> None:
        self.pool = BotSearches(search=timed_search)
        self.cpu = 0.0

    def __call__(self, parts: list[dict]) -> list[list[dict]]:
        stats = self.pool(parts)
        self.cpu = max(s[0].pop("cpu_seconds") if s else 0.0 for s in stats)
        return stats


def bot_turn(game: str, turns: int = 20, seed: str = "1", quantum: float | None = Limits.bot_quantum) -> dict:
    """The wall times of the ismcts bot's first ``turns`` turns in duel game 0, as the service's
    bots play them (``choose``, a split decision's searches side by side in worker processes as
    the service runs them, ``TimedSearches``; a turn's runs of decisions paced by ``paced``), beside
    the pacing before issue 45 (``quantised``), at ``quantum`` (None: the game's, ``quantum_for``):
    with each search's wall time, and with its CPU time as its wall time (a split decision's: its
    slowest search's); and the searches alone."""
    rules = get_rules(game)
    quantum = quantum_for(game, quantum)
    timed = TimedSearches()
    ismcts = bot_for(rules, searches=timed)
    other = rules.bots[OPPONENT[game]]
    g = LocalGame(game, 2, seed=f"strength:{seed}:{game}:0".encode().ljust(32, b"."))
    rng = random.Random(f"{seed}:0")
    # the game's turn -> its runs (the bot's decisions with no step of another's between): each
    # decision's search time, wall and CPU
    walls: dict[int, list[list[float]]] = {}
    cpus: dict[int, list[list[float]]] = {}
    mine = False  # whether the last step was the bot's
    while not g.machine.finished and len(walls) <= turns:
        seat = g.to_act()[0]
        legal = g.legal(seat)
        if seat == 1:
            started, clock = time.perf_counter(), time.process_time()
            timed.cpu = 0.0
            d = choose(g.rules, g.state, seat, legal, ismcts, rng)
            took = time.perf_counter() - started
            spent = (time.process_time() - clock) if split(game) == 1 else timed.cpu
            runs, cpu_runs = walls.setdefault(g.machine.turn(), []), cpus.setdefault(g.machine.turn(), [])
            if not mine or not runs:
                runs.append([])
                cpu_runs.append([])
            runs[-1].append(took)
            cpu_runs[-1].append(spent)
        else:
            d = other(g.state, seat, legal, rng)
        mine = seat == 1
        g.act(seat, d)
    timed.pool.close()
    done = list(walls.values())[:turns]
    cpu = list(cpus.values())[:turns]

    def stats(turn_times: list[float]) -> tuple[float, float]:
        return sum(turn_times) / max(1, len(turn_times)), max(turn_times, default=0.0)

    def tail(turn_times: list[float]) -> tuple[float, int]:
        """The 95th percentile of the turns' times and how many took more than ``TURN_TARGET``."""
        ordered = sorted(turn_times)
        return (ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)] if ordered else 0.0,
                sum(t > TURN_TARGET for t in ordered))

    def late(runs: list[list[float]]) -> int:
        """The decisions appended after their slot (one bit each, the searches up to them slow)."""
        return sum(at > slot(k, quantum) + 1e-9 for r in runs for k, at in enumerate(paced(r, quantum), 1))

    paced_turns = [sum(paced(r, quantum)[-1] for r in runs) for runs in done]
    paced_cpu_turns = [sum(paced(r, quantum)[-1] for r in runs) for runs in cpu]

    return {"game": game, "turns": len(done), "quantum": quantum,
            "decisions": sum(len(r) for runs in done for r in runs) / max(1, len(done)),
            "runs": sum(map(len, done)) / max(1, len(done)),
            "paced": stats(paced_turns), "paced_cpu": stats(paced_cpu_turns),
            "tail": tail(paced_turns), "tail_cpu": tail(paced_cpu_turns),
            "late": sum(late(runs) for runs in done), "late_cpu": sum(late(runs) for runs in cpu),
            "all": sum(len(r) for runs in done for r in runs), "times": paced_turns, "times_cpu": paced_cpu_turns,
            "before": stats([sum(quantised(r, quantum) for r in runs) for runs in done]),
            "before_cpu": stats([sum(quantised(r, quantum) for r in runs) for runs in cpu]),
            "run": max((paced(r, quantum)[-1] for runs in done for r in runs), default=0.0),
            "run_cpu": max((paced(r, quantum)[-1] for runs in cpu for r in runs), default=0.0),
            "search": stats([sum(map(sum, runs)) for runs in done]),
            "cpu": stats([sum(map(sum, runs)) for runs in cpu])}


def _writer(path: str | None, spec: str):
    """``each`` for ``duel``: a progress line on stderr, and the row appended to ``path``."""
    done = [0, 0.0]

    def each(row: dict) -> None:
        done[0] += 1
        done[1] += row["share"]
        print(f"  {row['game']} game {row['i']}: ismcts seat {row['ismcts_seat']} "
              f"{'won' if row['share'] == 1 else 'shared' if row['share'] else 'lost'} "
              f"({done[1] / done[0]:.0%} of {done[0]} so far)", file=sys.stderr, flush=True)
        if path:
            with open(path, "a") as f:
                f.write(json.dumps(dict(row, variant=spec)) + "\n")
    return each


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.strength", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("games", type=int, nargs="?", default=None,
                   help="games a game (default 20 for the tables, 4 for the duels; --full: 200; --decision: its decisions a game, 80)")
    p.add_argument("--full", action="store_true", help=f"the issue's count: {FULL} games a game")
    p.add_argument("--tables", action="store_true", help="only the heuristic bots' tables")
    p.add_argument("--duels", action="store_true", help="only ismcts against the heuristic bots")
    p.add_argument("--only", action="append", help="only this game (again for more)")
    p.add_argument("--playouts", type=int, default=GAME,
                   help=f"the ismcts bot's playouts a decision (default the game's, service/analysis/bot.py: {PLAYOUTS} or more)")
    p.add_argument("--budget", type=int, default=GAME,
                   help="its playout decisions a decision (default: the game's, service/analysis/bot.py; 0: none)")
    p.add_argument("--seed", default="1")
    p.add_argument("--variant", action="append",
                   help=f"the ismcts bot as ROLLOUT:BIAS:MARGIN:HORIZON:WIDEN[:BUDGET[:PARTS]], the playouts' bot (a bot of the game, or "
                        f"guided), the heuristic's progressive bias, the score margin's share, the playouts' depth "
                        f"after the tree, the progressive widening, the budget, the independent searches a decision is "
                        f"(defaults {ROLLOUT}:{BIAS}:{MARGIN}:the game's:{WIDEN}:the game's:the game's, 0: none; "
                        f"e.g. random:0:0:0:0, the bot before issue 34); again: the duels side by side")
    p.add_argument("--oracle", action="store_true",
                   help="duels: the ismcts bot sees every hidden card (what hidden information costs a search)")
    p.add_argument("--decision", action="store_true",
                   help="the CPU of an ismcts decision (mean, slowest) against a heuristic game's, instead")
    p.add_argument("--turn", action="store_true",
                   help="a bot's turn as the service plays it: its wall time at the quantum and at none, instead")
    p.add_argument("--quantum", type=float, default=Limits.bot_quantum,
                   help="--turn: the service's quantum (seconds; default the game's, service/http/bot_pacing.py)")
    p.add_argument("--cost", action="store_true", help="time an analysis against bare playouts instead")
    p.add_argument("--jobs", type=int, default=1, help="duels: play the games in this many processes (same games, same result)")
    p.add_argument("--from", dest="first", type=int, default=0,
                   help="duels: start at this game's number (a run split in slices: --from 100 plays games 100..)")
    p.add_argument("--jsonl", default=None, help="duels: append each game's result to this file as a JSON line")
    args = p.parse_args(argv)
    games = args.only or list(OPPONENT)
    both = not (args.tables or args.duels or args.cost or args.decision or args.turn)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.tables or both:
        n = FULL if args.full else (args.games or 20)
        started = time.process_time()
        if "merchants-and-marauders" in games:
            r = mm_table(n, args.seed)
            print(f"merchants-and-marauders, 4 seats, 2 pirate + 2 merchant bots, {n} games:")
            print("  wins: " + ", ".join(f"{k} {v:.0%}" for k, v in r["wins"].items()))
            print("  captains lost a game (the side's two bots): "
                  + ", ".join(f"{k} {v:.2f}" for k, v in r["captains_lost_a_game"].items()))
            for (side, why), k in sorted(r["why"].items(), key=lambda x: -x[1]):
                print(f"    {side} to {why}: {k}")
            print("  glory at the end (a bot): " + ", ".join(f"{k} {v:.1f}" for k, v in r["glory"].items()))
            print("  games ended by: " + ", ".join(f"{k} {v}" for k, v in sorted(r["ends"].items())))
        if "kaisers-pirates" in games:
            print(f"kaisers-pirates: heuristic vs the phantom (solitaire), {n} games: "
                  f"win share {solitaire(n, args.seed):.0%}")
        for game in games:
            r = versus_random(game, n, args.seed)
            print(f"{game}: {r['bot']} vs random, 2 seats, {n} games: win share {r['win_share']:.0%}")
        print(f"  ({time.process_time() - started:.0f} s CPU)")
    for game in games if not args.tables else []:
        if args.turn:
            r = bot_turn(game, args.games or 20, args.seed, args.quantum)
            print(f"{game}: the ismcts bot's turn ({r['turns']} turns, {r['decisions']:.1f} decisions and "
                  f"{r['runs']:.1f} runs a turn), at a quantum of {r['quantum']:g} s, mean / slowest: paced "
                  f"{r['paced'][0]:.2f} / {r['paced'][1]:.2f} s (before issue 45's pacing {r['before'][0]:.2f} / "
                  f"{r['before'][1]:.2f} s); each search's CPU time as its wall time (a core of its own): paced "
                  f"{r['paced_cpu'][0]:.2f} / {r['paced_cpu'][1]:.2f} s (before {r['before_cpu'][0]:.2f} / "
                  f"{r['before_cpu'][1]:.2f} s); the slowest run (the longest the other seat waits for the bot) "
                  f"{r['run']:.2f} s ({r['run_cpu']:.2f} s with CPU as wall); the searches alone {r['search'][0]:.2f} / {r['search'][1]:.2f} s "
                  f"wall, {r['cpu'][0]:.2f} / {r['cpu'][1]:.2f} s CPU; paced, the 95th percentile {r['tail'][0]:.2f} s, "
                  f"{r['tail'][1]} turns over {TURN_TARGET:g} s, {r['late']} of {r['all']} decisions late for their slot "
                  f"(CPU as wall: {r['tail_cpu'][0]:.2f} s, {r['tail_cpu'][1]} turns, {r['late_cpu']} late)", flush=True)
        elif args.decision:
            for spec in args.variant or [""]:
                r = decision_cpu(game, args.games or 80, args.seed, args.playouts, args.budget or None, spec)
                print(f"{game}: ismcts ({':'.join(map(str, variant(spec, args.budget or None).values()))}) decision {r['mean_cpu']:.3f} s CPU on average, slowest {r['max_cpu']:.3f} s "
                      f"({r['decisions']} decisions); a game of its heuristic bots {r['reference_cpu']:.3f} s CPU: "
                      f"{r['ratio']:.3f}x", flush=True)
        elif args.cost:
            r = cost(game)
            print(f"{game}: {r['playouts']} playouts, analysis {r['analysis_cpu']:.2f} s CPU; bare playouts by its "
                  f"rollout bot {r['bare_cpu']:.2f} s CPU: {r['ratio']:.2f}x; bare random playouts "
                  f"{r['random_cpu']:.2f} s CPU: {r['ratio_random']:.2f}x")
        elif args.duels or both:
            n = FULL if args.full else (args.games or 4)
            for spec in args.variant or [""]:
                r = duel(game, n, args.playouts, args.budget or None, args.seed, spec,
                         first=args.first, jobs=args.jobs, each=_writer(args.jsonl, spec), oracle=args.oracle)
                print(f"{game}: ismcts{' seeing every card' if args.oracle else ''} ({':'.join(map(str, variant(spec, args.budget or None).values()))}) vs {r['opponent']}, {r['games']} games: win share "
                      f"{r['win_share']:.0%} (seat 1 {r['as_seat_1']:.0%}, seat 2 {r['as_seat_2']:.0%}), "
                      f"{r['cpu_seconds']:.0f} s CPU", flush=True)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

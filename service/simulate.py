"""Bots play whole games, in memory or stored: for tests and benchmarks."""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from service.kernel.chance import SeededChance, TableChance
from service.kernel.errors import BadInput
from service.kernel.local import LocalGame
from service.kernel.games import get_rules
from service.kernel.seating import Chooser, choosers

if TYPE_CHECKING:
    from rich.progress import Progress

    from service.aggregate import Game
    from service.app import Privateer
    from service.writer import StepWriter


def _seed_for(run_seed: str | None, i: int) -> tuple[bytes | None, random.Random]:
    if run_seed is None:
        return None, random.Random()
    material = hashlib.sha256(f"{run_seed}:{i}".encode()).digest()
    return material, random.Random(material)


def simulate(game: str, seats: int, games: int, *, seed: str | None = None,
             bot: str | list[str] | None = "random",
             options: dict[str, str] | None = None, app: Privateer | None = None, tournament: str = "",
             progress: bool = False, players: dict[str, str] | None = None, catalog: dict[str, Any] | None = None,
             overlap: bool = True) -> dict[str, Any]:
    """``bot``: one bot for every seat (``"pirate"``; None: random) or by seat (``["1=pirate",
    "2=merchant"]``, ``service.kernel.seating``);
    ``players``: names by seat for every stored game (standings count named players);
    ``catalog``: an organiser's card values for every game (None: the built-in one);
    ``overlap``: stored games commit each step while the next is computed
    (service/writer.py; every step is still its own transaction, all are
    committed before this returns); False waits for each commit in turn."""
    rules = get_rules(game)
    choose = choosers(rules, bot, seats)  # refuses a bad name or seat before any game is made
    decisions = events = 0
    ids: list[str] = []
    bar: Progress | None = None
    if progress and games > 1:
        from rich.console import Console
        from rich.progress import Progress

        bar = Progress(console=Console(stderr=True), transient=True)
        bar.start()
        task = bar.add_task(f"simulating {game}", total=games)
    started = time.perf_counter()
    writer: StepWriter | None = None
    if app is not None and overlap:
        from service.writer import StepWriter

        writer = StepWriter(app)
    try:
        for i in range(games):
            game_seed, rng = _seed_for(seed, i)
            if app is None:
                g = LocalGame(game, seats, options, seed=game_seed, catalog=catalog)
                decisions += g.play_out(rng, bot)
                events += len(g.events)
            else:
                n, e, gid = _play_stored(app, game, seats, options, game_seed, rng, choose, tournament, i, players,
                                         catalog, writer)
                decisions += n
                events += e
                ids.append(gid)
            if bar is not None:
                bar.advance(task)
        if writer is not None:
            writer.close()  # every step committed (or its failure raised) before the figures
            writer = None
    finally:
        if writer is not None:
            writer.abandon()
        if bar is not None:
            bar.stop()
    seconds = time.perf_counter() - started
    return {"game": game, "seats": seats, "games": games, "decisions": decisions, "events": events,
            "seconds": seconds, "games_per_second": games / seconds if seconds else 0.0,
            "decisions_per_second": decisions / seconds if seconds else 0.0,
            "game_ids": ids, "stored": app is not None}


def _play_stored(app: Privateer, game: str, seats: int, options: dict[str, str] | None, game_seed: bytes | None,
                 rng: random.Random, choose: list[Chooser], tournament: str, i: int,
                 players: dict[str, str] | None = None, catalog: dict[str, Any] | None = None,
                 writer: StepWriter | None = None) -> tuple[int, int, str]:
    """One stored game: its creation and every decision each its own append
    (one transaction), exactly as through ``tools new`` and ``tools act``,
    without reading back what was written. With a ``StepWriter``
    (service/writer.py) each step's transaction is committed while the next
    decision is made; the caller flushes it."""
    agg, secret = app.new_game(game, seats, options=options, seed=game_seed, tournament=tournament,
                               name=f"simulated {i + 1}", players=players, catalog=catalog)
    save = app.save_game if writer is None else writer.submit
    save(agg, secret=secret)
    n = 0
    for _ in bot_steps(agg, app.chance_for(agg), choose, rng):
        save(agg)
        n += 1
    return n, agg.version, agg.id.hex


def bot_steps(game: Game, chance: SeededChance | TableChance, choose: list[Chooser],
              rng: random.Random) -> Iterator[None]:
    """Play a stored game's aggregate to its end, every seat a bot (``choose``: a chooser per
    seat, ``kernel.seating.choosers``): each step recorded on ``game``, then yielded, for the
    caller to save or sign it (``_play_stored``, ``Organiser.play_with_bots``)."""
    if not isinstance(chance, SeededChance):
        raise BadInput("bots play a game that draws its own chance, not a table-mode game")
    m = game.machine
    while not m.finished:
        acting = m.acting()
        if not acting:
            raise RuntimeError(f"game {game.id.hex}: nobody can act but the game is not finished")
        seat = acting[0]
        decision = choose[seat](m.state, seat, m.legal(seat), rng)
        chance.stream.counter = m.kernel_state["counter"]
        game.record(m.play(seat, decision, chance))  # (the bot's pick from the list: run at once)
        yield

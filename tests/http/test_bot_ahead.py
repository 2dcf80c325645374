"""A bot searches ahead on a private copy of the game (service/http/bots.py ``Bots._plan``): on
a seeded Merchants & Marauders game, each decision planned on the copy (the decisions before it
applied there with the game's own chance) is chosen in exactly the game as committed once those
are appended (``_as_planned``), the public's count as planned; a plan made before the game moved
otherwise is not as planned; and the bot is handed only what the game's sampler draws from its
seat's view, never the table, ahead as on the committed game."""

from __future__ import annotations

import random

from service.app import Privateer
from service.http import bots as bots_module
from service.http.bots import Bots
from service.http.current import Current

GAME = "merchants-and-marauders"


def _append(app: Privateer, gid, seat: int, decision: dict) -> None:
    """A seat's decision committed as ``Steps.decide`` makes it (as the seat reads its decisions)."""
    game = app.load(gid)
    game.record(game.machine.decide(seat, decision, app.chance_for(game), read=True))
    app.save_game(game)


def _table(tmp_path, monkeypatch):
    """Seat 1's bot about to act in a seeded game, and what its chooser was handed."""
    app = Privateer(str(tmp_path / "ahead.db"))
    gid = app.create(GAME, 2, seed=b"ahead".ljust(32, b"."))
    rng = random.Random(1)
    while True:  # played at random until seat 1's first turn (after the ships are chosen)
        m = app.load(gid).machine
        if m.turn() >= 1 and 1 in m.acting():
            break
        seat = m.acting()[0]
        _append(app, gid, seat, rng.choice(m.legal(seat)))
    bots = Bots.__new__(Bots)  # the searching part alone
    bots.app, bots.current, bots._none = app, Current(app), set()
    bots.bots_of = lambda gid: {1: "ismcts"}  # type: ignore[method-assign]
    handed: list = []

    def bot(state, seat, legal, rng):
        handed.append(state)
        return next((d for d in legal if d.get("action") != "end_turn"), legal[0])  # a long turn

    bots._choosers = {(GAME, "ismcts"): bot}
    monkeypatch.setattr(bots_module, "get_sampler", lambda name: lambda state, seat, rng: {"drawn for seat": seat})
    return app, gid, bots, handed


def test_decisions_planned_ahead_are_the_game_as_committed(tmp_path, monkeypatch):
    app, gid, bots, handed = _table(tmp_path, monkeypatch)
    plan = bots._plan(gid, None)
    planned = 0
    while plan is not None and planned < 12:
        assert bots._as_planned(gid, plan)
        _append(app, gid, plan.seat, plan.decision)
        game = bots.current.game(gid)
        assert (game.version, game.machine.seen(0, game.version)) == (plan.version_after, plan.public_after)
        planned += 1
        if plan.game is None:  # the bot acts no more: nothing planned past it
            assert 1 not in game.machine.acting() or game.machine.finished
            break
        plan = bots._plan(gid, plan)
    assert planned >= 3
    assert handed == [{"drawn for seat": 1}] * planned  # the sampler's draw, never the table


def test_a_plan_made_before_the_game_moved_otherwise_is_not_used(tmp_path, monkeypatch):
    app, gid, bots, _ = _table(tmp_path, monkeypatch)
    first = bots._plan(gid, None)
    second = bots._plan(gid, first)
    assert first is not None and second is not None
    other = next(d for d in app.load(gid).machine.legal(1) if d != first.decision)
    _append(app, gid, 1, other)  # not the decision the plan was made after
    assert not bots._as_planned(gid, second)

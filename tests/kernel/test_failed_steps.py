"""A step the rules fail half-way through on the live state (a listed
decision, or the game's setup) leaves a game nobody may go on with: every
later step is refused with the reason, never played on a half-changed state."""

from __future__ import annotations

import pytest

from service.kernel.local import LocalGame


def _fail_after_one_event(step, *args):
    step.emit("Half", {"note": "one event in"})
    raise ZeroDivisionError("a bug in the rules")


def test_a_setup_that_fails_leaves_a_game_nobody_may_go_on_with(monkeypatch):
    g = LocalGame("letter-of-marque", 3, seed=b"s" * 32, run_setup=False)
    monkeypatch.setattr(g.rules, "setup", _fail_after_one_event)
    with pytest.raises(ZeroDivisionError):
        g.machine.setup(g.chance())
    monkeypatch.undo()
    with pytest.raises(RuntimeError, match="unusable after a failed step: ZeroDivisionError: a bug in the rules"):
        g.machine.setup(g.chance())


def test_a_listed_decision_the_rules_refuse_leaves_a_game_nobody_may_go_on_with(monkeypatch):
    g = LocalGame("loot", 3, seed=b"l" * 32)
    seat = g.to_act()[0]
    decision = g.legal(seat)[0]
    monkeypatch.setattr(g.rules, "decide", _fail_after_one_event)
    with pytest.raises(ZeroDivisionError):
        g.act(seat, decision)
    monkeypatch.undo()
    with pytest.raises(RuntimeError, match="unusable"):
        g.act(seat, decision)

"""The driver's API of a ``Machine`` (issue 46): ``acting()``, ``legal(seat)``,
``play(seat, decision, chance)``, ``Machine.mid_game``. A decision taken from the
list itself runs at once, the rules told it was listed (``Step.checked``); any other
is checked as a submitted decision, and refused unless it is exactly a listed one."""

from __future__ import annotations

import copy
import random

import pytest

from bench.golden import entered_at_random
from service.analysis.ismcts import machine_at
from service.kernel.errors import IllegalDecision, NotYourTurn
from service.kernel.local import LocalGame
from service.kernel.machine import CHANCE_TYPES, Machine, new_kernel_state, same_events

SEED = b"one public way to drive a game".ljust(32, b".")


def _game(name: str = "letter-of-marque", seats: int = 3, steps: int = 4) -> LocalGame:
    g = LocalGame(name, seats, seed=SEED)
    rng = random.Random(3)
    for _ in range(steps):
        seat = g.machine.acting()[0]
        g.act(seat, rng.choice(g.legal(seat)))
    return g


def _checked_flags(monkeypatch, rules) -> list:
    """What ``Step.checked`` the rules are given at each seat's step."""
    flags: list = []
    decide = type(rules).decide

    def spy(self, step, seat, decision):
        flags.append(step.checked)
        return decide(self, step, seat, decision)

    monkeypatch.setattr(type(rules), "decide", spy)
    return flags


def test_acting_is_to_act_kept_as_a_tuple():
    m = _game().machine
    assert m.acting() == tuple(m.to_act()) and m.acting()
    assert m.acting() is m.acting()  # kept until the state changes
    assert m.legal(m.acting()[0]) is m.legal(m.acting()[0])
    others = [s for s in range(1, 4) if s not in m.acting()]
    assert all(m.legal(s) == [] for s in others)


def test_a_listed_decision_runs_at_once_and_unchecked(monkeypatch):
    g = _game()
    m = g.machine
    seat = m.acting()[0]
    flags = _checked_flags(monkeypatch, m.rules)
    twin = m.copy()
    listed = m.legal(seat)
    evs = m.play(seat, listed[-1], g.chance())
    assert flags == [True]
    # the same step as the decision submitted (``decide``): the same events, the same state
    submitted = twin.decide(seat, copy.deepcopy(twin.legal(seat)[-1]), g.chance())
    assert same_events(evs, submitted)
    assert m.state == twin.state and m.kernel_state == twin.kernel_state


def test_a_decision_not_taken_from_the_list_is_checked():
    g = _game()
    m = g.machine
    seat = m.acting()[0]
    listed = m.legal(seat)
    with pytest.raises(IllegalDecision):
        m.play(seat, {**listed[0], "not a field": 1}, g.chance())
    with pytest.raises(IllegalDecision):
        m.play(seat, {"no": "such decision"}, g.chance())
    others = [s for s in range(1, 4) if s not in m.acting()]
    with pytest.raises(NotYourTurn):
        m.play(others[0], listed[0], g.chance())
    # nothing changed: the listed decision still runs
    assert m.legal(seat) is listed
    m.play(seat, copy.deepcopy(listed[0]), g.chance())  # an equal one: checked, accepted


def test_a_decision_of_an_earlier_states_list_is_checked_again(monkeypatch):
    g = _game()
    m = g.machine
    seat = m.acting()[0]
    stale = m.legal(seat)
    m.play(seat, stale[0], g.chance())
    flags = _checked_flags(monkeypatch, m.rules)
    seat = m.acting()[0]
    assert not any(d == stale[0] for d in m.legal(seat))  # (this game: a launch, then a placing)
    with pytest.raises((IllegalDecision, NotYourTurn)):
        m.play(seat, stale[0], g.chance())
    assert flags == [False]  # run on a copy, the rules checking it (and refusing it)


def test_a_table_checks_every_decision(monkeypatch):
    """At a table the state before each step is kept: a listed decision too runs as a
    submitted one (on a copy, the rules checking it)."""
    g = LocalGame("letter-of-marque", 3, table=True)
    m = g.machine
    rng = random.Random(2)
    for _ in range(200):
        if m.acting():
            break
        g.enter(entered_at_random(m.kernel_state["awaiting"], rng))
    seat = m.acting()[0]
    flags = _checked_flags(monkeypatch, m.rules)
    m.play(seat, m.legal(seat)[0], g.chance())
    assert flags and flags[0] is False


def test_a_playout_on_the_fold_path_counts_the_steps_checked_on_a_copy():
    """A heuristic bot that builds its decisions (kaisers-pirates') has them checked, on a
    copy: the playout that keeps nothing still counts their decisions and outcomes."""
    kept = LocalGame("kaisers-pirates", 2, seed=SEED)
    kept.play_out(random.Random(5), bot="heuristic", keep=True)
    unkept = LocalGame("kaisers-pirates", 2, seed=SEED)
    unkept.play_out(random.Random(5), bot="heuristic", keep=False)
    setup = next(i for i, e in enumerate(kept.events) if e.type == "Decided" and e.data["seat"])
    counted = sum(1 for e in kept.events[setup:] if e.type == "Decided" or e.type in CHANCE_TYPES)
    assert unkept.actions == counted > 0
    assert unkept.state == kept.state


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_searchs_machine_holds_the_kernels_own_state(seats):
    g = _game("letter-of-marque", seats, steps=0)
    m = machine_at(g.rules, copy.deepcopy(g.state), seats)
    fresh = new_kernel_state(seats, False)
    assert set(m.kernel_state) == set(fresh)
    assert len(m.kernel_state["seen"]) == seats + 1 == len(g.machine.kernel_state["seen"])
    assert m.kernel_state["steps"] == 1 and not m.keep_events
    assert m.acting() == g.machine.acting()
    assert Machine.mid_game(g.rules, g.state, seats).state is g.state  # held, not copied

"""The state's shape for the type checker (``shapes.py``) is the shape the rules build: at
every step of seeded games in each mode, each part of the state has every key its
TypedDict requires and no key it does not name."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from service.aggregates.kaisers_pirates import shapes
from service.kernel.local import LocalGame


def _fits(value: dict, shape: type, where: str) -> None:
    keys = set(value)
    missing = shape.__required_keys__ - keys
    unknown = keys - shape.__required_keys__ - shape.__optional_keys__
    assert not missing, f"{where} lacks {sorted(missing)} ({shape.__name__})"
    assert not unknown, f"{where} has {sorted(unknown)}, not in {shape.__name__}"


def _check(state: dict) -> None:
    _fits(state, shapes.State, "the state")
    for n, p in enumerate(state["players"], 1):
        _fits(p, shapes.Player, f"player {n}")
        if p["pending"] is not None:
            _fits(p["pending"], shapes.Placed, f"player {n}'s pending card")
        for e in p["vp"]:
            _fits(e, shapes.VpEntry, f"player {n}'s vp entry")
    for ship, st in state["status"].items():
        _fits(st, shapes.Status, f"the status of {ship}")
    if state["tt"] is not None:
        _fits(state["tt"], shapes.Turn, "the turn")
        for c in state["tt"]["committed"]:
            _fits(c, shapes.Committed, "a committed card")
    eng = state["eng"]
    if eng is not None:
        _fits(eng, shapes.Engagement, "the engagement")
        if eng["passage"] is not None:
            _fits(eng["passage"], shapes.Passage, "the passage offered")
        if eng["reaction"] is not None:
            _fits(eng["reaction"], shapes.Placed, "the reaction")
    if state["window"] is not None:
        _fits(state["window"], shapes.Window, f"the {state['window']['kind']} window")
    if state.get("solo") is not None:
        _fits(state["solo"], shapes.Solo, "the phantom's deck")
    if state.get("exchange") is not None:
        _fits(state["exchange"], shapes.Exchange, "the exchange")


@pytest.mark.parametrize("seats, options", [
    (1, {}), (2, {}), (3, {}), (4, {"team": "true"}),
    (3, {"sails": "true", "wolf": "true", "extra_damage": "true", "shallow_pursuit": "true",
         "fast_raiders": "true", "torpedo_prizes": "true", "prize_resupply": "true"}),
])
def test_the_state_has_the_shape_the_type_checker_reads(seats, options):
    for i in range(2):
        g = LocalGame("kaisers-pirates", seats, seed=f"shape-{seats}-{i}".encode().ljust(32, b"."), options=options)
        rng = random.Random(i)
        _check(g.state)
        steps = 0
        while not g.machine.finished:
            seat = g.to_act()[0]
            g.act(seat, rng.choice(g.legal(seat)))
            _check(g.state)
            steps += 1
            assert steps < 20000
        assert g.state["phase"] == "over"


def test_no_module_of_the_package_imports_the_shapes_at_run_time():
    """The shapes are the type checker's (named under ``_TYPES_ONLY``): the rules never load
    ``typing`` for them."""
    code = ("import sys, service.aggregates.kaisers_pirates; "
            "print('service.aggregates.kaisers_pirates.shapes' in sys.modules, 'typing' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "False"]

"""Refusals in the game's words (issue 45): what a referee or a seat is told after a typical
wrong entry at a table, in each game, names no id (``spanish_naval``, deck ``'captains'``,
``ships:force-2``) and never fails as a crash (a missing field is a refusal saying which are
possible). The wrong entries: a decision of another seat, an unknown action, an action
without its fields, a field given a value that is nothing; an outcome that is no card, no
die face, no option; a deal one word short."""

from __future__ import annotations

import random
import re

import pytest

from bench.golden import entered_at_random
from service.kernel.errors import PrivateerError
from service.kernel.local import LocalGame

from .words_check import SNAKE_ID

# a deck or pile by its id ("deck 'captains'", "ships:force-2", "action:hand-1", "treasure:red")
DECK_ID = re.compile(r"\bdeck '|\b[a-z]+:[a-z]+(?:-\d+)?\b")
WRONG_OUTCOMES = ("nothing-here", 99, [99], "")
GAMES = [("letter-of-marque", 3), ("loot", 3), ("kaisers-pirates", 2), ("merchants-and-marauders", 3)]


def _refusals(game: str, seats: int, steps: int = 120) -> list[str]:
    rng = random.Random(game)
    g = LocalGame(game, seats, table=True, seed=bytes(32))
    said: list[str] = []

    def refused(attempt, *args) -> None:
        try:
            attempt(*args)
        except PrivateerError as e:
            said.append(e.reason)
        else:
            raise AssertionError(f"a wrong entry was taken: {args}")

    for _ in range(steps):
        m = g.machine
        if m.finished:
            break
        awaiting = m.kernel_state["awaiting"]
        if awaiting is not None:
            for wrong in WRONG_OUTCOMES:
                refused(m.enter_words, [wrong])
            if awaiting["kind"] == "dice" and awaiting["n"] > 1:
                refused(m.enter_words, [1])
            g.enter(entered_at_random(awaiting, rng))
            continue
        seat = g.to_act()[0]
        legal = g.legal(seat)
        d = rng.choice(legal)
        tries = [(s, d) for s in range(1, seats + 1) if s != seat][:1]
        tries += [(seat, {**d, "action": "fly"}), (seat, {"action": d["action"]} if len(d) > 1 else None)]
        tries += [(seat, {**d, k: v}) for k in d if k != "action" for v in ("nowhere", 99)]
        for s, wrong in tries:
            if wrong is not None and wrong not in g.legal(s):
                refused(g.act, s, wrong)
        g.act(seat, d)
    return said


@pytest.mark.parametrize("game, seats", GAMES, ids=[g for g, _ in GAMES])
def test_no_refusal_of_a_wrong_entry_names_an_id(game, seats):
    said = _refusals(game, seats)
    assert len(said) > 100
    bad = sorted({r for r in said if SNAKE_ID.search(r) or DECK_ID.search(r)})
    assert not bad, "\n".join(bad[:20])

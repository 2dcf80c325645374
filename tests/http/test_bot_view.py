"""A seated bot chooses from its seat's own view (service/http/bots.py ``choose``): two
tables alike but for one card of the other seat's hand give every bot the same choice
for one random stream, and what a bot is given to look at is the same at both; a bot
whose decision is refused looks again."""

from __future__ import annotations

import asyncio
import random
import uuid

import pytest

from service.app import Privateer
from service.http.bot_pacing import Plan
from service.http.bots import REFUSALS, Bots, bot_names, choose
from service.kernel.errors import IllegalDecision
from service.kernel.games import get_rules
from service.kernel.seating import choosers

SEAT_1 = ["merchant-2", "merchant-3", "blue-1", "green-1", "gold-2"]
SEAT_2 = ["merchant-4", "blue-3", "green-3", "gold-3", "purple-3"]


def dealt(tmp_path, name: str, last_1: str, last_2: str):
    """A two-seat table-mode Loot game, seat 2 dealing: seat 1 acts first."""
    app = Privateer(str(tmp_path / f"{name}.db"))
    game, _ = app.new_game("loot", 2, table=True, options={}, name="", tournament="", players={}, setup=True)
    m = game.machine
    hands = {1: [*SEAT_1, last_1], 2: [*SEAT_2, last_2]}
    words: list = [2]
    for _ in range(12):
        words.append(hands[len(words) % 2 or 2].pop(0))  # seat 1 first, then seat 2, in turn
    m.enter_words(words)
    assert m.to_act() == [1] and hands == {1: [], 2: []}
    return m


@pytest.mark.parametrize("bot", bot_names(get_rules("loot")))
def test_a_bots_choice_depends_on_nothing_hidden_from_its_seat(tmp_path, bot):
    a = dealt(tmp_path, "a", "purple-2", "admiral")
    b = dealt(tmp_path, "b", "purple-2", "merchant-8")
    assert a.legal(1) == b.legal(1)
    chooser = choosers(a.rules, {1: bot}, 1)[1]
    for seed in range(5):
        assert choose(a.rules, a.s, 1, a.legal(1), chooser, random.Random(seed)) == \
            choose(b.rules, b.s, 1, b.legal(1), chooser, random.Random(seed))


def test_a_bot_that_would_peek_sees_only_a_drawn_table(tmp_path):
    """What a bot is given to look at is the same at both tables (the true tables differ)."""
    a = dealt(tmp_path, "a", "purple-2", "admiral")
    b = dealt(tmp_path, "b", "purple-2", "merchant-8")
    assert a.s["hands"][1] != b.s["hands"][1]
    for seed in range(3):
        seen = []

        def peeker(state, seat, legal, rng, seen=seen):
            seen.append(repr(state))
            return legal[-1]

        choose(a.rules, a.s, 1, a.legal(1), peeker, random.Random(seed))
        choose(b.rules, b.s, 1, b.legal(1), peeker, random.Random(seed))
        assert seen[0] == seen[1]


def test_a_refused_bot_looks_again_and_a_stubborn_one_stops():
    """A bot's decision refused (the game moved meanwhile) is chosen again on the table as it is now;
    after REFUSALS refusals in a row its task stops (the next commit wakes it again)."""

    class Steps:
        def __init__(self, refuse):
            self.refuse, self.sent = refuse, []

        async def decide(self, gid, caller, decision, expected, seat, key):
            self.sent.append((caller.seat, decision, expected))
            if len(self.sent) <= self.refuse:
                raise IllegalDecision("not one of the decisions seat 2 may make now")

    class Changes:
        def on_commit(self, listener, elsewhere=None):
            pass

    def plans(*decisions):
        chosen = iter(decisions)
        return lambda gid, before: next(chosen)

    steps = Steps(refuse=1)
    bots = Bots(None, None, steps, None, Changes())
    bots._plan = plans(Plan(2, "ismcts", {"n": 1}, 7, 7, 0, []), Plan(2, "ismcts", {"n": 2}, 7, 7, 0, []), None)
    asyncio.run(bots._play(uuid.uuid4().hex))
    assert steps.sent == [(2, {"n": 1}, 7), (2, {"n": 2}, 7)]
    bots.close()

    steps = Steps(refuse=100)
    bots = Bots(None, None, steps, None, Changes())
    bots._plan = lambda gid, before: Plan(2, "ismcts", {"n": 1}, 7, 7, 0, [])
    asyncio.run(bots._play(uuid.uuid4().hex))
    assert len(steps.sent) == REFUSALS + 1 and not bots._tasks
    bots.close()

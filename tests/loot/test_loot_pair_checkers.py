"""Pairs: only the first seat of each pair (1, 3, 5, 7) checks captures, whoever
deals, so every opponent plays between a merchant being put to sea and its
capture (RULINGS.md, "Pairs"). Table mode, every dealer of 4, 6 and 8 players:
the seat left of the dealer plays a merchant, everyone else draws, and the
log shows who captures it and when."""

from __future__ import annotations

import pytest

from service.kernel.local import LocalGame
from service.aggregates.loot.cards import MERCHANT, kind

from loot_helpers import deal_table, draw


def cards_for(n: int):
    pile = LocalGame("loot", n, {"pairs": "true"}, table=True).state["pile"]
    merchants = sorted(c for c in pile if kind(c) == MERCHANT)
    pirates = sorted(c for c in pile if kind(c) != MERCHANT and "captain" not in c and c != "admiral")
    hands = {s: [merchants[s - 1]] + pirates[5 * (s - 1):5 * s] for s in range(1, n + 1)}
    return hands, pirates[5 * n:]


@pytest.mark.parametrize("n", [4, 6, 8])
def test_the_first_seat_of_each_pair_checks_whoever_deals(n):
    hands, spare = cards_for(n)
    for dealer in range(1, n + 1):
        g = deal_table(n, dealer, hands, {"pairs": "true"})
        assert g.state["checkers"] == list(range(1, n, 2)), dealer
        first = dealer % n + 1
        merchant = hands[first][0]
        g.act(first, {"action": "merchant", "card": merchant})
        turns_between, captured, spare_left = [], None, list(spare)
        while captured is None:
            seat = g.to_act()[0]
            evs = draw(g, seat, spare_left.pop())
            turns_between.append(seat)
            got = [e for e in evs if e.type == "MerchantCaptured"]
            if got:
                captured = got[0].data["seat"]
        checker = first if first % 2 else first - 1
        assert captured == checker, (n, dealer)
        # every opponent had a turn after the merchant was played and before its capture
        opponents = {s for s in range(1, n + 1) if (s + 1) // 2 != (first + 1) // 2}
        assert opponents <= set(turns_between), (n, dealer, turns_between)
        # and no capture ever starts at an even seat's turn
        for e in g.events:
            if e.type == "MerchantCaptured":
                assert e.data["seat"] % 2 == 1


def test_a_game_recorded_under_the_first_reading_keeps_it():
    """Rules version 1 (stored games): the partner taking the team's first turn checked."""
    from service.kernel.machine import Ev, Machine
    from service.kernel.games import get_rules
    from service.kernel.chance import TableChance

    rules = get_rules("loot")
    created = LocalGame("loot", 4, {"pairs": "true"}, table=True).events[0]
    old = Ev("GameCreated", 0, "all", dict(created.data, rules_version="1"))
    m = Machine(rules, old)
    m.apply(old)
    m.setup(TableChance([]))
    m.enter_chance(1)  # seat 1 deals: seat 2 plays first
    assert m.s["checkers"] == [2, 3]

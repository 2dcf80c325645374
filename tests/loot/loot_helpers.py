"""Shared helpers for the Loot tests (table-mode dealing, bookkeeping)."""

from __future__ import annotations

import json

from service.aggregates.loot.cards import build_deck, gold
from service.aggregates.loot.catalog import load
from service.kernel.local import LocalGame

DECK = build_deck(load())
MERCHANTS = [c for c in DECK if c.startswith("merchant-")]
NON_MERCHANTS = [c for c in DECK if not c.startswith("merchant-")]


def deal_table(seats: int, dealer: int, hands: dict[int, list[str]], options=None) -> LocalGame:
    """A table-mode game: the referee enters the dealer, then the six cards of
    every hand, dealt one at a time from the seat left of the dealer."""
    g = LocalGame("loot", seats, options, table=True)
    assert g.machine.k["awaiting"]["kind"] == "pick"
    g.enter(dealer)
    first = dealer % seats + 1
    order = [(first - 1 + i) % seats + 1 for i in range(seats)]
    for r in range(6):
        for s in order:
            assert g.machine.k["awaiting"]["kind"] == "card"
            g.enter(hands[s][r])
    assert g.machine.k["awaiting"] is None
    assert g.to_act() == [first]
    return g


def draw(g: LocalGame, seat: int, card: str):
    g.act(seat, {"action": "draw"})
    return g.enter(card)


def gold_total(state) -> int:
    total = sum(gold(c) for h in state["hands"] for c in h)
    total += sum(gold(c) for h in state["captured"] for c in h)
    total += sum(gold(c) for c in state["discard"]) + sum(gold(c) for c in state["pile"])
    total += sum(b["gold"] for b in state["sea"])
    return total


def all_cards(state) -> list[str]:
    cards = [c for h in state["hands"] for c in h] + [c for h in state["captured"] for c in h]
    cards += state["discard"] + state["pile"]
    for b in state["sea"]:
        cards += [b["merchant"]] + [c for a in b["attacks"] for c in a["cards"]] + b["specials"]
    return cards


def snapshot(g: LocalGame):
    return json.dumps(g.state, sort_keys=True), len(g.events), json.dumps(g.machine.k, sort_keys=True)

"""The tables the rules work out once (issue 34, playout speed) give what the plain
reading gave: at every listing of seeded games (several seat counts, the team game,
solitaire, every optional rule), ``commit_options`` and ``reaction_types`` equal the
plain computations kept here, and every ``CardDrawn`` leaves the state as the plain
reading of its deck name did."""

from __future__ import annotations

import copy
import random
from bisect import bisect_left

import pytest

from service.aggregates.kaisers_pirates import windows
from service.aggregates.kaisers_pirates.board import commit_options, in_refuge, ix
from service.kernel.local import LocalGame
from service.kernel.machine import Machine

GAME = "kaisers-pirates"
ALL_OPTIONAL = {"coal": "true", "sails": "true", "wolf": "true", "fast_raiders": "true", "keep_three": "true",
                "extra_damage": "true", "torpedo_prizes": "true", "shallow_pursuit": "true",
                "sailing_merchants": "true", "prize_resupply": "true", "tournament": "true"}
CONFIGS = [(2, {}), (3, {}), (4, {}), (4, {"team": "true"}), (1, {}), (3, ALL_OPTIONAL),
           (4, {"beyond_1914": "historical"})]


def plain_commit_options(state, seat, cards):
    """``board.commit_options`` as it read the card's type and kind at every listing."""
    if not cards:
        return []
    i = ix(state)
    tt = state["tt"]
    taken = set(tt["used"])
    for c in tt["committed"]:
        if c["ship"]:
            taken.add(c["ship"])
    free = [s for s in state["players"][seat - 1]["ships"] if s not in taken and not in_refuge(state, s)]
    reflag_ok = tt.get("revealed_at_start")
    team = state["options"].get("team")
    out = []
    for card in cards:
        t = i.card_type[card]
        for s in free:
            out.append({"action": "commit", "card": card, "use": "intercept", "ship": s})
        out.append({"action": "commit", "card": card, "use": "intercept", "ship": None})
        kind = i.card_kind[card]
        if t == "lay-mines":
            out += [{"action": "commit", "card": card, "use": "action", "ship": s} for s in free
                    if i.ships[s]["mines"]]
        elif kind == "normal" or kind == "assist" or (t == "reflag" and reflag_ok) or (kind == "team" and team):
            out.append({"action": "commit", "card": card, "use": "action"})
    return out


def plain_intercept_reactions(state):
    """``windows.reaction_types`` against an intercept, the set built at every attack."""
    eng = state["eng"]
    tgt = eng["targets"][eng["i"]]
    calm = not eng["night"] and not eng["surprise"]
    raider = eng["ship"] in ix(state).raiders
    damaged = state["status"][tgt]["damaged"]
    out = {"amc", "non-combatant", "slim-pickings", "trap"}
    if calm:
        out |= {"break-contact", "shallow-run"}
        if raider and not damaged:
            out.add("fast-ship")
    if damaged:
        out.discard("non-combatant")
    if raider and not state["status"][eng["ship"]]["revealed"]:
        out.add("qqq")
    if state.get("options"):
        out = windows.optional.barred(state, out)
    return out


def plain_card_drawn(state, d):
    """``deal._card_drawn`` reading the deck's name at every draw."""
    deck, _, dest = d["deck"].partition(":")
    card = d["card"]

    def take(pile):
        cards = state[pile]
        if state.get("sorted_piles"):
            at = bisect_left(cards, card)
            if at < len(cards) and cards[at] == card:
                del cards[at]
                return
        cards.remove(card)

    if deck == "action":
        take("pool")
        if dest == "set-aside":
            state["set_aside"].append(card)
        elif dest.startswith("hand-"):
            state["players"][int(dest[5:]) - 1]["hand"].append(card)
        elif dest == "peek":
            state["peek"].append(card)
        elif dest == "phantom-hand":
            state["players"][1]["hand"].append(card)
        elif dest == "phantom-discard":
            state["discard"].append(card)
    elif deck == "ships":
        take("ship_pool")
        state["players"][int(dest[6:]) - 1]["ships"].append(card)
        state["status"][card] = {"damaged": False, "supply": False, "revealed": False, "refuge": None}
    elif deck == "merchants":
        take("merchant_pool")
        state["players"][int(dest[6:]) - 1]["merchants"].append(card)
        state["status"][card] = {"damaged": False, "supply": False, "revealed": True, "refuge": None}


@pytest.mark.parametrize("seats,options", CONFIGS)
def test_listings_equal_the_plain_computations(seats, options):
    listed = reacted = 0
    for n in range(3):
        g = LocalGame(GAME, seats, options=options, seed=f"tables-{seats}-{n}".encode().ljust(32, b"."))
        rng = random.Random(f"tables-{seats}-{n}")
        for _ in range(20_000):
            if g.machine.kernel_state["finished"]:
                break
            seat = g.to_act()[0]
            state = g.state
            if state["window"] is None and state["phase"] == "commit":
                hand = state["players"][seat - 1]["hand"]
                assert commit_options(state, seat, hand) == plain_commit_options(state, seat, hand)
                listed += 1
            w = state["window"]
            if w is not None and w["kind"] == "react" and state["eng"]["kind"] == "intercept":
                assert windows.reaction_types(state) == plain_intercept_reactions(state)
                reacted += 1
            g.act(seat, rng.choice(g.legal(seat)))
    assert listed and reacted


@pytest.mark.parametrize("seats,options", CONFIGS)
def test_card_drawn_equals_the_plain_reading(seats, options):
    g = LocalGame(GAME, seats, options=options, seed=f"drawn-{seats}".encode().ljust(32, b"."))
    g.play_out(random.Random(f"drawn-{seats}"))
    m = Machine(g.rules, g.events[0])
    drawn = 0
    for ev in g.events:
        if ev.type == "CardDrawn":
            expected = copy.deepcopy(m.state)
            plain_card_drawn(expected, ev.data)
            m.apply(ev)
            assert m.state == expected
            drawn += 1
        else:
            m.apply(ev)
    assert drawn

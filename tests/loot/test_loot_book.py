"""The rulebook's situations, driven in table mode with the exact cards."""

from __future__ import annotations

import pytest

from service.kernel import IllegalDecision
from service.aggregates.loot.state import battle, leader

from loot_helpers import MERCHANTS, NON_MERCHANTS, deal_table, draw, gold_total, snapshot


def captures(events):
    return [(e.data["seat"], e.data["merchant"]) for e in events if e.type == "MerchantCaptured"]


def admiral_game():
    # Seat 2 deals, so seat 1 (left of the dealer) plays first.
    return deal_table(2, 2, {
        1: ["merchant-5a", "admiral", "green-1a", "green-1b", "purple-1a", "blue-1a"],
        2: ["blue-4a", "blue-captain", "green-2a", "green-2b", "merchant-2a", "purple-2b"],
    })


def test_admiral_example_defender_wins():
    """You play a merchant, the opponent attacks with a 4-skull blue pirate, you play
    the Admiral (without having played a pirate): the merchant is yours at the start
    of your next turn unless the opponent plays the blue captain."""
    g = admiral_game()
    g.act(1, {"action": "merchant", "card": "merchant-5a"})
    g.act(2, {"action": "pirate", "card": "blue-4a", "merchant": "merchant-5a"})
    assert leader(battle(g.state, "merchant-5a")) == 2
    g.act(1, {"action": "admiral", "merchant": "merchant-5a"})
    assert leader(battle(g.state, "merchant-5a")) == 1
    evs = draw(g, 2, "merchant-3a")  # the opponent does not play the captain
    assert captures(evs) == [(1, "merchant-5a")]
    assert g.state["captured"] == [["merchant-5a"], []]
    assert sorted(g.state["discard"]) == ["admiral", "blue-4a"]
    assert g.state["sea"] == []


def test_admiral_example_captain_wins():
    g = admiral_game()
    g.act(1, {"action": "merchant", "card": "merchant-5a"})
    g.act(2, {"action": "pirate", "card": "blue-4a", "merchant": "merchant-5a"})
    g.act(1, {"action": "admiral", "merchant": "merchant-5a"})
    evs = g.act(2, {"action": "captain", "card": "blue-captain", "merchant": "merchant-5a"})
    assert captures(evs) == []  # seat 1's turn starts: the Admiral has been beaten
    assert leader(battle(g.state, "merchant-5a")) == 2
    evs = draw(g, 1, "merchant-3a")
    assert captures(evs) == [(2, "merchant-5a")]
    assert g.state["captured"] == [[], ["merchant-5a"]]
    assert sorted(g.state["discard"]) == ["admiral", "blue-4a", "blue-captain"]


def test_unattacked_merchant_is_captured_next_turn():
    g = admiral_game()
    g.act(1, {"action": "merchant", "card": "merchant-5a"})
    evs = draw(g, 2, "merchant-3a")
    assert captures(evs) == [(1, "merchant-5a")]
    assert [e.data["how"] for e in evs if e.type == "MerchantCaptured"] == ["unattacked"]


def test_tie_stays_in_play_until_broken():
    g = deal_table(2, 2, {
        1: ["merchant-5a", "green-3a", "green-1a", "purple-1a", "purple-1b", "gold-1a"],
        2: ["blue-3a", "blue-2a", "green-2a", "green-2b", "merchant-2a", "purple-2b"],
    })
    g.act(1, {"action": "merchant", "card": "merchant-5a"})
    g.act(2, {"action": "pirate", "card": "blue-3a", "merchant": "merchant-5a"})
    # the owner attacks their own merchant to keep it: 3 green against 3 blue
    evs = g.act(1, {"action": "pirate", "card": "green-3a", "merchant": "merchant-5a"})
    assert captures(evs) == [] and leader(battle(g.state, "merchant-5a")) is None
    evs = draw(g, 2, "merchant-3a")
    assert captures(evs) == []
    evs = draw(g, 1, "merchant-3b")
    assert captures(evs) == []
    evs = draw(g, 2, "merchant-3c")
    assert captures(evs) == [] and [b["merchant"] for b in g.state["sea"]] == ["merchant-5a"]
    # seat 1 breaks the tie with one more green skull
    g.act(1, {"action": "pirate", "card": "green-1a", "merchant": "merchant-5a"})
    assert leader(battle(g.state, "merchant-5a")) == 1
    evs = draw(g, 2, "merchant-3d")
    assert captures(evs) == [(1, "merchant-5a")]
    assert sorted(g.state["discard"]) == ["blue-3a", "green-1a", "green-3a"]


def test_tie_broken_by_a_weaker_third_attacker():
    """Two pirates locked in a tie; a third player joins with a new colour and takes it."""
    g = deal_table(3, 3, {
        1: ["merchant-6a", "purple-2a", "purple-2b", "green-1a", "gold-1a", "gold-1b"],
        2: ["blue-3a", "blue-1a", "green-2a", "green-2b", "merchant-2a", "purple-1b"],
        3: ["green-3a", "green-1b", "blue-2a", "blue-2b", "merchant-2b", "purple-3a"],
    })
    g.act(1, {"action": "merchant", "card": "merchant-6a"})
    g.act(2, {"action": "pirate", "card": "blue-3a", "merchant": "merchant-6a"})
    g.act(3, {"action": "pirate", "card": "green-3a", "merchant": "merchant-6a"})
    g.act(1, {"action": "pirate", "card": "purple-2a", "merchant": "merchant-6a"})
    assert leader(battle(g.state, "merchant-6a")) is None
    assert captures(draw(g, 2, "merchant-3a")) == []
    assert captures(draw(g, 3, "merchant-3b")) == []
    evs = g.act(1, {"action": "pirate", "card": "purple-2b", "merchant": "merchant-6a"})
    assert leader(battle(g.state, "merchant-6a")) == 1  # purple 4 beats blue 3 and green 3
    assert captures(evs) == []
    assert captures(draw(g, 2, "merchant-3c")) == []
    evs = draw(g, 3, "merchant-3d")
    assert captures(evs) == [(1, "merchant-6a")]


def test_colour_rule_rejects_a_used_colour():
    g = deal_table(3, 3, {
        1: ["merchant-6a", "purple-2a", "purple-2b", "green-1a", "gold-1a", "gold-1b"],
        2: ["blue-3a", "blue-1a", "green-2a", "green-2b", "merchant-2a", "purple-1b"],
        3: ["green-3a", "blue-4a", "blue-2a", "blue-2b", "merchant-2b", "purple-3a"],
    })
    g.act(1, {"action": "merchant", "card": "merchant-6a"})
    g.act(2, {"action": "pirate", "card": "blue-3a", "merchant": "merchant-6a"})
    before = snapshot(g)
    with pytest.raises(IllegalDecision, match="blue is already used"):
        g.act(3, {"action": "pirate", "card": "blue-4a", "merchant": "merchant-6a"})
    assert snapshot(g) == before
    assert {"action": "pirate", "card": "blue-4a", "merchant": "merchant-6a"} not in g.legal(3)
    g.act(3, {"action": "pirate", "card": "green-3a", "merchant": "merchant-6a"})
    g.act(1, {"action": "pirate", "card": "gold-1a", "merchant": "merchant-6a"})
    # the first attacker may only strengthen its own colour, not add another
    before = snapshot(g)
    with pytest.raises(IllegalDecision, match="only strengthen"):
        g.act(2, {"action": "pirate", "card": "purple-1b", "merchant": "merchant-6a"})
    assert snapshot(g) == before
    g.act(2, {"action": "pirate", "card": "blue-1a", "merchant": "merchant-6a"})
    assert [(a["colour"], a["side"], a["skulls"]) for a in battle(g.state, "merchant-6a")["attacks"]] == [
        ("blue", 2, 4), ("green", 3, 3), ("gold", 1, 1)]


def test_illegal_plays_are_refused_and_change_nothing():
    g = admiral_game()
    g.act(1, {"action": "merchant", "card": "merchant-5a"})
    cases = [
        # a captain without an earlier pirate of that colour
        (2, {"action": "captain", "card": "blue-captain", "merchant": "merchant-5a"}, "blue captain may only"),
        # a merchant may never be discarded
        (2, {"action": "discard", "card": "merchant-2a"}, "never be discarded"),
        # discarding while the pile has cards
        (2, {"action": "discard", "card": "green-2a"}, "only once the draw pile is empty"),
        # not in hand / no such merchant / not your card kind
        (2, {"action": "pirate", "card": "blue-3a", "merchant": "merchant-5a"}, "no 'blue-3a'"),
        (2, {"action": "pirate", "card": "blue-4a", "merchant": "merchant-8a"}, "no merchant ship"),
        (2, {"action": "merchant", "card": "blue-4a"}, "not a merchant"),
        (2, {"action": "fly"}, "unknown action"),
        (2, {"action": "draw", "card": "x"}, "takes"),
    ]
    for seat, decision, reason in cases:
        before = snapshot(g)
        with pytest.raises(IllegalDecision, match=reason):
            g.act(seat, decision)
        assert snapshot(g) == before
        assert decision not in g.legal(seat)
    g.act(2, {"action": "merchant", "card": "merchant-2a"})
    # the Admiral on an opponent's merchant
    before = snapshot(g)
    with pytest.raises(IllegalDecision, match="only defend your own"):
        g.act(1, {"action": "admiral", "merchant": "merchant-2a"})
    assert snapshot(g) == before
    # out of turn
    with pytest.raises(IllegalDecision):
        g.act(2, {"action": "merchant", "card": "merchant-2a"})
    assert snapshot(g) == before


def test_captain_needs_a_pirate_from_an_earlier_turn_of_its_own_colour():
    g = admiral_game()
    g.act(1, {"action": "merchant", "card": "merchant-5a"})
    g.act(2, {"action": "pirate", "card": "green-2a", "merchant": "merchant-5a"})
    g.act(1, {"action": "admiral", "merchant": "merchant-5a"})
    before = snapshot(g)
    # seat 2 attacks in green: the blue captain has no blue pirate of seat 2 to go on
    with pytest.raises(IllegalDecision, match="blue captain may only"):
        g.act(2, {"action": "captain", "card": "blue-captain", "merchant": "merchant-5a"})
    assert snapshot(g) == before
    assert not [d for d in g.legal(2) if d["action"] == "captain"]


def test_empty_hand_before_the_pile_is_empty_draws():
    g = deal_table(2, 2, {
        1: ["merchant-2a", "merchant-2b", "merchant-3a", "merchant-3b", "merchant-4a", "merchant-4b"],
        2: ["blue-4a", "blue-captain", "green-2a", "green-2b", "merchant-2c", "purple-2b"],
    })
    hand = list(g.state["hands"][0])
    for i, card in enumerate(hand):
        g.act(1, {"action": "merchant", "card": card})
        draw(g, 2, NON_MERCHANTS[-1 - i])
    assert g.state["hands"][0] == [] and g.state["pile"]
    assert not g.machine.finished
    assert g.legal(1) == [{"action": "draw"}]
    assert sorted(g.state["captured"][0]) == sorted(hand)


def test_end_of_game_hand_penalty():
    """The pile runs out; seat 1 plays its last card while seat 2 still holds two
    merchants (8 and 7 gold): seat 2 scores minus 15; the 23 merchants seat 1
    captured (85 gold) are its score."""
    keep = ["merchant-8a", "merchant-7a"]
    s1 = [m for m in MERCHANTS if m not in keep] + NON_MERCHANTS[:15]
    s2 = keep + NON_MERCHANTS[15:]
    assert len(s1) == 38 and len(s2) == 40 and len(s1) + len(s2) == 78
    # Seat 2 deals: seat 1 plays first.
    g = deal_table(2, 2, {1: s1[:6], 2: s2[:6]})
    rest = {1: s1[6:], 2: s2[6:]}
    # seat 1 puts two merchants to sea (seat 2 only draws: both are captured unattacked)
    for card in s1[:2]:
        g.act(1, {"action": "merchant", "card": card})
        draw(g, 2, rest[2].pop(0))
    while g.state["pile"]:
        seat = g.to_act()[0]
        draw(g, seat, rest[seat].pop(0))
    assert rest == {1: [], 2: []} and g.to_act() == [1]
    assert g.state["captured"][0] == s1[:2]
    assert {"action": "draw"} not in g.legal(1)
    before = snapshot(g)
    with pytest.raises(IllegalDecision, match="draw pile is empty"):
        g.act(1, {"action": "draw"})
    assert snapshot(g) == before
    hand1 = g.state["hands"][0]
    plays1 = [m for m in hand1 if m.startswith("merchant-")] + [c for c in hand1 if not c.startswith("merchant-")]
    plays2 = [c for c in g.state["hands"][1] if not c.startswith("merchant-")]
    assert len(plays1) == 36 and len(plays2) == 38
    for i, card in enumerate(plays1):
        action = "merchant" if card.startswith("merchant-") else "discard"
        g.act(1, {"action": action, "card": card})
        if i == len(plays1) - 1:
            break
        assert not g.machine.finished
        before = snapshot(g)
        with pytest.raises(IllegalDecision, match="never be discarded"):
            g.act(2, {"action": "discard", "card": "merchant-8a"})
        assert snapshot(g) == before
        g.act(2, {"action": "discard", "card": plays2[i]})
        assert gold_total(g.state) == 100
    assert g.machine.finished
    assert g.state["hands"][0] == [] and sorted(g.state["hands"][1]) == sorted(keep + plays2[35:])
    assert sorted(g.state["captured"][0]) == sorted(m for m in MERCHANTS if m not in keep)
    result = g.machine.k["result"]
    assert result == {"scores": {"1": 85, "2": -15}, "winners": [1]}
    assert g.events[-1].type == "GameFinished"

"""Conditions the book puts on each action, and the end and scoring."""

import random

import pytest

from service.kernel import BadInput, IllegalDecision, NotYourTurn
from service.kernel.local import LocalGame


def started(seats=2, cards=(2, 5)):
    g = LocalGame("letter-of-marque", seats, table=True)
    for c in cards:
        g.enter(c)
    for s in range(1, seats + 1):
        g.act(s, {"action": "place", "armed": s == 2})
    return g


def refused(g, seat, decision, exc=IllegalDecision, match=None):
    before = len(g.events)
    with pytest.raises(exc, match=match):
        g.act(seat, decision)
    assert len(g.events) == before


def test_no_attack_without_a_cannon_card():
    g = started()
    # seat 1 (lowest, 2) starts; spend its three cannon cards on seat 2's armed ship
    for _ in range(3):
        assert g.to_act() == [1]
        g.act(1, {"action": "attack", "ship": "blue-1"})
        g.act(2, {"action": "launch"})
        g.enter(g.machine.k["awaiting"]["choices"][0])
        g.act(2, {"action": "place", "armed": False})
    assert g.state["players"][0]["cannons"] == 0
    assert {"action": "attack", "ship": "blue-1"} not in g.legal(1)
    refused(g, 1, {"action": "attack", "ship": "blue-1"}, match="without cannon cards")


def test_pass_only_with_empty_deck_and_no_ship_at_sea():
    g = started()
    refused(g, 1, {"action": "pass"}, match="only with an empty treasure deck")


def test_cannot_attack_own_ship_or_return_another():
    g = started()
    refused(g, 1, {"action": "attack", "ship": "red-1"}, match="opponent")
    refused(g, 1, {"action": "return", "ship": "blue-1"}, match="not yours")


def test_wrong_seat_and_malformed_decisions_append_nothing():
    g = started()
    refused(g, 2, {"action": "launch"}, NotYourTurn, match="may not act now")
    refused(g, 1, {"action": "fly"}, match="unknown action")
    refused(g, 1, {"action": "launch", "extra": 1}, match="no arguments")
    refused(g, 7, {"action": "launch"}, BadInput, match="seat must be")
    before = len(g.events)
    with pytest.raises(BadInput):
        g.act(1, ["launch"])
    assert len(g.events) == before


def test_place_only_what_is_in_the_reserve():
    g = LocalGame("letter-of-marque", 2, table=True)
    g.enter(2)
    g.enter(3)
    g.act(1, {"action": "place", "armed": True})
    g.act(2, {"action": "place", "armed": True})
    g.act(1, {"action": "launch"})
    g.enter(5)
    g.act(1, {"action": "place", "armed": True})    # both armed ships of red now at sea
    g.act(2, {"action": "return", "ship": "blue-1"})
    g.act(1, {"action": "launch"})
    g.enter(4)
    assert g.legal(1) == [{"action": "place", "armed": False}]
    refused(g, 1, {"action": "place", "armed": True}, match="no armed ship left")


def test_game_end_scores_and_tie_breaks():
    g = LocalGame("letter-of-marque", 2, table=True)
    g.enter(2)
    g.enter(2)
    g.act(1, {"action": "place", "armed": True})
    g.act(2, {"action": "place", "armed": False})
    g.enter(1)  # tie on 2: the referee picks seat 1 to start
    # seat 1 attacks blue-1 (unarmed): plunders 2; seat 2 then attacks red-1 (armed): repelled.
    g.act(1, {"action": "attack", "ship": "blue-1"})
    g.act(2, {"action": "attack", "ship": "red-1"})
    # Everyone brings home the rest, in deck order.
    rng = random.Random(0)
    while not g.machine.finished:
        if g.machine.k["awaiting"]:
            g.enter(sorted(g.machine.k["awaiting"]["choices"])[0])
            continue
        seat = g.to_act()[0]
        legal = g.legal(seat)
        pick = next((d for d in legal if d["action"] in ("return", "launch", "pass")), None)
        if legal[0]["action"] == "place":
            pick = legal[-1]
        g.act(seat, pick or rng.choice(legal))
    result = g.machine.k["result"]
    red, blue = g.state["players"]
    # red: its own 5 treasures (2,3,4,5,7 = 21) + blue's plundered 2 + blue's cannon card = 24
    assert sorted(red["treasures"]) == [2, 2, 3, 4, 5, 7] and red["captured"] == ["blue"]
    assert result["scores"] == {"1": 24, "2": 19}
    assert result["winners"] == [1]
    assert g.events[-1].type == "GameFinished" and g.events[-1].data["seed"] is None


def test_outcome_tie_break_by_cannon_cards_then_shared():
    from service.aggregates.letter_of_marque.rules import RULES

    def state(t1, c1, cap1, t2, c2, cap2):
        return {"players": [{"treasures": t1, "cannons": c1, "captured": cap1},
                            {"treasures": t2, "cannons": c2, "captured": cap2}]}

    # equal points (10), seat 2 holds more cannon cards (3 unused vs 1+1)
    r = RULES.outcome(state([9], 1, ["blue"], [10], 3, []))
    assert r["scores"] == {"1": 10, "2": 10} and r["winners"] == [2]
    r = RULES.outcome(state([10], 2, [], [10], 2, []))
    assert r["winners"] == [1, 2]

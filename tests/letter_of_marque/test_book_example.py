"""The rulebook's examples, driven in table mode with the cards the book states.

Preliminary turn example: red draws 4, blue 3, yellow 7, green 5; blue has the
lowest treasure and starts. Example of play: blue attacks red's ship on the
treasure worth 4; red's ship is armed, so blue's cannon card goes to red's
score pile and red's ship stays at sea. Had it been unarmed, blue would take
the treasure and red's ship would leave the game."""

import pytest

from service.kernel import IllegalDecision
from service.kernel.local import LocalGame

RED, BLUE, GREEN, YELLOW = 1, 2, 3, 4


def preliminary(red_armed: bool) -> LocalGame:
    g = LocalGame("letter-of-marque", 4, table=True)
    assert [p["colour"] for p in g.state["players"]] == ["red", "blue", "green", "yellow"]
    # The referee enters the four face-up treasures, in seat order.
    for card in (4, 3, 5, 7):
        assert g.machine.k["awaiting"]["kind"] == "card"
        g.enter(card)
    assert g.to_act() == [RED, BLUE, GREEN, YELLOW]
    g.act(RED, {"action": "place", "armed": red_armed})
    g.act(BLUE, {"action": "place", "armed": False})
    g.act(GREEN, {"action": "place", "armed": False})
    g.act(YELLOW, {"action": "place", "armed": True})  # the 7 is yellow's best card
    return g


def test_lowest_treasure_starts():
    g = preliminary(red_armed=True)
    assert g.state["turn"] == 1
    assert g.to_act() == [BLUE]
    assert [(s["id"], s["treasure"]) for s in g.state["sea"]] == [
        ("red-1", 4), ("blue-1", 3), ("green-1", 5), ("yellow-1", 7)]


def test_attack_on_an_armed_ship_fails_and_gives_the_cannon_card_to_the_defender():
    g = preliminary(red_armed=True)
    evs = g.act(BLUE, {"action": "attack", "ship": "red-1"})
    types = [e.type for e in evs]
    assert types[:4] == ["Decided", "ShipAttacked", "ShipRevealed", "AttackRepelled"]
    red, blue = g.state["players"][RED - 1], g.state["players"][BLUE - 1]
    assert red["captured"] == ["blue"]          # blue's cannon card in red's score pile
    assert blue["cannons"] == 2
    ship = next(s for s in g.state["sea"] if s["id"] == "red-1")
    assert ship["treasure"] == 4 and ship["revealed"] and ship["armed"] is True  # stays at sea
    assert red["treasures"] == [] and blue["treasures"] == []
    assert g.to_act() == [GREEN]


def test_attack_on_an_unarmed_ship_plunders_its_treasure():
    g = preliminary(red_armed=False)
    evs = g.act(BLUE, {"action": "attack", "ship": "red-1"})
    assert [e.type for e in evs][:4] == ["Decided", "ShipAttacked", "ShipRevealed", "TreasurePlundered"]
    red, blue = g.state["players"][RED - 1], g.state["players"][BLUE - 1]
    assert blue["treasures"] == [4]              # the stolen treasure is in blue's score pile
    assert blue["cannons"] == 2                  # the cannon card left the game
    assert red["captured"] == [] and red["treasures"] == []
    assert all(s["id"] != "red-1" for s in g.state["sea"])  # red's ship removed


def test_a_tie_for_lowest_treasure_is_broken_at_random_by_the_referee():
    g = LocalGame("letter-of-marque", 3, table=True)
    for card in (3, 3, 5):
        g.enter(card)
    for seat in (1, 2, 3):
        g.act(seat, {"action": "place", "armed": True})
    spec = g.machine.k["awaiting"]
    assert spec["kind"] == "pick" and spec["options"] == [1, 2]
    g.enter(2)
    assert g.to_act() == [2] and g.state["turn"] == 1


def test_launch_draws_then_places_and_scores_count_cannon_cards():
    g = preliminary(red_armed=True)
    g.act(BLUE, {"action": "attack", "ship": "red-1"})   # repelled: red +1 point
    g.act(GREEN, {"action": "launch"})
    assert g.machine.k["awaiting"]["kind"] == "card"
    assert sorted(g.machine.k["awaiting"]["choices"]) == [3, 4, 6, 7]  # green already drew its 5
    g.enter(7)
    assert g.to_act() == [GREEN]
    assert g.legal(GREEN) == [{"action": "place", "armed": True}, {"action": "place", "armed": False}]
    g.act(GREEN, {"action": "place", "armed": True})
    assert g.to_act() == [YELLOW]
    g.act(YELLOW, {"action": "return", "ship": "yellow-1"})
    assert g.state["players"][YELLOW - 1]["treasures"] == [7]
    with pytest.raises(IllegalDecision, match="no ship 'yellow-1'"):
        g.act(RED, {"action": "return", "ship": "yellow-1"})

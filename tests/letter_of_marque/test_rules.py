"""Conditions the book puts on each action, and the end and scoring."""

import random

import pytest

from service.kernel import BadInput, IllegalDecision, NotYourTurn
from service.kernel.local import LocalGame


def started(seats=2, cards=(3, 5)):
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
    # seat 1 (lowest, 3) starts; spend its three cannon cards on seat 2's armed ship
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
    g.enter(3)
    g.enter(4)
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
    g.enter(3)
    g.enter(3)
    g.act(1, {"action": "place", "armed": True})
    g.act(2, {"action": "place", "armed": False})
    g.enter(1)  # tie on 3: the referee picks seat 1 to start
    # seat 1 attacks blue-1 (unarmed): plunders 3; seat 2 then attacks red-1 (armed): repelled.
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
    # red: its own 5 treasures (3,4,5,6,7 = 25) + blue's plundered 3 + blue's cannon card = 29;
    # blue: its other four treasures (4,5,6,7 = 22)
    assert sorted(red["treasures"]) == [3, 3, 4, 5, 6, 7] and red["captured"] == ["blue"]
    assert result["scores"] == {"1": 29, "2": 22}
    assert result["winners"] == [1]
    assert g.events[-1].type == "GameFinished" and g.events[-1].data["seed"] is None


def test_outcome_tie_break_by_cannon_cards_then_shared_rules_version_1():
    """Games recorded under rules version 1 keep its reading: every cannon card held counted."""
    from service.aggregates.letter_of_marque.rules import RULES

    def state(t1, c1, cap1, t2, c2, cap2):
        return {"players": [{"treasures": t1, "cannons": c1, "captured": cap1},
                            {"treasures": t2, "cannons": c2, "captured": cap2}]}

    # equal points (10), seat 2 holds more cannon cards (3 unused vs 1+1)
    r = RULES.outcome(state([9], 1, ["blue"], [10], 3, []))
    assert r["scores"] == {"1": 10, "2": 10} and r["winners"] == [2]
    r = RULES.outcome(state([10], 2, [], [10], 2, []))
    assert r["winners"] == [1, 2]


def test_tie_break_counts_the_score_pile_cannon_cards_and_is_recorded():
    """Rules version 2: "il maggior numero di carte cannone" counts the opponents' cannon
    cards in the score pile; unused cannon cards never count at the end (RULINGS.md)."""
    from service.aggregates.letter_of_marque.rules import RULES

    def state(t1, c1, cap1, t2, c2, cap2):
        return {"rules_version": "2",
                "players": [{"treasures": t1, "cannons": c1, "captured": cap1},
                            {"treasures": t2, "cannons": c2, "captured": cap2}]}

    # 10 points each; seat 1 repelled one attack, seat 2 kept three unused cannon cards
    r = RULES.outcome(state([9], 1, ["blue"], [10], 3, []))
    assert r["winners"] == [1]
    assert r["tiebreak"] == {"tied": [1, 2], "rule": "most cannon cards in the score pile, then a shared victory",
                             "cannon_cards": {"1": 1, "2": 0}, "shared": False}
    r = RULES.outcome(state([10], 2, [], [10], 0, []))
    assert r["winners"] == [1, 2] and r["tiebreak"]["shared"] is True
    assert "tiebreak" not in RULES.outcome(state([11], 0, [], [10], 3, []))


def test_the_tie_break_is_in_the_finish_event_and_status(cli, db):
    """A table game to a tie on 26 points: red plundered a 3 and repelled two attacks
    (24 + 2), blue plundered a 4 (26 + 0). The finish event and `status` give the
    figures the tie-break used."""
    from service.app import Privateer

    app = Privateer(db)
    gid = app.create("letter-of-marque", 2, table=True)
    RED, BLUE = 1, 2
    moves = [
        ("chance", [4, 3]),                                     # first treasures: red 4, blue 3
        (RED, {"action": "place", "armed": False}), (BLUE, {"action": "place", "armed": False}),
        (BLUE, {"action": "attack", "ship": "red-1"}),          # lowest (3) starts: plunders red's 4
        (RED, {"action": "attack", "ship": "blue-1"}),          # plunders blue's 3
        (BLUE, {"action": "launch"}), ("chance", [4]), (BLUE, {"action": "place", "armed": True}),
        (RED, {"action": "launch"}), ("chance", [3]), (RED, {"action": "place", "armed": True}),
        (BLUE, {"action": "attack", "ship": "red-2"}),          # repelled: red takes a blue cannon card
        (RED, {"action": "return", "ship": "red-2"}),
        (BLUE, {"action": "launch"}), ("chance", [5]), (BLUE, {"action": "place", "armed": True}),
        (RED, {"action": "launch"}), ("chance", [5]), (RED, {"action": "place", "armed": True}),
        (BLUE, {"action": "attack", "ship": "red-3"}),          # repelled again
        (RED, {"action": "return", "ship": "red-3"}), (BLUE, {"action": "return", "ship": "blue-2"}),
        (RED, {"action": "launch"}), ("chance", [6]), (RED, {"action": "place", "armed": False}),
        (BLUE, {"action": "return", "ship": "blue-3"}), (RED, {"action": "return", "ship": "red-4"}),
        (BLUE, {"action": "launch"}), ("chance", [6]), (BLUE, {"action": "place", "armed": False}),
        (RED, {"action": "launch"}), ("chance", [7]), (RED, {"action": "place", "armed": False}),
        (BLUE, {"action": "return", "ship": "blue-4"}), (RED, {"action": "return", "ship": "red-5"}),
        (BLUE, {"action": "launch"}), ("chance", [7]), (BLUE, {"action": "place", "armed": False}),
        (RED, {"action": "pass"}), (BLUE, {"action": "return", "ship": "blue-5"}),
    ]
    for who, what in moves:
        if who == "chance":
            app.enter_chances(gid, what)
        else:
            app.act(gid, who, what)
    st = cli.json("status", gid.hex)
    assert st["finished"] and st["scores"] == {"1": 26, "2": 26} and st["winners"] == [1]
    assert st["tiebreak"] == {"tied": [1, 2], "rule": "most cannon cards in the score pile, then a shared victory",
                              "cannon_cards": {"1": 2, "2": 0}, "shared": False}
    assert "tie-break: seats 1, 2 tied on points" in cli.ok("status", gid.hex)
    finished = cli.json("log", gid.hex)[-1]
    assert finished["type"] == "GameFinished" and finished["data"]["tiebreak"] == st["tiebreak"]


def test_players_choose_their_colours():
    g = LocalGame("letter-of-marque", 3, {"colours": "yellow, red,white"}, table=True)
    seated = next(e for e in g.events if e.type == "PlayersSeated")
    assert seated.data["colours"] == {"1": "yellow", "2": "red", "3": "white"}
    assert g.machine.k["awaiting"]["deck"] == "treasure:yellow"  # seat 1's first treasure, from its colour
    g.enter(5)
    assert g.state["players"][0]["drawn"] == 5 and g.state["players"][0]["colour"] == "yellow"
    plain = LocalGame("letter-of-marque", 2, table=True)
    assert next(e for e in plain.events if e.type == "PlayersSeated").data["colours"] == {"1": "red", "2": "blue"}
    for bad, why in (("red,blue", "one colour per seat"), ("red,blue,pink", "no colour 'pink'"),
                     ("red,red,blue", "different colour")):
        with pytest.raises(BadInput, match=why):
            LocalGame("letter-of-marque", 3, {"colours": bad})
    with pytest.raises(BadInput, match="only the option colours"):
        LocalGame("letter-of-marque", 3, {"ships": "4"})

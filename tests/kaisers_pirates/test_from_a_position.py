"""The Kaiser's Pirates from a stated position (position.py, docs/positions.md): the
book's example of play (3.2.9, "nel mezzo di una partita a tre giocatori") started
from a position of a few lines, refusals naming the problem, hands hidden from the
other seats, and play, audit and record from there."""

import json
import random
from pathlib import Path

import pytest
from kp_helpers import Table, count_cards
from test_example_329 import _turn_2

from service.app import Privateer
from service.kernel import BadInput
from service.kernel.local import LocalGame
from tests.cli.test_record import played_out_audited_and_reimported

FILE = Path(__file__).resolve().parents[2] / "docs" / "positions" / "kaisers-pirates.json"
GAME = "kaisers-pirates"


def test_the_books_example_of_play_from_a_position_of_six_lines():
    """3.2.9: the Leopard revealed and the Maria damaged "in un turno precedente"; seat 1
    sinks the Leopard with Recalled and Surprise Attack (4 blue, 6 green +2 against 4),
    then seat 2's Prinz Eitel Friedrich, Good Hunting, Boarding Party and U-27."""
    t = Table(3, position=json.loads(FILE.read_text()))
    assert t.g.to_act() == [1] and t.state["round"] == 1
    assert t.p(1)["hand"] == ["recalled-1", "surprise-attack-1", "qqq-2", "fast-ship-1", "damage-control-1"]
    assert t.st("leopard")["revealed"] and t.st("maria")["damaged"] and not t.st("emden")["revealed"]
    assert len(t.p(3)["hand"]) == 6 and len(t.p(3)["ships"]) == 3 and len(t.p(2)["merchants"]) == 3
    count_cards(t.state)
    t.commit(1, ("recalled-1", "intercept"), ("surprise-attack-1", "action"))
    t.act(1, {"action": "intercept", "card": "recalled-1", "target": "leopard"})
    t.act(1, {"action": "assist", "card": "surprise-attack-1"})
    assert {"action": "react", "card": "shallow-run-1"} not in t.legal(2)    # barred by Surprise Attack
    t.act(2, {"action": "decline"})
    t.roll(4, 6, 4)
    cmp = t.events("DiceCompared")[-1].data
    assert (cmp["attack"]["result"], cmp["defence"]["result"], cmp["outcome"]) == (8, 4, "sunk")
    assert {"card": "leopard", "deck": "ship", "double": False} in t.p(1)["vp"]
    t.act(1, {"action": "end_turn"})
    _turn_2(t)                   # the book's turn 2, to the Maria sunk by the U-27 (5 against 2 - 1)
    assert {"card": "maria", "deck": "merchant", "double": False} in t.p(2)["vp"] and "lovat" in t.p(2)["prizes"]
    count_cards(t.state)


def pos3(first=None, second=None, third=None, **top):
    return {"players": [first or {}, second or {}, third or {}], **top}


@pytest.mark.parametrize("pos,said", [
    (pos3({"hand": ["qqq", "qqq", "qqq"]}), "seat 1's hand: no 'qqq' left (stated more times than the deck has copies)"),
    (pos3({"hand": ["Torpedo Boat"]}), "seat 1's hand: there is no action card 'Torpedo Boat'"),
    (pos3({"hand": ["recalled-1"]}, discard=["recalled-1"]), "the discards: no 'recalled-1' left"),
    (pos3({"hand": ["amc"] * 7}), "seat 1's hand: 7 cards, a hand holds at most 6"),
    (pos3({"ships": ["Emden"]}, {"ships": ["emden"]}), "seat 2's ships: Emden is stated twice"),
    (pos3({"ships": ["Matheran"]}), "seat 1's ships: there is no ship 'Matheran'"),
    (pos3({"merchants": ["Emden"]}), "seat 1's merchants: there is no merchant 'Emden'"),
    (pos3({"vp": ["Recalled"]}), "seat 1's vp (ships sunk, merchantmen sunk or brought home): there is no ship or "
                                 "merchantman 'Recalled'"),
    (pos3({"prizes": ["Lovat"]}, {"vp": ["lovat"]}), "seat 2's vp (ships sunk, merchantmen sunk or brought home): "
                                                      "Lovat is stated twice"),
    (pos3({"ships": ["emden", "dresden", "leipzig", "greif"]}), "seat 1's ships: 4 stated, a force has at most 3"),
    (pos3({"ships": [{"ship": "emden", "sunk": True}]}), "seat 1's ships: {\"ship\": name, \"damaged\": true"),
    (pos3({"merchants": [{"merchant": "maria", "revealed": True}]}), "seat 1's merchants: {\"merchant\": name"),
    (pos3({"round_points": [3, 1]}, round=2), "seat 1's round_points: one a round played, 1 before round 2"),
    (pos3(round=4), "round must be a whole number from 1 to 3"),
    (pos3(to_play=4), "to_play must be a whole number from 1 to 3"),
    (pos3({"hands": 3}), "seat 1: unknown 'hands'"),
    (pos3(sea=[]), "the position: unknown 'sea'"),
    ({"players": [{}]}, "the position describes 1 players"),
    (pos3(discard=["amc"] * 3), "the discards: no 'amc' left"),
])
def test_an_impossible_position_is_refused_naming_the_problem(pos, said):
    with pytest.raises(BadInput) as refused:
        LocalGame(GAME, 3, position=pos)
    assert said in refused.value.reason


def test_a_prize_is_unrecognised_unless_stated_revealed_and_a_merchantman_always_known():
    g = LocalGame(GAME, 2, seed=b"p" * 32, position={"round": 2, "players": [
        {"prizes": ["Lovat", {"merchant": "Appam", "damaged": True, "revealed": True}], "vp": ["Leopard", "Maria"],
         "round_points": [4]}, {"merchants": ["Matheran"]}]})
    st = g.state["status"]
    assert (st["lovat"]["revealed"], st["appam"]["revealed"], st["appam"]["damaged"]) == (False, True, True)
    assert st["matheran"]["revealed"] and g.state["players"][1]["merchants"] == ["matheran"]
    assert g.state["round"] == 2 and g.state["players"][0]["round_points"] == [4]
    assert [e["card"] for e in g.state["players"][0]["vp"]] == ["leopard", "maria"]
    assert len(g.state["players"][0]["merchants"]) == 3 and len(g.state["players"][1]["ships"]) == 3


def test_counts_are_conserved_with_the_cards_set_aside():
    with pytest.raises(BadInput, match="counts not conserved: 12 action cards to deal and 87 to set aside, 95 left"):
        LocalGame(GAME, 2, {"removed": "87"}, position={"players": [{}, {}], "discard": ["amc", "qqq", "trap",
                                                                                        "reflag", "scuttle"]})


def test_seat_1s_hand_is_seen_by_seat_1_alone():
    """Two games whose positions differ only in seat 1's hidden hand: seat 2 and an
    onlooker get the same log, view and version numbers."""
    seed = b"k" * 32
    other = {"hand": ["lay-mines-1", "good-hunting-1"], "ships": ["greif", "leopard", "meteor"]}
    games = [LocalGame(GAME, 2, seed=seed, position={"to_play": 2, "players": [
        {"hand": hand, "ships": ["emden", {"ship": "dresden", "damaged": True}, "leipzig"]}, other]})
        for hand in (["qqq-1", "recalled-1"], ["u-27", "surprise-attack-1"])]
    a, b = games
    seen = lambda g, seat: [e.as_tuple() for e in g.events if e.visible_to(seat)]
    for attacker in (0, 2):
        assert seen(a, attacker) == seen(b, attacker)
        assert a.rules.view(a.state, attacker) == b.rules.view(b.state, attacker)
        assert a.machine.seen(attacker, len(a.events)) == b.machine.seen(attacker, len(b.events))
    drawn = lambda g, seat: [e.data["card"] for e in g.events if e.type == "CardDrawn" and e.visible_to(seat)]
    assert "qqq-1" in drawn(a, 1) and "qqq-1" not in drawn(a, 2) and "qqq-1" not in drawn(a, 0)
    assert "qqq" not in json.dumps(a.events[0].data["position"])
    assert a.rules.view(a.state, 1) != b.rules.view(b.state, 1)


def test_played_on_audited_recorded_and_imported(tmp_path):
    app = Privateer(str(tmp_path / "k.db"))
    gid = app.create(GAME, 3, position=json.loads(FILE.read_text()))
    played_out_audited_and_reimported(app, gid, random.Random(3))


def test_the_example_file_is_the_one_the_page_shows():
    assert FILE.read_text().rstrip() in (FILE.parents[1] / "positions.md").read_text()

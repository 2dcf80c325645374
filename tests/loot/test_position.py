"""Loot from a stated position (position.py, docs/positions.md): hands hidden from the
other seats (in pairs seen by the partner), battles at sea checked as the book plays
them, and play, audit and record from there."""

import json
import random
from pathlib import Path

import pytest

from service.app import Privateer
from service.kernel import BadInput
from service.kernel.local import LocalGame
from tests.cli.test_record import played_out_audited_and_reimported

FILE = Path(__file__).resolve().parents[2] / "docs" / "positions" / "loot.json"
GAME = "loot"


def test_the_documented_position_seat_2_to_play_against_a_blue_attack():
    g = LocalGame(GAME, 2, table=True, position=json.loads(FILE.read_text()))
    assert g.machine.awaiting_chance()["deck"] == "draw_pile"      # seat 2's three cards: the referee's
    for card in ("gold-2a", "purple-3a", "merchant-6a"):
        g.enter(card)
    assert g.to_act() == [2] and g.state["hands"] == [["blue-2a", "merchant-5a"], ["gold-2a", "purple-3a", "merchant-6a"]]
    assert g.state["captured"][0] == ["merchant-3a"]
    [b] = g.state["sea"]
    assert (b["merchant"], b["owner"], b["attacks"][0]["colour"], b["attacks"][0]["skulls"]) == ("merchant-4a", 2,
                                                                                                   "blue", 3)
    assert len(g.state["pile"]) == 78 - 2 - 1 - 2 - 3        # hands, the merchant won, the battle's two cards
    # seat 2 draws; seat 1's turn begins with its capture of the merchant (most skulls)
    g.act(2, {"action": "draw"})
    evs = g.enter("gold-3a")
    captured = next(e for e in evs if e.type == "MerchantCaptured").data
    assert (captured["seat"], captured["merchant"], captured["how"]) == (1, "merchant-4a", "most skulls")


def pos2(first=None, second=None, **top):
    return {"players": [first or {}, second or {}], **top}


@pytest.mark.parametrize("pos,said", [
    (pos2({"hand": ["blue-2a", "blue-2a"]}), "seat 1's hand: no 'blue-2a' left"),
    (pos2({"hand": ["merchant-5a"]}, {"scored": ["merchant-5a"]}), "seat 2's merchants won: no 'merchant-5a' left"),
    (pos2({"scored": ["blue-2a"]}), "only merchant ships are won"),
    (pos2(discard=["merchant-2a"]), "a merchant ship is never discarded"),
    (pos2(sea=[{"merchant": "blue-2a", "owner": 1}]), "blue-2a is not a merchant ship"),
    (pos2(sea=[{"merchant": "merchant-4a", "owner": 1, "pirates": [[1, "blue-3a"]]}]), "attacks its own side's"),
    (pos2(sea=[{"merchant": "merchant-4a", "owner": 2, "pirates": [[1, "blue-3a"], [1, "gold-2a"]]}]),
     "seat 1's side attacks in blue, not gold"),
    (pos2(sea=[{"merchant": "merchant-4a", "owner": 2, "specials": [[1, "blue-captain"]]}]),
     "the blue captain of seat 1 needs its side's blue pirate there"),
    (pos2(sea=[{"merchant": "merchant-4a", "owner": 2, "specials": [[1, "admiral"]]}]),
     "the Admiral defends only its own side's merchant"),
    (pos2({"hand": 80}), "counts not conserved: 80 cards to deal"),
    (pos2({"hands": 3}), "seat 1: unknown 'hands'"),
])
def test_an_impossible_position_is_refused_naming_the_problem(pos, said):
    with pytest.raises(BadInput) as refused:
        LocalGame(GAME, 2, position=pos)
    assert said in refused.value.reason


def test_a_three_seat_battle_in_the_books_colours():
    pos = {"players": [{}, {}, {}], "sea": [{"merchant": "merchant-6", "owner": 1, "pirates": [
        [2, "blue-4"], [3, "gold-2"], [3, "gold-3"]], "specials": [[2, "blue-captain"]]}]}
    g = LocalGame(GAME, 3, table=True, position=pos)
    [b] = g.state["sea"]
    assert [(a["colour"], a["side"], a["skulls"]) for a in b["attacks"]] == [("blue", 2, 4), ("gold", 3, 5)]
    assert b["top"] == {"card": "blue-captain", "side": 2}


def test_a_hand_the_position_names_is_seen_by_its_seat_and_partner_alone():
    seed = b"h" * 32
    games = [LocalGame(GAME, 4, {"pairs": "true"}, seed=seed,
                       position={"players": [{"hand": [card]}, {}, {}, {}]}) for card in ("admiral", "blue-2")]
    a, b = games
    seen = lambda g, seat: [e.as_tuple() for e in g.events if e.visible_to(seat)]
    for attacker in (0, 3, 4):
        assert seen(a, attacker) == seen(b, attacker)
        assert a.rules.view(a.state, attacker) == b.rules.view(b.state, attacker)
        assert a.machine.seen(attacker, len(a.events)) == b.machine.seen(attacker, len(b.events))
    drawn = lambda g, seat: [e.data["card"] for e in g.events if e.type == "CardDrawn" and e.visible_to(seat)]
    assert "admiral" in drawn(a, 1) and "admiral" in drawn(a, 2) and not drawn(a, 3) and not drawn(a, 4)
    assert "admiral" not in json.dumps(a.events[0].data["position"])


def test_played_to_the_end_audited_recorded_and_imported(tmp_path):
    app = Privateer(str(tmp_path / "l.db"))
    gid = app.create(GAME, 2, position=json.loads(FILE.read_text()))
    played_out_audited_and_reimported(app, gid, random.Random(4))


def test_the_example_files_are_those_the_page_shows():
    page = (FILE.parents[1] / "positions.md").read_text()
    for f in FILE.parent.glob("*.json"):
        assert f.read_text().rstrip() in page, f.name

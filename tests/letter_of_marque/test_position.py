"""Letter of Marque from a stated position (position.py, docs/positions.md): counts
conserved, a ship's base seen by its owner alone, and play, audit and record from there."""

import json
import random
from pathlib import Path

import pytest

from service.app import Privateer
from service.kernel import BadInput
from service.kernel.local import LocalGame
from tests.cli.test_record import played_out_audited_and_reimported

FILE = Path(__file__).resolve().parents[2] / "docs" / "positions" / "letter-of-marque.json"
GAME = "letter-of-marque"


def test_the_documented_position_starts_blue_to_play_with_the_stated_table():
    g = LocalGame(GAME, 2, table=True, position=json.loads(FILE.read_text()))
    assert g.to_act() == [2] and g.state["phase"] == "play"
    red, blue = g.state["players"]
    assert (red["treasures"], red["cannons"], red["deck"], red["reserve"]) == ([5, 6], 1, [6, 7],
                                                                               {"armed": 1, "unarmed": 1})
    assert (blue["captured"], blue["cannons"], sorted(blue["deck"])) == (["red"], 3, [3, 4])
    sea = {s["id"]: (s["owner"], s["treasure"], s["armed"], s["revealed"]) for s in g.state["sea"]}
    assert sea == {"red-2": (1, 4, True, False), "red-3": (1, 3, False, False),
                   "blue-2": (2, 5, True, True), "blue-3": (2, 7, False, False)}
    # blue attacks the red ship on 3: unarmed, plundered
    evs = g.act(2, {"action": "attack", "ship": "red-3"})
    assert next(e for e in evs if e.type == "ShipRevealed").data["armed"] is False
    assert g.state["players"][1]["treasures"] == [3]


def two(red=None, blue=None, **top):
    return {"players": [red or {}, blue or {}], **top}


@pytest.mark.parametrize("pos,said", [
    (two({"sea": [[4], [4]]}), "seat 1 (red)'s ship at sea: no red treasure worth 4 left"),
    (two({"returned": [9]}), "no red treasure worth 9 left"),
    (two({"sea": [[3, "armed"], [4, "armed"], [5, "armed"]]}),
     "counts not conserved: seat 1 (red) has 3 armed and 0 unarmed ships"),
    (two({"plundered": {"blue": [3, 4, 5, 6]}}), "seat 1 (red) holds -1 cannon cards and spent 4"),
    (two({"cannons": 3, "plundered": {"blue": [3]}}), "holds 3 cannon cards and spent 1"),
    (two({"plundered": {"red": [3]}}), "cannot have plundered 'red'"),
    (two({"sea": [[3, "sunk"]]}), "a ship at sea is [treasure"),
    (two(to_play="green"), "to_play: a seat (1 to 2) or a colour (red, blue)"),
])
def test_an_impossible_position_is_refused_naming_the_problem(pos, said):
    with pytest.raises(BadInput) as refused:
        LocalGame(GAME, 2, position=pos)
    assert said in refused.value.reason


def test_a_ship_base_the_position_states_is_seen_by_its_owner_alone():
    seed = b"q" * 32
    games = [LocalGame(GAME, 2, seed=seed, position=two({"sea": [[4, base], [3, "unarmed"]]}))
             for base in ("armed", "unarmed")]
    a, b = games
    for g in games:
        assert "armed" not in json.dumps([e.data for e in g.events if e.type == "PositionLaid"]).replace(
            '"revealed"', "")
    seen = lambda g, seat: [e.as_tuple() for e in g.events if e.visible_to(seat)]
    assert seen(a, 2) == seen(b, 2) and seen(a, 0) == seen(b, 0)
    assert a.rules.view(a.state, 2) == b.rules.view(b.state, 2)
    assert a.machine.seen(2, len(a.events)) == b.machine.seen(2, len(b.events))
    assert a.rules.view(a.state, 1)["sea"][0]["armed"] is True and b.rules.view(b.state, 1)["sea"][0]["armed"] is False
    assert a.rules.view(a.state, 1)["players"]["1"]["reserve"] == {"armed": 1, "unarmed": 2}


def test_played_to_the_end_audited_recorded_and_imported(tmp_path):
    app = Privateer(str(tmp_path / "l.db"))
    gid = app.create(GAME, 2, position=json.loads(FILE.read_text()))
    played_out_audited_and_reimported(app, gid, random.Random(5))

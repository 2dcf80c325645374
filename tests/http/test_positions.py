"""A game from a stated position over HTTP: the create body's ``position``; a seat's log
and view keep the other seat's stated hand hidden; an impossible position is refused
(400, naming it), and a position cannot wait for its seats."""

import json
from pathlib import Path

BATTLE = json.loads((Path(__file__).resolve().parents[2] / "docs" / "positions"
                     / "merchants-and-marauders-battle.json").read_text())
GAME = "merchants-and-marauders"


def test_a_position_over_http_keeps_a_stated_hand_to_its_seat(table_factory):
    t = table_factory(GAME, 2, position=BATTLE)
    for seat, mine, theirs in ((1, "G18", "G17"), (2, "G17", "G18")):
        events = t.seats[seat].ok(t.seats[seat].get(f"/games/{t.gid}/log"))["events"]
        cards = {e["data"].get("card") for e in events if e["type"] in ("CardDrawn", "GloryCardDealt")}
        assert mine in cards and theirs not in cards
        assert "G17" not in json.dumps(events[0]["data"]["position"])      # GameCreated: the public part
        assert any("starts from a stated position" in e.get("text", "") for e in events)
        view = t.seats[seat].ok(t.seats[seat].get(f"/games/{t.gid}/view"))
        assert theirs not in json.dumps(view["board"]["players"])
    status = t.seats[1].status(t.gid)
    assert status["to_act"] == [1]
    assert {"action": "scout", "target": "player", "seat": 2} in t.seats[1].legal(t.gid)["decisions"]


def test_an_impossible_position_is_refused_with_its_reason(organiser):
    bad = {"players": [{"captain": "Felipe", "glory_cards": ["Fast Learner"]},
                       {"captain": "Frances Wright", "glory_cards": ["Fast Learner"]}]}
    r = organiser.post("/games", {"game": GAME, "seats": 2, "position": bad})
    assert r.status_code == 400 and "'Fast Learner' stated more times than the game has copies" in r.json()["reason"]
    r = organiser.post("/games", {"game": GAME, "seats": 2, "position": BATTLE, "wait_for_seats": True})
    assert r.status_code == 400 and "cannot wait for its seats" in r.json()["reason"]
    r = organiser.post("/games", {"game": "kaisers-pirates", "seats": 2, "position": BATTLE})
    # another game's position: refused by that game's own checks, naming what does not fit
    assert r.status_code == 400 and "to_play must be a whole number from 1 to 2, not 'Felipe'" in r.json()["reason"]

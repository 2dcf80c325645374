"""Text that people type, over HTTP: the names and notes of every body and the
tournament of a query, checked as the CLI checks them (service/kernel/text.py): a
400 in one line naming the field, and nothing appended or stored."""

from __future__ import annotations

import pytest


def one_line_400(r, *said):
    assert r.status_code == 400, r.text
    body = r.json()
    assert body["error"] == "bad_input" and "\n" not in body["reason"], body
    for s in said:
        assert s in body["reason"], body
    return body["reason"]


@pytest.mark.parametrize("body,said", [
    ({"players": {"1": "x" * 10_000}}, "seat 1's player name is longer than 200 characters (10000)"),
    ({"players": {"2": "Bo\x1b[2J"}}, "seat 2's player name holds a control character (U+001B)"),
    ({"name": "table\n7"}, "game name holds a control character (U+000A)"),
    ({"tournament": "spring\u202e"}, "tournament holds a bidirectional control (U+202E)"),
])
def test_a_game_s_texts_are_refused_at_creation(organiser, body, said):
    before = len(organiser.get("/games").json())
    one_line_400(organiser.post("/games", {"game": "loot", "seats": 3, **body}), said)
    assert len(organiser.get("/games").json()) == before


def test_an_invitation_s_and_a_join_s_player_name(organiser, public):
    gid = organiser.create("letter-of-marque", 2)["game_id"]
    one_line_400(organiser.post(f"/games/{gid}/invitations", {"seat": 1, "player": "Ada\x00"}),
                 "the invitation's player name holds a control character (U+0000)")
    assert organiser.get(f"/games/{gid}/invitations").json() == []
    code = organiser.invite(gid, 1)
    one_line_400(public.post(f"/games/{gid}/seats/1/join", {"code": code, "player": "Ada\u2066"}),
                 "the joining player's name holds a bidirectional control (U+2066)")
    assert public.status(gid)["seats_taken"] == []
    assert public.join(gid, 1, code, player=" Ada ")["player"] == "Ada"  # the code still holds


def test_a_referee_note_and_a_correction_s_reason(server, organiser, table_factory):
    t = table_factory("letter-of-marque", 2)
    v = t.referee.status(t.gid)["version"]
    one_line_400(t.referee.post(f"/games/{t.gid}/referee", {"decision": {"referee": "note", "text": "bell\x07"},
                                                             "expected_version": v}),
                 "referee note holds a control character (U+0007)")
    t.seats[1].decide(t.gid, {"action": "place", "armed": True}, t.seats[1].status(t.gid)["version"])
    v2 = t.referee.status(t.gid)["version"]
    one_line_400(t.referee.post(f"/games/{t.gid}/corrections", {"to_version": v, "reason": "oops\ncorrect 1 x",
                                                                 "expected_version": v2}),
                 "reason holds a control character (U+000A)")
    assert t.referee.status(t.gid)["version"] == v2


def test_a_tournament_in_a_query(public):
    one_line_400(public.get("/standings", params={"tournament": "t\x00"}),
                 "tournament holds a control character (U+0000)")
    assert public.get("/standings", params={"tournament": "t"}).status_code == 200

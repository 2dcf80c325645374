"""What the pages read: the decisions in words, the table in words, what a table's referee may
enter, a referee's note; each for whom it is, and nothing a seat may not see."""

from __future__ import annotations

import json
import uuid

from service.http.client import Api


def test_a_seat_reads_its_choices_in_words_at_its_own_version(table_factory, public):
    t = table_factory("letter-of-marque", 3)
    mine = t.seats[1].get(f"/games/{t.gid}/choices").json()
    legal = t.seats[1].legal(t.gid)
    assert mine["seat"] == 1 and mine["version"] == legal["version"] and mine["to_act"] == legal["to_act"]
    assert [c["decision"] for c in mine["choices"]] == legal["decisions"]
    assert [c["n"] for c in mine["choices"]] == list(range(1, len(legal["decisions"]) + 1))
    assert all(c["text"] and "{" not in c["text"] for c in mine["choices"])
    # the version a page shows is the one a decision goes back with
    choice = mine["choices"][0]
    r = t.seats[1].decide(t.gid, choice["decision"], mine["version"], key=uuid.uuid4().hex)
    assert r.status_code == 201, r.text
    assert t.referee.get(f"/games/{t.gid}/choices", params={"seat": 2}).json()["seat"] == 2
    assert t.seats[1].get(f"/games/{t.gid}/choices", params={"seat": 2}).status_code == 403
    assert public.get(f"/games/{t.gid}/choices").status_code == 401
    assert public.get(f"/games/{'0' * 32}/choices").status_code == 404


def test_the_referee_of_a_table_reads_what_may_be_entered_and_a_seat_never_does(server, organiser):
    created = organiser.create("loot", 4, table=True, options={"pairs": "true"})
    gid, referee = created["game_id"], Api(server.url, created["referee_key"])
    seat = Api(server.url, Api(server.url).join(gid, 1, organiser.invite(gid, 1))["token"])
    first = referee.get(f"/games/{gid}/awaited").json()
    assert first["awaiting"]["kind"] == "pick" and first["awaiting"]["options"] == [1, 2, 3, 4]
    assert first["undo_to"] is None and first["table"] is True
    dealt = referee.get(f"/games/{gid}/awaited", params={"then": json.dumps([2])}).json()
    cards = dealt["awaiting"]
    assert dealt["then"] == [2] and dealt["refused"] is None and cards["kind"] == "card" and cards["n"] == 1
    blue1 = next(c for c in cards["left"] if c["say"] == "blue-1")
    assert blue1 == {"say": "blue-1", "name": "blue 1", "copies": 2}  # blue-1a and blue-1b, by printed name
    after = referee.get(f"/games/{gid}/awaited", params={"then": json.dumps([2, "blue-1", "blue-1"])}).json()
    assert not [c for c in after["awaiting"]["left"] if c["say"] == "blue-1"]  # both copies taken
    wrong = referee.get(f"/games/{gid}/awaited", params={"then": json.dumps([2, "blue-9"])}).json()
    assert wrong["then"] == [] and "not left in the " in wrong["refused"]
    assert referee.get(f"/games/{gid}/awaited").json()["version"] == first["version"]  # nothing appended
    # a seat: 403 on /awaited, and only the kind of what is awaited in its choices
    assert seat.get(f"/games/{gid}/awaited").status_code == 403
    own = seat.get(f"/games/{gid}/choices").json()
    assert own["awaiting_chance"] == {"kind": "pick"} and own["choices"] == []
    text = seat.get(f"/games/{gid}/choices").text + seat.get(f"/games/{gid}/words").text
    assert "blue-1" not in text and "options" not in text
    for c in (referee, seat):
        c.close()


def test_a_referees_note_goes_on_the_record_once(table_factory, public):
    t = table_factory("loot", 2)
    v = t.referee.get(f"/games/{t.gid}/awaited").json()["version"]
    note = {"decision": {"referee": "note", "text": "seat 2 showed a card; reshuffled"}, "expected_version": v}
    r = t.referee.post(f"/games/{t.gid}/referee", note, headers={"Idempotency-Key": "note-1"})
    assert r.status_code == 201, r.text
    again = t.referee.post(f"/games/{t.gid}/referee", note, headers={"Idempotency-Key": "note-1"})
    assert again.status_code == 201 and again.headers.get("Idempotency-Replayed") == "true"
    assert t.referee.post(f"/games/{t.gid}/referee", note).status_code == 409  # the version moved on
    assert t.seats[1].post(f"/games/{t.gid}/referee", note).status_code == 403
    texts = [e["text"] for e in public.get(f"/games/{t.gid}/log", params={"limit": 1000}).json()["events"]]
    assert sum("seat 2 showed a card" in x for x in texts) == 1


def test_the_table_in_words_and_the_games_offered(table_factory, public):
    t = table_factory("loot", 3)
    mine = t.seats[1].get(f"/games/{t.gid}/words").json()["text"]
    everyone = public.get(f"/games/{t.gid}/words").json()["text"]
    assert "as seat 1 sees it" in mine and "as a spectator sees it" in everyone
    assert "6 cards" in everyone and "6 cards" in mine  # the others' hands: a count only
    kinds = {k["game"]: k for k in public.get("/rules").json()}
    assert set(kinds) == {"letter-of-marque", "loot", "kaisers-pirates", "merchants-and-marauders"}
    assert "pairs" in kinds["loot"]["options"] and "coal" in kinds["kaisers-pirates"]["options"]
    assert kinds["kaisers-pirates"]["min_seats"] == 1

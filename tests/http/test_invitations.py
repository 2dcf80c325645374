"""Seats are claimed with invitations: no code, a wrong code, another seat's
code, another game's code or a used code takes no seat and appends nothing;
the code is stored only as its SHA-256."""

import hashlib
import sqlite3

import pytest


def state(client, gid):
    st = client.status(gid)
    return st["version"], st["seats_taken"]


@pytest.mark.parametrize("wait", [False, True])
def test_joins_need_a_valid_unused_code(organiser, public, wait):
    gid = organiser.create("letter-of-marque", 2, wait_for_seats=wait)["game_id"]
    other = organiser.create("letter-of-marque", 2)["game_id"]
    code1 = organiser.invite(gid, 1, "Ada")
    elsewhere = organiser.invite(other, 1)
    before = state(public, gid)
    body = {"entropy": "ab"} if wait else {}
    refused = [
        (public.post(f"/games/{gid}/seats/1/join", body or None), 400, "bad_input"),  # no code
        (public.post(f"/games/{gid}/seats/1/join", {"code": "", **body}), 400, "bad_input"),
        (public.post(f"/games/{gid}/seats/1/join", {"code": "inv_guess", **body}), 403, "forbidden"),
        (public.post(f"/games/{gid}/seats/2/join", {"code": code1, **body}), 403, "forbidden"),  # seat 1's
        (public.post(f"/games/{gid}/seats/1/join", {"code": elsewhere, **body}), 403, "forbidden"),
        (public.post(f"/games/{gid}/seats/1/join", {"code": hashlib.sha256(code1.encode()).hexdigest(), **body}),
         403, "forbidden"),  # its hash is not the code
    ]
    for r, status, kind in refused:
        assert (r.status_code, r.json()["error"]) == (status, kind), (r.request.content, r.text)
    assert state(public, gid) == before
    joined = public.join(gid, 1, code1, entropy="ab" if wait else None)
    assert joined["player"] == "Ada" and joined["seat"] == 1 and joined["token"].startswith("seat_")
    after = state(public, gid)
    assert after[1] == [1]
    # the code is used up
    r = public.post(f"/games/{gid}/seats/1/join", {"code": code1, **body})
    assert r.status_code == 409 and "already" in r.json()["reason"]
    assert state(public, gid) == after
    # an invitation for a taken seat is not issued; the referee's key may invite too
    assert organiser.post(f"/games/{gid}/invitations", {"seat": 1}).status_code == 409
    rows = organiser.ok(organiser.get(f"/games/{gid}/invitations"))
    assert [(i["seat"], i["player"], i["used"] is not None) for i in rows] == [(1, "Ada", True)]
    assert "code" not in rows[0]


def test_referee_invites_and_codes_are_stored_hashed(server, organiser, public):
    created = organiser.create("letter-of-marque", 2)
    gid = created["game_id"]
    from service.http.client import Api

    ref = Api(server.url, created["referee_key"])
    code = ref.invite(gid, 2, "Bo")
    ref.close()
    with sqlite3.connect(server.db) as conn:
        rows = conn.execute("SELECT code_hash, seat, player FROM privateer_invitations WHERE game_id = ?",
                            (gid,)).fetchall()
        dump = "\n".join(conn.iterdump())
    assert rows == [(hashlib.sha256(code.encode()).hexdigest(), 2, "Bo")]
    assert code not in dump
    token = public.join(gid, 2, code)["token"]
    with sqlite3.connect(server.db) as conn:
        dump = "\n".join(conn.iterdump())
    assert token not in dump and code not in dump


def test_a_player_named_by_the_invitation_is_named_in_the_status(server, organiser, public):
    created = organiser.create("letter-of-marque", 2, players={"2": "Bo"})
    gid = created["game_id"]
    joined = public.join(gid, 1, organiser.invite(gid, 1, player="Ada"))
    assert joined["player"] == "Ada"
    assert public.status(gid)["players"] == {"1": "Ada", "2": "Bo"}


def test_a_player_joining_an_unnamed_seat_names_it(server, organiser, public):
    gid = organiser.create("letter-of-marque", 3)["game_id"]
    assert public.join(gid, 1, organiser.invite(gid, 1), player="Cy")["player"] == "Cy"
    assert public.join(gid, 2, organiser.invite(gid, 2, player="Di"), player="Ed")["player"] == "Di"  # named
    r = public.post(f"/games/{gid}/seats/3/join", {"code": organiser.invite(gid, 3), "player": "seat 3"})
    assert r.status_code == 400 and "names a seat" in r.json()["reason"]
    assert public.status(gid)["players"] == {"1": "Cy", "2": "Di"}

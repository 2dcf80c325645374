"""A fork is private (unlisted, 404) to all but the organiser and its referee
until published; a fork of an unfinished game takes no invitations, joins or
seat reads and is not published until its parent is finished."""

import hashlib
import random
import sqlite3
from datetime import datetime, timezone

import httpx

from service.http.client import Api

from .helpers import play

READS = ["", "/log", "/view", "/replay?to_turn=0", "/audit", "/legal?seat=1", "/invitations"]


def reads(client, fid):
    return [client.get(f"/games/{fid}{path}").status_code for path in READS]


def test_fork_private_until_published(server, organiser, public, table_factory):
    t = table_factory("letter-of-marque", 2)
    for _ in range(4):  # a few steps: the parent is under way, its seats hold hidden bases
        st = public.status(t.gid)
        seat = st["to_act"][0]
        legal = t.seats[seat].legal(t.gid)
        assert t.seats[seat].decide(t.gid, legal["decisions"][0], legal["version"]).status_code == 201
    f = organiser.ok(organiser.post(f"/games/{t.gid}/fork", {"at_turn": 1}), 201)
    fid = f["game_id"]
    fref = Api(server.url, f["referee_key"])
    strangers = {"spectator": public, "parent seat 1": t.seats[1], "parent seat 2": t.seats[2],
                 "parent referee": t.referee, "bad token": Api(server.url, "nope")}
    try:
        # invisible: not listed, every read 404 as for an unknown game, the stream too
        for name, c in strangers.items():
            assert fid not in {r["game_id"] for r in c.get("/games").json()}, name
            assert set(reads(c, fid)) == {404}, (name, reads(c, fid))
            assert c.get(f"/games/{fid[:8]}").status_code == 404, name
            with httpx.stream("GET", f"{server.url}/games/{fid}/stream", headers=c.http.headers,
                              params={"timeout": 1}) as r:
                assert r.status_code == 404, name
        assert public.post(f"/games/{fid}/seats/1/join", {"code": "inv_x"}).status_code == 404
        # the organiser and the fork's referee see it
        for c in (organiser, fref):
            assert fid in {r["game_id"] for r in c.get("/games").json()}
            st = c.ok(c.get(f"/games/{fid}"))
            assert st["published"] is False and st["fork"]["parent"] == t.gid
            assert c.get(f"/games/{fid}/log").status_code == 200
        # the parent is unfinished: no invitations, no publishing (403, one line)
        for r in (fref.post(f"/games/{fid}/invitations", {"seat": 1}),
                  organiser.post(f"/games/{fid}/invitations", {"seat": 2}),
                  fref.post(f"/games/{fid}/publish")):
            assert r.status_code == 403 and "not finished" in r.json()["reason"], r.text
            assert "\n" not in r.json()["reason"]
        # an invitation slipped into the store (say, by hand) still takes no seat
        code = "inv_by_hand"
        with sqlite3.connect(server.db) as conn:
            conn.execute("INSERT INTO privateer_invitations VALUES (?, ?, 1, '', ?)",
                         (fid, hashlib.sha256(code.encode()).hexdigest(), datetime.now(timezone.utc).isoformat()))
        version = fref.status(fid)["version"]
        r = public.post(f"/games/{fid}/seats/1/join", {"code": code})
        assert r.status_code == 403 and "not finished" in r.json()["reason"], r.text
        assert fref.status(fid)["version"] == version and fref.status(fid)["seats_taken"] == []
        assert public.post(f"/games/{fid}/publish").status_code == 404
        assert t.seats[1].post(f"/games/{fid}/publish").status_code == 404
        # the parent finishes: the fork may be published, and then everyone sees it
        play(t, public, random.Random(1))
        assert public.get(f"/games/{fid}").status_code == 404
        assert fref.ok(fref.post(f"/games/{fid}/publish")) == {"game_id": fid, "published": True}
        assert organiser.ok(organiser.post(f"/games/{fid}/publish"))["published"]  # again: no change
        for name, c in strangers.items():
            if name == "bad token":
                assert c.get(f"/games/{fid}").status_code == 401
                continue
            row = next(r for r in c.get("/games").json() if r["game_id"] == fid)
            assert row["parent"] == t.gid and row["published"] is True
            assert c.get(f"/games/{fid}").status_code == (200 if c is public else 401)  # not its token
        assert public.get(f"/games/{fid}").json()["published"] is True
        assert public.get(f"/games/{fid}/log").status_code == 200
        # and seats may be invited to it
        joined = public.join(fid, 1, fref.invite(fid, 1))
        seat = Api(server.url, joined["token"])
        assert seat.get(f"/games/{fid}/view").json()["seat"] == 1
        seat.close()
    finally:
        fref.close()
        strangers["bad token"].close()


def test_fork_seats_may_read_a_private_fork_of_a_finished_game(server, organiser, public, table_factory):
    t = table_factory("letter-of-marque", 2)
    play(t, public, random.Random(2))
    f = organiser.ok(organiser.post(f"/games/{t.gid}/fork", {"at_turn": 1}), 201)
    fid = f["game_id"]
    fref = Api(server.url, f["referee_key"])
    token = public.join(fid, 2, fref.invite(fid, 2))["token"]
    seat = Api(server.url, token)
    assert seat.get(f"/games/{fid}/legal").status_code == 200  # the fork's own seat: an insider
    assert public.get(f"/games/{fid}").status_code == 404  # still private to everyone else
    assert fid in {r["game_id"] for r in seat.get("/games").json()}  # listed for its insiders
    seat.close()
    fref.close()

"""Seats' entropy before the setup, table mode through the referee, replay, fork, audit."""

import hashlib
import hmac
import random

from service.http.client import Api

from .helpers import play


def test_seats_add_entropy_before_the_setup(server, organiser, public, table_factory):
    from service.http.client import Api

    created = organiser.create("letter-of-marque", 3, wait_for_seats=True)
    gid = created["game_id"]
    st = created["status"]
    assert not st["started"] and st["to_act"] == [] and st["version"] == 1
    tokens = {}
    for n, ent in ((1, "01" * 16), (2, "ff" * 8)):
        j = public.join(gid, n, organiser.invite(gid, n), entropy=ent)
        assert j["entropy_added"] and not j["status"]["started"]
        tokens[n] = j["token"]
    j3 = public.join(gid, 3, organiser.invite(gid, 3, player="Ada"))  # the last seat: the setup runs now
    assert j3["player"] == "Ada"
    tokens[3] = j3["token"]
    assert j3["status"]["started"] and j3["status"]["to_act"] == [1, 2, 3]
    log = public.get(f"/games/{gid}/log").json()["events"]
    # seat 3 is taken under the invitation's name (a public event of the game), then the setup runs
    assert [e["type"] for e in log[:5]] == ["GameCreated", "EntropyAdded", "EntropyAdded", "SeatNamed", "Decided"]
    assert log[3]["data"] == {"seat": 3, "player": "Ada"} and log[3]["text"] == "Ada takes seat 3"
    # too late now
    assert organiser.post(f"/games/{gid}/invitations", {"seat": 3}).status_code == 409
    other = organiser.create("letter-of-marque", 2)["game_id"]
    r = public.post(f"/games/{other}/seats/1/join", {"code": organiser.invite(other, 1), "entropy": "aa"})
    assert r.status_code == 422 and "before any chance" in r.json()["reason"]
    assert public.status(other)["version"] == organiser.create("letter-of-marque", 2)["status"]["version"]

    class T:
        pass

    t = T()
    t.gid, t.seats = gid, {n: Api(server.url, tok) for n, tok in tokens.items()}
    play(t, public, random.Random(5))
    audit = public.get(f"/games/{gid}/audit").json()
    assert audit["ok"], audit
    # the first draw comes from the key with both entropies mixed in
    log = organiser.get(f"/games/{gid}/log", params={"limit": 1000}).json()["events"]
    seed = bytes.fromhex(next(e for e in log if e["type"] == "GameFinished")["data"]["seed"])
    key = hashlib.sha256(hashlib.sha256(seed + bytes.fromhex("01" * 16)).digest() + bytes.fromhex("ff" * 8)).digest()
    first = next(e for e in log if e["type"] == "CardDrawn")["data"]
    block = hmac.new(key, (0).to_bytes(8, "big"), hashlib.sha256).digest()
    assert first["counter"] == 0 and int.from_bytes(block[:8], "big") % first["of"] == first["index"]
    # a fork keeps the entropies: its new seed's key mixes them in the same way, and it audits clean
    f = organiser.ok(organiser.post(f"/games/{gid}/fork", {"at_turn": 1}), 201)
    assert organiser.get(f"/games/{f['game_id']}/audit").json()["ok"]
    flog = organiser.get(f"/games/{f['game_id']}/log").json()["events"]
    assert [e["type"] for e in flog[1:3]] == ["EntropyAdded", "EntropyAdded"]
    for c in t.seats.values():
        c.close()


def test_organiser_starts_a_waiting_game(organiser, public):
    created = organiser.create("letter-of-marque", 3, wait_for_seats=True)
    gid = created["game_id"]
    public.join(gid, 1, organiser.invite(gid, 1), entropy="abcd")
    assert public.post(f"/games/{gid}/start").status_code == 401
    st = organiser.ok(organiser.post(f"/games/{gid}/start"))
    assert st["started"] and st["to_act"] == [1, 2, 3]
    again = organiser.ok(organiser.post(f"/games/{gid}/start"))  # said so, nothing appended
    assert again["already_started"] and again["version"] == st["version"]


def test_table_mode_through_the_referee(table_factory, public):
    t = table_factory("letter-of-marque", 2, table=True)
    rng = random.Random(2)
    steps = 0
    while True:
        st = t.referee.ok(t.referee.get(f"/games/{t.gid}"))
        if st["finished"] or steps > 400:
            break
        if st["awaiting_chance"]:
            aw = st["awaiting_chance"]
            # spectators learn only that a chance is awaited
            assert public.status(t.gid)["awaiting_chance"] == {"kind": aw["kind"]}
            if aw["kind"] == "card":
                outcome = rng.choice(aw["choices"])
            elif aw["kind"] == "dice":
                outcome = [rng.randint(1, aw["sides"]) for _ in range(aw["n"])]
            else:
                outcome = rng.choice(aw["options"])
            bad = t.referee.post(f"/games/{t.gid}/chance", {"outcome": "no such card", "expected_version": st["version"]})
            assert bad.status_code == 400
            r = t.referee.post(f"/games/{t.gid}/chance", {"outcome": outcome, "expected_version": st["version"]},
                               headers={"Idempotency-Key": f"c{steps}"})
            assert r.status_code == 201, r.text
            again = t.referee.post(f"/games/{t.gid}/chance", {"outcome": outcome, "expected_version": st["version"]},
                                   headers={"Idempotency-Key": f"c{steps}"})
            assert again.json() == r.json()
        else:
            seat = st["to_act"][0]
            legal = t.seats[seat].legal(t.gid)
            r = t.seats[seat].decide(t.gid, rng.choice(legal["decisions"]), legal["version"])
            assert r.status_code == 201, r.text
        steps += 1
    assert st["finished"]
    assert public.get(f"/games/{t.gid}/audit").json()["ok"]


def test_replay_fork_and_views(table_factory, public, organiser):
    t = table_factory("letter-of-marque", 2)
    play(t, public, random.Random(9))
    # replay: each seat sees its own bases but not the other's unrevealed ones
    for seat in (1, 2):
        b = t.seats[seat].get(f"/games/{t.gid}/replay", params={"to_turn": 1}).json()
        assert b["viewer"] == "seat" and b["seat"] == seat and b["turn"] <= 1
        for ship in b["board"]["sea"]:
            if ship["owner"] == seat:
                assert ship["armed"] in (True, False)
            elif not ship["revealed"]:
                assert ship["armed"] == "hidden"
    ref = t.referee.get(f"/games/{t.gid}/replay", params={"to_turn": 1}).json()
    assert ref["viewer"] == "referee" and all(s["armed"] in (True, False) for s in ref["board"]["sea"])
    spec = public.get(f"/games/{t.gid}/replay", params={"to_event": 12}).json()
    assert spec["viewer"] == "spectator" and spec["version"] == 12
    # fork after turn 2: a new game, its own referee key, fresh seats
    f = organiser.ok(organiser.post(f"/games/{t.gid}/fork", {"at_turn": 2}), 201)
    assert f["game_id"] != t.gid and f["status"]["fork"]["parent"] == t.gid and f["referee_key"]
    assert f["status"]["seats_taken"] == [] and f["status"]["published"] is False
    assert organiser.get(f"/games/{f['game_id']}/audit").json()["ok"]
    # the parent is finished: the fork's referee may invite seats to it
    fref = Api(organiser.http.base_url, f["referee_key"])
    joined = public.join(f["game_id"], 1, fref.invite(f["game_id"], 1, "Bo"))
    assert joined["player"] == "Bo" and joined["status"]["seats_taken"] == [1]
    fref.close()

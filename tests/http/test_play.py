"""Whole games played over HTTP by clients holding seat tokens."""

import random
import threading

from service.http.client import read_stream

from .helpers import play, vis_ok


def finish_checks(table, public, organiser):
    st = public.status(table.gid)
    assert st["finished"] and st["scores"] and st["winners"]
    audit = public.get(f"/games/{table.gid}/audit").json()
    assert audit["ok"], audit
    log = public.get(f"/games/{table.gid}/log", params={"limit": 1000}).json()
    finished = [e for e in log["events"] if e["type"] == "GameFinished"]
    assert len(finished) == 1 and len(finished[0]["data"]["seed"]) == 64  # the seed is revealed
    rows = {r["game_id"]: r for r in public.get("/games").json()}
    # the public reads its own count; the store's version (which counts hidden events) is the organiser's
    assert rows[table.gid]["finished"] and rows[table.gid]["version"] is None
    assert st["version"] == len(log["events"])
    full = {r["game_id"]: r for r in organiser.get("/games").json()}
    assert full[table.gid]["version"] == organiser.status(table.gid)["version"] >= st["version"]
    return st


def test_letter_of_marque_full_game(table_factory, public, organiser):
    table = table_factory("letter-of-marque", 3)
    steps = play(table, public, random.Random(7))
    assert steps > 10
    finish_checks(table, public, organiser)
    # a finished game refuses further decisions, appending nothing
    st = table.seats[1].status(table.gid)  # the seat's own count is what it expects
    r = table.seats[1].decide(table.gid, {"action": "pass"}, st["version"])
    assert r.status_code == 422 and "finished" in r.json()["reason"]
    assert table.seats[1].status(table.gid)["version"] == st["version"]


def test_loot_full_game(server, table_factory, public, organiser):
    table = table_factory("loot", 3)
    steps = play(table, public, random.Random(11))
    assert steps > 10
    finish_checks(table, public, organiser)
    # hands stay hidden: a seat's view shows only its own hand
    for seat, client in table.seats.items():
        board = client.get(f"/games/{table.gid}/replay", params={"to_event": 30}).json()["board"]
        for n, p in board["players"].items():
            if int(n) != seat:
                assert p["hand"] is None


def test_stream_follows_the_game_live(server, table_factory, public, organiser):
    table = table_factory("letter-of-marque", 2)
    got = {}

    def reader(name, token):
        got[name] = read_stream(server.url, table.gid, token, timeout=60)

    threads = [threading.Thread(target=reader, args=("seat1", table.tokens[1])),
               threading.Thread(target=reader, args=("spectator", None)),
               threading.Thread(target=reader, args=("referee", table.referee_key))]
    for t in threads:
        t.start()
    play(table, public, random.Random(3))
    for t in threads:
        t.join(70)
        assert not t.is_alive()
    finals = {"seat1": table.seats[1].status(table.gid)["version"],
              "spectator": public.status(table.gid)["version"],
              "referee": organiser.status(table.gid)["version"]}
    for name, seat in (("seat1", 1), ("spectator", 0), ("referee", None)):
        msgs = got[name]
        final = finals[name]  # each caller counts what it may read
        assert msgs[-1]["event"] == "end"
        evs = [m["data"] for m in msgs if m["event"] == "game-event"]
        versions = [e["version"] for e in evs]
        assert versions == list(range(1, final + 1))  # in order, no repeats, no gaps
        statuses = [m["data"] for m in msgs if m["event"] == "status"]
        assert statuses[-1]["version"] == final and statuses[-1]["finished"]
        if seat is None:
            assert final > finals["seat1"] and final > finals["spectator"]
        else:
            assert all(vis_ok(e["visible_to"], seat) for e in evs)
            # exactly the log this caller may see
            token = table.tokens[1] if seat == 1 else None
            log = public.get(f"/games/{table.gid}/log", params={"limit": 1000},
                             headers={"Authorization": f"Bearer {token}"} if token else {}).json()
            assert [e["version"] for e in log["events"]] == versions
    # resuming with Last-Event-ID / after gives only what follows
    mine = finals["seat1"]
    tail = read_stream(server.url, table.gid, table.tokens[1], after=mine - 3, timeout=10)
    got_ids = [int(m["id"]) for m in tail if m["event"] == "game-event"]
    assert got_ids == [mine - 2, mine - 1, mine]

"""Races and retries: exactly one decision appended, the other 409; a retried
submission with the same Idempotency-Key is never doubled."""

import asyncio
import threading
from functools import partial

import httpx
import pytest

from service.http.auth import Caller
from service.http.client import Api
from service.http.steps import Replayed
from service.kernel.errors import IllegalDecision

from .test_atomicity import svc  # noqa: F401 - the in-process service, on SQLite and PostgreSQL


def race(calls):
    """Run the callables at the same moment; return their responses."""
    barrier = threading.Barrier(len(calls))
    out = [None] * len(calls)

    def run(i, fn):
        barrier.wait()
        out[i] = fn()

    threads = [threading.Thread(target=run, args=(i, fn)) for i, fn in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return out


def count_events(public, gid):
    return len(public.get(f"/games/{gid}/log", params={"limit": 1000}).json()["events"])


def test_two_clients_race_the_same_decision(server, table_factory, public):
    for _ in range(5):
        table = table_factory("letter-of-marque", 2)
        v = Api(server.url, table.tokens[1]).status(table.gid)["version"]
        before = count_events(table.referee, table.gid)
        # two connections holding seat 1's token submit the same decision at once
        a, b = Api(server.url, table.tokens[1]), Api(server.url, table.tokens[1])
        d = {"action": "place", "armed": True}
        rs = race([partial(a.decide, table.gid, d, v), partial(b.decide, table.gid, d, v)])
        assert sorted(r.status_code for r in rs) == [201, 409], [r.text for r in rs]
        loser = next(r for r in rs if r.status_code == 409)
        assert loser.json()["error"] == "stale_version"
        winner = next(r for r in rs if r.status_code == 201).json()
        assert count_events(table.referee, table.gid) == before + 3  # Decided, ShipLaunched, ShipBaseChosen
        # the winner's answer is numbered in seat 1's own count, which the public's does not reach
        assert a.status(table.gid)["version"] == winner["version"] > public.status(table.gid)["version"]
        a.close()
        b.close()


def test_same_seat_twice_with_different_decisions(server, table_factory, public):
    table = table_factory("letter-of-marque", 3)
    v = public.status(table.gid)["version"]
    a, b = Api(server.url, table.tokens[2]), Api(server.url, table.tokens[2])
    rs = race([lambda: a.decide(table.gid, {"action": "place", "armed": True}, v),
               lambda: b.decide(table.gid, {"action": "place", "armed": False}, v)])
    assert sorted(r.status_code for r in rs) == [201, 409]
    log = table.referee.get(f"/games/{table.gid}/log").json()["events"]
    assert sum(1 for e in log if e["type"] == "ShipBaseChosen") == 1
    a.close()
    b.close()


def test_two_seats_deciding_against_the_same_version(table_factory, public):
    table = table_factory("letter-of-marque", 2)
    v = public.status(table.gid)["version"]
    rs = race([lambda: table.seats[1].decide(table.gid, {"action": "place", "armed": True}, v),
               lambda: table.seats[2].decide(table.gid, {"action": "place", "armed": True}, v)])
    assert sorted(r.status_code for r in rs) == [201, 409]
    # the loser reads the new version and succeeds
    loser = 1 if rs[0].status_code == 409 else 2
    v2 = public.status(table.gid)["version"]
    assert table.seats[loser].decide(table.gid, {"action": "place", "armed": True}, v2).status_code == 201


def test_retry_with_the_same_key_is_not_doubled(table_factory, public):
    table = table_factory("letter-of-marque", 2)
    v = public.status(table.gid)["version"]
    d = {"action": "place", "armed": False}
    first = table.seats[1].decide(table.gid, d, v, key="retry-1")
    assert first.status_code == 201
    n = count_events(public, table.gid)
    for _ in range(3):
        again = table.seats[1].decide(table.gid, d, v, key="retry-1")
        assert again.status_code == 201 and again.json() == first.json()
        assert again.headers["Idempotency-Replayed"] == "true"
    assert count_events(public, table.gid) == n
    # still the first result after the game moved on
    v2 = public.status(table.gid)["version"]
    assert table.seats[2].decide(table.gid, d, v2, key="retry-1").status_code == 201  # keys are per seat
    assert table.seats[1].decide(table.gid, d, v, key="retry-1").json() == first.json()
    # the same key for another request is refused, appending nothing
    v3 = public.status(table.gid)["version"]
    r = table.seats[1].decide(table.gid, {"action": "launch"}, v3, key="retry-1")
    assert r.status_code == 422 and "Idempotency-Key" in r.json()["reason"]
    assert public.status(table.gid)["version"] == v3


def test_concurrent_retries_with_one_key(server, table_factory, public):
    for i in range(4):
        table = table_factory("letter-of-marque", 2)
        v = public.status(table.gid)["version"]
        clients = [Api(server.url, table.tokens[1]) for _ in range(3)]
        d = {"action": "place", "armed": True}
        rs = race([partial(c.decide, table.gid, d, v, key=f"k{i}") for c in clients])
        assert [r.status_code for r in rs] == [201, 201, 201], [r.text for r in rs]
        assert len({r.text for r in rs}) == 1
        log = table.referee.get(f"/games/{table.gid}/log").json()["events"]
        assert sum(1 for e in log if e["type"] == "ShipBaseChosen") == 1
        for c in clients:
            c.close()


def test_two_joins_with_one_invitation(server, organiser, public):
    """One code, two joins at once: exactly one seat, the other 409, nothing else written."""
    gid = organiser.create("letter-of-marque", 2)["game_id"]
    code = organiser.invite(gid, 1)
    before = count_events(public, gid)
    rs = race([lambda: httpx.post(f"{server.url}/games/{gid}/seats/1/join", json={"code": code}),
               lambda: httpx.post(f"{server.url}/games/{gid}/seats/1/join", json={"code": code})])
    assert sorted(r.status_code for r in rs) == [201, 409], [r.text for r in rs]
    assert public.status(gid)["seats_taken"] == [1]
    assert count_events(public, gid) == before
    used = organiser.ok(organiser.get(f"/games/{gid}/invitations"))
    assert [(i["seat"], i["used"] is not None) for i in used] == [(1, True)]


def test_two_invitations_for_one_seat_race(server, organiser, public):
    gid = organiser.create("letter-of-marque", 2)["game_id"]
    codes = [organiser.invite(gid, 2), organiser.invite(gid, 2)]
    rs = race([lambda c=c: httpx.post(f"{server.url}/games/{gid}/seats/2/join", json={"code": c}) for c in codes])
    assert sorted(r.status_code for r in rs) == [201, 409], [r.text for r in rs]
    assert public.status(gid)["seats_taken"] == [2]


def test_entropy_join_race(server, organiser, public):
    gid = organiser.create("letter-of-marque", 3, wait_for_seats=True)["game_id"]
    code = organiser.invite(gid, 1)
    rs = race([lambda: httpx.post(f"{server.url}/games/{gid}/seats/1/join", json={"code": code, "entropy": "aa"}),
               lambda: httpx.post(f"{server.url}/games/{gid}/seats/1/join", json={"code": code, "entropy": "bb"})])
    assert sorted(r.status_code for r in rs) == [201, 409]
    log = public.get(f"/games/{gid}/log").json()["events"]
    assert [e["type"] for e in log] == ["GameCreated", "EntropyAdded"]


def test_seats_adding_entropy_at_once(server, organiser, public):
    gid = organiser.create("letter-of-marque", 4, wait_for_seats=True)["game_id"]
    codes = {n: organiser.invite(gid, n) for n in (1, 2, 3, 4)}
    rs = race([lambda n=n: httpx.post(f"{server.url}/games/{gid}/seats/{n}/join",
                                      json={"code": codes[n], "entropy": f"{n:02x}" * 8})
               for n in (1, 2, 3, 4)])
    assert [r.status_code for r in rs] == [201] * 4, [r.text for r in rs]
    st = public.status(gid)
    assert st["started"] and st["seats_taken"] == [1, 2, 3, 4]
    log = public.get(f"/games/{gid}/log").json()["events"]
    assert sorted(e["data"]["seat"] for e in log if e["type"] == "EntropyAdded") == [1, 2, 3, 4]
    assert public.get(f"/games/{gid}/audit").json()["ok"]


def test_a_keyed_step_reads_no_key_first_and_its_retries_are_answered(svc):  # noqa: F811
    """A decision with an Idempotency-Key does not ask the store about its key before its step
    (a round trip with the event loop waiting, on PostgreSQL); a retry still gets the first
    answer, whether the game is where it was or has moved on, and the key used for another
    request is refused; nothing is appended by either."""
    gid = svc.app.create("letter-of-marque", 2)
    reads = []
    real = svc.app.recorder.select_idempotency
    svc.app.recorder.select_idempotency = lambda *a: reads.append(a) or real(*a)
    m = svc.current.game(gid).machine
    seat = m.to_act()[0]
    decision = m.legal(seat)[0]
    at = m.seen(seat, svc.current.game(gid).version)

    def decide(d, version, key, who=seat):
        return asyncio.run(svc.steps.decide(gid, Caller("seat", who), d, version, None, key))

    first = decide(decision, at, "k1")
    assert reads == []
    with pytest.raises(Replayed) as again:
        decide(decision, at, "k1")
    assert again.value.body == first
    g = svc.current.game(gid)
    other = next(s for s in g.machine.to_act() if g.machine.legal(s))
    decide(g.machine.legal(other)[0], g.machine.seen(other, g.version), "k2", other)   # the game moves on
    stored = len(svc.app.stored_events(gid))
    with pytest.raises(Replayed) as late:
        decide(decision, at, "k1")
    assert late.value.body == first
    with pytest.raises(IllegalDecision, match="Idempotency-Key"):
        decide({"action": "launch"}, at, "k1")
    assert len(svc.app.stored_events(gid)) == stored

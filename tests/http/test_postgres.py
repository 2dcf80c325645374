"""The same service on the real PostgreSQL server (a schema of its own, dropped after)."""

import random
import uuid
from functools import partial

import pytest

from service.http.client import Api, ServerProcess

from ..needs import drop_schema, schema_url
from .conftest import Table
from .helpers import play
from .test_concurrency import race


@pytest.fixture(scope="module")
def pg_server(postgresql):
    schema = f"http_{uuid.uuid4().hex[:12]}"
    srv = ServerProcess(schema_url(schema)).start()
    yield srv
    srv.stop()
    drop_schema(schema)


def test_game_race_and_retry_on_postgres(pg_server):
    org = Api(pg_server.url, pg_server.key)
    public = Api(pg_server.url)
    t = Table(pg_server, org, "letter-of-marque", 2)
    try:
        v = public.status(t.gid)["version"]
        a, b = Api(pg_server.url, t.tokens[1]), Api(pg_server.url, t.tokens[1])
        d = {"action": "place", "armed": True}
        rs = race([lambda: a.decide(t.gid, d, v), lambda: b.decide(t.gid, d, v)])
        assert sorted(r.status_code for r in rs) == [201, 409], [r.text for r in rs]
        v = public.status(t.gid)["version"]
        first = t.seats[2].decide(t.gid, d, v, key="pg-1")
        again = t.seats[2].decide(t.gid, d, v, key="pg-1")
        assert first.status_code == again.status_code == 201 and first.json() == again.json()
        assert org.post(f"/games/{t.gid}/invitations", {"seat": 1}).status_code == 409  # taken
        # one invitation, two joins at once: one seat, on PostgreSQL too
        gid = org.create("letter-of-marque", 2, wait_for_seats=True)["game_id"]
        code = org.invite(gid, 2)
        rs = race([lambda e=e: public.post(f"/games/{gid}/seats/2/join", {"code": code, "entropy": e})
                   for e in ("aa", "bb")])
        assert sorted(r.status_code for r in rs) == [201, 409], [r.text for r in rs]
        assert public.status(gid)["seats_taken"] == [2]
        assert [e["type"] for e in public.get(f"/games/{gid}/log").json()["events"]] == ["GameCreated", "EntropyAdded"]
        play(t, public, random.Random(4))
        assert public.get(f"/games/{t.gid}/audit").json()["ok"]
        a.close()
        b.close()
    finally:
        t.close()
        org.close()
        public.close()


def test_a_nul_in_a_name_or_a_tournament_is_bad_input_on_postgres(pg_server):
    """PostgreSQL keeps no NUL in text: a game's name or tournament holding one, and a
    query for such a tournament, answered 500 there (SQLite kept the NUL); now each is
    refused as bad input, in one line, as every way in refuses a control character."""
    org, public = Api(pg_server.url, pg_server.key), Api(pg_server.url)
    try:
        before = len(org.get("/games").json())
        for body in ({"name": "t\x00"}, {"tournament": "t\x00"}, {"players": {"1": "A\x00"}}):
            r = org.post("/games", {"game": "loot", "seats": 2, **body})
            assert r.status_code == 400 and "control character (U+0000)" in r.json()["reason"], r.text
        r = public.get("/standings", params={"tournament": "t\x00"})
        assert r.status_code == 400 and r.json()["reason"] == "tournament holds a control character (U+0000)"
        gid = org.create("loot", 2, tournament="spring")["game_id"]
        r = org.post(f"/games/{gid}/invitations", {"seat": 1, "player": "A\x00"})
        assert r.status_code == 400 and "(U+0000)" in r.json()["reason"], r.text
        assert len(org.get("/games").json()) == before + 1
        assert public.get("/standings", params={"tournament": "spring"}).status_code == 200
    finally:
        org.close()
        public.close()


def test_two_servers_races_and_a_kill(pg_server):
    """A second server on the same database: one seat posting one version to both at once makes
    one step (a 409, or with one key the first answer again); a server killed with SIGKILL
    right after acknowledging a decision loses nothing, and the client's retry with the same
    key on the other server gets that answer again; every acknowledged decision is stored once."""
    other = ServerProcess(pg_server.db, organiser_key=pg_server.key).start()
    org = Api(pg_server.url, pg_server.key)
    public = Api(pg_server.url)
    t = Table(pg_server, org, "letter-of-marque", 2)
    acked = []
    clients = {(n, url): Api(url, t.tokens[n]) for n in (1, 2) for url in (pg_server.url, other.url)}

    def next_move():
        """The next decision, once both servers have read the last step (each follows the other's
        commits a few milliseconds behind: a read before that is stale, and its post a 409)."""
        for _ in range(500):
            seat = public.status(t.gid)["to_act"][0]
            legal = clients[seat, pg_server.url].legal(t.gid)
            if clients[seat, other.url].legal(t.gid)["version"] == legal["version"] and legal["decisions"]:
                return seat, legal["decisions"][0], legal["version"]
        raise AssertionError("the two servers never agreed on the game's version")
    try:
        for same_key in (False, True, False, True):
            seat, d, v = next_move()
            keys = [uuid.uuid4().hex] * 2 if same_key else [uuid.uuid4().hex, uuid.uuid4().hex]
            a, b = clients[seat, pg_server.url], clients[seat, other.url]
            rs = race([partial(a.decide, t.gid, d, v, key=keys[0]), partial(b.decide, t.gid, d, v, key=keys[1])])
            codes = sorted(r.status_code for r in rs)
            if same_key:
                assert codes == [201, 201] and rs[0].json() == rs[1].json(), [r.text for r in rs]
            else:
                assert codes == [201, 409], [r.text for r in rs]
            acked.append((seat, d))
        # a decision acknowledged by the other server, which then dies
        seat, d, v = next_move()
        key = uuid.uuid4().hex
        first = clients[seat, other.url].decide(t.gid, d, v, key=key)
        assert first.status_code == 201
        acked.append((seat, d))
        other.proc.kill()
        other.proc.wait(10)
        again = clients[seat, pg_server.url].decide(t.gid, d, v, key=key)   # its client did not hear: retried here
        assert again.status_code == 201 and again.json() == first.json()
        log = t.referee.get(f"/games/{t.gid}/log", params={"limit": 1000}).json()["events"]
        assert [(e["data"]["seat"], e["data"]["decision"]) for e in log
                if e["type"] == "Decided" and e["data"]["seat"]] == acked
        assert t.referee.get(f"/games/{t.gid}/audit").json()["ok"]
    finally:
        for c in clients.values():
            c.close()
        other.stop()
        t.close()
        org.close()
        public.close()

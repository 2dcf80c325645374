"""The same service on the real PostgreSQL server (a schema of its own, dropped after)."""

import random
import uuid

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

"""`tools serve --workers 2`: two processes on one database still append a raced
decision exactly once and never double a retried one."""

import random
from functools import partial

import pytest

from service.http.client import Api, ServerProcess

from .conftest import Table
from .helpers import play
from .test_concurrency import race


@pytest.fixture(scope="module")
def two_workers(tmp_path_factory):
    srv = ServerProcess(str(tmp_path_factory.mktemp("workers") / "w.db"), workers=2).start()
    yield srv
    srv.stop()


def test_two_workers_one_database(two_workers):
    org, public = Api(two_workers.url, two_workers.key), Api(two_workers.url)
    t = Table(two_workers, org, "letter-of-marque", 2)
    try:
        for i in range(3):
            st = public.status(t.gid)
            seat = st["to_act"][0]
            legal = t.seats[seat].legal(t.gid)
            d = legal["decisions"][0]
            clients = [Api(two_workers.url, t.tokens[seat]) for _ in range(4)]
            rs = race([partial(c.decide, t.gid, d, legal["version"]) for c in clients])
            assert sorted(r.status_code for r in rs) == [201, 409, 409, 409], [r.text for r in rs]
            seat2 = public.status(t.gid)["to_act"][0]
            legal2 = Api(two_workers.url, t.tokens[seat2]).legal(t.gid)
            others = [Api(two_workers.url, t.tokens[seat2]) for _ in range(4)]
            rs = race([partial(c.decide, t.gid, legal2["decisions"][0], legal2["version"], key=f"same-{i}")
                       for c in others])
            assert {r.status_code for r in rs} == {201} and len({r.text for r in rs}) == 1, [r.text for r in rs]
            for c in others:
                c.close()
            for c in clients:
                c.close()
        play(t, public, random.Random(8))
        assert public.get(f"/games/{t.gid}/audit").json()["ok"]
    finally:
        t.close()
        org.close()
        public.close()

"""Every game in the registry works through the API: create, take the seats,
random legal play for a while (to the end when it comes), every viewer's
view/log/legal answers without a server error and within its visibility."""

import random
import uuid

import pytest

from service.kernel.games import game_names

from .conftest import Table
from .helpers import vis_ok

STEPS = 60


@pytest.mark.parametrize("game", game_names())
def test_game_through_the_api(server, organiser, public, game):
    assert game in public.get("/health").json()["games"]
    from service.kernel.games import get_rules

    rules = get_rules(game)
    seats = max(rules.min_seats, min(3, rules.max_seats))
    r = organiser.post("/games", {"game": game, "seats": seats})
    assert r.status_code == 201, r.text
    gid = r.json()["game_id"]
    t = Table.__new__(Table)
    t.gid, t.seats, t.tokens = gid, {}, {}
    from service.http.client import Api

    for n in range(1, seats + 1):
        t.tokens[n] = public.join(gid, n, organiser.invite(gid, n))["token"]
        t.seats[n] = Api(server.url, t.tokens[n])
    viewers = dict(t.seats)
    viewers[0] = public
    rng = random.Random(1)
    try:
        for step in range(STEPS):
            st = public.status(gid)
            if st["finished"] or not st["to_act"]:
                break
            seat = rng.choice(st["to_act"])
            legal = t.seats[seat].legal(gid)
            r = t.seats[seat].decide(gid, rng.choice(legal["decisions"]), legal["version"], key=uuid.uuid4().hex)
            assert r.status_code == 201, r.text
            assert all(vis_ok(e["visible_to"], seat) for e in r.json()["events"])
            if step % 10 == 0:
                for s, c in viewers.items():
                    assert c.get(f"/games/{gid}/view").status_code == 200
                    log = c.get(f"/games/{gid}/log", params={"limit": 1000}).json()["events"]
                    assert all(vis_ok(e["visible_to"], s) for e in log)
        assert public.get(f"/games/{gid}/audit").json()["ok"]
    finally:
        for c in t.seats.values():
            c.close()

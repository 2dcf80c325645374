"""Every error: the right status, a one-line reason, nothing appended, never a 500."""

import pytest


@pytest.fixture
def game(table_factory):
    return table_factory("letter-of-marque", 3)


def versions(game):
    st = game.referee.get(f"/games/{game.gid}").json()
    log = game.referee.get(f"/games/{game.gid}/log", params={"limit": 1000}).json()
    return st["version"], len(log["events"])


def test_error_statuses_append_nothing(game, public, organiser, server):
    gid = game.gid
    v, _ = versions(game)
    s1 = game.seats[1]
    place = {"action": "place", "armed": True}
    cases = [
        # 400 malformed
        (s1.http.post(f"/games/{gid}/decisions", content=b"{not json", headers={"content-type": "application/json"}), 400),
        (s1.post(f"/games/{gid}/decisions", {"decision": place}), 400),
        (s1.post(f"/games/{gid}/decisions", {"decision": "place", "expected_version": v}), 400),
        (s1.post(f"/games/{gid}/decisions", {"decision": place, "expected_version": "x"}), 400),
        (s1.post(f"/games/{gid}/decisions", {"decision": place, "expected_version": v, "extra": 1}), 400),
        (s1.post(f"/games/{gid}/decisions", {"decision": {"action": "place", "armed": 2**70}, "expected_version": v}), 400),
        (s1.http.post(f"/games/{gid}/decisions", content=b'{"decision": {"n": NaN}, "expected_version": 1}',
                      headers={"content-type": "application/json"}), 400),
        (s1.get(f"/games/{gid}/log", params={"after": -1}), 400),
        (s1.get(f"/games/{gid}/replay", params={"to_turn": 1, "to_event": 3}), 400),
        (organiser.post("/games", {"game": "chess", "seats": 2}), 400),
        (organiser.post("/games", {"game": "letter-of-marque", "seats": 9}), 400),
        (organiser.post("/games", {"game": "letter-of-marque", "seats": 2, "options": {"x": "1"}}), 400),
        (public.post(f"/games/{gid}/seats/1/join"), 400),  # no code
        (public.post(f"/games/{gid}/seats/1/join", {"code": 12345}), 400),
        (public.post(f"/games/{gid}/seats/3/join", {"code": "x", "entropy": "zz"}), 400),  # malformed first
        (organiser.post(f"/games/{gid}/invitations", {"seat": 7}), 400),
        (organiser.post(f"/games/{gid}/invitations", {"seat": "2"}), 400),
        (public.post(f"/games/{gid}/invitations", {"seat": 2}), 401),
        (s1.post(f"/games/{gid}/invitations", {"seat": 2}), 403),
        (s1.get(f"/games/{gid}/invitations"), 403),
        (public.post(f"/games/{gid}/seats/1/join", {"code": "inv_wrong"}), 403),
        (public.post(f"/games/{gid}/publish"), 401),
        (game.referee.post(f"/games/{gid}/publish"), 400),  # not a fork: public already
        (game.referee.post(f"/games/{gid}/chance", {"outcome": 3, "expected_version": v}), 400),  # not table mode
        (organiser.post(f"/games/{gid}/fork", {}), 400),
        # 401 / 403
        (public.get(f"/games/{gid}/legal"), 401),
        (public.post(f"/games/{gid}/decisions", {"decision": place, "expected_version": v}), 401),
        (public.http.get(f"/games/{gid}/view", headers={"Authorization": "Bearer nope"}), 401),
        (public.http.get(f"/games/{gid}/view", headers={"Authorization": "Token abc"}), 401),
        (public.post("/games", {"game": "letter-of-marque", "seats": 2}), 401),
        (s1.post("/games", {"game": "letter-of-marque", "seats": 2}), 403),
        (s1.get(f"/games/{gid}/legal", params={"seat": 2}), 403),
        (s1.post(f"/games/{gid}/decisions", {"decision": place, "expected_version": v, "seat": 2}), 403),
        (s1.post(f"/games/{gid}/chance", {"outcome": 3, "expected_version": v}), 403),
        (s1.post(f"/games/{gid}/start"), 403),
        (s1.post(f"/games/{gid}/fork", {"at_turn": 0}), 403),
        (game.referee.post(f"/games/{gid}/decisions", {"decision": place, "expected_version": v, "seat": 1}), 403),
        # 404
        (public.get("/games/ffffffffffffffffffffffffffffffff"), 404),
        (public.get("/games/not-a-game"), 404),
        (s1.post("/games/ffffffffffffffffffffffffffffffff/decisions", {"decision": place, "expected_version": v}), 404),
        (public.get(f"/games/{gid}/nothing-here"), 404),
        # 409
        (s1.decide(gid, place, v - 1), 409),
        (s1.decide(gid, place, v + 5), 409),
        (organiser.post(f"/games/{gid}/invitations", {"seat": 1}), 409),  # taken
        # 422 with the rules' reason
        (s1.decide(gid, {"action": "attack", "ship": "blue-1"}, v), 422),
        (s1.decide(gid, {"action": ["x"]}, v), 422),
        (s1.decide(gid, {}, v), 422),
    ]
    for r, status in cases:
        assert r.status_code == status, (r.request.method, r.request.url, r.request.content, r.status_code, r.text)
        body = r.json()
        assert set(body) == {"error", "reason"} and body["reason"] and "\n" not in body["reason"], body
    assert versions(game)[0] == v
    r = s1.decide(gid, {"action": "attack", "ship": "blue-1"}, v)
    assert "drawn a treasure" in r.json()["reason"]  # the rules' own words
    # a seat token of one game is not valid for another
    other = organiser.create("letter-of-marque", 2)["game_id"]
    assert s1.get(f"/games/{other}/legal").status_code == 401
    assert versions(game)[0] == v


def test_not_your_turn_is_422(table_factory, public):
    t = table_factory("letter-of-marque", 2)
    v = t.seats[1].status(t.gid)["version"]  # a seat expects its own count
    assert t.seats[1].decide(t.gid, {"action": "place", "armed": True}, v).status_code == 201
    v = t.seats[1].status(t.gid)["version"]
    r = t.seats[1].decide(t.gid, {"action": "place", "armed": True}, v)
    assert r.status_code == 422 and r.json()["error"] == "not_your_turn"
    assert t.seats[1].status(t.gid)["version"] == v

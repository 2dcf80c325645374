"""The play loop's fast path (service/http/fast.py) answers exactly as the
framework's routes do: one store, two applications on it (one with the fast
path, one without), the same requests to both, byte-for-byte the same answers;
and every request the fast path does not take still reaches its route."""

from __future__ import annotations

import json
import random
import uuid

import pytest
from fastapi.testclient import TestClient

from service.http.app import create_app

KEY = "org-fast-path-test"


@pytest.fixture
def apps(tmp_path):
    db = str(tmp_path / "fast.db")
    with TestClient(create_app(db, KEY)) as fast, TestClient(create_app(db, KEY, play_loop=False)) as routed:
        yield fast, routed


def _auth(token):
    return {"Authorization": f"Bearer {token}"} if token else {}


def _same(fast, routed, method, path, token=None, body=None, headers=None):
    """The same request to both: status, headers that matter and body equal; the answer."""
    h = dict(_auth(token), **(headers or {}))
    kw = {"headers": h}
    if body is not None:
        kw["content"] = body if isinstance(body, (bytes, str)) else json.dumps(body)
        h.setdefault("Content-Type", "application/json")
    a = fast.request(method, path, **kw)
    b = routed.request(method, path, **kw)
    assert (a.status_code, a.content) == (b.status_code, b.content), (method, path, body)
    assert a.headers.get("content-type") == b.headers.get("content-type")
    return a


def _seated_game(client, seats=3):
    org = _auth(KEY)
    gid = client.post("/games", json={"game": "letter-of-marque", "seats": seats}, headers=org).json()["game_id"]
    tokens = {}
    for n in range(1, seats + 1):
        code = client.post(f"/games/{gid}/invitations", json={"seat": n}, headers=org).json()["code"]
        tokens[n] = client.post(f"/games/{gid}/seats/{n}/join", json={"code": code}).json()["token"]
    return gid, tokens


def test_a_whole_game_reads_the_same_and_decides_the_same_through_either(apps):
    fast, routed = apps
    gid, tokens = _seated_game(fast)
    rng = random.Random(3)
    steps = 0
    while True:
        st = _same(fast, routed, "GET", f"/games/{gid}").json()
        _same(fast, routed, "GET", f"/games/{gid}", token=tokens[1])
        if st["finished"]:
            break
        seat = st["to_act"][0]
        legal = _same(fast, routed, "GET", f"/games/{gid}/legal", token=tokens[seat]).json()
        decision = rng.choice(legal["decisions"])
        body = {"decision": decision, "expected_version": legal["version"]}
        waiting = [n for n in tokens if n not in st["to_act"]]
        if waiting:  # a seat whose turn it is not: refused alike
            _same(fast, routed, "GET", f"/games/{gid}/legal", token=tokens[waiting[0]])
            _same(fast, routed, "POST", f"/games/{gid}/decisions", token=tokens[waiting[0]], body=body)
        stale = {"decision": decision, "expected_version": legal["version"] - 1}
        _same(fast, routed, "POST", f"/games/{gid}/decisions", token=tokens[seat], body=stale)
        # the decision through one, its idempotent retry through the other: the first answer again
        first, second = (fast, routed) if steps % 2 else (routed, fast)
        key = {"Idempotency-Key": uuid.uuid4().hex}
        made = first.post(f"/games/{gid}/decisions", json=body, headers=dict(_auth(tokens[seat]), **key))
        assert made.status_code == 201, made.text
        again = second.post(f"/games/{gid}/decisions", json=body, headers=dict(_auth(tokens[seat]), **key))
        assert again.status_code == 201 and again.headers.get("idempotency-replayed") == "true"
        assert again.json() == made.json()
        steps += 1
    assert steps > 10


def test_requests_the_fast_path_does_not_take_reach_their_routes_alike(apps):
    fast, routed = apps
    gid, tokens = _seated_game(fast)
    seat = fast.get(f"/games/{gid}").json()["to_act"][0]
    legal = fast.get(f"/games/{gid}/legal", headers=_auth(tokens[seat])).json()
    good = {"decision": legal["decisions"][0], "expected_version": legal["version"]}
    post = f"/games/{gid}/decisions"
    for body in ({**good, "extra": 1},                               # refused by the model
                 {**good, "expected_version": str(legal["version"])},  # strict: a string is not a number
                 {**good, "expected_version": True},
                 {"decision": "move", "expected_version": 1},
                 "not json", b"", b"[1, 2]", b"\xff\xfe"):
        _same(fast, routed, "POST", post, token=tokens[seat], body=body)
    _same(fast, routed, "POST", post, token=tokens[seat], body=good, headers={"Idempotency-Key": "k" * 201})
    _same(fast, routed, "POST", post, token="tok-not-a-token", body=good)
    _same(fast, routed, "POST", post, body=good)                      # a spectator decides nothing
    _same(fast, routed, "GET", f"/games/{gid}/legal?seat={seat}", token=tokens[seat])
    _same(fast, routed, "GET", f"/games/{gid}/legal")
    _same(fast, routed, "GET", f"/games/{gid}?x=1")
    _same(fast, routed, "GET", "/games/" + "a" * 101)
    _same(fast, routed, "GET", "/games/0123456789abcdef0123456789abcdef")   # no such game
    _same(fast, routed, "GET", f"/games/{gid[:8]}")                         # a prefix names it
    _same(fast, routed, "GET", f"/games/{gid}/legal/more", token=tokens[seat])
    _same(fast, routed, "PUT", post, token=tokens[seat], body=good)
    # and a good one still goes through the fast path's application
    assert fast.post(post, json=good, headers=_auth(tokens[seat])).status_code == 201

"""Strict request bodies, the body size limit (declared or streamed), the
stream's caps and the audit cache: each refusal a clear 4xx that appends nothing."""

import socket
import time
from urllib.parse import urlsplit

import pytest

from service.http.client import Api, ServerProcess, read_stream

from .test_concurrency import race


def snapshot(client, gid):
    return client.get(f"/games/{gid}").json()["version"], len(client.get("/games").json())


def test_strict_types_and_bad_text(table_factory, organiser, public):
    t = table_factory("letter-of-marque", 2)
    gid, s1 = t.gid, t.seats[1]
    v = public.status(gid)["version"]
    place = {"action": "place", "armed": True}
    before = snapshot(organiser, gid)
    json_post = {"content-type": "application/json"}
    cases = [
        s1.post(f"/games/{gid}/decisions", {"decision": place, "expected_version": str(v)}),
        s1.post(f"/games/{gid}/decisions", {"decision": place, "expected_version": True}),
        s1.post(f"/games/{gid}/decisions", {"decision": place, "expected_version": float(v)}),
        s1.post(f"/games/{gid}/decisions", {"decision": place, "expected_version": None}),
        s1.post(f"/games/{gid}/decisions", {"decision": place, "expected_version": v, "seat": "1"}),
        t.referee.post(f"/games/{gid}/chance", {"outcome": 3, "expected_version": str(v)}),
        organiser.post("/games", {"game": "letter-of-marque", "seats": "2"}),
        organiser.post("/games", {"game": "letter-of-marque", "seats": 2.0}),
        organiser.post("/games", {"game": "letter-of-marque", "seats": 2, "table": "yes"}),
        organiser.post("/games", {"game": "letter-of-marque", "seats": 2, "table": 1}),
        organiser.post("/games", {"game": "letter-of-marque", "seats": 2, "wait_for_seats": "false"}),
        organiser.post("/games", {"game": "letter-of-marque", "seats": 2, "options": {"x": 1}}),
        organiser.post(f"/games/{gid}/fork", {"at_turn": "1"}),
        organiser.post(f"/games/{gid}/fork", {"at_event": True}),
        organiser.post(f"/games/{gid}/invitations", {"seat": True}),
        organiser.post(f"/games/{gid}/invitations", {"seat": 1, "player": 7}),
        public.post(f"/games/{gid}/seats/1/join", {"code": "x", "entropy": 12}),
        # not UTF-8 (a JSON text must be): refused as bad input, not as an unknown error
        s1.http.post(f"/games/{gid}/decisions", headers=json_post,
                     content=b'{"decision": {"action": "pla\xc3\x28"}, "expected_version": ' + str(v).encode() + b"}"),
        organiser.http.post("/games", headers=json_post, content=b'{"game": "\xff\xfe\xfa", "seats": 2}'),
        public.http.post(f"/games/{gid}/seats/1/join", headers=json_post, content=b'{"code": "\x80"}'),
    ]
    for r in cases:
        assert r.status_code == 400, (r.request.url, r.request.content, r.status_code, r.text)
        body = r.json()
        assert body["error"] == "bad_input" and body["reason"] and "\n" not in body["reason"], body
    assert snapshot(organiser, gid) == before
    assert public.status(gid)["seats_taken"] == [1, 2]


def raw_request(url: str, head: bytes, chunks=(), timeout: float = 5.0) -> tuple[int, bytes]:
    """Send a request by hand (its head, then these body chunks) and read the answer."""
    parts = urlsplit(url)
    with socket.create_connection((parts.hostname, parts.port), timeout=timeout) as s:
        s.sendall(head)
        for c in chunks:
            s.sendall(c)
        data = b""
        while b"\r\n\r\n" not in data or len(data.split(b"\r\n\r\n", 1)[1]) == 0:
            more = s.recv(65536)
            if not more:
                break
            data += more
    status = int(data.split(b" ", 2)[1])
    return status, data.split(b"\r\n\r\n", 1)[1]


def test_oversized_bodies_are_refused_unread(server, table_factory, organiser, public):
    t = table_factory("letter-of-marque", 2)
    gid = t.gid
    before = snapshot(organiser, gid)
    host = urlsplit(server.url).netloc.encode()
    # 100 MB announced, 10 bytes sent, no credential: 413 at once, the body never read
    t0 = time.monotonic()
    status, body = raw_request(server.url, b"POST /games/" + gid.encode() + b"/decisions HTTP/1.1\r\nHost: " + host +
                               b"\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n{\"decisi")
    assert status == 413 and b"too_large" in body and time.monotonic() - t0 < 3
    # chunked (no length): refused once the bytes received pass 64 KiB, before the end of the body
    chunk = b"%x\r\n%s\r\n" % (8192, b" " * 8192)
    status, body = raw_request(server.url, b"POST /games HTTP/1.1\r\nHost: " + host +
                               b"\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
                               b"Authorization: Bearer " + server.key.encode() + b"\r\n\r\n", [chunk] * 9)
    assert status == 413 and b"too_large" in body
    # an ordinary client sending 100 KiB: 413 with the error body, nothing appended
    big = {"decision": {"action": "place", "pad": "x" * 100_000}, "expected_version": 1}
    r = t.seats[1].post(f"/games/{gid}/decisions", big)
    assert r.status_code == 413 and r.json()["error"] == "too_large"
    r = organiser.post("/games", {"game": "letter-of-marque", "seats": 2, "name": "n" * 70_000})
    assert r.status_code == 413
    assert snapshot(organiser, gid) == before
    # just under the limit is read and judged on its merits
    r = organiser.post("/games", {"game": "letter-of-marque", "seats": 2, "name": "n" * 60_000})
    assert r.status_code == 400 and r.json()["error"] == "bad_input"


@pytest.fixture(scope="module")
def capped(tmp_path_factory):
    srv = ServerProcess(str(tmp_path_factory.mktemp("capped") / "c.db"),
                        env={"PRIVATEER_STREAM_MAX_EVENTS": "5", "PRIVATEER_STREAM_MAX_SECONDS": "1",
                             "PRIVATEER_MAX_BODY": "2048"}).start()
    yield srv
    srv.stop()


def test_stream_ends_at_its_caps(capped):
    org = Api(capped.url, capped.key)
    created = org.create("letter-of-marque", 2)
    gid, ref = created["game_id"], created["referee_key"]
    version = created["status"]["version"]
    assert version > 5
    msgs = read_stream(capped.url, gid, ref, timeout=60)
    evs = [m["data"]["version"] for m in msgs if m["event"] == "game-event"]
    assert evs == [1, 2, 3, 4, 5]
    assert msgs[-1] == {"event": "end", "id": None,
                        "data": {"version": 5, "finished": False, "reason": "event limit"}}
    # resume where it ended; at the head of an unfinished game it ends at the time cap (1 s, not 60)
    t0 = time.monotonic()
    after = version
    msgs = read_stream(capped.url, gid, ref, after=after, timeout=60)
    assert time.monotonic() - t0 < 5
    assert msgs[-1]["event"] == "end" and msgs[-1]["data"] == {"version": after, "finished": False,
                                                              "reason": "time limit"}
    # the body limit is configurable too
    r = org.post("/games", {"game": "letter-of-marque", "seats": 2, "name": "n" * 3000})
    assert r.status_code == 413 and "2048" in r.json()["reason"]
    org.close()


def test_anonymous_audit_is_served_from_cache(table_factory, public, organiser):
    def runs():
        return public.get("/health").json()["audit_runs"]

    t = table_factory("letter-of-marque", 2)
    start = runs()
    first = public.get(f"/games/{t.gid}/audit").json()
    assert first["ok"] and runs() == start + 1
    for client in (public, public, t.seats[1], t.seats[2]):  # same head: no re-run
        assert client.get(f"/games/{t.gid}/audit").json() == first
    assert runs() == start + 1
    # a new head: one run, even for callers asking at once
    v = public.status(t.gid)["version"]
    assert t.seats[1].decide(t.gid, {"action": "place", "armed": True}, v).status_code == 201
    clients = [Api(public.http.base_url) for _ in range(4)]
    rs = race([lambda c=c: c.get(f"/games/{t.gid}/audit") for c in clients])
    assert {r.status_code for r in rs} == {200} and len({r.text for r in rs}) == 1
    assert rs[0].json()["events"] > first["events"]
    assert runs() == start + 2
    # the referee always gets a fresh run
    for client in (t.referee, organiser):
        assert client.get(f"/games/{t.gid}/audit").json()["ok"]
    assert runs() == start + 4
    for c in clients:
        c.close()

"""``tools serve`` logs every request (method, path without its query string,
status, ms), a refusal's kind and reason, a failure with its traceback; never
a token (service/http/requestlog.py, service/logs.py)."""

from __future__ import annotations

import json
import logging

from fastapi.testclient import TestClient

from service.http.app import create_app
from service.http.client import Api, ServerProcess

KEY = "org-request-log-test"


def test_tools_serve_logs_each_request_as_a_json_line_without_a_token(tmp_path):
    srv = ServerProcess(str(tmp_path / "log.db"), env={"PRIVATEER_LOG_FORMAT": "json",
                                                       "PRIVATEER_BOT_QUANTUM": "0"}).start()
    try:
        org = Api(srv.url, srv.key)
        gid = org.create("letter-of-marque", 3)["game_id"]
        token = Api(srv.url).join(gid, 1, org.invite(gid, 1))["token"]
        seat = Api(srv.url, token)
        assert seat.get(f"/games/{gid}", params={"token": token, "then": "[1]"}).status_code == 200
        assert seat.get(f"/games/{gid}/awaited").status_code == 403  # a refusal
        assert Api(srv.url).get("/games/0123456789abcdef0123456789abcdef").status_code == 404
        for api in (org, seat):
            api.close()
    finally:
        srv.stop()
    text = b"".join(srv.stderr_lines()).decode(errors="replace")
    assert srv.key not in text and token not in text and "Bearer" not in text
    lines = [json.loads(s) for s in text.splitlines() if s.startswith("{")]
    requests = [r for r in lines if r["logger"] == "service.http.requestlog"]
    read = [r for r in requests if r["path"] == f"/games/{gid}" and r["method"] == "GET"]
    assert read and read[-1]["status"] == 200 and read[-1]["game_id"] == gid and read[-1]["level"] == "INFO"
    assert isinstance(read[-1]["ms"], (int, float))
    assert not [r for r in requests if "?" in r["path"] or "token" in r["path"]]
    [refused] = [r for r in requests if r["path"] == f"/games/{gid}/awaited"]
    assert refused["status"] == 403 and refused["error"] == "forbidden" and refused["reason"]
    [unknown] = [r for r in requests if r["status"] == 404]
    assert unknown["error"] == "unknown_game"


def test_a_failure_is_logged_with_its_traceback_and_a_rules_refusal_without_its_reason(tmp_path, caplog,
                                                                                       monkeypatch):
    caplog.set_level(logging.INFO, logger="service")
    org = {"Authorization": f"Bearer {KEY}"}
    with TestClient(create_app(str(tmp_path / "f.db"), KEY), raise_server_exceptions=False) as client:
        gid = client.post("/games", json={"game": "letter-of-marque", "seats": 3}, headers=org).json()["game_id"]
        code = client.post(f"/games/{gid}/invitations", json={"seat": 1}, headers=org).json()["code"]
        token = client.post(f"/games/{gid}/seats/1/join", json={"code": code}).json()["token"]
        seat = {"Authorization": f"Bearer {token}"}
        version = client.get(f"/games/{gid}", headers=seat).json()["version"]
        refused = client.post(f"/games/{gid}/decisions", json={"decision": {"no": "such"}, "expected_version": version},
                              headers=seat)
        assert refused.status_code == 422, refused.text

        def boom(*_a, **_kw):
            raise RuntimeError("injected")

        monkeypatch.setattr(client.app.state.service.reads, "status", boom)
        for path in (f"/games/{gid}", f"/games/{gid}?view=1"):  # the play loop's fast path, and the route
            assert client.get(path, headers=seat).status_code == 500
    lines = [r for r in caplog.records if r.name == "service.http.requestlog"]
    failed = [r for r in lines if r.status == 500]
    assert len(failed) == 2 and all(r.levelno == logging.ERROR and r.game_id == gid for r in failed)
    tracebacks = [r for r in caplog.records if r.name == "service.http.errors" and r.exc_info]
    assert len(tracebacks) == 2 and all(r.exc_info[0] is RuntimeError for r in tracebacks)
    [rules] = [r for r in lines if r.path == f"/games/{gid}/decisions"]
    assert rules.error in ("illegal", "not_your_turn") and "withheld" in rules.reason
    assert not [r for r in caplog.records if token in r.getMessage() or token in str(vars(r))]

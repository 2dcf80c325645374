"""Every answer carries the security headers (service/http/headers.py): the pages, their
files, the API's JSON, the docs, refusals (a 404, a body over the limit) and the fast
path's answers; the policy runs only the service's own files."""

from __future__ import annotations

import httpx
import pytest

from service.http.headers import CSP

HTML = {"Accept": "text/html"}
PAGES = ["/organiser", "/join/{gid}/1", "/play/{gid}/1", "/referee/{gid}", "/games/{gid}/view", "/standings",
         "/docs", "/games/00000000000000000000000000000000/view"]
OTHER = ["/pages-assets/pages.js", "/pages-assets/pages.css", "/pages-assets/docs.js", "/viewer-assets/viewer.js",
         "/viewer-assets/viewer.css", "/docs-assets/swagger-ui-bundle.js", "/openapi.json", "/health", "/rules",
         "/games", "/games/{gid}", "/games/{gid}/log", "/games/{gid}/picture", "/games/nope"]


def _check(r: httpx.Response) -> None:
    h = r.headers
    assert h.get("content-security-policy") == CSP, (r.request.url, dict(h))
    assert h.get("x-frame-options") == "DENY"
    assert h.get("x-content-type-options") == "nosniff"
    assert h.get("referrer-policy") == "no-referrer"


@pytest.fixture(scope="module")
def gid(server):
    org = httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {server.key}"})
    gid = org.post("/games", json={"game": "loot", "seats": 2}).json()["game_id"]
    org.close()
    return gid


@pytest.mark.parametrize("path", PAGES)
def test_every_page_carries_the_headers(server, gid, path):
    r = httpx.get(server.url + path.format(gid=gid), headers=HTML)
    assert r.headers["content-type"].startswith("text/html")
    _check(r)


@pytest.mark.parametrize("path", OTHER)
def test_files_and_api_answers_carry_them_too(server, gid, path):
    _check(httpx.get(server.url + path.format(gid=gid)))


def test_refusals_and_the_fast_path_carry_them(server, gid):
    big = httpx.post(f"{server.url}/games/{gid}/decisions", content=b"x" * (70 * 1024),
                     headers={"Content-Type": "application/json"})
    assert big.status_code == 413
    _check(big)
    no_token = httpx.post(f"{server.url}/games/{gid}/decisions", json={"decision": {}, "expected_version": 1})
    assert no_token.status_code == 401
    _check(no_token)


def test_the_policy_allows_only_the_services_own_files():
    rules = dict(part.strip().split(" ", 1) for part in CSP.split(";"))
    assert rules["script-src"] == "'self'" and rules["style-src"] == "'self'"  # no inline script or style, no eval
    assert rules["default-src"] == "'self'" and rules["object-src"] == "'none'"
    assert rules["frame-ancestors"] == "'none'"

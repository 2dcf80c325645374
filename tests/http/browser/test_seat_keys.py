"""A seat signs its own decisions in its browser (spec/SPEC.md §6a): the join page makes the
seat's Ed25519 key with WebCrypto (kept in IndexedDB, not extractable) and registers its public
half; the seat's page signs every decision it sends. The export then verifies each decision's
seat signature; the operator, who holds the store and the service's key, writes another decision
in the seat's name and re-signs every head: `tools verify` names that step, not signed by the seat."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from uuid import UUID

from service.http.client import Api
from tests.evidence.forgery import operator_rewrite

from .pw import choose, needs_chromium, state

pytestmark = needs_chromium


def _tools(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tools", *args], capture_output=True, text=True)


def test_a_seat_page_signs_its_decisions_and_the_operators_forgery_is_named(browser, server, organiser,
                                                                           tmp_path) -> None:
    created = organiser.create("letter-of-marque", 2)
    gid = created["game_id"]
    referee = Api(server.url, created["referee_key"])
    other = Api(server.url, Api(server.url).join(gid, 2, organiser.invite(gid, 2))["token"])
    ctx = browser.new_context(viewport={"width": 1600, "height": 900})
    page = ctx.new_page()
    page.goto(f"{server.url}/join/{gid}/1#code={organiser.invite(gid, 1)}&player=Ada")
    page.wait_for_url(re.compile(r"/play/[0-9a-f]{32}/1$"))
    page.wait_for_selector("body[data-state]")
    log = referee.get(f"/games/{gid}/log", params={"limit": 1000}).json()["events"]
    keys = [e for e in log if e["type"] == "SeatKeyRegistered"]
    assert [e["data"]["seat"] for e in keys] == [1] and len(keys[0]["data"]["key"]) == 64
    # the private key stays in the browser, not extractable
    assert page.evaluate("""async () => {
        const d = await new Promise((ok) => { const r = indexedDB.open("privateer-seat-keys", 1);
                                              r.onsuccess = () => ok(r.result); });
        const e = await new Promise((ok) => { const r = d.transaction("keys").objectStore("keys").get(location.pathname.split("/")[2] + ":1");
                                              r.onsuccess = () => ok(r.result); });
        return e.registered && e.keys.privateKey.extractable === false && e.keys.privateKey.algorithm.name === "Ed25519";
    }""")
    def decided_by_1() -> list[dict]:
        log = referee.get(f"/games/{gid}/log", params={"limit": 1000}).json()["events"]
        return [e for e in log if e["type"] == "Decided" and e["data"]["seat"] == 1]

    for _ in range(60):
        if len(decided_by_1()) >= 3:
            break
        st = referee.get(f"/games/{gid}").json()
        assert not st["finished"]
        if 2 in st["to_act"]:  # seat 2 plays from its own client, unsigned (it has no key)
            legal = other.legal(gid)
            assert other.decide(gid, legal["decisions"][0], legal["version"]).status_code == 201
            continue
        page.wait_for_selector("body[data-state=choose]", timeout=15000)
        choose(page)
    assert len(decided_by_1()) >= 3 and page.inner_text("#refusal") == ""
    # the referee's log: every decision of seat 1 carries its signature; seat 2's reads never do
    log = referee.get(f"/games/{gid}/log", params={"limit": 1000}).json()["events"]
    sigs = [e["data"]["signature"] for e in log if e["type"] == "Decided" and e["data"]["seat"] == 1]
    assert len(sigs) >= 3 and all(len(s) == 128 for s in sigs)
    seen_by_2 = other.get(f"/games/{gid}/log", params={"limit": 1000}).text
    assert not any(s in seen_by_2 for s in sigs)

    # the export verifies each decision's seat signature, with the service's published key
    good = str(tmp_path / "good.pgame")
    assert _tools("export", gid, "-o", good, "--db", server.db).returncode == 0
    public = server_key = json.loads(_tools("key", "--json", "--db", server.db).stdout)["public_key"]
    p = _tools("verify", good, "--key", server_key)
    assert p.returncode == 0, p.stdout + p.stderr
    assert f"{len(sigs)} decisions signed by their seats" in p.stdout

    # the operator writes another decision in seat 1's name and re-signs every head
    stored = _tools("log", gid, "--json", "--db", server.db)
    events = json.loads(stored.stdout)
    events = events["events"] if isinstance(events, dict) else events
    target = [e for e in events if e["type"] == "Decided" and e["data"]["seat"] == 1][1]["version"]
    operator_rewrite(server.db, UUID(gid), target,
                     lambda data: data.__setitem__("decision", {"action": "forged", "by": "the operator"}))
    forged = str(tmp_path / "forged.pgame")
    assert _tools("export", gid, "-o", forged, "--db", server.db).returncode == 0
    p = _tools("verify", forged, "--key", public, "--json")
    assert p.returncode == 1, p.stdout + p.stderr
    bad = json.loads(p.stdout)["first_bad"]
    assert bad["version"] == target and "not signed by seat 1" in bad["reason"], bad
    assert state(page) is not None
    ctx.close()
    referee.close()
    other.close()

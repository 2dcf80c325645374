"""The referee's page signs what the referee enters (spec/SPEC.md §9a): it offers to make the
referee's Ed25519 key with WebCrypto (kept in this browser's IndexedDB, not extractable) and
registers its public half; from then on every entry it sends that the service checks (a seat's
decision entered for it, a note, an undone entry, an undone step) carries the referee's signature
over the version and head it was made at. The export verifies with every one of them counted, by
`tools verify` and spec/verify.py alike; an entry posted without a signature is refused. The page
runs under its Content-Security-Policy and fits a phone's width (420 px)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from uuid import UUID

from bench.golden import entered_at_random
from service.app import Privateer
from service.http.client import Api

from .pw import needs_chromium, state
from .test_security_policy import WATCH

pytestmark = needs_chromium
VERIFY = Path(__file__).resolve().parents[3] / "spec" / "verify.py"


def _tools(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tools", *args], capture_output=True, text=True, timeout=300)


def _moved(page, before: str | None) -> None:
    page.wait_for_function(f"() => document.body.dataset.version !== {before!r}", timeout=15000)


def enter_awaited(page) -> None:
    """What the table awaits, clicked (the first thing offered, until nothing more is awaited) and sent."""
    for _ in range(60):
        if "Nothing more is awaited" in page.inner_text("#status"):
            break
        queued = page.evaluate("document.getElementById('queue').textContent")
        page.locator("#awaited button").first.click()
        page.wait_for_function(f"() => document.getElementById('queue').textContent !== {queued!r} || "
                               "document.getElementById('status').innerText.includes('Nothing more is awaited')")
    before = page.get_attribute("body", "data-version")
    page.click("#send")
    _moved(page, before)
    assert page.inner_text("#refusal") == ""


def confirm(page) -> None:
    before = page.get_attribute("body", "data-version")
    page.click("#confirm-yes")
    _moved(page, before)
    assert page.inner_text("#refusal") == "", page.inner_text("#refusal")


def test_the_referee_page_makes_its_key_and_signs_every_entry(browser, server, organiser, tmp_path) -> None:
    created = organiser.create("letter-of-marque", 2, table=True)
    gid, key = created["game_id"], created["referee_key"]
    referee = Api(server.url, key)
    ctx = browser.new_context(viewport={"width": 420, "height": 900})
    ctx.add_init_script(WATCH)
    page = ctx.new_page()
    page.goto(f"{server.url}/referee/{gid}#key={key}")
    page.wait_for_selector("body[data-signing=unsigned]")
    assert page.is_visible("#make-key")

    # the setup's outcomes first (a key is registered between steps), then the key, made and registered
    while state(page) == "chance":
        enter_awaited(page)
    page.wait_for_selector("body[data-state=decide]")
    page.click("#make-key")
    page.wait_for_selector("body[data-signing=signed]")
    assert not page.is_visible("#make-key") and "signed with your key" in page.inner_text("#signing-status")
    log = referee.get(f"/games/{gid}/log", params={"limit": 1000}).json()["events"]
    registered = [e for e in log if e["type"] == "RefereeKeyRegistered"]
    assert len(registered) == 1 and len(registered[0]["data"]["key"]) == 64
    assert page.evaluate("""async () => {
        const d = await new Promise((ok) => { const r = indexedDB.open("privateer-seat-keys", 1);
                                              r.onsuccess = () => ok(r.result); });
        const e = await new Promise((ok) => { const r = d.transaction("keys").objectStore("keys")
                                                         .get(location.pathname.split("/")[2] + ":referee");
                                              r.onsuccess = () => ok(r.result); });
        return e.keys.privateKey.extractable === false && e.keys.privateKey.algorithm.name === "Ed25519";
    }""")

    # the seats' decisions and the outcomes they await, entered on the page
    decided = 0
    undone_entry = False
    for _ in range(80):
        if decided >= 6 and undone_entry:
            break
        if state(page) == "chance":
            enter_awaited(page)
            if not undone_entry and not page.is_disabled("#undo-entry"):  # an outcome of this step, taken back
                page.fill("#reason", "  the die was read upside down ")
                page.click("#undo-entry")
                confirm(page)
                undone_entry = True
            continue
        assert state(page) == "decide", state(page)
        page.locator("#decisions button.choice").first.click()
        confirm(page)
        decided += 1
    assert decided >= 6 and undone_entry

    # a note, and the last step undone with a reason
    page.fill("#note", "Seat 2 asked to see the rules of boarding.")
    page.click("#add-note")
    confirm(page)
    while state(page) == "chance":
        enter_awaited(page)
    assert not page.is_disabled("#undo")
    page.fill("#reason", "the seat took its move back before the dice")
    page.click("#undo")
    confirm(page)
    assert page.inner_text("#refusal") == ""

    # every entry after the key carries the referee's signature, checked against the key it registered
    log = referee.get(f"/games/{gid}/log", params={"limit": 1000}).json()["events"]
    at = next(e["version"] for e in log if e["type"] == "RefereeKeyRegistered")
    entries = [e for e in log if e["type"] == "Decided" and e["version"] > at]
    kinds = {json.dumps(e["data"]["decision"].get("referee")) for e in entries}
    assert {'"note"', '"correct"', "null"} <= kinds, kinds
    assert len(entries) >= 9 and all(len(e["data"].get("referee_signature") or "") == 128 for e in entries)

    # posted without its signature (or with another's), an entry is refused, nothing appended
    aw = referee.get(f"/games/{gid}/awaited").json()
    assert aw["awaiting"] is None and not aw["finished"] and aw["referee_key"] == registered[0]["data"]["key"]
    seat = aw["to_act"][0]
    decision = referee.get(f"/games/{gid}/choices", params={"seat": seat}).json()["choices"][0]["decision"]
    for extra in ({}, {"referee_signature": entries[-1]["data"]["referee_signature"]}):
        r = referee.post(f"/games/{gid}/decisions", {"decision": decision, "expected_version": aw["version"],
                                                     "seat": seat, **extra})
        assert r.status_code == 403 and r.json()["error"] == "not_signed", r.text
        r = referee.post(f"/games/{gid}/referee", {"decision": {"referee": "note", "text": "unsigned"},
                                                   "expected_version": aw["version"], **extra})
        assert r.status_code == 403 and r.json()["error"] == "not_signed", r.text
    assert referee.get(f"/games/{gid}/awaited").json()["version"] == aw["version"]

    # the export verifies, each of the referee's signatures counted, by tools verify and spec/verify.py
    signed = sum(1 for e in referee.get(f"/games/{gid}/log", params={"limit": 1000}).json()["events"]
                 if e["type"] == "Decided" and "referee_signature" in e["data"])
    assert signed == len(entries)
    out = str(tmp_path / "refereed.pgame")
    assert _tools("export", gid, "-o", out, "--db", server.db).returncode == 0
    service_key = json.loads(_tools("key", "--json", "--db", server.db).stdout)["public_key"]
    p = _tools("verify", out, "--key", service_key)
    assert p.returncode == 0, p.stdout + p.stderr
    assert f"{signed} entries signed by the referee" in p.stdout
    p = subprocess.run([sys.executable, str(VERIFY), out, "--key", service_key, "--json"], capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 0 and f"{signed} entries signed by the referee" in json.loads(p.stdout)["checked"], p.stdout

    # under the policy (no inline script ran or was refused) and within a phone's width
    assert page.evaluate("window.__refused") == []
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    ctx.close()
    referee.close()


def test_a_ruling_entered_on_the_page_is_signed(browser, server, organiser) -> None:
    """A ruling the rules name (Merchants & Marauders: an NPC's move overruled), clicked among the
    penalties, carries the referee's signature as every other entry does."""
    created = organiser.create("merchants-and-marauders", 2, table=True)
    gid, key = created["game_id"], created["referee_key"]
    app = Privateer(server.db)
    try:
        rng = random.Random(3)
        for _ in range(5000):  # played on in the store until a ruling is open, between steps
            m = app.load(UUID(gid)).machine
            assert not m.finished
            if m.kernel_state["awaiting"] is not None:
                app.enter_chance(UUID(gid), entered_at_random(m.kernel_state["awaiting"], rng))
                continue
            if m.rules.referee_legal(m.state):
                break
            seat = m.to_act()[0]
            app.act(UUID(gid), seat, rng.choice(m.legal(seat)))
    finally:
        app.close()
    ctx = browser.new_context(viewport={"width": 420, "height": 900})
    page = ctx.new_page()
    page.goto(f"{server.url}/referee/{gid}#key={key}")
    page.wait_for_selector("body[data-signing=unsigned]")
    page.click("#make-key")
    page.wait_for_selector("body[data-signing=signed]")
    page.locator("#penalties button").first.click()
    confirm(page)
    referee = Api(server.url, key)
    log = referee.get(f"/games/{gid}/log", params={"limit": 1000}).json()["events"]
    ruled = [e for e in log if e["type"] == "Decided" and e["data"]["seat"] == 0
             and (e["data"]["decision"] or {}).get("referee") not in (None, "note", "correct")]
    assert len(ruled) == 1 and len(ruled[0]["data"]["referee_signature"]) == 128, ruled
    referee.close()
    ctx.close()

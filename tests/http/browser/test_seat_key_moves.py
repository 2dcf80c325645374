"""A seat moves to another device (spec/SPEC.md §6a): its key never leaves the browser that made
it, so the new device makes a key and shows its transfer code, and the old device's key signs
the seat over to it (a public SeatKeyRegistered with the handover). The new device then plays
signed; the old one signs no more; the export verifies every decision with the key in force."""

from __future__ import annotations

import json
import re
import subprocess
import sys

from service.http.client import Api

from .pw import choose, needs_chromium, open_seat

pytestmark = needs_chromium


def test_a_seat_hands_itself_over_to_a_new_device(browser, server, organiser, tmp_path) -> None:
    created = organiser.create("letter-of-marque", 2)
    gid = created["game_id"]
    referee = Api(server.url, created["referee_key"])
    other = Api(server.url, Api(server.url).join(gid, 2, organiser.invite(gid, 2))["token"])
    old_ctx = browser.new_context(viewport={"width": 1600, "height": 900})
    old = old_ctx.new_page()
    old.goto(f"{server.url}/join/{gid}/1#code={organiser.invite(gid, 1)}&player=Ada")
    old.wait_for_url(re.compile(r"/play/[0-9a-f]{32}/1$"))
    old.wait_for_selector("body[data-state]")
    token = old.evaluate(f"() => localStorage.getItem('privateer:seat:{gid}:1')")

    def keys() -> list[dict]:
        log = referee.get(f"/games/{gid}/log", params={"limit": 1000}).json()["events"]
        return [e["data"] for e in log if e["type"] == "SeatKeyRegistered"]

    assert len(keys()) == 1
    new = open_seat(browser, server, gid, 1, token)
    new.click("#receive")
    new.wait_for_selector("#transfer-code[data-code]")
    code = new.get_attribute("#transfer-code", "data-code")
    assert re.fullmatch(r"[0-9a-f]{64}", code) and code != keys()[0]["key"]
    old.fill("#handover-code", code)
    old.click("#hand-over")
    old.wait_for_selector("#device-status[data-done]")
    assert old.get_attribute("#device-status", "data-done") == "yes", old.inner_text("#device-status")
    assert [k["key"] for k in keys()] == [keys()[0]["key"], code] and len(keys()[1]["handover"]) == 128
    new.reload()
    new.wait_for_selector("body[data-state]")

    def decided_by_1() -> list[dict]:
        log = referee.get(f"/games/{gid}/log", params={"limit": 1000}).json()["events"]
        return [e for e in log if e["type"] == "Decided" and e["data"]["seat"] == 1]

    for _ in range(60):
        if len(decided_by_1()) >= 2:
            break
        st = referee.get(f"/games/{gid}").json()
        assert not st["finished"]
        if 2 in st["to_act"]:
            legal = other.legal(gid)
            assert other.decide(gid, legal["decisions"][0], legal["version"]).status_code == 201
            continue
        new.wait_for_selector("body[data-state=choose]", timeout=15000)
        choose(new)
    assert len(decided_by_1()) >= 2 and new.inner_text("#refusal") == ""
    assert len(keys()) == 2  # the new device registered nothing more: its key was handed the seat
    # the export verifies each of seat 1's decisions with the key in force then
    out = str(tmp_path / "moved.pgame")
    tools = [sys.executable, "-m", "tools"]
    assert subprocess.run([*tools, "export", gid, "-o", out, "--db", server.db]).returncode == 0
    public = json.loads(subprocess.run([*tools, "key", "--json", "--db", server.db], capture_output=True,
                                       text=True).stdout)["public_key"]
    p = subprocess.run([*tools, "verify", out, "--key", public], capture_output=True, text=True)
    assert p.returncode == 0 and "decisions signed by their seats" in p.stdout, p.stdout + p.stderr
    old_ctx.close()
    new.context.close()
    referee.close()
    other.close()

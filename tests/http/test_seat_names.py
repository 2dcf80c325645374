"""Names are part of the record: a 4-player game over HTTP whose players are
named only on their invitations, played to the end, lists the four names in
/standings and `tools standings`; each name is a public ``SeatNamed`` event of
the game, in its log, the games list, its record and its export."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import httpx

from service.http.client import Api

from .helpers import play

NAMES = {1: "Ada", 2: "Bo", 3: "Cy", 4: "Di"}


def test_names_on_invitations_reach_the_log_the_record_and_the_standings(server, organiser, public, tmp_path):
    gid = organiser.create("loot", 4, tournament="names-36")["game_id"]
    seats = {}
    for n, name in NAMES.items():
        code = organiser.invite(gid, n, player=name)
        seats[n] = Api(server.url, public.join(gid, n, code)["token"])

    class T:
        pass

    t = T()
    t.gid, t.seats = gid, seats
    play(t, public, random.Random(36))
    for c in seats.values():
        c.close()

    log = public.get(f"/games/{gid}/log", params={"limit": 1000}).json()["events"]
    named = [e for e in log if e["type"] == "SeatNamed"]
    assert [(e["data"]["seat"], e["data"]["player"]) for e in named] == list(NAMES.items())
    assert [e["text"] for e in named] == [f"{p} takes seat {s}" for s, p in NAMES.items()]
    assert any(e["text"].startswith("seat 2 (Bo)") for e in log)
    assert public.status(gid)["players"] == {str(s): p for s, p in NAMES.items()}
    assert organiser.get(f"/games/{gid}/audit").json()["ok"]

    rows = httpx.get(server.url + "/standings", params={"tournament": "names-36"}).json()
    assert {r["player"] for r in rows if r["game"] == "loot"} == set(NAMES.values())
    page = httpx.get(server.url + "/standings", params={"tournament": "names-36"}, headers={"Accept": "text/html"})
    assert all(name in page.text for name in NAMES.values())

    env = dict(os.environ, PRIVATEER_DB=server.db)

    def tools(*args):
        p = subprocess.run([sys.executable, "-m", "tools", *args], capture_output=True, text=True, env=env,
                           timeout=300)
        assert p.returncode == 0, p.stderr
        return p.stdout

    listed = json.loads(tools("standings", "--tournament", "names-36", "--json"))
    assert {r["player"] for r in listed if r["game"] == "loot"} == set(NAMES.values())
    games = {g["game_id"]: g for g in json.loads(tools("games", "--json"))}
    assert games[gid]["players"] == {str(s): p for s, p in NAMES.items()}
    # the record carries each name as a line of its own, and imports back to the same history
    record = tools("record", gid)
    assert [line for line in record.splitlines() if line.startswith("name ")] == \
        [f"name {s} {p}" for s, p in NAMES.items()]
    path = tmp_path / "g.record"
    path.write_text(record)
    other = str(tmp_path / "other.db")
    copy = tools("import", str(path), "--db", other).strip()
    again = json.loads(tools("log", copy, "--db", other, "--json"))
    assert [(e["type"], e["data"]) for e in again] == [(e["type"], e["data"]) for e in
                                                      organiser.get(f"/games/{gid}/log", params={"limit": 1000}).json()["events"]]
    # the export holds the events: imported elsewhere, the names come with them
    tools("export", gid, "-o", str(tmp_path / "g.pgame"))
    third = str(tmp_path / "third.db")
    imported = tools("import", str(tmp_path / "g.pgame"), "--db", third).strip()
    st = json.loads(tools("status", imported, "--db", third, "--json"))
    assert st["players"] == {str(s): p for s, p in NAMES.items()}

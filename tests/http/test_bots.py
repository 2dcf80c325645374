"""Bots in seats over HTTP: the organiser seats a bot at creation (or later, in a
waiting game), the service plays its turns through the path a person's decision
takes, and a person plays a whole game against it; refusals for bad names and
seats, and no one can act with a bot's seat."""

from __future__ import annotations

import json
import os
import random
import time
import uuid

from service.http.client import Api, ServerProcess

from ..needs import drop_schema, schema_url
from .conftest import QUICK_BOTS


def _wait_for(public, gid, ready, seconds=60.0):
    deadline = time.monotonic() + seconds
    while True:
        st = public.status(gid)
        if ready(st):
            return st
        assert time.monotonic() < deadline, f"waited {seconds}s: {st}"
        time.sleep(0.02)


def _play_as(seat: int, client: Api, public: Api, gid: str, rng: random.Random) -> int:
    """``seat`` plays at random whenever it acts, until the game ends; the bot plays the rest."""
    mine = 0
    while True:
        st = _wait_for(public, gid, lambda s: s["finished"] or seat in s["to_act"])
        if st["finished"]:
            return mine
        legal = client.legal(gid)
        if seat not in legal["to_act"]:
            continue
        r = client.decide(gid, rng.choice(legal["decisions"]), legal["version"], key=uuid.uuid4().hex)
        assert r.status_code in (201, 409), r.text
        mine += r.status_code == 201
        assert mine < 5000


def test_a_person_plays_a_bot_to_the_end(server, organiser, public):
    created = organiser.create("letter-of-marque", 2, bots={"2": "ismcts"}, players={"1": "Ada"})
    gid = created["game_id"]
    assert created["status"]["seats_taken"] == [2]
    assert created["status"]["players"] == {"1": "Ada", "2": "ismcts (bot)"}
    ada = Api(server.url, Api(server.url).join(gid, 1, organiser.invite(gid, 1))["token"])
    mine = _play_as(1, ada, public, gid, random.Random(1))
    st = public.status(gid)
    assert st["finished"] and mine > 0
    log, after = [], 0
    while after is not None:
        page = organiser.get(f"/games/{gid}/log", params={"after": after, "limit": 1000}).json()
        log, after = log + page["events"], page["next_after"]
    decided = {e["data"]["seat"] for e in log if e["type"] == "Decided"}
    assert decided - {0} == {1, 2}  # (0: the rules' own steps) the bot played its turns, on the record like anyone's
    assert public.get(f"/games/{gid}/audit").json()["ok"]
    ada.close()


def test_a_bot_seated_in_a_waiting_game_starts_it_with_the_last_seat(server, organiser, public):
    created = organiser.create("loot", 2, wait_for_seats=True)
    gid, referee = created["game_id"], Api(server.url, created["referee_key"])
    seat1 = Api(server.url, Api(server.url).join(gid, 1, organiser.invite(gid, 1))["token"])
    assert not public.status(gid)["started"]
    st = referee.ok(referee.post(f"/games/{gid}/seats/2/bot", {"bot": "random"}), 201)
    assert st["started"] and st["seats_taken"] == [1, 2] and st["players"]["2"] == "random (bot)"
    _play_as(1, seat1, public, gid, random.Random(2))
    assert public.status(gid)["finished"]
    for c in (referee, seat1):
        c.close()


def test_refusals(server, organiser, public, table_factory):
    bad = organiser.post("/games", {"game": "loot", "seats": 2, "bots": {"2": "chess-engine"}})
    assert bad.status_code == 400 and "no bot 'chess-engine' for loot" in bad.json()["reason"]
    assert "ismcts" in bad.json()["reason"]
    assert organiser.post("/games", {"game": "loot", "seats": 2, "bots": {"3": "random"}}).status_code == 400
    t = table_factory("loot", 2)
    taken = organiser.post(f"/games/{t.gid}/seats/2/bot", {"bot": "random"})
    assert taken.status_code == 409
    assert public.post(f"/games/{t.gid}/seats/2/bot", {"bot": "random"}).status_code == 401
    assert t.seats[1].post(f"/games/{t.gid}/seats/2/bot", {"bot": "random"}).status_code == 403
    # a bot's seat takes no invitation, and no person acts for it
    created = organiser.create("loot", 2, bots={"2": "random"})
    assert organiser.post(f"/games/{created['game_id']}/invitations", {"seat": 2}).status_code == 409
    rules = {k["game"]: k for k in public.get("/rules").json()}
    assert "ismcts" in rules["loot"]["bots"] and "random" in rules["loot"]["bots"]


def test_a_bot_on_postgresql_with_two_workers_plays_once_per_turn(postgresql):
    """Two server processes on one PostgreSQL schema: each hears the other's commits and may play
    the bot; the version check lets one decision through, and the game ends audited."""
    schema = f"bots_{uuid.uuid4().hex[:12]}"
    try:
        with ServerProcess(schema_url(schema), workers=2, env=QUICK_BOTS) as srv:
            org, public = Api(srv.url, srv.key), Api(srv.url)
            gid = org.create("letter-of-marque", 2, bots={"1": "random"})["game_id"]
            me = Api(srv.url, Api(srv.url).join(gid, 2, org.invite(gid, 2))["token"])
            _play_as(2, me, public, gid, random.Random(4))
            assert public.status(gid)["finished"]
            assert org.get(f"/games/{gid}/audit").json()["ok"]
            for c in (org, public, me):
                c.close()
    finally:
        drop_schema(schema)


def test_a_bot_at_a_table_waits_for_the_referee_then_plays(server, organiser, public):
    """Table mode: the bot acts once the referee has entered what the table shows, never before."""
    created = organiser.create("loot", 2, table=True, bots={"2": "random"})
    gid, referee = created["game_id"], Api(server.url, created["referee_key"])
    assert public.status(gid)["awaiting_chance"] is not None  # the dealer: nothing for the bot to do
    words: list = [1]  # seat 1 deals, so seat 2 (the bot) plays first
    while True:
        awaiting = referee.get(f"/games/{gid}/awaited", params={"then": json.dumps(words)}).json()["awaiting"]
        if awaiting is None or awaiting["kind"] != "card":
            break
        words.append(awaiting["left"][len(words) % len(awaiting["left"])]["say"])
    v = referee.status(gid)["version"]
    dealt = referee.ok(referee.post(f"/games/{gid}/chance", {"words": words, "expected_version": v}), 201)
    assert dealt["to_act"] == [2]
    st = _wait_for(referee, gid, lambda s: s["version"] > dealt["version"])
    log = referee.get(f"/games/{gid}/log", params={"after": dealt["version"]}).json()["events"]
    assert log[0]["type"] == "Decided" and log[0]["data"]["seat"] == 2, log[0]
    assert st["to_act"] == [1] or st["awaiting_chance"] is not None
    referee.close()


def _descendants(pid: int) -> list[str]:
    """The command lines of a process's descendants (Linux /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
            children.setdefault(ppid, []).append(int(entry))
    out, todo = [], list(children.get(pid, []))
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/cmdline", "rb") as f:
                out.append(f.read().replace(b"\0", b" ").decode())
        except OSError:
            continue
        todo += children.get(p, [])
    return out


def test_a_served_mm_bot_searches_in_worker_processes(server, organiser, public):
    created = organiser.create("merchants-and-marauders", 2, bots={"2": "ismcts"}, players={"1": "Ada"})
    gid = created["game_id"]
    ada = Api(server.url, Api(server.url).join(gid, 1, organiser.invite(gid, 1))["token"])
    rng = random.Random(2)
    bot_decisions = 0
    while bot_decisions < 12:
        st = _wait_for(public, gid, lambda s: s["finished"] or 1 in s["to_act"])
        assert not st["finished"]
        legal = ada.legal(gid)
        if 1 in legal["to_act"]:
            r = ada.decide(gid, rng.choice(legal["decisions"]), legal["version"], key=uuid.uuid4().hex)
            assert r.status_code in (201, 409), r.text
        log = organiser.get(f"/games/{gid}/log", params={"after": 0, "limit": 1000}).json()["events"]
        bot_decisions = sum(e["type"] == "Decided" and e["data"]["seat"] == 2 for e in log)
    assert server.proc is not None
    workers = [c for c in _descendants(server.proc.pid) if "multiprocessing" in c]
    assert any("forkserver" in c for c in workers), workers  # the split searches' pool started
    assert public.get(f"/games/{gid}/audit").json()["ok"]

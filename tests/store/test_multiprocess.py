"""Several OS processes on one database.

* Two real ``tools serve`` processes on one PostgreSQL database (and, for good
  measure, on one SQLite file), clients playing the same games through both,
  every decision sent to both servers at once: exactly one is appended, the
  other gets 409; no event lost, duplicated or reordered; ``tools audit --all``
  clean afterwards.
* A writer process killed (SIGKILL) in the middle of writing: every game
  audits clean and holds every decision that was acknowledged.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from uuid import UUID

import pytest

from service.http.client import Api, ServerProcess

from .helpers import versions

GAMES = 4


def _race(api1: Api, api2: Api, gid: str, decision: dict, version: int):
    """The same decision, same expected version, through both servers at once."""
    barrier = threading.Barrier(2)

    def send(api):
        barrier.wait()
        return api.post(f"/games/{gid}/decisions", {"decision": decision, "expected_version": version})

    with ThreadPoolExecutor(2) as pool:
        return [f.result() for f in [pool.submit(send, api1), pool.submit(send, api2)]]


def _legal_at(api: Api, gid: str, version: int, wait: float = 60.0) -> dict:
    """The seat's decisions at ``version`` or later, as a client reading across servers must
    ask: another server may trail by the commit notification's way (docs/several-servers.md),
    and its answer names the version it shows, never a mix. ``wait`` only catches a server
    that never catches up."""
    deadline = time.monotonic() + wait
    while True:
        legal = api.legal(gid)
        if legal["version"] >= version:
            return legal
        assert time.monotonic() < deadline, f"a server still at version {legal['version']} after {wait} s, {version} seen"
        time.sleep(0.005)


def _agreed(apis: dict, gid: str, wait: float = 60.0) -> dict:
    """Seat 1's status once both servers show the same version: the last race's winner
    committed on one of them, and the other follows it milliseconds behind; a move read
    from the one behind would be posted against a version already gone (a correct 409
    from both). ``wait`` only catches a server that never catches up."""
    deadline = time.monotonic() + wait
    while True:
        st, other = apis[(0, 1)].status(gid), apis[(1, 1)].status(gid)
        if st["version"] == other["version"]:
            return st
        assert time.monotonic() < deadline, f"servers at versions {st['version']} and {other['version']} after {wait} s"
        time.sleep(0.005)


def _play_through_both(s1: ServerProcess, s2: ServerProcess, gid: str, tokens: dict, seed: int) -> dict:
    rng = random.Random(seed)
    acked, conflicts, statuses = [], 0, []
    apis = {(i, seat): Api(srv.url, tokens[seat]) for i, srv in enumerate((s1, s2)) for seat in tokens}
    try:
        for _ in range(500):
            st = _agreed(apis, gid)
            if st["finished"]:
                break
            seat = st["to_act"][0]
            seen = apis[(0, seat)].status(gid)["version"]  # as this seat counts versions (what it may read)
            legal = _legal_at(apis[(rng.randrange(2), seat)], gid, seen)
            if seat not in legal["to_act"]:  # ``st`` was read before the last step reached server 0: again
                continue
            decision = rng.choice(legal["decisions"])
            r1, r2 = _race(apis[(0, seat)], apis[(1, seat)], gid, decision, legal["version"])
            codes = sorted([r1.status_code, r2.status_code])
            statuses.append(codes)
            assert codes == [201, 409], (codes, r1.text, r2.text)
            ok = r1 if r1.status_code == 201 else r2
            bad = r2 if ok is r1 else r1
            assert bad.json()["error"] == "stale_version"
            acked.append((legal["version"], ok.json()["version"], seat, decision))
            conflicts += 1
        else:
            raise AssertionError("game did not finish")
    finally:
        for a in apis.values():
            a.close()
    return {"acked": acked, "conflicts": conflicts}


@pytest.mark.parametrize("backend", ["postgres", "sqlite"])
def test_two_servers_same_games(backend, request, tmp_path):
    store = request.getfixturevalue("pg_store" if backend == "postgres" else "sqlite_store")
    key = f"org-{uuid.uuid4().hex}"
    with ServerProcess(store.url, key) as s1, ServerProcess(store.url, key) as s2:
        org = Api(s1.url, key)
        games = []
        for _ in range(GAMES):
            created = org.create("letter-of-marque", 2, tournament="race")
            gid = created["game_id"]
            tokens = {1: Api(s1.url).join(gid, 1, org.invite(gid, 1))["token"],
                      2: Api(s2.url).join(gid, 2, org.invite(gid, 2))["token"]}
            games.append((gid, tokens))
        org.close()
        with ThreadPoolExecutor(GAMES) as pool:
            results = list(pool.map(lambda g: _play_through_both(s1, s2, g[0], g[1], hash(g[0]) % 1000), games))
    app = store.app()
    for (gid, _), res in zip(games, results):
        gid_u = UUID(gid)
        events = app.stored_events(gid_u)
        assert versions(app, gid_u) == list(range(1, len(events) + 1))  # nothing lost or duplicated
        decided = [(e.data["seat"], e.data["decision"]) for e in events if e.type == "Decided" and e.data["seat"]]
        assert decided == [(seat, d) for _, _, seat, d in res["acked"]]  # in the acknowledged order
        for before, after, seat, d in res["acked"]:
            # versions a seat reads are its own count of what it may see
            mine = [e for e in events if e.visible_to == "all" or (isinstance(e.visible_to, list) and seat in e.visible_to)]
            assert mine[before].type == "Decided" and mine[before].data["decision"] == d and after > before
        assert res["conflicts"] == len(res["acked"]) > 0
        assert app.fold(gid_u)[0].finished
    out = json.loads(store.cli("audit", "--all", "--json").stdout)
    assert len(out) == GAMES and all(r["ok"] for r in out)


WRITER = r"""
import random, sys
from service.app import Privateer
app = Privateer(sys.argv[1], snapshot_interval=int(sys.argv[2]))
rng = random.Random(int(sys.argv[3]))
games = [app.create("letter-of-marque", rng.choice([2, 3, 4])) for _ in range(4)]
for g in games:
    print("game", g.hex, 0, flush=True)
while True:
    gid = rng.choice(games)
    agg = app.load(gid)
    m = agg.machine
    if m.finished:
        games.remove(gid)
        games.append(app.create("letter-of-marque", 3))
        print("game", games[-1].hex, 0, flush=True)
        continue
    seat = m.to_act()[0]
    agg.record(m.decide(seat, rng.choice(m.legal(seat)), app.chance_for(agg)))
    app.save_game(agg)
    print("ack", gid.hex, agg.version, flush=True)
"""


def test_killed_writer_leaves_games_auditable(store):
    acked: dict[str, int] = {}
    for round_, delay in enumerate((0.8, 1.3, 0.5)):
        p = subprocess.Popen([sys.executable, "-c", WRITER, store.url, "7", str(round_)],
                             stdout=subprocess.PIPE, text=True, env=store.env())
        try:
            lines = []
            deadline = time.monotonic() + 30
            while len(lines) < 20 and time.monotonic() < deadline:  # let it get going
                line = p.stdout.readline()
                if not line:
                    break
                lines.append(line)
            time.sleep(delay * random.random())
            os.kill(p.pid, signal.SIGKILL)  # in the middle of whatever it is writing
            p.wait(10)
            lines += p.stdout.readlines()
        finally:
            if p.poll() is None:
                p.kill()
                p.wait(10)
            p.stdout.close()
        assert p.returncode == -signal.SIGKILL
        for line in lines:
            if not line.endswith("\n"):
                # killed in the middle of printing its last line (a full pipe takes a
                # line in pieces): that acknowledgement never reached the reader
                continue
            kind, gid, version = line.split()
            acked[gid] = max(acked.get(gid, 0), int(version))
    app = store.app(snapshot_interval=0)
    rows = {r["game_id"]: r for r in app.games()}
    for gid, version in acked.items():
        assert gid in rows
        stored = versions(app, UUID(gid))
        assert stored == list(range(1, len(stored) + 1))
        assert len(stored) >= version, (gid, version, len(stored))  # every acknowledged decision is there
        assert rows[gid]["version"] == len(stored)  # the index moved with the events
    out = json.loads(store.cli("audit", "--all", "--json").stdout)
    assert out and all(r["ok"] for r in out), [r for r in out if not r["ok"]]

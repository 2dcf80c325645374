"""Decisions through HTTP vs the same decisions in-process.

``run(games=50)`` starts ``tools serve`` on a free port with a fresh SQLite
file, creates ``games`` games of Letter of Marque (3 seats), takes every seat,
and plays all of them at once: one client thread per game, each decision
made by the seat's own client (GET legal, POST the decision with
its expected version and an idempotency key; the answer says who acts
next: two requests per decision). Then it replays exactly the
same decisions in-process (``Privateer.act`` on another fresh SQLite file;
same seeds, revealed at the end of each game, so same chance and same
events), one after the other.

``run(pg=URL)`` (``--pg``): both stores on PostgreSQL instead, each in a fresh
schema of that database, dropped afterwards.

Returns decisions/s and p50/p99 latency of a decision on both sides, and the
ratios (``ratio`` = HTTP decisions/s over in-process decisions/s); also the
unloaded HTTP latency of one client playing one game at a time. Latency over
HTTP is the POST of the decision; the reads a client makes before deciding are
counted in ``http.requests_per_second``. In-process decisions/s is decisions
over the time spent in ``Privateer.act``.

    python bench/http_bench.py --games 50
    python bench/http_bench.py --games 50 --pg
"""

from __future__ import annotations

import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


SINGLE_GAMES = 3


def _pct(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    k = min(len(s) - 1, max(0, int(round(p / 100 * (len(s) - 1)))))
    return s[k]


def _summary(latencies: list[float], seconds: float, decisions: int) -> dict:
    return {"seconds": round(seconds, 3), "decisions": decisions,
            "decisions_per_second": round(decisions / seconds, 1) if seconds else 0.0,
            "p50_ms": round(_pct(latencies, 50) * 1000, 2), "p99_ms": round(_pct(latencies, 99) * 1000, 2),
            "mean_ms": round(statistics.fmean(latencies) * 1000, 2) if latencies else 0.0}


def _play_one(url: str, gid: str, tokens: dict[int, str], seed: int, latencies: list, lock) -> tuple[int, int]:
    from service.http.client import Api

    rng = random.Random(seed)
    public = Api(url)
    seats = {n: Api(url, t) for n, t in tokens.items()}
    mine, requests = [], 0
    try:
        st = public.status(gid)
        requests += 1
        while not st["finished"]:
            # a seat reads its legal decisions, decides, and learns from the answer who acts next
            seat = rng.choice(st["to_act"])
            legal = seats[seat].legal(gid)
            requests += 1
            decision = rng.choice(legal["decisions"])
            t0 = time.perf_counter()
            r = seats[seat].decide(gid, decision, legal["version"], key=uuid.uuid4().hex)
            mine.append(time.perf_counter() - t0)
            requests += 1
            if r.status_code != 201:
                raise RuntimeError(f"decision refused: {r.status_code} {r.text}")
            st = r.json()
    finally:
        public.close()
        for c in seats.values():
            c.close()
    with lock:
        latencies.extend(mine)
    return len(mine), requests



async def _play_one_async(url: str, gid: str, tokens: dict[int, str], seed: int, latencies: list) -> tuple[int, int]:
    """``_play_one`` with asynchronous clients (aiohttp: its HTTP parser is C, so
    the load costs the machine little beside the server): the same requests, in
    the same order, each seat on its own keep-alive connection."""
    import aiohttp

    from service.http.client import auth

    rng = random.Random(seed)

    def client(token=None):
        return aiohttp.ClientSession(base_url=url, headers=auth(token), timeout=aiohttp.ClientTimeout(total=60),
                                     connector=aiohttp.TCPConnector(limit=1))
    public = client()
    seats = {n: client(t) for n, t in tokens.items()}
    mine, requests = [], 0

    async def ok(r, status=200):
        async with r:
            if r.status != status:
                raise RuntimeError(f"{r.method} {r.url}: {r.status} {await r.text()}")
            return await r.json()
    try:
        st = await ok(await public.get(f"/games/{gid}"))
        requests += 1
        while not st["finished"]:
            seat = rng.choice(st["to_act"])
            legal = await ok(await seats[seat].get(f"/games/{gid}/legal"))
            requests += 1
            decision = rng.choice(legal["decisions"])
            t0 = time.perf_counter()
            r = await seats[seat].post(f"/games/{gid}/decisions",
                                       json={"decision": decision, "expected_version": legal["version"]},
                                       headers={"Idempotency-Key": uuid.uuid4().hex})
            st = await ok(r, 201)
            mine.append(time.perf_counter() - t0)
            requests += 1
    finally:
        await public.close()
        for c in seats.values():
            await c.close()
    latencies.extend(mine)
    return len(mine), requests


def _play_all(url: str, tables: list, seed: int, client: str, latencies: list) -> list[tuple[int, int]]:
    if client == "async":
        import asyncio

        async def everything():
            return await asyncio.gather(*(_play_one_async(url, gid, tokens, seed + i, latencies)
                                          for i, (gid, tokens) in enumerate(tables)))
        return asyncio.run(everything())
    lock = threading.Lock()
    with ThreadPoolExecutor(max_workers=len(tables)) as pool:
        return list(pool.map(lambda it: _play_one(url, it[1][0], it[1][1], seed + it[0], latencies, lock),
                             enumerate(tables)))


def _decisions_of(url: str, key: str, gid: str) -> tuple[bytes, list[tuple[int, dict]], dict]:
    from service.http.client import Api

    ref = Api(url, key)
    try:
        events, after = [], 0
        while True:
            page = ref.ok(ref.get(f"/games/{gid}/log", params={"after": after, "limit": 1000}))
            events += page["events"]
            if page["next_after"] is None:
                break
            after = page["next_after"]
    finally:
        ref.close()
    finished = next(e for e in events if e["type"] == "GameFinished")
    decisions = [(e["data"]["seat"], e["data"]["decision"]) for e in events
                 if e["type"] == "Decided" and e["data"]["seat"] != 0]
    return bytes.fromhex(finished["data"]["seed"]), decisions, finished["data"]["scores"]


def _stores(tmp: str, pg: str | None) -> tuple[str, str, list[str]]:
    """The server's store and the in-process one: two SQLite files in ``tmp``, or two
    fresh schemas of the PostgreSQL database ``pg`` (the schemas, to drop after)."""
    if not pg:
        return os.path.join(tmp, "http.db"), os.path.join(tmp, "inprocess.db"), []
    run = uuid.uuid4().hex[:8]
    schemas = [f"pvt_bench_http_{run}", f"pvt_bench_local_{run}"]
    return f"{pg}?schema={schemas[0]}", f"{pg}?schema={schemas[1]}", schemas


def _drop(pg: str, schemas: list[str]) -> None:
    if schemas:
        import psycopg

        with psycopg.connect(pg, autocommit=True) as conn:
            for schema in schemas:
                conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def run(games: int = 50, game: str = "letter-of-marque", seats: int = 3, seed: int = 1, workers: int = 1,
        client: str = "auto", pg: str | None = None) -> dict:
    """``pg``: a PostgreSQL URL (no schema): both stores in fresh schemas of it, dropped after."""
    if client == "auto":
        try:
            import aiohttp  # noqa: F401
            client = "async"
        except ImportError:
            client = "threads"
    tmp = tempfile.mkdtemp(prefix="privateer-http-bench-")
    served, local_db, schemas = _stores(tmp, pg)
    try:
        return _run(games, game, seats, seed, workers, client, served, local_db, "postgres" if pg else "sqlite")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        _drop(pg, schemas)


def _run(games, game, seats, seed, workers, client, served, local_db, backend) -> dict:
    from service.app import Privateer
    from service.http.client import Api, ServerProcess

    server = ServerProcess(served, workers=workers).start()
    try:
        org = Api(server.url, server.key)
        tables = []
        for _ in range(games):
            gid = org.create(game, seats)["game_id"]
            tokens = Api(server.url).seat_up(gid, range(1, seats + 1), org)
            tables.append((gid, tokens))
        org.close()

        latencies: list[float] = []
        t0 = time.perf_counter()
        results = _play_all(server.url, tables, seed, client, latencies)
        http_seconds = time.perf_counter() - t0
        total = sum(d for d, _ in results)
        requests = sum(r for _, r in results)
        http = _summary(latencies, http_seconds, total)
        http["requests"] = requests
        http["requests_per_second"] = round(requests / http_seconds, 1)
        http["concurrent_games"] = games

        played = [_decisions_of(server.url, server.key, gid) for gid, _ in tables]

        # unloaded: one client, one game at a time (the floor of the HTTP latency)
        org = Api(server.url, server.key)
        single_lat: list[float] = []
        lock = threading.Lock()
        single_seconds = 0.0
        for i in range(SINGLE_GAMES):
            gid = org.create(game, seats)["game_id"]
            tokens = Api(server.url).seat_up(gid, range(1, seats + 1), org)
            t0 = time.perf_counter()
            _play_one(server.url, gid, tokens, seed + 10_000 + i, single_lat, lock)
            single_seconds += time.perf_counter() - t0
        single = _summary(single_lat, single_seconds, len(single_lat))
        org.close()
    finally:
        server.stop()

    # the same decisions, in-process, one after the other
    app = Privateer(local_db)
    local_lat: list[float] = []
    mismatches = 0
    for game_seed, decisions, scores in played:
        gid = app.create(game, seats, seed=game_seed)
        version = app.fold(gid)[1]
        for seat, decision in decisions:
            a = time.perf_counter()
            events = app.act(gid, seat, decision, version)
            local_lat.append(time.perf_counter() - a)
            version += len(events)
        machine = app.fold(gid)[0]
        if not machine.finished or machine.kernel_state["result"]["scores"] != scores:
            mismatches += 1
    local = _summary(local_lat, sum(local_lat), len(local_lat))  # the acts only, as over HTTP
    app.close()

    dps_ratio = (round(http["decisions_per_second"] / local["decisions_per_second"], 3)
                 if local["decisions_per_second"] else None)
    return {
        "benchmark": "http", "backend": backend, "game": game, "seats": seats, "games": games,
        "server_workers": workers,
        "client": client,
        # flat figures first (for tables), then the detail
        "http_decisions_per_second": http["decisions_per_second"],
        "http_p50_ms": http["p50_ms"], "http_p99_ms": http["p99_ms"],
        "in_process_decisions_per_second": local["decisions_per_second"],
        "in_process_p50_ms": local["p50_ms"], "in_process_p99_ms": local["p99_ms"],
        "ratio": dps_ratio,
        "http_single_client_p50_ms": single["p50_ms"], "http_single_client_p99_ms": single["p99_ms"],
        "http_single_client_decisions_per_second": single["decisions_per_second"],
        "http_single_client": single,
        "decisions": total,
        "http": http,
        "in_process": local,
        "same_outcomes": mismatches == 0,
        "ratio_decisions_per_second_http_over_in_process": dps_ratio,
        "ratio_p50_latency_http_over_in_process": round(http["p50_ms"] / local["p50_ms"], 2) if local["p50_ms"] else None,
        "ratio_p99_latency_http_over_in_process": round(http["p99_ms"] / local["p99_ms"], 2) if local["p99_ms"] else None,
    }


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--seats", type=int, default=3)
    ap.add_argument("--workers", type=int, default=1, help="tools serve --workers")
    ap.add_argument("--client", choices=("auto", "async", "threads"), default="auto",
                    help="the load: aiohttp clients on one event loop (auto: when installed), "
                         "or one httpx thread per game")
    ap.add_argument("--pg", nargs="?", const="postgresql://postgres@127.0.0.1:5432/test", metavar="URL",
                    help="both stores on PostgreSQL, in fresh schemas dropped after "
                         "(default URL: postgresql://postgres@127.0.0.1:5432/test)")
    args = ap.parse_args()
    print(json.dumps(run(games=args.games, seats=args.seats, workers=args.workers, client=args.client, pg=args.pg),
                     indent=2))

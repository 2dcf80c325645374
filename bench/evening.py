"""An evening on several servers: ``tools serve`` processes over one database, played over HTTP.

Each run starts ``servers`` processes of ``tools serve`` on one store (a fresh SQLite
file, or a fresh PostgreSQL database ``bench_h4_<run>``, dropped afterwards) and keeps
``games`` tables in play for ``seconds``: the four games in turn (Letter of Marque 3
seats, Loot 4, The Kaiser's Pirates 3, Merchants & Marauders 4), every fourth table with
a server-side bot (``random``) in its last seat. Every other seat is taken by invitation
and played by its own HTTP client (its own keep-alive connection, aiohttp, all on one
event loop in this process): read the seat's legal decisions, post one of them with the
version it was read at and an idempotency key; the answer says who acts next (the status
is read when no person's seat acts: a bot's turn). A table whose game ends
starts a new one. A table's clients talk to one server (``route="game"``: what a load
balancer that routes by game does), or each request to any server (``route="any"``).

What it counts: decisions/s (the clients' acknowledged decisions; the bots' are counted
apart), p50/p99 of a decision's POST, every answer 5xx (none allowed), and, at the end,
every acknowledged decision against the store: each seat's acknowledged decisions, in
order, must be exactly the ``Decided`` events of that seat in the store (exactly once).

Faults (``kill_at``, ``races``): one server is killed with SIGKILL mid-run; a client
whose server is gone retries the same request (the same idempotency key) on another,
and moves its table there. ``races`` times, a seat posts one decision with one version
to two servers at once (half with the same idempotency key, half with two): one step
must be stored, the other answer a 409 or the first's replay.

While a run on PostgreSQL lasts, ``pg_stat_activity`` of its database is sampled
every 10 ms: what the database's sessions wait on (a lock, the WAL's flush, the
client), as a share of the samples.

    python -m bench.evening                         # the matrix below, a table and the ratios
    python -m bench.evening --games 20,40 --configs sqlite:1,pg:1,pg:2 --seconds 20
    python -m bench.evening --repeat 3              # three rounds; each ratio the median of its rounds'
    python -m bench.evening --faults                 # two servers on PostgreSQL: a kill -9 and races
    python -m bench.evening --json
"""

from __future__ import annotations

import asyncio
import functools
import contextlib
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
from collections import Counter, defaultdict
from dataclasses import dataclass, field

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

PG_DEFAULT = "postgresql://postgres@127.0.0.1:5432/test"
KINDS = (("letter-of-marque", 3), ("loot", 4), ("kaisers-pirates", 3), ("merchants-and-marauders", 4))
BOT_EVERY = 4      # every fourth table has a bot in its last seat
POLL = 0.02        # a client whose seats do not act looks again after this long
TIMEOUT = 30.0     # one request, at most


def _pct(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, max(0, int(round(p / 100 * (len(s) - 1)))))]


def _cpu_seconds(pid: int) -> float:
    """CPU time of a process and its waited-for children (utime, stime, cutime, cstime)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def _tree_cpu(pid: int) -> float:
    """CPU time of a process and its live children (the commit process)."""
    total = _cpu_seconds(pid)
    with contextlib.suppress(OSError):
        for tid in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError), open(f"/proc/{pid}/task/{tid}/children") as f:
                for child in f.read().split():
                    total += _cpu_seconds(int(child))
    return total


def _database_cpu() -> dict[int, float]:
    """CPU time of every PostgreSQL process of this machine (backends, WAL writer, checkpointer),
    by pid: what the database spends for the evening (nothing else should use it meanwhile)."""
    out = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        with contextlib.suppress(OSError), open(f"/proc/{pid}/comm") as f:
            if f.read().strip() == "postgres":
                out[int(pid)] = _cpu_seconds(int(pid))
    return out


def _spent(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU spent between two ``_database_cpu`` readings (a process started meanwhile: all of it)."""
    return sum(t - before.get(pid, 0.0) for pid, t in after.items())


def ceiling(rate: float, server_ms: float, other_ms: float, cores: int, servers: int) -> float:
    """The most ``servers`` servers could make, as a multiple of ``rate`` (what one made), on
    ``cores`` cores otherwise idle, when a decision costs a server ``server_ms`` of CPU and the
    rest of the machine (the database, the clients) ``other_ms``: each server's interpreter is
    at most one core (servers/server_ms decisions a second), and every process shares the
    cores (cores/(server_ms + other_ms))."""
    return min(servers / server_ms, cores / (server_ms + other_ms)) * 1000 / rate


# the store -------------------------------------------------------------------------------
class Store:
    """A fresh SQLite file, or a fresh PostgreSQL database (dropped by ``close``)."""

    def __init__(self, backend: str, pg: str = PG_DEFAULT):
        self.backend = backend
        self._tmp = tempfile.mkdtemp(prefix="privateer-evening-")
        self._admin = pg
        self.dbname = None
        if backend == "sqlite":
            self.url = os.path.join(self._tmp, "evening.db")
            return
        import psycopg

        self.dbname = f"bench_h4_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(pg, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{self.dbname}"')
        base = pg.rsplit("/", 1)[0]
        self.url = f"{base}/{self.dbname}"

    def close(self) -> None:
        shutil.rmtree(self._tmp, ignore_errors=True)
        if self.dbname:
            import psycopg

            with psycopg.connect(self._admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{self.dbname}" WITH (FORCE)')


class WaitSampler:
    """``pg_stat_activity`` of one database sampled every ``every`` seconds in a thread:
    what its active sessions wait on, counted."""

    def __init__(self, admin_url: str, dbname: str, every: float = 0.01):
        self.admin_url, self.dbname, self.every = admin_url, dbname, every
        self.counts: Counter = Counter()
        self.samples = 0
        self.active = False   # samples are taken only while set (the measured window)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join(5)

    def _run(self) -> None:
        import psycopg

        # each active session's wait, and for a lock wait who holds it up (the blocker's
        # state and wait: a session idle in its transaction is waiting for its client)
        q = ("SELECT coalesce(a.wait_event_type, 'CPU') AS t, coalesce(a.wait_event, 'running') AS e, "
             "left(regexp_replace(a.query, '\\s+', ' ', 'g'), 40) AS q, "
             "(SELECT b.backend_type || ' ' || b.state || ' ' || coalesce(b.wait_event, 'running') "
             " FROM pg_stat_activity b WHERE b.pid = (pg_blocking_pids(a.pid))[1] LIMIT 1) AS blocker "
             "FROM pg_stat_activity a "
             "WHERE a.datname = %s AND a.state = 'active' AND a.pid <> pg_backend_pid() "
             "AND a.query NOT LIKE 'LISTEN%%'")
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            while not self._stop.wait(self.every):
                if not self.active:
                    continue
                rows = conn.execute(q, (self.dbname,)).fetchall()
                self.samples += 1
                for t, e, text, blocker in rows:
                    what = f"{t}:{e}"
                    if t == "Lock" or t == "CPU":
                        what += f" [{text.strip()}]"
                    if blocker:
                        what += f" behind ({blocker})"
                    self.counts[what] += 1

    def report(self, top: int = 8) -> list[dict]:
        """The commonest states: how many sessions were in each, on average over the samples."""
        n = max(1, self.samples)
        return [{"wait": k, "sessions": round(v / n, 3)} for k, v in self.counts.most_common(top)]


# the clients -----------------------------------------------------------------------------
@dataclass
class Tally:
    latencies: list = field(default_factory=list)
    acked: dict = field(default_factory=lambda: defaultdict(list))   # (gid, seat) -> decisions, in order
    five_hundreds: int = 0
    conflicts: int = 0       # 409s: the game moved on (a bot, another seat)
    join_conflicts: int = 0  # joins made stale by a step at the same moment (a bot's), joined again
    refused: int = 0         # 422s
    retries: int = 0         # requests sent again after a server went away
    moved: int = 0           # tables moved to another server
    games_started: int = 0
    races: int = 0
    races_one_step: int = 0
    race_answers: Counter = field(default_factory=Counter)
    counting: bool = False   # decisions count towards the rate only inside the window


class ServerGone(Exception):
    pass


class Cluster:
    """The servers, which of them are alive, and one aiohttp session per (client, server)."""

    def __init__(self, servers, key: str, postgres: bool = False):
        self.servers = servers
        self.key = key
        self.alive = [True] * len(servers)
        self.postgres = postgres    # the database's processes are counted (``_database_cpu``)

    def next_alive(self, i: int) -> int:
        for k in range(1, len(self.servers) + 1):
            j = (i + k) % len(self.servers)
            if self.alive[j]:
                return j
        raise RuntimeError("every server is down")


class Client:
    """One person's client (a seat, the organiser): a keep-alive session per server it talks to."""

    def __init__(self, cluster: Cluster, token: str | None, tally: Tally):
        self.cluster, self.token, self.tally = cluster, token, tally
        self._sessions: dict = {}

    def _session(self, i: int):
        import aiohttp

        s = self._sessions.get(i)
        if s is None:
            headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
            s = self._sessions[i] = aiohttp.ClientSession(
                base_url=self.cluster.servers[i].url, headers=headers,
                timeout=aiohttp.ClientTimeout(total=TIMEOUT), connector=aiohttp.TCPConnector(limit=2))
        return s

    async def request(self, where: list, method: str, path: str, body=None, key: str | None = None):
        """``(status, json)`` from server ``where[0]``; a server gone (refused, reset) is marked
        down and the same request (the same idempotency key) goes to the next one, which
        ``where[0]`` becomes."""
        import aiohttp

        headers = {"Idempotency-Key": key} if key else None
        while True:
            i = where[0]
            if not self.cluster.alive[i]:
                where[0] = self.cluster.next_alive(i)
                self.tally.moved += 1
                continue
            try:
                async with self._session(i).request(method, path, json=body, headers=headers) as r:
                    data = await r.json(content_type=None)
                    if r.status >= 500:
                        self.tally.five_hundreds += 1
                        print(f"5xx: {method} {path}: {r.status} {data}", file=sys.stderr)
                        await asyncio.sleep(0.05)
                        continue
                    return r.status, data
            except (aiohttp.ClientConnectionError, asyncio.TimeoutError):
                if self.cluster.servers[i].proc is None or self.cluster.servers[i].proc.poll() is not None:
                    self.cluster.alive[i] = False
                self.tally.retries += 1
                await asyncio.sleep(0.05)

    async def close(self) -> None:
        for s in self._sessions.values():
            await s.close()


class Table:
    """One table of the evening: a game at a time, its seats' clients, on a home server."""

    def __init__(self, n: int, cluster: Cluster, tally: Tally, home: int, route: str, rng: random.Random):
        self.n, self.cluster, self.tally, self.route, self.rng = n, cluster, tally, route, rng
        self.kind, self.seats = KINDS[n % len(KINDS)]
        self.bot_seat = self.seats if n % BOT_EVERY == BOT_EVERY - 1 else None
        self.where = [home]
        self.org = Client(cluster, cluster.key, tally)
        self.clients: dict[int, Client] = {}
        self.gid: str | None = None
        self.last: dict | None = None   # the last decision's answer: who acts now
        self.referee: str | None = None
        self.games: list[tuple[str, str, dict[int, str]]] = []   # (gid, referee key, people's seats' tokens)

    def _at(self) -> list:
        if self.route == "any":
            alive = [i for i, ok in enumerate(self.cluster.alive) if ok]
            return [self.rng.choice(alive)]
        return self.where

    async def new_game(self) -> None:
        for c in self.clients.values():
            await c.close()
        body = {"game": self.kind, "seats": self.seats, "name": f"table {self.n}"}
        if self.bot_seat:
            body["bots"] = {str(self.bot_seat): "random"}
        status, created = await self.org.request(self._at(), "POST", "/games", body)
        if status != 201:
            raise RuntimeError(f"create: {status} {created}")
        self.gid, self.referee = created["game_id"], created["referee_key"]
        people = [s for s in range(1, self.seats + 1) if s != self.bot_seat]
        self.clients = {}
        tokens = {}
        for seat in people:  # every person's seat by invitation, joined by that person's client
            status, inv = await self.org.request(self._at(), "POST", f"/games/{self.gid}/invitations",
                                                 {"seat": seat, "player": f"p{self.n}-{seat}"})
            if status != 201:
                raise RuntimeError(f"invite: {status} {inv}")
            person = Client(self.cluster, None, self.tally)
            for _ in range(20):
                status, joined = await person.request(self._at(), "POST", f"/games/{self.gid}/seats/{seat}/join",
                                                      {"code": inv["code"]}, key=uuid.uuid4().hex)
                # a join is a step of the game: one made at the same moment (the bot's) makes it
                # stale, and nothing of it is written: the same code joins again
                if not (status == 409 and joined.get("error") == "stale_version"):
                    break
                self.tally.join_conflicts += 1
            if status != 201:
                raise RuntimeError(f"join: {status} {joined}")
            await person.close()
            self.clients[seat] = Client(self.cluster, joined["token"], self.tally)
            tokens[seat] = joined["token"]
        self.games.append((self.gid, self.referee, tokens))
        self.last = None
        self.tally.games_started += 1

    async def step(self) -> bool:
        """One decision of a person's seat (or a look, when none acts); False when the game is over.
        Who acts next comes with a decision's answer (as a seat's page learns it from its stream);
        the status is read when that is not known (a start, a bot's turn, a refusal)."""
        st = self.last
        if st is None:
            status, st = await self.org.request(self._at(), "GET", f"/games/{self.gid}")
        self.last = None
        if st.get("finished"):
            return False
        mine = [s for s in st["to_act"] if s in self.clients]
        if not mine:
            await asyncio.sleep(POLL)
            return True
        seat = self.rng.choice(mine)
        client = self.clients[seat]
        status, legal = await client.request(self._at(), "GET", f"/games/{self.gid}/legal")
        if status != 200 or not legal["decisions"]:
            await asyncio.sleep(POLL)
            return True
        decision = self.rng.choice(legal["decisions"])
        t0 = time.perf_counter()
        status, answer = await client.request(self._at(), "POST", f"/games/{self.gid}/decisions",
                                              {"decision": decision, "expected_version": legal["version"]},
                                              key=uuid.uuid4().hex)
        if status == 201:
            self.tally.acked[(self.gid, seat)].append(_decided(answer, seat, decision))
            if self.tally.counting:
                self.tally.latencies.append(time.perf_counter() - t0)
            self.last = answer
            return not answer["finished"]
        if status == 409:
            self.tally.conflicts += 1
        elif status == 422:
            self.tally.refused += 1
        else:
            raise RuntimeError(f"decision: {status} {answer}")
        return True

    async def race(self) -> None:
        """One seat posts one decision at one version to two servers at once."""
        for _ in range(200):
            status, st = await self.org.request(self.where, "GET", f"/games/{self.gid}")
            if st.get("finished"):
                await self.new_game()
                continue
            mine = [s for s in st["to_act"] if s in self.clients]
            if mine:
                break
            await asyncio.sleep(POLL)
        else:
            return
        seat = self.rng.choice(mine)
        client = self.clients[seat]
        status, legal = await client.request(self.where, "GET", f"/games/{self.gid}/legal")
        if status != 200 or not legal["decisions"]:
            return
        decision = self.rng.choice(legal["decisions"])
        body = {"decision": decision, "expected_version": legal["version"]}
        same = self.tally.races % 2 == 0
        keys = [uuid.uuid4().hex] * 2 if same else [uuid.uuid4().hex, uuid.uuid4().hex]
        alive = [i for i, ok in enumerate(self.cluster.alive) if ok]
        a, b = alive[0], alive[1 % len(alive)]
        answers = await asyncio.gather(client.request([a], "POST", f"/games/{self.gid}/decisions", body, keys[0]),
                                       client.request([b], "POST", f"/games/{self.gid}/decisions", body, keys[1]))
        self.tally.races += 1
        codes = sorted(s for s, _ in answers)
        self.tally.race_answers[("same key " if same else "two keys ") + "+".join(map(str, codes))] += 1
        oks = [ans for s, ans in answers if s == 201]
        if oks:
            self.tally.acked[(self.gid, seat)].append(_decided(oks[0], seat, decision))
        # one step: one 201 (and a 409), or two 201s with one answer (the replay of the first)
        if (len(oks) == 1 and 409 in codes) or (same and len(oks) == 2 and oks[0] == oks[1]):
            self.tally.races_one_step += 1

    async def play(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            if not await self.step():
                if stop.is_set():
                    break
                await self.new_game()

    async def close(self) -> None:
        await self.org.close()
        for c in self.clients.values():
            await c.close()


def _decided(answer: dict, seat: int, posted: dict):
    """The decision a step's answer says was stored for ``seat`` (its ``Decided`` event): the
    game may store another copy of the card posted, or an equivalent card (the Kaiser's
    Pirates' armed merchant cruisers); the posted one when the answer names none."""
    for e in answer.get("events") or ():
        data = e.get("data") or {}
        if e.get("type") == "Decided" and data.get("seat") == seat:
            return data.get("decision")
    return posted


@functools.lru_cache(maxsize=None)
def _alike() -> dict[str, str]:
    """Each card copy's id: the first id of its kind, for every game the evening plays, from
    the rules' own ``copies`` (service/kernel/copies.py: copies of one face, and cards the
    rules treat alike though their names differ, the Kaiser's Pirates' Q-ships and AMCs)."""
    from service.app import Privateer

    app = Privateer(":memory:")
    out: dict[str, str] = {}
    for kind, seats in KINDS:
        game, _ = app.new_game(kind, seats)
        for card, group in game.machine.rules.copies(game.machine.config).items():
            out[card] = group[0]
    return out


def _plain(value):
    """A decision with each card named by its kind (``blue-4b``: ``blue-4a``; ``q-19-privet``:
    the first Q-ship's id): copies are alike, and which copy a seat reads a card as depends on
    what the public has seen since (service/kernel/copies.py), so a step's answer and a later
    reading of the log may name two copies of one kind."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, str):
        return _alike().get(value, value)
    return value


async def _stored(cluster: Cluster, tables: list[Table], tally: Tally) -> dict:
    """Each acknowledged decision against the store: per (game, seat), the sequence of
    acknowledged decisions (as their answers said they were stored: ``_decided``) must equal
    the seat's ``Decided`` events, in order, as the seat reads them (cards compared
    whichever copy: ``_plain``)."""
    out = {"acknowledged": 0, "stored": 0, "mismatched_seats": 0, "bot_decisions": 0}
    for t in tables:
        for gid, referee, tokens in t.games:
            decided = await _decisions(cluster, tally, referee, gid)
            for seat, ds in decided.items():
                if seat in tokens:
                    out["stored"] += len(ds)
                else:
                    out["bot_decisions"] += len(ds)
            for seat, token in tokens.items():
                acked = tally.acked.get((gid, seat), [])
                out["acknowledged"] += len(acked)
                # as the seat reads its own: a card's copy is named as that seat's answers named it
                stored = (await _decisions(cluster, tally, token, gid)).get(seat, [])
                if _plain(acked) != _plain(stored):
                    out["mismatched_seats"] += 1
                    if len(out.setdefault("mismatches", [])) < 5:  # the first difference, to look at
                        i = next((i for i, (a, b) in enumerate(zip(_plain(acked), _plain(stored))) if a != b),
                                 min(len(acked), len(stored)))
                        out["mismatches"].append({"game": gid, "seat": seat, "index": i, "acknowledged": len(acked),
                                                  "stored": len(stored), "acked": acked[i:i + 2],
                                                  "in_store": stored[i:i + 2]})
    return out


async def _decisions(cluster: Cluster, tally: Tally, token: str, gid: str) -> dict[int, list]:
    """Each seat's ``Decided`` decisions in the game's log as ``token``'s holder reads it, in order."""
    reader = Client(cluster, token, tally)
    where = [cluster.next_alive(-1)]
    events, after = [], 0
    try:
        while True:
            status, page = await reader.request(where, "GET", f"/games/{gid}/log?after={after}&limit=1000")
            if status != 200:
                raise RuntimeError(f"log: {status} {page}")
            events += page["events"]
            if page["next_after"] is None:
                break
            after = page["next_after"]
    finally:
        await reader.close()
    decided = defaultdict(list)
    for e in events:
        if e["type"] == "Decided" and not e.get("retracted") and e["data"]["seat"] != 0:
            decided[e["data"]["seat"]].append(e["data"]["decision"])
    return decided


async def _evening(cluster: Cluster, games: int, seconds: float, route: str, seed: int, kill_at: float | None,
                   races: int, tally: Tally, sampler=None) -> dict:
    rng = random.Random(seed)
    tables = [Table(n, cluster, tally, n % len(cluster.servers), route, random.Random(rng.random()))
              for n in range(games)]
    try:
        await asyncio.gather(*(t.new_game() for t in tables))
        stop = asyncio.Event()
        pids = [s.proc.pid for s in cluster.servers]
        cpu0 = [_tree_cpu(p) for p in pids]
        db0 = _database_cpu() if cluster.postgres else {}
        own0 = time.process_time()
        tally.counting = True
        if sampler is not None:
            sampler.active = True
        acked0 = sum(len(v) for v in tally.acked.values())
        t0 = time.perf_counter()
        players = [asyncio.ensure_future(t.play(stop)) for t in tables]
        killed = None
        if kill_at is not None:
            await asyncio.sleep(seconds * kill_at)
            killed = len(cluster.servers) - 1
            cluster.servers[killed].proc.kill()   # SIGKILL: no goodbye
            cluster.servers[killed].proc.wait()
            cluster.alive[killed] = False
            await asyncio.sleep(seconds * (1 - kill_at))
        else:
            await asyncio.sleep(seconds)
        elapsed = time.perf_counter() - t0
        acked1 = sum(len(v) for v in tally.acked.values())
        cpu1 = [_tree_cpu(p) if i != killed else cpu0[i] for i, p in enumerate(pids)]
        own1 = time.process_time()
        db1 = _database_cpu() if cluster.postgres else {}
        tally.counting = False
        if sampler is not None:
            sampler.active = False
        stop.set()
        await asyncio.gather(*players)
        for _ in range(races):
            await tables[rng.randrange(len(tables))].race()
        # the bots finish what they were doing before the store is read
        await asyncio.sleep(0.5)
        counted = await _stored(cluster, tables, tally)
    finally:
        for t in tables:
            await t.close()
    return {"seconds": round(elapsed, 2), "decisions": acked1 - acked0,
            "decisions_per_second": round((acked1 - acked0) / elapsed, 1),
            "server_cores": [round((b - a) / elapsed, 2) for a, b in zip(cpu0, cpu1)],
            "client_cores": round((own1 - own0) / elapsed, 2),
            "database_cores": round(_spent(db0, db1) / elapsed, 2) if cluster.postgres else None,
            "killed_server": killed, **counted}


def run(backend: str = "sqlite", servers: int = 1, games: int = 20, seconds: float = 20.0, route: str = "game",
        seed: int = 1, kill_at: float | None = None, races: int = 0, pg: str = PG_DEFAULT,
        server_env: dict | None = None) -> dict:
    """One evening; its figures."""
    from service.http.client import ServerProcess

    store = Store(backend, pg)
    key = f"org-{uuid.uuid4().hex}"
    procs = []
    load0 = [round(x, 2) for x in os.getloadavg()]
    try:
        for _ in range(servers):
            procs.append(ServerProcess(store.url, organiser_key=key, env=server_env).start(60))
        cluster = Cluster(procs, key, postgres=bool(store.dbname))
        tally = Tally()
        sampler = WaitSampler(pg, store.dbname) if store.dbname else None
        with sampler or contextlib.nullcontext():
            figures = asyncio.run(_evening(cluster, games, seconds, route, seed, kill_at, races, tally, sampler))
    finally:
        for p in procs:
            p.stop()
        store.close()
    out = {"backend": backend, "servers": servers, "games": games, "route": route,
           "load_before": load0, "load_after": [round(x, 2) for x in os.getloadavg()],
           **figures,
           "p50_ms": round(_pct(tally.latencies, 50) * 1000, 1), "p99_ms": round(_pct(tally.latencies, 99) * 1000, 1),
           "answers_5xx": tally.five_hundreds, "conflicts_409": tally.conflicts, "refused_422": tally.refused,
           "join_conflicts": tally.join_conflicts, "retried": tally.retries, "moved": tally.moved, "games_started": tally.games_started}
    if races:
        out.update(races=tally.races, races_one_step=tally.races_one_step, race_answers=dict(tally.race_answers))
    if store.dbname:
        out["pg_waits"] = sampler.report()
    out["acknowledged_equals_stored"] = (out["acknowledged"] == out["stored"] and not out["mismatched_seats"])
    return out


def matrix(games_list=(20, 40), configs=(("sqlite", 1), ("pg", 1), ("pg", 2)), seconds: float = 20.0,
           route: str = "game", pg: str = PG_DEFAULT, progress: bool = True, repeat: int = 1) -> dict:
    """Every config at every table count, side by side (each count's configs run one after
    another), ``repeat`` rounds of it; the ratios issue 47 asks for, each taken between runs of
    one round (minutes apart at most) and the median over the rounds. Beside decisions/s,
    decisions per second of the servers' CPU (``per_server_core``): what a decision costs the
    servers, which moves less than the rate with what else the machine runs."""
    rows = []
    for round_ in range(repeat):
        for games in games_list:
            for backend, servers in configs:
                if progress:
                    print(f"  … round {round_ + 1}: {backend}, {servers} server(s), {games} games", file=sys.stderr,
                          flush=True)
                row = run("postgres" if backend == "pg" else backend, servers, games, seconds, route, pg=pg)
                row["round"] = round_ + 1
                cores = sum(row["server_cores"])
                row["per_server_core"] = round(row["decisions_per_second"] / cores, 1) if cores else None
                rows.append(row)
    found: dict = defaultdict(list)
    for round_ in range(1, repeat + 1):
        for games in games_list:
            by = {(r["backend"], r["servers"]): r for r in rows if r["games"] == games and r["round"] == round_}
            pg1, pg2, lite = by.get(("postgres", 1)), by.get(("postgres", 2)), by.get(("sqlite", 1))
            if pg1 and pg2 and pg1["decisions_per_second"]:
                found[f"pg 2 servers / 1 at {games}"].append(pg2["decisions_per_second"] / pg1["decisions_per_second"])
                if pg1["per_server_core"] and pg2["per_server_core"]:
                    found[f"pg 2 servers / 1 at {games}, per server core"].append(
                        pg2["per_server_core"] / pg1["per_server_core"])
            if pg1 and pg1["decisions_per_second"] and pg1.get("database_cores") is not None:
                # what a decision costs each part with one server, and the most two could make of it here
                rate = pg1["decisions_per_second"]
                server_ms = sum(pg1["server_cores"]) / rate * 1000
                other_ms = (pg1["database_cores"] + pg1["client_cores"]) / rate * 1000
                found[f"pg 1 server at {games}: ms of CPU a decision, server"].append(server_ms)
                found[f"pg 1 server at {games}: ms of CPU a decision, database + clients"].append(other_ms)
                found[f"pg 2 servers / 1 at {games}, the most {os.cpu_count()} cores allow"].append(
                    ceiling(rate, server_ms, other_ms, os.cpu_count() or 1, 2))
            if pg1 and lite and lite["decisions_per_second"]:
                found[f"pg 1 server / sqlite at {games}"].append(pg1["decisions_per_second"]
                                                                 / lite["decisions_per_second"])
            if lite:
                found[f"sqlite p99 ms at {games}"].append(lite["p99_ms"])
    ratios = {k: round(statistics.median(v), 2) for k, v in found.items()}
    return {"rows": rows, "ratios": ratios, "rounds": repeat}


def faults(pg: str = PG_DEFAULT, games: int = 20, seconds: float = 20.0, races: int = 100, servers: int = 2) -> dict:
    """Two servers on PostgreSQL, one killed with SIGKILL halfway, then ``races`` races."""
    return run("postgres", servers, games, seconds, "game", kill_at=0.5, races=races, pg=pg)


COLUMNS = ("backend", "servers", "games", "decisions_per_second", "per_server_core", "p50_ms", "p99_ms", "server_cores", "client_cores",
           "database_cores", "answers_5xx", "acknowledged", "stored", "acknowledged_equals_stored", "load_before", "load_after")


def print_rows(rows: list[dict]) -> None:
    print(" | ".join(COLUMNS))
    for r in rows:
        print(" | ".join(str(r.get(c)) for c in COLUMNS))
        if r.get("pg_waits"):
            print("     waits: " + "; ".join(f"{w['wait']} {w['sessions']}" for w in r["pg_waits"][:6]))
        if r.get("races"):
            print(f"     races: {r['races_one_step']}/{r['races']} one step {r['race_answers']}; "
                  f"killed server {r['killed_server']}, requests retried {r['retried']}, tables moved {r['moved']}")


def main(argv=None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m bench.evening", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default="20,40", help="tables in play, a comma-separated list (default 20,40)")
    ap.add_argument("--configs", default="sqlite:1,pg:1,pg:2",
                    help="store:servers, comma-separated (default sqlite:1,pg:1,pg:2)")
    ap.add_argument("--seconds", type=float, default=20.0, help="the measured window of each run (default 20)")
    ap.add_argument("--route", choices=("game", "any"), default="game",
                    help="game: a table's requests go to one server; any: each to a server at random")
    ap.add_argument("--repeat", type=int, default=1,
                    help="rounds of the matrix; each ratio is the median of its rounds' (default 1)")
    ap.add_argument("--faults", action="store_true", help="instead: two servers on PostgreSQL, a kill -9 and races")
    ap.add_argument("--races", type=int, default=100, help="races in the --faults run (default 100)")
    ap.add_argument("--pg", default=os.environ.get("PRIVATEER_BENCH_PG", PG_DEFAULT),
                    help="a PostgreSQL URL whose server may create the bench's databases")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.faults:
        out = faults(args.pg, games=int(args.games.split(",")[0]), seconds=args.seconds, races=args.races)
        if args.json:
            print(json.dumps(out, indent=2))
        else:
            print_rows([out])
        return 0 if out["acknowledged_equals_stored"] and not out["answers_5xx"] else 1
    configs = []
    for c in args.configs.split(","):
        backend, _, n = c.partition(":")
        if backend not in ("sqlite", "pg"):
            ap.error(f"--configs: {backend!r} is not sqlite or pg")
        configs.append((backend, int(n or 1)))
    out = matrix([int(g) for g in args.games.split(",")], configs, args.seconds, args.route, args.pg,
                 progress=not args.json, repeat=args.repeat)
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print_rows(out["rows"])
        for k, v in out["ratios"].items():
            print(f"{k}: {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

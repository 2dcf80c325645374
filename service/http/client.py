"""A small HTTP client for the service, and a way to run `tools serve` in a
subprocess (used by the tests and the benchmark)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterable
from typing import Any

import httpx


TAIL_BYTES = 1 << 16  # of the server's stderr, read for its last lines


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerProcess:
    """``tools serve`` on a free port, as a real process."""

    def __init__(self, db: str, organiser_key: str | None = None, host: str = "127.0.0.1", workers: int = 1,
                 env: dict[str, str] | None = None):
        self.db = db
        self.env = dict(env or {})
        self.workers = workers
        self.key = organiser_key or f"org-{uuid.uuid4().hex}"
        self.host = host
        self.port = free_port()
        self.url = f"http://{host}:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, ceiling: float = 300.0) -> "ServerProcess":
        """Start ``tools serve`` and wait for its readiness: until it answers ``/health``, however long a
        busy machine takes to import and open the store. ``ceiling`` only catches a server that hangs; a
        server that exits, or answers ``/health`` with an error, is an error at once. Its stderr goes to a
        file of its own, not a pipe: a pipe is read by a thread of this process, which waits for this
        process's interpreter, and a server logging every request under load (bench/evening.py) waited
        for it at every line once the pipe was full. The last lines are read from the file for the error."""
        env = dict(os.environ, PRIVATEER_ORGANISER_KEY=self.key)
        env.pop("PRIVATEER_CONFIG", None)
        env.update(self.env)
        self._stderr = tempfile.TemporaryFile(prefix="privateer-serve-", suffix=".log")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tools", "serve", "--host", self.host, "--port", str(self.port),
             "--db", self.db, "--workers", str(self.workers)],
            env=env, stdout=subprocess.DEVNULL, stderr=self._stderr)
        deadline = time.monotonic() + ceiling
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                code = self.proc.returncode
                self.stop()
                raise RuntimeError(f"tools serve exited with {code}: {self.stderr_tail()}")
            try:
                r = httpx.get(self.url + "/health", timeout=5)
            except httpx.HTTPError:  # not listening yet, or too busy to answer within 5 s: ask again
                time.sleep(0.05)
                continue
            if r.status_code == 200:
                return self
            self.stop()
            raise RuntimeError(f"tools serve answered /health with {r.status_code}: {r.text[:500]}")
        self.stop()
        raise RuntimeError(f"tools serve did not answer /health within {ceiling:.0f} s: {self.stderr_tail()}")

    def stderr_lines(self, n: int = 50) -> list[bytes]:
        """The last ``n`` lines the server wrote on stderr (each with its line end)."""
        log = getattr(self, "_stderr", None)
        if log is None:
            return []
        size = os.fstat(log.fileno()).st_size
        tail = os.pread(log.fileno(), TAIL_BYTES, max(0, size - TAIL_BYTES))
        return tail.splitlines(keepends=True)[-n:]

    def stderr_tail(self) -> str:
        """The last lines the server wrote on stderr."""
        return b"".join(self.stderr_lines()).decode(errors="replace")[-2000:]

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.proc = None  # its stderr's file stays readable (``stderr_lines``) until this helper is dropped

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


class Api:
    """Thin wrapper: one httpx client, JSON in and out."""

    def __init__(self, url: str, token: str | None = None, timeout: float = 30.0):
        self.http = httpx.Client(base_url=url, timeout=timeout, headers=auth(token))

    def close(self) -> None:
        self.http.close()

    def get(self, path: str, **kw: Any) -> httpx.Response:
        return self.http.get(path, **kw)

    def post(self, path: str, body: Any = None, **kw: Any) -> httpx.Response:
        return self.http.post(path, json=body, **kw)

    def ok(self, r: httpx.Response, status: int = 200) -> Any:
        if r.status_code != status:
            raise AssertionError(f"{r.request.method} {r.request.url}: {r.status_code} {r.text}")
        return r.json()

    # shortcuts ------------------------------------------------------------------
    def create(self, game: str, seats: int, **kw: Any) -> dict[str, Any]:
        return self.ok(self.post("/games", {"game": game, "seats": seats, **kw}), 201)

    def invite(self, gid: str, seat: int, player: str = "") -> str:
        """An invitation code for a seat (this client holds the organiser or referee key)."""
        return self.ok(self.post(f"/games/{gid}/invitations", {"seat": seat, "player": player}), 201)["code"]

    def join(self, gid: str, seat: int, code: str, entropy: str | None = None, player: str = "") -> dict[str, Any]:
        body = {"code": code}
        if entropy:
            body["entropy"] = entropy
        if player:
            body["player"] = player
        return self.ok(self.post(f"/games/{gid}/seats/{seat}/join", body), 201)

    def seat_up(self, gid: str, seats: Iterable[int], inviter: Api) -> dict[int, str]:
        """Invite (with ``inviter``) and join each seat; their tokens."""
        return {n: self.join(gid, n, inviter.invite(gid, n))["token"] for n in seats}

    def status(self, gid: str) -> dict[str, Any]:
        return self.ok(self.get(f"/games/{gid}"))

    def legal(self, gid: str) -> dict[str, Any]:
        return self.ok(self.get(f"/games/{gid}/legal"))

    def decide(self, gid: str, decision: dict[str, Any], version: int, key: str | None = None) -> httpx.Response:
        headers = {"Idempotency-Key": key} if key else {}
        return self.post(f"/games/{gid}/decisions", {"decision": decision, "expected_version": version},
                         headers=headers)


def read_stream(url: str, gid: str, token: str | None = None, after: int = 0, timeout: float = 60.0) -> list[dict]:
    """Read the SSE stream until it ends (the game is finished) or times out."""
    out: list[dict[str, Any]] = []
    event: str | None = None
    data: list[str] = []
    eid: str | None = None
    with httpx.stream("GET", f"{url}/games/{gid}/stream", params={"after": after, "timeout": timeout},
                      headers=auth(token), timeout=timeout + 10) as r:
        if r.status_code != 200:
            r.read()
            raise AssertionError(f"stream: {r.status_code} {r.text}")
        for line in r.iter_lines():
            if line == "":
                if event is not None or data:
                    out.append({"event": event, "id": eid, "data": json.loads("\n".join(data)) if data else None})
                event, data, eid = None, [], None
                continue
            if line.startswith(":"):
                continue
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "event":
                event = value
            elif field == "data":
                data.append(value)
            elif field == "id":
                eid = value
    return out

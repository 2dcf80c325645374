"""Limits on what one request may cost the service.

* ``PRIVATEER_MAX_BODY`` (bytes, default 65536): a larger request body is
  refused with 413 before anything reads it: at once when its Content-Length
  says so, else (chunked) as soon as the bytes received pass the limit.
* ``PRIVATEER_STREAM_MAX_SECONDS`` (default 600) and
  ``PRIVATEER_STREAM_MAX_EVENTS`` (default 10000): a live stream ends with
  ``event: end`` when either is reached (the client resumes with ``?after=``).

``tools serve --max-body/--stream-max-seconds/--stream-max-events`` set them.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass


def _env_int(name: str, default: int) -> int:
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    value = int(text)
    if value < 1:
        raise ValueError(f"{name} must be at least 1")
    return value


@dataclass(frozen=True)
class Limits:
    max_body: int = 64 * 1024
    stream_seconds: int = 600
    stream_events: int = 10_000

    @classmethod
    def from_env(cls) -> "Limits":
        return cls(max_body=_env_int("PRIVATEER_MAX_BODY", cls.max_body),
                   stream_seconds=_env_int("PRIVATEER_STREAM_MAX_SECONDS", cls.stream_seconds),
                   stream_events=_env_int("PRIVATEER_STREAM_MAX_EVENTS", cls.stream_events))


class BodyLimit:
    """ASGI middleware: read the whole body (at most ``max_body`` bytes) before
    the application sees the request; answer 413 past the limit."""

    def __init__(self, app, max_body: int):
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = None
        for name, value in scope.get("headers") or ():
            if name == b"content-length":
                try:
                    length = int(value)
                except ValueError:
                    await _refuse(send, 400, "bad_input", "the Content-Length header is not a number")
                    return
        if length is not None and length > self.max_body:
            await _refuse(send, 413, "too_large", f"the request body is larger than {self.max_body} bytes")
            return
        chunks, total = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            body = message.get("body", b"")
            total += len(body)
            if total > self.max_body:
                await _refuse(send, 413, "too_large", f"the request body is larger than {self.max_body} bytes")
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        await self.app(scope, replaying(b"".join(chunks), receive), send)


def replaying(body: bytes, receive):
    """An ASGI ``receive`` that gives the whole ``body`` (already read) once,
    then whatever ``receive`` gives (a disconnect)."""
    given = False

    async def replay():
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


async def _refuse(send, status: int, kind: str, reason: str) -> None:
    body = json.dumps({"error": kind, "reason": reason}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})

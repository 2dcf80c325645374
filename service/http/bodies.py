"""Request bodies, read whole before the application sees them (``WholeBody``,
the outermost ASGI middleware):

* over the size limit (``Limits.max_body``): 413, at once when the
  Content-Length says so, else (chunked) as soon as the bytes received pass it;
* not UTF-8 text: 400. Every body this API takes is a JSON text, which must be
  UTF-8 (RFC 8259); Python's JSON reader would otherwise take UTF-16 and
  UTF-32 too. A JSON text in UTF-8 holds no NUL byte (a NUL inside a string is
  written ``\\u0000``); one in UTF-16 or UTF-32 always does;
* JSON that no route could read as sent: 400, saying what (service/json_text.py): a
  key given twice in one object (named), nesting deeper than the reader goes, an
  integer of more than 4300 digits. A body that is not JSON at all goes on: the
  route says where it is wrong, as it always has.

Nothing is appended on any refusal.
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.json_text import loads
from service.kernel.errors import BadInput

NOT_UTF8 = "the body is not JSON text in UTF-8"
CANNOT_READ = "the body cannot be read as JSON"  # what the framework's reader gave up on, which no check foresaw


def json_refused(text: str) -> str | None:
    """Why the body's JSON cannot be taken as sent, or None (it can, or it is no JSON at all)."""
    try:
        loads(text, "the body")
    except BadInput as e:
        return e.reason
    except ValueError:  # not JSON: the route's own reading says where
        pass
    return None


def utf8_text(body: bytes) -> bool:
    if b"\x00" in body:
        return False
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


class WholeBody:
    """ASGI middleware: read the whole body (at most ``max_body`` bytes, or the
    limit ``larger`` gives its path) before the application sees the request;
    answer 413 past the limit, 400 if it is not UTF-8 text."""

    def __init__(self, app: ASGIApp, max_body: int, larger: dict[str, int] | None = None):
        self.app = app
        self.max_body = max_body
        self.larger = larger or {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.larger.get(scope.get("path", ""), self.max_body)
        length = None
        for name, value in scope.get("headers") or ():
            if name == b"content-length":
                try:
                    length = int(value)
                except ValueError:
                    await _refuse(send, 400, "bad_input", "the Content-Length header is not a number")
                    return
        if length is not None and length > limit:
            await _refuse(send, 413, "too_large", f"the request body is larger than {limit} bytes")
            return
        chunks: list[bytes] = []
        total = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            body = message.get("body", b"")
            total += len(body)
            if total > limit:
                await _refuse(send, 413, "too_large", f"the request body is larger than {limit} bytes")
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if body and not utf8_text(body):
            await _refuse(send, 400, "bad_input", NOT_UTF8)
            return
        refused = json_refused(body.decode("utf-8")) if body else None
        if refused is not None:
            await _refuse(send, 400, "bad_input", refused)
            return
        await self.app(scope, replaying(body, receive), send)


def replaying(body: bytes, receive: Receive) -> Receive:
    """An ASGI ``receive`` that gives the whole ``body`` (already read) once,
    then whatever ``receive`` gives (a disconnect)."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


async def _refuse(send: Send, status: int, kind: str, reason: str) -> None:
    body = json.dumps({"error": kind, "reason": reason}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})

"""The request log (ASGI middleware, outermost): one line a request, on the
``service.http.requestlog`` logger, with ``method``, ``path`` (never the query
string, where a page may carry a token), ``status``, ``ms`` and the game's id
when the path names one. A refusal (4xx) adds its ``error`` kind and its
``reason``; a failure (5xx) is logged at ERROR (its traceback by
``errors.answer``, which answers it).

Nothing here reads a header: no Authorization, no seat token reaches the log.
A refusal by the rules (``illegal``, ``not_your_turn``, ...) may name what
only the refused seat sees: its reason is withheld, its kind is logged. Any
other reason is logged with anything shaped like a key blanked
(``service.logs.scrub``)."""

from __future__ import annotations

import json
import logging
import re
import time
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.logs import logger, scrub

log = logger(__name__)

# the rules' refusals (service/kernel/errors.py): their reasons may name a seat's hidden cards
WITHHELD = frozenset({"illegal", "not_your_turn", "no_chance_awaited"})
MAX_BODY = 4096  # of a refusal's body, read for its kind and reason
_GAME = re.compile(r"^/(?:games|play|join|referee)/([0-9a-f]{6,32})(?:/|$)")


class RequestLog:
    """ASGI middleware: one log line for every HTTP request, once it is answered."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        seen: dict[str, Any] = {"status": None, "body": b""}

        async def watched(message: Message) -> None:
            if message["type"] == "http.response.start":
                seen["status"] = message["status"]
            elif message["type"] == "http.response.body" and (seen["status"] or 0) >= 400:
                if len(seen["body"]) < MAX_BODY:
                    seen["body"] += bytes(message.get("body", b""))[:MAX_BODY]
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except Exception:  # logged as a failure (its traceback by the handler that answered it), raised on
            _line(scope, seen["status"] or 500, started, b"", failed=True)
            raise
        if seen["status"] is not None:
            _line(scope, seen["status"], started, seen["body"])


def _line(scope: Scope, status: int, started: float, body: bytes, failed: bool = False) -> None:
    path = scope.get("path", "")
    fields: dict[str, Any] = {"method": scope.get("method"), "path": path, "status": status,
                    "ms": round((time.perf_counter() - started) * 1000, 1)}
    m = _GAME.match(path)
    if m:
        fields["game_id"] = m.group(1)
    level = logging.INFO
    if status >= 500 or failed:
        level = logging.ERROR
    if status >= 400:
        error, reason = _refusal(body)
        if error is not None:
            fields["error"] = error
            fields["reason"] = "(withheld: a rules refusal may name a hidden fact)" if error in WITHHELD \
                else scrub(reason)
    log.log(level, "request", extra=fields)


def _refusal(body: bytes) -> tuple[str | None, str]:
    """A refusal's ``(error kind, reason)`` from its body (errors.py's shape), or ``(None, "")``."""
    try:
        doc = json.loads(body)
    except ValueError:  # not JSON (a page's refusal, a cut-short body): the status says it
        return None, ""
    if not isinstance(doc, dict) or not isinstance(doc.get("error"), str):
        return None, ""
    return doc["error"], str(doc.get("reason", ""))[:300]

"""The play loop's three requests without the framework's per-request machinery.

A game is played by ``GET /games/{id}`` (status), ``GET /games/{id}/legal``
and ``POST /games/{id}/decisions``, hundreds of times a minute per table.
FastAPI answers each by matching the route among all of them, solving its
dependencies and analysing their annotations again; measured under load
(bench/http_bench.py) that costs more than the game's own work. ``PlayLoop``
is an ASGI middleware that answers exactly these three requests in their
plain form itself: it parses the path and the two headers, validates the
body with the same model (``SubmitDecision``), calls the very functions the
routes are thin wrappers of (``status_of``, ``legal_of``, ``decide_on`` in
routes_play.py), answers an error with the application's own
(``errors.answer``), and serializes the answer with the route's response
model, so the answer is the one the route gives, byte for byte, and a
change to a behaviour is made once. Anything else, and any
of these three that is not plain (a query string, a body the model refuses,
a header over its limit), goes on to the application unchanged, body
included; the route then answers it, with its own error messages.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import TypeAdapter, ValidationError
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from . import models as m
from .errors import answer
from .bodies import replaying
from .core import GameService
from .route_params import MAX_ID, MAX_KEY
from .routes_play import decide_on, legal_of, status_of

_STATUS = TypeAdapter(m.Status)
_LEGAL = TypeAdapter(m.Legal)
_APPENDED = TypeAdapter(m.Appended)


def _json_response(adapter: TypeAdapter[Any], value: dict[str, Any], status: int) -> Response:
    """The route's answer: the value validated and serialized by its response model."""
    body = adapter.dump_json(adapter.validate_python(value))
    return Response(body, status_code=status, media_type="application/json")


class PlayLoop:
    """ASGI middleware answering with the functions the routes wrap
    (service/http/routes_play.py), for ``service``."""

    def __init__(self, app: ASGIApp, service: GameService):
        self.app = app
        self.service = service

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = _play_request(scope)
        if request is None:
            await self.app(scope, receive, send)
            return
        kind, game_id, auth, key = request
        body = None
        if kind == "decide":
            body = await _read_body(receive)
            if body is None:  # the client went away
                return
            response = await self._decide(game_id, auth, key, body)
        elif kind == "legal":
            response = self._answer(_LEGAL, 200, legal_of, game_id, auth, None)
        else:
            response = self._answer(_STATUS, 200, status_of, game_id, auth)
        if response is None:  # not plain: the route answers, and reads the same body
            await self.app(scope, receive if body is None else replaying(body, receive), send)
            return
        await response(scope, receive, send)

    def _answer(self, adapter: TypeAdapter[Any], status: int, handler: Callable[..., dict[str, Any]],
                *args: Any) -> Response:
        try:
            return _json_response(adapter, handler(self.service, *args), status)
        except Exception as e:  # noqa: BLE001 - answered as the application's handlers answer it
            return answer(e)

    async def _decide(self, game_id: str, auth: str | None, key: str | None, body: bytes) -> Response | None:
        if not body or (key is not None and len(key) > MAX_KEY):
            return None
        try:
            submitted = m.SubmitDecision.model_validate_json(body)
        except ValidationError:
            return None
        try:  # a coroutine: the step's commit is awaited off the loop (Steps.decide)
            return _json_response(_APPENDED, await decide_on(self.service, game_id, auth, submitted, key), 201)
        except Exception as e:  # noqa: BLE001 - answered as the application's handlers answer it
            return answer(e)


def _play_request(scope: Scope) -> tuple[str, str, str | None, str | None] | None:
    """``(kind, game id, Authorization, Idempotency-Key)`` of a plain play-loop
    request, else None."""
    if scope["type"] != "http" or scope["query_string"]:
        return None
    parts = scope["path"].split("/")
    # ["", "games", id] or ["", "games", id, "legal" | "decisions"]
    if not 3 <= len(parts) <= 4 or parts[1] != "games" or parts[0] or not parts[2] or len(parts[2]) > MAX_ID:
        return None
    method, tail = scope["method"], parts[3] if len(parts) == 4 else None
    if method == "GET" and tail is None:
        kind = "status"
    elif method == "GET" and tail == "legal":
        kind = "legal"
    elif method == "POST" and tail == "decisions":
        kind = "decide"
    else:
        return None
    auth: str | None = None
    key: str | None = None
    for name, value in scope["headers"]:
        if name == b"authorization" and auth is None:  # the first of each, as the routes read them
            auth = value.decode("latin-1")
        elif name == b"idempotency-key" and key is None:
            key = value.decode("latin-1")
    return kind, parts[2], auth, key


async def _read_body(receive: Receive) -> bytes | None:
    """The whole body (``WholeBody``, outside this middleware, has read and
    checked it already); None if the client went away."""
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)

"""The play loop's three requests without the framework's per-request machinery.

A game is played by ``GET /games/{id}`` (status), ``GET /games/{id}/legal``
and ``POST /games/{id}/decisions``, hundreds of times a minute per table.
FastAPI answers each by matching the route among all of them, solving its
dependencies and analysing their annotations again; measured under load
(bench/http_bench.py) that costs more than the game's own work. ``PlayLoop``
is an ASGI middleware that answers exactly these three requests in their
plain form itself: it parses the path and the two headers, validates the
body with the same model (``SubmitDecision``), calls the same handlers the
routes call, and serializes the answer with the route's response model, so
the answer is the one the route gives, byte for byte. Anything else, and any
of these three that is not plain (a query string, a body the model refuses,
a header over its limit), goes on to the application unchanged, body
included; the route then answers it, with its own error messages.
"""

from __future__ import annotations

from pydantic import TypeAdapter, ValidationError
from starlette.responses import JSONResponse, Response

from service.kernel.errors import PrivateerError

from . import models as m
from .core import Replayed
from .limits import replaying

MAX_ID = 100   # as the routes' GameIdPath
MAX_KEY = 200  # as the routes' IdemKey

_STATUS = TypeAdapter(m.Status)
_LEGAL = TypeAdapter(m.Legal)
_APPENDED = TypeAdapter(m.Appended)


def _json_response(adapter: TypeAdapter, value, status: int) -> Response:
    """The route's answer: the value validated and serialized by its response model."""
    body = adapter.dump_json(adapter.validate_python(value))
    return Response(body, status_code=status, media_type="application/json")


def _error(exc: BaseException) -> Response:
    """What the application's exception handlers answer (service/http/app.py)."""
    if isinstance(exc, PrivateerError):
        return JSONResponse({"error": exc.kind, "reason": exc.reason}, status_code=exc.http_status)
    if isinstance(exc, Replayed):
        return JSONResponse(exc.body, status_code=exc.status, headers={"Idempotency-Replayed": "true"})
    return JSONResponse({"error": "internal", "reason": f"the service failed ({type(exc).__name__}); this is a bug"},
                        status_code=500)


class PlayLoop:
    """ASGI middleware; ``handlers``: ``status(game_id, authorization)``,
    ``legal(game_id, authorization, seat)`` and the coroutine ``decide(game_id,
    authorization, body, idempotency_key)``, the functions the routes call."""

    def __init__(self, app, handlers: dict):
        self.app = app
        self.handlers = handlers

    async def __call__(self, scope, receive, send):
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
            response = self._answer(_LEGAL, 200, self.handlers["legal"], game_id, auth, None)
        else:
            response = self._answer(_STATUS, 200, self.handlers["status"], game_id, auth)
        if response is None:  # not plain: the route answers, and reads the same body
            await self.app(scope, receive if body is None else replaying(body, receive), send)
            return
        await response(scope, receive, send)

    @staticmethod
    def _answer(adapter: TypeAdapter, status: int, handler, *args) -> Response:
        try:
            return _json_response(adapter, handler(*args), status)
        except Exception as e:  # noqa: BLE001 - answered as the application's handlers answer it
            return _error(e)

    async def _decide(self, game_id: str, auth, key, body: bytes) -> Response | None:
        if not body or (key is not None and len(key) > MAX_KEY):
            return None
        try:
            submitted = m.SubmitDecision.model_validate_json(body)
        except ValidationError:
            return None
        try:  # the handler is a coroutine: the step's commit is awaited off the loop (GameService.decide)
            return _json_response(_APPENDED, await self.handlers["decide"](game_id, auth, submitted, key), 201)
        except Exception as e:  # noqa: BLE001 - answered as the application's handlers answer it
            return _error(e)


def _play_request(scope) -> tuple | None:
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
    auth = key = None
    for name, value in scope["headers"]:
        if name == b"authorization" and auth is None:  # the first of each, as the routes read them
            auth = value.decode("latin-1")
        elif name == b"idempotency-key" and key is None:
            key = value.decode("latin-1")
    return kind, parts[2], auth, key


async def _read_body(receive) -> bytes | None:
    """The whole body (``BodyLimit``, outside this middleware, has read and
    checked it already); None if the client went away."""
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)

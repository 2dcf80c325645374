"""What the routers share: the service as a dependency, the credential and
idempotency headers, the game id in the path, and the OpenAPI notes on
security and errors."""

from __future__ import annotations

from typing import Annotated, Any, Optional, TypedDict

from fastapi import Depends, Header, Path, Request

from . import models as m
from .core import GameService



class Security(TypedDict):
    """A route decorator's keyword arguments that say who may call it (``@router.get(..., **NEEDS)``)."""
    openapi_extra: dict[str, Any]


NEEDS: Security = {"openapi_extra": {"security": [{"bearer": []}]}}  # a credential is required
MAY: Security = {"openapi_extra": {"security": [{}, {"bearer": []}]}}  # without one: a spectator
ERRORS: dict[int | str, dict[str, Any]] = {code: {"model": m.ErrorBody} for code in (400, 401, 403, 404, 409, 413, 422)}
MAX_ID = 100   # a game id (or a prefix) in a path
MAX_KEY = 200  # an Idempotency-Key


async def _service(request: Request) -> GameService:
    return request.app.state.service


Service = Annotated[GameService, Depends(_service)]
Auth = Annotated[Optional[str], Header(alias="Authorization", include_in_schema=False)]
IdemKey = Annotated[Optional[str], Header(alias="Idempotency-Key", max_length=MAX_KEY,
                                          description="Retrying with the same key returns the first result "
                                                      "and appends nothing.")]
GameIdPath = Annotated[str, Path(description="Game id (or a unique prefix of 6+ characters).",
                                 max_length=MAX_ID)]


def wants_html(request: Request) -> bool:
    accept = request.headers.get("accept", "")
    return "text/html" in accept and "application/json" not in accept

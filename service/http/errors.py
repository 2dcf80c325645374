"""Every error the service answers, one line each: ``{"error": kind, "reason": ...}``.
``answer(exc)`` is the one answer for an exception, given by the application's
handlers and by the play loop's fast path alike (service/http/fast.py)."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.requests import Request
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from service.kernel.errors import PrivateerError
from service.logs import logger

from .bodies import CANNOT_READ
from .steps import Replayed

log = logger(__name__)
MAX_REASON = 300


def error(status: int, kind: str, reason: str) -> JSONResponse:
    return JSONResponse({"error": kind, "reason": one_line(reason)}, status_code=status)


def one_line(reason: object) -> str:
    """A reason as one line: line breaks (a rule's or a library's text) become spaces."""
    text = str(reason)
    return " ".join(text.split()) if "\n" in text or "\r" in text else text


def answer(exc: BaseException) -> JSONResponse:
    """A typed error as its status and kind; an idempotent request's first
    result again; anything else is a bug, said in one line."""
    if isinstance(exc, PrivateerError):
        if exc.http_status >= 500:  # a damaged history: the operator's to look into
            log.error("answered %d %s: %s", exc.http_status, exc.kind, exc.reason)
        return error(exc.http_status, exc.kind, exc.reason)
    if isinstance(exc, Replayed):
        return JSONResponse(exc.body, status_code=exc.status, headers={"Idempotency-Replayed": "true"})
    log.error("the service failed (%s): answered 500", type(exc).__name__, exc_info=exc)
    return error(500, "internal", f"the service failed ({type(exc).__name__}); this is a bug")


def malformed(exc: RequestValidationError) -> JSONResponse:
    errs = exc.errors()
    if errs:
        e = errs[0]
        if e.get("type") == "json_invalid":
            return error(400, "bad_input",
                         f"the body is not valid JSON ({e.get('ctx', {}).get('error', 'decode error')})"[:MAX_REASON])
        where = ".".join(str(p) for p in e.get("loc", ()) if p != "body") or "request"
        reason = f"{where}: {e.get('msg', 'invalid')}"
    else:
        reason = "malformed request"
    return error(400, "bad_input", reason[:MAX_REASON])


def install(api: FastAPI) -> None:
    """The application's exception handlers."""

    @api.exception_handler(PrivateerError)
    async def _typed(request: Request, exc: PrivateerError) -> JSONResponse:
        return answer(exc)

    @api.exception_handler(Replayed)
    async def _replayed(request: Request, exc: Replayed) -> JSONResponse:
        return answer(exc)

    @api.exception_handler(RequestValidationError)
    async def _malformed(request: Request, exc: RequestValidationError) -> JSONResponse:
        return malformed(exc)

    @api.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        kind = {400: "bad_input", 404: "not_found", 405: "method_not_allowed",
                413: "too_large"}.get(exc.status_code, "error")
        reason = str(exc.detail)
        if exc.status_code == 400 and "parsing the body" in reason:
            reason = CANNOT_READ
        return error(exc.status_code, kind, reason)

    @api.exception_handler(Exception)
    async def _bug(request: Request, exc: Exception) -> JSONResponse:  # a bug, never bad input: say so in one line
        return answer(exc)

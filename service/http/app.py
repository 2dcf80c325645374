"""The HTTP JSON API (FastAPI). ``create_app(db, organiser_key)`` builds it;
``tools serve`` runs it with uvicorn.

Status codes: 200/201 ok, 400 malformed input, 401 no or unknown credential,
403 a credential without the right (or a wrong invitation code), 404 unknown
game (or a private fork the caller may not know of), 409 stale expected
version, a taken seat or a used invitation, 413 a body over the size limit,
422 a decision the rules refuse (with the rules' reason). Nothing is appended
on any error. Errors are ``{"error", "reason"}``.
"""

from __future__ import annotations

import asyncio
import json
from contextlib import asynccontextmanager
from pathlib import Path as FilePath
from typing import Annotated, Optional

from fastapi import FastAPI, Header, Path, Query, Request
from fastapi.openapi.utils import get_openapi
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from service.kernel.errors import PrivateerError
from service.kernel.rules import available_games
from service.views import card_namer, log_entries

from . import models as m
from .auth import Unauthorized, bearer
from .core import GameService, Replayed
from .changes import FALLBACK_SECONDS, woken_or_timeout
from .pages import standings_page
from .fast import PlayLoop
from .limits import BodyLimit, Limits

NEEDS = {"openapi_extra": {"security": [{"bearer": []}]}}  # a credential is required
MAY = {"openapi_extra": {"security": [{}, {"bearer": []}]}}  # without one: a spectator
ERRORS = {code: {"model": m.ErrorBody} for code in (400, 401, 403, 404, 409, 413, 422)}
MAX_ID = 100
SSE_EVENT = {  # one Server-Sent Event (OpenAPI 3.2 itemSchema)
    "type": "object", "required": ["event", "data"],
    "properties": {
        "event": {"type": "string", "enum": ["game-event", "status", "end"]},
        "id": {"type": "string", "pattern": "^[0-9]+$"},
        "data": {"type": "string", "contentMediaType": "application/json",
                 "contentSchema": {"type": "object", "required": ["version"],
                                   "properties": {"version": {"type": "integer"},
                                                  "reason": {"type": "string",
                                                             "enum": ["finished", "time limit", "event limit"]}}}},
        "retry": {"type": "integer"},
    },
}

Auth = Annotated[Optional[str], Header(alias="Authorization", include_in_schema=False)]
IdemKey = Annotated[Optional[str], Header(alias="Idempotency-Key", max_length=200,
                                          description="Retrying with the same key returns the first result "
                                                      "and appends nothing.")]
GameIdPath = Annotated[str, Path(description="Game id (or a unique prefix of 6+ characters).",
                                 max_length=MAX_ID)]


def error(status: int, kind: str, reason: str) -> JSONResponse:
    return JSONResponse({"error": kind, "reason": reason}, status_code=status)


VIEWER = FilePath(__file__).with_name("viewer")  # the replay viewer's page, served as files (no build step)


def _wants_html(request: Request) -> bool:
    accept = request.headers.get("accept", "")
    return "text/html" in accept and "application/json" not in accept


def _offline_docs(api: FastAPI) -> None:
    """The interactive API page at /docs with Swagger UI's files from an
    installed package (``swagger-ui-bundle``), so it works without a network;
    /redoc, which has no such package, leads to /docs."""
    from fastapi.openapi.docs import get_swagger_ui_html
    from fastapi.responses import RedirectResponse
    from fastapi.staticfiles import StaticFiles
    from swagger_ui_bundle import swagger_ui_path

    api.mount("/docs-assets", StaticFiles(directory=swagger_ui_path), name="docs-assets")

    @api.get("/docs", include_in_schema=False)
    async def docs():
        return get_swagger_ui_html(openapi_url="/openapi.json", title="privateer API",
                                   swagger_js_url="/docs-assets/swagger-ui-bundle.js",
                                   swagger_css_url="/docs-assets/swagger-ui.css",
                                   swagger_favicon_url="/docs-assets/favicon-32x32.png")

    @api.get("/redoc", include_in_schema=False)
    async def redoc():
        return RedirectResponse("/docs")


def create_app(db: str | None, organiser_key: str, limits: Limits | None = None, play_loop: bool = True) -> FastAPI:
    """``play_loop=False``: every request goes through the framework's routes
    (the fast path's answers are tested against theirs)."""
    from service.app import Privateer

    limits = limits or Limits.from_env()
    svc = GameService(Privateer(db), organiser_key)

    @asynccontextmanager
    async def lifespan(_api):
        yield
        svc.close()  # the steps sent are committed before the server ends

    api = FastAPI(
        lifespan=lifespan,
        title="privateer",
        version="1",
        description="Referee, record and replay pirate tabletop games: seats, hidden views, live stream. "
                    "Credentials travel as `Authorization: Bearer <organiser key | referee key | seat token>`; "
                    "without one you are a spectator and see public facts only.",
        docs_url=None, redoc_url=None,  # served below from installed files: no CDN, works offline
    )
    _offline_docs(api)
    api.mount("/viewer-assets", StaticFiles(directory=VIEWER), name="viewer-assets")
    api.state.service = svc
    api.state.limits = limits

    @api.exception_handler(PrivateerError)
    async def _typed(request, exc: PrivateerError):
        return error(exc.http_status, exc.kind, exc.reason)

    @api.exception_handler(Replayed)
    async def _replayed(request, exc: Replayed):
        return JSONResponse(exc.body, status_code=exc.status, headers={"Idempotency-Replayed": "true"})

    @api.exception_handler(RequestValidationError)
    async def _malformed(request, exc: RequestValidationError):
        errs = exc.errors()
        if errs:
            e = errs[0]
            if e.get("type") == "json_invalid":
                return error(400, "bad_input", f"the body is not valid JSON ({e.get('ctx', {}).get('error', 'decode error')})"[:300])
            where = ".".join(str(p) for p in e.get("loc", ()) if p != "body") or "request"
            reason = f"{where}: {e.get('msg', 'invalid')}"
        else:
            reason = "malformed request"
        return error(400, "bad_input", reason[:300])

    @api.exception_handler(StarletteHTTPException)
    async def _http(request, exc: StarletteHTTPException):
        kind = {400: "bad_input", 404: "not_found", 405: "method_not_allowed",
                413: "too_large"}.get(exc.status_code, "error")
        reason = str(exc.detail)
        if exc.status_code == 400 and "parsing the body" in reason:
            reason = "the body is not JSON text in UTF-8"
        return error(exc.status_code, kind, reason)

    @api.exception_handler(Exception)
    async def _bug(request, exc: Exception):  # a bug, never bad input: say so in one line
        return error(500, "internal", f"the service failed ({type(exc).__name__}); this is a bug")

    def run(fn, *a, **kw):
        return run_in_threadpool(fn, *a, **kw)

    def locate(game_id: str, authorization: str | None, code: str | None = None):
        """The game (404 before any auth question, and for a private fork the
        caller may not know of) and the caller's token."""
        try:
            token, bad = bearer(authorization), None
        except Unauthorized as e:
            token, bad = None, e
        gid, row = svc.access.locate(game_id, token, code)
        if bad is not None:
            raise bad
        return gid, row, token

    def who_row(game_id: str, authorization: str | None):
        gid, row, token = locate(game_id, authorization)
        caller = svc.caller(gid, token)
        if caller.role == "seat" and row.get("parent"):
            svc.access.guard_seats(row, "no seat reads")
        return gid, caller, row

    def who(game_id: str, authorization: str | None):
        gid, caller, _ = who_row(game_id, authorization)
        return gid, caller

    # ------------------------------------------------------------------------
    @api.get("/standings", response_model=list[m.StandingRow], responses=ERRORS, tags=["public"])
    def standings(request: Request,
                  tournament: Annotated[Optional[str], Query(max_length=200, description="Only this tournament.")] = None):
        """Tournament standings by named player: per game kind, then over all kinds of each tournament
        (ranked by wins, then win rate, then average score; forks never count). A browser gets a page."""
        from service.projections import catch_up, open_view
        from service.projections.model import overall_rows

        view = open_view(svc.app)
        try:
            catch_up(svc.app, view)
            rated = view.ratings(tournament)
            rows = view.standings(tournament, rated)
            games = view.games()
        finally:
            view.close()
        kinds: dict = {}
        for r in rows:
            kinds.setdefault(r["tournament"], set()).add(r["game"])
        rows = rows + [r for r in overall_rows(rows, rated) if len(kinds.get(r["tournament"], ())) > 1]
        if _wants_html(request):
            unfinished = [g for g in games if not g["finished"] and not g.get("parent")
                          and (tournament is None or g["tournament"] == tournament)]
            return HTMLResponse(standings_page(rows, unfinished, tournament))
        return rows

    @api.get("/health", response_model=m.Health, tags=["service"])
    def health():
        return {"ok": True, "games": available_games(), "audit_runs": svc.audit_runs}

    @api.post("/games", response_model=m.Created, status_code=201, responses=ERRORS, tags=["organiser"], **NEEDS)
    def create_game(body: m.CreateGame, authorization: Auth = None):
        """Create a game (organiser). Returns the game's referee key, once."""
        svc.organiser(bearer(authorization))
        return svc.create(body.model_dump())

    @api.get("/games", response_model=list[m.GameRow], responses=ERRORS, tags=["public"], **MAY)
    def list_games(authorization: Auth = None):
        """The games index; a fork not yet published is listed only for its referee and the organiser."""
        token = bearer(authorization)
        organiser = token is not None and svc.is_organiser_token(token)
        # the store's version counts events hidden from the public: only the organiser sees it here
        return [dict(r, published=svc.access.published(r["game_id"]) if r.get("parent") else None,
                     version=r["version"] if organiser else None)
                for r in svc.access.listed(svc.app.games(), token)]

    # The play loop's routes (status, legal, decisions, chance) are declared ``async``: their
    # work is a few hundred microseconds in memory plus at most one local commit, so they
    # run on the event loop itself; a hop to the thread pool and back costs more than that
    # (measured: bench/http_bench.py). Longer work (audit, replay, log pages, pictures,
    # fork, export) stays in the thread pool, where it does not hold up the loop.
    # ... and the plain form of three of them (status, legal, a decision) is answered before the
    # framework's routing, by the same functions, with the same models (service/http/fast.py)
    def status_of(game_id: str, authorization: str | None) -> dict:
        gid, caller = who(game_id, authorization)
        return svc.status(gid, caller)

    def legal_of(game_id: str, authorization: str | None, seat: int | None) -> dict:
        gid, caller = who(game_id, authorization)
        return svc.legal(gid, caller, seat)

    async def decide_on(game_id: str, authorization: str | None, body: m.SubmitDecision, key: str | None) -> dict:
        gid, caller = who(game_id, authorization)
        return await svc.decide(gid, caller, body.decision, body.expected_version, body.seat, key)

    if play_loop:
        api.add_middleware(PlayLoop, handlers={"status": status_of, "legal": legal_of, "decide": decide_on})
    api.add_middleware(BodyLimit, max_body=limits.max_body)  # outermost: the play loop reads checked bodies

    @api.get("/games/{game_id}", response_model=m.Status, responses=ERRORS, tags=["public"], **MAY)
    async def game_status(game_id: GameIdPath, authorization: Auth = None):
        return status_of(game_id, authorization)

    @api.post("/games/{game_id}/invitations", response_model=m.Invitation, status_code=201, responses=ERRORS,
              tags=["referee"], **NEEDS)
    def invite(game_id: GameIdPath, body: m.Invite, authorization: Auth = None):
        """Invite a player to a seat (organiser or the game's referee): a one-time code for that
        seat, shown once (stored hashed), optionally naming the player the seat is reserved for."""
        gid, caller, row = who_row(game_id, authorization)
        _need_referee(caller)
        return svc.invite(gid, row, body.seat, body.player)

    @api.get("/games/{game_id}/invitations", response_model=list[m.InvitationRow], responses=ERRORS,
             tags=["referee"], **NEEDS)
    def invitations(game_id: GameIdPath, authorization: Auth = None):
        """The game's invitations (never their codes) and whether each was used."""
        gid, caller = who(game_id, authorization)
        _need_referee(caller)
        return svc.invitations(gid)

    @api.post("/games/{game_id}/seats/{seat}/join", response_model=m.Joined, status_code=201, responses=ERRORS,
              tags=["seats"])
    def join_seat(game_id: GameIdPath, seat: Annotated[int, Path(ge=1, le=64)], body: m.JoinSeat):
        """Take a seat with its invitation code: returns the seat's token, once (stored hashed); the
        code is used up in the same transaction. Optional entropy is mixed into the seed's key (only
        before the setup: games created with wait_for_seats). The setup runs when the last seat of a
        waiting game is taken."""
        gid, row, _ = locate(game_id, None, code=body.code)
        return svc.join(gid, row, seat, body.code, body.entropy, body.player)

    @api.post("/games/{game_id}/publish", response_model=m.Published, responses=ERRORS, tags=["referee"], **NEEDS)
    def publish(game_id: GameIdPath, authorization: Auth = None):
        """Make a fork public (organiser or the fork's referee): listed and readable by anyone. Refused
        while a game it was forked from is unfinished."""
        gid, caller, row = who_row(game_id, authorization)
        _need_referee(caller)
        return svc.publish(gid, row)

    @api.post("/games/{game_id}/start", response_model=m.Status, responses=ERRORS, tags=["referee"], **NEEDS)
    def start_game(game_id: GameIdPath, authorization: Auth = None):
        """Run the setup of a game created with wait_for_seats (referee or organiser)."""
        gid, caller = who(game_id, authorization)
        _need_referee(caller)
        return svc.start(gid)

    @api.get("/games/{game_id}/view", response_model=m.Board, responses=ERRORS, tags=["public"], **MAY)
    def view(request: Request, game_id: GameIdPath, authorization: Auth = None):
        """The table as the caller may see it: a seat's view, the referee's, or the public one.
        A browser (asking for text/html) gets the replay viewer page instead."""
        if _wants_html(request):
            gid, _, _ = locate(game_id, authorization)
            return FileResponse(VIEWER / "index.html", media_type="text/html")
        gid, caller = who(game_id, authorization)
        return svc.board(gid, caller)

    @api.get("/games/{game_id}/picture", responses={**ERRORS, 200: {
                 "content": {"image/svg+xml": {}}, "description": "The table as an SVG picture."}},
             response_class=Response, tags=["public"], **MAY)
    def picture(game_id: GameIdPath, authorization: Auth = None,
                to_turn: Annotated[Optional[int], Query(ge=0, le=m.MAX_VERSION)] = None,
                to_event: Annotated[Optional[int], Query(ge=1, le=m.MAX_VERSION)] = None):
        """The table as a picture (SVG), now or at the end of a turn (or after an event), as the caller may see it."""
        from service.render.svg import board_svg

        gid, caller = who(game_id, authorization)
        b = svc.board(gid, caller, to_turn=to_turn, to_event=to_event)
        b["seat"] = caller.view_seat
        return Response(board_svg(b, svc.current(gid).machine.config), media_type="image/svg+xml")

    @api.get("/games/{game_id}/legal", response_model=m.Legal, responses=ERRORS, tags=["seats"], **NEEDS)
    async def legal(game_id: GameIdPath, authorization: Auth = None,
                    seat: Annotated[Optional[int], Query(ge=1, le=64, description="Referee only.")] = None):
        """The decisions the caller's seat may submit now, each exactly as /decisions takes it."""
        return legal_of(game_id, authorization, seat)

    @api.post("/games/{game_id}/decisions", response_model=m.Appended, status_code=201, responses=ERRORS,
              tags=["seats"], **NEEDS)
    async def decide(game_id: GameIdPath, body: m.SubmitDecision, authorization: Auth = None,
                     idempotency_key: IdemKey = None):
        """Submit the caller's seat's decision against the version it was made on."""
        return await decide_on(game_id, authorization, body, idempotency_key)

    @api.post("/games/{game_id}/chance", response_model=m.Appended, status_code=201, responses=ERRORS,
              tags=["referee"], **NEEDS)
    async def chance(game_id: GameIdPath, body: m.EnterChance, authorization: Auth = None,
                     idempotency_key: IdemKey = None):
        """Table mode: the referee enters the awaited die roll, card or pick."""
        gid, caller = who(game_id, authorization)
        return await svc.enter_chance(gid, caller, body.outcome, body.expected_version, idempotency_key,
                                      words=body.words)

    @api.post("/games/{game_id}/corrections", response_model=m.Appended, status_code=201, responses=ERRORS,
              tags=["referee"], **NEEDS)
    def correct(game_id: GameIdPath, body: m.Correct, authorization: Auth = None):
        """Retract every step after `to_version`, on the record: the retracted events stay in the log
        (marked `retracted`), replay and audit follow the corrected line."""
        gid, caller = who(game_id, authorization)
        return svc.correct(gid, caller, body.to_version, body.reason, body.expected_version)

    @api.get("/games/{game_id}/log", response_model=m.LogPage, responses=ERRORS, tags=["public"], **MAY)
    def log(game_id: GameIdPath, authorization: Auth = None,
            after: Annotated[int, Query(ge=0, le=m.MAX_VERSION, description="Versions after this one.")] = 0,
            limit: Annotated[int, Query(ge=1, le=1000, description="At most this many versions.")] = 200):
        """The events the caller may see, paged by version."""
        gid, caller = who(game_id, authorization)
        return svc.log(gid, caller, after, limit)

    @api.get("/games/{game_id}/replay", response_model=m.Board, responses=ERRORS, tags=["public"], **MAY)
    def replay(game_id: GameIdPath, authorization: Auth = None,
               to_turn: Annotated[Optional[int], Query(ge=0, le=m.MAX_VERSION)] = None,
               to_event: Annotated[Optional[int], Query(ge=1, le=m.MAX_VERSION)] = None):
        """The table at the end of a turn (or after a version), as the caller may see it."""
        gid, caller = who(game_id, authorization)
        return svc.board(gid, caller, to_turn=to_turn, to_event=to_event)

    @api.post("/games/{game_id}/fork", response_model=m.Created, status_code=201, responses=ERRORS,
              tags=["organiser"], **NEEDS)
    def fork(game_id: GameIdPath, body: m.ForkGame, authorization: Auth = None):
        """A new game whose history is this one's up to a decision boundary (organiser). The fork is
        private (unlisted, 404 to anyone but the organiser and its referee) until published."""
        svc.organiser(bearer(authorization))
        gid, _, _ = locate(game_id, authorization)
        return svc.fork(gid, body.at_turn, body.at_event)

    @api.get("/games/{game_id}/audit", response_model=m.AuditOut, responses=ERRORS, tags=["public"], **MAY)
    def audit(game_id: GameIdPath, authorization: Auth = None):
        """Chain, chance and rules re-checked; a violation's details only for the referee."""
        gid, caller = who(game_id, authorization)
        return svc.audit(gid, caller)

    @api.get("/games/{game_id}/stream", tags=["public"], **MAY, responses={
        **ERRORS, 200: {"content": {"text/event-stream": {"itemSchema": SSE_EVENT}},
                        "description": "Server-Sent Events: `event: game-event` (a log entry the caller may "
                                       "see, `id` its version) and `event: status` (version, to_act, finished) "
                                       "after each batch; ends with `event: end` when the game is finished "
                                       "or a limit (time, events) is reached: `{version, finished, reason}`; "
                                       "resume with `?after=version`."}})
    async def stream(request: Request, game_id: GameIdPath, authorization: Auth = None,
                     after: Annotated[Optional[int], Query(ge=0, le=m.MAX_VERSION)] = None,
                     last_event_id: Annotated[Optional[str], Header(alias="Last-Event-ID", max_length=30,
                                                                    include_in_schema=False)] = None,
                     timeout: Annotated[float, Query(gt=0, le=3600, description="Close after this many seconds.")] = 600):
        """Live events the caller may see (Server-Sent Events), from `after` (or Last-Event-ID)."""
        gid, caller = await run(who, game_id, authorization)
        start = after
        if start is None and last_event_id is not None:
            try:
                start = max(0, int(last_event_id))
            except ValueError:
                start = None
        rules = await run(svc.rules_of, gid)
        timeout = min(timeout, limits.stream_seconds)
        # the client counts in its own numbers; the stream follows the store's versions
        cursor = (await run(svc.store_version, gid, caller.view_seat, start), start) if start else (0, 0)
        return StreamingResponse(_events(request, gid, caller, rules, cursor, timeout),
                                 media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    def _batch(gid, caller, rules, cursor):
        """New events after the cursor (store version, caller's own number)."""
        after, own = cursor
        stored = list(svc.app.events.get(gid, gt=after))
        seat = caller.view_seat
        current = svc.current(gid).machine if stored else None
        entries = log_entries(rules, stored, seat, start=own if seat is not None else 0,
                              players=current.config.get("players") if current else None,
                              names=card_namer(current) if current else None)
        last = stored[-1].originator_version if stored else after
        st = None
        if stored:
            machine, version, head = svc.fold(gid)
            st = {"version": machine.seen(seat, version), "turn": machine.turn(), "to_act": machine.to_act(),
                  "finished": machine.finished}
        own_last = entries[-1]["version"] if entries else own
        return entries, (last, own_last), st

    def _end(after: int, finished: bool, reason: str) -> str:
        return f"event: end\ndata: {json.dumps({'version': after, 'finished': finished, 'reason': reason})}\n\n"

    async def _events(request, gid, caller, rules, cursor, timeout):
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        quiet_since = loop.time()
        first = True
        budget = limits.stream_events  # game-events this stream may still send
        with svc.changes.watch(gid.hex) as woken:
            while True:
                if await request.is_disconnected():
                    return
                woken.clear()  # before reading: a commit after this read wakes the wait below
                row = await run(svc.index_row, gid)
                if row is None:
                    return
                if first or int(row["version"]) > cursor[0]:
                    entries, new_cursor, st = await run(_batch, gid, caller, rules, cursor)
                    if len(entries) > budget:  # the cap: send up to it, then end where the client resumes
                        for e in entries[:budget]:
                            yield f"id: {e['version']}\nevent: game-event\ndata: {json.dumps(e)}\n\n"
                        last = entries[budget - 1]["version"] if budget else cursor[1]
                        yield _end(last, False, "event limit")
                        return
                    budget -= len(entries)
                    for e in entries:
                        yield f"id: {e['version']}\nevent: game-event\ndata: {json.dumps(e)}\n\n"
                    cursor = new_cursor
                    if st is not None:
                        yield f"id: {cursor[1]}\nevent: status\ndata: {json.dumps(st)}\n\n"
                    quiet_since = loop.time()
                    first = False
                if row["finished"] and int(row["version"]) <= cursor[0]:
                    yield _end(cursor[1], True, "finished")
                    return
                now = loop.time()
                if now > deadline:
                    yield _end(cursor[1], False, "time limit")
                    return
                if now - quiet_since >= 15:
                    quiet_since = now
                    yield ": keep-alive\n\n"
                # woken by a commit of this process, else a look at the index now and then
                # (commits of other processes); never past the deadline
                await woken_or_timeout(woken, min(FALLBACK_SECONDS, max(0.01, deadline - now)))

    def openapi():
        if api.openapi_schema is None:
            doc = get_openapi(title=api.title, version=api.version, description=api.description, routes=api.routes)
            doc.setdefault("components", {})["securitySchemes"] = {
                "bearer": {"type": "http", "scheme": "bearer",
                           "description": "organiser key, referee key or seat token"}}
            api.openapi_schema = doc
        return api.openapi_schema

    api.openapi = openapi

    def _need_referee(caller):
        from .auth import Forbidden, Unauthorized

        if caller.is_referee:
            return
        if caller.role == "spectator":
            raise Unauthorized("this needs the referee key or the organiser key")
        raise Forbidden("only the referee or the organiser may do this")

    return api


def app_from_env() -> FastAPI:
    """For uvicorn's worker processes (``tools serve --workers N``)."""
    import os

    from .heap import settle

    api = create_app(os.environ.get("PRIVATEER_DB"), os.environ["PRIVATEER_ORGANISER_KEY"])
    settle()
    return api

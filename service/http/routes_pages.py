"""The pages people use in a browser, and the endpoints those pages need.

Pages (static files in ``pages/``: HTML, CSS and JS, no build step, nothing
from the network), outside the API's schema:

* ``/organiser`` (where ``/`` leads): create games, hand out invitation links, games in
  progress, standings;
* ``/join/{game_id}/{seat}#code=...&player=...``: an invitation as a link (the
  code in the fragment, which no server logs); it takes the seat and leads to
* ``/play/{game_id}/{seat}``: the seat's page (the table as that seat sees it,
  the decisions open now as buttons in words, live);
* ``/referee/{game_id}``: the referee's page for a table-mode game;
* ``/favicon.ico``: the pages' icon (each page also carries it inline, as a ``data:`` address).

Endpoints (in the API's schema): ``GET /games/{id}/choices`` (the decisions
open now, in words), ``GET /games/{id}/words`` (the table in words),
``GET /games/{id}/awaited`` (referee: what the awaited chance accepts, as
things to click), ``POST /games/{id}/referee`` (referee: a penalty or a note),
``GET /rules`` (the games, their seats, options and bots). Every answer holds only
what the caller may see: a seat's choices and words come from its own view, and
what a deck still holds is only ever in the referee's answers.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Optional
from uuid import UUID

from fastapi import APIRouter, Query
from fastapi.responses import FileResponse, RedirectResponse, Response
from pydantic import BaseModel, Field

from service.kernel.chance import is_copy_of, said_as
from service.kernel.corrections import step_outcomes, undo_point
from service.kernel.errors import BadInput, PrivateerError
from service.kernel.games import game_names, get_rules
from service.kernel.machine import Machine
from service.kernel.rules import Rules
from service.logs import logger
from service.kernel.text import words
from service.render.common import board_text
from service.render.table import to_text
from service.views import entered_said

from . import models as m
from .auth import Caller
from .bots import bot_names
from .checks import check_json
from .core import GameService
from .pages import ICON, asset_file, page_file
from .route_params import ERRORS, MAY, NEEDS, Auth, GameIdPath, IdemKey, Service

log = logger(__name__)
MAX_THEN = 500
COPY = re.compile(r"^(.+\d)[a-z]$")  # blue-4a: copy a of blue-4

router = APIRouter()


# answers ------------------------------------------------------------------------
class Choice(BaseModel):
    n: int = Field(description="Its number, from 1.")
    decision: dict[str, Any] = Field(description="Exactly as /decisions takes it.")
    text: str = Field(description="The decision in words (rules.say_decision).")


class Choices(BaseModel):
    game_id: str
    version: int = Field(description="In the caller's own numbering: send it back as expected_version.")
    seat: int
    turn: int
    finished: bool
    to_act: list[int]
    awaiting_chance: Optional[dict[str, Any]] = Field(None, description="Only its kind for a seat.")
    choices: list[Choice]


class Words(BaseModel):
    game_id: str
    version: int
    text: str = Field(description="The table in words, as the caller may see it (80 columns).")


class Awaited(BaseModel):
    game_id: str
    version: int = Field(description="The store's version (the referee's numbering).")
    turn: int
    finished: bool
    table: bool = Field(description="A table-mode game: the referee enters every chance outcome.")
    to_act: list[int]
    then: list[Any] = Field(description="The outcomes taken as already entered (?then=), in order.")
    awaiting: Optional[dict[str, Any]] = Field(
        None, description="The chance awaited after them: kind, why, and what may be entered: dice "
                          "(n, sides, faces), cards (deck, left: [{say, name, copies}]: `say` is what to send), picks (options).")
    refused: Optional[str] = Field(None, description="Why the outcomes in ?then= do not fit, if they do not.")
    referee: list[Choice] = Field(description="The referee's decisions open now (penalties), in words.")
    undo_to: Optional[int] = Field(None, description="POST /corrections to this version undoes the last step.")
    entered: list[dict[str, Any]] = Field(default_factory=list, description="The outcomes entered in the current "
                                          "step, in order ({place, outcome, said, why, to_version}; `said`: the outcome "
                                          "as the log says it): POST /corrections "
                                          "with `outcomes: 1` takes back the last, with `place` replaces one; "
                                          "`to_version` is the version such a correction goes back to (what "
                                          "the referee's signature of it names, spec/SPEC.md §9a).")
    head: str = Field(description="The chain's head at `version` (hex): what the referee's signature of an "
                                  "entry made at this version names (spec/SPEC.md §9a).")
    referee_key: Optional[str] = Field(None, description="The public key the referee registered (hex), if any: "
                                                         "then every entry needs its signature.")
    players: dict[str, str]
    bots: dict[str, str] = Field(default_factory=dict, description="The seats the service's bots play (as in the "
                                                                   "game's status).")


class RefereeStep(BaseModel):
    model_config = m.REQUEST
    decision: dict[str, Any] = Field(description='A penalty as /awaited lists it, or {"referee": "note", '
                                                 '"text": "..."}.')
    expected_version: int = Field(ge=0, le=m.MAX_VERSION)
    referee_signature: Optional[str] = Field(None, min_length=128, max_length=128, pattern="^[0-9a-f]{128}$",
                                             description="The referee's signature, at a table whose referee "
                                                         "registered a key (spec/SPEC.md §9a).")


class GameKind(BaseModel):
    game: str
    title: str
    min_seats: int
    max_seats: int
    options: dict[str, str] = Field(description="The options the rules take, by name, with what each means.")
    bots: list[str] = Field(description="The bots that may take a seat (POST /games `bots`).")


def _options_of(rules: Rules) -> dict[str, str]:
    return {k: str(v) for k, v in rules.options_said.items()}


def _awaited_things(awaiting: dict[str, Any] | None) -> dict[str, Any] | None:
    """What the awaited chance accepts, as things a referee clicks."""
    if awaiting is None:
        return None
    out: dict[str, Any] = {k: awaiting[k] for k in ("kind", "why", "deck", "sides", "n", "options", "faces") if k in awaiting}
    if awaiting["kind"] == "card":
        left: dict[str, dict[str, Any]] = {}
        for c in awaiting.get("choices") or []:
            said = _said(c, awaiting)
            entry = left.setdefault(said, {"say": said, "name": words(said), "copies": 0})
            entry["copies"] += 1
        out["left"] = sorted(left.values(), key=lambda e: e["name"])
        out["n"] = 1
    if awaiting["kind"] == "shuffle":
        out["cards"] = awaiting.get("cards")
    return out


def _said(card: Any, awaiting: dict[str, Any]) -> Any:
    """How a referee names ``card`` (what POST /chance takes): as printed where the game names its
    cards (with what tells it apart where copies of its name differ), else its id without the
    copy mark (``blue-4`` for ``blue-4a``: any copy left will do)."""
    if not isinstance(card, str):
        return card
    if card in (awaiting.get("names") or {}):
        return said_as(card, awaiting)
    base = COPY.match(card)
    return base.group(1) if base and is_copy_of(card, base.group(1)) else card


def _players_of(svc: GameService, gid: UUID, caller: Caller) -> dict[str, str]:
    players: dict[str, str] = svc.reads.status(gid, caller)["players"] or {}
    return players


# the pages -------------------------------------------------------------------
@router.get("/", include_in_schema=False)
def root() -> RedirectResponse:
    """A browser opening the service's address: the organiser's page."""
    return RedirectResponse("/organiser", status_code=303)


@router.get("/favicon.ico", include_in_schema=False)
def favicon() -> Response:
    return Response(ICON, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})


@router.get("/organiser", include_in_schema=False)
def organiser_page() -> FileResponse:
    return page_file("organiser.html")


@router.get("/join/{game_id}/{seat}", include_in_schema=False)
def join_page(game_id: str, seat: str) -> FileResponse:
    return page_file("join.html")


@router.get("/play/{game_id}/{seat}", include_in_schema=False)
def play_page(game_id: str, seat: str) -> FileResponse:
    return page_file("play.html")


@router.get("/referee/{game_id}", include_in_schema=False)
def referee_page(game_id: str) -> FileResponse:
    return page_file("referee.html")


@router.get("/pages-assets/{name}", include_in_schema=False)
def asset(name: str) -> Response:
    return asset_file(name)


# what the pages read -------------------------------------------------------------
@router.get("/rules", response_model=list[GameKind], tags=["public"])
def rules_offered() -> list[dict[str, Any]]:
    """The games this service referees: seats, and the options each game's rules take."""
    out = []
    for game in game_names():
        rules = get_rules(game)
        out.append({"game": game, "title": rules.title or game, "min_seats": rules.min_seats,
                    "max_seats": rules.max_seats, "options": _options_of(rules),
                    "bots": bot_names(rules)})
    return out


@router.get("/games/{game_id}/choices", response_model=Choices, responses=ERRORS, tags=["seats"], **NEEDS)
def choices(game_id: GameIdPath, svc: Service, authorization: Auth = None,
            seat: Annotated[Optional[int], Query(ge=1, le=64, description="Referee only.")] = None
            ) -> dict[str, Any]:
    """The decisions the caller's seat may make now, each with its words: what a person chooses
    from. `version` is in the caller's own numbering (send it back as `expected_version`)."""
    gid, caller = svc.callers.who(game_id, authorization)
    legal = svc.reads.legal(gid, caller, seat)
    game = svc.current.game(gid)
    mach = game.machine
    awaiting = mach.awaiting_chance()
    if awaiting is not None and not caller.is_referee:
        awaiting = {"kind": awaiting.get("kind")}
    said = mach.said_choices(legal["decisions"])
    return {"game_id": gid.hex, "version": legal["version"], "seat": legal["seat"], "turn": mach.turn(),
            "finished": mach.finished, "to_act": legal["to_act"], "awaiting_chance": awaiting,
            "choices": [{"n": i, "decision": d, "text": text}
                        for i, (d, text) in enumerate(zip(legal["decisions"], said), 1)]}


@router.get("/games/{game_id}/words", response_model=Words, responses=ERRORS, tags=["public"], **MAY)
def table_words(game_id: GameIdPath, svc: Service, authorization: Auth = None,
                width: Annotated[int, Query(ge=40, le=200, description="Columns.")] = 80) -> dict[str, Any]:
    """The table in words, as the caller may see it (what `tools status --board` prints)."""
    gid, caller = svc.callers.who(game_id, authorization)
    b = svc.reads.board(gid, caller)
    b["seat"] = caller.view_seat
    config = dict(svc.current.game(gid).machine.config)
    config["players"] = {**_players_of(svc, gid, caller), **(config.get("players") or {})}
    return {"game_id": gid.hex, "version": b["version"], "text": to_text(board_text(b, config), width)}


@router.get("/games/{game_id}/awaited", response_model=Awaited, responses=ERRORS, tags=["referee"], **NEEDS)
def awaited(game_id: GameIdPath, svc: Service, authorization: Auth = None,
            then: Annotated[str, Query(max_length=2000, description="A JSON list of outcomes taken as "
                                                                     "entered first (nothing is appended).")] = "[]"
            ) -> dict[str, Any]:
    """What the awaited chance accepts, as things to click: dice faces, the cards left in that
    deck by printed name, the options of a pick; after the outcomes in `then`, the next one
    awaited (a deal is clicked card by card, then sent in one go to POST /chance as `words`).
    Also the referee's decisions open now and the version that undoes the last step."""
    gid, caller, _ = svc.callers.referee(game_id, authorization)
    taken = _outcomes_taken(then)
    game = svc.current.game(gid)
    mach = game.machine
    if taken and not mach.k["table"]:
        raise BadInput("this game draws its own chance from its committed seed: it takes no outcomes")
    awaiting, refused = _awaited_after(mach, taken, gid)
    offered = [] if mach.finished or mach.k["awaiting"] is not None else mach.rules.referee_legal(mach.s)
    stored = svc.app.stored_events(gid)
    st = svc.reads.status(gid, caller)
    return {"game_id": gid.hex, "version": game.version, "turn": mach.turn(), "finished": mach.finished,
            "table": bool(mach.k["table"]), "to_act": mach.to_act(), "then": taken if refused is None else [],
            "awaiting": _awaited_things(awaiting), "refused": refused,
            "referee": [{"n": i, "decision": d, "text": mach.rules.say_decision(mach.config, d)}
                        for i, d in enumerate(offered, 1)],
            "undo_to": undo_point(stored), "players": st["players"] or {}, "bots": st["bots"],
            "entered": _entered(mach, stored),
            "head": game.head.hex(), "referee_key": mach.kernel_state.get("referee_key")}


def _entered(mach: Machine, stored: list[Any]) -> list[dict[str, Any]]:
    """The outcomes entered in the current step (table mode), each with its words as the log says it."""
    entered = step_outcomes(stored) if mach.k["table"] and not mach.finished else []
    return [{"place": i, "outcome": v, "said": said, "why": mach.rules.say_text(mach.config, why), "to_version": at}
            for i, ((at, v, why, _), said) in enumerate(zip(entered, entered_said(mach, entered)), 1)]


@router.post("/games/{game_id}/referee", response_model=m.Appended, status_code=201, responses=ERRORS,
             tags=["referee"], **NEEDS)
async def referee_step(game_id: GameIdPath, body: RefereeStep, svc: Service, authorization: Auth = None,
                       idempotency_key: IdemKey = None) -> dict[str, Any]:
    """A referee's step (what `tools referee` takes): a penalty the rules name (see /awaited) or a
    note on the record (`{"referee": "note", "text": ...}`), against the version it was made on."""
    gid, caller, _ = svc.callers.referee(game_id, authorization)
    return await svc.steps.referee(gid, caller, body.decision, body.expected_version, idempotency_key,
                                   body.referee_signature)


def _outcomes_taken(then: str) -> list[Any]:
    """``?then=``: the outcomes a referee takes as entered, a JSON list (checked as a body is)."""
    try:
        taken = json.loads(then)
    except ValueError:
        raise BadInput("then must be a JSON list of outcomes") from None
    if not isinstance(taken, list) or len(taken) > MAX_THEN:
        raise BadInput(f"then must be a JSON list of at most {MAX_THEN} outcomes")
    check_json(taken, "then")
    return taken


def _awaited_after(mach: Machine, taken: list[Any], gid: UUID) -> tuple[dict[str, Any] | None, str | None]:
    """The chance awaited once ``taken`` is entered on a copy of the game, and why they do not fit
    (then the chance awaited now), if they do not."""
    if not taken:
        return mach.awaiting_chance(), None
    ahead = mach.copy()
    try:
        ahead.enter_words(taken)
        return ahead.awaiting_chance(), None
    except PrivateerError as e:
        return mach.awaiting_chance(), e.reason
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as e:
        # an outcome of a shape the rules cannot take (anything else is a bug: answered 500, logged)
        log.warning("outcomes of a shape the rules cannot take: refused", exc_info=True,
                    extra={"game_id": gid.hex})
        return mach.awaiting_chance(), f"the outcomes do not fit what is awaited ({type(e).__name__})"

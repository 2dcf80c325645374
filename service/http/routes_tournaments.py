"""Tournaments over HTTP (service/organiser.py; the rules: service/tournaments), and their pages.

* ``POST /tournaments`` (organiser): a new tournament; ``GET /tournaments``: the tournaments;
* ``GET /tournaments/{id}`` (public: a tournament hides nothing): its settings, players, rounds,
  each table's game (with whether it is finished) and result, the standings now and as each
  round closed them;
* ``POST /tournaments/{id}/players`` and ``/drop`` (organiser): register (late, after round 1),
  drop;
* ``POST /tournaments/{id}/rounds`` (organiser): seat the next round; each table is played by
  ``people`` (a game whose seats are taken through invitation links, returned here once), by
  ``bots`` (the service plays every seat), at a physical ``table`` (a table-mode game: its
  referee key is returned once) or by ``hand`` (no game: its result is entered by hand);
* ``POST /tournaments/{id}/tables/{n}/result`` (organiser): the table's result, from its
  finished game (no body) or entered by hand (``places`` and a ``reason``);
* ``POST /tournaments/{id}/close`` (organiser): the finished games' results recorded, then
  the round closed; ``POST /tournaments/{id}/finish``: the seed revealed.

Pages (plain files, no build step, no inline script or style): ``/tournament`` and
``/tournament/{id}``, the organiser's; ``/tournament/{id}/player?name=NAME``, a player's (where
they sit now, their results, the standings: public facts only). Credentials travel as headers,
never in a URL.
"""

from __future__ import annotations

from typing import Annotated, Any, Optional
from urllib.parse import urlencode
from uuid import UUID

from fastapi import APIRouter, Path, Query
from fastapi.responses import FileResponse
from pydantic import BaseModel, Field

from service.kernel.errors import BadInput
from service.organiser import Organiser

from . import models as m
from .auth import bearer
from .bots import check_bots
from .pages import page_file
from .core import GameService
from .route_params import ERRORS, NEEDS, Auth, Service

router = APIRouter()
# the pages' own policy: scripts, styles and requests from the service itself only (no inline ones)
HOW = ("people", "bots", "table", "hand")
TournamentId = Annotated[str, Path(description="Tournament id (or a unique prefix of 6+ characters).",
                                   max_length=100)]


class NewTournament(BaseModel):
    model_config = m.REQUEST
    game: str = Field(max_length=100, description="The game every table plays.")
    table: int = Field(4, ge=2, le=6, description="The most players at a table.")
    rounds: int = Field(3, ge=1, le=50)
    points: str = Field("4,2,1,0", max_length=100, description="Points by place (4,2,1,0), or win.")
    tiebreaks: str = Field("opponents,score,openskill", max_length=100,
                           description="After points, in order: opponents, score, openskill; none: a lot alone.")
    bye: Optional[int] = Field(None, ge=0, le=1000, description="The points of a bye [a first place's].")
    options: dict[str, str] = Field(default_factory=dict, description="Options of the tables' games.")
    name: str = Field("", max_length=200)


class Player(BaseModel):
    model_config = m.REQUEST
    player: str = Field(max_length=100)
    reason: str = Field("", max_length=500, description="Why a player drops (on the record).")


class Seat(BaseModel):
    model_config = m.REQUEST
    tables: dict[str, str] = Field(default_factory=dict, description="By table number: people (the default), "
                                   "bots, table (a table-mode game) or hand (no game).")
    bot: str = Field("random", max_length=50, description="The bot of the tables played by bots.")


class Result(BaseModel):
    model_config = m.REQUEST
    places: Optional[dict[str, int]] = Field(None, description="By hand: each player's place (1 first).")
    scores: Optional[dict[str, int]] = Field(None, description="By hand, optional: final scores.")
    reason: str = Field("", max_length=500, description="By hand: why (on the record).")


def _desk(svc: GameService) -> Organiser:
    return Organiser(svc.app)


def _organiser(svc: GameService, authorization: str | None) -> None:
    svc.callers.organiser(bearer(authorization))


def _live(svc: GameService, view: dict[str, Any]) -> dict[str, Any]:
    """Each table of the open round with its game's state (finished, turn) beside it."""
    for rnd in view["rounds"]:
        for t in rnd["tables"]:
            row = svc.current.index_row(UUID(t["game_id"]), fresh=True) if t["game_id"] and not rnd["closed"] else None
            t["game"] = None if row is None else {"finished": bool(row["finished"]), "turn": row["turn"],
                                                  "version": row["version"]}
    return view


@router.post("/tournaments", status_code=201, responses=ERRORS, tags=["tournaments"], **NEEDS)
def create_tournament(body: NewTournament, svc: Service, authorization: Auth = None) -> dict[str, Any]:
    """A new tournament (organiser): its seed committed now, revealed when it finishes."""
    _organiser(svc, authorization)
    tid = _desk(svc).new(body.game, table=body.table, rounds=body.rounds, points=body.points,
                         tiebreaks=body.tiebreaks, bye=body.bye, game_options=body.options, name=body.name)
    return {"tournament_id": tid.hex}


@router.get("/tournaments", responses=ERRORS, tags=["tournaments"])
def list_tournaments(svc: Service) -> list[dict[str, Any]]:
    """The tournaments in the store."""
    return [{"tournament_id": r["game_id"], "name": r["name"], "round": r["turn"], "finished": bool(r["finished"])}
            for r in _desk(svc).tournaments()]


@router.get("/tournaments/{tournament_id}", responses=ERRORS, tags=["tournaments"])
def tournament(tournament_id: TournamentId, svc: Service) -> dict[str, Any]:
    """The tournament (public): settings, players, rounds with each table's game and result, the
    standings now (`standings`) and as each round closed them (`rounds[i].standings`)."""
    desk = _desk(svc)
    return _live(svc, desk.view(desk.resolve(tournament_id)))


@router.get("/tournaments/{tournament_id}/standings", responses=ERRORS, tags=["tournaments"])
def tournament_standings(tournament_id: TournamentId, svc: Service,
                         round: Annotated[Optional[int], Query(ge=1, le=50, description="As this round closed "
                                                                                        "them.")] = None
                         ) -> list[dict[str, Any]]:
    """The standings: now, or as round `round` closed them."""
    desk = _desk(svc)
    return desk.standings(desk.resolve(tournament_id), round)


@router.post("/tournaments/{tournament_id}/players", status_code=201, responses=ERRORS, tags=["tournaments"], **NEEDS)
def register(tournament_id: TournamentId, body: Player, svc: Service, authorization: Auth = None) -> dict[str, Any]:
    """Register a player (organiser); after round 1 is seated, from the next round."""
    _organiser(svc, authorization)
    desk = _desk(svc)
    tid = desk.resolve(tournament_id)
    desk.register(tid, body.player)
    return _live(svc, desk.view(tid))


@router.post("/tournaments/{tournament_id}/drop", responses=ERRORS, tags=["tournaments"], **NEEDS)
def drop(tournament_id: TournamentId, body: Player, svc: Service, authorization: Auth = None) -> dict[str, Any]:
    """A player leaves (organiser): not seated again; their results stand."""
    _organiser(svc, authorization)
    desk = _desk(svc)
    tid = desk.resolve(tournament_id)
    desk.drop(tid, body.player, body.reason)
    return _live(svc, desk.view(tid))


@router.post("/tournaments/{tournament_id}/rounds", status_code=201, responses=ERRORS, tags=["tournaments"], **NEEDS)
def seat_round(tournament_id: TournamentId, body: Seat, svc: Service, authorization: Auth = None) -> dict[str, Any]:
    """Seat the next round (organiser) and make its tables' games. Returned once: each people
    table's seat links (`links`: a path with the invitation code in its fragment) and each
    table-mode game's referee key."""
    _organiser(svc, authorization)
    desk = _desk(svc)
    tid = desk.resolve(tournament_id)
    how: dict[int, str] = {}
    for number, way in body.tables.items():
        if way not in HOW or not (number.isascii() and number.isdigit()):
            raise BadInput(f"table {number}: a table is played by {', '.join(HOW)}")
        how[int(number)] = way
    m, _ = desk.machine(tid)
    check_bots(m.config["options"]["game"], 2, {"1": body.bot})

    def make(table: int, game: str, players: dict[str, str], table_mode: bool, name: str, tag: str,
             options: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        way = how.get(table, "people")
        created = svc.games.create({"game": game, "seats": len(players), "table": table_mode, "options": options,
                                    "players": players, "name": name, "tournament": tag,
                                    "wait_for_seats": not table_mode})
        gid = UUID(created["game_id"])
        row = svc.current.known_row(gid, fresh=True)
        extra: dict[str, Any] = {"how": way, "links": []}
        if table_mode:
            extra["referee_key"] = created["referee_key"]
        elif way == "bots":
            for seat in sorted(players, key=int):
                svc.bots.seat(gid, row, int(seat), body.bot)
        else:
            for seat in sorted(players, key=int):
                inv = svc.seats.invite(gid, row, int(seat), players[seat])
                code = urlencode({"code": inv["code"], "player": players[seat]})
                extra["links"].append({"seat": int(seat), "player": players[seat],
                                       "path": f"/join/{gid.hex}/{seat}#{code}"})
        return gid.hex, extra

    modes = {n: {"table": "table", "hand": "hand"}.get(w, "service") for n, w in how.items()}
    return desk.seat(tid, modes, make)


@router.post("/tournaments/{tournament_id}/tables/{table}/result", status_code=201, responses=ERRORS,
             tags=["tournaments"], **NEEDS)
def table_result(tournament_id: TournamentId, table: Annotated[int, Path(ge=1, le=1000)], body: Result,
                 svc: Service, authorization: Auth = None) -> dict[str, Any]:
    """A table's result (organiser): from its finished game (no places), or by hand with a reason."""
    _organiser(svc, authorization)
    desk = _desk(svc)
    tid = desk.resolve(tournament_id)
    if body.places is None:
        if body.scores is not None or body.reason:
            raise BadInput("scores and reason go with a result entered by hand (places for each player)")
        desk.result_from_game(tid, table)
    else:
        if not body.reason.strip():
            raise BadInput("a result entered by hand says why (reason)")
        desk.result_by_hand(tid, table, body.places, body.reason, body.scores)
    return _live(svc, desk.view(tid))


@router.post("/tournaments/{tournament_id}/close", responses=ERRORS, tags=["tournaments"], **NEEDS)
def close_round(tournament_id: TournamentId, svc: Service, authorization: Auth = None) -> dict[str, Any]:
    """Close the round (organiser): the results of its finished games recorded first."""
    _organiser(svc, authorization)
    desk = _desk(svc)
    tid = desk.resolve(tournament_id)
    desk.close(tid)
    return _live(svc, desk.view(tid))


@router.post("/tournaments/{tournament_id}/finish", responses=ERRORS, tags=["tournaments"], **NEEDS)
def finish(tournament_id: TournamentId, svc: Service, authorization: Auth = None) -> dict[str, Any]:
    """Finish the tournament (organiser): its seed is revealed."""
    _organiser(svc, authorization)
    desk = _desk(svc)
    tid = desk.resolve(tournament_id)
    desk.finish(tid)
    return _live(svc, desk.view(tid))


# the pages ----------------------------------------------------------------------------------------
@router.get("/tournament", include_in_schema=False)
def organiser_page() -> FileResponse:
    return page_file("tournament.html")


@router.get("/tournament/{tournament_id}", include_in_schema=False)
def organiser_page_of(tournament_id: str) -> FileResponse:
    return page_file("tournament.html")


@router.get("/tournament/{tournament_id}/player", include_in_schema=False)
def player_page(tournament_id: str) -> FileResponse:
    return page_file("tournament-player.html")



"""Tournament standings: JSON, or a page for a browser (service/http/pages.py)."""

from __future__ import annotations

from typing import Annotated, Any, Optional

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse

from service.kernel.text import tournament as tournament_typed
from service.projections import catch_up, open_view
from service.projections.model import overall_rows

from . import models as m
from .pages import standings_page
from .route_params import ERRORS, Service, wants_html

router = APIRouter()


@router.get("/standings", response_model=list[m.StandingRow], responses=ERRORS, tags=["public"])
def standings(request: Request, svc: Service,
              tournament: Annotated[Optional[str], Query(max_length=200, description="Only this tournament.")] = None
              ) -> list[dict[str, Any]] | HTMLResponse:
    """Tournament standings by named player: per game kind, then over all kinds of each tournament
    (ranked by wins, then win rate, then average score; forks never count). A browser gets a page."""
    if tournament is not None:
        tournament = tournament_typed(tournament)  # as a game's tournament is typed (no NUL: PostgreSQL refuses it)
    view = open_view(svc.app)
    try:
        catch_up(svc.app, view)
        rated = view.ratings(tournament)
        rows = view.standings(tournament, rated)
        games = view.games()
    finally:
        view.close()
    kinds: dict[str | None, set[str]] = {}
    for r in rows:
        kinds.setdefault(r["tournament"], set()).add(r["game"])
    rows = rows + [r for r in overall_rows(rows, rated) if len(kinds.get(r["tournament"], ())) > 1]
    if wants_html(request):
        unfinished = [g for g in games if not g["finished"] and not g.get("parent")
                      and (tournament is None or g["tournament"] == tournament)]
        return HTMLResponse(standings_page(rows, unfinished, tournament))
    return rows

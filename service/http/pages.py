"""Pages for a browser: the static pages and their assets in ``pages/`` (served by
``page_file`` and ``asset_file`` for the games' and the tournaments' routers), and the
one the service renders itself, the tournament standings (the replay viewer is static
files in ``viewer/``)."""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi.responses import FileResponse, PlainTextResponse, Response

from service.projections.model import win_rate

PAGES = Path(__file__).with_name("pages")
ASSETS = {"pages.css": "text/css", "pages.js": "text/javascript", "organiser.js": "text/javascript",
          "join.js": "text/javascript", "play.js": "text/javascript", "referee.js": "text/javascript",
          "docs.js": "text/javascript", "tournament.js": "text/javascript",
          "tournament-player.js": "text/javascript"}


def page_file(name: str) -> FileResponse:
    """A page of ``pages/`` (its security headers are the middleware's, service/http/headers.py)."""
    return FileResponse(PAGES / name, media_type="text/html", headers={"Cache-Control": "no-cache"})


def asset_file(name: str) -> Response:
    """A script or stylesheet the pages load (``/pages-assets/NAME``); anything else: 404."""
    if name not in ASSETS:
        return PlainTextResponse("no such file", status_code=404)
    return FileResponse(PAGES / name, media_type=ASSETS[name], headers={"Cache-Control": "no-cache"})


# the pages' icon, served at /favicon.ico and inline in each page's <link rel="icon"> as a data:
# address the CSP allows (the static pages in pages/ carry the same link)
ICON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" '
        'fill="#5b4636"/><path d="M3 11h10l-2 3H5z M8 2v8 M8 3l4 5H8z" fill="#fdf6e3" stroke="#fdf6e3"/></svg>')
ICON_LINK = f'<link rel="icon" href="data:image/svg+xml,{quote(ICON)}">'
# the standings' columns, as the organiser's page shows them too (pages/organiser.js STANDINGS)
COLUMNS = ("rank", "player", "played", "wins", "win rate", "rating", "points", "avg", "best")


def standings_page(rows: list[dict[str, Any]], unfinished: list[dict[str, Any]], tournament: str | None) -> str:
    groups: dict[tuple[str | None, str], list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault((r["tournament"], r["game"]), []).append(r)
    parts = [f"<h2>Standings{' — ' + escape(tournament) if tournament else ''}</h2>"]
    if not groups:
        parts.append("<p class=\"hint\">No finished games with named players yet.</p>")
    for (t, g), rs in groups.items():
        parts.append(f"<h3>{escape(t or '(no tournament)')} — {escape(g)}</h3><div class=\"table-wrap\">"
                     "<table class=\"standings\"><tr>" + "".join(f"<th>{c}</th>" for c in COLUMNS) + "</tr>")
        for r in rs:
            cells = [r["rank"], r["player"], r["played"], r["wins"], win_rate(r), f"{r['rating']:.2f}",
                     _num(r["points"]), _num(r["avg_points"]), _num(r["best"])]
            parts.append("<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in cells) + "</tr>")
        parts.append("</table></div>")
    if unfinished:
        parts.append("<h3>Unfinished</h3><ul>" + "".join(
            f'<li><a href="/games/{escape(g["game_id"])}/view">{escape(g["game_id"][:8])}</a> '
            f'{escape(g["game"])} {escape(g.get("name") or "")}</li>' for g in unfinished) + "</ul>")
    parts.append("<p class=\"hint\">Order: wins (a victory shared by k players counts 1/k), then win rate, then "
                 "average score; seats nobody named are not players; forks never count. Rating: openskill's "
                 "Plackett-Luce model over the games in the order they finished (mu − 3σ: 0 for a newcomer).</p>")
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" "
            "content=\"width=device-width, initial-scale=1\"><title>Standings</title>" + ICON_LINK
            + "<link rel=\"stylesheet\" href=\"/pages-assets/pages.css\"></head><body><header><h1>privateer — "
            "standings</h1><a href=\"/organiser\">organiser</a></header><main class=\"single\"><section>"
            + "".join(parts) + "</section></main></body></html>")


def _num(x: object) -> str:
    """A number as the organiser's page writes it (JavaScript's way: 30, not 30.0)."""
    return str(int(x)) if isinstance(x, float) and x.is_integer() else str(x)


def no_game_page(reason: str) -> str:
    """What a browser gets for a game it cannot open (an unknown id, a private fork): a page
    saying so, not the API's JSON."""
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" "
            "content=\"width=device-width, initial-scale=1\"><title>No such game</title>" + ICON_LINK
            + "<link rel=\"stylesheet\" href=\"/viewer-assets/viewer.css\"></head><body>"
            "<header><h1>privateer</h1></header><main class=\"plain\"><h2>No such game</h2>"
            f"<p id=\"error\">{escape(reason)}</p><p>Check the link you were given; the games of this service "
            "are listed on the <a href=\"/standings\">standings</a> page.</p></main></body></html>")

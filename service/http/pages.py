"""Pages for a browser that the service renders itself (the replay viewer is
static files in ``viewer/``): the tournament standings."""

from __future__ import annotations

from html import escape

from service.projections.model import win_rate


def standings_page(rows: list[dict], unfinished: list[dict], tournament: str | None) -> str:
    groups: dict = {}
    for r in rows:
        groups.setdefault((r["tournament"], r["game"]), []).append(r)
    parts = [f"<h1>Standings{' — ' + escape(tournament) if tournament else ''}</h1>"]
    if not groups:
        parts.append("<p>No finished games with named players yet.</p>")
    for (t, g), rs in groups.items():
        parts.append(f"<h2>{escape(t or '(no tournament)')} — {escape(g)}</h2><table><tr><th>rank</th>"
                     "<th>player</th><th>played</th><th>wins</th><th>shared</th><th>win share</th>"
                     "<th>win rate</th><th>rating</th><th>points</th><th>avg</th><th>best</th></tr>")
        for r in rs:
            cells = [r["rank"], r["player"], r["played"], r["wins"], r["shared_wins"], r["win_share"], win_rate(r),
                     f"{r['rating']:.2f}", r["points"], r["avg_points"], r["best"]]
            parts.append("<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in cells) + "</tr>")
        parts.append("</table>")
    if unfinished:
        parts.append("<h2>Unfinished</h2><ul>" + "".join(
            f'<li><a href="/games/{escape(g["game_id"])}/view">{escape(g["game_id"][:8])}</a> '
            f'{escape(g["game"])} {escape(g.get("name") or "")}</li>' for g in unfinished) + "</ul>")
    parts.append("<p>Order: wins (a victory shared by k players counts 1/k), then win rate, then average "
                 "score; seats nobody named are not players; forks never count. Rating: openskill's "
                 "Plackett-Luce model over the games in the order they finished (mu − 3σ: 0 for a newcomer).</p>")
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Standings</title>"
            "<link rel=\"stylesheet\" href=\"/viewer-assets/viewer.css\"></head><body><main class=\"plain\">"
            + "".join(parts) + "</main></body></html>")


def no_game_page(reason: str) -> str:
    """What a browser gets for a game it cannot open (an unknown id, a private fork): a page
    saying so, not the API's JSON."""
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" "
            "content=\"width=device-width, initial-scale=1\"><title>No such game</title>"
            "<link rel=\"stylesheet\" href=\"/viewer-assets/viewer.css\"></head><body>"
            "<header><h1>privateer</h1></header><main class=\"plain\"><h2>No such game</h2>"
            f"<p id=\"error\">{escape(reason)}</p><p>Check the link you were given; the games of this service "
            "are listed on the <a href=\"/standings\">standings</a> page.</p></main></body></html>")

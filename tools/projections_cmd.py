"""`tools projections ...` and `tools standings`: read models (registered on the main Typer app).

The read models (see ``service/projections/__init__.py`` for every table and
column) live in the store itself and are brought up to date from the event
log, exactly once, whenever these commands run.
"""

from __future__ import annotations

from contextlib import contextmanager
from collections.abc import Callable, Iterator
from typing import Annotated, Optional

import typer

from tools.common import DbOpt, JsonOpt, app, guarded, open_app
from tools.plain import out_json

projections_app = typer.Typer(help="Read models (per-game scores, tournament standings): update, rebuild, follow.",
                              no_args_is_help=True)
app.add_typer(projections_app, name="projections")


@contextmanager
def _progress(json_out: bool) -> Iterator[Callable[[int, int | None], object] | None]:
    """A ``progress(done, total)`` for ``catch_up``: a bar on stderr while the
    events are applied (none with --json), gone when they are."""
    if json_out:
        yield None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("applying events to the read models", total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)


def _report(stats: dict, what: str, json_out: bool) -> None:
    if json_out:
        return out_json(stats)
    if stats.get("rebuilt") and what != "rebuilt":
        what += " (rebuilt from the first event: its log text was in an older build's words)"
    typer.echo(f"{what}: {stats['events']} events applied in {stats['seconds']:.2f}s, "
               f"position {stats['position']}"
               + (f" ({stats['undecodable']} unreadable events skipped: run `tools audit --all`)"
                  if stats["undecodable"] else ""))


@projections_app.command("rebuild")
@guarded
def rebuild(json_out: JsonOpt = False, db: DbOpt = None) -> None:
    """Drop the read models and rebuild them from the first event.

    Example: `tools projections rebuild --db tournament.db`.
    """
    from service.projections import rebuild as do_rebuild

    with _progress(json_out) as progress:
        stats = do_rebuild(open_app(db), progress=progress)
    _report(stats, "rebuilt", json_out)


@projections_app.command("update")
@guarded
def update(json_out: JsonOpt = False, db: DbOpt = None) -> None:
    """Apply the events recorded since the last update (catch up).

    Example: `tools projections update`, then browse proj_events / proj_standings with any SQLite client.
    """
    from service.projections import catch_up

    with _progress(json_out) as progress:
        stats = catch_up(open_app(db), progress=progress)
    _report(stats, "updated", json_out)


@projections_app.command("follow")
@guarded
def follow(seconds: Annotated[Optional[float], typer.Option("--seconds", metavar="SECONDS", help="Stop after this long (default: until Ctrl-C).")] = None,
           db: DbOpt = None) -> None:
    """PostgreSQL: keep the read models current as events are committed (the library's projection runner)."""
    from event_store.store import resolve_db
    from service.kernel.errors import BadInput
    from service.projections import catch_up
    from service.projections.runner import follow as do_follow

    target = resolve_db(db)
    if not target.startswith(("postgresql://", "postgres://")):
        raise BadInput("follow needs a postgresql:// store; on SQLite run `tools projections update`")
    catch_up(open_app(target))
    do_follow(target, seconds)


STANDINGS_HELP = ("rank; player (the name recorded for a seat; seats nobody named are not players and are "
                  "left out); played (finished games); wins (a shared victory counts as a win for each sharer); "
                  "shared (wins that were shared); win share (a victory shared by k players counts 1/k); "
                  "win rate (win share / played); rating (openskill's Plackett-Luce model, made for games of "
                  "many players, over the games in the order they finished, each ranked by its winners then "
                  "by score: mu - 3 sigma, 0 for a newcomer); "
                  "points (sum of final scores); avg (points / played); best (best final score). Order: win "
                  "share, then win rate (win share / played), then avg; equal on all three, equal rank. "
                  "Forked games never count.")


@app.command(epilog="Columns: " + STANDINGS_HELP)
@guarded
def standings(tournament: Annotated[Optional[str], typer.Option("--tournament", metavar="NAME", help="Only this tournament.")] = None,
              overall: Annotated[bool, typer.Option("--overall", help="With --json: the table over all game kinds of each tournament.")] = False,
              json_out: JsonOpt = False, db: DbOpt = None) -> None:
    """Tournament standings by player, per game kind and over all of them, with the games still unfinished.

    Example: `tools standings --tournament spring`; `--json --overall` for the table over all games.
    """
    from service.kernel.text import shown, tournament as tournament_typed
    from service.projections import catch_up, open_view
    from service.projections.model import overall_rows, win_rate

    if tournament is not None:
        tournament = tournament_typed(tournament)
    a = open_app(db)
    view = open_view(a)
    try:
        with _progress(json_out) as progress:
            catch_up(a, view, progress=progress)
        rated = view.ratings(tournament)
        rows = view.standings(tournament, rated)
        games = view.games()
    finally:
        view.close()
    totals = overall_rows(rows, rated)
    if json_out:
        return out_json(totals if overall else rows)
    unfinished = [g for g in games if not g["finished"] and not g.get("parent")
                  and (tournament is None or g["tournament"] == tournament)]
    if not rows:
        typer.echo("no finished games with named players" + (f" in tournament {tournament!r}" if tournament is not None else ""))
    from rich.console import Console
    from rich.table import Table

    groups: dict = {}
    for r in rows:
        groups.setdefault((r["tournament"], r["game"]), []).append(r)
    kinds: dict = {}
    for t, g in groups:
        kinds.setdefault(t, set()).add(g)
    for r in totals:
        if len(kinds.get(r["tournament"], ())) > 1:
            groups.setdefault((r["tournament"], r["game"]), []).append(r)
    console = Console(markup=False, emoji=False)  # names and tournaments shown as typed: "[/]" is no markup
    for (t, g), rs in groups.items():
        table = Table("rank", "player", "played", "wins", "shared", "win share", "win rate", "rating", "points",
                      "avg", "best", title=shown(f"{t or '(no tournament)'} — {g}"), caption=None)
        for r in rs:
            table.add_row(str(r["rank"]), shown(r["player"]), str(r["played"]), str(r["wins"]), str(r["shared_wins"]),
                          f"{r['win_share']:g}", win_rate(r), f"{r['rating']:.2f}", str(r["points"]),
                          f"{r['avg_points']:g}", str(r["best"]))
        console.print(table)
    if unfinished:
        typer.echo(f"unfinished ({len(unfinished)}): " + "; ".join(
            f"{g['game_id'][:8]} {g['game']}" + (f" {g['name']!r}" if g.get("name") else "")
            + (f" [{g['tournament']}]" if tournament is None and g.get("tournament") else "")
            for g in unfinished))
    typer.echo("columns: " + STANDINGS_HELP)

"""`tools projections ...` and `tools standings`: read models (registered on the main Typer app).

The read models (see ``service/projections/__init__.py`` for every table and
column) live in the store itself and are brought up to date from the event
log, exactly once, whenever these commands run.
"""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from tools.common import DbOpt, JsonOpt, app, guarded, open_app, out_json

projections_app = typer.Typer(help="Read models (per-game scores, tournament standings): update, rebuild, follow.",
                              no_args_is_help=True)
app.add_typer(projections_app, name="projections")


def _report(stats: dict, what: str, json_out: bool) -> None:
    if json_out:
        return out_json(stats)
    typer.echo(f"{what}: {stats['events']} events applied in {stats['seconds']:.2f}s, "
               f"position {stats['position']}"
               + (f" ({stats['undecodable']} unreadable events skipped: run `tools audit --all`)"
                  if stats["undecodable"] else ""))


@projections_app.command("rebuild")
@guarded
def rebuild(json_out: JsonOpt = False, db: DbOpt = None):
    """Drop the read models and rebuild them from the first event."""
    from service.projections import rebuild as do_rebuild

    _report(do_rebuild(open_app(db)), "rebuilt", json_out)


@projections_app.command("update")
@guarded
def update(json_out: JsonOpt = False, db: DbOpt = None):
    """Apply the events recorded since the last update (catch up)."""
    from service.projections import catch_up

    _report(catch_up(open_app(db)), "updated", json_out)


@projections_app.command("follow")
@guarded
def follow(seconds: Annotated[Optional[float], typer.Option("--seconds", metavar="SECONDS", help="Stop after this long (default: until Ctrl-C).")] = None,
           db: DbOpt = None):
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


STANDINGS_HELP = ("rank; player (the seat's recorded name, else 'seat N'); played (finished games); "
                  "wins (a shared victory counts as a win for each sharer); shared (wins that were shared); "
                  "win share (a victory shared by k players counts 1/k; ranks the table, then wins, then "
                  "points); points (sum of final scores); avg (points / played); best (best final score). "
                  "Forked games never count.")


@app.command(epilog="Columns: " + STANDINGS_HELP)
@guarded
def standings(tournament: Annotated[Optional[str], typer.Option("--tournament", metavar="NAME", help="Only this tournament.")] = None,
              json_out: JsonOpt = False, db: DbOpt = None):
    """Tournament standings, per game kind (brought up to date first)."""
    from service.projections import catch_up, open_view

    a = open_app(db)
    view = open_view(a)
    try:
        catch_up(a, view)
        rows = view.standings(tournament)
    finally:
        view.close()
    if json_out:
        return out_json(rows)
    if not rows:
        typer.echo("no finished games" + (f" in tournament {tournament!r}" if tournament is not None else ""))
        return
    from rich.console import Console
    from rich.table import Table

    groups: dict = {}
    for r in rows:
        groups.setdefault((r["tournament"], r["game"]), []).append(r)
    console = Console()
    for (t, g), rs in groups.items():
        table = Table("rank", "player", "played", "wins", "shared", "win share", "points", "avg", "best",
                      title=f"{t or '(no tournament)'} — {g}", caption=None)
        for r in rs:
            table.add_row(str(r["rank"]), r["player"], str(r["played"]), str(r["wins"]), str(r["shared_wins"]),
                          f"{r['win_share']:g}", str(r["points"]), f"{r['avg_points']:g}", str(r["best"]))
        console.print(table)
    typer.echo("columns: " + STANDINGS_HELP)

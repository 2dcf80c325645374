"""`tools tournament ...`: run a tournament (service/organiser.py; its rules: service/tournaments).

A tournament is a history of its own in the store, beside its tables' games: `tools export`,
`import`, `verify` and `audit` read it as they read a game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Literal, Optional

import typer

from service.kernel.games import games_said
from tools.common import DbOpt, JsonOpt, app, fail, guarded, open_app, parse_json, parse_options
from tools.plain import echo, out_json

if TYPE_CHECKING:
    from rich.progress import Progress

    from service.kernel.events import Ev
    from service.organiser import Organiser

tournament_app = typer.Typer(help="Run a tournament: players, rounds, seating, results and standings, "
                                  "kept as evidence.", no_args_is_help=True)
app.add_typer(tournament_app, name="tournament")

TournamentId = Annotated[str, typer.Argument(metavar="TOURNAMENT_ID",
                                             help="Tournament id (or a unique prefix of 6+ characters).")]


def _desk(db: str | None) -> Organiser:
    from service.organiser import Organiser

    return Organiser(open_app(db))


def _said(events: list[Ev]) -> None:
    from service.tournaments import RULES

    for e in events:
        if e.type not in ("Decided",):
            echo(RULES.describe(e))


@tournament_app.command("new")
@guarded
def new(game: Annotated[str, typer.Argument(metavar="GAME", help=games_said())],
        seats: Annotated[int, typer.Option("--seats", metavar="N", help="The most players at a table (2-6); "
                                           "tables are as even as the game's seat counts allow.")] = 4,
        rounds: Annotated[int, typer.Option("--rounds", metavar="R", help="How many rounds.")] = 3,
        points: Annotated[str, typer.Option("--points", metavar="SCALE", help="Points by place at a table, "
                                            "first place first (4,2,1,0), or win (1 for a win).")] = "4,2,1,0",
        tiebreaks: Annotated[str, typer.Option("--tiebreaks", metavar="LIST", help="After points, in order: "
                                               "opponents (their points), score (victory points), openskill "
                                               "(a rating); none: only a lot drawn from the seed.")] = "opponents,score,openskill",
        bye: Annotated[Optional[int], typer.Option("--bye", metavar="N", help="Points for a bye [default: a first place's].")] = None,
        option: Annotated[Optional[list[str]], typer.Option("--option", metavar="KEY=VALUE", help="An option of the tables' games.")] = None,
        name: Annotated[str, typer.Option("--name", metavar="NAME", help="Its name; its tables' games carry "
                                          "it as their tournament (tools standings --tournament NAME).")] = "",
        json_out: JsonOpt = False, db: DbOpt = None) -> None:
    """Create a tournament; prints its id. Its seed is committed now and revealed when it finishes.

    Example: `tools tournament new loot --seats 4 --rounds 3 --name "spring cup"`.
    """
    tid = _desk(db).new(game, table=seats, rounds=rounds, points=points, tiebreaks=tiebreaks, bye=bye,
                        game_options=parse_options(option), name=name)
    if json_out:
        return out_json({"tournament_id": tid.hex})
    echo(tid.hex)


@tournament_app.command("register")
@guarded
def register(tournament_id: TournamentId,
             players: Annotated[list[str], typer.Argument(metavar="PLAYER...", help="One or more players' names.")],
             db: DbOpt = None) -> None:
    """Register players (after round 1 is seated: late arrivals, seated from the next round).

    Example: `tools tournament register 3f2a9c Ada Bo "Cy Twombly"`.
    """
    desk = _desk(db)
    tid = desk.resolve(tournament_id)
    for p in players:
        _said(desk.register(tid, p))


@tournament_app.command("drop")
@guarded
def drop(tournament_id: TournamentId, player: Annotated[str, typer.Argument(metavar="PLAYER")],
         reason: Annotated[str, typer.Option("--reason", metavar="TEXT", help="Why (on the record).")] = "",
         db: DbOpt = None) -> None:
    """A player leaves: not seated again; their results stand.

    Example: `tools tournament drop 3f2a9c Bo --reason "went home"`.
    """
    desk = _desk(db)
    _said(desk.drop(desk.resolve(tournament_id), player, reason))


@tournament_app.command("seat")
@guarded
def seat(tournament_id: TournamentId,
         table_mode: Annotated[Optional[list[int]], typer.Option("--table-mode", metavar="TABLE", help="This table "
                                                                 "plays at a physical table: a table-mode game, the referee enters dice and cards (repeat).")] = None,
         by_hand: Annotated[Optional[list[int]], typer.Option("--by-hand", metavar="TABLE", help="This table plays "
                                                              "without the service: no game; its result is entered by hand (repeat).")] = None,
         json_out: JsonOpt = False, db: DbOpt = None) -> None:
    """Seat the next round: its tables (round 1 drawn from the seed; later rounds by standing, avoiding
    repeat opponents and repeat first seats), and each table's game, its seats named for its players.

    Example: `tools tournament seat 3f2a9c --table-mode 2 --by-hand 4`.
    """
    modes = {t: "table" for t in table_mode or []}
    modes.update({t: "hand" for t in by_hand or []})
    desk = _desk(db)
    seated = desk.seat(desk.resolve(tournament_id), modes)
    if json_out:
        return out_json(seated)
    echo(f"round {seated['round']}")
    for t in seated["tables"]:
        how = {"service": f"game {t['game_id']}", "table": f"game {t['game_id']} (at a table)",
               "hand": "no game: enter its result by hand"}[t["mode"]]
        echo(f"  table {t['table']}: {', '.join(t['players'])}  [{how}]")
    if seated["byes"]:
        echo(f"  bye: {', '.join(seated['byes'])}")


@tournament_app.command("result")
@guarded
def result(tournament_id: TournamentId, table: Annotated[int, typer.Option("--table", metavar="N", help="The table (of the round open now).")],
           places: Annotated[Optional[list[str]], typer.Option("--place", metavar="PLAYER=PLACE", help="By hand: each player's place (1 first; equal places share); repeat.")] = None,
           scores: Annotated[Optional[list[str]], typer.Option("--score", metavar="PLAYER=N", help="By hand, optional: each player's final score (victory points).")] = None,
           reason: Annotated[str, typer.Option("--reason", metavar="TEXT", help="By hand: why the result is entered by hand (on the record).")] = "",
           db: DbOpt = None) -> None:
    """Record a table's result: from its finished game (no --place), or entered by hand with a reason.

    Example: `tools tournament result 3f2a9c --table 2`;
    `tools tournament result 3f2a9c --table 4 --place Ada=1 --place Bo=2 --place Cy=2 --reason "played on paper"`.
    """
    desk = _desk(db)
    tid = desk.resolve(tournament_id)
    if not places:
        if scores or reason:
            fail("--score and --reason go with a result entered by hand (--place for each player)", 2)
        return _said(desk.result_from_game(tid, table))
    if not reason.strip():
        fail("a result entered by hand needs --reason", 2)
    _said(desk.result_by_hand(tid, table, _numbers(places, "--place"), reason,
                              _numbers(scores, "--score") if scores else None))


def _numbers(pairs: list[str], flag: str) -> dict:
    out = {}
    for player, value in parse_options(pairs, flag, "PLAYER=N").items():
        try:
            out[player] = int(value)
        except ValueError:
            fail(f"{flag} {player}={value}: give a whole number", 2)
    return out


@tournament_app.command("close")
@guarded
def close(tournament_id: TournamentId, db: DbOpt = None) -> None:
    """Close the round: the results of its finished games are recorded first; every table needs one.

    Example: `tools tournament close 3f2a9c`.
    """
    desk = _desk(db)
    tid = desk.resolve(tournament_id)
    for n in desk.collect(tid):
        echo(f"table {n}'s result read from its game")
    _said(desk.close(tid))


@tournament_app.command("finish")
@guarded
def finish(tournament_id: TournamentId, db: DbOpt = None) -> None:
    """Finish the tournament (no round open): its seed is revealed, so anyone can recompute its draws.

    Example: `tools tournament finish 3f2a9c`.
    """
    desk = _desk(db)
    _said(desk.finish(desk.resolve(tournament_id)))


@tournament_app.command("standings")
@guarded
def standings(tournament_id: TournamentId,
              round_: Annotated[Optional[int], typer.Option("--round", metavar="N", help="As round N closed them [default: now, every result so far].")] = None,
              json_out: JsonOpt = False, db: DbOpt = None) -> None:
    """The standings: points, then the tie-breaks chosen, then the lot; per round with --round.

    Example: `tools tournament standings 3f2a9c --round 2 --json`.
    """
    desk = _desk(db)
    tid = desk.resolve(tournament_id)
    rows = desk.standings(tid, round_)
    if json_out:
        return out_json(rows)
    tiebreaks = desk.view(tid)["settings"]["tiebreaks"]
    head = ["rank", "player", "points", "played", "wins", "byes", *tiebreaks]
    echo("  ".join(f"{h:>10}" if h != "player" else f"{h:<20}" for h in head))
    for r in rows:
        cells = [str(r["rank"]), r["player"] + (" (dropped)" if r["dropped"] else ""), str(r["points"]),
                 str(r["played"]), str(r["wins"]), str(r["byes"])]
        cells += [f"{r[t] / 100:.2f}" if t == "openskill" else str(r[t]) for t in tiebreaks]
        echo("  ".join(f"{c:>10}" if i != 1 else f"{c:<20}" for i, c in enumerate(cells)))


@tournament_app.command("show")
@guarded
def show(tournament_id: TournamentId, json_out: JsonOpt = False, db: DbOpt = None) -> None:
    """The tournament: its settings, players and every round's tables and results.

    Example: `tools tournament show 3f2a9c --json`.
    """
    desk = _desk(db)
    view = desk.view(desk.resolve(tournament_id))
    if json_out:
        return out_json(view)
    s = view["settings"]
    echo(f"{view['name'] or 'tournament'} {view['tournament_id']}: {s['game']} at tables of up to {s['table']}, "
         f"round {view['round']} of {s['rounds']}" + (", finished" if view["finished"] else ""))
    echo(f"players: {', '.join(p['player'] + (' (dropped)' if p['dropped'] else '') for p in view['players'])}")
    for rnd in view["rounds"]:
        echo(f"round {rnd['round']}" + (" (closed)" if rnd["closed"] else ""))
        for t in rnd["tables"]:
            res = t["result"]
            said = ", ".join(f"{p} {res['places'][p]}." for p in t["players"]) if res else "playing"
            echo(f"  table {t['table']}: {', '.join(t['players'])}: {said}")
    if view["next"]:
        echo(f"next: {' or '.join(view['next'])}")


@tournament_app.command("list")
@guarded
def list_(json_out: JsonOpt = False, db: DbOpt = None) -> None:
    """The tournaments in the store."""
    rows = _desk(db).tournaments()
    if json_out:
        return out_json([{"tournament_id": r["game_id"], "name": r["name"], "round": r["turn"],
                          "finished": bool(r["finished"])} for r in rows])
    for r in rows:
        echo(f"{r['game_id']}  {r['name'] or '-'}  round {r['turn']}{'  finished' if r['finished'] else ''}")


@tournament_app.command("export")
@guarded
def export(tournament_id: TournamentId, output: Annotated[str, typer.Option("-o", "--output", help="File to write (the tournament's history; `tools verify` and `tools import` read it).")],
           games_dir: Annotated[Optional[str], typer.Option("--games", metavar="DIR", help="Also export each table's game into DIR.")] = None,
           json_out: JsonOpt = False, db: DbOpt = None) -> None:
    """Write the tournament's whole history to one portable file (as `tools export` does a game's).

    Example: `tools tournament export 3f2a9c -o cup.pgame --games cup-games/`.
    """
    import os

    from service.records.history import export_game

    desk = _desk(db)
    tid = desk.resolve(tournament_id)
    info = export_game(desk.app, tid, output)
    if games_dir:
        os.makedirs(games_dir, exist_ok=True)
        from uuid import UUID

        info["games"] = [export_game(desk.app, UUID(t["game_id"]), os.path.join(games_dir, t["game_id"] + ".pgame"))
                         for r in desk.view(tid)["rounds"] for t in r["tables"] if t["game_id"]]
    if json_out:
        return out_json(info)
    echo(f"wrote {output}: {info['events']} events, {info['bytes']} bytes"
         + (f"; {len(info['games'])} games in {games_dir}" if games_dir else ""))


@tournament_app.command("audit")
@guarded
def audit(tournament_id: TournamentId, json_out: JsonOpt = False, db: DbOpt = None) -> None:
    """Exit 0 when the tournament's history (every seating recomputed, every lot checked against its
    seed), every table's game, and every result read from a game all agree; else 1 naming the first problem.

    Example: `tools tournament audit 3f2a9c --json`.
    """
    desk = _desk(db)
    tid = desk.resolve(tournament_id)
    with _bar(json_out, "auditing the tables' games") as progress:
        report = desk.audit(tid, progress)
    if json_out:
        out_json(report)
    elif report["ok"]:
        echo(f"ok: tournament {tid.hex}: its history and {len(report['games'])} games agree; "
             "every result read from a game is that game's")
    else:
        echo(f"VIOLATION: tournament {tid.hex}: {report['findings'][0]}")
    if not report["ok"]:
        raise typer.Exit(1)


@tournament_app.command("act")
@guarded
def act(tournament_id: TournamentId, decision: Annotated[str, typer.Argument(metavar="DECISION", help='An organiser\'s decision as JSON: {"referee": "seat"}.')],
        db: DbOpt = None) -> None:
    """Any organiser's decision as JSON (what the other commands send; for scripts).

    Example: `tools tournament act 3f2a9c '{"referee": "register", "player": "Ada"}'`.
    """
    desk = _desk(db)
    _said(desk.decide(desk.resolve(tournament_id), parse_json(decision, "the decision")))


@tournament_app.command("simulate")
@guarded
def simulate(game: Annotated[str, typer.Argument(metavar="GAME", help=games_said())],
             players: Annotated[int, typer.Option("--players", metavar="N", help="How many players.")],
             rounds: Annotated[int, typer.Option("--rounds", metavar="R", help="How many rounds.")] = 3,
             seats: Annotated[int, typer.Option("--seats", metavar="S", help="The most players at a table.")] = 4,
             seed: Annotated[str, typer.Option("--seed", metavar="TEXT", help="The same seed, the same tournament.")] = "1",
             bot: Annotated[Optional[list[str]], typer.Option("--bot", metavar="[SEAT=]BOT", help="The bots (as `tools simulate`).")] = None,
             points: Annotated[str, typer.Option("--points", metavar="SCALE")] = "4,2,1,0",
             tiebreaks: Annotated[str, typer.Option("--tiebreaks", metavar="LIST")] = "opponents,score,openskill",
             option: Annotated[Optional[list[str]], typer.Option("--option", metavar="KEY=VALUE", help="An option of the tables' games.")] = None,
             name: Annotated[str, typer.Option("--name", metavar="NAME")] = "",
             json_out: JsonOpt = False, db: DbOpt = None) -> None:
    """Run a whole tournament with bots, stored: each round seated, every table's game played by bots
    and its result collected, the round closed; prints each round's tables and the standings.

    Example: `tools tournament simulate loot --players 13 --rounds 3 --seats 4 --seed 1 --json`.
    """
    from service.organiser import simulate as run

    if rounds < 1:
        fail("--rounds must be at least 1", 2)
    with _bar(json_out, f"simulating a tournament of {game}") as progress:
        out = run(open_app(db), game, players, rounds, seats, seed, bot=bot or "random", points=points,
                  tiebreaks=tiebreaks, name=name, game_options=parse_options(option), progress=progress)
    if json_out:
        return out_json(out)
    echo(f"tournament {out['tournament_id']}")
    for rnd in out["rounds"]:
        echo(f"round {rnd['round']}")
        for t in rnd["tables"]:
            order = sorted(t["players"], key=lambda p: t["places"][p])
            echo(f"  table {t['table']} (game {t['game_id'][:12]}): "
                 + ", ".join(f"{p} {t['places'][p]}." for p in order))
        if rnd["byes"]:
            echo(f"  bye: {', '.join(rnd['byes'])}")
    echo("standings")
    for r in out["standings"]:
        echo(f"  {r['rank']:>3}. {r['player']:<20} {r['points']:>4} points")


class _bar:
    """A progress bar on stderr while long work runs (none with --json): ``progress(done, total)``."""

    def __init__(self, quiet: bool, what: str):
        self.quiet, self.what = quiet, what
        self.bar: Progress | None = None

    def __enter__(self) -> Callable[[int, int], object] | None:
        if self.quiet:
            return None
        from rich.console import Console
        from rich.progress import Progress

        bar = self.bar = Progress(console=Console(stderr=True), transient=True)
        bar.start()
        task = bar.add_task(self.what, total=None)
        return lambda done, total: bar.update(task, completed=done, total=total)

    def __exit__(self, *exc: object) -> Literal[False]:
        if self.bar is not None:
            self.bar.stop()
        return False

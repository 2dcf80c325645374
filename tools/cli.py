"""``tools``: the referee's command line.

Exit codes: 0 ok, 1 audit violation, 2 usage or malformed input, 3 illegal
decision or not that seat's turn, 4 stale expected version, 5 unknown game.
Heavy imports happen inside the commands, so start-up stays light.
"""

from __future__ import annotations

import functools
import json
import sys
from typing import Annotated, Optional

import typer

app = typer.Typer(
    help="Referee, record, replay, audit and fork pirate tabletop games (event-sourced).",
    no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
)

DbOpt = Annotated[Optional[str], typer.Option(
    "--db", envvar="PRIVATEER_DB",
    help="SQLite file or postgresql:// URL [default: ./privateer.db, or $PRIVATEER_DB]")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable output.")]
GameId = Annotated[str, typer.Argument(help="Game id (or a unique prefix of 6+ characters).")]


def fail(reason: str, code: int):
    typer.echo(f"error: {reason}", err=True)
    raise typer.Exit(code)


def guarded(fn):
    """Turn the kernel's typed errors into one line on stderr and an exit code."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        from service.kernel.errors import PrivateerError

        try:
            return fn(*args, **kwargs)
        except PrivateerError as e:
            fail(e.reason, e.exit_code)

    return wrapper


def open_app(db):
    from service.app import Privateer

    return Privateer(db)


def out_json(obj) -> None:
    typer.echo(json.dumps(obj, indent=2, default=_json_default))


def _json_default(o):
    if isinstance(o, bytes):
        return o.hex()
    return str(o)


def parse_json(text: str, what: str):
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        fail(f"{what} is not valid JSON ({e.msg} at column {e.colno}): {text!r}", 2)


def parse_options(pairs: list[str] | None, flag: str = "--option", form: str = "key=value") -> dict:
    out = {}
    for p in pairs or []:
        key, sep, value = p.partition("=")
        if not sep or not key.strip():
            fail(f"{flag} takes {form}, got {p!r}", 2)
        out[key.strip()] = value.strip()
    return out


def print_events(entries: list[dict]) -> None:
    for e in entries:
        typer.echo(f"  v{e['version']:<5} t{e['turn']:<4} {e['type']:<22} {e['text']}")


# ---------------------------------------------------------------------------
@app.command()
@guarded
def new(
    game: Annotated[str, typer.Argument(help="letter-of-marque, loot, kaisers-pirates, merchants-and-marauders")],
    seats: Annotated[int, typer.Option("--seats", help="Number of seats (players).")],
    table: Annotated[bool, typer.Option("--table", help="Table mode: the referee enters every die and card with `tools chance`.")] = False,
    option: Annotated[Optional[list[str]], typer.Option("--option", help="Game option key=value (repeatable).")] = None,
    name: Annotated[str, typer.Option("--name", help="A name for the game.")] = "",
    tournament: Annotated[str, typer.Option("--tournament", help="Tournament this game belongs to.")] = "",
    catalog: Annotated[Optional[str], typer.Option("--catalog", help="JSON file with printed card values to use instead of the built-in catalog.")] = None,
    player: Annotated[Optional[list[str]], typer.Option("--player", help="Who sits where, SEAT=NAME (repeatable); standings count by player.")] = None,
    db: DbOpt = None,
):
    """Create a game and print only its id."""
    cat = None
    if catalog:
        from service.catalogs import load_catalog_file

        cat = load_catalog_file(game, catalog)
    gid = open_app(db).create(game, seats, table=table, options=parse_options(option), name=name,
                              tournament=tournament, catalog=cat,
                              players=parse_options(player, "--player", "SEAT=NAME"))
    typer.echo(gid.hex)


@app.command()
@guarded
def status(game_id: GameId, json_out: JsonOpt = False, db: DbOpt = None):
    """Version, turn, who must act, awaited chance, scores when finished."""
    from service.views import status as status_view

    a = open_app(db)
    gid = a.resolve_id(game_id)
    machine, version, head = a.fold(gid)
    st = status_view(gid, machine, version, head)
    if json_out:
        return out_json(st)
    typer.echo(f"game {st['game_id']} ({st['game']}, {st['seats']} seats{', table mode' if st['table'] else ''})")
    typer.echo(f"version {st['version']}, turn {st['turn']}, {'finished' if st['finished'] else 'in play'}")
    if st["to_act"]:
        typer.echo(f"to act: seat{'s' if len(st['to_act']) > 1 else ''} {', '.join(map(str, st['to_act']))}")
    if st["awaiting_chance"]:
        typer.echo(f"awaiting chance from the referee: {json.dumps(st['awaiting_chance'])}")
    if st["finished"]:
        typer.echo(f"scores: {json.dumps(st['scores'])}; winners: {st['winners']}")


@app.command()
@guarded
def legal(game_id: GameId, seat: Annotated[int, typer.Option("--seat", help="The seat asking.")],
          json_out: JsonOpt = False, db: DbOpt = None):
    """The decisions SEAT may submit now, each exactly as `act` takes it."""
    a = open_app(db)
    machine, _, _ = a.fold(a.resolve_id(game_id))
    machine.check_seat(seat)
    decisions = machine.legal(seat)
    if json_out:
        return out_json(decisions)
    if not decisions:
        typer.echo(f"seat {seat} has nothing to decide now")
    for d in decisions:
        typer.echo(json.dumps(d))


@app.command()
@guarded
def act(game_id: GameId, decision: Annotated[str, typer.Argument(help='The decision as JSON, e.g. \'{"action": "launch"}\'.')],
        seat: Annotated[int, typer.Option("--seat", help="The seat deciding.")],
        expect_version: Annotated[Optional[int], typer.Option("--expect-version", help="Refuse (exit 4) unless the game is at this version.")] = None,
        json_out: JsonOpt = False, db: DbOpt = None):
    """Submit SEAT's decision."""
    d = parse_json(decision, "the decision")
    a = open_app(db)
    gid = a.resolve_id(game_id)
    events = a.act(gid, seat, d, expect_version)
    _report_appended(a, gid, events, seat, json_out)


@app.command()
@guarded
def chance(game_id: GameId,
           outcomes: Annotated[list[str], typer.Argument(help="What the table shows, as you would say it: a die (4), "
                                                         "two dice (4 6), a card (blue-4), a face name (skull), "
                                                         "0 on a d10 for 10, one of the listed options; several "
                                                         "outcomes in a row for a whole deal. JSON is taken too.")],
           expect_version: Annotated[Optional[int], typer.Option("--expect-version")] = None,
           json_out: JsonOpt = False, db: DbOpt = None):
    """Table mode: enter the dice, cards or random picks the game awaits.

    Example: `tools chance 3f2a9c 4 6` enters two dice; `tools chance 3f2a9c red-4 blue-2 green-5`
    enters three cards in the order they are awaited. All are recorded together, or none.
    """
    words = [parse_word(w) for w in outcomes]
    a = open_app(db)
    gid = a.resolve_id(game_id)
    events = a.enter_chances(gid, words, expect_version)
    _report_appended(a, gid, events, None, json_out)


def parse_word(text: str):
    """A word as typed: JSON when it is JSON (4, [3, 5], "blue-4", {...}), else the bare text."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text.strip()


def _report_appended(a, gid, events, seat, json_out):
    from service.kernel.rules import get_rules
    from service.views import log_entries

    new = list(a.events.get(gid, desc=True, limit=len(events)))[::-1]
    game = a.recorder.select_games(prefix=gid.hex)[0]["game"]
    machine = a.load(gid).machine
    # the referee's command line: store versions; with a seat, only what that seat may see
    entries = log_entries(get_rules(game), new, None)
    if seat is not None:
        from service.views import REFEREE_ONLY_FIELDS

        visible = {e.originator_version for e in new if e.visible_to == "all"
                   or (isinstance(e.visible_to, list) and seat in e.visible_to)}
        entries = [dict(x, data={k: v for k, v in x["data"].items() if k not in REFEREE_ONLY_FIELDS})
                   for x in entries if x["version"] in visible]
    version = new[-1].originator_version
    waiting = waiting_for(machine)
    if json_out:
        return out_json({"version": version, "events": entries, "next": waiting})
    typer.echo(f"ok: version {version}")
    print_events(entries)
    typer.echo(f"next: {waiting['text']}")


def waiting_for(machine) -> dict:
    """What the game waits for now, for a person and for a script."""
    awaiting = machine.awaiting_chance()
    if machine.finished:
        return {"finished": True, "to_act": [], "awaiting_chance": None, "text": "the game is finished"}
    if awaiting is not None:
        what = {"dice": lambda: f"{awaiting['n']}d{awaiting['sides']}", "card": lambda: f"a card from {awaiting['deck']}",
                "pick": lambda: f"one of {json.dumps(awaiting['options'])}",
                "shuffle": lambda: f"the order of {awaiting['deck']}"}[awaiting["kind"]]()
        text = f"the referee enters {what} ({awaiting.get('why', '')}) with `tools chance`"
    else:
        seats = machine.to_act()
        text = f"seat{'s' if len(seats) > 1 else ''} {', '.join(map(str, seats))} to decide (`tools legal`)"
    return {"finished": False, "to_act": machine.to_act(), "awaiting_chance": awaiting, "text": text}


@app.command()
@guarded
def correct(game_id: GameId,
            to_version: Annotated[int, typer.Option("--to-version", help="Keep the game up to this version; retract every step after it.")],
            reason: Annotated[str, typer.Option("--reason", help="Why (kept in the record and shown by the audit).")],
            expect_version: Annotated[Optional[int], typer.Option("--expect-version")] = None,
            json_out: JsonOpt = False, db: DbOpt = None):
    """Retract the last step(s), on the record: a mistyped die, card or decision.

    The retracted events stay in the log, marked as retracted; replay, audit and standings follow the
    corrected line. Example: `tools correct 3f2a9c --to-version 41 --reason "die misread: it was a 5"`.
    """
    a = open_app(db)
    gid = a.resolve_id(game_id)
    events = a.correct(gid, to_version, reason, expect_version)
    _report_appended(a, gid, events, None, json_out)


@app.command()
@guarded
def replay(game_id: GameId,
           to_turn: Annotated[Optional[int], typer.Option("--to-turn", help="Stop at the end of this turn.")] = None,
           to_event: Annotated[Optional[int], typer.Option("--to-event", help="Stop after this version.")] = None,
           seat: Annotated[Optional[int], typer.Option("--seat", help="Show the table as this seat saw it.")] = None,
           json_out: JsonOpt = False, db: DbOpt = None):
    """The board and scores at the end of a turn (or event), as the referee saw it or as SEAT did."""
    from service.views import board

    if to_turn is not None and to_event is not None:
        fail("give --to-turn or --to-event, not both", 2)
    a = open_app(db)
    gid = a.resolve_id(game_id)
    machine, version, _ = a.fold(gid, to_turn=to_turn, to_event=to_event)
    if seat is not None:
        machine.check_seat(seat)
    b = board(gid, machine, version, seat)
    if json_out:
        return out_json(b)
    from rich.console import Console
    from rich.pretty import Pretty

    who = f"seat {seat}" if seat is not None else "the referee"
    typer.echo(f"{b['game']} {b['game_id']} at version {version}, turn {b['turn']}, as {who} saw it")
    if b["finished"]:
        typer.echo(f"finished: scores {json.dumps(b['scores'])}, winners {b['winners']}")
    elif b["to_act"]:
        typer.echo(f"to act: {', '.join(map(str, b['to_act']))}")
    Console().print(Pretty(b["board"], expand_all=True))


@app.command()
@guarded
def log(game_id: GameId, seat: Annotated[Optional[int], typer.Option("--seat", help="Only what this seat may see.")] = None,
        json_out: JsonOpt = False, db: DbOpt = None):
    """The events, readable (all of them for the referee, or what SEAT may see)."""
    from service.views import log_entries

    a = open_app(db)
    gid = a.resolve_id(game_id)
    stored = a.stored_events(gid)
    machine = a.load(gid, version=1).machine
    if seat is not None:
        machine.check_seat(seat)
    entries = log_entries(machine.rules, stored, seat)
    if json_out:
        return out_json(entries)
    print_events(entries)


@app.command()
@guarded
def audit(game_id: Annotated[Optional[str], typer.Argument(help="Game id (omit with --all).")] = None,
          all_games: Annotated[bool, typer.Option("--all", help="Audit every game in the store.")] = False,
          json_out: JsonOpt = False, db: DbOpt = None):
    """Exit 0 when chain, chance and rules all agree; else exit 1 naming the first bad event."""
    from uuid import UUID

    from service.audit import audit_game

    if (game_id is None) == (not all_games):
        fail("give a game id or --all", 2)
    a = open_app(db)
    ids = [a.resolve_id(game_id)] if game_id else [UUID(r["game_id"]) for r in a.games()]
    reports = []
    if len(ids) > 1 and not json_out:
        from rich.progress import track

        it = track(ids, description="auditing", console=_stderr_console(), transient=True)
    else:
        it = ids
    for gid in it:
        reports.append(audit_game(a, gid))
    bad = [r for r in reports if not r.ok]
    if json_out:
        out_json([r.as_dict() for r in reports] if all_games else reports[0].as_dict())
    else:
        for r in reports:
            if r.ok:
                if not all_games:
                    typer.echo(f"ok: game {r.game_id}, {r.events} events: chain, chance and rules agree")
                    for n in r.notes:
                        typer.echo(f"  note: {n}")
            else:
                b = r.first_bad
                typer.echo(f"VIOLATION: game {r.game_id}: event {b['version']} ({b['type']}): {b['reason']}")
        if all_games:
            typer.echo(f"{len(reports) - len(bad)} of {len(reports)} games audit clean")
    if bad:
        raise typer.Exit(1)


def _stderr_console():
    from rich.console import Console

    return Console(stderr=True)


@app.command()
@guarded
def fork(game_id: GameId,
         at_turn: Annotated[Optional[int], typer.Option("--at-turn", help="Fork after the end of this turn.")] = None,
         at_event: Annotated[Optional[int], typer.Option("--at-event", help="Fork after this version (a decision boundary).")] = None,
         db: DbOpt = None):
    """A new game whose history is this one's up to that point; prints the new id."""
    from service.history import fork as do_fork

    a = open_app(db)
    typer.echo(do_fork(a, a.resolve_id(game_id), at_turn, at_event).hex)


@app.command()
@guarded
def export(game_id: GameId, output: Annotated[str, typer.Option("-o", "--output", help="File to write.")],
           with_secret: Annotated[bool, typer.Option("--with-secret", help="Include the secret seed of an unfinished game (referee backups only).")] = False,
           json_out: JsonOpt = False, db: DbOpt = None):
    """Write one portable file holding the game's whole history."""
    from service.history import export_game

    a = open_app(db)
    info = export_game(a, a.resolve_id(game_id), output, with_secret)
    if json_out:
        return out_json(info)
    typer.echo(f"wrote {output}: {info['events']} events, {info['bytes']} bytes")


@app.command("import")
@guarded
def import_(path: Annotated[str, typer.Argument(help="A file written by `tools export`.")], db: DbOpt = None):
    """Load a game file into the store (same id); prints the id."""
    from service.history import import_game

    typer.echo(import_game(open_app(db), path).hex)


@app.command()
@guarded
def games(json_out: JsonOpt = False, db: DbOpt = None):
    """The games in the store."""
    rows = open_app(db).games()
    if json_out:
        return out_json(rows)
    from rich.console import Console
    from rich.table import Table

    t = Table("id", "game", "seats", "name", "tournament", "version", "turn", "state")
    for r in rows:
        state = "finished" if r["finished"] else "in play"
        t.add_row(r["game_id"], r["game"], str(r["seats"]), r["name"], r["tournament"],
                  str(r["version"]), str(r["turn"]), state)
    Console().print(t)


@app.command()
@guarded
def simulate(game: Annotated[str, typer.Argument(help="Which game.")],
             seats: Annotated[int, typer.Option("--seats")],
             games_: Annotated[int, typer.Option("--games", help="How many games.")] = 1,
             seed: Annotated[Optional[str], typer.Option("--seed", help="Make the run reproducible.")] = None,
             bot: Annotated[str, typer.Option("--bot", help="Bot for every seat (random, or the game's own).")] = "random",
             option: Annotated[Optional[list[str]], typer.Option("--option", help="Game option key=value.")] = None,
             in_memory: Annotated[bool, typer.Option("--in-memory", help="Do not store the games.")] = False,
             tournament: Annotated[str, typer.Option("--tournament")] = "",
             json_out: JsonOpt = False, db: DbOpt = None):
    """Play games with bots (random legal players by default), with a progress bar."""
    from service.simulate import simulate as run

    if games_ < 1:
        fail("--games must be at least 1", 2)
    stats = run(game, seats, games_, seed=seed, bot=bot, options=parse_options(option),
                app=None if in_memory else open_app(db), tournament=tournament,
                progress=not json_out)
    if json_out:
        return out_json(stats)
    typer.echo(f"{stats['games']} games, {stats['decisions']} decisions, {stats['events']} events in "
               f"{stats['seconds']:.2f}s: {stats['games_per_second']:.1f} games/s, "
               f"{stats['decisions_per_second']:.0f} decisions/s ({'in memory' if in_memory else 'stored'})")
    if not in_memory and stats["game_ids"]:
        typer.echo(f"last game: {stats['game_ids'][-1]}")


# Commands kept in their own modules register themselves on ``app``.
from tools import projections_cmd, serve_cmd  # noqa: E402,F401


def main():
    app()


if __name__ == "__main__":
    main()

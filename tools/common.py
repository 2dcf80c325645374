"""What every `tools` command shares: the Typer app, the common options, the
one-line errors and exit codes, JSON output, parsing of typed values.

Exit codes: 0 ok, 1 audit violation, 2 usage or malformed input, 3 illegal
decision or not that seat's turn, 4 stale expected version, 5 unknown game.
Heavy imports happen inside the commands, so start-up stays light.
"""

from __future__ import annotations

import functools
import json
from typing import Annotated, Optional

import typer

app = typer.Typer(
    help="Referee, record, replay, audit and fork pirate tabletop games (event-sourced).",
    no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
)

DbOpt = Annotated[Optional[str], typer.Option(
    "--db", envvar="PRIVATEER_DB", metavar="PATH|URL",
    help="SQLite file or postgresql:// URL [default: ./privateer.db, or $PRIVATEER_DB]")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable output.")]
GameId = Annotated[str, typer.Argument(metavar="GAME_ID", help="Game id (or a unique prefix of 6+ characters).")]


def flowing(doc: str) -> str:
    """A docstring as help text: each paragraph one line, for the terminal to wrap
    (Typer's rich help keeps a docstring's line breaks, so a paragraph wrapped at
    100 columns in the source would show ragged in an 80-column terminal)."""
    return "\n\n".join(" ".join(p.split()) for p in doc.split("\n\n"))


def flowing_help(app: typer.Typer) -> None:
    """Give every command of ``app`` (and of its groups) its docstring as flowing help."""
    import inspect

    for c in app.registered_commands:
        if c.help is None and c.callback is not None and c.callback.__doc__:
            c.help = flowing(inspect.getdoc(c.callback))
    for g in app.registered_groups:
        flowing_help(g.typer_instance)


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
    """One event per line: number, turn and what happened, wrapped between words
    to the terminal's width (80 columns when not a terminal)."""
    import shutil
    import textwrap

    width = max(60, shutil.get_terminal_size((80, 24)).columns)
    for e in entries:
        head = f"  v{e['version']:<5} t{e['turn']:<4} "
        typer.echo(textwrap.fill(e["text"], width=width, initial_indent=head,
                                 subsequent_indent=" " * len(head), break_long_words=False,
                                 break_on_hyphens=False))


# ---------------------------------------------------------------------------


def parse_word(text: str):
    """A word as typed: JSON when it is JSON (4, [3, 5], "blue-4", {...}), else the bare text."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text.strip()


def report_appended(a, gid, events, seat, json_out):
    from service.kernel.rules import get_rules
    from service.views import log_entries

    new = list(a.events.get(gid, desc=True, limit=len(events)))[::-1]
    game = a.recorder.select_games(prefix=gid.hex)[0]["game"]
    machine = a.load(gid).machine
    # the referee's command line: store versions; with a seat, only what that seat may see
    entries = log_entries(get_rules(game), new, None, players=machine.config.get("players"))
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

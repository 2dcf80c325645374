"""What every `tools` command shares: the Typer app, the common options, the
one-line errors and exit codes, parsing of options (a word as typed
and what the commands print are in tools/plain.py, which needs no Typer).

Exit codes: 0 ok, 1 audit violation, 2 usage or malformed input, 3 illegal
decision or not that seat's turn, 4 stale expected version, 5 unknown game.
Heavy imports happen inside the commands, so start-up stays light.
"""

from __future__ import annotations

import functools
import json
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, Optional

import typer

from service.json_text import loads, read_file

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import ParamSpec, TypeVar

    from service.app import Privateer

    P = ParamSpec("P")
    R = TypeVar("R")

app = typer.Typer(
    help="Referee, record, replay, audit and fork pirate tabletop games (event-sourced).",
    no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
)

DbOpt = Annotated[Optional[str], typer.Option(
    "--db", envvar="PRIVATEER_DB", metavar="PATH|URL",
    help="SQLite file or postgresql:// URL [default: ./privateer.db, or $PRIVATEER_DB]")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable output.")]
GameId = Annotated[str, typer.Argument(metavar="GAME_ID", help="Game id (or a unique prefix of 6+ characters).")]
RefereeKeyOpt = Annotated[Optional[str], typer.Option(
    "--referee-key", metavar="FILE",
    help="The referee's own key file (`tools seat-key FILE` makes one): registered once at a table (a public "
         "event), it signs what the referee enters; the service then refuses entries without its signature.")]


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
            c.help = flowing(inspect.getdoc(c.callback) or "")
    for g in app.registered_groups:
        if g.typer_instance is not None:
            flowing_help(g.typer_instance)


def fail(reason: str, code: int) -> NoReturn:
    typer.echo(f"error: {reason}", err=True)
    raise typer.Exit(code)


def guarded(fn: Callable[P, R]) -> Callable[P, R]:
    """Turn the kernel's typed errors into one line on stderr and an exit code."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        from service.kernel.errors import PrivateerError

        try:
            return fn(*args, **kwargs)
        except PrivateerError as e:
            fail(e.reason, e.exit_code)

    return wrapper


def open_app(db: str | None) -> Privateer:
    from service.app import Privateer

    return Privateer(db)


def parse_json(text: str, what: str) -> Any:
    try:
        return loads(text, what)
    except json.JSONDecodeError as e:
        fail(f"{what} is not valid JSON ({e.msg} at column {e.colno}): {text[:200]!r}", 2)


def read_position(path: str) -> dict:
    """A position file (docs/positions.md): one JSON object, UTF-8 (or UTF-16 with its BOM)."""
    position = read_file(path, f"position {path}")
    if not isinstance(position, dict):
        fail(f"position {path} must hold one JSON object", 2)
    return position


def parse_options(pairs: list[str] | None, flag: str = "--option", form: str = "key=value") -> dict:
    out = {}
    for p in pairs or []:
        key, sep, value = p.partition("=")
        if not sep or not key.strip():
            fail(f"{flag} takes {form}, got {p!r}", 2)
        out[key.strip()] = value.strip()
    return out

"""``tools``: the referee's command line (entry point).

The commands live in modules named for what they do, each registering on the
one Typer app of ``tools.common``: play_cmds (new, status, legal, act, chance,
correct, referee), table_cmd (table: the referee's session), history_cmds (replay, log, audit, fork, export, import, games,
simulate), projections_cmd (projections, standings), serve_cmd (serve), evidence_cmds (key, verify), analyse_cmd (analyse),
tournament_cmd (tournament: new, register, drop, seat, result, close, finish, standings, export, audit, simulate),
witness_cmd (witness: follow, check).
"""

from __future__ import annotations

import os
import select
import stat
import sys

TYPE_CHECKING = False  # typing is not imported at run time: `tools --help` starts without it
if TYPE_CHECKING:
    from typing import Any, NoReturn

    import typer


def main() -> None:
    """The command asked. A reader that stops reading (``tools log ID | head``) ends it
    quietly with exit 0, as a Unix tool's output cut short by its reader does, whoever
    met the closed pipe: a quick answer (``BrokenPipeError``), or Typer and rich, which
    each answer it with exit 1 (their streams made quiet first)."""
    watched = _stdout_pipe()
    try:
        _run(sys.argv[1:])
    except BrokenPipeError:
        _reader_gone()
    except SystemExit as e:
        if e.code == 1 and watched is not None and _reader_left(watched):
            _reader_gone()
        raise


def _run(args: list[str]) -> None:
    if args == ["--help"]:  # the page as Typer drew it last for this terminal (tools/help_page.py)
        from tools.help_page import show

        show(lambda: _through_typer(args))
        return
    from service.logs import configure
    from tools.quick import answered

    try:  # one log format for every command ($PRIVATEER_LOG_FORMAT, $PRIVATEER_LOG_LEVEL; service/logs.py)
        configure(default_level="INFO" if args[:1] == ["serve"] else "WARNING")
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        raise SystemExit(2) from None

    if answered(args):  # the plain form of a script's most frequent call, before Typer is imported
        _answered_end()
    _through_typer(args)


def _answered_end() -> NoReturn:
    """A quick answer is written: the process ends at once, its output flushed, without
    the interpreter's teardown (freeing, one by one, the modules and the objects a replay
    made: an eighth of ``tools replay``'s processor time, bench/startup.py). Nothing is
    left undone there: a step is committed before its answer is written (tools/quick.py),
    the store read through a connection each read closes, and a log line is written out as
    it is logged (service/logs.py). A reader gone (a closed pipe) is met by the flush here,
    as before by the interpreter's own."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def _through_typer(args: list[str]) -> None:
    app = _assembled()
    only_the_command_asked(app, args)
    app()


def _stdout_pipe() -> int | None:
    """A copy of standard output's descriptor when it is a pipe (whatever later points
    descriptor 1 elsewhere, this one still tells whether the reader left), else None."""
    try:
        return os.dup(1) if stat.S_ISFIFO(os.fstat(1).st_mode) else None
    except OSError:
        return None


def _reader_left(fd: int) -> bool:
    """The pipe has no reader any more (poll says POLLERR of its writing end)."""
    p = select.poll()
    p.register(fd, select.POLLOUT)
    return any(ev & select.POLLERR for _, ev in p.poll(0))


def _reader_gone() -> None:
    """Exit 0 without another word: what is still buffered goes nowhere (not even the
    interpreter's last flush, which would fail on the closed pipe again)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    raise SystemExit(0)


def _assembled() -> typer.Typer:
    """The Typer app with every command registered (importing the command
    modules registers them, in the order `tools --help` lists them)."""
    from tools import play_cmds  # noqa: F401,I001
    from tools import table_cmd  # noqa: F401,I001
    from tools import history_cmds  # noqa: F401,I001
    from tools import projections_cmd, serve_cmd  # noqa: F401
    from tools import evidence_cmds  # noqa: F401,I001
    from tools import analyse_cmd  # noqa: F401,I001
    from tools import tournament_cmd  # noqa: F401,I001
    from tools import witness_cmd  # noqa: F401,I001
    from tools.common import app, flowing_help

    flowing_help(app)
    return app


def __getattr__(name: str) -> Any:  # ``app``, assembled on first use
    if name == "app":  # ``from tools.cli import app``: the assembled app
        return _assembled()
    raise AttributeError(name)


def only_the_command_asked(app: typer.Typer, args: list[str]) -> None:
    """Typer derives every command's options from its signature at each start
    (a third of a quick command's time): a call that names its command builds
    only that one. ``tools --help`` and an unknown name still see them all."""
    if not args or args[0].startswith("-"):
        return
    name = args[0]
    commands = [c for c in app.registered_commands if (c.name or getattr(c.callback, "__name__", None)) == name]
    groups = [g for g in app.registered_groups if g.name == name]
    if len(commands) + len(groups) != 1:
        return
    app.registered_commands, app.registered_groups = commands, groups
    app.callback()(_group)  # a lone command would otherwise become the app itself


def _group() -> None:
    """Referee, record, replay, audit and fork pirate tabletop games (event-sourced)."""


if __name__ == "__main__":
    main()

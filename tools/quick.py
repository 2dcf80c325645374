"""Answers a script asks for most, given before the command-line framework
is imported (Typer and its dependencies are most of a quick call's time).

Only the plain forms of three calls are answered here:

* ``tools status GAME_ID --json [--db PATH]``, on an SQLite store that keeps
  the game's status row;
* ``tools legal GAME_ID --seat N --json [--db PATH]``, on an SQLite store read
  directly (service/replay.py ``direct_fold``);
* ``tools replay GAME_ID --to-turn N [--json] [--db PATH]`` (the table for a
  person is drawn with rich, as the command draws it).

Anything else, and anything these cannot answer exactly as the command does
(an unknown game, a bad setting, any error), goes to the command itself,
which answers it, errors included. The answers are made by the functions
the commands call, and printed as they print them.
"""

from __future__ import annotations

import gc
import json
import sys


def answered(args: list[str]) -> bool:
    """True when this call was answered here (its output written)."""
    if len(args) < 2 or args[0] not in _ANSWERS or args[1].startswith("-"):
        return False
    options = _plain_options(args[2:])
    if options is None or (options.get("--json") is not True and args[0] != "replay"):
        return False
    from service.kernel.errors import PrivateerError

    # One answer, then the process ends: the cyclic collector would only walk, again and
    # again, the objects the answer is made of (a replay decodes every event to check the
    # chain), which the end of the process frees anyway. On for the command, if it answers.
    gc.disable()
    done = False
    try:
        done = _ANSWERS[args[0]](args[1], options)
    except PrivateerError:  # the command says it, as it says it
        pass
    finally:
        if not done:
            gc.enable()
    return done


def _plain_options(rest: list[str]) -> dict | None:
    """``--json`` and ``--db PATH`` / ``--to-turn N`` / ``--seat N`` (digits), each once, in any order;
    None otherwise."""
    out: dict = {}
    i = 0
    while i < len(rest):
        name = rest[i]
        if name in out:
            return None
        if name == "--json":
            out[name] = True
            i += 1
            continue
        if name not in ("--db", "--to-turn", "--seat") or i + 1 >= len(rest) or rest[i + 1].startswith("-"):
            return None
        value = rest[i + 1]
        if name in ("--to-turn", "--seat") and not (value.isascii() and value.isdigit()):
            return None
        out[name] = value
        i += 2
    return out


def _status(game_id: str, options: dict) -> bool:
    from event_store.reads import sqlite_status
    from event_store.store import resolve_db
    from service.snapshots import snapshot_interval

    if set(options) - {"--db", "--json"}:
        return False
    snapshot_interval()  # a bad setting is reported however the answer is found
    st = sqlite_status(resolve_db(options.get("--db")), game_id)
    if st is None:
        return False
    _print_json(st)
    return True


def _legal(game_id: str, options: dict) -> bool:
    from event_store.store import resolve_db
    from service.replay import direct_fold

    if "--seat" not in options or set(options) - {"--db", "--seat", "--json"}:
        return False
    found = direct_fold(resolve_db(options.get("--db")), game_id)
    if found is None:
        return False
    machine, seat = found[1], int(options["--seat"])
    machine.check_seat(seat)  # a seat the game has not: the command says so
    _print_json(machine.legal(seat))
    return True


def _replay(game_id: str, options: dict) -> bool:
    from service.replay import replay_board

    if "--to-turn" not in options or set(options) - {"--db", "--to-turn", "--json"}:
        return False
    b, machine = replay_board(options.get("--db"), game_id, to_turn=int(options["--to-turn"]))
    if "warning" in b:
        sys.stderr.write(f"warning: {b['warning']}\n")
    if options.get("--json"):
        _print_json(b)
        return True
    if "note" in b:
        sys.stderr.write(f"note: {b['note']}\n")
    from tools.boards import print_board

    print_board(b, machine.config)
    return True


_ANSWERS = {"status": _status, "legal": _legal, "replay": _replay}


def _print_json(obj) -> None:  # as tools.common.out_json
    sys.stdout.write(json.dumps(obj, indent=2, default=_json_default) + "\n")


def _json_default(o):
    if isinstance(o, bytes):
        return o.hex()
    return str(o)

"""Answers a script asks for most, given before the command-line framework
is imported (Typer and its dependencies are most of a quick call's time).

Only the plain forms of these calls are answered here:

* ``tools status GAME_ID [--json] [--db PATH]``, on an SQLite store that keeps
  the game's status row;
* ``tools legal GAME_ID --seat N [--json] [--db PATH]``, on an SQLite store read
  directly (service/replay.py ``direct_fold``);
* ``tools replay GAME_ID --to-turn N [--json] [--db PATH]`` (the table for a
  person is drawn with rich, as the command draws it);
* ``tools log GAME_ID [--seat N] [--json] [--db PATH]`` (``service/replay.py``
  ``game_log``);
* ``tools games [--json] [--db PATH]`` (``service/replay.py`` ``games_for_reading``);
* ``tools act GAME_ID --seat N DECISION [--expect-version V] [--json] [--db PATH]``
  and ``tools chance GAME_ID OUTCOME... [--expect-version V] [--json] [--db PATH]``,
  the two calls that record a game, step by step, outcome by outcome.

Anything else, and anything these cannot answer exactly as the command does
(an unknown game, a bad setting, any error), goes to the command itself,
which answers it, errors included. A refused step writes nothing, so the
command, asked again, refuses it as it would have; once a step is written,
its answer is given here, whatever happens. The answers are made by the
functions the commands call, and printed as they print them (tools/plain.py).
"""

from __future__ import annotations

import gc
import sys

from tools.plain import out_json, parse_word, print_events, print_games, print_legal, print_status, typed_decision


def answered(args: list[str]) -> bool:
    """True when this call was answered here (its output written)."""
    if args and args[0] == "games":      # the one call without a game id
        args = [args[0], ""] + args[1:]
    if len(args) < 2 or args[0] not in _ANSWERS or args[1].startswith("-"):
        return False
    parsed = _plain_options(args[2:])
    if parsed is None:
        return False
    words, options = parsed
    if args[0] in _WRITES:
        if not words:
            return False
    elif words:
        return False
    from service.kernel.errors import PrivateerError

    # One answer, then the process ends: the cyclic collector would only walk, again and
    # again, the objects the answer is made of (a replay decodes every event to check the
    # chain), which the end of the process frees anyway. On for the command, if it answers.
    gc.disable()
    done = False
    try:
        if args[0] in _WRITES:
            done = _ANSWERS[args[0]](args[1], words, options)
        else:
            done = _ANSWERS[args[0]](args[1], options)
    except PrivateerError:  # the command says it, as it says it (a refused step wrote nothing)
        pass
    finally:
        if not done:
            gc.enable()
    return done


_NUMBERS = ("--to-turn", "--seat", "--expect-version")


def _plain_options(rest: list[str]) -> tuple[list[str], dict] | None:
    """The words (arguments) and the options: ``--json`` and ``--db PATH`` /
    ``--to-turn N`` / ``--seat N`` / ``--expect-version N`` (digits), each once, in
    any order; None for anything else (another option, ``--name=value``, ``--``)."""
    out: dict = {}
    words: list[str] = []
    i = 0
    while i < len(rest):
        name = rest[i]
        if not name.startswith("-"):
            words.append(name)
            i += 1
            continue
        if name in out:
            return None
        if name == "--json":
            out[name] = True
            i += 1
            continue
        if name not in ("--db",) + _NUMBERS or i + 1 >= len(rest) or rest[i + 1].startswith("-"):
            return None
        value = rest[i + 1]
        if name in _NUMBERS and not (value.isascii() and value.isdigit()):
            return None
        out[name] = value
        i += 2
    return words, out


def _give(options: dict, answer, for_a_person) -> bool:
    """``answer`` as JSON with ``--json``, else as the command prints it for a person."""
    if options.get("--json"):
        out_json(answer)
    else:
        for_a_person(answer)
    return True


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
    return _give(options, st, print_status)


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
    return _give(options, machine.legal(seat), lambda listed: print_legal(seat, found[2], listed, machine))


def _replay(game_id: str, options: dict) -> bool:
    from service.replay import replay_board

    if "--to-turn" not in options or set(options) - {"--db", "--to-turn", "--json"}:
        return False
    b, machine = replay_board(options.get("--db"), game_id, to_turn=int(options["--to-turn"]))
    if "warning" in b:
        sys.stderr.write(f"warning: {b['warning']}\n")
    if options.get("--json"):
        out_json(b)
        return True
    if "note" in b:
        sys.stderr.write(f"note: {b['note']}\n")
    from tools.boards import print_board

    print_board(b, machine.config)
    return True


def _act(game_id: str, words: list[str], options: dict) -> bool:
    """``tools act``: as the command (tools/play_cmds.py), a decision typed out or by its number."""
    if len(words) != 1 or "--seat" not in options or set(options) - {"--db", "--seat", "--expect-version", "--json"}:
        return False
    seat = int(options["--seat"])
    a = _open(options)
    gid = a.resolve_id(game_id)
    d = typed_decision(a, gid, seat, words[0], game_id)
    events = a.act(gid, seat, d, _expected(options))
    _report(a, gid, events, seat, options)
    return True


def _chance(game_id: str, words: list[str], options: dict) -> bool:
    """``tools chance``: the outcomes as the table shows them, all recorded or none."""
    if set(options) - {"--db", "--expect-version", "--json"}:
        return False
    a = _open(options)
    gid = a.resolve_id(game_id)
    events = a.enter_chances(gid, [parse_word(w) for w in words], _expected(options))
    _report(a, gid, events, None, options)
    return True


def _open(options: dict):
    from service.app import Privateer

    return Privateer(options.get("--db"))


def _expected(options: dict) -> int | None:
    v = options.get("--expect-version")
    return None if v is None else int(v)


def _report(a, gid, events, seat, options: dict) -> None:
    """The written step's answer, here whatever happens: asked again, the command
    would record the step a second time."""
    from service.kernel.errors import PrivateerError
    from tools.plain import report_appended

    try:
        report_appended(a, gid, events, seat, options.get("--json") is True)
    except PrivateerError as e:  # as the command's ``fail`` says it
        sys.stderr.write(f"error: {e.reason}\n")
        raise SystemExit(e.exit_code) from None


def _log(game_id: str, options: dict) -> bool:
    from service.replay import game_log

    if set(options) - {"--db", "--seat", "--json"}:
        return False
    entries = game_log(options.get("--db"), game_id, int(options["--seat"]) if "--seat" in options else None)
    return _give(options, entries, print_events)


def _games(_: str, options: dict) -> bool:
    from service.replay import games_for_reading

    if set(options) - {"--db", "--json"}:
        return False
    rows = games_for_reading(options.get("--db"))
    return _give(options, rows, print_games)


_ANSWERS = {"status": _status, "legal": _legal, "replay": _replay, "log": _log, "games": _games, "act": _act, "chance": _chance}
_WRITES = {"act", "chance"}

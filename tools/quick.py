"""Answers a script asks for most, given before the command-line framework
is imported (Typer and its dependencies are most of a quick call's time).

Only the plain forms of these calls are answered here:

* ``tools status GAME_ID [--json] [--db PATH]`` (one query when an SQLite store
  keeps the game's status row);
* ``tools legal GAME_ID --seat N [--json] [--db PATH]`` (an SQLite store read
  directly where it can: service/replay.py ``fold_for_reading``);
* ``tools replay GAME_ID --to-turn N [--json] [--db PATH]`` (the table for a
  person is drawn with rich, as the command draws it);
* ``tools log GAME_ID [--seat N] [--json] [--db PATH]`` (``service/replay.py``
  ``game_log``);
* ``tools games [--json] [--db PATH]`` (``service/replay.py`` ``games_for_reading``);
* ``tools act GAME_ID --seat N DECISION [--expect-version V] [--json] [--db PATH]``
  and ``tools chance GAME_ID OUTCOME... [--expect-version V] [--json] [--db PATH]``,
  the two calls that record a game, step by step, outcome by outcome.

Each is answered by the very function its command calls (tools/answers.py),
so the answer is the command's. Anything else, and any error raised before an
answer is printed (an unknown game, a bad setting), goes to the command itself,
which says it. A refused step writes nothing, so the command, asked again,
refuses it as it would have; once a step is written, its answer is given here,
whatever happens.
"""

from __future__ import annotations

import gc

from tools import answers

TYPE_CHECKING = False  # typing is not imported at run time: a quick call's start-up does without it
if TYPE_CHECKING:
    from collections.abc import Callable


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


def _status(game_id: str, options: dict) -> bool:
    if set(options) - {"--db", "--json"}:
        return False
    answers.status(options.get("--db"), game_id, "--json" in options)
    return True


def _legal(game_id: str, options: dict) -> bool:
    if "--seat" not in options or set(options) - {"--db", "--seat", "--json"}:
        return False
    answers.legal(options.get("--db"), game_id, int(options["--seat"]), "--json" in options)
    return True


def _replay(game_id: str, options: dict) -> bool:
    if "--to-turn" not in options or set(options) - {"--db", "--to-turn", "--json"}:
        return False
    answers.replay(options.get("--db"), game_id, to_turn=int(options["--to-turn"]), json_out="--json" in options)
    return True


def _log(game_id: str, options: dict) -> bool:
    if set(options) - {"--db", "--seat", "--json"}:
        return False
    seat = int(options["--seat"]) if "--seat" in options else None
    answers.log(options.get("--db"), game_id, seat, json_out="--json" in options)
    return True


def _games(_: str, options: dict) -> bool:
    if set(options) - {"--db", "--json"}:
        return False
    answers.games(options.get("--db"), "--json" in options)
    return True


def _act(game_id: str, words: list[str], options: dict) -> bool:
    if len(words) != 1 or "--seat" not in options or set(options) - {"--db", "--seat", "--expect-version", "--json"}:
        return False
    answers.act(options.get("--db"), game_id, int(options["--seat"]), words[0], _expected(options),
                "--json" in options)
    return True


def _chance(game_id: str, words: list[str], options: dict) -> bool:
    if set(options) - {"--db", "--expect-version", "--json"}:
        return False
    answers.chance(options.get("--db"), game_id, words, _expected(options), "--json" in options)
    return True


def _expected(options: dict) -> int | None:
    v = options.get("--expect-version")
    return None if v is None else int(v)


# (game id, options) -> answered; the calls that write take the words too: (game id, words, options)
_ANSWERS: dict[str, Callable[..., bool]] = {"status": _status, "legal": _legal, "replay": _replay, "log": _log, "games": _games, "act": _act, "chance": _chance}
_WRITES = {"act", "chance"}

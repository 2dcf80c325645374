"""What the commands that read a game or record a step answer, made and printed
without the command-line framework: each Typer command (tools/play_cmds.py,
tools/history_cmds.py) is a thin wrapper over its function here, and the quick
path (tools/quick.py) calls the same functions before Typer is imported, so each
answer is written once.

Each raises the kernel's errors (``PrivateerError``) before printing anything;
``act`` and ``chance``, once their step is written, say any later error
themselves (asked again, the command would record the step a second time).
"""

from __future__ import annotations

import sys

from service.kernel.errors import BadInput, PrivateerError

TYPE_CHECKING = False  # typing is not imported at run time: a quick call's start-up does without it
if TYPE_CHECKING:
    from uuid import UUID

    from service.app import Privateer
    from service.kernel.events import Ev
    from service.referee_key import RefereeSign
from tools.plain import (out_json, parse_word, print_events, print_games, print_legal, print_status,
                         report_appended, typed_decision)


def status(db: str | None, game_id: str, json_out: bool = False, board: bool = False,
           seat: int | None = None) -> None:
    """``tools status``: one query when an SQLite store keeps the game's status row."""
    from event_store.reads import sqlite_status
    from event_store.store import resolve_db
    from service.snapshots import snapshot_interval

    snapshot_interval()  # a bad setting is reported however the answer is found
    st = sqlite_status(resolve_db(db), game_id)
    if st is None:
        from service.app import Privateer
        from service.views import status as status_view

        a = Privateer(db)
        gid = a.resolve_id(game_id)
        machine, version, head = a.fold(gid)
        st = status_view(gid, machine, version, head)
    if json_out:
        return out_json(st)
    print_status(st)
    if board:
        from service.replay import fold_for_reading
        from service.views import board as board_view
        from tools.boards import print_board

        gid, machine, version = fold_for_reading(db, game_id)
        if seat is not None:
            machine.check_seat(seat)
        print_board(board_view(gid, machine, version, seat), machine.config)


def legal(db: str | None, game_id: str, seat: int, json_out: bool = False) -> None:
    """``tools legal``: the decisions ``seat`` may submit now, numbered."""
    from service.replay import fold_for_reading

    _, machine, version = fold_for_reading(db, game_id)
    machine.check_seat(seat)
    decisions = machine.offered(seat)
    if json_out:
        return out_json(decisions)
    print_legal(seat, version, decisions, machine)


def replay(db: str | None, game_id: str, to_turn: int | None = None, to_event: int | None = None,
           seat: int | None = None, svg: str | None = None, json_out: bool = False) -> None:
    """``tools replay``: the table at the end of a turn or after an event."""
    from service.replay import replay_board

    b, machine = replay_board(db, game_id, to_turn, to_event, seat)
    picture = None
    if svg is not None:
        from service.render.svg import board_svg

        picture = board_svg(b, machine.config)
    if "warning" in b:
        _say(f"warning: {b['warning']}")
    if "note" in b and not json_out:
        _say(f"note: {b['note']}")
    if svg is not None and picture is not None:
        try:
            with open(svg, "w", encoding="utf-8") as f:
                f.write(picture)
        except OSError as e:
            raise BadInput(f"cannot write {svg}: {e.strerror}") from None
        _say(f"drew {svg}")
    if json_out:
        return out_json(b)
    from tools.boards import print_board

    print_board(b, machine.config)


def log(db: str | None, game_id: str, seat: int | None = None, turn: str | None = None,
        json_out: bool = False) -> None:
    """``tools log``: the events, readable; ``turn``: ``N`` or ``A-B``."""
    from service.replay import game_log

    entries = game_log(db, game_id, seat)
    if turn is not None:
        low, sep, high = turn.partition("-")
        if not low.strip().isdigit() or (sep and not high.strip().isdigit()):
            raise BadInput(f"--turn takes a turn (12) or a range (10-12), not {turn!r}")
        lo, hi = int(low), int(high) if sep else int(low)
        entries = [e for e in entries if lo <= e["turn"] <= hi]
    if json_out:
        return out_json(entries)
    print_events(entries)


def games(db: str | None, json_out: bool = False) -> None:
    """``tools games``: the games in the store."""
    from service.replay import games_for_reading

    rows = games_for_reading(db)
    if json_out:
        return out_json(rows)
    print_games(rows)


def act(db: str | None, game_id: str, seat: int, decision: str, expect_version: int | None = None,
        json_out: bool = False, seat_key: str | None = None, previous_key: str | None = None,
        referee_key: str | None = None) -> None:
    """``tools act``: ``decision`` typed out as JSON, or by its number in ``tools legal``;
    ``seat_key``: the seat's key file, which registers the seat's key and signs the decision;
    ``previous_key``: the key file the seat registered before, which hands it over to ``seat_key``;
    ``referee_key``: at a table, the referee's key file, which signs what it enters (``referee_signing``)."""
    a = _open(db)
    gid = a.resolve_id(game_id)
    d = typed_decision(a, gid, seat, decision, game_id)
    signature = None
    if seat_key is not None:
        from service.seat_client import sign_as_seat

        signature = sign_as_seat(a, gid, seat, d, seat_key, previous_key)
    events = a.act(gid, seat, d, expect_version, signature=signature, referee=referee_signing(a, gid, referee_key))
    _report(a, gid, events, seat, json_out)


def referee_signing(app: Privateer, game_id: UUID, key_path: str | None) -> RefereeSign | None:
    """``--referee-key FILE`` of every command through which a table's referee enters (``tools table``,
    ``act``, ``referee``, ``correct``): its signing (service/seat_client.py ``referee_signer``, which
    registers the key first in a game without one), or None without the option."""
    if key_path is None:
        return None
    from service.seat_client import referee_signer

    return referee_signer(app, game_id, key_path)


def chance(db: str | None, game_id: str, outcomes: list[str], expect_version: int | None = None,
           json_out: bool = False) -> None:
    """``tools chance``: the outcomes as the table shows them, all recorded or none."""
    words = [parse_word(w) for w in outcomes]
    a = _open(db)
    gid = a.resolve_id(game_id)
    events = a.enter_chances(gid, words, expect_version)
    _report(a, gid, events, None, json_out)


def _open(db: str | None) -> Privateer:
    from service.app import Privateer

    return Privateer(db)


def _report(a: Privateer, gid: UUID, events: list[Ev], seat: int | None, json_out: bool) -> None:
    """The written step's answer, whatever happens now: an error is said here, as the
    command says its errors (``tools.common.guarded``)."""
    try:
        report_appended(a, gid, events, seat, json_out)
    except PrivateerError as e:
        _say(f"error: {e.reason}")
        raise SystemExit(e.exit_code) from None


def _say(text: str) -> None:
    """One line on stderr (what ``typer.echo(..., err=True)`` writes)."""
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def step_outcomes(a: Privateer, gid: UUID, json_out: bool = False) -> None:
    """``tools correct --list``: the outcomes entered in the current step, numbered as ``--place`` counts them."""
    from service.views import entered_said

    entered = a.entered_outcomes(gid)
    said = entered_said(a.fold(gid)[0], entered)
    if json_out:
        return out_json([{"place": i, "outcome": v, "said": words, "why": why, "version": at}
                         for i, ((at, v, why, _), words) in enumerate(zip(entered, said), 1)])
    if not entered:
        print("the current step has no outcome entered")
    for i, words in enumerate(said, 1):
        print(f"{i:>3}  {words}")

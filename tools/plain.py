"""The commands' plain text, in and out, without the command-line framework:
a word as the referee types it, JSON for a script, the appended events as
lines for a person, and what the game waits for next. The commands
(tools/*_cmds.py, table_cmd.py) and the answers given before Typer is
imported (tools/quick.py) read and print through these, so both give the same bytes."""

from __future__ import annotations

import json
import sys

from service.json_text import loads
from service.kernel.text import shown

TYPE_CHECKING = False  # typing is not imported at run time: a quick call's start-up does without it
if TYPE_CHECKING:
    from typing import Any
    from uuid import UUID

    from service.app import Privateer
    from service.kernel.events import Ev
    from service.kernel.machine import Machine


def parse_word(text: str) -> Any:
    """A word as typed: JSON when it is JSON (4, [3, 5], "blue-4", {...}), else the bare text."""
    try:
        return loads(text, f"the outcome {text[:40]!r}")
    except json.JSONDecodeError:
        return text.strip()


def typed_decision(a: Privateer, gid: UUID, seat: int, text: str, game_id: str) -> Any:
    """``tools act``'s DECISION as typed: its number in ``tools legal`` (in the game as it
    stands now), or the decision as JSON. Raises the kernel's errors, as the command says them."""
    from service.kernel.errors import BadInput, IllegalDecision

    if text.strip().isdigit():
        machine = a.load(gid).machine
        machine.check_seat(seat)
        listed = machine.offered(seat)
        n = int(text)
        if not listed:
            raise IllegalDecision(f"seat {seat} has nothing to decide now")
        if not 1 <= n <= len(listed):
            raise BadInput(f"seat {seat} has {len(listed)} decision{'s' if len(listed) > 1 else ''} now: "
                           f"pick 1 to {len(listed)} (`tools legal {game_id} --seat {seat}`)")
        return listed[n - 1]
    try:
        return loads(text, "the decision")
    except json.JSONDecodeError as e:
        raise BadInput(f"the decision is not valid JSON ({e.msg} at column {e.colno}): {text[:200]!r}") from None


def echo(text: str = "") -> None:
    """One line on stdout (what ``typer.echo`` writes for plain text)."""
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def out_json(obj: Any) -> None:
    echo(json.dumps(obj, indent=2, default=_json_default))


def _json_default(o: object) -> str:
    if isinstance(o, bytes):
        return o.hex()
    return str(o)


def print_events(entries: list[dict]) -> None:
    """One event per line: number, turn and what happened, wrapped between words
    to the terminal's width (80 columns when not a terminal); what a terminal would act
    on (ESC, BEL, a bidirectional override: an old game's names and notes) escaped."""
    import shutil
    import textwrap

    width = max(60, shutil.get_terminal_size((80, 24)).columns)
    for e in entries:
        head = f"  v{e['version']:<5} t{e['turn']:<4} "
        echo(textwrap.fill(shown(e["text"]), width=width, initial_indent=head,
                           subsequent_indent=" " * len(head), break_long_words=False,
                           break_on_hyphens=False))


def print_status(st: dict) -> None:
    """``tools status`` for a person: the game, its version and turn, who acts or what
    chance is awaited, the scores once finished."""
    echo(f"game {st['game_id']} ({st['game']}, {st['seats']} seats{', table mode' if st['table'] else ''})")
    echo(f"version {st['version']}, turn {st['turn']}, {'finished' if st['finished'] else 'in play'}")
    names = {s: shown(n) for s, n in (st.get("players") or {}).items()}
    if names:
        echo("players: " + ", ".join(f"seat {s} {n}" for s, n in sorted(names.items(), key=lambda x: int(x[0]))))
    opts = st.get("options") or {}
    if opts:
        echo("options: " + ", ".join(f"{k}={json.dumps(v) if not isinstance(v, str) else v}"
                                     for k, v in sorted(opts.items())))
    if st["to_act"]:
        who = [f"{s} ({names[str(s)]})" if str(s) in names else str(s) for s in st["to_act"]]
        echo(f"to act: seat{'s' if len(who) > 1 else ''} {', '.join(who)}")
    if st["awaiting_chance"]:
        echo(f"awaiting chance from the referee: {chance_said(st['awaiting_chance'])}")
    if st["finished"]:
        echo(f"scores: {json.dumps(st['scores'])}; winners: {st['winners']}")
        tb = st.get("tiebreak")
        if tb:
            from service.kernel.rules import by_seat

            echo(f"tie-break: seats {', '.join(map(str, tb['tied']))} tied on points; {tb['rule']}: "
                 f"{by_seat(tb['cannon_cards'])}"
                 + (" — still tied, the victory is shared" if tb.get("shared") else ""))


def print_legal(seat: int, version: int, decisions: list[dict[str, Any]], machine: Machine) -> None:
    """``tools legal`` for a person: the decisions in words (the game's ``say_decision``),
    numbered as ``tools act`` takes them."""
    if not decisions:
        echo(f"seat {seat} has nothing to decide now")
        return
    echo(f"seat {seat} may decide (version {version}; `tools act ID --seat {seat} N` submits number N):")
    for line in numbered(machine, decisions):
        echo(f"  {line}")


def numbered(machine: Machine, decisions: list[dict[str, Any]], prefix: str = "") -> list[str]:
    """The decisions in words, numbered from 1 (``prefix`` before each number: ``@2 ``)."""
    width = len(str(len(decisions)))
    return [f"{prefix}{i:>{width}}. {text}" for i, text in enumerate(machine.said_choices(decisions), 1)]


def chance_said(awaiting: dict) -> str:
    """An awaited chance in words: ``2d6 (why)``, ``a card from merchants (why)``."""
    kind = awaiting.get("kind")
    if kind == "dice":
        what = f"{awaiting.get('n', 1)}d{awaiting.get('sides', '?')}"
    elif kind == "card":
        what = f"a card from {awaiting.get('deck', 'the deck')}"
    elif kind == "pick":
        options = awaiting.get("options")
        what = f"one of {', '.join(map(str, options))}" if options else "a pick among the options"
    elif kind == "shuffle":
        what = f"the order of {awaiting.get('deck', 'the deck')}"
    else:
        what = str(kind)
    why = awaiting.get("why")
    return f"{what} ({why})" if why else what


def print_games(rows: list[dict]) -> None:
    """``tools games`` for a person: one line per game (id prefix, game, seats, name and
    players, turn, state), drawn with rich."""
    from rich.console import Console
    from rich.table import Table

    t = Table("id", "game", "seats", "name / players", "turn", "state", box=None, pad_edge=False)
    t.columns[0].no_wrap = t.columns[1].no_wrap = True
    for r in rows:
        state = "in play"
        if r["finished"]:
            state = shown("won: " + ", ".join(r["players"].get(str(w), f"seat {w}") for w in r.get("winners") or []))
        who = r["name"] or ""
        if r["players"]:
            who += (" — " if who else "") + ", ".join(r["players"][k] for k in sorted(r["players"], key=int))
        if r["tournament"]:
            who += f" [{r['tournament']}]"
        who = shown(who)
        if r.get("parent"):
            who += f" (fork of {r['parent'][:8]})"
        seats = str(r["seats"]) + (" table" if r["table_mode"] else "")
        t.add_row(r["game_id"][:12], r["game"], seats, who or "-", str(r["turn"]), state)
    console = Console(markup=False, emoji=False)  # a name is shown as typed: "[/]" is no markup
    console.print(t)
    console.print(f"{len(rows)} game{'s' if len(rows) != 1 else ''}; an id prefix of 6+ characters names a game")


def report_appended(a: Privateer, gid: UUID, events: list[Ev], seat: int | None, json_out: bool) -> None:
    """The events a command just appended (``events``), as the referee's command
    line shows them (store versions; with ``seat``, only what that seat may see),
    then what the game waits for."""
    from service.views import card_namer, log_entries

    new = a.last_stored(gid, len(events))
    game = a.load(gid)
    machine = game.machine
    entries = log_entries(machine.rules, new, None, players=machine.config.get("players"),
                          names=card_namer(machine))
    if seat is not None:
        from service.views import REFEREE_ONLY_FIELDS

        visible = {e.originator_version for e in new if e.visible_to == "all"
                   or (isinstance(e.visible_to, list) and seat in e.visible_to)}
        entries = [dict(x, data={k: v for k, v in x["data"].items() if k not in REFEREE_ONLY_FIELDS})
                   for x in entries if x["version"] in visible]
    version = new[-1].originator_version
    waiting = waiting_for(machine)
    if json_out:
        answer = {"version": version, "events": entries, "next": waiting}
        if seat is not None:  # the deciding seat's receipt for the head after its step
            answer["receipt"] = a.receipt(game if game.version == version else a.load(gid, version=version), seat)
        return out_json(answer)
    echo(f"ok: version {version}")
    print_events(entries)
    echo(f"next: {waiting['text']}")


def waiting_for(machine: Machine) -> dict[str, Any]:
    """What the game waits for now, for a person and for a script."""
    awaiting = machine.awaiting_chance()
    if machine.finished:
        return {"finished": True, "to_act": [], "awaiting_chance": None, "text": "the game is finished"}
    if awaiting is not None:
        text = f"the referee enters {chance_said(awaiting)} with `tools chance`"
    else:
        seats = machine.to_act()
        text = f"seat{'s' if len(seats) > 1 else ''} {', '.join(map(str, seats))} to decide (`tools legal`)"
    return {"finished": False, "to_act": machine.to_act(), "awaiting_chance": awaiting, "text": text}

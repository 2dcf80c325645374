"""`tools table ID`: the referee's session at a real table, in one warm process.

It shows whose turn it is and what chance is awaited, numbers the decisions
open to the seat that acts, and takes, one line at a time:

* a number: that decision (``@2 3``: seat 2's third, when several seats act);
* a JSON object: a decision typed out;
* when chance is awaited: what the table shows, as for `tools chance`
  (``4 6``, ``skull``, ``blue-4``; several outcomes in a row on one line);
* ``undo`` (retract the last step, on the record), ``correct V REASON``,
  ``referee {...}``, ``log [N]``, ``status``, ``board [SEAT]`` (the table, as the
  referee or SEAT sees it), ``help``, ``quit``.

With a terminal it has line editing, history and tab completion (readline);
with a script on standard input it reads the lines in order and stops at the end.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from tools.common import DbOpt, GameId, app, guarded, open_app
from tools.plain import parse_word, print_events, waiting_for

HELP = __doc__.split("takes, one line at a time:")[1].split("With a terminal")[0].strip()
COMMANDS = ["undo", "correct", "referee", "log", "status", "board", "help", "quit"]


class Session:
    def __init__(self, app_, gid, out=print):
        self.app = app_
        self.gid = gid
        self.out = out
        self.lines = 0

    # what is shown --------------------------------------------------------------
    def machine(self):
        return self.app.load(self.gid).machine

    def prompt(self) -> str:
        m = self.machine()
        w = waiting_for(m)
        if m.finished:
            return "finished> "
        if w["awaiting_chance"] is not None:
            return "chance> "
        return f"seat {w['to_act'][0]}> " if w["to_act"] else "> "

    def show(self) -> None:
        m = self.machine()
        w = waiting_for(m)
        text = w["text"].replace(" with `tools chance`", "").replace(" (`tools legal`)", "")
        self.out(f"turn {m.turn()}: {text}")
        a = w["awaiting_chance"]
        if a is not None and a["kind"] == "card":
            choices = a["choices"]
            names = a.get("names") or {}
            if names:  # as printed, counted: "rum x5, sugar x4"
                from collections import Counter

                counts = Counter(names.get(c, str(c)) for c in choices)
                shown = [f"{n} x{k}" if k > 1 else n for n, k in sorted(counts.items())]
            else:
                shown = [str(c) for c in choices]
            self.out(f"  {len(choices)} possible: {', '.join(shown[:12])}" + (" ..." if len(shown) > 12 else ""))
        elif a is None and w["to_act"]:
            for seat in w["to_act"]:
                for i, d in enumerate(m.legal(seat), 1):
                    self.out(f"  {'@' + str(seat) + ' ' if len(w['to_act']) > 1 else ''}{i:>2}  {json.dumps(d)}")

    # what is taken --------------------------------------------------------------
    def handle(self, line: str) -> bool:
        """One line; False to stop."""
        from service.kernel.errors import PrivateerError

        line = line.strip()
        if not line or line.startswith("#"):
            return True
        self.lines += 1
        word = line.split()[0].lower()
        try:
            if word in ("quit", "exit", "q"):
                return False
            if word == "help":
                self.out(HELP)
                return True
            if word == "status":
                self.show()
                return True
            if word == "log":
                self._log(line)
                return True
            if word == "board":  # "board" (the referee's table) or "board 2" (as seat 2 sees it)
                self._board(line)
                return True
            if word == "undo":
                self._undo()
            elif word == "correct":
                parts = line.split(maxsplit=2)
                if len(parts) < 3 or not parts[1].isdigit():
                    self.out("error: correct VERSION REASON")
                    return True
                self._report(self.app.correct(self.gid, int(parts[1]), parts[2]))
            elif word == "referee":
                self._report(self.app.referee(self.gid, json.loads(line.split(maxsplit=1)[1])))
            else:
                self._play(line)
        except PrivateerError as e:
            self.out(f"error: {e.reason}")
        except (json.JSONDecodeError, IndexError, ValueError) as e:
            self.out(f"error: cannot read {line!r} ({e})")
        return True

    def _board(self, line: str) -> None:
        import io

        from rich.console import Console

        from service.render import board_text
        from service.views import board

        parts = line.split()
        seat = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None
        game = self.app.load(self.gid)
        if seat is not None:
            game.machine.check_seat(seat)
        console = Console(width=80, file=io.StringIO(), color_system=None)
        console.print(board_text(board(self.gid, game.machine, game.version, seat), game.machine.config))
        self.out(console.file.getvalue().rstrip("\n"))

    def _play(self, line: str) -> None:
        """A line is a run of moves, each taken as the game then asks: numbers
        while a seat decides, outcomes while chance is awaited (``2 1 4 6 3``:
        decisions 2 and 1, dice 4 and 6, decision 3). A JSON decision stands alone."""
        if line.startswith("{"):
            self._decide(line)
            return
        tokens = line.split()
        while tokens:
            a = self.machine().awaiting_chance()
            if a is None:
                token = tokens.pop(0)
                if token.startswith("@") and tokens:  # "@2 3": seat 2's third decision
                    token = f"{token} {tokens.pop(0)}"
                self._decide(token)
                continue
            take = a["n"] if a["kind"] == "dice" else 1  # n dice take n words
            if len(tokens) < take:
                self.out(f"error: {take} dice are awaited: give {take} faces")
                return
            group, tokens = tokens[:take], tokens[take:]
            self._report(self.app.enter_chances(self.gid, [parse_word(w) for w in group]))

    def _decide(self, line: str) -> None:
        m = self.machine()
        if m.awaiting_chance() is not None:
            self.out("error: a chance outcome is awaited first")
            return
        seat, text = None, line
        if line.startswith("@"):
            head, _, text = line.partition(" ")
            seat = int(head[1:])
        acting = m.to_act()
        if seat is None:
            if not acting:
                self.out("error: nobody is to decide now")
                return
            seat = acting[0]
        text = text.strip()
        if text.isdigit():
            legal = m.legal(seat)
            k = int(text)
            if not 1 <= k <= len(legal):
                self.out(f"error: give a number from 1 to {len(legal)} (seat {seat}'s decisions)")
                return
            decision = legal[k - 1]
        else:
            decision = json.loads(text)
        self._report(self.app.act(self.gid, seat, decision))

    def _undo(self) -> None:
        from service.kernel.corrections import undo_point

        to_version = undo_point(self.app.stored_events(self.gid))
        if to_version is None:  # only the setup so far: a correction never reaches into it
            self.out("error: nothing to undo: the setup (its deal, as entered) is never corrected; "
                     "if it was entered wrongly, create the game again with `tools new`. From the "
                     "first decision on, `undo` retracts the last step")
            return
        self._report(self.app.correct(self.gid, to_version, "undone at the table"))

    def _log(self, line: str) -> None:
        parts = line.split()
        n = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 10
        print_events(self._entries(self.app.stored_events(self.gid))[-n:])

    def _report(self, events) -> None:
        new = self.app.last_stored(self.gid, len(events)) if events else []
        for e in self._entries(new):
            if e["type"] not in ("ChanceAwaited",):
                self.out(f"  v{e['version']:<5} {e['text']}")

    def _entries(self, stored) -> list[dict]:
        """``stored`` as the referee reads them: store versions, players' names, cards as printed."""
        from service.views import card_namer, log_entries

        m = self.machine()
        return log_entries(m.rules, stored, None, players=m.config.get("players"), names=card_namer(m))

    def run(self, stream) -> None:
        interactive = stream.isatty()
        if interactive:
            _readline(self)
        self.show()
        while True:
            try:
                line = input(self.prompt()) if interactive else stream.readline()
            except EOFError:
                break
            if not interactive and line == "":
                break
            if not self.handle(line):
                break
            self.show()


def _readline(session: Session) -> None:
    try:
        import readline
    except ImportError:  # not on every platform: the session works without it
        return

    def complete(text, state):
        options = [c for c in COMMANDS if c.startswith(text)]
        a = session.machine().awaiting_chance()
        if a is not None and a["kind"] == "card":
            words = {str(c) for c in a["choices"]} | set((a.get("names") or {}).values())
            options += sorted(w for w in words if w.startswith(text))
        return options[state] if state < len(options) else None

    readline.set_completer(complete)
    readline.parse_and_bind("tab: complete")


@app.command()
@guarded
def table(game_id: GameId, db: DbOpt = None,
          quiet: Annotated[bool, typer.Option("--quiet", help="Print only errors and the final state.")] = False):
    """The referee's session at a table: numbered decisions, outcomes as spoken, undo; one warm process.

    Example: `tools table 3f2a9c`, then `3` (the third decision listed), `4 6` (two dice), `undo`, `quit`.
    A script can drive it: `tools table 3f2a9c < moves.txt`.
    """
    a = open_app(db)
    gid = a.resolve_id(game_id)
    out = (lambda text: print(text) if text.startswith("error") else None) if quiet else print
    session = Session(a, gid, out)
    session.run(sys.stdin)
    if quiet:
        print(waiting_for(session.machine())["text"])

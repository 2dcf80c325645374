"""`tools table ID`: the referee's session at a real table, in one warm process.

It shows whose turn it is and what chance is awaited, numbers the decisions
open to the seat that acts, and takes, one line at a time:

* a number: that decision (``@2 3``: seat 2's third, when several seats act);
* a JSON object: a decision typed out;
* when chance is awaited: what the table shows, as for `tools chance`
  (``4 6``, ``skull``, ``blue-4``; several outcomes in a row on one line; a name
  of several words in double quotes: ``"Long Guns" "Dutch Naval Ship Almonde"``);
* ``undo`` (retract the last step, on the record), ``back K REASON`` (retract
  the last K outcomes entered in the step, the deal's included: it awaits them
  again), ``fix P OUTCOME`` (the step's P-th outcome was wrong: OUTCOME in its
  place, those after it entered again), ``outcomes`` (the step's, numbered),
  ``correct V REASON``, ``referee {...}``, ``log [N]``, ``status``, ``board [SEAT]`` (the table, as the
  referee or SEAT sees it), ``help``, ``quit``.

With a terminal it has line editing, history and tab completion (readline);
with a script on standard input it reads the lines in order and stops at the end,
or at the first line refused (the command then exits non-zero, nothing of that
line recorded). What is typed is read against what was last shown: when the game
moved on since (another terminal recorded a step), the line is refused, nothing
is recorded, and what the game waits for now is shown.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from uuid import UUID

    from service.app import Privateer
    from service.kernel.events import Ev
    from service.kernel.machine import Machine
    from service.referee_key import RefereeSign
from typing import Annotated

import typer

from service.json_text import loads
from service.kernel.chance import typed_names
from service.kernel.corrections import undo_point
from service.kernel.errors import BadInput, IllegalDecision, NotYourTurn, PrivateerError, StaleVersion
from tools.common import DbOpt, GameId, RefereeKeyOpt, app, guarded, open_app
from tools.plain import numbered, parse_word, print_events, waiting_for
from tools.answers import referee_signing

WORDS = re.compile(r'"[^"]*"|\S+')  # a line's words: one in double quotes may hold spaces
HELP = __doc__.split("takes, one line at a time:")[1].split("With a terminal")[0].strip()
COMMANDS = ["undo", "back", "fix", "outcomes", "correct", "referee", "log", "status", "board", "help", "quit"]


class Session:
    def __init__(self, app_: Privateer, gid: UUID, out: Callable[[str], object] = print,
                 referee: RefereeSign | None = None, json_out: bool = False):
        self.app = app_
        self.gid = gid
        self.out = out
        self.referee = referee  # the referee's signing of each entry (``--referee-key``: service/referee_key.py)
        self.json_out = json_out  # a decision's receipt as JSON, not its plain line
        self.lines = 0
        self.shown: int | None = None  # the version the game was at when what it waits for was last shown
        self.refused: tuple[int, int] | None = None  # the first refusal: (line number, its exit code)
        self.lineno = 0  # the line being read (a script's)

    # what is shown --------------------------------------------------------------
    def machine(self) -> Machine:
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
        game = self.app.load(self.gid)
        self.shown = game.version
        m = game.machine
        w = waiting_for(m)
        text = w["text"].replace(" with `tools chance`", "").replace(" (`tools legal`)", "")
        self.out(f"turn {m.turn()}: {text}")
        a = w["awaiting_chance"]
        if a is not None and a["kind"] == "card":
            choices = a["choices"]  # as they may be typed, counted: "rum x5, sugar x4", "blue-2 x3";
            shown = typed_names(a, choices)[1]  # copies that differ each with its mark
            self.out(f"  {len(choices)} possible: {', '.join(shown[:40])}" + (" ..." if len(shown) > 40 else ""))
        elif a is None and w["to_act"]:
            for seat in w["to_act"]:
                for line in numbered(m, m.offered(seat), f"@{seat} " if len(w["to_act"]) > 1 else ""):
                    self.out(f"  {line}")

    # what is taken --------------------------------------------------------------
    def handle(self, line: str) -> bool:
        """One line; False to stop."""
        line = line.strip()
        if not line or line.startswith("#"):
            return True
        self.lines += 1
        word = line.split()[0].lower()
        try:
            if word not in ("quit", "exit", "q", "help", "status", "log", "board"):
                self._fresh()
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
            if word == "outcomes":
                from service.views import entered_said

                said = entered_said(self.app.fold(self.gid)[0], self.app.entered_outcomes(self.gid))
                for i, words in enumerate(said, 1):
                    self.out(f"{i:>3}  {words}")
                return True
            if word == "undo":
                self._undo()
            elif word == "back":
                parts = line.split(maxsplit=2)
                if len(parts) < 3 or not parts[1].isdigit():
                    raise BadInput("back K REASON: retract the last K outcomes entered in the step")
                self._report(self.app.retract_outcomes(self.gid, int(parts[1]), parts[2], self.shown,
                                                       referee=self.referee))
            elif word == "fix":
                parts = line.split()
                if len(parts) < 3 or not parts[1].isdigit():
                    raise BadInput("fix P OUTCOME: the step's P-th outcome (`outcomes` numbers them) was wrong")
                self._report(self.app.replace_outcome(self.gid, int(parts[1]), [parse_word(w) for w in parts[2:]],
                                                      f"outcome {parts[1]} of the step corrected at the table",
                                                      self.shown, referee=self.referee))
            elif word == "correct":
                parts = line.split(maxsplit=2)
                if len(parts) < 3 or not parts[1].isdigit():
                    raise BadInput("correct VERSION REASON")
                self._report(self.app.correct(self.gid, int(parts[1]), parts[2], self.shown, referee=self.referee))
            elif word == "referee":
                self._report(self.app.referee(self.gid, loads(line.split(maxsplit=1)[1], "the referee decision"),
                                              self.shown, referee=self.referee))
            else:
                self._play(line)
        except PrivateerError as e:
            self._refuse(e.reason, e.exit_code)
        except (json.JSONDecodeError, IndexError, ValueError) as e:
            self._refuse(f"cannot read {line!r} ({e})", 2)
        return True

    def _refuse(self, reason: str, code: int) -> None:
        self.out(f"error: {reason}")
        if self.refused is None:
            self.refused = (self.lineno or self.lines, code)

    def _fresh(self) -> None:
        """What is typed is read against what was shown: not if the game moved on since."""
        now = self.app.load(self.gid).version
        if self.shown is not None and now != self.shown:
            raise StaleVersion(f"the game moved on since the list was shown (version {self.shown}, now {now}: "
                               "recorded elsewhere); nothing was recorded: read what it waits for now")

    def _board(self, line: str) -> None:
        from service.render.common import board_text
        from service.render.table import to_text
        from service.views import board

        parts = line.split()
        seat = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None
        game = self.app.load(self.gid)
        if seat is not None:
            game.machine.check_seat(seat)
        self.out(to_text(board_text(board(self.gid, game.machine, game.version, seat), game.machine.config))
                 .rstrip("\n"))

    def _play(self, line: str) -> None:
        """A line is a run of moves, each taken as the game then asks: numbers
        while a seat decides, outcomes while chance is awaited (``2 1 4 6 3``:
        decisions 2 and 1, dice 4 and 6, decision 3). A JSON decision stands alone."""
        if line.startswith("{"):
            self._decide(line)
            return
        tokens = WORDS.findall(line)
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
                raise BadInput(f"{take} dice are awaited: give {take} faces")
            group, tokens = tokens[:take], tokens[take:]
            try:
                self._report(self.app.enter_chances(self.gid, [parse_word(w) for w in group], self.shown))
            except BadInput as e:
                if a["kind"] == "card" and tokens and not group[0].startswith('"'):
                    raise BadInput(f'{e}; a name of several words goes in double quotes: "{group[0]} {tokens[0]}"') from e
                raise

    def _decide(self, line: str) -> None:
        m = self.machine()
        if m.awaiting_chance() is not None:
            raise NotYourTurn("a chance outcome is awaited first")
        seat, text = None, line
        if line.startswith("@"):
            head, _, text = line.partition(" ")
            seat = int(head[1:])
        acting = m.to_act()
        if seat is None:
            if not acting:
                raise IllegalDecision("nobody is to decide now")
            seat = acting[0]
        text = text.strip()
        if text.isdigit():
            legal = m.offered(seat)
            k = int(text)
            if not 1 <= k <= len(legal):
                raise BadInput(f"give a number from 1 to {len(legal)} (seat {seat}'s decisions), not {k}")
            decision = legal[k - 1]
        else:
            decision = loads(text, "the decision")
        said = m.said_choices([decision])[0] if isinstance(decision, dict) else str(decision)
        self._report(self.app.act(self.gid, seat, decision, self.shown, referee=self.referee))
        game = self.app.load(self.gid)
        if self.json_out:
            receipt = self.app.receipt(game, seat)  # the seat's, for `tools verify --receipt`
            self.out("  receipt " + json.dumps(receipt, separators=(",", ":")))
        else:
            name = (m.config.get("players") or {}).get(str(seat))
            self.out(f"  recorded: seat {seat}{f' ({name})' if name else ''} decided {said}; "
                     f"the game is at version {game.version}")

    def _undo(self) -> None:
        to_version = undo_point(self.app.stored_events(self.gid))
        if to_version is None:  # only the setup so far: a correction never retracts it whole
            raise BadInput("nothing to undo: the setup is never retracted whole; `back K REASON` takes back "
                           "its last K outcomes (the deal's cards), `fix P OUTCOME` one of them. From the "
                           "first decision on, `undo` retracts the last step")
        self._report(self.app.correct(self.gid, to_version, "undone at the table", self.shown, referee=self.referee))

    def _log(self, line: str) -> None:
        parts = line.split()
        n = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 10
        print_events(self._entries(self.app.stored_events(self.gid))[-n:])

    def _report(self, events: list[Ev]) -> None:
        """The session's own step, recorded on the version shown: what it shows is its own."""
        if self.shown is not None:
            self.shown += len(events)
        new = self.app.last_stored(self.gid, len(events)) if events else []
        for e in self._entries(new):
            if e["type"] not in ("ChanceAwaited",):
                self.out(f"  v{e['version']:<5} {e['text']}")

    def _entries(self, stored: list[Any]) -> list[dict[str, Any]]:
        """``stored`` as the referee reads them: store versions, players' names, cards as printed."""
        from service.views import card_namer, log_entries

        m = self.machine()
        return log_entries(m.rules, stored, None, players=m.config.get("players"), names=card_namer(m))

    def run(self, stream: IO[str]) -> None:
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
            self.lineno += 1
            if not self.handle(line):
                break
            self.show()
            if not interactive and self.refused is not None:
                self.out(f"error: stopped at line {self.refused[0]}, the first one refused: "
                         "the lines after it were not read")
                break


def _readline(session: Session) -> None:
    try:
        import readline
    except ImportError:  # not on every platform: the session works without it
        return

    def complete(text: str, state: int) -> str | None:
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
          quiet: Annotated[bool, typer.Option("--quiet", help="Print only errors and the final state.")] = False,
          referee_key: RefereeKeyOpt = None,
          json_out: Annotated[bool, typer.Option("--json", help="After each decision, the seat's signed receipt as JSON (for `tools verify --receipt`), not its plain line.")] = False) -> None:
    """The referee's session at a table: numbered decisions, outcomes as spoken, undo; one warm process.

    Example: `tools table 3f2a9c`, then `3` (the third decision listed), `4 6` (two dice), `undo`, `quit`.
    A script can drive it: `tools table 3f2a9c < moves.txt`.
    """
    a = open_app(db)
    gid = a.resolve_id(game_id)
    out = (lambda text: print(text) if text.startswith("error") else None) if quiet else print
    session = Session(a, gid, out, referee_signing(a, gid, referee_key), json_out)
    session.run(sys.stdin)
    if quiet:
        print(waiting_for(session.machine())["text"])
    if session.refused is not None and not sys.stdin.isatty():
        raise typer.Exit(session.refused[1])

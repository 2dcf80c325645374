"""`tools table`: the book's Kaiser's Pirates example of play (3.2.9, with its
deal and prelude) recorded through the referee's session from a script on
standard input, and the same history through single commands: both give the
game the in-process example gives, and the commands are counted."""

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "kaisers_pirates"))

from service.kernel.copies import as_read  # noqa: E402
from service.kernel.local import LocalGame  # noqa: E402
from service.kernel.machine import CHANCE_TYPES, CHANCE_VALUE_FIELD  # noqa: E402


def example_game():
    import test_example_329 as ex

    t = ex.t._get_wrapped_function()()
    ex.test_turn_3_shallow_run_mines_deception_intelligence(t)
    return t.g


def word(v):
    return v if isinstance(v, str) and " " not in v else json.dumps(v, separators=(",", ":"))


def scripts(events, seats):
    """The same history as session lines (one per turn: its decisions by
    number and its outcomes as spoken, in order) and as single commands."""
    g = LocalGame("kaisers-pirates", seats, table=True)
    turns, commands, outcomes = {}, [], []
    pending = []

    def flush():
        if pending:
            commands.append(["chance", *pending])
            pending.clear()

    for e in events[1:]:
        if e.type in CHANCE_TYPES and not e.data.get("face_down"):
            value = e.data[CHANCE_VALUE_FIELD[e.type]]
            values = value if e.type == "DiceRolled" else [value]
            pending.extend(word(v) for v in values)
            turns.setdefault(e.turn, []).extend(word(v) for v in values)
            outcomes.append(value)
            g.enter(value)
        elif e.type == "Decided" and e.data["seat"] != 0:
            flush()
            seat, d = e.data["seat"], e.data["decision"]
            k = g.machine.offered(seat).index(as_read(d, g.machine.alike())) + 1  # as the session numbers them
            turns.setdefault(e.turn, []).append(str(k) if g.to_act()[0] == seat else f"@{seat} {k}")
            commands.append(["act", "--seat", str(seat), json.dumps(d)])
            g.act(seat, d)
    flush()
    lines = [" ".join(tokens) for _, tokens in sorted(turns.items())]
    return lines, commands, len(outcomes)


def facts(events):
    skip = {"ChanceAwaited", "GameCreated"}
    return [(e.type, e.turn, e.visible_to, e.data) for e in events if e.type not in skip]


def test_the_example_of_play_through_the_session_and_through_single_commands(cli, tmp_path, capsys):
    want = example_game()
    lines, commands, outcomes = scripts(want.events, 3)
    decisions = sum(1 for c in commands if c[0] == "act")
    # the session: one line per decision, one line per run of outcomes
    gid = cli.ok("new", "kaisers-pirates", "--seats", "3", "--table").strip()
    p = subprocess.run([sys.executable, "-m", "tools", "table", gid, "--quiet"], input="\n".join(lines) + "\n",
                       capture_output=True, text=True, env=cli.env, timeout=600)
    assert p.returncode == 0 and "error" not in p.stdout, p.stdout[-2000:] + p.stderr[-2000:]
    from uuid import UUID

    from service.app import Privateer

    app = Privateer(cli.db)
    got = app.stored_events(UUID(gid))
    assert facts(got) == [(e.type, e.turn, e.vis, e.frozen()) for e in want.events[1:]
                          if e.type not in ("ChanceAwaited", "GameCreated")]
    report = cli.json("audit", gid)
    assert (report[0] if isinstance(report, list) else report)["ok"]
    # single commands: `tools act` per decision, one `tools chance` per run of outcomes
    gid2 = cli.ok("new", "kaisers-pirates", "--seats", "3", "--table").strip()
    from typer.testing import CliRunner

    from tools.cli import app as tools_app

    runner = CliRunner()
    for c in commands:  # the same commands, in this process (75 process starts would be slow)
        r = runner.invoke(tools_app, [c[0], gid2, *c[1:], "--db", cli.db])
        assert r.exit_code == 0, (c, r.output)
    assert facts(app.stored_events(UUID(gid2)))[1:] == facts(got)[1:]
    moves = sum(len(x.split()) for x in lines)
    with capsys.disabled():
        print(f"\n3.2.9 with deal and prelude: session {len(lines)} lines ({moves} moves, "
              f"{sum(map(len, lines)) + len(lines)} keystrokes); single commands {len(commands)}; "
              f"one command per outcome (before) {decisions + outcomes}")
    assert len(lines) < len(commands) < decisions + outcomes


def test_undo_retracts_the_last_step_on_the_record_and_says_why_the_setup_is_not_undone(cli):
    gid = cli.ok("new", "letter-of-marque", "--seats", "2", "--table").strip()
    # a script stops at its first refused line: the setup is never undone (exit 2, nothing read after it)
    p = subprocess.run([sys.executable, "-m", "tools", "table", gid], input="undo\n4 3\n",
                       capture_output=True, text=True, env=cli.env, timeout=120)
    assert p.returncode == 2, p.stdout[-2000:] + p.stderr[-2000:]
    first, rest = p.stdout.split("error: ", 1)[1].split("\n", 1)
    assert "the setup is never retracted whole" in first and "back K REASON" in first
    assert "stopped at line 1" in rest
    script = ["4 3", "1", "undo", "2", "quit"]  # seat 1 arms its ship, is undone, then sails unarmed
    p = subprocess.run([sys.executable, "-m", "tools", "table", gid], input="\n".join(script) + "\n",
                       capture_output=True, text=True, env=cli.env, timeout=120)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    assert "error" not in p.stdout
    from uuid import UUID

    from service.app import Privateer
    from service.kernel.corrections import retracted_versions

    stored = Privateer(cli.db).stored_events(UUID(gid))
    retracted = retracted_versions(stored)
    decided = [(e.data["decision"], e.originator_version in retracted)
               for e in stored if e.type == "Decided" and e.data["seat"] == 1]
    assert decided == [({"action": "place", "armed": True}, True), ({"action": "place", "armed": False}, False)]
    assert [e.data["card"] for e in stored if e.type == "CardDrawn"] == [4, 3]  # the deal stands
    undone = next(e for e in stored if e.type == "Corrected")
    back = undone.data["to_version"]
    texts = [e["text"] for e in cli.json("log", gid)]
    assert f"the referee corrects the record: back to version {back} (undone at the table)" in texts
    report = cli.json("audit", gid)
    assert (report[0] if isinstance(report, list) else report)["ok"]

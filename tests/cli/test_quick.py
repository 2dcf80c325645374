"""The plain forms of ``tools status --json``, ``tools legal --json``, ``tools
replay --to-turn N [--json]`` and of the two calls that record a game, ``tools
act`` and ``tools chance``, are answered before Typer is imported
(tools/quick.py): their output, errors and exit codes are the commands' own,
byte for byte, and a step is never recorded twice."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys

import pytest

from service.app import Privateer

from ..store.helpers import play

# a quick answer ends the process at once (tools/cli.py ``_answered_end``): the marker is
# written just before that end, as after a command that returns
PROBE = ("import sys, runpy\n"
         "import tools.cli\n"
         "_end = tools.cli._answered_end\n"
         "def _marked():\n"
         "    sys.stderr.write('\\nTYPER ' + str('typer' in sys.modules))\n"
         "    _end()\n"
         "tools.cli._answered_end = _marked\n"
         "sys.argv = ['tools'] + sys.argv[1:]\n"
         "try:\n"
         "    runpy.run_module('tools', run_name='__main__')\n"
         "finally:\n"
         "    sys.stderr.write('\\nTYPER ' + str('typer' in sys.modules))\n")


def _run(*argv):
    p = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True)
    err, _, typer = p.stderr.rpartition("\nTYPER ")
    return p.returncode, p.stdout, err, typer == "True"


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("quick") / "q.db")
    [gid] = play(Privateer(db), game="loot", seats=3, seed="quick")
    return db, gid.hex


@pytest.mark.parametrize("argv", [
    ["status", "{gid}", "--json", "--db", "{db}"],
    ["status", "{short}", "--db", "{db}", "--json"],
    ["status", "{gid}", "--db", "{db}"],                                  # for a person
    ["legal", "{gid}", "--seat", "1", "--json", "--db", "{db}"],
    ["legal", "{short}", "--db", "{db}", "--seat", "2"],                  # for a person
    ["log", "{gid}", "--db", "{db}"],                                     # the referee's log
    ["log", "{short}", "--seat", "2", "--json", "--db", "{db}"],          # what seat 2 may read
    ["games", "--db", "{db}"],
    ["games", "--json", "--db", "{db}"],
    ["replay", "{gid}", "--to-turn", "3", "--json", "--db", "{db}"],
    ["replay", "{short}", "--json", "--db", "{db}", "--to-turn", "0"],
    ["replay", "{gid}", "--to-turn", "9999", "--json", "--db", "{db}"],   # not reached: a note in the JSON
    ["replay", "{gid}", "--to-turn", "3", "--db", "{db}"],                # the table for a person
    ["replay", "{short}", "--db", "{db}", "--to-turn", "9999"],           # not reached: a note on stderr
])
def test_the_plain_forms_answer_as_the_commands_without_typer(store, argv):
    db, gid = store
    args = [a.format(gid=gid, short=gid[:8], db=db) for a in argv]
    code, out, err, typer = _run(*args)
    assert not typer and code == 0
    first = out.splitlines()[0]
    if "--json" in args:
        assert out.startswith(("{", "["))
    elif args[0] == "replay":
        assert "Loot" in first and "--json" in out
    elif args[0] == "status":
        assert first.startswith(f"game {gid} (loot, 3 seats)")
    elif args[0] == "games":
        assert first.split()[:2] == ["id", "game"] and gid[:12] in out
    elif args[0] == "log":
        assert first.startswith("  v1     t0    Loot created for 3 seats")
    else:
        assert first.startswith(("seat 2 may decide", "seat 2 has nothing"))
    if "9999" in args and "--json" not in args:
        assert err.startswith("note: turn 9999 was not reached")
    # ``--db=PATH`` is not the plain form: the command itself answers
    at = args.index("--db")
    routed = args[:at] + [f"--db={db}"] + args[at + 2:]
    assert _run(*routed) == (code, out, err, True)


@pytest.mark.parametrize("argv", [
    ["status", "0123456789abcdef", "--json", "--db", "{db}"],              # no such game
    ["replay", "{gid}", "--to-turn", "3", "--json", "--db", "{db}", "--seat", "9"],
    ["replay", "{gid}", "--to-turn", "-1", "--json", "--db", "{db}"],
    ["status", "{gid}", "--db", "{db}", "--board"],                        # the table: the command draws it
    ["legal", "{gid}", "--db", "{db}"],                                    # no seat: the command says so
    ["log", "{gid}", "--db", "{db}", "--turn", "2-3"],                     # a range of turns: the command
    ["log", "{gid}", "--db", "{db}", "--seat", "7"],                       # a seat the game has not
])
def test_anything_else_is_the_commands_own_answer(store, argv):
    db, gid = store
    args = [a.format(gid=gid, db=db) for a in argv]
    code, out, err, typer = _run(*args)
    assert typer
    if "0123456789abcdef" in args:
        assert code != 0 and "no game" in err


def test_a_tampered_history_warns_on_stderr_as_the_command_does(store, tmp_path):
    db, gid = store
    copy = str(tmp_path / "t.db")
    with sqlite3.connect(db) as src, sqlite3.connect(copy) as dst:
        src.backup(dst)
    with sqlite3.connect(copy) as c:  # one bit of the 20th event's salt: it decodes, its chain fails
        state = bytearray(c.execute("SELECT state FROM stored_events WHERE originator_version = 20").fetchone()[0])
        at = state.index(b"salt") + len(b"salt") + 2   # past the key and the bin header
        state[at] ^= 0x01
        c.execute("UPDATE stored_events SET state = ? WHERE originator_version = 20", (bytes(state),))
    quick = _run("replay", gid, "--to-turn", "99", "--json", "--db", copy)
    routed = _run("replay", gid, "--to-turn", "99", "--json", f"--db={copy}")
    assert quick[:3] == routed[:3] and "warning: this history does not verify" in quick[2]
    assert not quick[3] and routed[3]


# -- the calls that record a game -------------------------------------------------------------

def _twins(tmp_path, app_setup):
    """Two copies of one store (a game made by ``app_setup(app)``, which returns its id):
    the quick answer is given on one, the command's on the other."""
    db = str(tmp_path / "a.db")
    gid = app_setup(Privateer(db)).hex
    twin = str(tmp_path / "b.db")
    with sqlite3.connect(db) as src, sqlite3.connect(twin) as dst:
        src.backup(dst)
    shutil.copy(db + ".key", twin + ".key")  # the signing key is not in the store: its key file goes with it
    return db, twin, gid


def _same_answer(quick, routed):
    """The same code, stdout and stderr; JSON compared without the events' timestamps
    (each store wrote its own)."""
    assert not quick[3] and routed[3]
    assert quick[0] == routed[0] and quick[2] == routed[2]
    if quick[1].startswith("{"):
        a, b = json.loads(quick[1]), json.loads(routed[1])
        receipts = []
        for doc in (a, b):
            for e in doc["events"]:
                e.pop("timestamp")
            # each store signed its own head at its own time: the rest of the receipt is the same
            r = doc.pop("receipt", None)
            receipts.append(r and {k: v for k, v in r.items() if k not in ("head", "time", "signature")})
        assert a == b and receipts[0] == receipts[1]
    else:
        assert quick[1] == routed[1]


def _version(db, gid):
    return Privateer(db).fold(Privateer(db).resolve_id(gid))[1]


@pytest.mark.parametrize("form", [
    ["--seat", "{seat}", "1"],                                     # by its number in `tools legal`
    ["{json}", "--seat", "{seat}", "--json"],                      # typed out; JSON for a script
    ["--seat", "{seat}", "1", "--expect-version", "{version}"],
])
def test_act_answers_as_the_command_without_typer(tmp_path, form):
    db, twin, gid = _twins(tmp_path, lambda app: app.create("letter-of-marque", 3, seed=b"quick-act".ljust(32, b".")))
    machine, version, _ = Privateer(db).fold(Privateer(db).resolve_id(gid))
    seat = machine.to_act()[0]
    fill = dict(seat=seat, json=json.dumps(machine.legal(seat)[0]), version=version)
    args = [a.format(**fill) for a in form]
    quick = _run("act", gid, *args, "--db", db)
    routed = _run("act", gid, *args, f"--db={twin}")
    assert quick[0] == 0 and "seat" in quick[1]
    _same_answer(quick, routed)
    assert _version(db, gid) == _version(twin, gid) > version


def test_chance_answers_as_the_command_without_typer(tmp_path):
    from service.kernel.local import LocalGame

    db, twin, gid = _twins(tmp_path, lambda app: app.create("letter-of-marque", 3, table=True))
    table = LocalGame("letter-of-marque", 3, table=True)   # the same deals, to know what comes next
    words = []
    for _ in range(3):
        awaited = table.machine.awaiting_chance()
        assert awaited["kind"] == "card"
        words.append(str(awaited["choices"][0]))
        table.enter(awaited["choices"][0])
    quick = _run("chance", gid, *words[:2], "--db", db)        # two deals in a row, as the table shows them
    routed = _run("chance", gid, *words[:2], f"--db={twin}")
    assert quick[0] == 0 and quick[1].startswith("ok: version")
    _same_answer(quick, routed)
    quick = _run("chance", gid, "--json", "--db", db, words[2])
    routed = _run("chance", gid, "--json", f"--db={twin}", words[2])
    assert quick[0] == 0
    _same_answer(quick, routed)


@pytest.mark.parametrize("argv,code", [
    (["act", "{gid}", "--seat", "{other}", "1"], 3),              # not that seat's turn
    (["act", "{gid}", "--seat", "{seat}", "99"], 2),              # no such number
    (["act", "{gid}", "--seat", "{seat}", "{{\"action\": 1"], 2),  # not JSON
    (["act", "{gid}", "--seat", "{seat}", "1", "--expect-version", "1"], 4),
    (["chance", "{gid}", "4"], 2),                                # no chance awaited
])
def test_a_refused_step_is_the_commands_answer_and_writes_nothing(tmp_path, argv, code):
    def placed(app):  # seats 1 and 2 have placed their ships: only seat 3 acts
        gid = app.create("letter-of-marque", 3, seed=b"quick-no".ljust(32, b"."))
        for s in (1, 2):
            app.act(gid, s, app.fold(gid)[0].legal(s)[0])
        return gid

    db, _, gid = _twins(tmp_path, placed)
    machine, version, _ = Privateer(db).fold(Privateer(db).resolve_id(gid))
    assert machine.to_act() == [3]
    seat, other = 3, 1
    args = [a.format(gid=gid, seat=seat, other=other) for a in argv]
    got = _run(*args, "--db", db)
    assert got[0] == code and got[3] and got[2].startswith("error: ")
    assert _version(db, gid) == version


def test_a_written_step_is_answered_here_even_when_its_report_fails(tmp_path, monkeypatch, capsys):
    """Once the step is in the store, asking the command again would record it twice:
    whatever goes wrong after the write is said here, and the step stands once."""
    from service.kernel.errors import UnknownGame
    from tools import answers, quick

    db, _, gid = _twins(tmp_path, lambda app: app.create("letter-of-marque", 3, seed=b"quick-once".ljust(32, b".")))
    machine, version, _ = Privateer(db).fold(Privateer(db).resolve_id(gid))

    def broken(*_a, **_k):
        raise UnknownGame("the index lost the game")

    monkeypatch.setattr(answers, "report_appended", broken)
    with pytest.raises(SystemExit) as e:
        quick.answered(["act", gid, "--seat", str(machine.to_act()[0]), "1", "--db", db])
    assert e.value.code == UnknownGame.exit_code
    assert "error: the index lost the game" in capsys.readouterr().err
    decided = [e for e in Privateer(db).stored_events(Privateer(db).resolve_id(gid))
               if e.type == "Decided" and e.originator_version > version]
    assert len(decided) == 1

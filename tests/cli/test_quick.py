"""The plain forms of ``tools status --json`` and ``tools replay --to-turn N
[--json]`` are answered before Typer is imported (tools/quick.py): their
output, errors and exit codes are the commands' own, byte for byte."""

from __future__ import annotations

import sqlite3
import subprocess
import sys

import pytest

from service.app import Privateer

from ..store.helpers import play

PROBE = ("import sys, runpy\n"
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
    assert out.startswith("{") if "--json" in args else ("Loot" in out.splitlines()[0] and "--json" in out)
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
    ["status", "{gid}", "--db", "{db}"],                                   # for people: the command
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

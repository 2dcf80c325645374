"""The command line's rough edges: a position file in another encoding, JSON that Python's
reader cannot take as sent (a key twice, deep nesting, a huge integer), and a reader that
stops reading (``tools log ID | head``): each a one-line answer and the exit code a
script expects, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from service.app import Privateer

POSITION = Path(__file__).resolve().parents[2] / "docs" / "positions" / "merchants-and-marauders-raid.json"


def test_a_position_file_in_utf16_with_its_bom_is_read_and_latin1_is_refused_in_one_line(cli, tmp_path):
    text = POSITION.read_text(encoding="utf-8")
    utf16 = tmp_path / "raid-utf16.json"
    utf16.write_bytes(text.encode("utf-16"))  # with its byte order mark, as Windows' editors save it
    gid = cli.ok("new", "merchants-and-marauders", "--seats", "2", "--table", "--position", utf16).strip()
    app = Privateer(cli.db)
    assert app.stored_events(app.resolve_id(gid))[0].data["position"]
    latin1 = tmp_path / "latin1.json"
    latin1.write_bytes(json.dumps({"to_play": "Frederico da Silva", "players": [
        {"captain": "Frederico da Silva", "sea": "Santo Domingo"}, {"captain": "Françès"}]},
        ensure_ascii=False).encode("latin-1"))
    p = cli.run("new", "merchants-and-marauders", "--seats", "2", "--table", "--position", latin1)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr == f"error: position {latin1} is not UTF-8 text (byte 123 is 0xE7): save it as UTF-8\n"
    no_bom = tmp_path / "utf16-no-bom.json"
    no_bom.write_bytes(text.encode("utf-16-le"))
    p = cli.run("new", "merchants-and-marauders", "--seats", "2", "--table", "--position", no_bom)
    assert p.returncode == 2 and p.stderr.startswith(f"error: position {no_bom} is not") and p.stderr.count("\n") == 1
    assert len(app.games()) == 1


@pytest.mark.parametrize("decision,said", [
    ('{"action": "place", "armed": true, "armed": false}', "the decision has the key 'armed' twice"),
    ("[" * 5000 + "]" * 5000, "the decision is nested too deeply"),
    ('{"action": "place", "armed": ' + "1" * 5000 + "}", "the decision holds an integer of more than 4300 digits"),
])
def test_json_python_cannot_take_as_sent_is_said_in_one_line(cli, decision, said):
    app = Privateer(cli.db)
    gid = app.create("letter-of-marque", 2)
    before = app.load(gid).version
    p = cli.run("act", gid.hex, "--seat", "1", decision)
    assert p.returncode == 2 and p.stderr == f"error: {said}\n"
    p = cli.run("referee", gid.hex, decision.replace('"action"', '"referee"'))
    assert p.returncode == 2 and p.stderr == f"error: {said.replace('decision', 'referee decision')}\n"
    assert app.load(gid).version == before


def cut_short(cli, *args) -> subprocess.CompletedProcess:
    """``tools ARGS | head -0``: the reader closes the pipe before the first line is written."""
    p = subprocess.Popen([sys.executable, "-m", "tools", *map(str, args)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=cli.env)
    p.stdout.close()
    err = p.stderr.read().decode()
    p.stderr.close()
    return subprocess.CompletedProcess(args, p.wait(timeout=60), "", err)


@pytest.mark.parametrize("args", [("log", "{gid}"),                    # answered before Typer is imported
                                  ("log", "{gid}", "--turn", "0-99"),  # through Typer
                                  ("games",),                          # drawn by rich, before Typer
                                  ("--help",)])                        # drawn by rich, through Typer
def test_a_reader_that_stops_reading_ends_the_command_quietly(cli, args):
    app = Privateer(cli.db)
    gid = app.create("loot", 2, players={"1": "Ada", "2": "Bo"})
    app.close()
    p = cut_short(cli, *(a.format(gid=gid.hex) for a in args))
    assert (p.returncode, p.stderr) == (0, "")

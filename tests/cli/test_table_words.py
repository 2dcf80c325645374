"""Decisions in words where a person chooses (`tools legal`, `tools table`,
`tools status`, `tools log`), and `tools table` refusing what was typed against
a list the game has left behind: a stale number records nothing, and a script
stops at its first refused line with a non-zero exit."""

from __future__ import annotations

import subprocess
import sys
from uuid import UUID

from service.app import Privateer
from tools.table_cmd import Session


def run_table(cli, gid, lines):
    return subprocess.run([sys.executable, "-m", "tools", "table", gid], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, env=cli.env, timeout=120)


def test_a_number_typed_against_a_stale_list_is_refused_and_the_new_list_shown(cli):
    gid = cli.ok("new", "loot", "--seats", "3").strip()
    here, elsewhere = Privateer(cli.db), Privateer(cli.db)
    out: list[str] = []
    session = Session(here, UUID(gid), out.append)
    session.show()  # the acting seat's decisions, numbered in words
    m = here.load(UUID(gid)).machine
    first = m.to_act()[0]
    listed = m.legal(first)
    assert any(line.strip().startswith("1. draw a card") for line in out), out
    assert not any("{" in line for line in out)
    elsewhere.act(UUID(gid), first, listed[0])  # another terminal records that seat's draw
    version = here.load(UUID(gid)).version
    out.clear()
    session.handle("2")  # typed against that seat's list, which is no longer open
    assert here.load(UUID(gid)).version == version  # nothing recorded
    assert out and out[0].startswith("error: the game moved on since the list was shown")
    assert session.refused == (1, 4)
    out.clear()
    session.show()  # the new list: the next seat's
    assert out[0].startswith("turn") and f"seat {first % 3 + 1} to decide" in out[0]
    session.handle("1")  # read against what is shown now: recorded
    assert here.load(UUID(gid)).version > version


def test_a_script_stops_at_its_first_refused_line_and_exits_non_zero(cli):
    gid = cli.ok("new", "letter-of-marque", "--seats", "2", "--table").strip()
    # the deal (two treasures), both seats place, then a number no list has: refused;
    # the die after it would have been read as a decision number: it is never read
    p = run_table(cli, gid, ["4 3", "@1 1", "@2 2", "9", "1", "5"])
    assert p.returncode == 2, p.stdout + p.stderr
    assert "error: give a number from 1 to" in p.stdout and "stopped at line 4" in p.stdout
    stored = Privateer(cli.db).stored_events(UUID(gid))
    decided = [e.data["decision"] for e in stored if e.type == "Decided" and e.data["seat"]]
    assert decided == [{"action": "place", "armed": True}, {"action": "place", "armed": False}]
    # the same script without the bad line runs through, exit 0
    gid2 = cli.ok("new", "letter-of-marque", "--seats", "2", "--table").strip()
    p = run_table(cli, gid2, ["4 3", "@1 1", "@2 2", "1", "5", "quit"])
    assert p.returncode == 0, p.stdout + p.stderr


def test_decisions_and_the_awaited_chance_read_in_words(cli):
    gid = cli.ok("new", "letter-of-marque", "--seats", "2", "--table", "--player", "1=Ada").strip()
    status = cli.ok("status", gid)
    assert "awaiting chance from the referee: a card from treasure:red (seat 1's first treasure)" in status
    assert "{" not in status
    cli.ok("chance", gid, "4", "3")
    p = run_table(cli, gid, ["quit"])
    assert "@1 1. place an armed ship on the treasure" in p.stdout
    assert "@2 2. place an unarmed ship on the treasure" in p.stdout
    cli.ok("act", gid, "--seat", "1", "1")
    texts = [e["text"] for e in cli.json("log", gid)]
    assert "seat 1 (Ada) decides: place an armed ship on the treasure" in texts
    legal = cli.json("legal", gid, "--seat", "2")  # --json stays the decisions exactly as `act` takes them
    assert legal == [{"action": "place", "armed": True}, {"action": "place", "armed": False}]


def test_a_name_of_several_words_is_typed_in_double_quotes(cli):
    """A printed name with spaces (a mission, a captain) is one outcome in double quotes;
    unquoted, its words are read as outcomes one by one and the first is refused."""
    gid = cli.ok("new", "merchants-and-marauders", "--seats", "2", "--table").strip()
    demand = "cocoa food rum spices sugar textiles tobacco wood " * 2
    p = run_table(cli, gid, [demand, '"Mission 1 (unknown)" X10', "Alexandre Villon"])
    assert p.returncode == 2, p.stdout + p.stderr
    assert "mission card 1 is placed" in p.stdout and "mission card 10 is placed" in p.stdout
    assert 'error: card "Alexandre" is not' in p.stdout
    assert 'a name of several words goes in double quotes: "Alexandre Villon"' in p.stdout
    p = run_table(cli, gid, ['"Alexandre Villon"', "quit"])
    assert p.returncode == 0, p.stdout + p.stderr
    drawn = [e.data for e in Privateer(cli.db).stored_events(UUID(gid)) if e.type == "CardDrawn"]
    assert (drawn[-1]["deck"], drawn[-1]["card"]) == ("captains", "alexandre_villon")

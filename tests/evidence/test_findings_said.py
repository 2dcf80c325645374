"""Findings said as findings: a file that fails its audit is an audit violation
(exit 1) naming its event, a retracted step is audited too, a solitaire game
lost says so in its record, and a damaged store is one line, not a traceback."""

from __future__ import annotations

import os
import random

from event_store.chain import link
from event_store.codec import pack, unpack
from service.app import Privateer
from service.simulate import simulate

from tests.cli.test_record import table_game

FIELDS = ("version", "timestamp", "type", "turn", "visible_to", "data", "prev", "hash", "salt")


def _rehashed(doc: dict, gid, version: int, decision) -> bytes:
    rows = [dict(zip(FIELDS, r)) for r in doc["events"]]
    rows[version - 1]["data"]["decision"] = decision
    prev = rows[version - 2]["hash"]
    for r in rows[version - 1:]:
        r["prev"] = prev
        r["hash"] = prev = link(gid, r["version"], r["timestamp"], r["type"], r["turn"], r["visible_to"], r["data"],
                                prev, r["salt"], 2)
    return pack(dict(doc, events=[[r[f] for f in FIELDS] for r in rows], signatures=[]))


def test_a_rewritten_retracted_step_of_a_table_game_is_refused_naming_its_event(cli, db, tmp_path):
    app = Privateer(db)
    gid = table_game(app, "loot", 2, {}, 30, random.Random(1))
    stored = app.stored_events(gid)
    starts = [e.originator_version for e in stored if e.type == "Decided" and e.data["seat"]]
    app.correct(gid, starts[-3] - 1, "misread")
    path = tmp_path / "g.pgame"
    cli.ok("export", gid.hex, "-o", str(path))
    assert cli.run("import", str(path), "--db", str(tmp_path / "clean.db")).returncode == 0
    # the retracted steps and the step after the correction, each rewritten to another legal decision
    tried = 0
    for version in starts[-3:]:
        e = stored[version - 1]
        others = [d for d in app.load(gid, version=version - 1).machine.legal(e.data["seat"])
                  if d != e.data["decision"]]
        if not others:
            continue
        tried += 1
        forged = tmp_path / f"forged-{version}.pgame"
        forged.write_bytes(_rehashed(unpack(path.read_bytes()), gid, version, others[0]))
        p = cli.run("import", str(forged), "--db", str(tmp_path / "x.db"))
        assert p.returncode == 1, p.stderr
        assert "does not verify: event " in p.stderr and "list.remove" not in p.stderr
        named = int(p.stderr.split("does not verify: event ")[1].split()[0])
        assert version <= named, p.stderr
        assert "retracted step" in p.stderr
    assert tried


def test_a_lost_solitaire_game_says_nobody_won(tmp_path, cli):
    app = Privateer(str(tmp_path / "k.db"))
    for seed in range(8):
        gid = simulate("kaisers-pirates", 1, 1, seed=f"solitaire-{seed}", app=app)["game_ids"][0]
        last = app.stored_events(app.resolve_id(gid))[-1]
        if not last.data["winners"]:
            break
    else:
        raise AssertionError("no lost solitaire game in eight")
    text = cli.ok("record", gid, "--db", str(tmp_path / "k.db"))
    result = next(line for line in text.splitlines() if line.startswith("[Result "))
    assert result == f'[Result "1: {last.data["scores"]["1"]}; won by nobody"]'


def test_a_damaged_store_is_one_line(tmp_path, cli):
    path = str(tmp_path / "half.db")
    simulate("loot", 3, 2, seed="half", app=Privateer(path))
    import sqlite3

    with sqlite3.connect(path) as c:
        c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    with open(path, "r+b") as f:
        f.truncate(os.path.getsize(path) // 2)
    p = cli.run("audit", "--all", "--db", path)
    assert p.returncode == 1 and "Traceback" not in p.stderr + p.stdout
    lines = p.stdout.strip().splitlines()
    if p.stderr.strip():  # the file does not even open as a database: one line for the store
        assert len(p.stderr.strip().splitlines()) == 1 and "damaged" in p.stderr and not lines
    else:  # one line per game that does not read back, then the count
        assert lines[-1] == "0 of 2 games audit clean" and len(lines) == 3
        assert all(line.startswith("VIOLATION: game ") and "cannot be read" in line for line in lines[:-1])

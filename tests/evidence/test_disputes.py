"""Disputes, as they would go.

1. The operator holds the store and its key: it rewrites a seat's decision in
   the SQLite file, re-hashes the chain and re-signs every head. The export
   then checks against the published key, but the seat's receipts expose it:
   `tools verify --receipt` fails and names the first step that differs.
2. A file's holder has every salt but not the key: it rewrites a decision in
   an export and re-hashes the chain. `tools verify --key` fails and names the
   step; `tools import` refuses it as an audit violation (exit 1).
"""

from __future__ import annotations

import json
import random
import sqlite3

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from event_store.codec import pack, unpack
from event_store.signing import KeyFile, head_message
from service.app import Privateer

from .forgery import rehash


def _play(app, gid, decisions, rng):
    """Random legal decisions; the deciding seat's receipt after each, as `act --json` gives it."""
    receipts, decided = [], []
    for _ in range(decisions):
        g = app.load(gid)
        m = g.machine
        seat = m.to_act()[0]
        app.act(gid, seat, rng.choice(m.legal(seat)))
        g = app.load(gid)
        receipts.append(app.receipt(g, seat))
        decided.append(next(e.originator_version for e in reversed(app.stored_events(gid)) if e.type == "Decided"))
    return receipts, decided


@pytest.fixture
def played(tmp_path):
    db = str(tmp_path / "store.db")
    app = Privateer(db)
    gid = app.create("loot", 3, seed=b"\x07" * 32)
    receipts, decided = _play(app, gid, 14, random.Random(5))
    return db, app, gid, receipts, decided


def _other_decision(app, gid, version):
    """A decision the seat could have made instead at ``version`` (a Decided event)."""
    before = app.load(gid, version=version - 1).machine
    e = app.stored_events(gid)[version - 1]
    seat, made = e.data["seat"], e.data["decision"]
    others = [d for d in before.legal(seat) if d != made]
    assert others, "this step offered one decision only"
    return others[0]


def test_the_operator_rewrites_and_resigns_and_the_receipts_expose_it(played, cli, tmp_path):
    db, app, gid, receipts, decided = played
    target = decided[8]                               # the ninth decision
    instead = _other_decision(app, gid, target)
    app.close()

    # the operator: SQL on the store's file, the chain re-hashed, every head re-signed with its key
    conn = sqlite3.connect(db)
    stored = conn.execute("SELECT originator_version, state FROM stored_events WHERE originator_id = ? "
                          "ORDER BY originator_version", (gid.hex,)).fetchall()
    states = [unpack(s) for _, s in stored]
    rows = [dict(st, version=v) for (v, _), st in zip(stored, states)]
    rehash(rows, gid, target, lambda d: d.__setitem__("decision", instead))
    for (v, _), r, st in zip(stored, rows, states):
        st.update(data=r["data"], prev=r["prev"], hash=r["hash"])
        conn.execute("UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
                     (pack(st), gid.hex, v))
    key_row = conn.execute("SELECT fingerprint, private_key FROM privateer_keys").fetchone()
    key = Ed25519PrivateKey.from_private_bytes(KeyFile(db + ".key").get(key_row[0]))  # the operator holds the key file
    for (v, signed) in conn.execute("SELECT version, signed FROM privateer_signatures WHERE game_id = ?",
                                    (gid.hex,)).fetchall():
        head = rows[v - 1]["hash"]
        sig = key.sign(head_message(gid.bytes, v, head, signed, key_row[0]))
        conn.execute("UPDATE privateer_signatures SET head = ?, signature = ? WHERE game_id = ? AND version = ?",
                     (head.hex(), sig.hex(), gid.hex, v))
    conn.execute("UPDATE privateer_games SET head = ? WHERE game_id = ?", (rows[-1]["hash"], gid.hex))
    conn.execute("DELETE FROM stored_snapshots")
    conn.commit()
    conn.close()

    export = tmp_path / "rewritten.pgame"
    cli.ok("export", gid.hex, "-o", str(export), "--db", db)
    public = json.loads(cli.ok("key", "--json", "--db", db))["public_key"]
    # the key cannot tell: the operator re-signed every head
    assert cli.run("verify", str(export), "--key", public).returncode == 0
    # the receipts of the steps before the rewrite still hold
    early = tmp_path / "early.json"
    early.write_text(json.dumps(receipts[:8]))
    assert cli.run("verify", str(export), "--key", public, "--receipt", str(early)).returncode == 0
    # all of them: the first step that differs is named
    mine = tmp_path / "receipts.jsonl"
    mine.write_text("\n".join(json.dumps(r) for r in receipts))
    p = cli.run("verify", str(export), "--key", public, "--receipt", str(mine), "--json")
    assert p.returncode == 1, p.stdout + p.stderr
    bad = json.loads(p.stdout)["first_bad"]
    first, last = bad["step"]
    assert first == target and last >= target, bad
    assert f"receipt of seat {receipts[8]['seat']} at its version {receipts[8]['seat_version']}" in bad["reason"]


def test_a_files_holder_rewrites_an_export_and_the_key_exposes_it(played, cli, tmp_path):
    db, app, gid, receipts, decided = played
    target = decided[5]
    instead = _other_decision(app, gid, target)
    export = tmp_path / "game.pgame"
    cli.ok("export", gid.hex, "-o", str(export), "--with-secret", "--db", db)
    public = json.loads(cli.ok("key", "--json", "--db", db))["public_key"]
    assert cli.run("verify", str(export), "--key", public).returncode == 0

    # the holder: every salt is in the file, the key is not
    doc = unpack(export.read_bytes())
    fields = ("version", "timestamp", "type", "turn", "visible_to", "data", "prev", "hash", "salt")
    rows = [dict(zip(fields, r)) for r in doc["events"]]
    rehash(rows, gid, target, lambda d: d.__setitem__("decision", instead))
    doc["events"] = [[r[f] for f in fields] for r in rows]
    forged = tmp_path / "forged.pgame"
    forged.write_bytes(pack(doc))

    p = cli.run("verify", str(forged), "--key", public, "--json")
    assert p.returncode == 1
    bad = json.loads(p.stdout)["first_bad"]
    assert bad["step"][0] <= target <= bad["step"][1], bad      # the step holding the rewritten decision
    assert "does not check against key" in bad["reason"]
    # dropping the signatures from the rewritten steps on does not help: they are missing instead
    doc["signatures"] = [s for s in doc["signatures"] if s[0] < target]
    forged.write_bytes(pack(doc))
    bad = json.loads(cli.run("verify", str(forged), "--key", public, "--json").stdout)["first_bad"]
    assert bad["step"][0] <= target and "carry no signature" in bad["reason"]
    # import refuses it as an audit violation (the re-run of the changed step), naming its events
    p = cli.run("import", str(forged), "--db", str(tmp_path / "other.db"))
    assert p.returncode == 1 and "does not verify: event" in p.stderr
    assert target <= int(p.stderr.split("does not verify: event ")[1].split()[0]) <= bad["step"][1]


def test_format_2_files_still_import_and_say_they_are_unsigned_and_the_store_does_not_sign_them(played, cli, tmp_path):
    db, app, gid, receipts, decided = played
    export = tmp_path / "game.pgame"
    cli.ok("export", gid.hex, "-o", str(export), "--with-secret", "--db", db)
    doc = unpack(export.read_bytes())
    assert doc["format_version"] == 3 and len(doc["keys"]) == 1 and len(doc["signatures"]) == 15
    old = {k: doc[k] for k in ("format", "game_id", "events", "secret")}
    old["format_version"] = 2
    export.write_bytes(pack(old))
    public = json.loads(cli.ok("key", "--json", "--db", db))["public_key"]
    p = cli.run("verify", str(export), "--key", public)
    assert p.returncode == 1 and f"versions 1-{len(doc['events'])}" in p.stdout and "carry no signature" in p.stdout
    other = str(tmp_path / "other.db")
    p = cli.run("import", str(export), "--db", other)
    assert p.returncode == 0 and p.stdout.strip() == gid.hex and "unsigned evidence" in p.stderr
    # the importing store signs no head of a history it was given (issue 43): its re-export is unsigned
    again = tmp_path / "again.pgame"
    cli.ok("export", gid.hex, "-o", str(again), "--db", other)
    assert unpack(again.read_bytes())["signatures"] == []
    theirs = json.loads(cli.ok("key", "--json", "--db", other))["public_key"]
    p = cli.run("verify", str(again), "--key", theirs)
    assert p.returncode == 1 and "carry no signature" in p.stdout

"""Issue 43, keys with a history (spec/SPEC.md §4): the private keys live in an
owner-only key file, never in the store, an export or a record; a rotation is
signed by both keys; a signature counts only within its key's life, and
signature times never go back along a game's chain (`tools verify --key
HISTORY`, `tools import`, spec/verify.py)."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import stat
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from event_store.codec import pack, unpack
from event_store.signing import KeyFile, head_message, rotation_message, verify
from service.app import Privateer
from service.records.history import export_game
from spec.make_vectors import play, record_text

VERIFIER = Path(__file__).resolve().parents[2] / "spec" / "verify.py"


def independent(path, key) -> dict:
    p = subprocess.run([sys.executable, str(VERIFIER), str(path), "--key", str(key), "--json"],
                       capture_output=True, text=True, cwd="/")
    assert p.returncode in (0, 1), p.stderr
    return json.loads(p.stdout)


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def _every_cell(db: str) -> str:
    """Every value of every table of an SQLite store, as text (bytes as hex)."""
    conn = sqlite3.connect(db)
    out = []
    for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
        for row in conn.execute(f'SELECT * FROM "{table}"').fetchall():
            out += [c.hex() if isinstance(c, bytes) else str(c) for c in row]
    conn.close()
    return "\n".join(out)


@pytest.fixture
def rotated(tmp_path):
    """A seeded game signed across a rotation: (db, app, gid, the retired key (from a copy of the
    old key file, as a backup would hold it), its fingerprint, the key history file)."""
    db = str(tmp_path / "store.db")
    app = Privateer(db, snapshot_interval=0)
    gid = app.create("loot", 2, seed=b"\x44" * 32)
    play(app, gid, 5, random.Random(1))
    app.signer._active()
    old_fp = app.signer.fingerprint
    old = Ed25519PrivateKey.from_private_bytes(app.signer.key_file.get(old_fp))
    app.signer.rotate()
    play(app, gid, 5, random.Random(2))
    history = tmp_path / "history.json"
    history.write_text(json.dumps(app.signer.history()))
    yield db, app, gid, old, old_fp, history
    app.close()


# the key file -------------------------------------------------------------------------------
def test_the_key_lives_in_an_owner_only_file_beside_the_store_never_in_it(cli, db):
    cli.ok("new", "loot", "--seats", "2")
    assert _mode(db + ".key") == 0o600
    private = json.loads(Path(db + ".key").read_text())["keys"]
    assert len(private) == 1
    assert next(iter(private.values())) not in _every_cell(db)


def test_an_old_store_has_its_private_keys_moved_out_on_open(tmp_path, cli):
    """A store of before issue 43: its private keys (the retired one too) in plain hex in
    ``privateer_keys``, no key file. Opened: they are in the key file (0600), not in any table."""
    db = str(tmp_path / "old.db")
    app = Privateer(db)
    gid = app.create("loot", 2, seed=b"\x55" * 32)
    play(app, gid, 4, random.Random(3))
    app.signer.rotate()
    play(app, gid, 4, random.Random(4))
    fps = [k["fingerprint"] for k in app.signer.describe()]
    app.signer.key_file.update({fps[0]: bytes(range(32))})  # the retired key, as the old store still held it
    held = KeyFile(db + ".key").read()
    app.close()
    conn = sqlite3.connect(db)  # back to the old layout: the hex in the table, no key file
    for fp, hexkey in held.items():
        conn.execute("UPDATE privateer_keys SET private_key = ? WHERE fingerprint = ?", (hexkey, fp))
    conn.commit()
    conn.close()
    os.remove(db + ".key")
    assert all(h in _every_cell(db) for h in held.values())

    again = Privateer(db)
    again.close()
    cells = _every_cell(db)
    assert not any(h in cells for h in held.values())
    assert _mode(db + ".key") == 0o600 and KeyFile(db + ".key").read() == held
    # its games still export and verify, and it signs on with the same key
    out = tmp_path / "old.pgame"
    cli.ok("export", gid.hex, "-o", out, "--db", db)
    history = cli.ok("key", "--json", "--db", db)
    assert json.loads(history)["fingerprint"] == fps[1]
    (tmp_path / "history.json").write_text(history)
    assert cli.run("verify", out, "--key", tmp_path / "history.json").returncode == 0
    assert independent(out, tmp_path / "history.json")["ok"]


def test_a_key_file_others_may_read_is_refused_in_one_line(cli, db):
    cli.ok("new", "loot", "--seats", "2")
    os.chmod(db + ".key", 0o644)
    p = cli.run("key", "--db", db)
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "readable by others" in lines[0] and "chmod 600" in lines[0], p.stderr


def test_the_key_file_named_by_the_environment(tmp_path, monkeypatch):
    named = tmp_path / "keys" / "privateer.key"
    monkeypatch.setenv("PRIVATEER_KEY_FILE", str(named))
    app = Privateer(str(tmp_path / "s.db"))
    app.create("loot", 2)
    app.close()
    assert _mode(named) == 0o600 and not (tmp_path / "s.db.key").exists()


def test_no_private_key_in_an_export_a_record_or_the_key_history(rotated, cli, tmp_path):
    db, app, gid, _, _, history = rotated
    held = KeyFile(db + ".key").read()
    raw = [bytes.fromhex(h) for h in held.values()]
    out = tmp_path / "game.pgame"
    export_game(app, gid, str(out), with_secret=True)
    body = out.read_bytes()
    assert unpack(body)["key_history"]["keys"][-1]["signing"]
    text = record_text(app, gid)
    said = history.read_text() + cli.ok("key", "--json", "--db", db) + cli.ok("key", "--db", db)
    for hexkey, key in zip(held.values(), raw):
        assert key not in body and hexkey.encode() not in body
        assert hexkey not in text and hexkey not in said


# rotation -----------------------------------------------------------------------------------
def test_a_rotation_is_a_statement_signed_by_both_keys(cli, db, tmp_path):
    cli.ok("new", "loot", "--seats", "2")
    cli.ok("key", "--rotate", "--db", db)
    doc = json.loads(cli.ok("key", "--json", "--db", db))
    old, new = doc["keys"]
    assert old["until"] and old["until"] == new["from"] and new["until"] is None and new["signing"]
    (st,) = doc["rotations"]
    assert old["rotation"] == st and st["outgoing"] == old["public_key"] and st["incoming"] == new["public_key"]
    msg = rotation_message(bytes.fromhex(st["outgoing"]), bytes.fromhex(st["incoming"]), st["time"])
    assert verify(bytes.fromhex(st["outgoing"]), bytes.fromhex(st["outgoing_signature"]), msg)
    assert verify(bytes.fromhex(st["incoming"]), bytes.fromhex(st["incoming_signature"]), msg)
    # the retired key's private half has left the key file
    assert list(KeyFile(db + ".key").read()) == [new["fingerprint"]]
    # a history whose rotation does not check is refused, by both verifiers
    st["incoming_signature"] = st["outgoing_signature"]
    bad = tmp_path / "bad-history.json"
    bad.write_text(json.dumps(doc))
    cli.ok("export", json.loads(cli.ok("games", "--json"))[0]["game_id"], "-o", tmp_path / "g.pgame", "--db", db)
    p = cli.run("verify", tmp_path / "g.pgame", "--key", bad)
    assert p.returncode == 2 and "rotation" in p.stderr, p.stderr
    q = subprocess.run([sys.executable, str(VERIFIER), str(tmp_path / "g.pgame"), "--key", str(bad)],
                       capture_output=True, text=True, cwd="/")
    assert q.returncode == 2 and "rotation" in q.stderr


def test_a_game_signed_across_a_rotation_verifies_against_the_history(rotated, cli, tmp_path):
    _, app, gid, _, _, history = rotated
    out = tmp_path / "game.pgame"
    export_game(app, gid, str(out), with_secret=True)
    assert cli.run("verify", out, "--key", history).returncode == 0
    assert independent(out, history)["ok"]
    (tmp_path / "game.record").write_text(record_text(app, gid))
    assert cli.run("verify", tmp_path / "game.record", "--key", history).returncode == 0
    assert independent(tmp_path / "game.record", history)["ok"]


# a key's life -------------------------------------------------------------------------------
def test_a_retired_keys_late_signature_fails(rotated, cli, tmp_path):
    """The old key (from a backup) re-signs the last step after its retirement: the signature
    itself checks, but outside the key's life it counts for nothing."""
    _, app, gid, old, old_fp, history = rotated
    out = tmp_path / "game.pgame"
    export_game(app, gid, str(out), with_secret=True)
    doc = unpack(out.read_bytes())
    hashes = {r[0]: r[7] for r in doc["events"]}
    last = max(s[0] for s in doc["signatures"])
    late = datetime.fromisoformat(max(s[1] for s in doc["signatures"])) + timedelta(seconds=1)
    doc["signatures"] = [s for s in doc["signatures"] if s[0] != last] + [
        [last, late.isoformat(), old_fp, old.sign(head_message(gid.bytes, last, hashes[last], late.isoformat(),
                                                               old_fp))]]
    forged = tmp_path / "late.pgame"
    forged.write_bytes(pack(doc))
    p = cli.run("verify", forged, "--key", history)
    assert p.returncode == 1 and "after its key's retirement" in p.stdout, p.stdout
    got = independent(forged, history)
    assert not got["ok"] and "after its key's retirement" in got["first_bad"]["reason"]
    ours = json.loads(cli.run("verify", forged, "--key", history, "--json").stdout)
    assert ours["first_bad"]["version"] == got["first_bad"]["version"]
    # the service that rotated it refuses it on import too (its own retired key, its life known)
    p = cli.run("import", forged, "--key", history, "--db", tmp_path / "other.db")
    assert p.returncode == 1 and "retirement" in p.stderr, p.stderr


def test_time_going_back_fails(rotated, cli, tmp_path):
    _, app, gid, _, _, history = rotated
    out = tmp_path / "game.pgame"
    export_game(app, gid, str(out), with_secret=True)
    doc = unpack(out.read_bytes())
    hashes = {r[0]: r[7] for r in doc["events"]}
    key = Ed25519PrivateKey.from_private_bytes(app.signer.key_file.get(app.signer.fingerprint))
    sigs = sorted(doc["signatures"], key=lambda s: s[0])
    mine = [s for s in sigs if s[2] == app.signer.fingerprint]
    mine[2][1] = mine[0][1]  # the third step by the signing key dated as its first: before the second
    mine[2][3] = key.sign(head_message(gid.bytes, mine[2][0], hashes[mine[2][0]], mine[2][1], mine[2][2]))
    doc["signatures"] = sigs
    forged = tmp_path / "back.pgame"
    forged.write_bytes(pack(doc))
    p = cli.run("verify", forged, "--key", history)
    assert p.returncode == 1 and "time goes back" in p.stdout, p.stdout
    got = independent(forged, history)
    assert not got["ok"] and "time goes back" in got["first_bad"]["reason"]
    assert got["first_bad"]["version"] == mine[1][0] + 1
    # a record's sign lines likewise
    text = record_text(app, gid)
    lines = text.splitlines(keepends=True)
    signs = [i for i, line in enumerate(lines) if line.startswith("sign ")]
    first_time = lines[signs[0]].split(" ")[3]
    parts = lines[signs[1]].split(" ")
    later = datetime.fromisoformat(first_time) - timedelta(seconds=5)
    parts[3] = later.isoformat()
    lines[signs[1]] = " ".join(parts)  # its signature no longer checks either: the first failure is said
    (tmp_path / "back.record").write_text("".join(lines))
    assert cli.run("verify", tmp_path / "back.record", "--key", history).returncode == 1
    assert not independent(tmp_path / "back.record", history)["ok"]


def test_a_running_service_signs_with_the_new_key_at_once_and_get_key_publishes_the_history(tmp_path, cli):
    """`tools key --rotate` from another process: the running service's next step is signed by the
    new key (not by the retired one after its retirement), and GET /key says the whole history."""
    from fastapi.testclient import TestClient

    from service.http.app import create_app

    db = str(tmp_path / "api.db")
    running = Privateer(db, snapshot_interval=0)
    gid = running.create("loot", 2, seed=b"\x66" * 32)
    play(running, gid, 3, random.Random(5))
    cli.ok("key", "--rotate", "--db", db)
    play(running, gid, 3, random.Random(6))
    history = json.loads(cli.ok("key", "--json", "--db", db))
    (tmp_path / "history.json").write_text(json.dumps(history))
    out = tmp_path / "game.pgame"
    export_game(running, gid, str(out), with_secret=True)
    running.close()
    fps = {s[2] for s in unpack(out.read_bytes())["signatures"]}
    assert fps == {k["fingerprint"] for k in history["keys"]}
    assert cli.run("verify", out, "--key", tmp_path / "history.json").returncode == 0
    assert independent(out, tmp_path / "history.json")["ok"]
    with TestClient(create_app(db, "organiser-key-" + "x" * 24)) as client:
        got = client.get("/key").json()
    assert got["format"] == "privateer-key-history" and got["keys"] == history["keys"]
    assert got["rotations"] == history["rotations"] and len(got["rotations"]) == 1
    assert "private" not in json.dumps(got).replace("privateer", "")


def test_the_committed_old_store_has_its_private_key_moved_out(tmp_path, cli):
    """tests/fixtures/before_issue33.db, a store written before the key file, holds its private key in
    plain hex. Opened, no table holds it; the key file (0600) does; its games still export and verify
    against the key it published, and its history is that key, undated until now."""
    import shutil

    fixtures = Path(__file__).resolve().parents[1] / "fixtures"
    db = str(tmp_path / "old.db")
    shutil.copy(fixtures / "before_issue33.db", db)
    conn = sqlite3.connect(db)
    ((fp, hexkey),) = conn.execute("SELECT fingerprint, private_key FROM privateer_keys").fetchall()
    conn.close()
    assert len(hexkey) == 64 and hexkey in _every_cell(db)
    app = Privateer(db)
    gid = app.games()[0]["game_id"]
    app.close()
    assert hexkey not in _every_cell(db)
    assert _mode(db + ".key") == 0o600 and KeyFile(db + ".key").read() == {fp: hexkey}
    history = json.loads(cli.ok("key", "--json", "--db", db))
    assert history["fingerprint"] == fp and history["keys"][0]["until"] is None
    (tmp_path / "history.json").write_text(json.dumps(history))
    out = tmp_path / "old.pgame"
    cli.ok("export", gid, "-o", out, "--db", db)
    assert hexkey.encode() not in out.read_bytes() and bytes.fromhex(hexkey) not in out.read_bytes()
    assert cli.run("verify", out, "--key", history["public_key"]).returncode == 0
    assert cli.run("verify", out, "--key", tmp_path / "history.json").returncode == 0
    assert independent(out, tmp_path / "history.json")["ok"]

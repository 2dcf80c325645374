"""Issue 43: trust comes only from what the verifier is given. `tools verify` re-derives
chance as spec/verify.py and `tools import` do; a file's own keys are its claim, never
the importing service's; a record's sign lines are checked on import."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from event_store.codec import pack, unpack

SPEC = Path(__file__).resolve().parents[2] / "spec"
VECTORS = SPEC / "vectors"
KEY = VECTORS / "service.key"


def independent(path, key=None) -> dict:
    args = [sys.executable, str(SPEC / "verify.py"), str(path), "--json"] + (["--key", str(key)] if key else [])
    p = subprocess.run(args, capture_output=True, text=True, cwd="/")
    assert p.returncode in (0, 1), p.stderr
    return json.loads(p.stdout)


def test_tools_verify_re_derives_chance_operator_chance_fails_at_22(cli):
    p = cli.run("verify", VECTORS / "operator-chance.pgame", "--key", KEY, "--json")
    assert p.returncode == 1, p.stdout
    out = json.loads(p.stdout)
    assert out["first_bad"]["version"] == 22 and "stream" in out["first_bad"]["reason"]


def test_a_fork_whose_parents_seed_was_replaced_fails_tools_verify(cli, tmp_path):
    doc = unpack((VECTORS / "fork.pgame").read_bytes())
    assert doc["parents"] and doc["parents"][0][1] is not None
    doc["parents"] = [[v, b"\x33" * 32] for v, _ in doc["parents"]]
    bad = tmp_path / "fork-other-seed.pgame"
    bad.write_bytes(pack(doc))
    key = VECTORS / "service-end.key"  # fork.pgame, made again with its signed end (§4a)
    p = cli.run("verify", bad, "--key", key, "--json")
    assert p.returncode == 1, p.stdout
    ours = json.loads(p.stdout)["first_bad"]
    theirs = independent(bad, key)
    assert not theirs["ok"] and theirs["first_bad"]["version"] == ours["version"]
    assert ours["version"] <= doc["parents"][0][0]


# a file's own key: the holder re-signs a forgery with a key of their own -------------------
def _forge_with_own_key(export: Path, out: Path) -> str:
    """A player's name changed in the export, the chain re-hashed, every head re-signed with a
    fresh key put in the file's ``keys``; returns that key's fingerprint."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    from event_store.chain import link
    from event_store.signing import fingerprint, head_message

    doc = unpack(export.read_bytes())
    fields = ("version", "timestamp", "type", "turn", "visible_to", "data", "prev", "hash", "salt")
    rows = [dict(zip(fields, r)) for r in doc["events"]]
    gid = doc["game_id"]
    rows[0]["data"]["players"] = {**rows[0]["data"]["players"], "1": "Mallory"}
    prev = None
    for r in rows:
        r["prev"] = r["prev"] if prev is None else prev
        r["hash"] = prev = link(gid, r["version"], r["timestamp"], r["type"], r["turn"], r["visible_to"], r["data"],
                                r["prev"], r["salt"], 2)
    doc["events"] = [[r[f] for f in fields] for r in rows]
    key = Ed25519PrivateKey.generate()
    public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    fp = fingerprint(public)
    hashes = {r["version"]: r["hash"] for r in rows}
    doc["signatures"] = [[v, t, fp, key.sign(head_message(gid.bytes, v, hashes[v], t, fp))]
                         for v, t, _, _ in doc["signatures"]]
    doc["keys"] = {fp: public}
    out.write_bytes(pack(doc))
    return fp


def _finished_table_game(cli, tmp_path):
    """A small table-mode game with named players, exported with its service's key."""
    import random

    from service.app import Privateer
    from spec.make_vectors import play

    db = str(tmp_path / "origin.db")
    app = Privateer(db)
    gid = app.create("loot", 2, table=True, players={"1": "Ada", "2": "Bo"})
    play(app, gid, 12, random.Random(3))
    app.close()
    export = tmp_path / "game.pgame"
    cli.ok("export", gid.hex, "-o", export, "--db", db)
    key = tmp_path / "origin-key.json"
    key.write_text(cli.ok("key", "--json", "--db", db))
    return db, gid, export, key


def test_a_files_own_key_never_joins_the_importing_services_list(cli, tmp_path):
    db, gid, export, origin_key = _finished_table_game(cli, tmp_path)
    forged = tmp_path / "forged.pgame"
    forger = _forge_with_own_key(export, forged)
    # the file holds together under its own key, but not under the origin's published key
    assert cli.run("verify", forged).returncode == 0
    p = cli.run("verify", forged, "--key", origin_key, "--json")
    assert p.returncode == 1 and "carry no signature" in json.loads(p.stdout)["first_bad"]["reason"]
    assert not independent(forged, VECTORS / "service.key")["ok"]

    # imported without --key: foreign evidence, said so; the forger's key is not the service's
    other = str(tmp_path / "other.db")
    p = cli.run("import", forged, "--db", other)
    assert p.returncode == 0 and p.stdout.strip() == gid.hex, p.stderr
    assert "foreign evidence" in p.stderr and forger[:16] in p.stderr
    listed = cli.json("key", "--db", other)
    assert forger not in {k["fingerprint"] for k in listed["keys"]} and listed["fingerprint"] != forger
    assert len(listed["keys"]) == 1
    # and the importing store signed no head of it: its re-export checks against no key of its own
    again = tmp_path / "again.pgame"
    cli.ok("export", gid.hex, "-o", again, "--db", other)
    (tmp_path / "other-key.json").write_text(json.dumps(listed))
    p = cli.run("verify", again, "--key", tmp_path / "other-key.json", "--json")
    assert p.returncode == 1 and "carry no signature" in json.loads(p.stdout)["first_bad"]["reason"]
    assert cli.run("verify", again, "--key", origin_key).returncode == 1
    # nor does it sign a record of it
    p = cli.run("record", gid.hex, "--db", other)
    assert p.returncode == 0 and "[GameId " not in p.stdout and "sign " not in p.stdout

    # with the origin's published key, the forgery is refused, naming the versions
    p = cli.run("import", forged, "--key", origin_key, "--db", str(tmp_path / "third.db"))
    assert p.returncode == 1 and "carry no signature by the key given" in p.stderr, p.stderr
    assert len(p.stderr.strip().splitlines()) == 1
    # the genuine export imports with it, and its signatures are the origin's
    p = cli.run("import", export, "--key", origin_key, "--db", str(tmp_path / "fourth.db"))
    assert p.returncode == 0 and "checked against key" in p.stderr, p.stderr


def test_a_format_2_forgery_is_not_signed_by_the_importing_store(cli, tmp_path):
    db, gid, export, origin_key = _finished_table_game(cli, tmp_path)
    forged = tmp_path / "forged.pgame"
    _forge_with_own_key(export, forged)
    doc = unpack(forged.read_bytes())
    old = {k: doc[k] for k in ("format", "game_id", "events", "secret")}
    old["format_version"] = 2
    forged.write_bytes(pack(old))
    other = str(tmp_path / "other.db")
    p = cli.run("import", forged, "--key", origin_key, "--db", str(tmp_path / "keyed.db"))
    assert p.returncode == 1 and "the file carries no signature" in p.stderr, p.stderr
    p = cli.run("import", forged, "--db", other)
    assert p.returncode == 0 and "unsigned evidence" in p.stderr
    again = tmp_path / "again.pgame"
    cli.ok("export", gid.hex, "-o", again, "--db", other)
    assert unpack(again.read_bytes())["signatures"] == []
    # a format-2 file whose chain does not hold is refused
    doc = unpack(export.read_bytes())
    old = {k: doc[k] for k in ("format", "game_id", "events", "secret")}
    old["format_version"] = 2
    old["events"][0][5]["players"] = {"1": "Mallory", "2": "Bo"}
    forged.write_bytes(pack(old))
    p = cli.run("import", forged, "--db", str(tmp_path / "third.db"))
    assert p.returncode == 1 and "does not verify: event 1" in p.stderr


def test_the_service_imports_its_own_export_without_a_key(cli, tmp_path):
    """Another database of the same service (its key moved with it): the file's signatures are
    the service's own, checked without --key."""
    from service.app import Privateer

    db, gid, export, _ = _finished_table_game(cli, tmp_path)
    origin = Privateer(db)
    row = next(r for r in origin.recorder.select_keys() if r["private_key"])
    origin.close()
    other = str(tmp_path / "same-service.db")
    shutil.copy(db + ".key", other + ".key")  # the key file moves with it (owner-only, as copied)
    app = Privateer(other)
    app.recorder.insert_service_rows(key=(row["fingerprint"], row["public_key"], row["private_key"], row["created"],
                                          ""))
    app.close()
    p = cli.run("import", export, "--db", other)
    assert p.returncode == 0 and "checked against key " + row["fingerprint"][:16] in p.stderr, p.stderr
    again = tmp_path / "again.pgame"
    cli.ok("export", gid.hex, "-o", again, "--db", other)
    assert cli.run("verify", again, "--key", row["public_key"]).returncode == 0
    assert "[GameId " in cli.ok("record", gid.hex, "--db", other)


# records ----------------------------------------------------------------------------------
def test_a_record_carries_its_keys_and_import_checks_its_sign_lines(cli, tmp_path):
    db, gid, export, origin_key = _finished_table_game(cli, tmp_path)
    text = cli.ok("record", gid.hex, "--db", db)
    assert text.startswith('[Record "PrivateerRecord 5"]')
    public = json.loads(origin_key.read_text())["public_key"]
    signs = [line for line in text.splitlines() if line.startswith("sign ")]
    assert signs and all(line.split(" ")[6] == public for line in signs)
    rec = tmp_path / "game.record"
    rec.write_text(text)
    # verify without a key: self-consistent under the key it carries; with the published key: ok
    assert cli.run("verify", rec).returncode == 0
    assert cli.run("verify", rec, "--key", origin_key).returncode == 0
    assert independent(rec)["ok"] and independent(rec, origin_key)["ok"]
    # imported elsewhere: foreign evidence without --key, checked with it
    p = cli.run("import", rec, "--db", str(tmp_path / "a.db"))
    assert p.returncode == 0 and "foreign evidence" in p.stderr, p.stderr
    p = cli.run("import", rec, "--key", origin_key, "--db", str(tmp_path / "b.db"))
    assert p.returncode == 0 and "checked against key" in p.stderr, p.stderr
    # a player's name changed: refused, naming the step
    forged = tmp_path / "forged.record"
    forged.write_text(text.replace('[Player1 "Ada"]', '[Player1 "Mallory"]'))
    assert forged.read_text() != text
    for extra in ([], ["--key", origin_key]):
        p = cli.run("import", forged, *extra, "--db", str(tmp_path / f"c{len(extra)}.db"))
        assert p.returncode == 1 and "does not check" in p.stderr and "the step ending at version" in p.stderr
        assert len(p.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "c0.db").exists()
    assert cli.run("verify", forged, "--key", origin_key).returncode == 1
    assert not independent(forged, origin_key)["ok"]
    # a record re-signed by another key: refused with --key, the key the record carries being a claim
    from service.app import Privateer

    other = Privateer(str(tmp_path / "forger.db"))
    fake = cli.ok("import", rec, "--db", str(tmp_path / "forger.db")).strip()
    other.close()
    resigned = tmp_path / "resigned.record"
    p = cli.run("record", fake, "--db", str(tmp_path / "forger.db"))
    resigned.write_text(p.stdout)
    p = cli.run("import", resigned, "--key", origin_key, "--db", str(tmp_path / "d.db"))
    assert p.returncode == 1 and "not by the key given" in p.stderr, p.stderr


def test_an_old_record_still_verifies_and_imports_with_the_key(cli, tmp_path):
    """The committed vector's record (format 2) was written before records carried their keys."""
    rec = VECTORS / "table-corrected.record"
    assert rec.read_text().startswith('[Record "PrivateerRecord 2"]')
    assert cli.run("verify", rec, "--key", KEY).returncode == 0
    p = cli.run("import", rec, "--db", str(tmp_path / "x.db"))
    assert p.returncode == 1 and "give its service's published key" in p.stderr, p.stderr
    p = cli.run("import", rec, "--key", KEY, "--db", str(tmp_path / "y.db"))
    assert p.returncode == 0 and "checked against key" in p.stderr, p.stderr


def test_tools_verify_checks_a_corrections_shape_as_spec_verify_does(cli, tmp_path):
    """The operator re-signs a file whose correction retracts less than it says: both verifiers
    name the Corrected event (tools verify through the audit's check_shapes)."""
    import random

    from service.app import Privateer
    from spec.make_vectors import play, rehash, resign, rows_of

    app = Privateer(str(tmp_path / "o.db"), snapshot_interval=0)
    t = app.create("letter-of-marque", 2, table=True)
    play(app, t, 14, random.Random(2))
    starts = [e.originator_version for e in app.stored_events(t) if e.type == "Decided" and e.data["seat"]]
    app.correct(t, starts[-2] - 1, "a die misread")
    play(app, t, 2, random.Random(3))
    good = tmp_path / "good.pgame"
    from service.records.history import export_game

    export_game(app, t, str(good))
    key = tmp_path / "key.hex"
    key.write_text(app.signer.public_key.hex())
    doc = unpack(good.read_bytes())
    rows = rows_of(doc)
    corrected = next(r for r in rows if r["type"] == "Corrected")
    first, last = corrected["data"]["retracted"]
    corrected["data"]["retracted"] = [first + 1, last]
    rehash(doc, t, rows, corrected["version"])
    resign(app, doc, t, rows)
    bad = tmp_path / "bad.pgame"
    bad.write_bytes(pack(doc))
    app.close()
    assert cli.run("verify", good, "--key", key).returncode == 0
    p = cli.run("verify", bad, "--key", key, "--json")
    ours = json.loads(p.stdout)["first_bad"]
    theirs = independent(bad, key)["first_bad"]
    assert p.returncode == 1 and ours["version"] == theirs["version"] == corrected["version"], (ours, theirs)
    assert "retracted range" in ours["reason"] and "retracted range" in theirs["reason"]
    p = cli.run("import", bad, "--key", key, "--db", str(tmp_path / "x.db"))
    assert p.returncode == 1 and "does not verify: event" in p.stderr, p.stderr  # the audit: the rules or the shape


def test_without_a_key_a_file_is_consistent_but_not_verified(cli):
    """A file's own keys are anyone's: `tools verify` without --key does not say ok, and says why."""
    own = cli.run("verify", VECTORS / "own-key.pgame")
    assert own.returncode == 0, own.stdout + own.stderr
    assert own.stdout.startswith("consistent, not verified:") and "give --key" in own.stdout, own.stdout
    assert not own.stdout.startswith("ok")
    said = json.loads(cli.run("verify", VECTORS / "own-key.pgame", "--json").stdout)
    assert said["ok"] and said["published_key"] is False
    # the same file against the service's published key fails: the forger's key is not the service's
    assert cli.run("verify", VECTORS / "own-key.pgame", "--key", KEY).returncode == 1
    genuine = json.loads(cli.run("verify", VECTORS / "seeded.pgame", "--key", KEY, "--json").stdout)
    assert genuine["ok"] and genuine["published_key"] is True

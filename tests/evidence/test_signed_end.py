"""Issue 43: a finished game's end is signed as such (spec/SPEC.md §4a), binding its last
head, its revealed seed (``secret``) and a fork's ``parents``. A prefix of a finished game
never passes as finished; a changed secret or parents fails; an export or record claiming
a finished game without its end fails, in `tools verify`, `tools import`, `tools audit` and
spec/verify.py alike."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from event_store.codec import pack, unpack
from service.app import Privateer
from spec.make_vectors import play

SPEC = Path(__file__).resolve().parents[2] / "spec"


def independent(path, key) -> dict:
    p = subprocess.run([sys.executable, str(SPEC / "verify.py"), str(path), "--json", "--key", str(key)],
                       capture_output=True, text=True, cwd="/")
    assert p.returncode in (0, 1), p.stderr
    return json.loads(p.stdout)


@pytest.fixture
def finished(tmp_path):
    """A finished seeded game in a store; the store's key file (hex); the store's path."""
    db = str(tmp_path / "origin.db")
    app = Privateer(db)
    gid = app.create("letter-of-marque", 2, seed=b"\x77" * 32)
    play(app, gid, 10_000, random.Random(21))
    assert app.load(gid).machine.finished
    key = tmp_path / "origin.key"
    key.write_text(app.signer.public_key.hex())
    app.close()
    return db, gid, key


def _both(cli, path, key) -> tuple[dict, dict]:
    ours = cli.run("verify", path, "--key", key, "--json")
    out = json.loads(ours.stdout)
    assert ours.returncode == (0 if out["ok"] else 1)
    return out, independent(path, key)


def test_a_finished_games_export_ends_with_its_signed_end(cli, tmp_path, finished):
    db, gid, key = finished
    export = tmp_path / "game.pgame"
    cli.ok("export", gid.hex, "-o", export, "--db", db)
    doc = unpack(export.read_bytes())
    events = doc["events"]
    assert events[-1][2] == "GameFinished" and doc["end"][0] == events[-1][0]
    ours, theirs = _both(cli, export, key)
    assert ours["ok"] and theirs["ok"]
    assert any(c.startswith("finished: its end signed") for c in ours["checked"])
    # signed when written (the same path for games finished before signed ends existed): two
    # exports carry ends that differ in time and signature only, each valid
    again = tmp_path / "again.pgame"
    cli.ok("export", gid.hex, "-o", again, "--db", db)
    other = unpack(again.read_bytes())
    assert other["end"][0] == doc["end"][0] and other["end"][2] == doc["end"][2]
    assert cli.run("verify", again, "--key", key).returncode == 0


def test_a_prefix_of_a_finished_game_never_passes_as_finished(cli, tmp_path, finished):
    db, gid, key = finished
    export = tmp_path / "game.pgame"
    cli.ok("export", gid.hex, "-o", export, "--db", db)
    doc = unpack(export.read_bytes())
    cut = sorted(s[0] for s in doc["signatures"])[-3]
    doc["events"] = doc["events"][:cut]
    doc["signatures"] = [s for s in doc["signatures"] if s[0] <= cut]
    # the end kept: it names versions the file does not hold
    truncated = tmp_path / "truncated.pgame"
    truncated.write_bytes(pack(doc))
    ours, theirs = _both(cli, truncated, key)
    assert not ours["ok"] and not theirs["ok"]
    assert ours["first_bad"]["version"] == theirs["first_bad"]["version"] == cut + 1
    assert "truncated" in ours["first_bad"]["reason"] and "truncated" in theirs["first_bad"]["reason"]
    assert cli.run("import", truncated, "--key", key, "--db", str(tmp_path / "imp.db")).returncode == 1
    # the end taken out too: a game in progress, said so, never "finished"
    del doc["end"]
    prefix = tmp_path / "prefix.pgame"
    prefix.write_bytes(pack(doc))
    ours, theirs = _both(cli, prefix, key)
    assert ours["ok"] and theirs["ok"]
    assert not any(c.startswith("finished") for c in ours["checked"] + theirs["checked"])
    assert any(c.startswith("not finished") for c in ours["checked"])


@pytest.mark.parametrize("change", ["end-missing", "secret", "end-over-other-secret"])
def test_a_finished_file_without_a_valid_end_fails_everywhere(cli, tmp_path, finished, change):
    db, gid, key = finished
    export = tmp_path / "game.pgame"
    cli.ok("export", gid.hex, "-o", export, "--db", db)
    doc = unpack(export.read_bytes())
    last = doc["events"][-1][0]
    if change == "end-missing":
        del doc["end"]
        phrase = "no signed end"
    elif change == "secret":  # another secret beside GameFinished's seed: nothing covered it before §4a
        doc["secret"] = b"\x01" * 32
        phrase = "does not check"
    else:  # the operator, holding the key, signs the end over another seed than the file's
        app = Privateer(db)
        doc["end"] = app.signer.sign_end(gid, last, doc["events"][-1][7], b"\x01" * 32, None)
        app.close()
        phrase = "does not check"
    bad = tmp_path / "bad.pgame"
    bad.write_bytes(pack(doc))
    ours, theirs = _both(cli, bad, key)
    assert not ours["ok"] and not theirs["ok"], (ours, theirs)
    assert ours["first_bad"]["version"] == theirs["first_bad"]["version"] == last
    assert phrase in ours["first_bad"]["reason"] and phrase in theirs["first_bad"]["reason"]
    p = cli.run("import", bad, "--key", key, "--db", str(tmp_path / "imp.db"))
    assert p.returncode == 1, p.stderr


def test_an_imported_game_keeps_its_files_end_and_audits_it(cli, tmp_path, finished):
    db, gid, key = finished
    export = tmp_path / "game.pgame"
    cli.ok("export", gid.hex, "-o", export, "--db", db)
    other = str(tmp_path / "other.db")
    cli.ok("import", export, "--key", key, "--db", other)
    audit = json.loads(cli.ok("audit", gid.hex, "--json", "--db", other))
    assert audit["ok"] and any("signed end" in n for n in audit["notes"])
    again = tmp_path / "again.pgame"
    cli.ok("export", gid.hex, "-o", again, "--db", other)
    assert unpack(again.read_bytes())["end"] == unpack(export.read_bytes())["end"]  # the file's, not re-signed
    assert cli.run("verify", again, "--key", key).returncode == 0
    # the kept end no longer matching the stored secret: the audit names the last event
    import sqlite3

    conn = sqlite3.connect(other)
    conn.execute("UPDATE privateer_ends SET signature = ?", ("00" * 64,))
    conn.commit()
    conn.close()
    p = cli.run("audit", gid.hex, "--json", "--db", other)
    assert p.returncode == 1
    assert "signed end" in json.loads(p.stdout)["first_bad"]["reason"]


def test_a_finished_games_record_ends_with_its_signed_end(cli, tmp_path, finished):
    db, gid, key = finished
    text = cli.ok("record", gid.hex, "--db", db)
    lines = text.splitlines(keepends=True)
    assert lines[-1].startswith("end ") and lines[-2].startswith("sign ")
    assert lines[-1].split()[1:3] == lines[-2].split()[1:3]
    rec = tmp_path / "game.record"
    rec.write_text(text)
    ours, theirs = _both(cli, rec, key)
    assert ours["ok"] and theirs["ok"]
    # cut after an earlier sign line: its Result tag still says finished, the end is missing
    signs = [i for i, line in enumerate(lines) if line.startswith("sign ")]
    cut = tmp_path / "cut.record"
    cut.write_text("".join(lines[:signs[-3] + 1]))
    ours, theirs = _both(cli, cut, key)
    assert not ours["ok"] and not theirs["ok"]
    assert ours["first_bad"]["version"] == theirs["first_bad"]["version"] == int(lines[signs[-3]].split()[1])
    assert "no signed end" in ours["first_bad"]["reason"] and "no signed end" in theirs["first_bad"]["reason"]
    assert cli.run("import", cut, "--key", key, "--db", str(tmp_path / "imp.db")).returncode == 1
    assert cli.ok("import", rec, "--key", key, "--db", str(tmp_path / "ok.db"))

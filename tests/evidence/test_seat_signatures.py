"""Seats sign their own decisions (spec/SPEC.md §6a): the signing rule, a terminal seat's
key file (`tools seat-key`, `tools act --seat-key`), the export's check by `tools verify`,
`tools import` and spec/verify.py, and the operator's forgery they name."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from event_store.signing import SeatKeyFile, decision_message
from service.app import Privateer
from service.records.audit import audit_game
from service.records.history import fork
from service.kernel.errors import IllegalDecision
from service.seat_client import sign_as_seat
from service.seat_keys import NotSigned

from .forgery import operator_rewrite

VERIFY = Path(__file__).resolve().parents[2] / "spec" / "verify.py"


def _play(app: Privateer, gid, steps: int, key_path: str, signer: int, rng: random.Random) -> list[int]:
    """``steps`` decisions, seat ``signer``'s signed with its key file; the versions of its Decided events."""
    mine = []
    for _ in range(steps):
        m = app.load(gid).machine
        if m.finished:
            break
        seat = m.to_act()[0]
        d = rng.choice(m.legal(seat))
        sig = sign_as_seat(app, gid, seat, d, key_path) if seat == signer else None
        app.act(gid, seat, d, signature=sig)
        if seat == signer:
            mine.append(next(e.originator_version for e in reversed(app.stored_events(gid)) if e.type == "Decided"))
    return mine


@pytest.fixture
def signed_game(tmp_path):
    db = str(tmp_path / "store.db")
    key_path = str(tmp_path / "seat1.key")
    app = Privateer(db)
    gid = app.create("letter-of-marque", 2, seed=b"\x05" * 32)
    mine = _play(app, gid, 12, key_path, 1, random.Random(3)) if SeatKeyFile(key_path).make() else []
    return db, app, gid, key_path, mine


def _spec_verify(path: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(VERIFY), path, *args, "--json"], capture_output=True, text=True)


def test_the_seat_key_file_is_the_owners_alone_and_made_once(tmp_path, cli) -> None:
    path = str(tmp_path / "mine.key")
    said = json.loads(cli.ok("seat-key", path, "--json"))
    assert os.stat(path).st_mode & 0o777 == 0o600
    private, public = SeatKeyFile(path).read()
    assert said["public_key"] == public.hex() and len(private) == 32
    assert cli.run("seat-key", path).returncode != 0  # never overwritten
    os.chmod(path, 0o644)
    with pytest.raises(Exception, match="readable by others"):
        SeatKeyFile(path).read()


def test_a_seat_with_a_key_decides_only_signed_by_it(signed_game) -> None:
    db, app, gid, key_path, mine = signed_game
    assert mine, "seat 1 decided"
    m = app.load(gid).machine
    seat = m.to_act()[0]
    if seat != 1:  # let seat 2 play until seat 1 acts
        app.act(gid, seat, m.legal(seat)[0])
        m = app.load(gid).machine
    d = m.legal(1)[0]
    version = m.seen(1, app.load(gid).version)
    stranger = Ed25519PrivateKey.generate()
    wrong = stranger.sign(decision_message(gid.bytes, 1, version, d)).hex()
    stale = Ed25519PrivateKey.from_private_bytes(SeatKeyFile(key_path).read()[0]).sign(
        decision_message(gid.bytes, 1, version - 1, d)).hex()
    head = app.stored_events(gid)[-1].hash
    for sig in (None, wrong, stale):
        with pytest.raises(NotSigned, match="seat 1"):
            app.act(gid, 1, d, signature=sig)
    assert app.stored_events(gid)[-1].hash == head  # nothing appended
    with pytest.raises(IllegalDecision, match="handover"):  # another key only with the old one's (test_seat_handover)
        app.register_seat_key(gid, 1, "11" * 32)
    app.act(gid, 1, d, signature=sign_as_seat(app, gid, 1, d, key_path))
    assert audit_game(app, gid).ok


def test_the_export_verifies_each_seat_signature_and_the_operators_forgery_is_named(signed_game, cli,
                                                                                     tmp_path) -> None:
    db, app, gid, key_path, mine = signed_game
    good = str(tmp_path / "good.pgame")
    cli.ok("export", gid.hex, "-o", good, "--db", db)
    public = json.loads(cli.ok("key", "--json", "--db", db))["public_key"]
    said = cli.ok("verify", good, "--key", public)
    assert f"{len(mine)} decisions signed by their seats" in said
    spec = _spec_verify(good, "--key", public)
    assert spec.returncode == 0, spec.stdout + spec.stderr
    assert f"{len(mine)} decisions signed by their seats" in spec.stdout
    # the operator writes another decision in seat 1's name and re-signs every head with the service's key
    target = mine[1]
    before = app.load(gid, version=target - 1).machine
    made = app.stored_events(gid)[target - 1].data["decision"]
    instead = next(d for d in before.legal(1) if d != made)
    app.close()
    operator_rewrite(db, gid, target, lambda data: data.__setitem__("decision", instead))
    forged = str(tmp_path / "forged.pgame")
    cli.ok("export", gid.hex, "-o", forged, "--db", db)
    p = cli.run("verify", forged, "--key", public, "--json")
    assert p.returncode == 1, p.stdout + p.stderr
    bad = json.loads(p.stdout)["first_bad"]
    assert bad["version"] == target and "not signed by seat 1" in bad["reason"], bad
    spec = _spec_verify(forged, "--key", public)
    assert spec.returncode == 1 and json.loads(spec.stdout)["first_bad"]["version"] == target, spec.stdout
    assert "not signed by seat 1" in json.loads(spec.stdout)["first_bad"]["reason"]
    # a second store refuses to import it, naming the step
    other = str(tmp_path / "other.db")
    p = cli.run("import", forged, "--db", other, "--key", public)
    assert p.returncode == 1 and "not signed by seat 1" in p.stdout + p.stderr, p.stdout + p.stderr
    # the good file imports and verifies there
    cli.ok("import", good, "--db", other, "--key", public)


def test_a_fork_keeps_the_seats_signatures_of_what_it_inherits(signed_game, cli, tmp_path) -> None:
    db, app, gid, key_path, mine = signed_game
    child = fork(app, gid, at_event=mine[-1] - 1)
    grandchild = fork(app, child, at_event=mine[-1] - 1)
    for g in (child, grandchild):
        assert audit_game(app, g).ok, audit_game(app, g).first_bad
    # a seat of the fork signs for the fork's own id
    m = app.load(grandchild).machine
    if not m.finished and m.to_act():
        seat = m.to_act()[0]
        d = m.legal(seat)[0]
        app.act(grandchild, seat, d, signature=sign_as_seat(app, grandchild, seat, d, key_path) if seat == 1 else None)
    path = str(tmp_path / "grandchild.pgame")
    cli.ok("export", grandchild.hex, "-o", path, "--db", db)
    assert cli.run("verify", path).returncode == 0
    spec = _spec_verify(path)
    assert spec.returncode == 0, spec.stdout


def test_the_cli_act_registers_and_signs(cli, db, tmp_path) -> None:
    key_path = str(tmp_path / "seat.key")
    cli.ok("seat-key", key_path)
    app = Privateer(db)
    gid = app.create("letter-of-marque", 2, seed=b"\x09" * 32)
    m = app.load(gid).machine
    seat = m.to_act()[0]
    app.close()
    cli.ok("act", gid.hex, "--seat", str(seat), "--seat-key", key_path, "1")
    app = Privateer(db)
    decided = [e for e in app.stored_events(gid) if e.type == "Decided" and e.data["seat"] == seat]
    assert len(decided[-1].data["signature"]) == 128
    assert any(e.type == "SeatKeyRegistered" for e in app.stored_events(gid))
    assert audit_game(app, gid).ok
    app.close()
    # unsigned now: refused (exit 3), nothing appended
    p = cli.run("act", gid.hex, "--seat", str(seat), "1")
    assert p.returncode in (3, 4), p.stderr  # refused unsigned (or not its turn)

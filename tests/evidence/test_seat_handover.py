"""A seat key on a new device (spec/SPEC.md §6a): a seat that registered a key registers
another only with a handover signed by its old key; without it (or with anyone else's) the
second registration is refused, and a verifier names a stored one that lacks it."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from event_store.signing import SeatKeyFile, seat_key_message, sign
from service.app import Privateer
from service.records.audit import audit_game
from service.kernel.errors import IllegalDecision
from service.seat_client import sign_as_seat
from service.seat_keys import NotSigned

from .forgery import operator_rewrite

VERIFY = Path(__file__).resolve().parents[2] / "spec" / "verify.py"


def _keys(tmp_path, *names):
    out = []
    for n in names:
        SeatKeyFile(str(tmp_path / n)).make()
        out.append(str(tmp_path / n))
    return out


def _play(app, gid, steps, key_path, rng):
    for _ in range(steps):
        m = app.load(gid).machine
        if m.finished:
            return
        seat = m.to_act()[0]
        d = rng.choice(m.legal(seat))
        app.act(gid, seat, d, signature=sign_as_seat(app, gid, seat, d, key_path) if seat == 1 else None)


@pytest.fixture
def moved(tmp_path):
    """Seat 1 played from one key file, then moved to another with the old one's handover."""
    db = str(tmp_path / "store.db")
    old, new, stranger = _keys(tmp_path, "old.key", "new.key", "stranger.key")
    app = Privateer(db)
    gid = app.create("letter-of-marque", 2, seed=b"\x21" * 32)
    _play(app, gid, 6, old, random.Random(1))
    return db, app, gid, old, new, stranger


def test_a_second_key_needs_the_old_keys_handover(moved) -> None:
    db, app, gid, old, new, stranger = moved
    old_private, old_public = SeatKeyFile(old).read()
    _, new_public = SeatKeyFile(new).read()
    stranger_private, _ = SeatKeyFile(stranger).read()
    version = app.load(gid).version
    with pytest.raises(IllegalDecision, match="handover"):
        app.register_seat_key(gid, 1, new_public.hex())
    for forger in (stranger_private, old_private):  # anyone else's signature; the old key's over another seat
        seat = 1 if forger is stranger_private else 2
        bad = sign(forger, seat_key_message(gid.bytes, seat, old_public, new_public)).hex()
        with pytest.raises(NotSigned):
            app.register_seat_key(gid, 1, new_public.hex(), bad)
    assert app.load(gid).version == version
    handover = sign(old_private, seat_key_message(gid.bytes, 1, old_public, new_public)).hex()
    app.register_seat_key(gid, 1, new_public.hex(), handover)
    event = app.stored_events(gid)[-1]
    assert event.type == "SeatKeyRegistered" and event.visible_to == "all"
    assert event.data == {"seat": 1, "key": new_public.hex(), "handover": handover}
    # from here the new key signs; the old one no more
    m = app.load(gid).machine
    while m.to_act()[0] != 1:
        app.act(gid, m.to_act()[0], m.legal(m.to_act()[0])[0])
        m = app.load(gid).machine
    d = m.legal(1)[0]
    with pytest.raises(NotSigned):
        app.act(gid, 1, d, signature=sign(old_private, b"x").hex())
    with pytest.raises(NotSigned):  # the old key file: refused, its key is not the seat's now
        sign_as_seat(app, gid, 1, d, old)
    app.act(gid, 1, d, signature=sign_as_seat(app, gid, 1, d, new))
    assert audit_game(app, gid).ok, audit_game(app, gid).first_bad


def test_the_cli_moves_a_seat_to_a_new_key_file(moved, cli) -> None:
    db, app, gid, old, new, stranger = moved
    m = app.load(gid).machine
    while m.to_act()[0] != 1:
        app.act(gid, m.to_act()[0], m.legal(m.to_act()[0])[0])
        m = app.load(gid).machine
    app.close()
    p = cli.run("act", gid.hex, "--seat", "1", "--seat-key", new, "1", "--db", db)
    assert p.returncode == 3 and "previous-seat-key" in p.stdout + p.stderr, p.stdout + p.stderr
    p = cli.run("act", gid.hex, "--seat", "1", "--seat-key", new, "--previous-seat-key", stranger, "1", "--db", db)
    assert p.returncode == 3, p.stdout + p.stderr
    cli.ok("act", gid.hex, "--seat", "1", "--seat-key", new, "--previous-seat-key", old, "1", "--db", db)
    app = Privateer(db)
    keys = [e.data for e in app.stored_events(gid) if e.type == "SeatKeyRegistered"]
    assert len(keys) == 2 and "handover" in keys[1]
    assert audit_game(app, gid).ok
    app.close()


def test_a_verifier_names_a_second_key_without_its_handover(moved, cli, tmp_path) -> None:
    db, app, gid, old, new, stranger = moved
    old_private, old_public = SeatKeyFile(old).read()
    _, new_public = SeatKeyFile(new).read()
    _, stranger_public = SeatKeyFile(stranger).read()
    app.register_seat_key(gid, 1, new_public.hex(),
                          sign(old_private, seat_key_message(gid.bytes, 1, old_public, new_public)).hex())
    _play(app, gid, 4, new, random.Random(2))
    target = next(e.originator_version for e in app.stored_events(gid)
                  if e.type == "SeatKeyRegistered" and e.data.get("handover"))
    public = json.loads(cli.ok("key", "--json", "--db", db))["public_key"]
    good = str(tmp_path / "good.pgame")
    cli.ok("export", gid.hex, "-o", good, "--db", db)
    assert cli.run("verify", good, "--key", public).returncode == 0
    app.close()
    # the operator gives the seat a key of its own, keeping the old key's handover of another key
    operator_rewrite(db, gid, target, lambda data: data.__setitem__("key", stranger_public.hex()))
    forged = str(tmp_path / "forged.pgame")
    cli.ok("export", gid.hex, "-o", forged, "--db", db)
    p = cli.run("verify", forged, "--key", public, "--json")
    bad = json.loads(p.stdout)["first_bad"]
    assert p.returncode == 1 and bad["version"] == target and "handover" in bad["reason"], bad
    spec = subprocess.run([sys.executable, str(VERIFY), forged, "--key", public, "--json"], capture_output=True,
                          text=True)
    first = json.loads(spec.stdout)["first_bad"]
    assert spec.returncode == 1 and first["version"] == target and "handover" in first["reason"], first

"""The service's key and its signed heads, on both backends: the key is made on
first use and kept in the store, every step's head is signed in the step's own
transaction (a refused or stale step writes none), and a rotated key's
signatures still check."""

from __future__ import annotations

import json
import random

import pytest

from event_store.signing import fingerprint, head_message, verify
from service.kernel.errors import StaleVersion


def _play(app, gid, steps, rng):
    for _ in range(steps):
        g = app.load(gid)
        m = g.machine
        if m.finished:
            return
        seat = m.to_act()[0]
        app.act(gid, seat, rng.choice(m.legal(seat)))


def _checked(app, gid) -> list[int]:
    """The versions whose signed head checks against the store's keys and the game's own chain."""
    hashes = {e.originator_version: e.hash for e in app.stored_events(gid)}
    keys = {k["fingerprint"]: bytes.fromhex(k["public_key"]) for k in app.signer.describe()}
    out = []
    for r in app.recorder.select_signatures(gid.hex):
        assert r["head"] == hashes[r["version"]].hex()
        msg = head_message(gid.bytes, r["version"], hashes[r["version"]], r["signed"], r["fingerprint"])
        assert verify(keys[r["fingerprint"]], bytes.fromhex(r["signature"]), msg), r
        out.append(r["version"])
    return out


def test_every_step_is_signed_with_the_key_made_on_first_use(store):
    app = store.app()
    gid = app.create("loot", 3)
    _play(app, gid, 12, random.Random(1))
    signed = _checked(app, gid)
    assert len(signed) == 13 and signed[-1] == app.load(gid).version  # creation + 12 decisions, each its head
    starts = [e.originator_version - 1 for e in app.stored_events(gid) if e.type == "Decided" and e.data["seat"]]
    assert set(starts) <= set(signed)  # every step's end is signed
    again = store.app()  # another process: the same key, read from the store
    assert again.signer.describe() == app.signer.describe()
    assert len(again.signer.describe()) == 1 and fingerprint(again.signer.public_key) == again.signer.fingerprint
    keyed = store.cli("key", "--json")
    assert json.loads(keyed.stdout)["fingerprint"] == app.signer.fingerprint


def test_a_stale_step_writes_no_signature(store):
    app = store.app()
    gid = app.create("letter-of-marque", 2)
    before = len(app.recorder.select_signatures(gid.hex))
    m = app.load(gid).machine
    seat = m.to_act()[0]
    with pytest.raises(StaleVersion):
        app.act(gid, seat, m.legal(seat)[0], expect_version=1)
    assert len(app.recorder.select_signatures(gid.hex)) == before


def test_a_rotated_key_still_checks_what_it_signed(store):
    app = store.app()
    gid = app.create("loot", 2)
    _play(app, gid, 3, random.Random(2))
    old = app.signer.fingerprint
    rotated = json.loads(store.cli("key", "--rotate", "--json").stdout)
    assert rotated["fingerprint"] != old
    assert [k["fingerprint"] for k in rotated["keys"]] == [old, rotated["fingerprint"]]
    assert rotated["keys"][0]["retired"] and not rotated["keys"][1]["retired"]
    later = store.app()
    _play(later, gid, 3, random.Random(3))
    signers = [r["fingerprint"] for r in later.recorder.select_signatures(gid.hex)]
    assert signers[:4] == [old] * 4 and signers[4:] == [rotated["fingerprint"]] * 3
    assert len(_checked(later, gid)) == 7

"""Issue 43, a rotation racing a step's signature: a step's head is signed by a key
whose life holds the signature's time, however a rotation (in another process
sharing the store and its key file) interleaves with the step. Each interleaving
is forced deterministically, by running the other side inside a hook of the first
(no sleeps, no threads)."""

from __future__ import annotations

import random
import uuid
from datetime import datetime

import pytest

from event_store import signing
from service.app import Privateer
from spec.make_vectors import play
from tests import needs


def _in_life(app: Privateer, gid) -> list[str]:
    """Each signed head of ``gid`` whose time is outside its key's life (empty: all within)."""
    life = {k["fingerprint"]: (k["from"], k["until"]) for k in app.signer.describe()}
    bad = []
    for s in app.recorder.select_signatures(gid.hex):
        start, until = life[s["fingerprint"]]
        t = datetime.fromisoformat(s["signed"])
        if t < datetime.fromisoformat(start) or (until and t > datetime.fromisoformat(until)):
            bad.append(f"version {s['version']} signed at {s['signed']} by {s['fingerprint'][:8]} "
                       f"(life {start} to {until})")
    return bad


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request, tmp_path, monkeypatch):
    """The store's URL (an SQLite file, or a schema of the test PostgreSQL server) and its key file."""
    monkeypatch.setenv("PRIVATEER_KEY_FILE", str(tmp_path / "service.key"))
    if request.param == "sqlite":
        yield str(tmp_path / "store.db")
        return
    request.getfixturevalue("postgresql")
    schema = f"race_{uuid.uuid4().hex[:10]}"
    try:
        yield needs.schema_url(schema)
    finally:
        needs.drop_schema(schema)


def _two(db):
    player = Privateer(db, snapshot_interval=0)
    gid = player.create("loot", 2, seed=b"\x61" * 32)
    play(player, gid, 3, random.Random(5))
    return db, player, Privateer(db, snapshot_interval=0), gid  # the rotator: another process, same files


def test_a_rotation_between_the_steps_key_choice_and_its_signing_time(store, monkeypatch):
    """The step reads the signing key, then the other process rotates, then the step takes
    its time: the old key, retired now, must not sign at that time."""
    db, player, rotator, gid = _two(store)
    real_now = signing.now
    fired = []

    def now_after_rotation() -> str:
        if not fired and player.signer.fingerprint:  # the step's signer has chosen its key
            fired.append(1)
            monkeypatch.setattr(signing, "now", real_now)
            rotator.signer.rotate()
        return real_now()

    player.signer._active()
    monkeypatch.setattr(signing, "now", now_after_rotation)
    play(player, gid, 1, random.Random(6))
    assert fired
    assert _in_life(player, gid) == []
    player.close()
    rotator.close()


def test_a_rotation_dated_before_a_step_but_stored_after_it(store, monkeypatch):
    """The other process dates its rotation, then the step is signed and committed, then the
    rotation is stored: the rotation may not end the old key's life before that signature."""
    db, player, rotator, gid = _two(store)
    real_insert = rotator.recorder.insert_service_rows
    fired = []

    def step_then_insert(**rows):
        if "rotations" in rows and not fired:
            fired.append(1)
            play(player, gid, 1, random.Random(7))  # the step, signed with the old key after the rotation's time
        return real_insert(**rows)

    monkeypatch.setattr(rotator.recorder, "insert_service_rows", step_then_insert)
    rotator.signer.rotate()
    assert fired
    play(player, gid, 1, random.Random(8))  # and one more, with the new key
    assert _in_life(player, gid) == []
    player.close()
    rotator.close()


def test_a_receipt_is_signed_with_its_head_and_again_with_it(store):
    """A seat's receipt is signed with its step's head (one key, one time: ``Signer.step``),
    from the key the process last read. Another process rotates after that read: the step
    is signed by the retired key after its retirement, its transaction refuses the head, the
    step is signed again, and its receipt with it, in the answer kept for a retry too; the
    receipt checks against the published history, within its key's life."""
    import json

    from service.records.keys import history_keys
    from service.records.receipts import receipt_signed

    db, player, rotator, gid = _two(store)
    game = player.load(gid)
    m = game.machine
    while m.awaiting_chance() is not None or not m.to_act():
        play(player, gid, 1, random.Random(9))
        game = player.load(gid)
        m = game.machine
    seat = m.to_act()[0]
    game.record(m.decide(seat, m.legal(seat)[0], player.chance_for(game)))
    player.signer._active()  # the keys as this process last read them
    rotator.signer.rotate()
    prepared = player.prepare(game, receipt=seat)
    first = dict(prepared.receipt)
    assert (first["fingerprint"], first["time"]) == (prepared.head[4], prepared.head[3])
    prepared.kwargs["idempotency"] = (gid.hex, "seat:1", "race-key", "fp", 201, json.dumps({"receipt": first}))
    player.write(prepared)
    again = prepared.receipt
    assert again["fingerprint"] != first["fingerprint"] and again["fingerprint"] == prepared.head[4]
    assert again["time"] == prepared.head[3]
    kept = player.recorder.select_idempotency(gid.hex, "seat:1", "race-key")
    assert json.loads(kept["body"])["receipt"] == again
    history = history_keys(rotator.signer.history(), "tools key --json")
    assert receipt_signed(gid.hex, again, {}, history) is None
    assert "retirement" in (receipt_signed(gid.hex, first, {}, history) or "")
    assert _in_life(player, gid) == []
    player.close()
    rotator.close()

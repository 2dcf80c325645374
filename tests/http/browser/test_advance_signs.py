"""``pw.advance``, which plays a browser test's game on in its store, decides as the seats would:
a seat that registered a key is played only signed by it (its key given), and a seat whose key the
test does not hold (a browser's) is refused, never written unsigned in its name (issue 43)."""

from __future__ import annotations

import pytest

from event_store.signing import SeatKeyFile
from service.app import Privateer
from service.records.audit import audit_game

from .pw import advance


def test_advance_signs_as_a_keyed_seat_and_refuses_one_it_cannot_sign_for(tmp_path) -> None:
    db = str(tmp_path / "store.db")
    SeatKeyFile(str(tmp_path / "seat1.key")).make()
    private, public = SeatKeyFile(str(tmp_path / "seat1.key")).read()
    app = Privateer(db)
    gid = app.create("letter-of-marque", 2, seed=b"\x31" * 32)
    app.register_seat_key(gid, 1, public.hex())
    app.close()
    advance(db, gid.hex, lambda m: m.k["steps"] >= 12, seed=1, keys={1: private})
    app = Privateer(db)
    seat1 = [e for e in app.stored_events(gid) if e.type == "Decided" and e.data["seat"] == 1]
    assert seat1 and all(len(e.data["signature"]) == 128 for e in seat1)
    assert audit_game(app, gid).ok, audit_game(app, gid).first_bad
    version = app.load(gid).version
    app.close()
    with pytest.raises(AssertionError, match="seat 1 signs its own decisions"):
        advance(db, gid.hex, lambda m: m.k["steps"] >= 40, seed=2)
    app = Privateer(db)
    assert all(e.data.get("signature") for e in app.stored_events(gid)[version:]
               if e.type == "Decided" and e.data["seat"] == 1)
    app.close()

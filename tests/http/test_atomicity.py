"""The idempotency record and a seat's credential are written in the events'
transaction: when either cannot be written, no event is appended (so a retry
after a crash finds both or neither). Real SQLite files and the real PostgreSQL."""

import uuid
from uuid import UUID

import pytest

from service.app import Privateer
from service.http.auth import Caller
from service.http.core import GameService
from service.kernel.errors import StaleVersion
from service.kernel.machine import Ev

from ..needs import drop_schema, schema_url


@pytest.fixture(params=["sqlite", "postgres"])
def svc(request, tmp_path):
    if request.param == "sqlite":
        yield GameService(Privateer(str(tmp_path / "a.db")), "org")
        return
    request.getfixturevalue("postgresql")
    schema = f"http_atom_{uuid.uuid4().hex[:10]}"
    yield GameService(Privateer(schema_url(schema)), "org")
    drop_schema(schema)


def events(svc, gid):
    return len(svc.app.stored_events(gid))


def test_an_idempotency_row_that_cannot_be_written_appends_nothing(svc):
    gid = UUID(svc.games.create({"game": "letter-of-marque", "seats": 2})["game_id"])
    before = events(svc, gid)
    seat1 = Caller("seat", 1)
    # a record for this key is already there (as if written by a request that won)
    game = svc.current.working_copy(gid)
    game.record(game.machine.decide(1, {"action": "place", "armed": True}, svc.app.chance_for(game)))
    svc.steps.save(game, idempotency=(gid.hex, seat1.scope, "k", "fp", 201, "{}"))
    after_first = events(svc, gid)
    assert after_first > before
    # another append carrying the same key: its events must not be stored
    game = svc.current.working_copy(gid)
    game.record(game.machine.decide(2, {"action": "place", "armed": True}, svc.app.chance_for(game)))
    with pytest.raises(StaleVersion):
        svc.steps.save(game, idempotency=(gid.hex, seat1.scope, "k", "fp2", 201, "{}"))
    assert events(svc, gid) == after_first
    assert svc.app.recorder.select_idempotency(gid.hex, seat1.scope, "k")["fingerprint"] == "fp"


def test_a_taken_seat_appends_no_entropy(svc):
    gid = UUID(svc.games.create({"game": "letter-of-marque", "seats": 2, "wait_for_seats": True})["game_id"])
    svc.app.recorder.insert_credential(gid.hex, "seat:1", "h", "now")
    game = svc.current.working_copy(gid)
    ev = Ev("EntropyAdded", 0, "all", {"seat": 1, "entropy": "ab"})
    game.machine.apply(ev)
    game.record([ev])
    with pytest.raises(StaleVersion):
        svc.steps.save(game, credential=(gid.hex, "seat:1", "h2", "now"))
    assert events(svc, gid) == 1
    assert svc.app.recorder.select_role(gid.hex, "h") == "seat:1"


def test_a_used_invitation_takes_no_seat_and_appends_nothing(svc):
    from eventsourcing.persistence import IntegrityError

    gid = UUID(svc.games.create({"game": "letter-of-marque", "seats": 3, "wait_for_seats": True})["game_id"])
    rec = svc.app.recorder
    rec.insert_service_rows(invitation=(gid.hex, "code-hash", 1, "Ada", "now"))
    rec.insert_credential(gid.hex, "seat:1", "h1", "now", invitation_use=(gid.hex, "code-hash", "seat:1", "now"))
    assert rec.select_invitation(gid.hex, "code-hash")["used"] == "now"
    # the same code again, for a free seat, alone: no credential
    with pytest.raises(IntegrityError):
        rec.insert_credential(gid.hex, "seat:2", "h2", "now", invitation_use=(gid.hex, "code-hash", "seat:2", "t"))
    # and with an entropy event: neither the event nor the credential
    game = svc.current.working_copy(gid)
    ev = Ev("EntropyAdded", 0, "all", {"seat": 3, "entropy": "ab"})
    game.machine.apply(ev)
    game.record([ev])
    with pytest.raises(StaleVersion):
        svc.steps.save(game, credential=(gid.hex, "seat:3", "h3", "now"), invitation_use=(gid.hex, "code-hash", "seat:3", "t"))
    assert events(svc, gid) == 1
    assert sorted(rec.select_roles(gid.hex)) == ["referee", "seat:1"]

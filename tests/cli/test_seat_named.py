"""``SeatNamed``: a seat's name appended on its own, at creation or later, even
while a table step awaits an outcome; the fold, the seats' numbering, the audit,
a correction, a fork and the record all take it, and a game without it replays
as before."""

from __future__ import annotations

from service.app import Privateer
from service.records.audit import audit_game
from service.records.history import fork
from service.kernel.errors import BadInput
from service.kernel.machine import Ev, Machine
from service.kernel.rules import catalog_digest
from service.kernel.games import get_rules
from service.records.text import write_record
from service.records.text_import import import_record

import pytest


def fresh_fold(app, gid):
    stored = app.stored_events(gid)
    m = Machine(get_rules(stored[0].data["game"]), Ev("GameCreated", 0, "all", stored[0].data))
    for e in stored:
        m.apply(Ev(e.type, e.turn, e.visible_to, e.data))
    return m


def record_of(app, gid):
    stored = app.stored_events(gid)
    created = stored[0].data
    return write_record(stored, None, catalog_digest(get_rules(created["game"]).catalog(created["options"])))


def test_a_seat_named_while_a_table_step_awaits_an_outcome(tmp_path):
    app = Privateer(str(tmp_path / "n.db"))
    gid = app.create("letter-of-marque", 2, table=True, players={"1": "Ada"})
    stored = app.stored_events(gid)
    assert [e.type for e in stored[:3]] == ["GameCreated", "SeatNamed", "Decided"]  # named at creation
    app.enter_chance(gid, 4)  # the deal awaits a second treasure now
    game = app.load(gid)
    assert game.machine.awaiting_chance() is not None
    with pytest.raises(BadInput, match="only one seat"):
        app.name_seat(game, 2, "Ada")
    game.record(app.name_seat(game, 2, "Bo"))
    app.save_game(game)
    assert app.name_seat(app.load(gid), 2, "Cy") == []  # the first name stands
    game = app.load(gid)
    game.record(game.machine.enter_chance(3))  # the step re-run from the state before it
    app.save_game(game)
    assert game.machine.k["seen"] == fresh_fold(app, gid).k["seen"]  # which counts the name too
    app.act(gid, 1, {"action": "place", "armed": True})
    app.act(gid, 2, {"action": "place", "armed": False})
    m = app.load(gid).machine
    assert m.config["players"] == {"1": "Ada", "2": "Bo"}
    assert m.k["seen"] == fresh_fold(app, gid).k["seen"]  # each seat's numbering counts the name once
    assert audit_game(app, gid).ok
    # a correction takes back steps, never a name
    at = app.load(gid).version
    app.act(gid, app.load(gid).machine.to_act()[0], {"action": "launch"})
    app.enter_chance(gid, 5)
    game = app.load(gid)
    game.record(app.name_seat(game, 2, "Bo"))  # already named: nothing
    app.correct(gid, at, "misread")
    assert app.load(gid).machine.config["players"] == {"1": "Ada", "2": "Bo"}
    assert audit_game(app, gid).ok
    # the record replays the names where they were given
    copy = import_record(app, record_of(app, gid))
    want = [(e.type, e.turn, e.visible_to, e.data) for e in app.stored_events(gid)]
    assert [(e.type, e.turn, e.visible_to, e.data) for e in app.stored_events(copy)] == want
    # a fork cut just before a name keeps the names before it
    seeded = app.create("loot", 3)
    game = app.load(seeded)
    game.record(app.name_seat(game, 3, "Di"))
    app.save_game(game)
    child = fork(app, seeded, at_event=app.load(seeded).version - 1)
    assert app.load(child).machine.config["players"] == {}
    child = fork(app, seeded, at_event=app.load(seeded).version)
    assert app.load(child).machine.config["players"] == {"3": "Di"}
    assert audit_game(app, child).ok

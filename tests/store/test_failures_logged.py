"""A failure while loading, snapshotting or projecting a game is not swallowed:
either the caller sees it, or the fallback is taken and the log names the
failure and the game (service/logs.py)."""

from __future__ import annotations

import logging

import pytest

from service.aggregate import Game
from service.app import Privateer
from service.projections import catch_up, open_view

from .helpers import play, state_bytes


class Boom(RuntimeError):
    pass


def boom(*_a, **_kw):
    raise Boom("injected")


def logged(caplog, logger: str, gid) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == logger and getattr(r, "game_id", None) == gid.hex]


@pytest.fixture
def caplog(caplog):
    caplog.set_level(logging.DEBUG, logger="service")
    return caplog


def test_a_load_that_fails_falls_back_along_the_line_and_says_so(tmp_path, caplog, monkeypatch):
    db = str(tmp_path / "s.db")
    [gid] = play(Privateer(db, snapshot_interval=0), game="loot", seats=3, seed="load")
    expected = Privateer(db, snapshot_interval=0).load(gid)
    monkeypatch.setattr("service.app.project_game", boom)  # a bug in the fold, say
    got = Privateer(db, snapshot_interval=0).load(gid)
    assert state_bytes(got.machine) == state_bytes(expected.machine)  # the fallback was taken
    [warning] = [r for r in logged(caplog, "service.app", gid) if r.levelno == logging.WARNING]
    assert "Boom" in warning.getMessage() and warning.exc_info[0] is Boom


def test_a_load_whose_fallback_fails_too_raises_with_the_first_failure(tmp_path, caplog, monkeypatch):
    db = str(tmp_path / "s.db")
    [gid] = play(Privateer(db, snapshot_interval=0), game="loot", seats=3, seed="load2")
    monkeypatch.setattr("service.app.project_game", boom)
    monkeypatch.setattr(Game, "along_line", classmethod(lambda cls, events: boom()))
    with pytest.raises(Boom) as raised:
        Privateer(db, snapshot_interval=0).load(gid)
    assert isinstance(raised.value.__cause__, Boom)  # the first failure is its cause
    assert logged(caplog, "service.app", gid)


def test_a_snapshot_that_fails_is_logged_and_the_game_goes_on(tmp_path, caplog, monkeypatch):
    db = str(tmp_path / "s.db")
    monkeypatch.setattr(Game.Snapshot, "take", classmethod(lambda cls, game: boom()))
    app = Privateer(db, snapshot_interval=10)
    [gid] = play(app, game="loot", seats=3, seed="snap")
    assert app.fold(gid)[0].finished  # played to its end all the same
    errors = [r for r in logged(caplog, "service.app", gid) if r.levelno == logging.ERROR]
    assert errors and all(r.exc_info[0] is Boom for r in errors)
    assert "snapshot" in errors[0].getMessage()
    assert not list(app.snapshots.get(gid))  # none stored


def test_a_snapshot_that_cannot_be_read_is_logged_and_the_events_replayed(tmp_path, caplog, monkeypatch):
    db = str(tmp_path / "s.db")
    app = Privateer(db, snapshot_interval=10)
    [gid] = play(app, game="loot", seats=3, seed="snapread")
    expected = app.fold(gid, to_event=100)
    monkeypatch.setattr("service.snapshots.machine_from", boom)
    got = app.fold(gid, to_event=100)
    assert (state_bytes(got[0]), got[1:]) == (state_bytes(expected[0]), expected[1:])
    [warning] = logged(caplog, "service.snapshots", gid)
    assert warning.levelno == logging.WARNING and warning.exc_info[0] is Boom


def test_a_game_that_does_not_fold_gets_no_board_row_and_a_log_line(tmp_path, caplog, monkeypatch):
    db = str(tmp_path / "s.db")
    app = Privateer(db, snapshot_interval=0)
    [gid] = play(app, game="loot", seats=3, seed="board")
    monkeypatch.setattr(app, "fold", boom)
    catch_up(app)
    view = open_view(app)
    try:
        assert not view.dump()["proj_boards"]
    finally:
        view.close()
    [error] = logged(caplog, "service.projections.boards", gid)
    assert error.levelno == logging.ERROR and error.exc_info[0] is Boom

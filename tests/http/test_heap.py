"""A serving process freezes the heap it was built with (service/http/heap.py):
the cyclic collector's full passes then skip the application's ~60,000 objects."""

import gc

from typer.testing import CliRunner

from service.http.heap import THRESHOLDS


def test_serve_freezes_the_heap_before_it_serves(tmp_path, monkeypatch):
    import uvicorn

    from tools.cli import app

    seen = {}

    def fake_run(api, **kwargs):
        seen["frozen"] = gc.get_freeze_count()
        seen["api"] = api

    monkeypatch.setattr(uvicorn, "run", fake_run)
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    gc.unfreeze()
    try:
        r = CliRunner().invoke(app, ["serve", "--db", str(tmp_path / "s.db")],
                               env={"PRIVATEER_ORGANISER_KEY": "k" * 32})
        assert r.exit_code == 0, r.output
        assert seen["api"] is not None and seen["frozen"] > 10_000
        assert gc.get_threshold() == THRESHOLDS  # the games' states collected rarely (bench/gc_pauses.py)
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_a_worker_process_freezes_its_heap(tmp_path, monkeypatch):
    from service.http.app import app_from_env

    monkeypatch.setenv("PRIVATEER_DB", str(tmp_path / "w.db"))
    monkeypatch.setenv("PRIVATEER_ORGANISER_KEY", "k" * 32)
    gc.unfreeze()
    try:
        app_from_env()
        assert gc.get_freeze_count() > 10_000
    finally:
        gc.unfreeze()

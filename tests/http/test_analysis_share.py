"""Analyses shared fairly among callers (service/http/analysis.py): one running or waiting per
caller, the next from that caller 429 with Retry-After while another caller is still served;
and a request whose client goes away stops its search between two playouts, which frees its
slot (seen in /health: the analyses running and the playouts played)."""

from __future__ import annotations

import threading
import time

import httpx

ANALYSIS = "/games/{gid}/analysis"


def _health(server) -> dict:
    return httpx.get(server.url + "/health").json()


def _until(check, seconds: float) -> float:
    """Seconds until ``check()`` holds (AssertionError after ``seconds``)."""
    began = time.monotonic()
    while not check():
        assert time.monotonic() - began < seconds, f"not within {seconds} s"
        time.sleep(0.05)
    return time.monotonic() - began


def test_one_analysis_per_caller_and_a_client_that_leaves_stops_its_search(server, table_factory):
    t = table_factory("merchants-and-marauders", 2)  # its playouts are long: 2000 take 10-30 s
    seat = t.referee.status(t.gid)["to_act"][0]
    url = server.url + ANALYSIS.format(gid=t.gid)
    before = _health(server)["analysis_playouts"]
    left = {}

    def ask_and_leave():  # the referee asks for a long analysis and gives up after 2 s
        try:
            httpx.get(url, params={"seat": seat, "playouts": 2000}, timeout=2.0,
                      headers={"Authorization": f"Bearer {t.referee_key}"})
        except httpx.TimeoutException:
            left["at"] = time.monotonic()

    asking = threading.Thread(target=ask_and_leave)
    asking.start()
    _until(lambda: _health(server)["analyses"] >= 1, 10)

    again = t.referee.get(ANALYSIS.format(gid=t.gid), params={"seat": seat, "playouts": 5})
    assert again.status_code == 429 and again.json()["error"] == "busy", again.text
    assert int(again.headers["Retry-After"]) > 0
    other = t.seats[seat].get(ANALYSIS.format(gid=t.gid), params={"playouts": 5})  # another caller
    assert other.status_code == 200, other.text

    asking.join()
    assert "at" in left  # the client went away before its answer
    freed = _until(lambda: _health(server)["analyses"] == 0, 10)
    played = _health(server)["analysis_playouts"] - before - 5
    assert played < 1500, played  # stopped early: 2000 were asked for
    assert freed < 5, freed
    assert t.referee.get(ANALYSIS.format(gid=t.gid), params={"seat": seat, "playouts": 5}).status_code == 200

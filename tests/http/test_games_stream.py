"""The games list, live (GET /streams/games): the list as GET /games gives it to the caller, at
once and again whenever it changes (a game created, a turn, a game ended); a fork not yet
published stays out of a spectator's stream; the store's version is the organiser's alone."""

from __future__ import annotations

import json
import queue
import threading

import httpx

from service.http.client import auth


class Listener:
    """Reads ``event: games`` blocks of one stream in a thread, into a queue."""

    def __init__(self, url: str, token: str | None = None, timeout: float = 60.0):
        self.lists: queue.Queue = queue.Queue()
        self.thread = threading.Thread(target=self._read, args=(url, token, timeout), daemon=True)
        self.thread.start()

    def _read(self, url: str, token: str | None, timeout: float) -> None:
        try:
            self._lines(url, token, timeout)
        except httpx.TransportError:  # the server stopped at the end of the session
            self.lists.put(None)

    def _lines(self, url: str, token: str | None, timeout: float) -> None:
        event, data = None, []
        with httpx.stream("GET", f"{url}/streams/games", params={"timeout": timeout}, headers=auth(token),
                          timeout=timeout + 10) as r:
            for line in r.iter_lines():
                if line == "":
                    if event == "games":
                        self.lists.put(json.loads("\n".join(data)))
                    if event == "end":
                        self.lists.put(None)
                        return
                    event, data = None, []
                elif line.startswith("event:"):
                    event = line.split(":", 1)[1].strip()
                elif line.startswith("data:"):
                    data.append(line.split(":", 1)[1].strip())

    def until(self, check, seconds: float = 30.0) -> list[dict]:
        """The first list sent for which ``check(list)`` holds."""
        while True:
            got = self.lists.get(timeout=seconds)
            assert got is not None, "the stream ended first"
            if check(got):
                return got


def test_the_games_list_arrives_at_once_and_again_at_each_change(server, organiser, table_factory):
    spectator = Listener(server.url)
    own = Listener(server.url, server.key)
    first = spectator.until(lambda rows: True)
    assert all(r["version"] is None for r in first)            # the public never reads the store's version

    t = table_factory("letter-of-marque", 3)
    created = spectator.until(lambda rows: any(r["game_id"] == t.gid for r in rows))
    row = next(r for r in created if r["game_id"] == t.gid)
    assert row["finished"] is False and row["version"] is None
    assert next(r for r in own.until(lambda rows: any(r["game_id"] == t.gid for r in rows))
                if r["game_id"] == t.gid)["version"] is not None  # the organiser's stream carries it

    fork = organiser.ok(organiser.post(f"/games/{t.gid}/fork", {"at_turn": 0}), 201)
    assert any(r["game_id"] == fork["game_id"] for r in own.until(
        lambda rows: any(r["game_id"] == fork["game_id"] for r in rows)))
    # a change after the fork: the spectator's next list still has no private fork in it
    assert row["head"] is None                                  # a live game's head moves with hidden steps
    later = table_factory("loot", 2)
    moved = spectator.until(lambda rows: any(r["game_id"] == later.gid for r in rows))
    assert fork["game_id"] not in {r["game_id"] for r in moved}

"""A step hidden from a reader tells it nothing, not even that it was made.

Merchants & Marauders: the first ``stash`` of a port visit is announced (the book: you
declare that you stash); the further amounts are private, "so the others learn neither
the sum nor the number of steps" (port.py). An attacker at the table (seat 2) or in the
audience watches everything it may read while seat 1 stashes again: its status, the
public status, the games list, and a live stream of the game. None of it may move, and
the stream may send nothing, until seat 1 does something the others may see.
"""

from __future__ import annotations

import json
import queue
import random
import threading

import httpx

from service.http.client import auth


class StreamReader:
    """The blocks of one game's stream, read in a thread into a queue (``None``: it ended)."""

    def __init__(self, url: str, gid: str, after: int, token: str | None = None, timeout: float = 60.0):
        self.blocks: queue.Queue = queue.Queue()
        self.thread = threading.Thread(target=self._read, args=(url, gid, after, token, timeout), daemon=True)
        self.thread.start()

    def _read(self, url: str, gid: str, after: int, token: str | None, timeout: float) -> None:
        event, data = None, []
        try:
            with httpx.stream("GET", f"{url}/games/{gid}/stream", params={"after": after, "timeout": timeout},
                              headers=auth(token), timeout=timeout + 10) as r:
                for line in r.iter_lines():
                    if line == "" and event is not None:
                        self.blocks.put((event, json.loads("\n".join(data))))
                        event, data = None, []
                    elif line.startswith("event:"):
                        event = line.split(":", 1)[1].strip()
                    elif line.startswith("data:"):
                        data.append(line.split(":", 1)[1].strip())
        except httpx.TransportError:  # the server stopped at the end of the session
            pass
        finally:
            self.blocks.put(None)

    def next(self, seconds: float = 30.0) -> tuple[str, dict]:
        got = self.blocks.get(timeout=seconds)
        assert got is not None, "the stream ended"
        return got


def _to_a_second_stash(t, rng: random.Random) -> int:
    """Play on with random decisions until a seat has opened its stash (announced) and may
    stash again; returns that seat."""
    for _ in range(600):
        st = t.referee.status(t.gid)
        assert not st["finished"]
        seat = st["to_act"][0]
        legal = t.seats[seat].legal(t.gid)
        stashes = [d for d in legal["decisions"] if d.get("action") == "stash"]
        if stashes and any(d.get("action") == "end_stash" for d in legal["decisions"]):
            return seat                                   # the stash is open: the next amount is private
        if stashes and max(d["amount"] for d in stashes) >= 2:
            decision = min(stashes, key=lambda d: d["amount"])  # open it with the least, keep gold to stash again
        else:
            decision = rng.choice([d for d in legal["decisions"] if d.get("action") != "stash"] or legal["decisions"])
        t.seats[seat].ok(t.seats[seat].decide(t.gid, decision, legal["version"]), 201)
    raise AssertionError("no second stash in 600 decisions")


def test_a_private_stash_moves_nothing_another_seat_or_the_public_reads(server, organiser, public, table_factory):
    t = table_factory("merchants-and-marauders", 2)
    seat = _to_a_second_stash(t, random.Random(7))
    other = t.seats[3 - seat]

    def watched() -> tuple:
        row = next(r for r in public.ok(public.get("/games")) if r["game_id"] == t.gid)
        return other.status(t.gid), public.status(t.gid), row

    before = watched()
    assert before[0]["head"] is None and before[2]["head"] is None   # a live game's head is its referee's
    stream = StreamReader(server.url, t.gid, before[1]["version"])
    assert stream.next()[0] == "status"                              # the stream's status, at once

    stored = organiser.status(t.gid)["version"]
    legal = t.seats[seat].legal(t.gid)
    amount = next(d for d in legal["decisions"] if d.get("action") == "stash")
    t.seats[seat].ok(t.seats[seat].decide(t.gid, amount, legal["version"]), 201)
    assert organiser.status(t.gid)["version"] > stored                # it is in the store...
    assert watched() == before                                       # ...and nothing the others read moved

    legal = t.seats[seat].legal(t.gid)                               # then something the others see
    done = next(d for d in legal["decisions"] if d.get("action") == "end_stash")
    t.seats[seat].ok(t.seats[seat].decide(t.gid, done, legal["version"]), 201)
    event, data = stream.next()
    assert event == "game-event", (event, data)                      # no status came for the hidden step
    assert data["version"] == before[1]["version"] + 1

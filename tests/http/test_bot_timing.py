"""A bot's public timing does not follow its hidden hand (service/http/bots.py: a decision is
appended at the first multiple of the quantum after the bot's turn to decide began).

The property is checked on a clock the test holds (``VirtualLoop``), so the machine's load
cannot move it: the service's own ``Bots._play`` runs on an event loop whose time passes
only when the test says a search took so long, or when the loop waits for a timer (it jumps
to it); waiting for the bot's thread costs none. Each decision's search is given a time, the
hand's (``PIRATES``: six forced decisions, found at once; ``MERCHANTS``: six searches, each
shorter than the quantum), and the moments the decisions are handed to ``Steps.decide`` are
read off that clock: both hands' decisions go at the same moments, one quantum after the
other; a search that overruns the quantum goes at the next multiple (what a seat can still
learn, service/http/README.md).

End to end, on a server of its own: Loot for two from a stated position, seat 1 played by the
server's ``ismcts`` bot, seat 1's hand six pirate ships (the one decision, to draw, found at
once) or five merchant ships and a pirate (a search); each bot decision shows in the public
log at least a quantum after the event before it (the bot waited for it). No figure of a
search's speed is asserted: how long a search takes on this machine under its load is
``python -m bench.strength --turn``'s.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime

import pytest

from service.http.bots import ELSEWHERE_SECONDS, Bots, due
from service.http.changes import Changes
from service.http.client import Api, ServerProcess

QUANTUM = 0.2  # seconds (the service's default)
PIRATES = [0.0] * 6  # each decision's search time: forced decisions, found at once
MERCHANTS = [0.15, 0.05, 0.19, 0.0, 0.1, 0.12]  # searches, each shorter than the quantum


class VirtualLoop(asyncio.SelectorEventLoop):
    """An event loop on a clock of the test's: ``time()`` is ``now``, which moves only by
    ``advance`` (a search's time, said by the test) or when the loop would wait for a timer
    with nothing ready (it jumps to the timer). Waiting for a thread takes no time."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 0.0
        real = self._selector.select

        def select(timeout: float | None = None):
            ready = real(0)
            if ready or timeout == 0:
                return ready
            if timeout is None:  # nothing scheduled: wait for a thread, on no clock
                return real(None)
            self.now += timeout  # nothing ready before the next timer: its time has come
            return []

        self._selector.select = select  # type: ignore[method-assign]

    def time(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class Decided:
    """``Steps`` as the bots see it: each decision taken, with the clock's time."""

    def __init__(self, loop: VirtualLoop):
        self.loop = loop
        self.at: list[float] = []

    async def decide(self, gid, caller, decision, expected, *_):
        assert caller.seat == 1 and decision == {"n": len(self.at)} and expected == len(self.at)
        self.at.append(self.loop.time())


def appended(searches: list[float], quantum: float = QUANTUM) -> list[float]:
    """When ``Bots._play`` hands a bot's decisions to ``Steps.decide``, each found after its
    search's time in ``searches``, in seconds from the bot's first turn to decide."""
    loop = VirtualLoop()
    bots = Bots.__new__(Bots)  # the playing part alone: no store, no seats
    steps = Decided(loop)
    bots.quantum, bots.steps = quantum, steps
    bots._pool = ThreadPoolExecutor(max_workers=1)
    bots._tasks, bots._again = {}, set()
    left = list(searches)

    def choose(gid):
        if not left:
            return None
        loop.advance(left.pop(0))  # the search's time (in the bot's thread)
        return 1, {"n": len(steps.at)}, len(steps.at)

    bots._choose = choose  # type: ignore[method-assign]
    try:
        loop.run_until_complete(bots._play(uuid.uuid4().hex))
    finally:
        bots.close()
        loop.close()
    return steps.at


def test_decisions_are_appended_at_multiples_of_the_quantum_after_the_turn_began():
    assert appended(PIRATES) == pytest.approx([QUANTUM * k for k in range(1, 7)])
    # a search that overruns goes at the next multiple after its own turn began, not later
    assert appended([0.25, 0.0, 0.41]) == pytest.approx([0.4, 0.6, 1.2])
    assert appended([0.3, 0.01], quantum=0.0) == pytest.approx([0.3, 0.31])  # no quantum: at once


def test_the_moments_of_a_bots_decisions_do_not_follow_its_hand():
    assert appended(MERCHANTS) == pytest.approx(appended(PIRATES))


def test_a_decision_is_due_at_the_first_multiple_of_the_quantum():
    assert [due(t, 0.5) for t in (0.0, 0.2, 0.5, 0.51, 1.4)] == [0.5, 0.5, 0.5, 1.0, 1.5]
    assert due(0.3, 0.0) == 0.3  # no quantum: at once


def test_commits_heard_from_another_process_wake_the_bots_once_the_game_is_quiet():
    """Issue 47: a server plays the bots of a game at its own commit at once; a commit made
    by another process (heard from the log) wakes them only after ``ELSEWHERE_SECONDS``
    without another commit to the game (the process that committed plays them; this one
    takes over when it died), so a busy game is not loaded by every server at every commit."""
    loop = VirtualLoop()
    changes = Changes()
    bots = Bots.__new__(Bots)  # the waking part alone
    bots._loop, bots._none, bots._later = loop, set(), {}
    kicked: list[tuple[str, float]] = []
    bots._kick = lambda gid: kicked.append((gid, loop.time()))  # type: ignore[method-assign]
    changes.on_commit(bots.wake, elsewhere=bots.wake_later)

    async def evening() -> None:
        for _ in range(5):  # another server's steps, one every half of the delay
            changes.heard("busy")
            await asyncio.sleep(ELSEWHERE_SECONDS / 2)
        assert kicked == []  # each one put the look off
        changes.committed("own")  # this server's own step: its bots look at once
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert kicked == [("own", 2.5 * ELSEWHERE_SECONDS)]
        await asyncio.sleep(ELSEWHERE_SECONDS)
        # the busy game quiet for the delay after its last commit heard (at 2 delays): looked at once
        assert kicked == [("own", 2.5 * ELSEWHERE_SECONDS), ("busy", 3 * ELSEWHERE_SECONDS)]

    try:
        loop.run_until_complete(evening())
    finally:
        loop.close()


# End to end: the server waits for the quantum ----------------------------------------------
SERVED_QUANTUM = 0.5  # above the test's Loot searches on a quiet machine; the check holds at any load
HAND_PIRATES = ["blue-2a", "green-3a", "purple-4a", "gold-2a", "blue-3a", "green-2a"]
HAND_MERCHANTS = ["merchant-2a", "merchant-3a", "merchant-4a", "merchant-5a", "merchant-6a", "blue-2b"]
OTHER = ["merchant-2b", "merchant-3b", "gold-3a", "gold-4a", "purple-2a", "blue-4a"]  # seat 2's, in both


@pytest.fixture(scope="module")
def quantised(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("timing") / "timing.db")
    srv = ServerProcess(db, env={"PRIVATEER_BOT_QUANTUM": str(SERVED_QUANTUM)}).start()
    yield srv
    srv.stop()


def _create(org: Api, hand: list[str]) -> str:
    position = {"to_play": 1, "players": [{"hand": hand}, {"hand": OTHER}]}
    return org.create("loot", 2, position=position, bots={"1": "ismcts"}, name=f"timing {uuid.uuid4().hex[:6]}")[
        "game_id"]


def _delay(public: Api, gid: str) -> float | None:
    """Seconds between the bot's first decision and the public event before it (None: not yet)."""
    events = public.get(f"/games/{gid}/log").json()["events"]
    for before, e in zip(events, events[1:]):
        if e["type"] == "Decided" and e["data"].get("seat") == 1:
            return (datetime.fromisoformat(e["timestamp"]) - datetime.fromisoformat(before["timestamp"])).total_seconds()
    return None


def test_the_server_appends_a_bots_decision_a_quantum_after_its_turn_began(quantised):
    org, public = Api(quantised.url, quantised.key), Api(quantised.url)
    delays: dict[str, float] = {}
    try:
        games = {"pirates": _create(org, HAND_PIRATES), "merchants": _create(org, HAND_MERCHANTS)}
        for hand, gid in games.items():
            for _ in range(1200):
                d = _delay(public, gid)
                if d is not None:
                    break
                time.sleep(0.05)
            else:
                raise AssertionError(f"the bot of game {gid} did not decide")
            delays[hand] = d
    finally:
        org.close()
        public.close()
    assert min(delays.values()) >= SERVED_QUANTUM, delays

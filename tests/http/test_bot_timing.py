"""A bot's public timing does not follow its hidden hand (service/http/bots.py, bot_pacing.py: a run of a
bot's decisions is appended at its slots, one quantum after the run began, then one every
``PACE`` quanta; the next decisions are searched ahead on a private copy of the game while one
waits for its slot).

The property is checked on a clock the test holds (``VirtualLoop``), so the machine's load
cannot move it: the service's own ``Bots._play`` runs on an event loop whose time passes only
when the loop waits for a timer (it jumps to it); the bot's thread is ``VirtualPool``, which
hands a search's result over when the time the test gives that search has passed on that clock
(one search after the other, as the one thread does). Each decision's search is given a time,
the hand's (``PIRATES``: six forced decisions, found at once; ``MERCHANTS``: six searches, the
first shorter than a quantum, each next shorter than a pace), and the moments the decisions are
handed to ``Steps.decide`` are read off that clock, as an attacker reads the log: both hands'
decisions go at the same moments; a search that overruns goes at the next slot (what a seat
can still learn, service/http/README.md); a decision planned ahead in a game that moved
meanwhile is not used. ``bench.strength``'s model of a run (``paced``) gives the same moments.

End to end, on a server of its own: Loot for two from a stated position, seat 1 played by the
server's ``ismcts`` bot, seat 1's hand six pirate ships (the one decision, to draw, found at
once) or five merchant ships and a pirate (a search); each bot decision shows in the public
log at least a quantum after the event before it (the bot waited for it). No figure of a
search's speed is asserted: how long a search takes on this machine under its load is
``python -m bench.strength --turn``'s.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
import uuid
from datetime import datetime

import pytest

from bench.strength import paced
from service.http.bot_pacing import AHEAD, PACE, QUANTA, Plan, quantum_for, slot, slot_for
from service.http.bots import ELSEWHERE_SECONDS, Bots
from service.http.changes import Changes
from service.http.client import Api, ServerProcess
from service.http.limits import Limits

QUANTUM = 0.2  # seconds (the service's default)
PIRATES = [0.0] * 6  # each decision's search time: forced decisions, found at once
MERCHANTS = [0.15, 0.05, 0.14, 0.0, 0.1, 0.12]  # searches: the first within a quantum, each next within a pace
SLOW = [QUANTUM] + [PACE * QUANTUM] * 5  # as slow as may be and still on time


class VirtualLoop(asyncio.SelectorEventLoop):
    """An event loop on a clock of the test's: ``time()`` is ``now``, which moves only when
    the loop would wait for a timer with nothing ready (it jumps to the timer)."""

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


class VirtualPool(concurrent.futures.Executor):
    """The bot's one thread on the loop's clock: a job runs at once, and its result is handed
    over ``cost(result)`` seconds of that clock after the job before it was (or now)."""

    def __init__(self, loop: VirtualLoop, cost):
        self.loop, self.cost, self.free = loop, cost, 0.0

    def submit(self, fn, /, *args, **kwargs):
        future: concurrent.futures.Future = concurrent.futures.Future()
        result = fn(*args, **kwargs)
        self.free = max(self.loop.time(), self.free) + self.cost(result)
        self.loop.call_at(self.free, future.set_result, result)
        return future


class Decided:
    """``Steps`` as the bots see it: each decision taken, with the clock's time."""

    def __init__(self, loop: VirtualLoop):
        self.loop = loop
        self.at: list[float] = []
        self.decisions: list[dict] = []

    async def decide(self, gid, caller, decision, expected, *_):
        assert caller.seat == 1 and decision["n"] == len(self.at) and expected == len(self.at)
        self.at.append(self.loop.time())
        self.decisions.append(decision)


def played(searches: list[float], quantum: float | None = QUANTUM, moved: frozenset[int] = frozenset(),
           public: bool = False, game: str = "") -> Decided:
    """``Bots._play`` playing one run of a bot's decisions, each found after its search's time in
    ``searches``; the game moves (a step hidden from the public, or a ``public`` one) before the
    decisions numbered in ``moved`` were searched ahead: those plans are not as planned, and
    searched again."""
    loop = VirtualLoop()
    bots = Bots.__new__(Bots)  # the playing part alone: no store, no seats
    steps = Decided(loop)
    bots.quantum, bots.steps = quantum, steps
    bots._tasks, bots._again, bots._woke = {}, set(), {}

    def plan(gid, before):
        n = len(steps.at) if before is None else before.decision["n"] + 1
        if n >= len(searches):
            return None
        again = {"searched": "again"} if before is None and n in moved else {}
        # the public's count: one more with each decision, a hundred more after a public step
        count = before.public_after if before is not None else n + 100 if again and public else n
        return Plan(1, "ismcts", {"n": n, **again}, n, n, 0, [], public=count, public_after=count + 1,
                    version_after=n + 1,
                    game=object() if n + 1 < len(searches) else None, game_name=game)

    bots._plan = plan  # type: ignore[method-assign]
    bots._as_planned = lambda gid, p: p.decision["n"] == len(steps.at) and (  # type: ignore[method-assign]
        p.decision["n"] not in moved or "searched" in p.decision)
    bots._pool = VirtualPool(loop, lambda p: searches[p.decision["n"]] if p else 0.0)
    bots._looks = VirtualPool(loop, lambda _: 0.0)
    try:
        loop.run_until_complete(bots._play(uuid.uuid4().hex))
    finally:
        loop.close()
    return steps


def test_each_game_has_its_quantum_unless_the_service_gives_one():
    assert Limits().bot_quantum is None  # the service's default: each game's own
    mm = "merchants-and-marauders"
    assert quantum_for(mm) == QUANTA[mm] < quantum_for("loot") == QUANTUM
    assert quantum_for(mm, 0.3) == quantum_for("loot", 0.3) == 0.3 and quantum_for(mm, 0.0) == 0.0
    for game in (mm, "loot"):  # the service's loop paces each game's run at its quantum
        q = quantum_for(game)
        searches = [0.9 * q, 0.6 * PACE * q, 0.0]  # on time at its quantum
        assert played(searches, None, game=game).at == pytest.approx([slot(k, q) for k in (1, 2, 3)])


def appended(searches: list[float], quantum: float = QUANTUM) -> list[float]:
    """When ``Bots._play`` hands a run's decisions to ``Steps.decide``, in seconds from the run's start."""
    return played(searches, quantum).at


def test_a_runs_decisions_are_appended_at_its_slots():
    assert appended(PIRATES) == pytest.approx([QUANTUM + k * PACE * QUANTUM for k in range(6)])
    assert appended(PIRATES) == pytest.approx([slot(k, QUANTUM) for k in range(1, 7)])
    assert appended([0.3, 0.01], quantum=0.0) == pytest.approx([0.3, 0.31])  # no quantum: at once


def test_the_moments_of_a_bots_decisions_do_not_follow_its_hand():
    """A forced decision goes at the same slot as a searched one, a fast search as a slow one on time."""
    assert appended(MERCHANTS) == pytest.approx(appended(PIRATES))
    assert appended(SLOW) == pytest.approx(appended([0.001] * 6))
    # searched ahead: a slow search of a decision after a few forced ones is hidden by their slots
    assert appended([0.0, 0.0, 0.0, 0.4, 0.0]) == pytest.approx(appended([0.0] * 5))


def test_a_late_decision_goes_at_the_next_slot():
    # found after its slot: at the next one, and the decisions after it at the slots after
    assert appended([0.25, 0.0, 0.41]) == pytest.approx([slot(2, QUANTUM), slot(3, QUANTUM), slot(5, QUANTUM)])
    assert [slot_for(t, 0, 0.5) for t in (0.0, 0.5, 0.51, 0.85, 0.86)] == [1, 1, 2, 2, 3]
    assert slot_for(0.0, 3, 0.5) == 4  # never before a slot the run used


def test_searches_go_at_most_AHEAD_beyond_the_decision_waiting():
    """Slow searches beyond ``AHEAD``: the one after waits until a decision is appended."""
    searches = [0.0] + [0.01] * AHEAD + [0.5]
    # searched at 0.04, it could go at slot 6 if searched at once; it starts when decision 1 goes (at 0.2)
    assert appended(searches)[-1] == pytest.approx(slot(slot_for(QUANTUM + 0.5, 5, QUANTUM), QUANTUM))


@pytest.mark.parametrize("searches", [PIRATES, MERCHANTS, SLOW, [0.25, 0.0, 0.41], [0.05] * 9, [0.3] * 7,
                                      [0.0] + [0.01] * AHEAD + [0.5, 0.0, 0.2], [0.0, 0.9, 0.0, 0.0, 0.1]])
def test_the_benchs_model_of_a_run_is_the_services(searches):
    """``bench.strength --turn`` prints what the service does: its ``paced`` is ``Bots._play``'s moments."""
    assert paced(searches, QUANTUM) == pytest.approx(appended(searches))
    assert paced(searches, 0.0) == pytest.approx(appended(searches, quantum=0.0))


def test_a_decision_planned_in_a_game_that_moved_is_searched_again():
    """A step hidden from the public came before decision 2 was appended: the decision planned for
    it is not used; the one searched again on the game as committed is, at the run's next slot
    (nothing public happened: the run goes on)."""
    steps = played([0.0, 0.0, 0.1, 0.0], moved=frozenset({2}))
    assert steps.decisions == [{"n": 0}, {"n": 1}, {"n": 2, "searched": "again"}, {"n": 3}]
    # searched again once decision 1 went (at slot 2), found 0.1 s later, before slot 3
    assert steps.at == pytest.approx([slot(k, QUANTUM) for k in range(1, 5)])


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


def test_a_public_step_of_another_seat_ends_the_run():
    """After a public step (before decision 2): decision 2 is searched again and opens a new run,
    appended a quantum after the bot looked (when decision 1 went), the next a pace later."""
    steps = played([0.0, 0.0, 0.1, 0.0], moved=frozenset({2}), public=True)
    assert steps.decisions == [{"n": 0}, {"n": 1}, {"n": 2, "searched": "again"}, {"n": 3}]
    looked = slot(2, QUANTUM)
    assert steps.at == pytest.approx([slot(1, QUANTUM), looked, looked + slot(1, QUANTUM), looked + slot(2, QUANTUM)])

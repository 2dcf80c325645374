"""Bots in seats: the organiser (or a game's referee) seats a bot (``random``,
the game's own bots, ``ismcts``: the names ``tools simulate --bot`` takes), and
the service plays its turns.

A bot takes its seat as a person does, through an invitation used up in the
seat's transaction (``Seats._join_once``): the invitation's code hash is
``bot:<seat>``, which no code hashes to (codes are stored as SHA-256 hex), so
only this module makes one; its player is the seat's public name,
``"<bot> (bot)"`` (a public ``SeatNamed``: everyone at the table knows a bot
plays that seat). The seat's token is made and thrown away: nobody holds it.

After each commit to a game by this process (``Changes.committed``), and once
a commit to it by another process (heard from the log on PostgreSQL) has been
followed by ``ELSEWHERE_SECONDS`` without another (``wake_later``: the process
that commits plays the bots at its commit; this one takes over when it died), a
background task on the event loop looks whether a bot seat acts; the bot chooses in a worker thread, from a state the
game's sampler draws from the seat's own view (``determinize``: what the seat
cannot see is drawn again, never read), among the decisions the rules list for
the seat; the decision goes through ``Steps.decide``, the path a person's
decision takes (the seat's count as expected version, so a stale choice is
refused and chosen again).

A bot's thinking time would tell what it holds (a search runs longer or shorter
with its hand; a hand that leaves one decision takes none), and the moment its
decision is appended is public (the log's timestamps, the stream). So a bot's
decisions are appended at slots that depend only on how many there are: a **run**
is a bot seat's decisions with nothing public happening between them but its own (a
public step by another seat ends it; a step hidden from the public keeps it going, a
plan it made stale searched again at the run's next slot); the run begins when the bot looks at the game after the
commit that made it its turn (``_kick``: at once for a commit this server made), its ``k``-th decision is appended at
``slot(k)``: one ``quantum`` after the run began, each next one ``PACE`` quanta
(0.7) after the one before; a decision not found by its slot goes at the run's next
one (``slot_for``; service/http/bot_pacing.py). Its playouts are fixed (service/analysis/bot.py), never cut by
the clock, so a search is the same on a fast machine and a slow one.

While a decision waits for its slot, the bot already searches the next ones (up to
``AHEAD``, 4, beyond it; ``Ahead``): each on a private copy of the game
(``Machine.copy``) where the decisions before it are applied with the game's own
seeded chance, i.e. the game exactly as it will be once they are appended; the
search still reads only the seat's view (``choose``: the sampler draws what the seat
cannot see). A planned decision is used only if the game as committed, when its turn
comes, is exactly the one it was planned in (its version, step count and the seat's
decisions: ``_as_planned``); otherwise (another seat's step, entropy mixed in, a
correction) it is searched again on the game as committed.

A Merchants & Marauders or Kaiser's Pirates decision is two independent searches
(service/analysis/bot.py ``settings``), run side by side in a pool of two worker processes
(``BotSearches``, service/http/bot_searches.py): about half the wall time on two cores, the
same decision as the two run one after the other. So their quanta are 0.1 s and 0.15 s, the
other games' 0.2 s (each above the game's slowest search on a two-core machine that is not
overloaded: ``quantum_for``).

The trade-off of the quantum (``PRIVATEER_BOT_QUANTUM``, for every game; default each
game's own; service/http/README.md): a run of D decisions takes at least one quantum and
D - 1 paces (an M&M turn, 5.5 decisions on average, about 0.5 s); what a late decision still tells is one bit: that the
searches up to it took longer than its slot allowed (a run's first search longer than a
quantum, or the searches up to the k-th longer than ``slot(k)`` together, the searches
ahead counted). On a machine that is not overloaded a run is its D slots whatever the hand;
a larger quantum hides more on a busy machine and makes every turn longer.
"""

from __future__ import annotations

import asyncio
import random
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from uuid import UUID

from service.app import Privateer
from service.kernel.copies import as_read
from service.kernel.errors import BadInput, PrivateerError, StaleVersion
from service.kernel.games import GENERIC_BOTS, get_rules, get_sampler
from service.kernel.rules import Rules
from service.kernel.seating import Chooser, choosers
from service.logs import logger

from .access import request_rows
from .auth import Caller, Conflict
from .bot_pacing import Ahead, Plan, Run, quantum_for, slot, slot_for
from .bot_searches import BotSearches
from .bot_seats import MARK, BotSeats
from .changes import Changes
from .checks import now
from .current import Current
from .seats import Seats
from .steps import Steps

log = logger(__name__)
SUFFIX = " (bot)"
MAX_MOVES = 100_000  # a bot's decisions in one game, at most (a guard against a loop)
REFUSALS = 5  # refusals in a row before a bot's task stops (the next commit to the game wakes it again)
# seconds without a commit to a game, after one heard from another process, before this server looks
# whether a bot of that game acts (``wake_later``)
ELSEWHERE_SECONDS = 1.0


def bot_names(rules: Rules) -> list[str]:
    return [*rules.bots, *(n for n in GENERIC_BOTS if n not in rules.bots)]


def check_bots(game: str, seats: int, bots: dict[str, str]) -> dict[int, str]:
    """``{"2": "ismcts"}`` checked against the game: seat numbers and bot names."""
    rules = get_rules(game)
    out: dict[int, str] = {}
    for seat_text, name in bots.items():
        if not seat_text.isdigit() or not 1 <= int(seat_text) <= seats:
            raise BadInput(f"bots: {seat_text!r} is not a seat of this game (1 to {seats})")
        if name not in bot_names(rules):
            raise BadInput(f"bots: no bot {name!r} for {game} (bots: {', '.join(bot_names(rules))})")
        if name != "random" and get_sampler(game) is None:
            raise BadInput(f"bots: {game} has no sampler, so bot {name!r} would read what its seat cannot see")
        out[int(seat_text)] = name
    return out


def choose(rules: Rules, state: dict[str, Any], seat: int, legal: list[dict[str, Any]], chooser: Chooser,
           rng: random.Random) -> dict[str, Any]:
    """The bot's decision among ``legal``, made on a state the game's sampler draws from
    the seat's own view (what the seat cannot see is drawn again, never read)."""
    sampler = get_sampler(rules.name)
    drawn = sampler(state, seat, rng) if sampler is not None else None  # no sampler: only `random`
    try:
        decision = chooser(drawn, seat, legal, rng)
    except Exception:  # a bot that fails must not leave its seat's turn unplayed: logged, it plays at random
        log.exception("bot of seat %s failed to choose; it plays at random this once", seat)
        decision = rng.choice(legal)
    if decision not in legal:  # chosen on a drawn state: a decision the true table does not offer
        decision = legal[0]
    return decision


class Bots:
    def __init__(self, app: Privateer, current: Current, steps: Steps, seats: Seats, changes: Changes,
                 quantum: float | None = 0.0, seated: BotSeats | None = None):
        self.app = app
        self.seated = seated or BotSeats(app)
        self.quantum = quantum  # seconds, every game's (None: each game's own, ``quantum_for``)
        self.current = current
        self.steps = steps
        self.seats = seats
        self._choosers: dict[tuple[str, str], Chooser] = {}
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="privateer-bots")  # the searches
        self._searches = BotSearches()  # a split decision's searches side by side (service/analysis/bot.py)
        # whether the game is as planned: not behind a search ahead
        self._looks = ThreadPoolExecutor(max_workers=1, thread_name_prefix="privateer-bot-looks")
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()
        self._none: set[str] = set()  # games whose seats are all people's: nothing to look at, ever
        self._later: dict[str, asyncio.TimerHandle] = {}  # ``wake_later``'s, by game
        self._woke: dict[str, float] = {}  # the loop's time of the last look asked for, by game (a run's start)
        changes.on_commit(self.wake, elsewhere=self.wake_later)

    # seating ------------------------------------------------------------------------
    def seat(self, gid: UUID, row: dict[str, Any], seat: int, name: str) -> None:
        """Seat bot ``name`` in ``seat`` (the caller is the organiser or the referee)."""
        check_bots(row["game"], int(row["seats"]), {str(seat): name})
        self.seats.access.guard_seats(row, "no bots may be seated")
        code_hash = f"{MARK}{seat}"
        if f"seat:{seat}" in self.app.recorder.select_roles(gid.hex):
            raise Conflict(f"seat {seat} of game {gid.hex} is already taken")
        players = self.current.game(gid).machine.config.get("players") or {}
        player = f"{name}{SUFFIX}"
        if player in {v for k, v in players.items() if k != str(seat)}:
            player = f"{name} (bot, seat {seat})"
        invitation = self.app.recorder.select_invitation(gid.hex, code_hash)
        if invitation is None:
            self.app.recorder.insert_service_rows(invitation=(gid.hex, code_hash, seat, player, now()))
        elif invitation["used"] is not None:
            raise Conflict(f"seat {seat} of game {gid.hex} is already taken")
        else:
            player = invitation["player"]  # a bot seated before whose join failed: the name it was given
        _, machine = self.seats._join_once(gid, seat, None, code_hash, player)
        self.seats.start_if_full(gid, machine)
        self.wake(gid.hex)

    def bots_of(self, gid: UUID) -> dict[int, str]:
        """The game's bot seats and their bots."""
        return self.seated.of(gid)

    # playing ------------------------------------------------------------------------
    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """The server's event loop, where the bots' steps are made (set at startup); the
        unfinished games with bots are looked at once (a bot may have been left to act)."""
        self._loop = loop
        loop.run_in_executor(self._pool, self._resume)

    def _resume(self) -> None:
        try:
            for row in self.app.recorder.select_games():
                if not row.get("finished") and self.bots_of(UUID(row["game_id"])):
                    self.wake(row["game_id"])
        except Exception:  # the server serves on without it: logged
            log.exception("looking for games whose bots act failed")

    def wake(self, gid_hex: str) -> None:
        """After a commit to the game (any thread): a bot may act now."""
        self._on_loop(self._kick, gid_hex)

    def wake_later(self, gid_hex: str) -> None:
        """After a commit to the game by another process (heard from the log, any thread): that
        process plays the game's bots at its own commit (``wake``), so this one looks only once
        ``ELSEWHERE_SECONDS`` passed without another commit to the game: then a bot left to act
        (the other process died, or was a ``tools`` command) is played here. Every server
        looking at every game at every commit of every other server would load each game with
        a bot once a commit on each server (docs/several-servers.md), for a refusal."""
        self._on_loop(self._kick_later, gid_hex)

    def _on_loop(self, kick: Callable[[str], None], gid_hex: str) -> None:
        """``kick(gid_hex)`` on the server's loop (from any thread), for a game that may have bots."""
        loop = self._loop
        if loop is None or loop.is_closed() or gid_hex in self._none:
            return
        try:
            loop.call_soon_threadsafe(kick, gid_hex)
        except RuntimeError:  # the loop closed meanwhile
            pass

    def _kick_later(self, gid_hex: str) -> None:
        waiting = self._later.pop(gid_hex, None)
        if waiting is not None:
            waiting.cancel()
        self._later[gid_hex] = asyncio.get_running_loop().call_later(ELSEWHERE_SECONDS, self._kick_quiet, gid_hex)

    def _kick_quiet(self, gid_hex: str) -> None:
        self._later.pop(gid_hex, None)
        self._kick(gid_hex)

    def _kick(self, gid_hex: str) -> None:
        if gid_hex in self._none:
            return
        self._woke[gid_hex] = asyncio.get_running_loop().time()
        if gid_hex in self._tasks:
            self._again.add(gid_hex)  # the running task looks again when it is done
            return
        self._tasks[gid_hex] = asyncio.get_running_loop().create_task(self._play(gid_hex))

    async def _play(self, gid_hex: str) -> None:
        gid = UUID(gid_hex)
        loop = asyncio.get_running_loop()
        refused = 0
        run: Run | None = None
        ahead: Ahead | None = None
        try:
            for _ in range(MAX_MOVES):
                request_rows.set(None)  # this task's context came from whoever woke it: read the index afresh
                self._again.discard(gid_hex)
                looked = loop.time()
                plan = None
                if ahead is not None:  # the decision searched ahead, if the game is as it was planned in
                    plan = await self._next(ahead)
                    if plan is not None and not await loop.run_in_executor(self._looks, self._as_planned, gid, plan):
                        plan = None
                if plan is None:  # searched on the game as committed
                    if ahead is not None:
                        ahead.stop()
                    ahead = Ahead(self._pool, self._plan, gid)
                    plan = await self._next(ahead)
                    if plan is None:
                        ahead = None
                        if gid_hex in self._again:
                            continue
                        return
                chain = ahead
                assert chain is not None
                if run is None or run.seat != plan.seat or run.public != plan.public:
                    # a public step came (or a bot's first decision): a new run, begun at the last commit
                    # this server made or heard (``_kick``), or when the bot looked, if that was later
                    run = Run(plan.seat, max(looked, self._woke.get(gid_hex, looked)), plan.public)
                quantum = quantum_for(plan.game_name, self.quantum)
                run.taken = slot_for(loop.time() - run.began, run.taken, quantum)
                await asyncio.sleep(max(0.0, run.began + slot(run.taken, quantum) - loop.time()))
                try:
                    await self.steps.decide(gid, Caller("seat", plan.seat), plan.decision, plan.seen, None, None)
                    refused = 0
                    run.public = plan.public_after
                    chain.appended()
                    if plan.game is None:  # nothing was planned after it
                        ahead = None
                except PrivateerError as e:
                    # the game moved meanwhile (a stale version, or a step hidden from the bot's seat that
                    # left its count as it was and its choice out of date): look again, a few times at most
                    chain.stop()
                    ahead = None
                    refused += 1
                    if refused > REFUSALS:
                        raise
                    if not isinstance(e, StaleVersion):
                        log.info("bot of seat %s in game %s refused (%s): it looks again", plan.seat, gid_hex,
                                 e.reason, extra={"game_id": gid_hex})
        except PrivateerError as e:
            log.warning("bot in game %s stopped: %s", gid_hex, e.reason, extra={"game_id": gid_hex})
        except Exception:  # a bot's failure must not take the server down: logged
            log.exception("bot in game %s failed", gid_hex, extra={"game_id": gid_hex})
        finally:
            if ahead is not None:
                ahead.stop()
            self._tasks.pop(gid_hex, None)
            self._woke.pop(gid_hex, None)

    @staticmethod
    async def _next(ahead: Ahead) -> Plan | None:
        plan = await ahead.plans.get()
        if isinstance(plan, BaseException):
            raise plan
        return plan

    def _plan(self, gid: UUID, before: Plan | None) -> Plan | None:
        """The bot's next decision (None: no bot acts), chosen on the game as committed
        (``before`` None), or on the private copy ``before`` left; then applied to that copy
        with the game's own chance (what the game will be once it is appended, unless another
        step comes first), to plan the next on while this one waits for its slot. The search
        reads only the seat's view (``choose``)."""
        if before is None:
            game = self.current.game(gid)
            m = game.machine
            if m.finished or m.k["awaiting"] is not None or m.k["steps"] == 0:
                return None
            bots = self.bots_of(gid)
            if not bots:
                if sum(r.startswith("seat:") for r in self.app.recorder.select_roles(gid.hex)) >= m.k["seats"]:
                    self._none.add(gid.hex)
                return None
            seat = next((s for s in m.acting() if s in bots), None)
            if seat is None or not m.legal(seat):
                return None
            name = bots[seat]
            game, version = self.current.copy_of(game), game.version
        else:
            assert before.game is not None
            game, version, seat, name = before.game, before.version_after, before.seat, before.name
        m = game.machine
        legal = m.legal(seat)
        decision = choose(m.rules, m.s, seat, legal, self._chooser(m.rules, name), random.Random(secrets.randbits(64)))
        # submitted as its seat reads it, like a person's (copies of one face: service/kernel/copies.py)
        plan = Plan(seat, name, as_read(decision, m.alike()), m.seen(seat, version), version, m.k["steps"], legal,
                    m.seen(0, version), game_name=m.rules.name)
        try:
            events = m.decide(seat, plan.decision, self.app.chance_for(game), read=True)
        except Exception:  # planned no further: the next decision is searched on the game as committed
            log.exception("bot of seat %s could not plan past its decision", seat)
            return plan
        plan.version_after = version + len(events)
        plan.public_after = m.seen(0, plan.version_after)
        if not m.finished and seat in m.acting():
            plan.game = game
        return plan

    def _as_planned(self, gid: UUID, plan: Plan) -> bool:
        """Whether the game as committed is exactly the one ``plan`` was chosen in."""
        game = self.current.game(gid)
        m = game.machine
        return (game.version == plan.version and m.k["steps"] == plan.steps and plan.seat in m.acting()
                and m.legal(plan.seat) == plan.legal)

    def _chooser(self, rules: Rules, name: str) -> Chooser:
        k = (rules.name, name)
        if k not in self._choosers:
            self._choosers[k] = choosers(rules, {1: name}, 1, searches=self._searches)[1]
        return self._choosers[k]

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._looks.shutdown(wait=False, cancel_futures=True)
        self._searches.close()

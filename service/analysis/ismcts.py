"""Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012) with
determinization, for any registered game with a sampler.

Each playout: the game's sampler draws a full state the seat cannot tell apart
from the true one (``determinize(state, seat, rng)``, service/aggregates/<game>/
sampler.py), then the game is played to its end on a ``Machine`` holding that
state, with chance from a fresh seeded stream. The tree holds the seat's own
decisions only (a node is the sequence of its decisions so far); the other seats
play by the rollout bot between them. The rollout bot is by default ``guided``:
the game's heuristic bot (the first its rules list other than ``random``) with a
uniformly random decision one time in ten. In the tree a decision is chosen by UCT
with availability counts (a decision is scored against the number of playouts in
which it was available, as decisions differ from one determinization to the
next), plus a progressive bias toward the decision the heuristic bot would take
on this determinization; a node tries a new decision (the heuristic's pick first,
then in a random order) while it has tried fewer than the root of its visits
(progressive widening: long legal lists are not each tried once); once a new
decision is expanded the rollout bot plays everything to the end (or, with a
``horizon``, that many decisions, valued by the game's outcome of the state then
when it gives one mid-game). A playout's win share (1 for a lone winner, 1/k for
one of k) is reported as the win rate, its score beside; the selection maximises
the win share blended with the score margin (``playout_value``).

The seat's view is all the search reads of the true state (through the sampler);
the heuristic bot, like the rollout bot, is asked only on determinized states.

Everything is drawn from one ``random.Random(seed)``: a fixed seed gives the same
answer, and the true state is read only through the sampler, so two states the
seat cannot tell apart give the same answer too.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable

from service.kernel.chance import SeededChance
from service.kernel.errors import BadInput
from service.kernel.games import get_sampler
from service.kernel.machine import Machine

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    from typing import Any, TypeAlias

    from service.kernel.rules import Rules

    # a bot: (state, seat, the listed decisions, rng) -> one of them
    Bot: TypeAlias = Callable[[Any, int, list[dict[str, Any]], random.Random], dict[str, Any]]
    # a game's sampler: (the true state, seat, rng) -> a state the seat cannot tell from it
    Determinize: TypeAlias = Callable[[Any, int, random.Random], Any]

MAX_STEPS = 200_000  # decisions in one playout before it is called broken
EPSILON = 0.1  # the guided rollout's share of uniformly random decisions
BIAS = 3.0  # progressive bias: weight of the heuristic bot's pick, fading as 1/(visits+1)
WIDEN = 1.0  # progressive widening: a node tries a new decision while it has tried fewer than WIDEN*sqrt(visits+1)
HORIZON = 80  # a playout's decisions after the tree before it is valued by the game's mid-game outcome
MARGIN = 0.25  # the share of a playout's value given by its score margin (the rest: the win share)


def playout_value(result: dict, seat: int, margin: float = MARGIN) -> float:
    """A finished playout's worth to ``seat`` in [0, 1]: the win share, blended with
    the score margin over the best other seat, scaled by the two scores' size."""
    winners, scores = result["winners"], result.get("scores") or {}
    won = 1.0 / len(winners) if seat in winners else 0.0
    mine = float(scores.get(str(seat), 0) or 0)
    others = [float(v or 0) for s, v in scores.items() if s != str(seat)]
    if not others or not margin:
        return won
    best = max(others)
    lead = (mine - best) / (1.0 + abs(mine) + abs(best))
    return (1 - margin) * won + margin * (0.5 + 0.5 * lead)


class NoSampler(BadInput):
    """The game has no sampler (service/aggregates/<game>/sampler.py)."""


def key(decision: dict) -> str:
    return json.dumps(decision, sort_keys=True, separators=(",", ":"))


class Node:
    __slots__ = ("children", "visits", "avail", "reward", "score", "value", "hinted")

    def __init__(self) -> None:
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0  # win shares (the reported win rate)
        self.score = 0.0
        self.value = 0.0  # what the selection maximises (``playout_value``)
        self.hinted = 0  # playouts in which the heuristic bot would have taken it


def seats_of(state: dict) -> int:
    """How many seats a state holds (every game keeps ``seats`` or a list of players)."""
    return state["seats"] if "seats" in state else len(state["players"])


def machine_at(rules: Rules, state: Any, seats: int) -> Machine:
    """A kernel machine holding ``state`` (owned by it), seeded-mode, mid-game (``Machine.mid_game``)."""
    m = Machine.mid_game(rules, state, seats)
    m.keep_events = False  # nobody reads a playout's events: its steps take the fold path (no event objects)
    return m


def heuristic_name(rules: Rules) -> str:
    """The game's heuristic bot: the first bot its rules list other than ``random``."""
    return next((name for name in rules.bots if name != "random"), "random")


def rollout_bot(rules: Rules, rollout: str) -> Bot:
    """The chooser playing the playouts: a bot of the game by name, or ``guided``:
    the game's heuristic bot (``heuristic_name``), a uniformly random decision instead
    with probability ``EPSILON`` (the playouts stay varied)."""
    if rollout != "guided":
        return rules.bots[rollout]
    heuristic = rules.bots[heuristic_name(rules)]

    def guided(state: Any, seat: int, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
        if len(legal) == 1:
            return legal[0]
        if rng.random() < EPSILON:
            return legal[rng.randrange(len(legal))]
        return heuristic(state, seat, legal, rng)

    return guided


def search(rules: Rules, state: Any, seat: int, playouts: int = 50, seed: int | str | bytes = 0, rollout: str = "guided",
           exploration: float = 0.7, progress: Callable[[int], None] | None = None,
           budget: int | None = None, determinize: Determinize | None = None, bias: float = BIAS, margin: float = MARGIN,
           horizon: int | None = HORIZON, widen: float | None = WIDEN) -> list[dict]:
    """The seat's decisions now, each with ``decision``, ``playouts``, ``win_rate``
    and ``mean_score``, in the order the rules list them. ``state``: the true
    state (read only through the game's sampler); ``seed``: int, str or bytes;
    ``budget``: stop after the playout in which the decisions played in all
    playouts reach this number (a bot's bound for long games; None: no bound);
    ``determinize``: the game's sampler unless given (a test gives another);
    ``bias``: the progressive bias toward the pick of the game's heuristic bot
    (asked on the determinized state at each of the seat's decisions in the tree);
    ``margin``: the score margin's share of a playout's value (``playout_value``);
    ``horizon``: a playout stops this many decisions after it left the tree and is
    valued by the game's outcome of the state then (``rules.outcome``: the leader
    wins), when the game gives one mid-game (None: every playout ends the game);
    ``widen``: the progressive widening (``_select``; None: none)."""
    determinize = determinize or get_sampler(rules.name)
    if determinize is None:
        raise NoSampler(f"{rules.name} has no sampler: it cannot be analysed from one seat's information")
    rng = random.Random(seed if not isinstance(seed, bytes) else int.from_bytes(seed, "big"))
    bot = rollout_bot(rules, rollout)
    heuristic = rules.bots[heuristic_name(rules)] if bias else None
    seats = seats_of(state)
    root = Node()
    order: list[str] = []
    listed: dict[str, dict] = {}
    spent = 0
    for i in range(playouts):
        m = machine_at(rules, determinize(state, seat, rng), seats)
        chance = SeededChance(rng.getrandbits(128).to_bytes(16, "big"), [], 0)
        node: Node | None = root
        path: list[Node] = []
        steps = 0
        left: int | None = None
        result = None
        while not m.finished:
            if left is not None:
                if left <= 0:
                    result = rules.outcome(m.state)
                    if result is not None:
                        break
                    left = None  # no outcome mid-game: played to the end
                else:
                    left -= 1
            acting = m.acting()
            if not acting:
                raise RuntimeError("nobody can act but the game is not finished")
            who = seat if seat in acting else acting[0]
            options = m.legal(who)
            if who == seat and node is not None:
                keys = [key(d) for d in options]
                if node is root:
                    for k, d in zip(keys, options):
                        if k not in listed:
                            listed[k] = d
                            order.append(k)
                hint = key(heuristic(m.state, seat, options, rng)) if heuristic is not None else None
                node, decision = _select(node, keys, options, rng, exploration, hint, bias, widen)
                path.append(node)
                if node.visits == 0:
                    node = None  # expanded: the rollout plays on
                    left = horizon
            else:
                decision = bot(m.state, who, options, rng)
            m.play(who, decision, chance)  # taken from ``options``: run at once, not checked again
            steps += 1
            if steps > MAX_STEPS:
                raise RuntimeError("a playout did not end")
        result = result or m.kernel_state["result"]
        winners = result["winners"]
        reward = 1.0 / len(winners) if seat in winners else 0.0
        score = float(result["scores"].get(str(seat), 0))
        value = playout_value(result, seat, margin)
        root.visits += 1
        for n in path:
            n.visits += 1
            n.reward += reward
            n.score += score
            n.value += value
        if progress is not None:
            progress(i + 1)
        spent += steps
        if budget is not None and spent >= budget:
            break
    out = []
    for k in order:
        child = root.children.get(k)
        played = child.visits if child else 0
        out.append({"decision": listed[k], "playouts": played,
                    "win_rate": child.reward / played if child and played else None,
                    "mean_score": child.score / played if child and played else None})
    return out


def _select(node: Node, keys: list[str], options: list[dict], rng: random.Random, c: float,
            hint: str | None = None, bias: float = 0.0, widen: float | None = None) -> tuple[Node, dict[str, Any]]:
    """UCT with availability counts over the decisions open now, plus a progressive
    bias toward the heuristic bot's pick (``hint``: the share of the playouts in which
    it was its pick, weighted by ``bias``, fading as 1/(visits+1)); the first untried
    one (the hint if untried, else in a random order) is taken while the decisions
    tried and open now are fewer than ``widen`` times the root of the node's visits
    (progressive widening; None: before any is tried twice)."""
    untried = []
    for k in keys:
        child = node.children.get(k)
        if child is None:
            child = node.children[k] = Node()
        child.avail += 1
        if k == hint:
            child.hinted += 1
        if child.visits == 0:
            untried.append(k)
    tried = len(keys) - len(untried)
    if untried and (widen is None or tried == 0 or tried < widen * math.sqrt(node.visits + 1)):
        k = hint if hint in untried else untried[rng.randrange(len(untried))]
    else:
        best = -1.0
        k = keys[0]
        for kk in keys:
            ch = node.children[kk]
            if ch.visits == 0:
                continue
            value = (ch.value / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                     + bias * ch.hinted / ch.avail / (ch.visits + 1))
            if value > best:
                best, k = value, kk
    return node.children[k], options[keys.index(k)]


def merge(parts: list[list[dict]]) -> list[dict]:
    """Root parallelization (Chaslot, Winands & van den Herik 2008): the root statistics of
    independent searches of one decision (``search``'s lists, each from its own seed) as
    one list, a decision's playouts summed and its win rate and mean score averaged over
    them; decisions in the order the first search lists them, then those only a later one
    met (a decision open in one's determinizations and not in another's). Depends only on
    the parts and their order, not on where or when each ran."""
    out: dict[str, dict] = {}
    for stats in parts:
        for row in stats:
            k = key(row["decision"])
            into = out.setdefault(k, {"decision": row["decision"], "playouts": 0, "win_rate": None,
                                      "mean_score": None, "_won": 0.0, "_score": 0.0})
            played = row["playouts"]
            if played:
                into["playouts"] += played
                into["_won"] += row["win_rate"] * played
                into["_score"] += row["mean_score"] * played
    for row in out.values():
        played = row["playouts"]
        won, score = row.pop("_won"), row.pop("_score")
        if played:
            row["win_rate"], row["mean_score"] = won / played, score / played
    return list(out.values())


def best(stats: list[dict]) -> int:
    """The index of the decision to take: the most played, then the best win rate, then the first listed."""
    return max(range(len(stats)), key=lambda i: (stats[i]["playouts"], stats[i]["win_rate"] or 0.0, -i))

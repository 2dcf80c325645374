"""Run a game in memory, without a store: for tests, bots and benchmarks.

``LocalGame`` is the same kernel the service uses, folding events into a
``Machine``; it keeps the event list so tests can inspect it.
"""

from __future__ import annotations

import json
import random

import msgpack

from .chance import SeededChance, TableChance, commitment, new_seed
from .errors import BadInput
from .machine import Ev, Machine
from .rules import catalog_digest, remember_catalog
from .games import get_rules
from .seating import choosers
from .text import game_name, player_name, tournament as tournament_name, typed_strings

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    from typing import Any

    from .chance import Chance
    from .rules import Rules


def created_event(rules: Rules, seats: int, options: dict | None = None, table: bool = False,
                  seed: bytes | None = None, name: str = "", tournament: str = "",
                  catalog: dict | None = None, fork: dict | None = None,
                  players: dict | None = None, position: dict | None = None) -> tuple[Ev, bytes | None]:
    """The ``GameCreated`` event of a new game, and its secret seed (None at a table).
    ``position``: a stated position to start from (``Rules.position``); only its public
    part is recorded here (``positioned`` gives the hidden part to the setup)."""
    if not isinstance(seats, int) or not rules.min_seats <= seats <= rules.max_seats:
        raise BadInput(f"{rules.name} is for {rules.min_seats} to {rules.max_seats} seats, not {seats}")
    parsed = rules.parse_options(seats, dict(options or {}))
    if catalog is not None:
        cat, digest = catalog, catalog_digest(catalog)
        if rules.shared_catalog:
            remember_catalog(digest, cat)
    else:
        cat, digest = _default_catalog(rules, parsed)
    if table:
        seed = None
    elif seed is None:
        seed = new_seed()
    data = {
        "game": rules.name, "rules_version": rules.rules_version, "seats": seats,
        "options": parsed, "table": bool(table), "name": game_name(name), "tournament": tournament_name(tournament),
        "catalog": cat, "catalog_digest": digest,
        "commitment": commitment(seed) if seed else None, "fork": fork,
        "players": check_players(players or {}, seats),
    }
    if position is not None:  # (a key only then: the games of every other history stay as they were)
        data["position"] = positioned(rules, data, position)[0]
    return Ev("GameCreated", 0, "all", data), seed


POSITION_LIMIT = 64_000  # characters of a position's JSON: a table described, not a data dump


def positioned(rules: Rules, config: dict, position: dict[str, Any]) -> tuple[dict, list]:
    """A stated position checked by the game's rules (``Rules.position``):
    ``(public, stated)``, the part ``GameCreated`` records and the hidden outcomes the
    setup takes (``Machine.setup(chance, stated)``). ``config``: the ``GameCreated``
    data (without ``position``)."""
    if not isinstance(position, dict) or not position:
        raise BadInput("a position is a JSON object describing the table (see docs/positions.md)")
    if len(json.dumps(position)) > POSITION_LIMIT:
        raise BadInput(f"a position is at most {POSITION_LIMIT} characters of JSON")
    position = typed_strings(position, "the position")  # printed names as typed: NFC, no control character
    base = {k: v for k, v in config.items() if k != "position"}
    try:
        out = rules.position(base, position)
    except (TypeError, AttributeError, KeyError, ValueError) as e:  # a shape the game's checks did not foresee
        raise BadInput(f"the position cannot be read ({type(e).__name__}: {e}); see docs/positions.md"[:300]) from None
    if not isinstance(out, dict) or set(out) != {"public", "stated"} or not isinstance(out["stated"], list):
        raise TypeError(f"{rules.name}: Rules.position must return {{'public': ..., 'stated': [...]}}")
    return out["public"], out["stated"]


_CATALOGS: dict = {}


def _default_catalog(rules: Rules, parsed: dict) -> tuple[dict, str]:
    """The game's own catalog for these options, read and validated once per
    process: each game gets a private copy (unpacked from the bytes kept), or,
    for rules whose catalog nobody changes (``Rules.shared_catalog``), the one
    object the rules gave."""
    key = (rules.name, rules.rules_version, msgpack.packb(parsed, use_bin_type=True))
    hit = _CATALOGS.get(key)
    if hit is None:
        cat = rules.catalog(parsed)
        hit = (cat if rules.shared_catalog else msgpack.packb(cat, use_bin_type=True), catalog_digest(cat))
        if rules.shared_catalog:
            remember_catalog(hit[1], cat)
        if len(_CATALOGS) < 256:
            _CATALOGS[key] = hit
    kept, digest = hit
    if type(kept) is dict:  # shared: the rules' own object
        return kept, digest
    return msgpack.unpackb(kept, raw=False, strict_map_key=False), digest


def check_players(players: dict, seats: int) -> dict:
    """Player names by seat (for standings): {"1": "Ada", ...}, each as typed
    (service/kernel/text.py ``player_name``)."""
    if not isinstance(players, dict):
        raise BadInput("players are names by seat: {\"1\": \"Ada\", ...}")
    out = {}
    for seat, name in players.items():
        try:
            n = int(seat)
        except (TypeError, ValueError):
            raise BadInput(f"player seat {seat!r} is not a number") from None
        if not 1 <= n <= seats:
            raise BadInput(f"player seat {n} is not a seat of this game (1 to {seats})")
        out[str(n)] = player_name(name, f"seat {n}'s player name")
    if len(set(out.values())) != len(out):
        raise BadInput("a player may take only one seat")
    return out


class LocalGame:
    def __init__(self, game: str, seats: int, options: dict | None = None, table: bool = False,
                 seed: bytes | None = None, run_setup: bool = True, catalog: dict | None = None,
                 position: dict | None = None) -> None:
        self.rules = get_rules(game)
        created, self.seed = created_event(self.rules, seats, options, table, seed, catalog=catalog,
                                           position=position)
        self.events: list[Ev] = [created]
        self.actions = 0  # decisions and chance outcomes of playouts that kept no events (``play_out``)
        self.machine = Machine(self.rules, created)
        self.machine.apply(created)
        stated = positioned(self.rules, created.data, position)[1] if position is not None else None
        if run_setup:
            self.events += self.machine.setup(self.chance(), stated)

    def chance(self) -> Chance:
        k = self.machine.kernel_state
        if k["table"]:
            return TableChance([])
        # the key is derived once per list of entropies; each step starts at the kernel's counter
        cached = getattr(self, "_chance", None)
        if cached is None or cached[0] != k["entropies"]:
            cached = (list(k["entropies"]), SeededChance(self.seed, [bytes.fromhex(e) for e in k["entropies"]], 0))  # type: ignore[arg-type]  # (a seeded game has its seed)
            self._chance = cached
        cached[1].stream.counter = k["counter"]
        return cached[1]

    @property
    def state(self) -> Any:
        return self.machine.state

    def act(self, seat: int, decision: dict) -> list[Ev]:
        evs = self.machine.decide(seat, decision, self.chance())
        self.events += evs
        return evs

    def referee(self, decision: dict) -> list[Ev]:
        evs = self.machine.referee(decision, self.chance())
        self.events += evs
        return evs

    def enter(self, outcome: Any) -> list[Ev]:
        evs = self.machine.enter_chance(outcome)
        self.events += evs
        return evs

    def legal(self, seat: int) -> list[dict]:
        return self.machine.legal(seat)

    def to_act(self) -> list[int]:
        return self.machine.to_act()

    def play_out(self, rng: random.Random, bot: Any = "random", max_steps: int = 100_000,
                 keep: bool = True) -> int:
        """Play with bots until the game ends; return the number of decisions.
        ``bot``: one bot for every seat, or by seat, or a chooser for every seat
        (``service.kernel.seating``).

        ``keep=False``: a playout whose history nobody reads (a benchmark, a
        bot's look-ahead) takes the fold path (``Step``): its steps run the same
        rules and the same bookkeeping but make no event objects, so nothing is
        added to ``events``; ``actions`` counts its decisions and chance
        outcomes. The game's state and result are the same either way."""
        steps = 0
        choose_for = choosers(self.rules, bot, self.machine.config["seats"])
        m = self.machine
        events = self.events
        m.keep_events = keep
        chance = self.chance()  # bots add no entropy: one stream for the whole playout
        actions = 0  # (added to ``self.actions`` at the end)
        try:
            while not m.kernel_state["finished"]:
                acting = m.acting()
                if not acting:
                    raise RuntimeError("nobody can act but the game is not finished")
                seat = acting[0]
                # a decision the bot took from the list itself runs on the live state at once
                # (``Machine.play``); anything else is checked, on a copy which keeps its events
                outcomes = m.outcomes
                evs = m.play(seat, choose_for[seat](m.state, seat, m.legal(seat), rng), chance)
                if keep:
                    events += evs
                else:  # the fold path: the step and the outcomes it drew (counted as they were emitted)
                    actions += 1 + m.outcomes - outcomes
                steps += 1
                if steps > max_steps:
                    raise RuntimeError("game did not end")
        finally:
            self.actions += actions
            m.keep_events = True  # back to the class's default, every event frozen (not `del`: mypyc, docs/mypyc-probe.md)
        return steps

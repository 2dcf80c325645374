"""Merchants & Marauders: the table a game starts with (``initial_state``) and the
questions the rules ask of it (queries: a seat's player, a ship's values, what a
captain may spend, a fight's sides, the tiles nobody has seen). Nothing here emits an
event; the phases apply their own events (``evolve.py`` gathers them).

The state is the referee's: it holds every hidden thing (gold on board, the stash,
cargo and glory cards, face-down tiles and tokens). ``view.py`` decides what a seat
may see. The catalog's derived tables (``catalog.static``) are not copied into the
state: ``state["cat"]`` is their key and ``tables(state)`` returns them;
``initial_state`` registers them, and the default catalog is reloaded on demand.

What lies where: ``players`` (one dict a seat: captain, ship, zone, gold, stash,
cargo, glory cards, ``flags`` (wanted flags by nation), ``rumor``, ``mission``,
``specialists``), ``board`` (demand tiles, upgrade tiles, merchant tokens and the
merchant track, missions, ``npcs`` (NPC ships at sea), ``war``), ``decks``, a port
action in ``port``, a raid in ``raid``, a fight in ``combat`` (None while nobody
fights), glory-card windows at the start of a turn in ``turn_window``.
"""

from __future__ import annotations


from service.kernel.machine import is_unknown

from .abilities import has
from .catalog import default_key, register
from .catalog import tables
from .derived import SHIP_STATS, derived
from .readings import chosen

TYPE_CHECKING = False   # (the imports below are the type checker's: none at run time)
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any, overload

    from typing_extensions import TypeIs
    from .shapes import Combat, Location, NpcSide, Player, Ship, Side, State, Who, Window

LOCATIONS: tuple[Location, ...] = ("hull", "masts", "cargo", "crew", "cannons")     # a ship's hit locations


UPGRADE_STAT = {"extra_hammocks": "crew", "better_rigging": "maneuver", "extended_hold": "cargo",
                "extra_cannons": "cannons"}


def initial_state(config: dict[str, Any]) -> State:
    cat = config["catalog"]
    key = register(cat)
    S = tables({"cat": key})
    opts = config.get("options") or {}
    target = opts.get("glory", S["rules"]["glory_target"])
    seats = config["seats"]
    state: State = {
        "cat": key,
        # rules version 2: at a table, face-down tiles, tokens and the demand reserve stay unseen
        "unseen": int(config.get("rules_version", "1")) >= 2 and bool(config.get("table")),
        # rules version 3: the turn's end, the three-card rule, St. John's transfer (RULINGS.md)
        "fixes": int(config.get("rules_version", "1")) >= 3,
        # rules version 4: rumors followed and missions completed (tasks.py)
        "tasks": int(config.get("rules_version", "1")) >= 4,
        # rules version 4: glory cards played in combat and in other players' turns (glory.py)
        "glory_windows": int(config.get("rules_version", "1")) >= 4,
        # rules version 5: a fight won earns glory, the plundered glory cards counted, the NPC's
        # controller the next player in turn order, NPCs hunting players in port (RULINGS.md)
        "combat_fixes": int(config.get("rules_version", "1")) >= 5,
        # option decline=once (the Portuguese book): an announced glory card declined once a turn
        "decline_once": opts.get("decline") == "once",
        # the other options where the Italian and Portuguese books disagree (readings.py)
        "readings": chosen(opts),
        # rules version 5: what the table sees (a card bought, a card's gold loss said once), the
        # first player drawn as a captain card, event cards without the stale note (RULINGS.md)
        "table_seen": int(config.get("rules_version", "1")) >= 5,
        # rules version 6: an NPC's hunting tie settled by drawing one of the tied players' captain
        # cards, as the book says; a random cargo loss with one card left is no draw (RULINGS.md)
        "draws_ties": int(config.get("rules_version", "1")) >= 6,
        "turn": 0,
        "phase": "setup",            # setup -> play -> over
        "end_reason": None,
        "target": target,
        "order": [],                 # seats in turn order, first player first
        "cur": 0,                    # index in order of the seat whose turn it is
        "actions": 0,                # actions left to the current seat
        "acted": False,              # the current seat has taken an action this turn
        "port_used": False,          # the port action was taken this turn
        "port": None,  # type: ignore[typeddict-item]  # the port action in progress (None: none; PortActionBegun)
        "withdrew": False,           # the current seat took gold from the stash this turn
        "combat": None,  # type: ignore[typeddict-item]  # a fight (None: none; combat.py, boarding.py)
        "raid": None,  # type: ignore[typeddict-item]  # a merchant sighted or raided (None: none; raid.py)
        "scouted": [],               # targets scouted this turn (none twice)
        "players": [new_player(n) for n in range(1, seats + 1)],
        "decks": {
            "cargo": [c for c in S["good"]], "cargo_discard": [],
            "events": list(S["events"]), "event_discard": [],
            "glory": list(S["glory"]), "glory_discard": [],
            "rumors": list(S["rumors"]), "missions": list(S["missions"]), "mission_discard": [],
            "captains": list(S["captains"]), "captain_discard": [],
            "demand_reserve": [],
        },
        "board": {
            "demand": {},            # port -> demand tile (face up)
            "upgrades": {p: None for p in S["ports"]},   # port -> tile (face down until revealed)
            "revealed": {p: False for p in S["ports"]},
            "merchants": {z: None for z in S["zone_order"]},  # zone -> token (face down)
            "merchant_track": [],    # merchants scouted (raid.py)
            "missions": {},          # mission -> port
            "npcs": {},              # NPC ships at sea (npc.py)
            "war": None,             # the two nations at war (war.py)
        },
        "weapons": dict(S["weapons"]),
        "bank": S["rules"]["coins_total"],
        "declared": [],
    }
    if config.get("position") is not None:
        state["position"] = config["position"]   # a stated position, laid by the setup (position.py)
    if key != default_key():
        state["tables"] = S      # another catalog: keep its tables with the state
    return state


def new_player(seat: int) -> Player:
    return {
        # (no captain, ship or zone before the set-up: the shapes name what the rules read after it)
        "seat": seat, "captain": None, "revealed": False, "chosen": None, "ship": None,  # type: ignore[typeddict-item]
        "zone": None, "in_port": False, "gold": 0, "stash": 0, "stash_acts": 0,  # type: ignore[typeddict-item]
        "cargo": [], "glory": 0, "hand": [], "specialists": [], "rumor": None, "offered_rumor": None,
        "mission": None, "weapons": {}, "flags": {}, "glory_ship": False, "last_buy": None,
        "needs_captain": False, "returning": [], "pending": [], "captains_had": 0,
    }


# what a phase hands back to the turn's flow (``flow.carry_on``); None: nothing to do (a
# decision is awaited, or the turn goes on as it is)
END_TURN = "end turn"       # the current player's turn ends (his captain died in it)
CARRY_ON = "carry on"       # a fight is over and the current player lived: his turn carries on


# the state's queries ------------------------------------------------------------------

def player(state: State, seat: int) -> Player:
    return state["players"][seat - 1]


if TYPE_CHECKING:               # (an NPC's name gives its side, a seat its player)
    @overload
    def side(state: State, who: str) -> NpcSide: ...
    @overload
    def side(state: State, who: int) -> Player: ...
    @overload
    def side(state: State, who: Who) -> Side: ...


def side(state: State, who: Who) -> Side:
    """A side of a fight: a seat's player, or the NPC fighting (``npc:<id>``; its ship is
    the Enemy chart's, its hold the cards found when it is plundered)."""
    if isinstance(who, str):
        return state["combat"]["npc"]  # type: ignore[return-value]  # (an NPC side: the fight has one)
    return player(state, who)


def side_key(c: Combat, who: Who) -> str:
    """``a`` (the attacker) or ``d`` (the defender): where a side's dice and action are kept."""
    return "a" if who == c["a"] else "d"


def ship_max(state: Mapping[str, Any], ship: Ship, stat: str) -> int:
    """The ship's value for ``stat`` with its upgrades (never above the maximum)."""
    if not ship["upgrades"]:
        return derived(state)["ship_maxima"][ship["type"]][stat]
    S = tables(state)
    key = "toughness" if stat in ("hull", "masts") else stat
    v = S["ships"][ship["type"]][key]
    for t in ship["upgrades"]:
        if UPGRADE_STAT.get(S["upgrade"][t]) == key:
            v += 1
    return min(v, S["rules"]["stat_max"])


def ship_maxima(state: Mapping[str, Any], ship: Ship) -> dict[str, int]:
    """``ship_max`` of every stat (``SHIP_STATS``) at once: {stat: value}. Read it, never
    change it (without upgrades it is the ship type's own table, derived.py)."""
    if not ship["upgrades"]:
        return derived(state)["ship_maxima"][ship["type"]]
    return {stat: ship_max(state, ship, stat) for stat in SHIP_STATS}


def damage(state: State, ship: Ship) -> int:
    """Damage points (crew losses are not damage: they are recruited)."""
    most = ship_maxima(state, ship)
    n = 0
    for loc in ("hull", "masts", "cargo", "cannons"):
        n += most[loc] - ship[loc]
    return n


def capacity(state: State, p: Side) -> int:
    cap = p["ship"]["cargo"]
    if has(state, p, "extra_cargo"):
        cap += 1
    return cap


def home(state: State, p: Player, S: dict[str, Any] | None = None) -> str:
    """``S``: the state's tables (``tables(state)``), when the caller has read them."""
    return (S or tables(state))["captains"][p["captain"]]["home"]


def at_home(state: State, p: Player, S: dict[str, Any] | None = None) -> bool:
    """``S``: the state's tables (``tables(state)``), when the caller has read them."""
    return p["in_port"] and p["zone"] == home(state, p, S)


def funds(state: State, p: Player, home: bool | None = None) -> int:
    """What the player may spend now: gold on board, and the stash at the home port
    (``home``: ``at_home``, when the caller has read it)."""
    if home is None:
        home = at_home(state, p)
    return p["gold"] + (p["stash"] if home else 0)


def stash_terms(state: State) -> tuple[int, int]:
    """The stash's rate (gold a glory point) and the most glory it may give."""
    r = tables(state)["rules"]
    return r["stash_gold_per_glory"], state["target"] // r["stash_glory_fraction"]


def stash_glory(state: State, p: Player, terms: tuple[int, int] | None = None) -> int:
    per, most = terms or stash_terms(state)
    return min(p["stash"] // per, most)


def total_glory(state: State, p: Player) -> int:
    return p["glory"] + stash_glory(state, p)


def current_seat(state: State) -> int | None:
    order = state["order"]
    if state["phase"] != "play" or not order:
        return None
    return order[state["cur"]]


def new_ship(state: Mapping[str, Any], kind: str, crew: int | None = None) -> Ship:
    s = tables(state)["ships"][kind]
    return {"type": kind, "hull": s["toughness"], "masts": s["toughness"], "cargo": s["cargo"],
            "crew": s["crew"] if crew is None else min(crew, s["crew"]), "cannons": s["cannons"],
            "upgrades": [], "flipped": []}


def pay(state: State, p: Player, amount: int) -> None:
    from_board = min(p["gold"], amount)
    p["gold"] -= from_board
    p["stash"] -= amount - from_board
    state["bank"] += amount


def receive(state: State, p: Player, amount: int) -> None:
    p["gold"] += amount
    state["bank"] -= amount


def spend_action(state: State) -> None:
    """One of the turn's actions taken (the book: three a turn)."""
    state["actions"] -= 1
    state["acted"] = True


def side_name(who: Who) -> str:
    """``seat 2``, or ``the dutch naval ship`` for an NPC side."""
    return f"the {who[4:].replace('_', ' ')} ship" if is_npc(who) else f"seat {who}"


def other_side(c: Combat, who: Who) -> Who:
    """The other side of the fight ``c``."""
    return c["d"] if who == c["a"] else c["a"]


# a fight's sides (combat.py) ------------------------------------------------------

def nation_of(state: State, p: Side) -> str | None:
    """A player's ship sails under its captain's home port's flag (an NPC: its nation's)."""
    if "npc" in p:
        return p["nation"]
    S = tables(state)
    return S["zones"][S["captains"][p["captain"]]["home"]]["nation"]


def is_pirate(p: Side) -> bool:
    return bool(p.get("npc_pirate")) or any(p["flags"].values())


def is_npc(who: Who) -> TypeIs[str]:
    return isinstance(who, str)


def upgrade_tile(state: State, p: Side, kind: str, ready: bool = False) -> str | None:
    """The upgrade tile of ``kind`` on the player's ship (face up only, if ``ready``)."""
    upgrades = p["ship"].get("upgrades")
    if not upgrades:                    # (most ships: the tables are not even read)
        return None
    S = tables(state)
    for t in upgrades:
        if S["upgrade"][t] == kind and not (ready and t in p["ship"]["flipped"]):
            return t
    return None


def cargo_by_good(state: State, p: Side) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    good = tables(state)["good"]
    for c in p["cargo"]:
        out.setdefault(good[c], []).append(c)
    for cards in out.values():
        cards.sort()
    return out


def unseen_identities(state: State, kind: str) -> list[str]:
    """At a table: the tiles (``demand``/``upgrade``) or tokens (``merchant``)
    nobody has seen yet, i.e. every one of the kind not known to be elsewhere.
    Empty in any other game: nothing lies face down unseen, nobody is asked to name it."""
    if not state.get("unseen"):
        return []
    every = tables(state)[kind]
    board = state["board"]
    if kind == "demand":
        known = set(board["demand"].values()) | {t for t in state["decks"]["demand_reserve"] if not is_unknown(t)}
    elif kind == "upgrade":
        known = {t for t in board["upgrades"].values() if t is not None and not is_unknown(t)}
        for p in state["players"]:
            known |= set((p.get("ship") or {}).get("upgrades", [])) | set(p.get("returning", []))
    else:
        known = {t for t in board["merchants"].values() if t is not None and not is_unknown(t)}
        known |= set(board.get("merchant_track", []))
    return sorted(t for t in every if t not in known)


def glory_window(state: State) -> Window | None:
    """The open window: a fight's (``state["combat"]["window"]``) or, at the start of a
    player's turn, the table's (``state["turn_window"]``); None."""
    c = state.get("combat")
    if c is not None and c.get("window") is not None:
        return c["window"]
    return state.get("turn_window")

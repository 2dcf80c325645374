"""Merchants & Marauders: the shapes of the state, for the type checker alone.

The state is plain dicts and lists (msgpack data, folded in place by the events'
handlers); these ``TypedDict``s name their keys and what each holds, and cost nothing
at run time (a ``TypedDict`` is a ``dict``). ``state.py`` builds them
(``initial_state``, ``new_player``, ``new_ship``), the events' handlers change them.

Cards, tiles and tokens are named by their catalog ids (``"C01"``, ``"G03"``,
``"U07"``, ``"M12"``), or, at a table, by the kernel's unknown names for the face-down
ones (``service.kernel.machine.is_unknown``).
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict, final

# a side of a fight: a seat, or the NPC fighting (``"npc:<id>"``)
Who = int | str
# a ship's hit locations (``state.LOCATIONS``): a ``Ship``'s keys read by a location's name
Location = Literal["hull", "masts", "cargo", "crew", "cannons"]
# a decision as ``legal`` lists it (JSON: the ``action`` and its fields)
Decision = dict[str, Any]
# what a phase hands the turn's flow (``flow.carry_on``): ``state.END_TURN``, ``state.CARRY_ON``, an NPC
# that found the current player, ``(npc, seat)``, or None
Outcome = str | tuple[str, int] | None


class Ship(TypedDict):
    """A ship: its type, what is left of each hit location, its upgrade tiles."""
    type: str
    hull: int
    masts: int
    cargo: int
    crew: int
    cannons: int
    upgrades: list[str]        # upgrade tiles fitted
    flipped: list[str]         # upgrade tiles used (face down) this fight


@final           # (final: ``"npc" in p`` tells a player from an NPC side, ``Side``)
class Player(TypedDict):
    """A seat's player: its captain, ship, where it sails, what it owns."""
    seat: int
    captain: str               # None while the seat has no captain (the set-up's draw, a captain lost)
    revealed: bool             # the captain card is face up
    chosen: str | None         # the ship chosen in secret at the set-up or for a new captain
    ship: Ship                 # None while a new captain chooses a ship (``chosen``): read once chosen
    zone: str                  # None before the set-up places the ship
    in_port: bool
    gold: int                  # gold on board
    stash: int                 # gold in the stash at the home port
    stash_acts: int
    cargo: list[str]           # cargo cards
    glory: int                 # the glory track
    hand: list[str]            # glory cards
    specialists: list[str]     # specialist glory cards in play
    rumor: str | None
    offered_rumor: str | None
    mission: str | None
    weapons: dict[str, int]    # special weapon -> count
    flags: dict[str, Any]      # wanted flags by nation
    glory_ship: bool
    last_buy: Any
    needs_captain: bool
    returning: list[str]       # upgrade tiles of a sold or lost ship, to place in ports
    pending: list[str]         # what the player must do before anything else ("choose_ship", "keep_rumor")
    captains_had: int
    redrawn: NotRequired[bool]          # a new captain drawn again (npc.may_redraw)
    rumor_shown: NotRequired[bool]      # the kept rumor lies face up (tasks.py)


@final
class NpcSide(TypedDict):
    """The NPC fighting, shaped as a player for the fight's rules (combat.py)."""
    npc: str
    seat: str                  # "npc:<id>"
    nation: str | None
    npc_pirate: bool
    npc_captain: dict[str, int]   # skill -> value (the Enemy chart)
    ship: Ship
    weapons: dict[str, int]
    flags: dict[str, Any]
    hand: list[str]
    cargo: list[str]
    gold: int
    rumor: None
    specialists: list[str]
    captain: None
    zone: str
    in_port: bool
    card: str | None
    rumor_shown: NotRequired[bool]      # (never: a player's, popped from either side)


# a side of a fight, as ``state.side`` returns it
Side = Player | NpcSide


class Summary(TypedDict):
    """A captain's or specialist's abilities as lookups (``abilities.summary``)."""
    words: frozenset[str]
    extra_die: dict[str, int]      # skill -> extra dice
    discount: dict[str, int]       # price -> gold off


class Window(TypedDict):
    """A glory-card window (glory.py): in a fight, or at the start of a turn."""
    phase: str
    seats: list[int]
    passed: list[int]
    announced: list[Any]
    reasked: list[int]
    resolved: list[Any]
    reroll: list[Any]
    declined: list[Any]
    waiting: NotRequired[int | None]   # the seat asked now (a window at the start of a turn)
    stage: NotRequired[str | None]


class Combat(TypedDict):
    """A fight (combat.py, boarding.py). ``a``, ``d``: the attacker and defender; the
    dicts by side (``declared``, ``dice``, ``bow``) are keyed ``"a"``/``"d"``
    (``state.side_key``), those by target (``hits``, ``skulls``) by ``str(who)``."""
    npc: NpcSide | None
    a: Who
    d: Who
    round: int
    kind: str                  # "naval" or "crew"
    stage: str
    waiting: Who
    target: Who | None
    declared: dict[str, str]
    dice: dict[str, list[Any]]
    rerolled: list[Who]
    round_winner: Who | None
    due: dict[str, int]
    located: list[str]
    hits: dict[str, list[dict[str, Any]]]
    skulls: dict[str, int]
    reallocated: list[Any]
    asked: list[Any]
    winner: Who | None
    loser: Who | None
    before_round: bool
    bow: dict[str, Any]
    bow_asked: list[Any]
    absorb_asked: list[Any]
    window: Window             # a glory window in the fight (None: none open)
    crew_round: int


class Raid(TypedDict):
    """A merchant sighted or raided (raid.py)."""
    seat: int
    zone: str
    token: str
    nation: str
    stage: str
    cards: list[str]
    successes: int
    failures: int
    left: int
    loot: int
    chosen: NotRequired[str]   # the nation of the merchant raided


class PortAction(TypedDict):
    """The port action in progress (port.py)."""
    port: str
    started: list[str]         # the activities begun
    act: str | None            # the activity open now
    sell_closed: bool
    offer: dict[str, Any]
    bought: int


class Npc(TypedDict):
    """An NPC ship at sea (npc.py); a war's Man-o-War has its nation and captain."""
    zone: str
    cards: list[str]
    ship: str
    nation: NotRequired[str]
    captain: NotRequired[dict[str, int]]


class Board(TypedDict):
    demand: dict[str, str]               # port -> demand tile (face up)
    upgrades: dict[str, str | None]      # port -> upgrade tile
    revealed: dict[str, bool]            # port -> its upgrade tile is face up
    merchants: dict[str, str | None]     # zone -> merchant token (face down)
    merchant_track: list[str]            # merchants scouted
    missions: dict[str, str]             # mission -> port
    npcs: dict[str, Npc]                 # NPC id -> the NPC at sea
    war: list[str] | None                # the two nations at war


# the decks, each a list of card ids, top last: cargo, cargo_discard, events, event_discard,
# glory, glory_discard, rumors, missions, mission_discard, captains, captain_discard,
# demand_reserve (a deck is named by a string: ``step.draw(deck, ...)``, the events' ``deck``)
Decks = dict[str, list[str]]


class NpcQueue(TypedDict):
    seat: int
    npcs: list[str]


class Declines(TypedDict):
    turn: list[int]            # [turn, cur]: the player's turn it counts for
    seats: list[int]


class State(TypedDict):
    """The referee's state of a game (state.py tells what lies where)."""
    cat: str                    # the catalog's key (``catalog.tables``)
    unseen: bool
    fixes: bool
    tasks: bool
    glory_windows: bool
    combat_fixes: bool
    decline_once: bool
    table_seen: bool
    draws_ties: bool
    turn: int
    phase: str                  # setup -> play -> over
    end_reason: str | None
    target: int                 # glory to win
    order: list[int]            # seats in turn order
    cur: int                    # index in order of the seat whose turn it is
    actions: int
    acted: bool
    port_used: bool
    # the phases below are None while they are not under way: their shapes are what the
    # rules read while they are, having asked ``state["combat"] is not None`` (or been
    # called by a phase that did); the type names the shape, not the None
    port: PortAction
    withdrew: bool
    combat: Combat
    raid: Raid
    scouted: list[Any]
    players: list[Player]
    decks: Decks
    board: Board
    weapons: dict[str, int]     # the special weapons left in the supply
    bank: int
    declared: list[int]
    position: NotRequired[dict[str, Any]]     # a stated position (position.py)
    tables: NotRequired[dict[str, Any]]       # another catalog's tables
    turn_window: NotRequired[Window]          # a glory window at the start of a turn (None: none open)
    npc_queue: NotRequired[NpcQueue]          # NPCs about to scout the current player (None: none)
    npc_arriving: NotRequired[list[Any]]
    npc_returning: NotRequired[list[Any]]
    mow_arriving: NotRequired[list[dict[str, Any]]]
    event_in_play: NotRequired[str | None]
    last_glory: NotRequired[str]
    declines: NotRequired[Declines]
    readings: NotRequired[dict[str, str]]      # the options naming another reading (readings.py; absent: defaults)

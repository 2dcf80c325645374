"""The Kaiser's Pirates state's shape, for the type checker alone: at run time the state
and every part of it are plain dicts (msgpack data, folded in place by the handlers), and
no module imports this one (each names it under ``TYPE_CHECKING = False``, as the kernel does, so
that ``typing`` is not imported at run time). Where every card is: ``state.py``'s text.
A card, ship or merchant is named by its catalog id (a string)."""

# (no ``from __future__ import annotations``: the TypedDicts' keys, required or not, are
# read from their annotations when a test imports this module, tests/kaisers_pirates/test_shapes.py)
from typing import Any, NotRequired, TypedDict, TypeVar

T = TypeVar("T")


# a roll's modifiers: their sum, and each said in words ("damaged -2")
Mods = tuple[int, list[str]]


class Placed(TypedDict):
    """A Deception or Fog Bank placed on a seat (``Player["pending"]``), or the
    reaction played against the current attack (``Engagement["reaction"]``)."""
    card: str
    type: str


class VpEntry(TypedDict):
    """A card in a seat's ``vp`` pile: a ship or merchant sunk or captured, an action card sunk."""
    card: str
    deck: str               # "ship", "merchant", "action" or "solitaire"
    double: bool
    passage: NotRequired[bool]


class Player(TypedDict):
    hand: list[str]
    ships: list[str]        # warships and raiders
    merchants: list[str]
    prizes: list[str]
    vp: list[VpEntry]
    pending: Placed | None
    round_vp: list[int]     # the victory points of each round ended
    round_points: list[int]
    kept: str | None        # the ship kept between rounds
    wireless_turn: int | None
    last_turn: NotRequired[int]
    kept_n: NotRequired[int]
    skip: NotRequired[bool]  # the team game's Bounding Main


class Status(TypedDict):
    """A ship's or merchant's condition (``State["status"]``, by its id)."""
    damaged: bool
    supply: bool
    revealed: bool
    refuge: str | None      # the Island Refuge card it shelters under
    hits: NotRequired[int]
    since: NotRequired[int]  # the turn it entered the refuge


class Committed(TypedDict):
    """A card committed face down this turn."""
    card: str
    use: str                # "intercept" or "action"
    ship: str | None


class Turn(TypedDict):
    """This turn's bookkeeping (``State["tt"]``; ``flow._turn_started``)."""
    attack_on: int | None   # the one opponent of this turn's attacks (3.1.3)
    others: list[int]
    used: list[str]
    intercepted: list[str]
    committed: list[Committed]
    played: list[str]
    reactions: list[str]
    extra: list[str]
    second_chance: bool
    left_refuge: list[str]
    refuge_tried: list[list[str]]   # [ship, "supply" or "repair"]
    wireless: bool
    deceived: bool | str    # False, True, or "ignored" (3.3.10)
    reveal_after: list[str]
    ignored: list[str]
    no_passage: list[str]
    own_prev: int
    fogged: bool
    reacted_by: dict[str, int]
    revealed_at_start: list[str]
    prize_used: NotRequired[list[str]]   # 6.12's prizes whose stores were used


class Passage(TypedDict):
    """A merchant's or prize's passage on offer (3.2.6)."""
    ship: str
    seat: int
    bonus: int
    why: str


class Engagement(TypedDict):
    """The attack being resolved (``State["eng"]``): ``AttackAnnounced``'s data and its progress."""
    kind: str               # intercept, british, mines, torpedo, interrogate, monitor
    seat: int
    opp: int
    card: str
    ship: str | None
    targets: list[str]
    night: bool
    i: int                  # the target being attacked, an index of ``targets``
    stage: str
    surprise: bool
    searchlight: bool
    special: bool
    boarding: list[str]
    multi: str | None
    reaction: Placed | None
    reveal: list[str]
    passage: Passage | None
    reacted: list[str | None]
    by: NotRequired[str]
    guns: NotRequired[bool]
    pursue: NotRequired[bool]
    recall: NotRequired[str]


class Window(TypedDict):
    """Who must answer what (``State["window"]``): ``WindowOpened``'s data."""
    kind: str
    seat: int
    target: NotRequired[str]
    ships: NotRequired[list[str]]
    card: NotRequired[str]
    by: NotRequired[int]
    queue: NotRequired[list[int]]
    partner: NotRequired[int]
    ship: NotRequired[str]
    attack: NotRequired[str]
    against: NotRequired[str]
    decision: NotRequired[dict[str, Any]]


class Solo(TypedDict):
    """The phantom player's deck and where its turn is (the solitaire game, solitaire.py)."""
    pile: list[str]
    next: str
    short: NotRequired[str | None]
    recon: NotRequired[bool]


class Exchange(TypedDict):
    """The team game's Exchange Information under way (team.py)."""
    seats: list[int]
    give: dict[str, list[str]]


class State(TypedDict):
    cat: str                # the key of the cached ``catalog.Index``
    unseen: bool
    issue33: bool
    options: dict[str, Any]
    seats: int
    turn: int
    round: int
    phase: str              # setup, dealing, commit, resolve, keep, over
    current: int | None
    extra_turn: bool
    sorted_piles: bool
    pool: list[str]
    top: list[str]
    peek: list[str]
    set_aside: list[str]
    discard: list[str]
    ship_pool: list[str]
    ship_used: list[str]
    merchant_pool: list[str]
    merchant_used: list[str]
    status: dict[str, Status]
    players: list[Player]
    # this turn's bookkeeping and the attack being resolved: None between turns and between
    # attacks. Typed without None: the rules read each only while one is under way (the phase
    # or a test for None says so), which the type checker cannot follow, and a narrowing at
    # each read would cost an assert or a call in the folds; the few writes of None say so.
    tt: Turn
    eng: Engagement
    window: Window | None
    result: dict[str, Any] | None   # the end (``flow.result``): the kernel's outcome
    position: NotRequired[dict[str, Any]]
    removed_this_round: NotRequired[list[str]]
    top_known_by: NotRequired[int]
    top_seen: NotRequired[dict[str, list[str]]]
    unused: NotRequired[list[str]]
    unused_ships: NotRequired[list[str]]
    unused_merchants: NotRequired[list[str]]
    solo: NotRequired[Solo]
    exchange: NotRequired[Exchange | None]
    claims: NotRequired[dict[str, Any]]
    extra_rounds: NotRequired[int]
    tied: NotRequired[list[int]]




class StatedCard(TypedDict):
    """A ship, merchantman or prize of a stated position (position.py), as ``GameCreated`` records it."""
    card: str
    damaged: bool
    revealed: NotRequired[bool]     # a warship or raider, a prize
    supply: NotRequired[bool]       # short of supply (1.3.2)
    refuge: NotRequired[str]        # the Island Refuge card it shelters under (3.3.20; the phantom's: solo:...)
    markers: NotRequired[int]       # its damage markers (more than one: 6.8)


class StatedPlayer(TypedDict):
    """A seat of a stated position (the solitaire game's phantom too: seat 2), as ``GameCreated`` records it."""
    seat: int
    ships: NotRequired[list[StatedCard]]
    merchants: NotRequired[list[StatedCard]]
    prizes: NotRequired[list[StatedCard]]
    vp: list[VpEntry]
    round_points: list[int]
    hand: int                       # how many cards: stated (hidden, ``Rules.position``'s "stated") or dealt
    hand_stated: bool
    cards: NotRequired[list[str]]   # the cards stated (hidden: taken out before ``GameCreated``)
    pending: NotRequired[Placed]    # a Deception or Fog Bank waiting on it (3.3.10, 3.3.14)
    skip: NotRequired[bool]         # the team game: its turn skipped by Bounding Main (3.3.4)

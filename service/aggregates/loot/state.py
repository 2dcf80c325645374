"""Loot state and ``evolve``: how each event changes the table.

The state is the referee's: it holds every hand and the draw pile. ``view.py``
decides what a seat may see of it.

Sides: in the individual game every seat is its own side (side == seat); in
the pairs game seats 1+2 are team 1, 3+4 team 2, 5+6 team 3, 7+8 team 4.
A battle is a merchant ship in play with the attacks on it::

    {"merchant": "merchant-5a", "gold": 5, "owner": 1, "side": 1,
     "attacks": [{"colour": "blue", "side": 2, "skulls": 4, "cards": ["blue-4a"]}],
     "specials": ["admiral"],            # captains and the Admiral played on it
     "top": {"card": "admiral", "side": 1} | None}   # the last of them
"""

from __future__ import annotations

from .cards import build_deck

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any, NotRequired, TypedDict

    from service.kernel.events import Ev

    class Attack(TypedDict):
        colour: str
        side: int
        skulls: int
        cards: list[str]

    class Top(TypedDict):
        card: str
        side: int

    class Battle(TypedDict):
        merchant: str
        gold: int
        owner: int
        side: int
        attacks: list[Attack]
        specials: list[str]        # captains and the Admiral played on it
        top: Top | None            # the last of them

    class State(TypedDict):
        turn: int
        phase: str                 # setup -> play -> over
        seats: int
        pairs: bool
        hand_size: int
        dealer: int | None
        first: int | None          # seat left of the dealer: plays turn 1
        checkers: list[int]        # seats that check captures at the start of their turn
        fixed_checkers: bool
        current: int | None
        taker: int | None          # seat receiving the next drawn card
        pile: list[str]
        hands: list[list[str]]
        captured: list[list[str]]
        discard: list[str]
        sea: list[Battle]
        ended: str | None          # why the game ended
        position: NotRequired[dict[str, Any]]  # a stated position, until the setup lays it

DRAW_PILE = "draw_pile"


def initial_state(config: dict[str, Any]) -> State:
    state = _initial(config)
    if config.get("position") is not None:
        state["position"] = config["position"]  # a stated position, laid by the setup (position.py)
    return state


def _initial(config: dict[str, Any]) -> State:
    cat = config["catalog"]
    n = config["seats"]
    return {
        "turn": 0,
        "phase": "setup",            # setup -> play -> over
        "seats": n,
        "pairs": bool(config["options"].get("pairs", False)),
        "hand_size": cat["hand_size"]["value"],
        "dealer": None,
        "first": None,               # seat left of the dealer: plays turn 1
        "checkers": [],              # seats that check captures at the start of their turn
        # pairs: rules version 2 on, the first seat of each pair checks (RULINGS.md, "Pairs")
        "fixed_checkers": str(config.get("rules_version", "1")) != "1",
        "current": None,
        "taker": None,               # seat receiving the next drawn card
        "pile": build_deck(cat),
        "hands": [[] for _ in range(n)],
        "captured": [[] for _ in range(n)],
        "discard": [],
        "sea": [],
        "ended": None,               # why the game ended
    }


# sides --------------------------------------------------------------------
def side_of(state: Mapping[str, object], seat: int) -> int:
    return (seat + 1) // 2 if state["pairs"] else seat


def partner(state: Mapping[str, object], seat: int) -> int | None:
    if not state["pairs"]:
        return None
    return seat + 1 if seat % 2 else seat - 1


def hand_vis(state: Mapping[str, object], seat: int) -> list[int]:
    """The seats that see ``seat``'s hand: its own, and in pairs its partner's."""
    p = partner(state, seat)
    return [seat] if p is None else sorted((seat, p))


# battles ------------------------------------------------------------------
def battle(state: State, merchant: str) -> Battle | None:
    for b in state["sea"]:
        if b["merchant"] == merchant:
            return b
    return None


def attack_of(b: Battle, side: int) -> Attack | None:
    for a in b["attacks"]:
        if a["side"] == side:
            return a
    return None


def leader(b: Battle) -> int | None:
    """The side winning the battle now, or None (unattacked, or a tie).
    The last captain or Admiral played wins; otherwise the most skulls."""
    if b["top"] is not None:
        return b["top"]["side"]
    best, side = -1, None
    for a in b["attacks"]:  # the most skulls; None while the best is tied (or unattacked)
        skulls = a["skulls"]
        if skulls > best:
            best, side = skulls, a["side"]
        elif skulls == best:
            side = None
    return side


def captures(sea: list[Battle], side: int) -> list[Battle]:
    """The merchants at sea that ``side`` captures at the start of its
    (checker's) turn, in sea order (a new list): its own merchants unattacked,
    and those where it leads (``leader``)."""
    out = []
    for b in sea:
        unattacked = not b["attacks"] and b["top"] is None
        if (b["side"] if unattacked else leader(b)) == side:
            out.append(b)
    return out


def game_over(state: State) -> bool:
    """Pile empty and a player (pairs: both partners of a team) has no cards."""
    if state["phase"] != "play" or state["pile"]:
        return False
    hands = state["hands"]
    if state["pairs"]:
        return any(not hands[i] and not hands[i + 1] for i in range(0, state["seats"], 2))
    return not all(hands)


def _dealer_chosen(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["dealer"] = d["dealer"]
    state["first"] = d["first"]
    state["checkers"] = list(d["checkers"])


def _card_taken(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["taker"] = d["seat"]


def _card_drawn(state: State, d: dict[str, Any], ev: Ev) -> None:
    if d["deck"] != DRAW_PILE:
        return
    pile, card = state["pile"], d["card"]
    i = d.get("index")
    # the pile is kept sorted, the order the draw's index counts in: the card
    # is found there at once (else searched for, as the referee named it)
    if i is not None and i < len(pile) and pile[i] == card:
        del pile[i]
    else:
        pile.remove(card)
    state["hands"][state["taker"] - 1].append(card)  # type: ignore[operator]  # (a taker is named first)


def _turn_started(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["phase"] = "play"
    state["turn"] = ev.turn
    state["current"] = d["seat"]


def _merchant_played(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["hands"][d["seat"] - 1].remove(d["card"])
    state["sea"].append({"merchant": d["card"], "gold": d["gold"], "owner": d["seat"],
                         "side": d["side"], "attacks": [], "specials": [], "top": None})


def _pirate_played(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["hands"][d["seat"] - 1].remove(d["card"])
    b = battle(state, d["merchant"])
    assert b is not None  # (an event names a merchant at sea)
    a = attack_of(b, d["side"])
    if a is None:
        b["attacks"].append({"colour": d["colour"], "side": d["side"], "skulls": d["skulls"],
                             "cards": [d["card"]]})
    else:
        a["skulls"] += d["skulls"]
        a["cards"].append(d["card"])


def _special_played(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["hands"][d["seat"] - 1].remove(d["card"])
    b = battle(state, d["merchant"])
    assert b is not None  # (an event names a merchant at sea)
    b["specials"].append(d["card"])
    b["top"] = {"card": d["card"], "side": d["side"]}


def _card_discarded(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["hands"][d["seat"] - 1].remove(d["card"])
    state["discard"].append(d["card"])


def _merchant_captured(state: State, d: dict[str, Any], ev: Ev) -> None:
    b = battle(state, d["merchant"])
    assert b is not None  # (an event names a merchant at sea)
    state["sea"].remove(b)
    state["captured"][d["seat"] - 1].append(d["merchant"])
    state["discard"].extend(d["discarded"])


def _game_ended(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["discard"].extend(d["discarded"])
    state["sea"] = []
    state["phase"] = "over"
    state["ended"] = d["reason"]


HANDLERS = {
    "DealerChosen": _dealer_chosen,
    "CardTaken": _card_taken,
    "CardDrawn": _card_drawn,
    "TurnStarted": _turn_started,
    "MerchantPlayed": _merchant_played,
    "PiratePlayed": _pirate_played,
    "CaptainPlayed": _special_played,
    "AdmiralPlayed": _special_played,
    "CardDiscarded": _card_discarded,
    "MerchantCaptured": _merchant_captured,
    "GameEnded": _game_ended,
}

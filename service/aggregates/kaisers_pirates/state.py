"""The Kaiser's Pirates state: its shape, where every card is, and the events
every phase uses (a window opened or closed, a reaction played, a card
revealed). Each other event is applied in the module that decides it (its
``HANDLERS``); ``rules.HANDLERS`` gathers them into the game's ``evolve``.

The state is the referee's (it holds every hand and the set-aside cards);
``view.py`` decides what a seat may see. The card catalog is not copied into
the state: ``state["cat"]`` is the key of the cached ``catalog.Index``.

Where cards are:
* action cards: ``pool`` (the draw pile, unordered: each draw is a random
  card of it), ``top`` (cards an Intelligence put back in a known order, drawn
  first), ``set_aside`` (removed secretly at the round's start), a seat's
  ``hand``, the current turn's ``committed``/``played``/``reactions``,
  ``discard`` (face up, last = top), a seat's ``pending`` (Deception / Fog
  Bank placed on it), a ship's ``refuge`` card, a seat's ``vp`` pile (AMC,
  Q-ship and submarine cards sunk);
* ships and merchants: ``ship_pool``/``merchant_pool`` (draw piles),
  ``ship_used``/``merchant_used`` (the "bottom" of the deck: reshuffled when
  the pool runs out), a seat's ``ships`` (warships and raiders), ``merchants``,
  ``prizes``, or ``vp`` pile.

The draw piles (``pool``, ``ship_pool``, ``merchant_pool``) are unordered for
the rules, but their order is not free: at a table the referee is offered a
pile's cards in its order (the ``ChanceAwaited`` event), so there they keep
the catalog's. A seeded game's draws read a pile in the kernel's canonical
(sorted) order, in which no event shows the pile's own order, so there
(``sorted_piles``) they are kept sorted: the kernel sorts an already sorted
list in one pass, and the card drawn is found by bisection instead of a
search (``deal._take``). A state without the key (a snapshot taken before it
existed) keeps its piles as they are.
"""

from __future__ import annotations

from service.kernel.machine import is_unknown

TYPE_CHECKING = False  # mypy takes the name as true; typing is not imported at run time
if TYPE_CHECKING:
    from typing import Any

    from service.kernel.events import Ev

    from .catalog import Index
    from .shapes import Player, State


def initial_state(config: dict[str, Any], key: str, ix: Index) -> State:
    seats = config["seats"]
    piled = list if config.get("table") else sorted     # the piles' order (see the module's doc)
    state: State = {
        "cat": key,
        # at a table (rules version 2+) the cards set aside each round stay unseen: nobody names them
        "unseen": int(config.get("rules_version", "1")) >= 2 and bool(config.get("table")),
        # rules version 3 (issue 33): the phantom's glossary actions, Recalled and steps 9-10 "by"
        # the phantom; windows skipped when public facts rule out an answer; a torpedo's or a
        # UC-boat's name and a boarding's "captured" in the events. A game recorded under an
        # earlier version (or a snapshot without the key) plays on as it was played.
        "issue33": int(config.get("rules_version", "1")) >= 3,
        "options": config.get("options") or {},
        "seats": seats,
        "turn": 0,
        "round": 0,
        "phase": "setup",       # setup, commit, resolve, keep, over
        "current": None,
        "extra_turn": False,
        "sorted_piles": not config.get("table"),
        "pool": piled(ix.action_cards),
        "top": [],
        "peek": [],
        "set_aside": [],
        "discard": [],
        "ship_pool": piled(ix.ships),
        "ship_used": [],
        "merchant_pool": piled(ix.merchants),
        "merchant_used": [],
        "status": {},           # ship id -> {"damaged","supply","revealed","refuge"}
        "players": [
            {"hand": [], "ships": [], "merchants": [], "prizes": [], "vp": [], "pending": None,
             "round_vp": [], "round_points": [], "kept": None, "wireless_turn": None}
            for _ in range(seats)
        ],
        "tt": None,  # type: ignore[typeddict-item]  # this turn's bookkeeping (None between turns: shapes.State)
        "eng": None,  # type: ignore[typeddict-item]  # the attack being resolved (None between attacks)
        "window": None,         # who must answer what (reaction, assist, reflag, order, keep)
        "result": None,
    }
    if config.get("position") is not None:
        state["position"] = config["position"]      # a game from a stated position (position.py)
    return state


def player(state: State, seat: int) -> Player:
    return state["players"][seat - 1]


def pool_left(state: State) -> int:
    """Action cards left to draw: the pool less the unseen cards set aside
    (at a table the pool holds every card still possible, those included)."""
    if not state.get("unseen"):
        return len(state["pool"])       # seeded games (and older tables) hold real cards only
    hidden = state["set_aside"] + state["discard"] + [c for p in state["players"] for c in p["hand"]]
    return len(state["pool"]) - sum(1 for c in hidden if is_unknown(c))


def real_card(card: str) -> bool:
    """Not one of the phantom's pseudo-cards (``solo:<type>``, solitaire.py): those
    are never dealt, played from a hand nor discarded."""
    return not (isinstance(card, str) and card.startswith("solo:"))


# handlers ---------------------------------------------------------------


# how the events every phase uses change the state (``evolve``) ----------------------------------
def card_revealed(state: State, d: dict[str, Any], ev: Ev) -> None:
    tt = state["tt"]
    for c in tt["committed"]:
        if c["card"] == d["card"]:
            tt["committed"].remove(c)
            break
    if real_card(d["card"]):
        tt["played"].append(d["card"])
    if d.get("against") and d["against"] not in tt["others"]:
        tt["others"].append(d["against"])


def _window_opened(state: State, d: dict[str, Any], ev: Ev) -> None:
    # WindowOpened's data; its lists and dicts copied too: the window shares nothing with the event
    w = state["window"] = dict(d)  # type: ignore[typeddict-item]  # (a Window: the event's data)
    for k, v in d.items():
        # by the exact class (a window's data are plain JSON values, built here or decoded):
        # no isinstance call for each of its strings and numbers
        cls = v.__class__
        if cls is dict:
            w[k] = dict(v)
        elif cls is list:
            w[k] = list(v)


def _window_closed(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["window"] = None


def _reaction_played(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["window"] = None
    p = player(state, d["seat"])
    p["hand"].remove(d["card"])
    tt = state["tt"]
    if tt is not None:
        if d["seat"] == state["current"]:
            tt["played"].append(d["card"])
        else:
            tt["reactions"].append(d["card"])
            tt["reacted_by"][d["card"]] = d["seat"]
    if state["eng"] is not None and d.get("against") in ("attack", "sinking"):
        state["eng"]["reacted"].append(d.get("target"))
    if state["eng"] is not None and d.get("against") == "attack":
        state["eng"]["reaction"] = {"card": d["card"], "type": d["ctype"]}


HANDLERS = {
    "CardRevealed": card_revealed,
    "WindowOpened": _window_opened,
    "ReactionDeclined": _window_closed,
    "WindowClosed": _window_closed,
    "ReactionPlayed": _reaction_played,
}


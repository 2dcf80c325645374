"""What may be answered in an attack's windows (``combat.py`` opens them and
applies the answers): the assist cards that may join (3.2.1, 3.3), the reaction
card types the book allows against the current target (3.2.2, 3.3; the optional
rules' bars, 6.3.2, 6.9.2, 6.11.1), the reactions to a sinking (Recalled,
Mistaken Identity), Reflag after a ship is revealed (3.3.32), the next merchant
mines attack (3.3.21), passage (3.2.6) and pursuit (6.6.1, 6.10)."""

from __future__ import annotations

import itertools

from . import optional
from .board import committed, in_refuge, is_prize, is_raider, ix, may_hold
from .state import player

TYPE_CHECKING = False  # mypy takes the name as true; typing is not imported at run time
if TYPE_CHECKING:
    from typing import Any

    from .shapes import State


ASSISTS = ("surprise-attack", "searchlight", "special-cargo", "boarding-party", "good-hunting", "shipping-lanes")


def assist_joins(state: State, t: str, free: list[str] | None = None) -> bool:
    """Whether an assist card of type ``t`` may join the attack at its current target now
    (3.2.1, 3.3), by public facts only; ``free``: the merchants still free to intercept."""
    eng = state["eng"]
    first = eng["i"] == 0
    kind = eng["kind"]
    if kind == "intercept":
        if t == "boarding-party":
            tgt = eng["targets"][eng["i"]]
            return tgt not in eng["boarding"] and not state["status"][tgt]["damaged"]
        if not first:
            return False
        if t == "surprise-attack":
            return not eng["surprise"]
        if t == "searchlight":
            return eng["night"] and not eng["searchlight"]
        if t == "special-cargo":
            return not eng["special"]
        if t in ("good-hunting", "shipping-lanes") and eng["multi"] is None:
            if (t == "good-hunting") != is_raider(state, eng["ship"]):
                return False
            return bool(free_merchants(state) if free is None else free)
        return False
    if kind in ("british", "monitor"):
        return first and not eng["surprise"] and not eng["searchlight"] and (
            t == "surprise-attack" or (t == "searchlight" and eng["night"]))
    if kind in ("mines", "torpedo"):
        return t == "special-cargo" and first and not eng["special"]
    return False


def free_merchants(state: State) -> list[str]:
    eng = state["eng"]
    tt = state["tt"]
    return [m for m in player(state, eng["opp"])["merchants"] if m not in tt["intercepted"] and m not in tt["ignored"]]


def assist_options(state: State) -> list[dict[str, Any]]:
    i = ix(state)
    out = []
    free = None
    for card in committed(state, "action"):
        if i.card_kind[card] != "assist":     # the index's tables read straight (no method calls):
            continue                        # asked for every card face down at every assist window
        t = i.card_type[card]
        if t in ("good-hunting", "shipping-lanes") and free is None:
            free = free_merchants(state)
        if not assist_joins(state, t, free):
            continue
        if t == "good-hunting":
            out += [{"action": "assist", "card": card, "target": m} for m in free]  # type: ignore[union-attr]
        else:
            out.append({"action": "assist", "card": card})
    return out        # every committed copy is listed


def assist_window(state: State) -> bool:
    """3.2.1: whether the attacker is asked for assists now. Who is to act is public, so
    the window opens when the table cannot rule out a fitting assist among the
    action-side cards face down (``board.may_hold``): a card type that may join now, not
    every copy of which lies face up; skipping it then reveals nothing of those cards."""
    eng = state["eng"]
    cards = committed(state, "action")
    if not cards:
        return False
    return may_hold(state, eng["seat"], [t for t in ASSISTS if assist_joins(state, t)], cards)


def _intercept_reactions(calm: bool, raider: bool, damaged: bool, hidden_raider: bool) -> frozenset[str]:
    """The reaction card types against a German ship's intercept (3.3): ``calm``, neither a
    night action nor a Surprise Attack; ``raider``, the interceptor is a raider (``hidden_raider``:
    not revealed); ``damaged``, the target is damaged."""
    out = {"amc", "non-combatant", "slim-pickings", "trap"}
    if calm:
        out |= {"break-contact", "shallow-run"}
        if raider and not damaged:
            out.add("fast-ship")
    if damaged:
        out.discard("non-combatant")
    if hidden_raider:
        out.add("qqq")
    return frozenset(out)


# every case of ``_intercept_reactions``, worked out at import (read by ``reaction_types``)
_INTERCEPT_REACTIONS = {k: _intercept_reactions(*k) for k in itertools.product((False, True), repeat=4)}


def reaction_types(state: State) -> set[str] | frozenset[str]:
    """The reaction card types the book allows against the current target now."""
    eng = state["eng"]
    tgt = eng["targets"][eng["i"]]
    kind = eng["kind"]
    calm = not eng["night"] and not eng["surprise"]
    out: set[str] | frozenset[str]
    if kind == "intercept":
        raider = eng["ship"] in ix(state).raiders
        status = state["status"]
        # (the sets worked out once: asked at every intercept)
        out = _INTERCEPT_REACTIONS[calm, raider, bool(status[tgt]["damaged"]),
                                   raider and not status[eng["ship"]]["revealed"]]  # type: ignore[index]
    elif kind in ("british", "monitor", "interrogate"):
        out = {"pull-the-plug"}
        if calm and not in_refuge(state, tgt):
            out |= {"break-contact", "shallow-run"}
        if kind != "interrogate" and (is_raider(state, tgt) or is_prize(state, tgt)) and state["status"][tgt]["revealed"]:
            out.add("reflag")
    elif kind == "mines":
        out = {"minesweeper"} if eng["i"] == 0 else set()
    elif kind == "torpedo":
        out = {"q-ship", "razzle-dazzle"}
        if ix(state).merchants[tgt]["sail"]:
            out.add("sail-q-ship")
    else:
        out = set()
    if state.get("options"):
        out = optional.barred(state, out)
    return out


def reaction_options(state: State, seat: int) -> list[dict[str, Any]]:
    i = ix(state)
    types = reaction_types(state)
    out = []
    for card in sorted(state["players"][seat - 1]["hand"]):
        if i.card_type[card] in types:
            out.append({"action": "react", "card": card})
    return out + [{"action": "decline"}]


def after_options(state: State, seat: int) -> list[dict[str, Any]]:
    """After a merchant is sunk: Recalled (the intercepting ship) or Mistaken Identity."""
    eng = state["eng"]
    i = ix(state)
    out = []
    p = player(state, seat)
    for card in sorted(p["hand"]):
        t = i.tid(card)
        if t == "recalled" and eng["kind"] == "intercept" and eng["ship"] in player(state, eng["seat"])["ships"]:
            out.append({"action": "react", "card": card})
        elif t == "mistaken-identity":
            # 3.3.23: "un qualsiasi singolo Mercantile affondato dal suo mazzo": a merchant
            # this player sank (not one of its own that reached port)
            for e in p["vp"]:
                if e["deck"] == "merchant" and not e.get("passage"):
                    out.append({"action": "react", "card": card, "give": e["card"]})
    return out + [{"action": "decline"}]


def reflag_options(state: State, seat: int) -> list[dict[str, Any]]:
    w = state["window"]
    i = ix(state)
    cards = sorted(c for c in player(state, seat)["hand"] if i.tid(c) == "reflag")
    # (the reflag window is open)
    ships = [s for s in w["ships"] if state["status"].get(s, {}).get("revealed")]  # type: ignore[index, call-overload]
    return [{"action": "react", "card": c, "ship": s} for c in cards for s in ships] + [{"action": "decline"}]


def mine_order_options(state: State) -> list[dict[str, Any]]:
    return [{"action": "mine_target", "target": m} for m in live_mine_targets(state, state["eng"]["i"])]


def live_mine_targets(state: State, start: int) -> list[str]:
    """The merchants from the ``start``-th target on that the mines may still attack."""
    eng = state["eng"]
    mer = player(state, eng["opp"])["merchants"]
    return [t for t in eng["targets"][start:] if t in mer]


def window_options(state: State, seat: int) -> list[dict[str, Any]]:
    w = state["window"]
    if w is None or w["seat"] != seat:
        return []
    k = w["kind"]
    if k == "assist":
        return assist_options(state) + [{"action": "proceed"}]
    if k == "react":
        return reaction_options(state, seat)
    if k == "after":
        return after_options(state, seat)
    if k == "reflag":
        return reflag_options(state, seat)
    if k == "order":
        return mine_order_options(state)
    if k == "passage":
        return [{"action": "passage", "attempt": True}, {"action": "passage", "attempt": False}]
    if k == "pursue":
        return [{"action": "pursue", "pursue": True}, {"action": "pursue", "pursue": False}]
    return []

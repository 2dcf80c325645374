"""Referee decisions (``Rules.referee``): the penalty of 3.1.5 for irregular plays.

"AZIONI IRREGOLARI. Se viene impiegata o giocata inavvertitamente una carta in
modo irregolare, deve essere scartata." At the table the referee names the
seat and the card: ``{"referee": "penalty", "seat": N, "card": C}`` discards
a card that seat holds in hand or has committed face down this turn (not yet
played). The penalty is a public fact (``PenaltyApplied``, rule 3.1.5); the
card goes face up onto the discard pile like any discard.
"""

from __future__ import annotations

from service.kernel import IllegalDecision
from service.kernel.machine import strictly_equal

from .board import ix
from .state import player

TYPE_CHECKING = False  # mypy takes the name as true; typing is not imported at run time
if TYPE_CHECKING:
    from typing import Any

    from service.kernel.events import Ev
    from service.kernel.machine import Step

    from .shapes import State


def _committed(state: State, seat: int) -> list[str]:
    tt = state["tt"]
    if tt is None or state["current"] != seat:
        return []
    w = state["window"]
    if w is not None and w["kind"] == "discard":
        return []          # the turn's cards are already going onto the discard pile
    return [c["card"] for c in tt["committed"]]


def penalty_cards(state: State, seat: int) -> list[str]:
    """The cards of ``seat`` a penalty may discard now: in hand or committed face down."""
    if state["phase"] in ("over", "setup", "dealing"):
        return []
    return sorted(player(state, seat)["hand"]) + sorted(_committed(state, seat))


def referee_legal(state: State) -> list[dict[str, Any]]:
    return [{"referee": "penalty", "seat": s, "card": c}
            for s in range(1, state["seats"] + 1) for c in penalty_cards(state, s)]


def referee(step: Step, d: dict[str, Any]) -> None:
    state = step.state
    if d.get("referee") != "penalty":
        raise IllegalDecision(f"kaisers-pirates has no referee decision {d.get('referee')!r} "
                              '(known: "penalty", 3.1.5)')
    seat, card = d.get("seat"), d.get("card")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= state["seats"]:
        raise IllegalDecision(f"a penalty names a seat from 1 to {state['seats']}")
    if not any(strictly_equal(d, listed) for listed in referee_legal(state)):
        name = ix(state).card_name.get(card, repr(card)) if isinstance(card, str) else repr(card)
        raise IllegalDecision(f"seat {seat} does not hold {name} in hand nor committed face down: "
                              "no penalty to apply (3.1.5)")
    where = "hand" if card in player(state, seat)["hand"] else "committed"
    name = ix(state).card_name[card]  # type: ignore[index]  # (a card: the decision is listed)
    step.emit("PenaltyApplied", {"seat": seat, "card": card, "name": name, "where": where,
              "rule": "3.1.5", "why": "a card committed or played irregularly is discarded"})


# how each event decided here changes the state (``evolve``) -----------------------------------
def _penalty_applied(state: State, d: dict[str, Any], ev: Ev) -> None:
    """3.1.5: the irregular card leaves the hand (or the committed cards) face up."""
    p = player(state, d["seat"])
    card = d["card"]
    if card in p["hand"]:
        p["hand"].remove(card)
    tt = state["tt"]
    if tt is not None:
        if card in tt["extra"]:
            tt["extra"].remove(card)
        tt["committed"] = [c for c in tt["committed"] if c["card"] != card]
    state["discard"].append(card)


HANDLERS = {
    "PenaltyApplied": _penalty_applied,
}

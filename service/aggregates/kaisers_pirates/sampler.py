"""A determinization of a Kaiser's Pirates table for one seat (service/kernel/sampling.py).

Hidden from a seat (view.py): the cards in the other hands (their number is
public), the draw pile, the cards set aside, cards an Intelligence put on top
of the deck (unless this seat ordered them; a seat that saw some of them
knows they are there, not where), the cards another seat peeks at, the cards
another current player committed face down, the cards another seat chose to
give in the team game's Exchange Information, and in the solitaire game the
discard pile. Ships, merchants, markers, VP piles and the discards are face up.

All those hidden action cards make one pool, in canonical order, shuffled with
the caller's ``rng``. A committed card is drawn first, one that can be committed
on the side it lies (an intercept takes any card; the action side a card whose
kind allows it, Lay Mines on a minelayer); then each other hand, the set-aside
cards, the unknown places on top of the deck and the peeked cards take their
number, in that order; the rest is the draw pile (kept sorted, as a seeded game
keeps it). A card the seat knows lies on top stays there, the order of the top
drawn again. A seat's cards to give are drawn from its new hand, their number kept.

At a table (``unseen``) the cards set aside, and in solitaire the phantom's hand
and the cards it put face down on the discard pile, are unknown tokens
(``?action:set-aside#n``, service/kernel/machine.py) and the pool holds every
identity still possible for them besides the draw pile. A token adds no card to
the pool: its place takes one dealt from it like any hidden place, so the draw
pile left is the pool less as many cards as there were tokens (``pool_left``).
The determinization then holds real cards only and is played as a seeded game's
state (``unseen`` off: a new round's cards are set aside by a draw).
"""

from __future__ import annotations

import random

from service.kernel.machine import is_unknown
from service.kernel.sampling import canonical, copy_state, shuffled

from .board import ix

TYPE_CHECKING = False  # mypy takes the name as true; typing is not imported at run time
if TYPE_CHECKING:
    from .catalog import Index
    from .shapes import Committed, State


def _fits(i: Index, card: str, committed: Committed) -> bool:
    use, ship = committed["use"], committed.get("ship")
    if use != "action":
        return True
    if ship:
        return i.card_type[card] == "lay-mines"
    return i.card_kind[card] in ("normal", "assist", "team") or i.card_type[card] == "reflag"


def _known(cards: list[str]) -> list[str]:
    """``cards`` less the unknown tokens (their identities are in the pool already)."""
    return [c for c in cards if not is_unknown(c)]


def determinize(state: State, seat: int, rng: random.Random) -> State:
    out = copy_state(state)
    i = ix(out)
    others = [p for n, p in enumerate(out["players"], 1) if n != seat]
    pool = list(out["pool"]) + _known(out["set_aside"])
    for p in others:
        pool += _known(p["hand"])
    top_mine = out.get("top_known_by") == seat
    known_top = []
    if not top_mine:
        seen = set(out.get("top_seen", {}).get(str(seat), ()))
        known_top = canonical(c for c in out["top"] if c in seen)
        pool += [c for c in out["top"] if c not in seen]
    w = out["window"]
    peek_mine = bool(w) and w["kind"] == "stack" and w["seat"] == seat
    if not peek_mine:
        pool += out["peek"]
    tt = out["tt"]
    hidden_commits = tt["committed"] if tt is not None and out["current"] != seat else []
    pool += [c["card"] for c in hidden_commits]
    solo = out.get("solo") is not None
    if solo:
        pool += _known(out["discard"])

    cards = shuffled(pool, rng)
    for c in hidden_commits:
        pick = next((k for k, card in enumerate(cards) if _fits(i, card, c)), 0)
        c["card"] = cards.pop(pick)

    def take(n: int) -> list[str]:
        taken = cards[:n]
        del cards[:n]
        return taken

    for p in others:
        p["hand"] = canonical(take(len(p["hand"])))
    out["set_aside"] = canonical(take(len(out["set_aside"])))
    if not top_mine:
        top = known_top + take(len(out["top"]) - len(known_top))
        out["top"] = shuffled(top, rng)
    if not peek_mine:
        out["peek"] = take(len(out["peek"]))
    if solo:
        out["discard"] = take(len(out["discard"]))
    out["pool"] = canonical(cards) if out.get("sorted_piles") else cards
    if out.get("unseen"):
        out["unseen"] = False  # every place holds a card now
    ex = out.get("exchange")
    if ex is not None:
        for s, give in ex["give"].items():
            if int(s) != seat and give:
                hand = out["players"][int(s) - 1]["hand"]
                ex["give"][s] = canonical(rng.sample(hand, min(len(give), len(hand))))
    return out

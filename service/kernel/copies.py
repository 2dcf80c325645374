"""Copies with one printed face: what a reader who is not the referee reads of them.

The rules tell every card apart by its id, copies included (Loot's two blue pirate
ships of 2 skulls are ``blue-2a`` and ``blue-2b``; the Kaiser's Pirates' Reflag cards
``reflag-1`` to ``reflag-4``), but nobody at a table can: the copies look the same.
Which copy a seat holds is then an artefact of the ids, and one that tells: at a table
the referee names the card (``blue-2``) and the kernel takes a copy still in the deck,
so seat 2 drew ``blue-2b`` exactly when another seat held ``blue-2a``; from the seed's
stream ``blue-2a`` is drawn only while it is still in the deck.

So a copy is read by what the public has seen, never by its id:

* a copy no public event has named yet (in a hand, face down, in a deck) reads as its
  kind: the kind's first copy (``blue-2a`` for any blue 2 nobody has seen played);
* a copy a public event names gets, at that event, the next label of its kind in the
  order the public saw them (the first blue 2 played reads ``blue-2a``, the second
  ``blue-2b``), whichever copy it is: two copies on the table stay two cards.

Both depend on public facts only. The kernel keeps the labels given
(``kernel_state["shown"]``, ``Machine._show``); ``Machine.reading()`` gives the map a
reader reads through (``as_read``). What a seat may make is offered once for each
kind (``offered``), and a decision naming any copy of a kind is taken as the listed
decision that reads as it does (``as_listed``), so what a seat submits, and the
answer, say nothing of copies either. The events keep the copy the rules used: the
referee, the audit and the record read the history exactly as stored.

Copies that differ in play (the Merchants & Marauders' Dutch Naval Ships, their
admirals and entry zones) are not copies here: a seat sees which one it holds, and the
referee names which one was drawn (``Rules.card_marks``). Copies the rules treat alike
are, even where their printing differs in a name alone (the Kaiser's Pirates' HMS
Alcantara and HMS Carmania, both AMC cards).
"""

from __future__ import annotations

from .equal import strictly_equal

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any


def kinds_of(ids: Iterable[str], kind_of: Callable[[str], str | None]) -> dict:
    """``{copy id: the ids of its kind, in order}`` (one list object for a kind), for the
    kinds of more than one copy, from the cards' ids in order and ``kind_of(id)`` (None
    for a card that is no copy)."""
    groups: dict = {}
    for card in ids:
        kind = kind_of(card)
        if kind is not None:
            groups.setdefault(kind, []).append(card)
    return {card: group for group in groups.values() if len(group) > 1 for card in group}


def named(obj: Any, kinds: dict, out: list) -> None:
    """The copies ``obj`` (an event's data) names, in order, added to ``out``."""
    t = type(obj)
    if t is str:
        if obj in kinds:
            out.append(obj)
    elif t is dict:
        for v in obj.values():
            named(v, kinds, out)
    elif t is list or t is tuple:
        for v in obj:
            named(v, kinds, out)


def show(shown: dict, kinds: dict, copies: list) -> None:
    """``copies`` named by a public event: each not seen before takes its kind's next label
    (``shown``: copy id -> its label; a kind's first copy -> how many labels it gave, under
    the key ``"#" + first copy``)."""
    for card in copies:
        if card not in shown:
            group = kinds[card]
            counted = "#" + group[0]
            given = shown.get(counted, 0)
            shown[card] = group[given]
            shown[counted] = given + 1


def reading(kinds: dict, shown: dict | None) -> dict:
    """``{copy id: what it reads as}`` for every copy, from the labels ``shown`` so far."""
    if not shown:
        return {card: group[0] for card, group in kinds.items()}
    return {card: shown.get(card, group[0]) for card, group in kinds.items()}


def as_read(obj: Any, alike: dict) -> Any:
    """``obj`` (plain data: a view, an event's data, a decision) with each copy read as
    ``alike`` says (``reading``): text equal to a copy's id, in values and in keys."""
    if not alike:
        return obj
    return _read(obj, alike)


def _read(obj: Any, alike: dict) -> Any:
    t = type(obj)
    if t is str:
        return alike.get(obj, obj)
    if t is list or t is tuple:
        return [_read(x, alike) for x in obj]
    if t is dict:
        return {(alike.get(k, k) if type(k) is str else k): _read(v, alike) for k, v in obj.items()}
    return obj


def offered(listed: list, alike: dict) -> list:
    """The listed decisions as a reader reads them (``as_read``), a decision that reads
    like one before it (the same play with another copy) left out."""
    if not alike:
        return listed
    out: list = []
    for d in listed:
        read = _read(d, alike)
        if not any(read == o and strictly_equal(read, o) for o in out):
            out.append(read)
    return out


def as_listed(decision: Any, listed: list, alike: dict, read: bool = False) -> dict | None:
    """The listed decision ``decision`` stands for, or None.

    ``read``: the decision as a reader who is not the referee reads it (from ``offered``):
    it stands for the first listed decision that reads as it does, and for nothing else,
    so which copy a seat holds cannot be probed by naming one. Else (the referee, the
    audit, a record, a bot's pick from the list): a listed decision stands for itself;
    another, read as a seat reads it or else by the copies it names, for the first listed
    decision that reads so."""
    if not read:
        for d in listed:
            if d is decision or (d == decision and strictly_equal(d, decision)):
                return d
    reads = [_read(d, alike) for d in listed]
    for wanted in ((decision,) if read else (decision, _read(decision, alike))):
        for d, r in zip(listed, reads):
            if r == wanted and strictly_equal(r, wanted):
                return d
    return None

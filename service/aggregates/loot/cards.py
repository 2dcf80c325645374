"""Loot's cards: stable text ids built from the catalog, and what an id means.

* ``merchant-5a``: a merchant ship worth 5 gold (letters tell copies apart);
* ``blue-4a``: a blue pirate ship with 4 skulls;
* ``blue-captain``: the blue pirate captain;
* ``admiral``: the Admiral.
"""

from __future__ import annotations

import string

from service.kernel.copies import kinds_of

MERCHANT, PIRATE, CAPTAIN, ADMIRAL = "merchant", "pirate", "captain", "admiral"


_DECKS: dict = {}  # the decks built, by what of the catalog makes them (a few catalogs a process)


def build_deck(cat: dict) -> list[str]:
    """The catalog's deck, sorted: a new list each call (a game's draw pile), built once for
    each catalog (every game of a playout builds it)."""
    key = (tuple(cat["merchants"]["value"].items()), tuple(cat["colours"]["value"]),
           tuple(cat["pirates_per_colour"]["value"].items()), cat["captains_per_colour"]["value"],
           cat["admirals"]["value"])
    deck = _DECKS.get(key)
    if deck is None:
        deck = _build(cat)
        if len(_DECKS) < 64:
            _DECKS[key] = deck
    return list(deck)


_COPIES: dict = {}


def copies(cat: dict, digest: str | None) -> dict:
    """The copies of the catalog's deck (``service.kernel.copies.kinds_of``): the ships of
    one gold, of one colour and skulls, told apart by the letter at the end of their ids.
    ``digest``: the catalog's (the ``GameCreated`` data's), what they are kept by."""
    found = _COPIES.get(digest)
    if found is None:
        found = kinds_of(build_deck(cat), lambda c: c[:-1] if info(c)[0] in (MERCHANT, PIRATE) else None)
        if digest is not None and len(_COPIES) < 64:
            _COPIES[digest] = found
    return found


def _build(cat: dict) -> list[str]:
    letters = string.ascii_lowercase
    deck = []
    for gold, n in cat["merchants"]["value"].items():
        deck += [f"merchant-{int(gold)}{letters[i]}" for i in range(n)]
    for colour in cat["colours"]["value"]:
        for skulls, n in cat["pirates_per_colour"]["value"].items():
            deck += [f"{colour}-{int(skulls)}{letters[i]}" for i in range(n)]
        if cat["captains_per_colour"]["value"]:
            deck.append(f"{colour}-captain")
    if cat["admirals"]["value"]:
        deck.append("admiral")
    return sorted(deck)


def _parse(card: str) -> tuple:
    if card == ADMIRAL:
        return (ADMIRAL, None, 0)
    head, _, tail = card.partition("-")
    if head == MERCHANT:
        return (MERCHANT, None, int(tail[:-1]))
    if tail == CAPTAIN:
        return (CAPTAIN, head, 0)
    return (PIRATE, head, int(tail[:-1]))


class _Parsed(dict):
    """Each card id read once (an id says all it means, whatever the catalog)."""

    def __missing__(self, card: str) -> tuple:
        got = self[card] = _parse(card)
        return got


# ``info(card)`` -> ``(kind, colour, value)``: value is the gold of a merchant, the skulls of a pirate
info = _Parsed().__getitem__


def kind(card: str) -> str:
    return info(card)[0]


def gold(card: str) -> int:
    """Gold of a merchant ship (0 for any other card)."""
    k, _, v = info(card)
    return v if k == MERCHANT else 0

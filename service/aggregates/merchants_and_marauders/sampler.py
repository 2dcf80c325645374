"""A determinization of a Merchants & Marauders table for one seat (service/kernel/sampling.py).

Hidden from a seat (view.py): another player's gold, stash, cargo cards,
glory cards in hand, rumor held or offered, captain before the reveal and the
ship chosen in secret; the goods offered to another current player; the
face-down upgrade tiles and merchant tokens; the order and make-up of the
decks (only their sizes are public) and of the glory discard pile; the bank.

Each kind of card makes its own pool, in canonical order, shuffled with the
caller's ``rng`` and dealt back with every count kept:

* cargo: the deck, the other players' cargo cards, the goods offered to
  another player (the offer keeps its prices, by their sorted values);
* glory: the deck, the discard pile, the other players' hands;
* rumors: the deck, another player's rumor held and rumor offered;
* captains: the deck and the other players' captains not yet revealed;
* missions, events and the demand reserve: their decks, drawn in a new order;
* upgrade tiles face down, over the ports that hold one; merchant tokens face
  down, over the zones that hold one.

Coins: the bank and the other players' gold and stash hold together what the
seat does not hold itself (the game's coins are a fixed total). Each other
player is given gold at random (0 to 15) and, when it has stashed, a stash at
random (up to 10 coins a stash action); the bank keeps the rest. A secretly
chosen starting ship is drawn among the starting ships.

At a table (``unseen``) the demand reserve, the face-down upgrade tiles and the
merchant tokens nobody has turned over are unknown tokens (``?demand_tiles#n``,
service/kernel/machine.py). First each token is given an identity among those
still possible for its kind (``unseen_identities``: none seen on the board, in
the reserve, on a ship or on the merchant track), the kind's own identities
shuffled with ``rng`` and dealt one a token; the tiles and tokens are then drawn
again as above. The determinization holds real tiles only and is played as a
seeded game's state (``unseen`` off).
"""

from __future__ import annotations

import random

from service.kernel.machine import is_unknown
from service.kernel.sampling import canonical, copy_state, deal, shuffled

from .catalog import tables
from .state import unseen_identities

TYPE_CHECKING = False   # (the imports below are the type checker's: none at run time)
if TYPE_CHECKING:
    from typing import Any
    from .shapes import State


def determinize(state: State, seat: int, rng: random.Random) -> State:
    out = copy_state(state)
    if out.get("unseen"):
        _name_unseen(out, rng)
    S = tables(out)
    decks, board = out["decks"], out["board"]
    others = [p for p in out["players"] if p["seat"] != seat]
    me = next(p for p in out["players"] if p["seat"] == seat)

    # cargo
    port = out["port"]
    current = out["order"][out["cur"]] if out["phase"] == "play" and out["order"] else None
    offer = port["offer"] if port is not None and current != seat else {}
    pool = list(decks["cargo"]) + list(offer)
    for p in others:
        pool += p["cargo"]
    counts = [len(p["cargo"]) for p in others] + [len(offer)]
    *piles, offered, rest = deal(pool, counts, rng)
    for p, cards in zip(others, piles):
        p["cargo"] = canonical(cards)
    if offer:
        port["offer"] = dict(zip(canonical(offered), sorted(offer.values())))
    decks["cargo"] = rest

    # glory
    pool = list(decks["glory"]) + list(decks["glory_discard"])
    for p in others:
        pool += p["hand"]
    *piles, discard, rest = deal(pool, [len(p["hand"]) for p in others] + [len(decks["glory_discard"])], rng)
    for p, cards in zip(others, piles):
        p["hand"] = canonical(cards)
    decks["glory_discard"], decks["glory"] = discard, rest

    # rumors
    places = [(p, k) for p in others for k in ("rumor", "offered_rumor") if p[k] is not None]
    pool = list(decks["rumors"]) + [p[k] for p, k in places]
    cards = shuffled(pool, rng)
    for (p, k), card in zip(places, cards):
        p[k] = card
    decks["rumors"] = cards[len(places):]

    # captains
    hidden = [p for p in others if p["captain"] is not None and not p["revealed"]]
    cards = shuffled(list(decks["captains"]) + [p["captain"] for p in hidden], rng)
    for p, card in zip(hidden, cards):
        p["captain"] = card
    decks["captains"] = cards[len(hidden):]
    starting = sorted(t for t, s in S["ships"].items() if s["starting"])
    for p in others:
        if p["chosen"] is not None and not p["revealed"] and starting:
            p["chosen"] = rng.choice(starting)

    # decks whose order alone is hidden
    for name in ("missions", "events", "demand_reserve"):
        decks[name] = shuffled(decks[name], rng)

    # face-down tiles and tokens
    ports = sorted(pt for pt, t in board["upgrades"].items() if t is not None and not board["revealed"][pt])
    for pt, t in zip(ports, shuffled([board["upgrades"][pt] for pt in ports], rng)):
        board["upgrades"][pt] = t
    zones = sorted(z for z, t in board["merchants"].items() if t is not None)
    for z, t in zip(zones, shuffled([board["merchants"][z] for z in zones], rng)):
        board["merchants"][z] = t

    # coins
    left = S["rules"]["coins_total"] - me["gold"] - me["stash"]
    for p in others:
        p["gold"] = rng.randint(0, max(0, min(15, left)))
        left -= p["gold"]
        p["stash"] = rng.randint(0, max(0, min(10 * p["stash_acts"], left))) if p["stash_acts"] else 0
        left -= p["stash"]
    out["bank"] = left
    return out


def _name_unseen(out: State, rng: random.Random) -> None:
    """Every unknown tile and token given an identity still possible for its kind."""
    board, decks = out["board"], out["decks"]
    reserve = decks["demand_reserve"]
    places: list[tuple[Any, Any, str]] = [(reserve, i, "demand") for i, t in enumerate(reserve) if is_unknown(t)]
    for kind, where in (("upgrade", board["upgrades"]), ("merchant", board["merchants"])):
        places += [(where, k, kind) for k in sorted(where) if is_unknown(where[k])]
    names = {kind: shuffled(unseen_identities(out, kind), rng) for kind in ("demand", "upgrade", "merchant")}
    for where, k, kind in places:
        where[k] = names[kind].pop()
    out["unseen"] = False  # every place holds a tile now

"""Drawing cards: a force's warships, raiders and merchantmen (2.1, 3.1.6 back to
three merchants, 3.1.10 the used cards reshuffled; 6.4 and 6.5.2 where an
optional rule changes the deck), an action card into a hand (the known top
cards first, 3.3.17), and the phantom's action cards, face down (5.2.2, 5.4.2)."""

from __future__ import annotations

from bisect import bisect_left

from . import optional
from .board import ix
from .state import player, pool_left

TYPE_CHECKING = False  # mypy takes the name as true; typing is not imported at run time
if TYPE_CHECKING:
    from typing import Any

    from service.kernel.events import Ev
    from service.kernel.machine import Step

    from .shapes import State


def _draw_force_card(step: Step, seat: int, deck: str, label: str) -> bool:
    """Draw a ship card for ``seat`` from the ``deck`` pool ("ship" or "merchant")."""
    state = step.state
    pile = f"{deck}_pool"       # (its key formatted once: the pile is looked up again after a reshuffle)
    pool, used = state[pile], state[f"{deck}_used"]
    held = optional.held_from_reshuffle(state) if deck == "ship" else []
    if not pool and len(used) > len(held):
        # ``held`` only when 6.5.2 keeps ships out: the events of other games stay as they were
        step.emit("DeckReshuffledFromBottom", {"deck": deck, **({"held": held} if held else {})})
    if not state[pile]:
        step.emit("DeckExhausted", {"deck": deck, "seat": seat})
        return False
    choices = optional.tournament_deal(step, seat, deck)
    if choices is not None:
        label += " (tournament deal, 6.4)"
    step.draw(f"{deck}s:force-{seat}", state[pile] if choices is None else choices, vis="all",
              why=f"{label} for seat {seat}")
    return True


def draw_ship(step: Step, seat: int) -> bool:
    return _draw_force_card(step, seat, "ship", "a warship or raider")


def draw_merchant(step: Step, seat: int) -> bool:
    return _draw_force_card(step, seat, "merchant", "a merchantman")


def draw_action(step: Step, seat: int) -> bool:
    """Draw one action card into ``seat``'s hand (known top cards first)."""
    state = step.state
    if state.get("solo") and seat == 2:
        return draw_hidden(step, seat)
    if state["top"]:
        step.emit("KnownCardDrawn", {"seat": seat, "card": state["top"][0]}, vis=[seat])
    elif pool_left(state) > 0:
        step.draw(f"action:hand-{seat}", state["pool"], vis=[seat], why=f"an action card for seat {seat}")
    else:
        return False
    step.emit("ActionCardDrawn", {"seat": seat, "left": deck_left(state)})
    return True


def deck_left(state: State) -> int:
    return pool_left(state) + len(state["top"])


def draw_hidden(step: Step, seat: int) -> bool:
    """The phantom's action cards: dealt to its hand, set aside (5.2.2), or drawn at
    the end of its turn and put face down on the discard pile unseen (5.4.2). At a
    table nobody looks at them: they are unknown cards, never named."""
    state = step.state
    if pool_left(state) <= 0:
        return False
    dest = "phantom-hand" if state["phase"] == "dealing" else "phantom-discard"
    if state.get("unseen"):
        step.shuffle(f"action:{dest}", state["pool"][:1], vis="referee", face_down=True,
                     why="the phantom's action card, face down")
    else:
        step.draw(f"action:{dest}", state["pool"], vis="referee", why="the phantom's action card, face down")
    step.emit("ActionCardDrawn", {"seat": seat, "left": pool_left(state) + len(state["top"]), "face_down": True})
    return True


def replenish(step: Step) -> None:
    """3.1.6: every player back to three merchantmen."""
    state = step.state
    need = ix(state).force["merchants"]
    for s, p in enumerate(state["players"], 1):
        while len(p["merchants"]) < need:
            if not draw_merchant(step, s):
                break


# how each event decided here changes the state (``evolve``) -----------------------------------
def _take(state: State, pile: str, card: str) -> None:
    """``card`` out of the draw pile ``pile``: by bisection where the piles are
    kept sorted (a seeded game), else by a search from its start."""
    cards = state[pile]  # type: ignore[literal-required]  # pool, ship_pool or merchant_pool
    if state.get("sorted_piles"):
        at = bisect_left(cards, card)
        if at < len(cards) and cards[at] == card:
            del cards[at]
            return
    cards.remove(card)      # (not in the pile: refused as before)


def _deck_shuffled(state: State, d: dict[str, Any], ev: Ev) -> None:
    if d.get("face_down") and d["deck"] == "action:set-aside":
        state["set_aside"].extend(d["order"])
    elif d.get("face_down") and d["deck"] == "action:phantom-hand":   # solitaire: unseen (5.2.2)
        state["players"][1]["hand"].extend(d["order"])
    elif d.get("face_down") and d["deck"] == "action:phantom-discard":  # solitaire: unseen (5.4.2)
        state["discard"].extend(d["order"])


def _drawn_to(deck: str) -> tuple[str | None, str | None, int | None]:
    """Where a card drawn from ``deck`` (a ``CardDrawn``'s deck: ``action:hand-2``,
    ``ships:force-1``...) is taken from and goes: ``(pile, place, seat index)``; pile
    None for a deck whose draws change no pile here (a hand drawn from)."""
    kind, _, dest = deck.partition(":")
    if kind == "action":
        if dest.startswith("hand-"):
            return "pool", "hand", int(dest[5:]) - 1
        if dest == "phantom-hand":
            return "pool", "hand", 1
        return "pool", dest, None           # set-aside, peek, phantom-discard (or nowhere)
    if kind == "ships":
        return "ship_pool", "ships", int(dest[6:]) - 1
    if kind == "merchants":
        return "merchant_pool", "merchants", int(dest[6:]) - 1
    return None, None, None


def _card_drawn(state: State, d: dict[str, Any], ev: Ev) -> None:
    pile, place, seat = _drawn_to(d["deck"])
    if pile is None:
        return
    card = d["card"]
    _take(state, pile, card)
    if seat is not None:
        state["players"][seat][place].append(card)  # type: ignore[literal-required]  # hand, ships or merchants
        if place == "ships":
            state["status"][card] = {"damaged": False, "supply": False, "revealed": False, "refuge": None}
        elif place == "merchants":
            state["status"][card] = {"damaged": False, "supply": False, "revealed": True, "refuge": None}
    elif place == "set-aside":
        state["set_aside"].append(card)
    elif place == "peek":
        state["peek"].append(card)
    elif place == "phantom-discard":
        state["discard"].append(card)


def _known_card_drawn(state: State, d: dict[str, Any], ev: Ev) -> None:
    card = state["top"].pop(0)
    player(state, d["seat"])["hand"].append(card)


def _deck_reshuffled_from_bottom(state: State, d: dict[str, Any], ev: Ev) -> None:
    k = d["deck"]
    held = d.get("held") or []          # 6.5.2: ships removed this round stay out
    # (k: "ship" or "merchant")
    state[f"{k}_pool"] += [s for s in state[f"{k}_used"] if s not in held]  # type: ignore[literal-required]
    if state.get("sorted_piles"):
        state[f"{k}_pool"].sort()  # type: ignore[literal-required]
    state[f"{k}_used"] = list(held)  # type: ignore[literal-required]


HANDLERS = {
    "DeckShuffled": _deck_shuffled,
    "CardDrawn": _card_drawn,
    "KnownCardDrawn": _known_card_drawn,
    "DeckReshuffledFromBottom": _deck_reshuffled_from_bottom,
}

"""Drawing cards: a force's warships, raiders and merchantmen (2.1, 3.1.6 back to
three merchants, 3.1.10 the used cards reshuffled; 6.4 and 6.5.2 where an
optional rule changes the deck), an action card into a hand (the known top
cards first, 3.3.17), and the phantom's action cards, face down (5.2.2, 5.4.2)."""

from __future__ import annotations

from . import optional
from .board import ix
from .state import pool_left


def _draw_force_card(step, seat, deck, label):
    """Draw a ship card for ``seat`` from the ``deck`` pool ("ship" or "merchant")."""
    state = step.state
    pile = f"{deck}_pool"       # (its key formatted once: the pile is looked up again after a reshuffle)
    pool, used = state[pile], state[f"{deck}_used"]
    held = optional.held_from_reshuffle(state) if deck == "ship" else []
    if not pool and len(used) > len(held):
        # ``held`` only when 6.5.2 keeps ships out: the events of other games stay as they were
        step.emit("DeckReshuffledFromBottom", deck=deck, **({"held": held} if held else {}))
    if not state[pile]:
        step.emit("DeckExhausted", deck=deck, seat=seat)
        return False
    choices = optional.tournament_deal(step, seat, deck)
    if choices is not None:
        label += " (tournament deal, 6.4)"
    step.draw(f"{deck}s:force-{seat}", state[pile] if choices is None else choices, vis="all",
              why=f"{label} for seat {seat}")
    return True


def draw_ship(step, seat):
    return _draw_force_card(step, seat, "ship", "a warship or raider")


def draw_merchant(step, seat):
    return _draw_force_card(step, seat, "merchant", "a merchantman")


def draw_action(step, seat):
    """Draw one action card into ``seat``'s hand (known top cards first)."""
    state = step.state
    if state.get("solo") and seat == 2:
        return draw_hidden(step, seat)
    if state["top"]:
        step.emit("KnownCardDrawn", vis=[seat], seat=seat, card=state["top"][0])
    elif pool_left(state) > 0:
        step.draw(f"action:hand-{seat}", state["pool"], vis=[seat], why=f"an action card for seat {seat}")
    else:
        return False
    step.emit("ActionCardDrawn", seat=seat, left=deck_left(state))
    return True


def deck_left(state):
    return pool_left(state) + len(state["top"])


def draw_hidden(step, seat) -> bool:
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
    step.emit("ActionCardDrawn", seat=seat, left=pool_left(state) + len(state["top"]), face_down=True)
    return True


def replenish(step):
    """3.1.6: every player back to three merchantmen."""
    state = step.state
    need = ix(state).force["merchants"]
    for s, p in enumerate(state["players"], 1):
        while len(p["merchants"]) < need:
            if not draw_merchant(step, s):
                break

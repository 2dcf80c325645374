"""The game's mechanics every phase uses (the book: "Dadi e verifica delle abilità",
Panoramica, p. 3; "Acquisire carte Gloria", p. 12): skill tests and counting
successes on the special dice (5 and 6 are skulls, a success), drawing cargo and glory
cards (the discards reshuffled when a deck runs out), glory points, the bank's coins;
and the events they cause, applied here (hits on a ship, cargo and gold lost, special
weapons spent).
"""

from __future__ import annotations

from .abilities import dice as skill_dice
from .catalog import tables
from .state import player, receive, side

TYPE_CHECKING = False   # (the imports below are the type checker's: none at run time)
if TYPE_CHECKING:
    from service.kernel.events import Ev
    from service.kernel.machine import Step
    from typing import Any
    from .shapes import Location, State

# dice -------------------------------------------------------------------------------

def skill_test(step: Step, seat: int, skill: str, why: str) -> int:
    """The book: "Dadi e verifica delle abilità", p. 3."""
    S = tables(step.state)
    p = player(step.state, seat)
    n = skill_dice(step.state, p, skill)
    dice = step.roll(S["die_sides"], n, vis="all", why=f"seat {seat}: {skill} test ({why})",
                     faces={"skull": S["die_sides"]})
    least = S["success_from"]
    hits = 0
    for v in dice:                          # (a loop: no generator for a handful of dice)
        if v >= least:
            hits += 1
    step.emit("SkillTested", {"seat": seat, "skill": skill, "dice": dice, "successes": hits, "passed": hits > 0, "why": why})
    return hits


def successes(state: State, dice: list[int]) -> int:
    """How many dice show a success (a skull)."""
    least = tables(state)["success_from"]
    n = 0
    for v in dice:
        if v >= least:
            n += 1
    return n


def numbers(state: State, dice: list[int]) -> int:
    """The sum of the dice that are not a success (a tie-break in combat)."""
    least = tables(state)["success_from"]
    n = 0
    for v in dice:
        if v < least:
            n += v
    return n


# cards, glory and the bank ------------------------------------------------------------

def draw_cargo(step: Step, seat: int, why: str, reshuffle: bool = True) -> str | None:
    """One cargo card to ``seat`` (face down); reshuffles the discards into
    the deck when it runs out (once, if ``reshuffle``). None if none left."""
    decks = step.state["decks"]
    if not decks["cargo"]:
        if not reshuffle or not decks["cargo_discard"]:
            return None
        step.emit("CargoDeckReshuffled", {"cards": len(decks["cargo_discard"])})
    return step.draw("cargo", decks["cargo"], vis=[seat], why=why)


def deal_glory(step: Step, seat: int, why: str) -> str | None:
    decks = step.state["decks"]
    if not decks["glory"] and decks["glory_discard"]:
        step.emit("GloryDeckReshuffled", {"cards": len(decks["glory_discard"])})
    if not decks["glory"]:
        step.emit("GloryDeckEmpty", {"seat": seat})
        return None
    card = step.draw("glory", decks["glory"], vis=[seat], why=f"glory card for seat {seat} ({why})")
    step.emit("GloryCardDealt", {"seat": seat, "card": card}, vis=[seat])
    return card


def gain_glory(step: Step, seat: int, why: str) -> None:
    """The book: "Acquisire carte Gloria", p. 12."""
    p = player(step.state, seat)
    step.emit("GloryGained", {"seat": seat, "why": why, "glory": p["glory"] + 1})
    deal_glory(step, seat, why)


def bank_pays(state: State, amount: int) -> int:
    """The bank holds the game's coins; it cannot pay more than it has."""
    return max(0, min(amount, state["bank"]))


# the events -----------------------------------------------------------------------------

def _card_drawn(state: State, d: dict[str, Any], ev: Ev) -> None:
    deck = state["decks"].get(d["deck"])
    if deck is not None:  # (the setup's face-up demand tiles are drawn from the box, not a deck)
        deck.remove(d.get("token") or d["card"])


def _card_identified(state: State, d: dict[str, Any], ev: Ev) -> None:
    """A face-down tile or token turned over at a table: it is now known."""
    board = state["board"]
    for place in (board["upgrades"], board["merchants"]):
        for k, v in place.items():
            if v == d["token"]:
                place[k] = d["card"]


def _gold_received(state: State, d: dict[str, Any], ev: Ev) -> None:
    receive(state, player(state, d["seat"]), d["amount"])


def _gold_lost(state: State, d: dict[str, Any], ev: Ev) -> None:
    p = player(state, d["seat"])
    p["gold"] -= d["amount"]
    state["bank"] += d["amount"]


def _glory_gained(state: State, d: dict[str, Any], ev: Ev) -> None:
    player(state, d["seat"])["glory"] += 1


def _glory_card_dealt(state: State, d: dict[str, Any], ev: Ev) -> None:
    player(state, d["seat"])["hand"].append(d["card"])


def _glory_deck_reshuffled(state: State, d: dict[str, Any], ev: Ev) -> None:
    decks = state["decks"]
    decks["glory"].extend(decks["glory_discard"])
    decks["glory_discard"] = []


def _cargo_deck_reshuffled(state: State, d: dict[str, Any], ev: Ev) -> None:
    decks = state["decks"]
    decks["cargo"].extend(decks["cargo_discard"])
    decks["cargo_discard"] = []


def _ship_hit(state: State, d: dict[str, Any], ev: Ev) -> None:
    ship = side(state, d["seat"])["ship"]
    loc: Location = d["location"]
    ship[loc] = max(0, ship[loc] - 1)


def _cargo_lost(state: State, d: dict[str, Any], ev: Ev) -> None:
    player(state, d["seat"])["cargo"].remove(d["card"])
    state["decks"]["cargo_discard"].append(d["card"])


def _weapon_spent(state: State, d: dict[str, Any], ev: Ev) -> None:
    p = player(state, d["seat"])
    del p["weapons"][d["kind"]]
    state["weapons"][d["kind"]] += 1
    if state.get("raid") is not None:
        state["raid"]["failures"] -= 1
        state["raid"]["left"] += 1


APPLY = {
    "CardDrawn": _card_drawn,
    "CardIdentified": _card_identified,
    "GoldReceived": _gold_received,
    "GoldLost": _gold_lost,
    "GloryGained": _glory_gained,
    "GloryCardDealt": _glory_card_dealt,
    "GloryDeckReshuffled": _glory_deck_reshuffled,
    "CargoDeckReshuffled": _cargo_deck_reshuffled,
    "ShipHit": _ship_hit,
    "CargoLost": _cargo_lost,
    "WeaponSpent": _weapon_spent,
}

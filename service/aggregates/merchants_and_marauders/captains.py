"""Captains come and go (the book: "Preparazione del gioco", p. 5, the captains dealt
and the ships chosen in secret; "Morte & Ritirata", p. 15): a new captain's reveal
with a glory card and gold up to the starting amount, the death procedure (also a
retired captain's), a captain lost outside a fight, a new captain drawn (and redrawn
once when a pirate NPC lies off his home port); and their events, applied here.
"""

from __future__ import annotations

from .catalog import tables
from .mechanics import bank_pays, deal_glory
from .state import END_TURN, home, new_ship, player

TYPE_CHECKING = False   # (the imports below are the type checker's: none at run time)
if TYPE_CHECKING:
    from service.kernel.events import Ev
    from service.kernel.machine import Step
    from typing import Any
    from .shapes import Outcome, State

def captain_dies(step: Step, seat: int, why: str) -> None:
    """The captain dies: the death procedure (retire_captain); a new one comes at the
    player's next turn. The book: "Morte", p. 15."""
    step.emit("CaptainDied", {"seat": seat, "why": why})
    retire_captain(step, seat, "died")


def retire_captain(step: Step, seat: int, reason: str) -> None:
    """The death procedure (also used for a retired captain): discard the
    captain, cards, ship and what is aboard, wanted flags; keep glory points
    and the stash. Upgrade tiles go back to ports of the player's choice. The book: "Morte", p. 15."""
    p = player(step.state, seat)
    step.emit("CaptainLeft", {"seat": seat, "captain": p["captain"], "reason": reason,
              "ship": p["ship"]["type"] if p["ship"] else None, "cargo": list(p["cargo"]),
              "weapons": sorted(p["weapons"]), "upgrades": list(p["ship"]["upgrades"]) if p["ship"] else [],
              "specialists": list(p["specialists"])})
    step.emit("HoldingsLost", {"seat": seat, "gold": p["gold"], "glory_cards": list(p["hand"])}, vis=[seat])


def dies(step: Step, seat: int, why: str) -> Outcome:
    """A captain lost outside a fight (a raid, a card): dead in his own turn, his turn
    ends (``END_TURN``, for the flow)."""
    captain_dies(step, seat, why)
    if step.state["order"][step.state["cur"]] == seat:
        return END_TURN
    return None


def draw_new_captain(step: Step, seat: int) -> None:
    """A new captain card for the seat (secret), whose ship is chosen next; no captain
    card left: the game ends (the book: Tempo limite, p. 3)."""
    decks = step.state["decks"]
    if not decks["captains"]:
        step.emit("GameEnded", {"reason": "captains", "note": "a new captain is needed and no captain card is left"})
        return
    card = step.draw("captains", decks["captains"], vis=[seat], why=f"new captain for seat {seat}")
    step.emit("CaptainDealt", {"seat": seat, "captain": card}, vis=[seat])
    step.emit("NewCaptainDrawn", {"seat": seat})


def redraw_captain(step: Step, seat: int, d: dict[str, Any]) -> None:
    """A pirate NPC waits at the new captain's home port: another captain card (once)."""
    p = player(step.state, seat)
    step.emit("CaptainRedrawn", {"seat": seat, "captain": p["captain"]}, vis=[seat])
    step.emit("CaptainSetAside", {"seat": seat, "why": "a pirate NPC lies off the new captain's home port"})


def reveal_new_captain(step: Step, seat: int, ship: str) -> None:
    """After the (secret) ship choice of a new captain: reveal, place the ship
    at the home port, one glory card, gold aboard up to the starting amount
    (a stash under it is taken aboard; how much is private)."""
    state = step.state
    p = player(state, seat)
    step.emit("CaptainsRevealed", {"seats": {str(seat): {"captain": p["captain"], "ship": ship}}})
    deal_glory(step, seat, "new captain")
    start = tables(state)["rules"]["start_gold"]
    stash = p["stash"]
    if stash < start:
        # the book (PT, explicit; the IT agrees): with less than 10 stashed you
        # take the stash aboard and the bank adds the rest up to 10; with 10 or
        # more stashed you receive nothing and the stash stays where it is
        if stash:
            step.emit("StashChanged", {"seat": seat, "amount": -stash,
                      "why": "new captain: the stash (under the starting amount) is taken aboard"}, vis=[seat])
        amount = bank_pays(state, start - stash)
        step.emit("GoldReceived", {"seat": seat, "amount": amount,
                  "why": "new captain: the bank tops the stash taken aboard up to the starting amount"}, vis=[seat])
    step.emit("StartingGoldTopped", {"seat": seat})


# the events ---------------------------------------------------------------------------

def _captain_dealt(state: State, d: dict[str, Any], ev: Ev) -> None:
    p = player(state, d["seat"])
    p["captain"] = d["captain"]
    p["revealed"] = False
    p["captains_had"] += 1
    p["pending"].append("choose_ship")


def _ship_chosen(state: State, d: dict[str, Any], ev: Ev) -> None:
    p = player(state, d["seat"])
    p["chosen"] = d["ship"]
    p["pending"].remove("choose_ship")


def _captains_revealed(state: State, d: dict[str, Any], ev: Ev) -> None:
    for seat, info in d["seats"].items():
        p = player(state, int(seat))
        p.pop("redrawn", None)
        p["captain"] = info["captain"]
        p["revealed"] = True
        p["ship"] = new_ship(state, info["ship"])
        p["chosen"] = None
        p["zone"] = home(state, p)
        p["in_port"] = True
        p["needs_captain"] = False
        p["glory_ship"] = False
        p["last_buy"] = None


def _captain_redrawn(state: State, d: dict[str, Any], ev: Ev) -> None:
    p = player(state, d["seat"])
    state["decks"]["captain_discard"].append(p["captain"])
    p["captain"] = None  # type: ignore[typeddict-item]  # (None: no captain now; shapes.py)
    p["pending"].remove("choose_ship")
    p["redrawn"] = True


def _captain_died(state: State, d: dict[str, Any], ev: Ev) -> None:
    player(state, d["seat"])["needs_captain"] = True


def _captain_retired(state: State, d: dict[str, Any], ev: Ev) -> None:
    player(state, d["seat"])["needs_captain"] = True


def _captain_left(state: State, d: dict[str, Any], ev: Ev) -> None:
    p = player(state, d["seat"])
    decks = state["decks"]
    decks["captain_discard"].append(p["captain"])
    decks["cargo_discard"].extend(p["cargo"])
    p["cargo"] = []
    for k in p["weapons"]:
        state["weapons"][k] += 1
    p["weapons"] = {}
    p["flags"] = {}
    if p["rumor"] is not None:
        decks["rumors"].append(p["rumor"])
        p["rumor"] = None
    p.pop("rumor_shown", None)
    if p["mission"] is not None:
        decks["mission_discard"].append(p["mission"])
        p["mission"] = None
    decks["glory_discard"].extend(p["specialists"])
    p["specialists"] = []
    if p["ship"] is not None:
        p["returning"].extend(p["ship"]["upgrades"])
    p["ship"] = None  # type: ignore[typeddict-item]  # (None: no ship now; shapes.py)
    p["zone"] = None  # type: ignore[typeddict-item]  # (None: no zone now; shapes.py)
    p["in_port"] = False
    p["captain"] = None  # type: ignore[typeddict-item]  # (None: no captain now; shapes.py)
    p["revealed"] = False
    p["glory_ship"] = False
    p["last_buy"] = None


def _holdings_lost(state: State, d: dict[str, Any], ev: Ev) -> None:
    p = player(state, d["seat"])
    state["bank"] += p["gold"]
    p["gold"] = 0
    state["decks"]["glory_discard"].extend(p["hand"])
    p["hand"] = []


APPLY = {
    "CaptainDealt": _captain_dealt,
    "ShipChosen": _ship_chosen,
    "CaptainsRevealed": _captains_revealed,
    "CaptainRedrawn": _captain_redrawn,
    "CaptainDied": _captain_died,
    "CaptainRetired": _captain_retired,
    "CaptainLeft": _captain_left,
    "HoldingsLost": _holdings_lost,
}

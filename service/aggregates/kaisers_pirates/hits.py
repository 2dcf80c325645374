"""What happens to a ship, and how each such event changes the state: damaged
(3.2.7; 6.8 one more marker each time), repaired, short of supply and
resupplied, revealed and disguised, sunk (into the sinker's victory pile, 2.3),
removed from the game with no victory points, captured as a prize (3.2.5),
through to a friendly port (3.2.6), transferred to another force (3.3.45, 4.6,
4.7, 4.9). ``sink``, ``damage`` and ``apply_result`` turn a dice result (3.2.7)
into these events."""

from __future__ import annotations

from . import optional
from .board import ix, owner
from .state import player, real_card

TYPE_CHECKING = False  # mypy takes the name as true; typing is not imported at run time
if TYPE_CHECKING:
    from typing import Any

    from service.kernel.events import Ev
    from service.kernel.machine import Step

    from .shapes import State, Status


def sink(step: Step, ship: str, by: int | None, double: bool = False, why: str = "") -> None:
    state = step.state
    i = ix(state)
    deck = "ship" if ship in i.ships else "merchant"
    step.emit("ShipSunk", {"ship": ship, "by": by, "deck": deck, "double": double, "owner": owner(state, ship), "why": why})


def damage(step: Step, ship: str, why: str = "") -> None:
    if not step.state["status"][ship]["damaged"]:
        step.emit("ShipDamaged", {"ship": ship, "why": why})
    elif optional.on(step.state, "extra_damage"):
        step.emit("ShipDamaged", {"ship": ship, "why": why + " (another marker, 6.8.1)"})
    else:
        step.emit("FurtherDamageIgnored", {"ship": ship})


def apply_result(step: Step, ship: str, res: str, by: int | None, double: bool = False, why: str = "") -> None:
    if res == "sunk":
        sink(step, ship, by, double, why)
    elif res == "damaged":
        damage(step, ship, why)


# how each event decided here changes the state (``evolve``) -----------------------------------
def _remove_from_force(state: State, ship: str) -> str | None:
    for p in state["players"]:
        for key in ("ships", "merchants", "prizes"):
            if ship in p[key]:
                p[key].remove(ship)
                return key
    return None


def ship_status(state: State, ship: str) -> Status:
    st = state["status"].get(ship)
    if st is None:
        st = state["status"][ship] = {"damaged": False, "supply": False, "revealed": False, "refuge": None}
    return st


def _extra_damage(state: State) -> bool:
    return bool((state.get("options") or {}).get("extra_damage"))


def _ship_damaged(state: State, d: dict[str, Any], ev: Ev) -> None:
    st = ship_status(state, d["ship"])
    if _extra_damage(state):            # 6.8.1: one more marker each time
        st["hits"] = st.get("hits", 1 if st["damaged"] else 0) + 1
    st["damaged"] = True


def _ship_repaired(state: State, d: dict[str, Any], ev: Ev) -> None:
    st = ship_status(state, d["ship"])
    if _extra_damage(state) and st.get("hits", 1) > 1:
        st["hits"] -= 1                 # 6.8.3: one marker at a time
        return
    st["damaged"] = False
    st.pop("hits", None)


def _supply_limited(state: State, d: dict[str, Any], ev: Ev) -> None:
    ship_status(state, d["ship"])["supply"] = True


def _ship_resupplied(state: State, d: dict[str, Any], ev: Ev) -> None:
    ship_status(state, d["ship"])["supply"] = False


def _ship_revealed(state: State, d: dict[str, Any], ev: Ev) -> None:
    ship_status(state, d["ship"])["revealed"] = True


def _ship_disguised(state: State, d: dict[str, Any], ev: Ev) -> None:
    ship_status(state, d["ship"])["revealed"] = False


def _to_used(state: State, ship: str, deck: str) -> None:
    state[f"{deck}_used"].append(ship)  # type: ignore[literal-required]  # ship_used or merchant_used


def refuge_card_off(state: State, ship: str) -> None:
    st = state["status"].get(ship)
    if st and st["refuge"]:
        if real_card(st["refuge"]):
            state["discard"].append(st["refuge"])
        st["refuge"] = None


def _ship_sunk(state: State, d: dict[str, Any], ev: Ev) -> None:
    ship = d["ship"]
    refuge_card_off(state, ship)
    _remove_from_force(state, ship)
    state["status"].pop(ship, None)
    if d.get("by"):
        player(state, d["by"])["vp"].append({"card": ship, "deck": d["deck"], "double": d.get("double", False)})
    else:
        _to_used(state, ship, d["deck"])


def _ship_removed(state: State, d: dict[str, Any], ev: Ev) -> None:
    ship = d["ship"]
    state.setdefault("removed_this_round", []).append(ship)
    refuge_card_off(state, ship)
    _remove_from_force(state, ship)
    state["status"].pop(ship, None)
    _to_used(state, ship, d["deck"])


def _ship_captured(state: State, d: dict[str, Any], ev: Ev) -> None:
    ship = d["ship"]
    _remove_from_force(state, ship)
    player(state, d["by"])["prizes"].append(ship)
    st = ship_status(state, ship)
    st["revealed"] = False


def _passage_made(state: State, d: dict[str, Any], ev: Ev) -> None:
    ship = d["ship"]
    _remove_from_force(state, ship)
    state["status"].pop(ship, None)
    player(state, d["seat"])["vp"].append({"card": ship, "deck": "merchant", "double": d["double"], "passage": True})


def _ship_transferred(state: State, d: dict[str, Any], ev: Ev) -> None:
    key = _remove_from_force(state, d["ship"])
    player(state, d["to"])[key].append(d["ship"])  # type: ignore[literal-required]  # ships, prizes or merchants


HANDLERS = {
    "ShipDamaged": _ship_damaged,
    "ShipRepaired": _ship_repaired,
    "SupplyLimited": _supply_limited,
    "ShipResupplied": _ship_resupplied,
    "ShipRevealed": _ship_revealed,
    "ShipDisguised": _ship_disguised,
    "ShipSunk": _ship_sunk,
    "ShipRemoved": _ship_removed,
    "ShipCaptured": _ship_captured,
    "PassageMade": _passage_made,
    "ShipTransferred": _ship_transferred,
}

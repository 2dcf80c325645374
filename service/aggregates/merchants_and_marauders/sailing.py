"""Sailing (the book: "Muovere", p. 7, one sea zone an action; entering and leaving a
port, an action each; a wanted captain's port ("Conseguenze nell'essere ricercato",
p. 11: Port Royal's fee or an Influence test, wanted.py); cargo over the hold jettisoned
in port). A ship sailing into a hostile NPC's zone is scouted (npc.py): the NPC that
found it is handed back to the flow, which begins the fight.
"""

from __future__ import annotations

from .catalog import tables
from .mechanics import skill_test
from .npc import spotted
from .state import pay, player, spend_action

TYPE_CHECKING = False   # (the imports below are the type checker's: none at run time)
if TYPE_CHECKING:
    from service.kernel.events import Ev
    from service.kernel.machine import Step
    from typing import Any
    from .shapes import Outcome, State


def do_move(step: Step, seat: int, d: dict[str, Any]) -> Outcome:
    """The book: "Muovere", p. 7."""
    state = step.state
    zone = state["players"][seat - 1]["zone"]
    step.emit("Moved", {"seat": seat, "frm": zone, "to": d["to"], "direction": tables(state)["adj"][zone][d["to"]]})
    if state["board"]["npcs"]:
        return spotted(step, seat, "sailed into its zone")
    return None


def do_enter_port(step: Step, seat: int, d: dict[str, Any]) -> None:
    state = step.state
    port = player(state, seat)["zone"]
    if d.get("by") == "fee":          # Port Royal: a wanted captain pays its fee
        fee = tables(state)["zones"][port]["special"]["fee"]
        step.emit("PortFeePaid", {"seat": seat, "port": port, "fee": fee})
    elif d.get("by") == "influence" and not skill_test(step, seat, "influence", f"entering {port} while wanted"):
        step.emit("PortEntryRefused", {"seat": seat, "port": port})
        return
    step.emit("EnteredPort", {"seat": seat, "port": port})


def do_leave_port(step: Step, seat: int, d: dict[str, Any]) -> Outcome:
    step.emit("LeftPort", {"seat": seat, "port": player(step.state, seat)["zone"]})
    if step.state["board"]["npcs"]:
        return spotted(step, seat, "left port into its zone")
    return None


def do_discard_cargo(step: Step, seat: int, d: dict[str, Any]) -> None:
    """In port with more cargo cards than the hold takes: one thrown away before leaving."""
    step.emit("CargoJettisoned", {"seat": seat, "card": d["card"], "good": tables(step.state)["good"][d["card"]]})


HANDLERS = {"move": do_move, "enter_port": do_enter_port, "leave_port": do_leave_port,
            "discard_cargo": do_discard_cargo}


# the events ---------------------------------------------------------------------------

def _moved(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["players"][d["seat"] - 1]["zone"] = d["to"]
    state["actions"] -= 1                   # (spend_action, inline: every move applies it)
    state["acted"] = True


def _entered_port(state: State, d: dict[str, Any], ev: Ev) -> None:
    player(state, d["seat"])["in_port"] = True
    state["actions"] -= 1                   # (spend_action, inline: a hot path)
    state["acted"] = True


def _left_port(state: State, d: dict[str, Any], ev: Ev) -> None:
    player(state, d["seat"])["in_port"] = False
    state["actions"] -= 1                   # (spend_action, inline: a hot path)
    state["acted"] = True


def _cargo_jettisoned(state: State, d: dict[str, Any], ev: Ev) -> None:
    player(state, d["seat"])["cargo"].remove(d["card"])
    state["decks"]["cargo_discard"].append(d["card"])


def _port_fee(state: State, d: dict[str, Any], ev: Ev) -> None:
    pay(state, player(state, d["seat"]), d["fee"])


def _entry_refused(state: State, d: dict[str, Any], ev: Ev) -> None:
    spend_action(state)


APPLY = {
    "Moved": _moved,
    "EnteredPort": _entered_port,
    "LeftPort": _left_port,
    "CargoJettisoned": _cargo_jettisoned,
    "PortFeePaid": _port_fee,
    "PortEntryRefused": _entry_refused,
}

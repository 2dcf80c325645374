"""Scouting (the book: "Esplorare", p. 7): an action at sea naming its target, a
merchant token, an NPC or another player's ship in the same sea zone (never one in
port), each target once a turn. Success starts a raid (raid.py) or a fight (combat.py),
whose outcome is handed back to the flow."""

from __future__ import annotations

from . import combat, raid
from .mechanics import skill_test
from .state import player, spend_action

TYPE_CHECKING = False   # (the imports below are the type checker's: none at run time)
if TYPE_CHECKING:
    from service.kernel.events import Ev
    from service.kernel.machine import Step
    from typing import Any
    from .shapes import Decision, Outcome, Player, State


def sea_actions(state: State, p: Player) -> list[Decision]:
    if p["in_port"]:
        return []
    scouted = state.get("scouted", ())
    zone = p["zone"]
    out: list[Decision] = []
    if state["board"]["merchants"].get(zone) is not None and "merchant" not in scouted:
        out.append({"action": "scout", "target": "merchant"})
    for q in state["players"]:
        if q["zone"] != zone or q["in_port"] or q["seat"] == p["seat"] or q["captain"] is None or q["ship"] is None:
            continue
        if f"seat:{q['seat']}" not in scouted:
            out.append({"action": "scout", "target": "player", "seat": q["seat"]})
    here = []                               # the NPCs of the zone (by name) not scouted this turn
    for npc, n in state["board"]["npcs"].items():
        if n["zone"] == zone and f"npc:{npc}" not in scouted:
            here.append(npc)
    if here:
        out += [{"action": "scout", "target": "npc", "npc": npc} for npc in sorted(here)]
    return out


def do_scout(step: Step, seat: int, d: dict[str, Any]) -> Outcome:
    """The book: "Esplorare", p. 7."""
    state = step.state
    zone = player(state, seat)["zone"]
    if d["target"] == "merchant":
        step.emit("Scouted", {"seat": seat, "zone": zone, "target": "merchant"})
        if skill_test(step, seat, "scouting", "scouting a merchant"):
            raid.sight(step, seat)
        return None
    if d["target"] == "npc":
        step.emit("Scouted", {"seat": seat, "zone": zone, "target": f"npc:{d['npc']}"})
        if skill_test(step, seat, "scouting", f"scouting the {d['npc'].replace('_', ' ')}"):
            return combat.begin(step, seat, "npc:" + d["npc"])
        return None
    other = d["seat"]
    step.emit("Scouted", {"seat": seat, "zone": zone, "target": f"seat:{other}"})
    if skill_test(step, seat, "scouting", f"scouting seat {other}'s ship"):
        return combat.begin(step, seat, other)
    return None


HANDLERS = {"scout": do_scout}


# the events ---------------------------------------------------------------------------

def _scouted(state: State, d: dict[str, Any], ev: Ev) -> None:
    """A Scout action (also a rumor followed or a mission completed at sea: tasks.py)."""
    spend_action(state)
    state.setdefault("scouted", []).append(d["target"])


APPLY = {"Scouted": _scouted}

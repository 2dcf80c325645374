"""Referee decisions (``Rules.referee``): an NPC's move overruled where the printed board
differs from the game's data (RULINGS.md, "The referee overrules an NPC's move").

The book moves an NPC across the border with its icon's letter ("Movimento degli NPC",
p. 12); the game reads the letters and borders from its catalog, and an organiser's board
may print them otherwise. At the table the referee puts the ship where the printed board
says: ``{"referee": "overrule_npc", "npc": N, "to": Z}`` (``reason``: a few words, optional)
moves NPC ``N`` at sea to sea zone ``Z``, a public fact on the record (``NpcMoveOverruled``).
Nothing else is replayed: an NPC scouts for the players who sail into its zone or begin
their turn there (npc.py), from its new zone on. No overrule while a fight or a raid is on
(the ships are engaged), nor before the first turn or after the game.
"""

from __future__ import annotations

from service.kernel import IllegalDecision

from .catalog import tables

TYPE_CHECKING = False   # (the imports below are the type checker's: none at run time)
if TYPE_CHECKING:
    from typing import Any
    from service.kernel.events import Ev
    from service.kernel.machine import Step
    from .shapes import State

KIND = "overrule_npc"
REASON_MAX = 200


def _open(state: State) -> str | None:
    """Why no NPC's move may be overruled now (None: it may)."""
    if state["phase"] != "play":
        return "NPC moves are overruled during play (not at set-up, not after the game)"
    if state.get("combat") is not None or state.get("raid") is not None:
        return "not while a fight or a raid is on: the ships are engaged"
    if not state["board"]["npcs"]:
        return "no NPC is at sea"
    return None


def referee_legal(state: State) -> list[dict]:
    if _open(state) is not None:
        return []
    zones = tables(state)["zone_order"]
    return [{"referee": KIND, "npc": n, "to": z, "reason": ""}   # every field it takes: the reason, a few words
            for n, x in sorted(state["board"]["npcs"].items()) for z in zones if z != x["zone"]]


def referee(step: Step, d: dict[str, Any]) -> None:
    state = step.state
    if d.get("referee") != KIND:
        raise IllegalDecision(f"merchants-and-marauders has no referee decision {d.get('referee')!r} "
                              f'(known: "{KIND}": an NPC put where the printed board says)')
    extra = set(d) - {"referee", "npc", "to", "reason"}
    if extra:
        raise IllegalDecision(f"an NPC's move overruled takes npc, to and a reason, not {', '.join(sorted(extra))}")
    closed = _open(state)
    if closed:
        raise IllegalDecision(closed)
    npcs = state["board"]["npcs"]
    npc, to, reason = d.get("npc"), d.get("to"), d.get("reason", "")
    if npc not in npcs:
        raise IllegalDecision(f"no NPC {npc!r} at sea (at sea: {', '.join(sorted(npcs))})")
    zones = tables(state)["zones"]
    if to not in zones:
        raise IllegalDecision(f"no sea zone {to!r} (the zones: {', '.join(sorted(zones))})")
    if to == npcs[npc]["zone"]:
        raise IllegalDecision(f"the {npc.replace('_', ' ')} ship is already in {zones[to]['name']}")  # type: ignore[union-attr]  # (an NPC at sea)
    if not isinstance(reason, str) or len(reason) > REASON_MAX:
        raise IllegalDecision(f"the reason is a few words (at most {REASON_MAX} characters)")
    step.emit("NpcMoveOverruled", {"npc": npc, "frm": npcs[npc]["zone"], "to": to, "reason": reason})


def _overruled(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["board"]["npcs"][d["npc"]]["zone"] = d["to"]


APPLY = {
    "NpcMoveOverruled": _overruled,
}

"""War (the book: the "At War" space of the board, "Il tabellone di gioco", p. 5; the event
card "War" and the Man-o-Wars it brings, read with the Portuguese text: RULINGS.md).

* A ``war`` step (an event card's effect, effects.py) puts two nations in the At War
  space (``WarDeclared``, public) and brings a Man-o-War NPC of each of them in at the
  end of the turn, at the zone the step names for it (its captain's skills: the step's).
  A Man-o-War of that nation already at sea sails to that zone instead.
* A war ends when another war is declared between other nations, or with a ``peace``
  step (the book does not say how a war ends: see RULINGS.md); the Man-o-Wars of the
  nations no longer at war leave the sea at once (``NpcLeft``).
* A Man-o-War is a naval ship of its nation (``board["npcs"]["man_o_war_<nation>"]``,
  no card in its area: the War card is discarded as usual): it hunts, scouts and fights
  like the nation's naval ship, moves with that nation's naval icon, and two Man-o-Wars
  in one zone do not scout (the book). Its captain killed: it leaves the sea.
* At war, a captain's nation hunts (third priority, npc.py) and pays no bounty to a
  captain of the enemy nation (the Portuguese text's clause; ``bounty_refused``), unless
  the game takes the Italian reading (option ``war_bounty=paid``: readings.py).
"""

from __future__ import annotations

from .derived import man_o_war
from .readings import reading

TYPE_CHECKING = False   # (the imports below are the type checker's: none at run time)
if TYPE_CHECKING:
    from typing import Any
    from service.kernel.events import Ev
    from service.kernel.machine import Step
    from .shapes import State


def at_war(state: State, a: str | None, b: str | None) -> bool:
    war = state["board"].get("war") or []
    return a != b and a in war and b in war


def bounty_refused(state: State, winner_nation: str | None, payer: str | None) -> bool:
    """The PT clause: no bounty from a nation at war with the winner's nation ("ou quando a
    sua nação estiver em guerra com ela"); the IT has none (option ``war_bounty=paid``)."""
    return reading(state, "war_bounty") == "refused" and at_war(state, winner_nation, payer)


def declare(step: Step, s: dict[str, Any], card: str) -> None:
    """A ``war`` step: ``nations`` (two), ``zones`` (nation -> entry zone), ``captain``."""
    state = step.state
    nations = sorted(s["nations"])
    old = state["board"].get("war")
    if old == nations:
        step.emit("WarDeclared", {"nations": nations, "card": card, "again": True})
    else:
        if old:
            end(step, f"card {card}: war between {nations[0]} and {nations[1]} instead")
        step.emit("WarDeclared", {"nations": nations, "card": card, "again": False})
    pending = {a["npc"] for a in state.get("mow_arriving") or []}
    for n in nations:
        if man_o_war(n) in pending:             # already called in this turn (a card that acts each turn)
            continue
        step.emit("NpcArriving", {"npc": man_o_war(n), "card": None, "zone": s["zones"][n], "nation": n,
                  "ship": "man_o_war", "captain": dict(s["captain"])})


def end(step: Step, why: str) -> None:
    """Peace: the At War space is emptied; the Man-o-Wars leave the sea."""
    state = step.state
    war = state["board"].get("war")
    if not war:
        return
    step.emit("WarEnded", {"nations": list(war), "why": why})
    for n in war:
        if man_o_war(n) in state["board"]["npcs"]:
            step.emit("NpcLeft", {"npc": man_o_war(n), "why": "the war is over"})


def enter(step: Step, arrival: dict[str, Any]) -> None:
    """At the end of the turn: a Man-o-War enters (or one at sea sails to its zone)."""
    state = step.state
    npc = arrival["npc"]
    if arrival["nation"] not in (state["board"].get("war") or []):
        return                                   # peace came first
    here = state["board"]["npcs"].get(npc)
    step.emit("NpcEntered", {"npc": npc, "card": None, "zone": arrival["zone"], "ship": "man_o_war", "nation": arrival["nation"],
              "captain": arrival["captain"]["name"], "skills": arrival["captain"],
              "frm": here["zone"] if here else None})


# the events ---------------------------------------------------------------------------

def _war_declared(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["board"]["war"] = list(d["nations"])


def _war_ended(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["board"]["war"] = None
    state["mow_arriving"] = [a for a in state.get("mow_arriving") or [] if a["nation"] not in d["nations"]]


APPLY = {"WarDeclared": _war_declared, "WarEnded": _war_ended}

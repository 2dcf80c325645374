"""Wanted flags and what they do (the book: "Ricercati & Ricompense", p. 11): a flag of a
nation for engaging or beating one of its non-pirate ships, up to 5 a nation; the
ports of the nations that want a captain closed to him, but for his home port,
Port Royal (its fee or an Influence test) and a captain who enters any port."""

from __future__ import annotations

from .abilities import has
from .catalog import tables
from .state import player

TYPE_CHECKING = False   # (the imports below are the type checker's: none at run time)
if TYPE_CHECKING:
    from service.kernel.events import Ev
    from service.kernel.machine import Step
    from typing import Any
    from .shapes import Decision, Player, State

FLAG_MAX = 5


def gain_flag(step: Step, seat: int, nation: str, why: str) -> None:
    """The book: "Ricevere bandierine ricercato", p. 11."""
    p = player(step.state, seat)
    n = min(FLAG_MAX, p["flags"].get(nation, 0) + 1)
    step.emit("WantedFlagGained", {"seat": seat, "nation": nation, "flags": n, "why": why})


def lose_flag(step: Step, seat: int, nation: str, why: str) -> None:
    """The book: "Rimuovere bandierine ricercato", p. 11."""
    p = player(step.state, seat)
    if p["flags"].get(nation):
        step.emit("WantedFlagRemoved", {"seat": seat, "nation": nation, "flags": p["flags"][nation] - 1, "why": why})


def port_entries(state: State, p: Player, S: dict[str, Any] | None = None) -> list[Decision]:
    """How the captain may enter the port of his sea zone (none: he may not). ``S``: the
    state's tables (``tables(state)``), when the caller has read them.
    The book: "Conseguenze nell'essere ricercato", p. 11."""
    if S is None:
        S = tables(state)
    port = p["zone"]
    z = S["zones"][port]
    cap = S["captains"][p["captain"]]
    if not p["flags"].get(z["nation"]) or port == cap["home"] or has(state, p, "enter_any_port"):
        return [{"action": "enter_port"}]
    if z["special"].get("kind") == "pirate_entry":
        out = [{"action": "enter_port", "by": "influence"}]
        if p["gold"] >= z["special"]["fee"]:        # the fee is paid from the gold aboard
            out.insert(0, {"action": "enter_port", "by": "fee"})
        return out
    return []


# the events ---------------------------------------------------------------------------

def _flag_gained(state: State, d: dict[str, Any], ev: Ev) -> None:
    player(state, d["seat"])["flags"][d["nation"]] = d["flags"]


def _flag_removed(state: State, d: dict[str, Any], ev: Ev) -> None:
    p = player(state, d["seat"])
    if d["flags"] <= 0:
        p["flags"].pop(d["nation"], None)
    else:
        p["flags"][d["nation"]] = d["flags"]


APPLY = {"WantedFlagGained": _flag_gained, "WantedFlagRemoved": _flag_removed}

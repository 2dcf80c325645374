"""The dice (3.2.7): rolls, attacks compared with defences, challenges against
responses.

Each side rolls its group of dice; only the highest die of a group counts, dice
are never added. Modifiers are cumulative; a result may rise without limit but
never drops below 1. An attack that exceeds the defence damages; at least
double sinks; equal or lower has no effect. A challenge succeeds when it
exceeds the response. Every roll goes through the kernel's chance
(``step.roll``) and is told by an event (``DiceCompared``, ``ChallengeRolled``).
"""

from __future__ import annotations

TYPE_CHECKING = False  # mypy takes the name as true; typing is not imported at run time
if TYPE_CHECKING:
    from service.kernel.machine import Step

    from .shapes import Mods, State

COLOURS = {4: "red", 6: "white", 8: "green", 10: "blue"}


def modified(raw: int, mods: int) -> int:
    return max(1, raw + mods)


def attack_result(att: int, dfn: int) -> str:
    if att >= 2 * dfn:
        return "sunk"
    if att > dfn:
        return "damaged"
    return "none"


def roll(step: Step, dice: list[int], who: str) -> int:
    """Roll a group of dice (one die at a time, in the order printed); return the highest."""
    best = 0
    for sides in dice:
        v = step.roll(sides, 1, why=f"{who}: {COLOURS.get(sides, '')} d{sides}".replace(":  ", ": "))[0]
        if v > best:
            best = v
    return best


def respond_seat(state: State, seat: int) -> int:
    """'Any other player' rolls a response: the next seat clockwise."""
    return seat % state["seats"] + 1


def compare(step: Step, what: str, att_dice: list[int], att_mods: Mods, def_dice: list[int], def_mods: Mods,
            att_who: str, def_who: str, capture: bool = False) -> str:
    """An attack against a defence (3.2.7): "sunk", "damaged" or "none". ``capture``: a
    boarding attempt (Boarding Party, Non-Combatant), whose result reads "captured"
    (what would sink the ship) or "not captured" (the rest, damage ignored)."""
    a_raw = roll(step, att_dice, att_who)
    d_raw = roll(step, def_dice, def_who)
    a = modified(a_raw, att_mods[0])
    d = modified(d_raw, def_mods[0])
    res = attack_result(a, d)
    said = res if not capture else ("captured" if res == "sunk" else "not captured")
    step.emit("DiceCompared", {"what": what, "attack": {"dice": att_dice, "high": a_raw, "mods": att_mods[1], "result": a},
              "defence": {"dice": def_dice, "high": d_raw, "mods": def_mods[1], "result": d}, "outcome": said})
    return res


def challenge(step: Step, what: str, ch_dice: list[int], ch_mods: Mods, rs_dice: list[int],
              ch_seat: int | None, rs_seat: int | None) -> bool:
    """A challenge against a response (3.2.7): True when it succeeds."""
    c_raw = roll(step, ch_dice, f"seat {ch_seat} challenge ({what})")
    r_raw = roll(step, rs_dice, f"seat {rs_seat} response ({what})")
    c = modified(c_raw, ch_mods[0])
    ok = c > r_raw
    step.emit("ChallengeRolled", {"what": what, "challenge": {"dice": ch_dice, "high": c_raw, "mods": ch_mods[1], "result": c},
              "response": {"dice": rs_dice, "high": r_raw, "result": r_raw}, "success": ok})
    return ok

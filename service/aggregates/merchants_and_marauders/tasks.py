"""Rumors and missions (the book: "Acquisire una diceria" and "Reclamare una missione",
p. 7; "Acquisire carte Gloria", p. 12): following a
held rumor and completing a held mission, both written as data in the catalog.

* A **rumor** card carries ``skill`` (influence or scouting), ``location`` (a sea zone, its
  port for influence) and ``effect`` (effects.py: what the rumor promises). Influence: a
  port activity in the port of ``location`` (``{"action": "follow_rumor"}``); Scouting: a
  Scout action at sea in the zone (the same decision, one action). The card is shown
  (``RumorRevealed``, public) and the skill tested: failed, the rumor was false and the card
  is shuffled back into the rumor deck; passed, its effect runs for the player, then a glory
  point and a glory card, then the card goes back too, unless it says ``keep`` (the book's
  Forged Documents): a kept rumor stays with the player, face up, and is not followed again.
* A **mission** card carries ``complete``: ``{"at": zone, "during": "port"|"sea",
  "needs": [NEED, ...], "skill": optional skill, "steps": [STEP, ...]}``. Held, it is
  completed at ``at`` (a port activity, or one action at sea there, like the Scout action)
  when every NEED is met: ``{"need": "deliver", "good": g, "count": n}`` (n cargo cards of
  the good handed over, face up, to the discards) or ``{"need": "pay", "amount": n}``
  (coins to the bank). With a ``skill`` a test follows (failed: the mission stays held,
  nothing handed over). Completed: the steps (its "Earn"), a glory point and a glory card,
  the card to the mission discards.

Games of rules version 4 and later only (older games neither follow nor complete).
"""

from __future__ import annotations

from service.kernel import BadInput

from .catalog import SKILLS
from .catalog import tables
from .effects import run, validate as validate_effect, validate_steps
from .mechanics import gain_glory, skill_test
from .state import cargo_by_good, funds, pay, player

TYPE_CHECKING = False   # (the imports below are the type checker's: none at run time)
if TYPE_CHECKING:
    from collections.abc import Collection
    from service.kernel.events import Ev
    from service.kernel.machine import Step
    from typing import Any, NoReturn
    from .shapes import Decision, Outcome, Player, State

NEEDS: dict[str, dict[str, type]] = {"deliver": {"good": str, "count": int}, "pay": {"amount": int}}


def _bad(card: str, msg: str) -> NoReturn:
    raise BadInput(f"merchants-and-marauders catalog: card {card!r}: {msg}")


def validate_rumor(r: Any, zones: Collection[str], ports: Collection[str], nations: Collection[str]) -> None:
    if r.get("skill") not in ("influence", "scouting"):
        _bad(r["id"], "a rumor's skill is influence (in port) or scouting (at sea)")
    if r.get("location") not in zones:
        _bad(r["id"], f"no zone {r.get('location')!r}")
    if r["skill"] == "influence" and r["location"] not in ports:
        _bad(r["id"], f"an Influence rumor is followed in a port: {r['location']!r} has none")
    effect = r.get("effect", "none")
    validate_effect(r["id"], effect, nations)
    if effect != "none" and effect["timing"] != "immediate":
        _bad(r["id"], "a rumor's effect is immediate (it acts when the rumor proves true)")


def validate_mission(m: Any, zones: Collection[str], ports: Collection[str], goods: Collection[str], nations: Collection[str]) -> None:
    c = m.get("complete")
    if c is None:
        return                      # no completion written: it cannot be completed
    if not isinstance(c, dict) or c.get("during") not in ("port", "sea"):
        _bad(m["id"], 'complete needs "during": "port" or "sea"')
    if c.get("at") not in (ports if c["during"] == "port" else zones):
        _bad(m["id"], f"complete: no {'port' if c['during'] == 'port' else 'zone'} {c.get('at')!r}")
    if c.get("skill") is not None and c["skill"] not in SKILLS:
        _bad(m["id"], f"complete: no skill {c['skill']!r}")
    for n in c.get("needs", []):
        kind = n.get("need") if isinstance(n, dict) else None
        if kind not in NEEDS:
            _bad(m["id"], f"unknown need {kind!r} (known: {', '.join(NEEDS)})")
        for arg, t in NEEDS[kind].items():
            if not isinstance(n.get(arg), t) or isinstance(n.get(arg), bool):
                _bad(m["id"], f"{kind} needs {arg} ({t.__name__})")
        if kind == "deliver" and (n["good"] not in goods or not 1 <= n["count"] <= 5):
            _bad(m["id"], "deliver: one of the goods, 1 to 5 cards")
        if kind == "pay" and not 1 <= n["amount"] <= 50:
            _bad(m["id"], "pay: 1 to 50 coins")
    if not isinstance(c.get("steps", []), list):
        _bad(m["id"], "complete: steps is a list")
    validate_steps(m["id"], c.get("steps", []), nations)


# what may be done --------------------------------------------------------------------
def _rumor_here(state: State, p: Player, during: str) -> bool:
    if not state.get("tasks") or p["rumor"] is None or p.get("rumor_shown"):
        return False
    r = tables(state)["rumors"][p["rumor"]]
    if r.get("effect", "none") == "none" and not r.get("skill"):
        return False
    want = "port" if r["skill"] == "influence" else "sea"
    return want == during and r["location"] == p["zone"]


def _payable(state: State, p: Player) -> int:
    return funds(state, p) if p["in_port"] else p["gold"]


def _mission_ready(state: State, p: Player, during: str) -> bool:
    if not state.get("tasks") or p["mission"] is None:
        return False
    c = tables(state)["missions"][p["mission"]].get("complete")
    if not c or c["during"] != during or c["at"] != p["zone"]:
        return False
    have = cargo_by_good(state, p)
    pay = sum(n["amount"] for n in c.get("needs", []) if n["need"] == "pay")
    if pay > _payable(state, p):
        return False
    return all(len(have.get(n["good"], [])) >= n["count"] for n in c.get("needs", []) if n["need"] == "deliver")


def has_task(p: Player) -> bool:
    """A rumor or a mission in hand: without one, the player has no task to act on."""
    return p["rumor"] is not None or p["mission"] is not None


def port_activities(state: State, p: Player, started: list[str]) -> list[Decision]:
    if not has_task(p):
        return []
    out = []
    if "follow_rumor" not in started and _rumor_here(state, p, "port"):
        out.append({"action": "follow_rumor"})
    if "complete_mission" not in started and _mission_ready(state, p, "port"):
        out.append({"action": "complete_mission"})
    return out


def sea_actions(state: State, p: Player) -> list[Decision]:
    if p["in_port"] or not has_task(p):
        return []
    out = []
    if _rumor_here(state, p, "sea"):
        out.append({"action": "follow_rumor"})
    if _mission_ready(state, p, "sea"):
        out.append({"action": "complete_mission"})
    return out


# doing it --------------------------------------------------------------------------------
def _begin(step: Step, seat: int, activity: str, target: str) -> None:
    p = player(step.state, seat)
    if step.state["port"] is not None:
        step.emit("PortActivityBegun", {"seat": seat, "activity": activity})
    else:                                   # at sea: one action, as the Scout action
        step.emit("Scouted", {"seat": seat, "zone": p["zone"], "target": target})


def do_follow_rumor(step: Step, seat: int, d: dict[str, Any]) -> Outcome:
    state = step.state
    p = player(state, seat)
    card = p["rumor"]
    r = tables(state)["rumors"][card]
    _begin(step, seat, "follow_rumor", "rumor")
    step.emit("RumorRevealed", {"seat": seat, "card": card, "name": r["name"], "skill": r["skill"], "zone": p["zone"]})
    if not skill_test(step, seat, r["skill"], f"following the rumor {r['name']}"):
        step.emit("RumorFalse", {"seat": seat, "card": card})
        return None
    step.emit("RumorTrue", {"seat": seat, "card": card, "kept": bool(r.get("keep"))})
    effect = r.get("effect", "none")
    out = run(step, effect["steps"], seat, card) if effect != "none" else None  # type: ignore[arg-type]  # (a rumor)
    if player(step.state, seat)["captain"] is not None:
        gain_glory(step, seat, "a rumor proved true")
    return out


def do_complete_mission(step: Step, seat: int, d: dict[str, Any]) -> Outcome:
    state = step.state
    p = player(state, seat)
    card = p["mission"]
    m = tables(state)["missions"][card]
    c = m["complete"]
    _begin(step, seat, "complete_mission", "mission")
    if c.get("skill") and not skill_test(step, seat, c["skill"], f"completing the mission {m['name']}"):
        step.emit("MissionAttemptFailed", {"seat": seat, "mission": card})
        return None
    have = cargo_by_good(state, p)
    delivered = []
    for n in c.get("needs", []):
        if n["need"] == "deliver":
            delivered += sorted(have[n["good"]])[:n["count"]]
    pay = sum(n["amount"] for n in c.get("needs", []) if n["need"] == "pay")
    step.emit("MissionCompleted", {"seat": seat, "mission": card, "name": m["name"], "delivered": delivered, "paid": pay})
    out = run(step, c["steps"], seat, card) if c.get("steps") else None  # type: ignore[arg-type]  # (a mission)
    if player(step.state, seat)["captain"] is not None:
        gain_glory(step, seat, "a mission completed")
    return out


HANDLERS = {"follow_rumor": do_follow_rumor, "complete_mission": do_complete_mission}


# the events ---------------------------------------------------------------------------

def _rumor_revealed(state: State, d: dict[str, Any], ev: Ev) -> None:
    player(state, d["seat"])["rumor_shown"] = True


def _rumor_done(state: State, d: dict[str, Any], ev: Ev) -> None:
    p = player(state, d["seat"])
    if not d.get("kept"):               # false, or true and not kept: back into the rumor deck
        state["decks"]["rumors"].append(p["rumor"])  # type: ignore[arg-type]  # (the rumor followed)
        p["rumor"] = None
        p.pop("rumor_shown", None)


def _mission_completed(state: State, d: dict[str, Any], ev: Ev) -> None:
    p = player(state, d["seat"])
    for c in d["delivered"]:
        p["cargo"].remove(c)
    state["decks"]["cargo_discard"].extend(d["delivered"])
    if d["paid"]:
        pay(state, p, d["paid"])
    state["decks"]["mission_discard"].append(p["mission"])  # type: ignore[arg-type]  # (the mission completed)
    p["mission"] = None


APPLY = {"RumorRevealed": _rumor_revealed, "RumorFalse": _rumor_done, "RumorTrue": _rumor_done,
         "MissionCompleted": _mission_completed}

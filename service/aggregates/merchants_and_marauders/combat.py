"""A fight between two ships, a player's and a player's or an NPC's (the book:
"Combattimento", p. 14: Combattimento navale, Dichiarazione, Sfida sull'abilità
Navigazione, Azioni, Posizione dei colpi e danni, Armi speciali; the upgrade tiles that
act in a fight, "Acquistare tessere upgrade", p. 7): how it begins and its naval rounds,
up to the hits; a boarding, the winner's plunder and the fight's end are boarding.py. A
fight's end is handed back to the flow (``END_TURN``, ``CARRY_ON``, or the next NPC
that found the player).

A fight in progress is ``state["combat"]``: ``a`` the attacker (the seat that
scouted), ``d`` the defender, ``round``, ``kind`` (``naval`` or ``crew``) and a
``stage``; everything in it is public (a fight is fought in the open). Stages
and decisions:

* ``declare``: each side's combat action, the attacker first:
  ``{"action": "combat_action", "do": "shoot"|"board"|"flee"}`` (round 1: shoot
  only, declared by itself);
* ``reroll``: a boarder with Grappling Hooks may spend them to roll again any of
  its Seamanship dice: ``{"action": "reroll", "dice": [i, ...]}`` / ``{"action":
  "keep_dice"}``;
* ``shot``: a shooter whose hit-location roll shows skulls may spend Chain Shot
  (skulls hit the masts) or Grape Shot (the crew): ``{"action": "special_shot",
  "kind": K}`` / ``{"action": "no_shot"}``;
* ``place``: the ship's owner places each skull hit: ``{"action": "place_hit",
  "location": L}``;
* ``reallocate``: a captain with ``reallocate_hit`` (once a battle) may move one
  hit on his ship elsewhere: ``{"action": "reallocate", "frm": L, "to": L2}`` /
  ``{"action": "no_reallocate"}``;
* ``plunder``: the winner of a crew combat takes the beaten ship's cargo cards
  that fit: ``{"action": "plunder_cargo", "card": C}`` / ``{"action":
  "plunder_done"}``; then ``{"action": "claim_ship", "claim": true|false}``.

Everything rolled goes through the kernel's chance: at a table the referee
enters the dice.
"""

from __future__ import annotations

from itertools import combinations

from . import boarding, glory
from . import npc as npc_rules
from .abilities import dice as skill_dice, has
from .boarding import crew_settle, defeated, end, for_side, plunder_choices
from .catalog import tables
from .mechanics import successes, numbers
from .state import (LOCATIONS, is_npc, is_pirate, nation_of, new_ship, other_side as _other, player, ship_max, side,
                    side_key, side_name as name, upgrade_tile as tile)
from .wanted import gain_flag

TYPE_CHECKING = False   # (the imports below are the type checker's: none at run time)
if TYPE_CHECKING:
    from service.kernel.events import Ev
    from service.kernel.machine import Step
    from typing import Any
    from .shapes import Combat, Decision, Location, NpcSide, Outcome, Side, State, Who


def controller(state: State, who: Who) -> int:
    """Who decides for a side: a player for itself; for an NPC the player to the left of
    the player it fights, the book's default ("il giocatore alla sinistra del giocatore che
    combatte contro l'NPC"): play goes clockwise ("in senso orario"), so the player to the
    left is the next in turn order (rules version 5; games of version 4: the one before)."""
    if not is_npc(who):
        return who
    c = state["combat"]
    foe = c["d"] if c["a"] == who else c["a"]
    order = state["order"]
    return order[(order.index(foe) + (1 if state.get("combat_fixes") else -1)) % len(order)]  # type: ignore[arg-type]  # (an NPC's foe: a seat)


def begin(step: Step, attacker: Who, defender: Who) -> Outcome:
    """A fight between two sides: seats, or an NPC (``npc:<id>``) and a seat.
    The book: "Combattimento navale", p. 14."""
    state = step.state
    npc = next((w for w in (attacker, defender) if is_npc(w)), None)
    seat = defender if npc == attacker else attacker
    zone = player(state, seat)["zone"]  # type: ignore[arg-type]  # (the side not the NPC: a seat)
    if npc is None:
        step.emit("CombatBegun", {"a": attacker, "d": defender, "zone": zone})
    else:
        step.emit("CombatBegun", {"a": attacker, "d": defender, "zone": zone, "npc": npc_rules.fighter(state, npc[4:])})
    d = side(state, defender)
    if not is_npc(attacker) and not is_pirate(d):   # engaging a non-pirate ship: wanted by its nation at once
        gain_flag(step, attacker, nation_of(state, d), "engaging a non-pirate ship")  # type: ignore[arg-type]  # (no pirate: a nation)
    return _long_range(step)


def _long_range(step: Step) -> Outcome:
    """Long Range: before the first round, a die per cannon, a hit per success (no
    special shot); those hits land before the first round."""
    state = step.state
    c = state["combat"]
    S = tables(state)
    due = {}
    for seat in (c["a"], c["d"]):
        p = side(state, seat)
        if tile(state, p, "long_range") and p["ship"]["cannons"] > 0:
            dice = step.roll(S["die_sides"], p["ship"]["cannons"], vis="all", why=f"seat {seat}: Long Range",
                             faces={"skull": S["die_sides"]})
            n = successes(state, dice)
            step.emit("LongRangeFired", {"seat": seat, "dice": dice, "hits": n})
            if n:
                due[str(_other(c, seat))] = n
    if due:
        step.emit("CombatHitsDue", {"hits": due, "before_round": True})
        return _locate_next(step)
    return _declare_first_round(step)


def _declare_first_round(step: Step) -> Outcome:
    c = step.state["combat"]
    for seat in (c["a"], c["d"]):
        step.emit("CombatActionDeclared", {"seat": seat, "do": "shoot", "round": c["round"], "why": "the first round: shoot only"})
    return roll_round(step)


def acting_seat(state: State) -> int:
    return controller(state, state["combat"]["waiting"])


def legal(state: State, seat: Who) -> list[Decision]:
    c = state["combat"]
    if acting_seat(state) != seat:
        return []
    seat = c["waiting"]                 # the side it decides for (itself, or an NPC it controls)
    st = c["stage"]
    if st.startswith("glory_"):
        return glory.legal(state, seat)  # type: ignore[arg-type]  # (a glory window asks seats only)
    if st == "bow":
        return [{"action": "bow_cannon", "fire": True}, {"action": "bow_cannon", "fire": False}]
    if st == "absorb":
        frm = sorted({h["location"] for h in c["hits"][str(seat)]})
        return [{"action": "absorb", "location": f} for f in frm] + [{"action": "no_absorb"}]
    if st == "declare":
        return [{"action": "combat_action", "do": do} for do in declarations(state, seat)]
    if st == "reroll":
        n = len(c["dice"][side_key(c, seat)])
        subsets = [list(s) for k in range(1, n + 1) for s in combinations(range(n), k)]
        return [{"action": "reroll", "dice": s} for s in subsets] + [{"action": "keep_dice"}]
    if st == "shot":
        weapons = side(state, seat)["weapons"]     # (the side read only where it is asked about)
        kinds = [k for k in ("chain_shot", "grape_shot") if k in weapons]
        return [{"action": "special_shot", "kind": k} for k in kinds] + [{"action": "no_shot"}]
    if st == "place":
        return [{"action": "place_hit", "location": loc} for loc in LOCATIONS]
    if st == "reallocate":
        hits = c["hits"][str(seat)]
        frm = sorted({h["location"] for h in hits})
        return [{"action": "reallocate", "frm": f, "to": t} for f in frm for t in LOCATIONS if t != f] + \
            [{"action": "no_reallocate"}]
    if st == "plunder":
        return plunder_choices(state, seat)
    if st == "claim":
        return [{"action": "claim_ship", "claim": True}, {"action": "claim_ship", "claim": False}]
    return []


def declarations(state: State, seat: Who) -> list[str]:
    """The combat actions a side may declare after the first round: Shoot always; Board
    with a crew; Flee, except an NPC not left with fewer cannons or crew (the book); only
    Shoot without masts. The book: "Dichiarazione", p. 14."""
    c = state["combat"]
    ship = side(state, seat)["ship"]
    if ship["masts"] <= 0:
        return ["shoot"]
    out = ["shoot"] + (["board"] if ship["crew"] > 0 else [])
    foe = side(state, _other(c, seat))["ship"]
    if is_npc(seat) and not (ship["cannons"] < foe["cannons"] or ship["crew"] < foe["crew"]):
        return out
    return out + ["flee"]


def do_combat_action(step: Step, seat: Who, d: dict[str, Any]) -> Outcome:
    state = step.state
    c = state["combat"]
    step.emit("CombatActionDeclared", {"seat": seat, "do": d["do"], "round": c["round"]})
    if seat == c["a"]:
        step.emit("CombatWaiting", {"seat": c["d"], "stage": "declare"})
        return None
    return _bow_or_roll(step)


def _bow_or_roll(step: Step) -> Outcome:
    """Bow Cannon: once either side declares Flee, a ship with the tile face up may
    turn it to hit once (with the round's hits)."""
    state = step.state
    c = state["combat"]
    if "flee" in c["declared"].values():
        for seat in (c["a"], c["d"]):
            if seat not in c["bow_asked"] and tile(state, side(state, seat), "bow_cannon", ready=True):
                step.emit("CombatWaiting", {"seat": seat, "stage": "bow"})
                return None
    return roll_round(step)


def do_bow_cannon(step: Step, seat: Who, d: dict[str, Any]) -> Outcome:
    state = step.state
    c = state["combat"]
    if d["fire"]:
        step.emit("BowCannonFired", {"seat": seat, "tile": tile(state, side(state, seat), "bow_cannon", ready=True),
                  "target": _other(c, seat)})
    else:
        step.emit("BowCannonHeld", {"seat": seat})
    return _bow_or_roll(step)


def _dice_count(state: State, p: Side, maneuver: int, foe_maneuver: int) -> tuple[int, str]:
    """Side ``p``'s Seamanship dice; ``maneuver``, ``foe_maneuver``: its ship's and the
    other ship's Maneuverability (``ship_max``)."""
    if p["ship"]["masts"] <= 0:
        return 1, "masts destroyed: one die"
    n = skill_dice(state, p, "seamanship")
    if maneuver >= foe_maneuver + 2:
        return n + 1, "Maneuverability 2 or more above: one more die"
    return n, ""


def roll_round(step: Step) -> Outcome:
    """The book: "Sfida sull'abilità Navigazione", p. 14."""
    state = step.state
    c = state["combat"]
    S = tables(state)
    # the two sides and their ships' Maneuverability, read once for both rolls (the
    # rolls change no ship)
    a, d = side(state, c["a"]), side(state, c["d"])
    ma, md = ship_max(state, a["ship"], "maneuver"), ship_max(state, d["ship"], "maneuver")
    for seat, p, mine, theirs in ((c["a"], a, ma, md), (c["d"], d, md, ma)):
        n, why = _dice_count(state, p, mine, theirs)
        dice = step.roll(S["die_sides"], n, vis="all", why=f"{name(seat)}: Seamanship, combat round {c['round']}"
                         + (f" ({why})" if why else ""), faces={"skull": S["die_sides"]})
        step.emit("CombatRolled", {"seat": seat, "skill": "seamanship", "dice": dice, "round": c["round"]})
    return _maybe_reroll(step, c["a"])


def _maybe_reroll(step: Step, start: Who) -> Outcome:
    """Grappling Hooks: a boarder may roll again any of its dice (the attacker first)."""
    state = step.state
    c = state["combat"]
    if "board" not in c["declared"].values():   # (most rounds: nobody boards, nobody is asked)
        return _glory_or_settle(step)
    order = [c["a"], c["d"]] if start == c["a"] else [c["d"]]
    for seat in order:
        if c["declared"][side_key(c, seat)] == "board" and "grappling_hooks" in side(state, seat)["weapons"] \
                and seat not in c["rerolled"]:
            step.emit("CombatWaiting", {"seat": seat, "stage": "reroll"})
            return None
    return _glory_or_settle(step)


def _glory_or_settle(step: Step) -> Outcome:
    """Glory cards of the naval-roll phase (rules version 4), then the round's outcome."""
    if glory.open_window(step, "naval_roll"):
        return None
    return settle_round(step)


def do_reroll(step: Step, seat: Who, d: dict[str, Any]) -> Outcome:
    state = step.state
    c = state["combat"]
    S = tables(state)
    step.emit("WeaponSpent", {"seat": seat, "kind": "grappling_hooks", "why": "boarding: dice rolled again"})
    new = step.roll(S["die_sides"], len(d["dice"]), vis="all", why=f"seat {seat}: Grappling Hooks, dice rolled again",
                    faces={"skull": S["die_sides"]})
    dice = list(c["dice"][side_key(c, seat)])
    for i, v in zip(d["dice"], new):
        dice[i] = v
    step.emit("CombatRerolled", {"seat": seat, "which": list(d["dice"]), "dice": dice})
    return _after_reroll(step, seat)


def do_keep_dice(step: Step, seat: Who, d: dict[str, Any]) -> Outcome:
    c = step.state["combat"]
    step.emit("CombatRerolled", {"seat": seat, "which": [], "dice": list(c["dice"][side_key(c, seat)])})
    return _after_reroll(step, seat)


def _after_reroll(step: Step, seat: Who) -> Outcome:
    c = step.state["combat"]
    if seat == c["a"]:
        return _maybe_reroll(step, c["d"])
    return _glory_or_settle(step)


def winner(state: State, c: Combat, sa: int | None = None, sd: int | None = None) -> Who | None:
    """More successes wins; a tie goes to the higher sum of the other dice; no
    success at all, or a tie still: nobody. (``sa``, ``sd``: the sides' successes,
    when the caller has counted them.) The book: "Sfida sull'abilità Navigazione", p. 14."""
    da, dd = c["dice"]["a"], c["dice"]["d"]
    if sa is None:
        sa, sd = successes(state, da), successes(state, dd)
    if sa == 0 and sd == 0:
        return None
    if sa != sd:
        return c["a"] if sa > sd else c["d"]  # type: ignore[operator]  # (sd: given with sa)
    na, nd = numbers(state, da), numbers(state, dd)
    if na != nd:
        return c["a"] if na > nd else c["d"]
    return None


def settle_round(step: Step) -> Outcome:
    """The book: "Azioni", p. 14."""
    state = step.state
    c = state["combat"]
    # each side's successes, counted once for the winner, the event and the hits (the
    # event changes no dice)
    won = {"a": successes(state, c["dice"]["a"]), "d": successes(state, c["dice"]["d"])}
    win = winner(state, c, won["a"], won["d"])
    step.emit("CombatRoundWon", {"seat": win, "round": c["round"], "successes": {str(c["a"]): won["a"], str(c["d"]): won["d"]}})
    hits = {k: v for k, v in c["bow"].items() if v}
    for seat in (c["a"], c["d"]):
        key = side_key(c, seat)
        if c["declared"][key] != "shoot":
            continue
        cannons = side(state, seat)["ship"]["cannons"]
        n = cannons if win == seat else min(won[key], cannons)
        if n > 0:
            key = str(_other(c, seat))
            hits[key] = hits.get(key, 0) + n
    step.emit("CombatHitsDue", {"hits": hits})
    return _locate_next(step)


def _locate_next(step: Step) -> Outcome:
    """Each shooter rolls the hit-location dice for its hits (the attacker first).
    The book: "Posizione dei colpi e danni", p. 14."""
    state = step.state
    c = state["combat"]
    S = tables(state)
    for target in (c["d"], c["a"]):
        key = str(target)
        if key in c["due"] and key not in c["located"]:
            shooter = _other(c, target)
            dice = step.roll(S["die_sides"], c["due"][key], vis="all",
                             why=f"{name(shooter)}: hit locations on {name(target)}'s ship",
                             faces={"skull": S["die_sides"]})
            hit_die = S["hit_die"]
            located, skulls = [], 0         # (one pass over the dice: a face the hit die names, else a skull)
            for v in dice:
                face = str(v)
                if face in hit_die:
                    located.append(hit_die[face])
                else:
                    skulls += 1
            step.emit("HitsLocated", {"shooter": shooter, "target": target, "dice": dice, "locations": located, "skulls": skulls})
            if skulls and not c["before_round"] and \
                    any(k in side(state, shooter)["weapons"] for k in ("chain_shot", "grape_shot")):
                step.emit("CombatWaiting", {"seat": shooter, "stage": "shot", "target": target})
                return None
            if skulls:
                step.emit("CombatWaiting", {"seat": target, "stage": "place", "target": target})
                return None
    return _reallocate_or_apply(step)


def do_special_shot(step: Step, seat: Who, d: dict[str, Any]) -> Outcome:
    """The book: "Armi speciali", p. 14."""
    state = step.state
    c = state["combat"]
    target = c["target"]
    loc = "masts" if d["kind"] == "chain_shot" else "crew"
    step.emit("WeaponSpent", {"seat": seat, "kind": d["kind"], "why": f"the skulls hit the {loc}"})
    step.emit("SkullsDirected", {"shooter": seat, "target": target, "location": loc, "hits": c["skulls"][str(target)],
              "transfer": False})
    return _locate_next(step)


def do_no_shot(step: Step, seat: Who, d: dict[str, Any]) -> None:
    state = step.state
    c = state["combat"]
    step.emit("CombatWaiting", {"seat": c["target"], "stage": "place", "target": c["target"]})


def do_place_hit(step: Step, seat: Who, d: dict[str, Any]) -> Outcome:
    state = step.state
    c = state["combat"]
    step.emit("SkullPlaced", {"seat": seat, "location": d["location"]})
    if c["skulls"][str(seat)] > 0:
        return None                         # another skull to place
    return _locate_next(step)


def _reallocate_or_apply(step: Step) -> Outcome:
    state = step.state
    c = state["combat"]
    for seat in (c["a"], c["d"]):           # (the side is read only for a ship with hits)
        if c["hits"].get(str(seat)) and has(state, side(state, seat), "reallocate_hit") \
                and seat not in c["reallocated"] and seat not in c["asked"]:
            step.emit("CombatWaiting", {"seat": seat, "stage": "reallocate"})
            return None
    for seat in (c["a"], c["d"]):       # Reinforced Hull: a hit absorbed once its location is known
        if c["hits"].get(str(seat)) and seat not in c["absorb_asked"] and \
                tile(state, side(state, seat), "reinforced_hull", ready=True):
            step.emit("CombatWaiting", {"seat": seat, "stage": "absorb"})
            return None
    return apply_hits(step)


def do_absorb(step: Step, seat: Who, d: dict[str, Any]) -> Outcome:
    state = step.state
    step.emit("HitAbsorbed", {"seat": seat, "location": d["location"],
              "tile": tile(state, side(state, seat), "reinforced_hull", ready=True)})
    return _reallocate_or_apply(step)


def do_no_absorb(step: Step, seat: Who, d: dict[str, Any]) -> Outcome:
    step.emit("HitAbsorbed", {"seat": seat, "location": None, "tile": None})
    return _reallocate_or_apply(step)


def do_reallocate(step: Step, seat: Who, d: dict[str, Any]) -> Outcome:
    step.emit("HitReallocated", {"seat": seat, "frm": d["frm"], "to": d["to"], "why": "captain's ability: once a battle"})
    return _reallocate_or_apply(step)


def do_no_reallocate(step: Step, seat: Who, d: dict[str, Any]) -> Outcome:
    step.emit("HitReallocated", {"seat": seat, "frm": None, "to": None, "why": "declined"})
    return _reallocate_or_apply(step)


def apply_hits(step: Step) -> Outcome:
    """All hits of the round land together: numbered ones, then the skulls; a hit
    on a destroyed location goes to the hull, but not a special shot's.
    The book: "Posizione dei colpi e danni", p. 14."""
    state = step.state
    c = state["combat"]
    for seat in (c["d"], c["a"]):
        ship = side(state, seat)["ship"]
        for h in c["hits"].get(str(seat), []):
            loc: Location = h["location"]
            if ship[loc] > 0:
                step.emit("ShipHit", {"seat": seat, "location": loc, "aimed": loc, "why": "combat"})
            elif h.get("special"):
                step.emit("HitLost", {"seat": seat, "location": loc, "why": "a special shot on a destroyed location"})
            else:
                step.emit("ShipHit", {"seat": seat, "location": "hull", "aimed": loc, "why": "combat"})
    before = c["before_round"]
    step.emit("CombatHitsApplied", {"round": 0 if before else c["round"]})
    if side(state, c["a"])["ship"]["hull"] <= 0 or side(state, c["d"])["ship"]["hull"] <= 0:
        return _sinkings(step)
    if before:
        return _declare_first_round(step)
    return after_naval_round(step)


def _sinkings(step: Step) -> Outcome:
    """A hull at 0: the ship sinks and its captain dies; the fight is over."""
    state = step.state
    c = state["combat"]
    a, d = side(state, c["a"]), side(state, c["d"])
    sunk = [p["seat"] for p in (a, d) if p["ship"]["hull"] <= 0]
    for seat in sunk:
        step.emit("ShipSunk", {"seat": seat, "why": "hull destroyed in combat"})
    if len(sunk) == 1:
        return defeated(step, _other(c, sunk[0]), sunk[0], plunder=False)
    return end(step, None, sunk)


def after_naval_round(step: Step) -> Outcome:
    state = step.state
    c = state["combat"]
    win = c["round_winner"]
    if win is not None:
        key = side_key(c, win)
        act = c["declared"][key]
        if act == "flee" and successes(state, c["dice"]["d" if key == "a" else "a"]) == 0:
            step.emit("CombatFled", {"seat": win})
            return end(step, None, [])
        if act == "board" and side(state, win)["ship"]["crew"] > 0:
            other = side(state, _other(c, win))     # (read only for a boarding)
            step.emit("Boarded", {"seat": win, "target": other["seat"]})
            return boarding.board(step)
    if side(state, c["a"])["ship"]["cannons"] <= 0 and side(state, c["d"])["ship"]["cannons"] <= 0 and \
            declarations(state, c["a"]) == ["shoot"] and declarations(state, c["d"]) == ["shoot"]:
        # both may only shoot and neither has a cannon: nothing can change; the ships drift apart
        step.emit("CombatDrifted", {"why": "neither ship has a cannon and neither may board or flee: "
                  "neither can harm the other"})
        return end(step, None, [])
    step.emit("CombatRoundBegun", {"round": c["round"] + 1})
    step.emit("CombatWaiting", {"seat": c["a"], "stage": "declare"})
    return None


def after_window(step: Step, phase: str) -> Outcome:
    """A combat window closed: the round goes on."""
    return (settle_round if phase == "naval_roll" else crew_settle)(step)


_FOR_A_SIDE = {
    "combat_action": do_combat_action, "reroll": do_reroll, "keep_dice": do_keep_dice,
    "special_shot": do_special_shot, "no_shot": do_no_shot, "place_hit": do_place_hit,
    "reallocate": do_reallocate, "no_reallocate": do_no_reallocate, "bow_cannon": do_bow_cannon,
    "absorb": do_absorb, "no_absorb": do_no_absorb,
}
HANDLERS = {**{k: for_side(v) for k, v in _FOR_A_SIDE.items()}, **boarding.HANDLERS}


# the events ---------------------------------------------------------------------------

def _combat_begun(state: State, d: dict[str, Any], ev: Ev) -> None:
    npc: NpcSide | None = None
    if d.get("npc"):
        f = d["npc"]
        npc = {"npc": f["id"], "seat": "npc:" + f["id"], "nation": f.get("nation"), "npc_pirate": f["pirate"],
               "npc_captain": dict(f["captain"]), "ship": new_ship(state, f["ship"]), "weapons": {}, "flags": {},
               "hand": [], "cargo": [], "gold": 0, "rumor": None, "specialists": [], "captain": None,
               "zone": d["zone"], "in_port": False, "card": f["card"]}
    state["combat"] = {"npc": npc,"a": d["a"], "d": d["d"], "round": 1, "kind": "naval", "stage": "declare",
                       "waiting": d["a"], "target": None, "declared": {}, "dice": {}, "rerolled": [],
                       "round_winner": None, "due": {}, "located": [], "hits": {}, "skulls": {},
                       "reallocated": [], "asked": [], "winner": None, "loser": None,
                       "before_round": False, "bow": {}, "bow_asked": [], "absorb_asked": [],
                       "window": None, "crew_round": 0}  # type: ignore[typeddict-item]  # (window None: none open)


def _combat_declared(state: State, d: dict[str, Any], ev: Ev) -> None:
    c = state["combat"]
    c["declared"][side_key(c, d["seat"])] = d["do"]


def _combat_waiting(state: State, d: dict[str, Any], ev: Ev) -> None:
    c = state["combat"]
    c["waiting"], c["stage"] = d["seat"], d["stage"]
    if "target" in d:
        c["target"] = d["target"]


def _combat_rolled(state: State, d: dict[str, Any], ev: Ev) -> None:
    c = state["combat"]
    c["dice"][side_key(c, d["seat"])] = list(d["dice"])
    if d["skill"] == "leadership":
        c["crew_round"] = d["round"]


def _combat_rerolled(state: State, d: dict[str, Any], ev: Ev) -> None:
    c = state["combat"]
    c["dice"][side_key(c, d["seat"])] = list(d["dice"])
    c["rerolled"].append(d["seat"])


def _round_won(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["combat"]["round_winner"] = d["seat"]


def _hits_due(state: State, d: dict[str, Any], ev: Ev) -> None:
    c = state["combat"]
    c["due"], c["located"], c["hits"], c["skulls"], c["asked"] = dict(d["hits"]), [], {}, {}, []
    c["absorb_asked"], c["before_round"] = [], bool(d.get("before_round"))


def _hits_located(state: State, d: dict[str, Any], ev: Ev) -> None:
    c = state["combat"]
    key = str(d["target"])
    c["located"].append(key)
    c["hits"].setdefault(key, []).extend({"location": loc} for loc in d["locations"])
    c["skulls"][key] = d["skulls"]


def _skulls_directed(state: State, d: dict[str, Any], ev: Ev) -> None:
    c = state["combat"]
    key = str(d["target"])
    c["hits"].setdefault(key, []).extend({"location": d["location"], "special": True} for _ in range(d["hits"]))
    c["skulls"][key] = 0


def _skull_placed(state: State, d: dict[str, Any], ev: Ev) -> None:
    c = state["combat"]
    key = str(d["seat"])
    c["hits"].setdefault(key, []).append({"location": d["location"]})
    c["skulls"][key] -= 1


def _hit_reallocated(state: State, d: dict[str, Any], ev: Ev) -> None:
    c = state["combat"]
    c["asked"].append(d["seat"])
    if d["frm"] is None:
        return
    c["reallocated"].append(d["seat"])
    for h in c["hits"][str(d["seat"])]:
        if h["location"] == d["frm"]:
            h["location"] = d["to"]
            h.pop("special", None)
            break


def _round_begun(state: State, d: dict[str, Any], ev: Ev) -> None:
    c = state["combat"]
    c["round"] = d["round"]
    c["declared"], c["dice"], c["rerolled"], c["round_winner"] = {}, {}, [], None
    c["bow"], c["bow_asked"] = {}, []


def _bow_fired(state: State, d: dict[str, Any], ev: Ev) -> None:
    c = state["combat"]
    c["bow_asked"].append(d["seat"])
    player(state, d["seat"])["ship"]["flipped"].append(d["tile"])
    key = str(d["target"])
    c["bow"][key] = c["bow"].get(key, 0) + 1


def _bow_held(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["combat"]["bow_asked"].append(d["seat"])


def _hit_absorbed(state: State, d: dict[str, Any], ev: Ev) -> None:
    c = state["combat"]
    c["absorb_asked"].append(d["seat"])
    if d["location"] is None:
        return
    player(state, d["seat"])["ship"]["flipped"].append(d["tile"])
    hits = c["hits"][str(d["seat"])]
    for i, h in enumerate(hits):
        if h["location"] == d["location"]:
            del hits[i]
            break


APPLY = {
    "CombatBegun": _combat_begun,
    "CombatActionDeclared": _combat_declared,
    "CombatWaiting": _combat_waiting,
    "CombatRolled": _combat_rolled,
    "CombatRerolled": _combat_rerolled,
    "CombatRoundWon": _round_won,
    "CombatHitsDue": _hits_due,
    "HitsLocated": _hits_located,
    "SkullsDirected": _skulls_directed,
    "SkullPlaced": _skull_placed,
    "HitReallocated": _hit_reallocated,
    "CombatRoundBegun": _round_begun,
    "BowCannonFired": _bow_fired,
    "BowCannonHeld": _bow_held,
    "HitAbsorbed": _hit_absorbed,
}

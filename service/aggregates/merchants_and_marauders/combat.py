"""Combat between two players' ships (the book: Combattimento navale, Posizione dei
colpi e danni, Combattimento fra equipaggi, Armi speciali, Depredare, Ricompense).

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

from . import glory
from . import npc as npc_rules      # (npc imports this module at its end)
from .abilities import dice as skill_dice, has
from .catalog import tables as T
from .flow import bank_pays, captain_dies, end_player_turn, resume
from .state import LOCATIONS, capacity, player, ship_max, side, side_key
from .wanted import gain_flag

ACTIONS = ("shoot", "board", "flee")


def nation_of(state, p):
    """A player's ship sails under its captain's home port's flag (an NPC: its nation's)."""
    if p.get("npc"):
        return p.get("nation")
    S = T(state)
    return S["zones"][S["captains"][p["captain"]]["home"]]["nation"]


def pirate(p) -> bool:
    return bool(p.get("npc_pirate")) or any(p["flags"].values())


def is_npc(who) -> bool:
    return isinstance(who, str)


def name(who) -> str:
    """``seat 2``, or ``the dutch naval ship`` for an NPC side."""
    return f"the {who[4:].replace('_', ' ')} ship" if is_npc(who) else f"seat {who}"


def controller(state, who):
    """Who decides for a side: a player for itself; for an NPC the player to the left of
    the player it fights (the one before in turn order), the book's default."""
    if not is_npc(who):
        return who
    c = state["combat"]
    foe = c["d"] if c["a"] == who else c["a"]
    order = state["order"]
    return order[(order.index(foe) - 1) % len(order)]


def _other(c, seat):
    return c["d"] if seat == c["a"] else c["a"]


# starting a fight ------------------------------------------------------------------
def tile(state, p, kind, ready=False):
    """The upgrade tile of ``kind`` on the player's ship (face up only, if ``ready``)."""
    upgrades = p["ship"].get("upgrades")
    if not upgrades:                    # (most ships: the tables are not even read)
        return None
    S = T(state)
    for t in upgrades:
        if S["upgrade"][t] == kind and not (ready and t in p["ship"]["flipped"]):
            return t
    return None


def begin(step, attacker, defender):
    """A fight between two sides: seats, or an NPC (``npc:<id>``) and a seat."""
    state = step.state
    npc = next((w for w in (attacker, defender) if is_npc(w)), None)
    seat = defender if npc == attacker else attacker
    zone = player(state, seat)["zone"]
    if npc is None:
        step.emit("CombatBegun", a=attacker, d=defender, zone=zone)
    else:
        step.emit("CombatBegun", a=attacker, d=defender, zone=zone, npc=npc_rules.fighter(state, npc[4:]))
    d = side(state, defender)
    if not is_npc(attacker) and not pirate(d):   # engaging a non-pirate ship: wanted by its nation at once
        gain_flag(step, attacker, nation_of(state, d), "engaging a non-pirate ship")
    _long_range(step)


def _long_range(step):
    """Long Range: before the first round, a die per cannon, a hit per success (no
    special shot); those hits land before the first round."""
    state = step.state
    c = state["combat"]
    S = T(state)
    due = {}
    for seat in (c["a"], c["d"]):
        p = side(state, seat)
        if tile(state, p, "long_range") and p["ship"]["cannons"] > 0:
            dice = step.roll(S["die_sides"], p["ship"]["cannons"], vis="all", why=f"seat {seat}: Long Range",
                             faces={"skull": S["die_sides"]})
            n = successes(state, dice)
            step.emit("LongRangeFired", seat=seat, dice=dice, hits=n)
            if n:
                due[str(_other(c, seat))] = n
    if due:
        step.emit("CombatHitsDue", hits=due, before_round=True)
        _locate_next(step)
    else:
        _declare_first_round(step)


def _declare_first_round(step):
    c = step.state["combat"]
    for seat in (c["a"], c["d"]):
        step.emit("CombatActionDeclared", seat=seat, do="shoot", round=c["round"], why="the first round: shoot only")
    roll_round(step)


# legal decisions -------------------------------------------------------------------
def acting_seat(state):
    return controller(state, state["combat"]["waiting"])


def legal(state, seat):
    c = state["combat"]
    if acting_seat(state) != seat:
        return []
    seat = c["waiting"]                 # the side it decides for (itself, or an NPC it controls)
    st = c["stage"]
    if st.startswith("glory_"):
        return glory.legal(state, seat)
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
        p = side(state, seat)
        out = []
        if len(p["cargo"]) < capacity(state, p):
            out = [{"action": "plunder_cargo", "card": x} for x in sorted(side(state, c["loser"])["cargo"])]
        return out + [{"action": "plunder_done"}]
    if st == "claim":
        return [{"action": "claim_ship", "claim": True}, {"action": "claim_ship", "claim": False}]
    return []


def declarations(state, seat):
    """The combat actions a side may declare after the first round: Shoot always; Board
    with a crew; Flee, except an NPC not left with fewer cannons or crew (the book); only
    Shoot without masts."""
    c = state["combat"]
    ship = side(state, seat)["ship"]
    if ship["masts"] <= 0:
        return ["shoot"]
    out = ["shoot"] + (["board"] if ship["crew"] > 0 else [])
    foe = side(state, _other(c, seat))["ship"]
    if is_npc(seat) and not (ship["cannons"] < foe["cannons"] or ship["crew"] < foe["crew"]):
        return out
    return out + ["flee"]


# the naval round -------------------------------------------------------------------
def do_combat_action(step, seat, d):
    state = step.state
    c = state["combat"]
    step.emit("CombatActionDeclared", seat=seat, do=d["do"], round=c["round"])
    if seat == c["a"]:
        step.emit("CombatWaiting", seat=c["d"], stage="declare")
    else:
        _bow_or_roll(step)


def _bow_or_roll(step):
    """Bow Cannon: once either side declares Flee, a ship with the tile face up may
    turn it to hit once (with the round's hits)."""
    state = step.state
    c = state["combat"]
    if "flee" in c["declared"].values():
        for seat in (c["a"], c["d"]):
            if seat not in c["bow_asked"] and tile(state, side(state, seat), "bow_cannon", ready=True):
                step.emit("CombatWaiting", seat=seat, stage="bow")
                return
    roll_round(step)


def do_bow_cannon(step, seat, d):
    state = step.state
    c = state["combat"]
    if d["fire"]:
        step.emit("BowCannonFired", seat=seat, tile=tile(state, side(state, seat), "bow_cannon", ready=True),
                  target=_other(c, seat))
    else:
        step.emit("BowCannonHeld", seat=seat)
    _bow_or_roll(step)


def _dice_count(state, p, maneuver, foe_maneuver):
    """Side ``p``'s Seamanship dice; ``maneuver``, ``foe_maneuver``: its ship's and the
    other ship's Maneuverability (``ship_max``)."""
    if p["ship"]["masts"] <= 0:
        return 1, "masts destroyed: one die"
    n = skill_dice(state, p, "seamanship")
    if maneuver >= foe_maneuver + 2:
        return n + 1, "Maneuverability 2 or more above: one more die"
    return n, ""


def roll_round(step):
    state = step.state
    c = state["combat"]
    S = T(state)
    # the two sides and their ships' Maneuverability, read once for both rolls (the
    # rolls change no ship)
    a, d = side(state, c["a"]), side(state, c["d"])
    ma, md = ship_max(state, a["ship"], "maneuver"), ship_max(state, d["ship"], "maneuver")
    for seat, p, mine, theirs in ((c["a"], a, ma, md), (c["d"], d, md, ma)):
        n, why = _dice_count(state, p, mine, theirs)
        dice = step.roll(S["die_sides"], n, vis="all", why=f"{name(seat)}: Seamanship, combat round {c['round']}"
                         + (f" ({why})" if why else ""), faces={"skull": S["die_sides"]})
        step.emit("CombatRolled", seat=seat, skill="seamanship", dice=dice, round=c["round"])
    _maybe_reroll(step, c["a"])


def _maybe_reroll(step, start):
    """Grappling Hooks: a boarder may roll again any of its dice (the attacker first)."""
    state = step.state
    c = state["combat"]
    if "board" not in c["declared"].values():   # (most rounds: nobody boards, nobody is asked)
        _glory_or_settle(step)
        return
    order = [c["a"], c["d"]] if start == c["a"] else [c["d"]]
    for seat in order:
        if c["declared"][side_key(c, seat)] == "board" and "grappling_hooks" in side(state, seat)["weapons"] \
                and seat not in c["rerolled"]:
            step.emit("CombatWaiting", seat=seat, stage="reroll")
            return
    _glory_or_settle(step)


def _glory_or_settle(step):
    """Glory cards of the naval-roll phase (rules version 4), then the round's outcome."""
    if not glory.open_window(step, "naval_roll"):
        settle_round(step)


def do_reroll(step, seat, d):
    state = step.state
    c = state["combat"]
    S = T(state)
    step.emit("WeaponSpent", seat=seat, kind="grappling_hooks", why="boarding: dice rolled again")
    new = step.roll(S["die_sides"], len(d["dice"]), vis="all", why=f"seat {seat}: Grappling Hooks, dice rolled again",
                    faces={"skull": S["die_sides"]})
    dice = list(c["dice"][side_key(c, seat)])
    for i, v in zip(d["dice"], new):
        dice[i] = v
    step.emit("CombatRerolled", seat=seat, which=list(d["dice"]), dice=dice)
    _after_reroll(step, seat)


def do_keep_dice(step, seat, d):
    c = step.state["combat"]
    step.emit("CombatRerolled", seat=seat, which=[], dice=list(c["dice"][side_key(c, seat)]))
    _after_reroll(step, seat)


def _after_reroll(step, seat):
    c = step.state["combat"]
    if seat == c["a"]:
        _maybe_reroll(step, c["d"])
    else:
        _glory_or_settle(step)


def successes(state, dice):
    least = T(state)["success_from"]
    n = 0
    for v in dice:
        if v >= least:
            n += 1
    return n


def numbers(state, dice):
    least = T(state)["success_from"]
    n = 0
    for v in dice:
        if v < least:
            n += v
    return n


def winner(state, c, sa=None, sd=None):
    """More successes wins; a tie goes to the higher sum of the other dice; no
    success at all, or a tie still: nobody. (``sa``, ``sd``: the sides' successes,
    when the caller has counted them.)"""
    da, dd = c["dice"]["a"], c["dice"]["d"]
    if sa is None:
        sa, sd = successes(state, da), successes(state, dd)
    if sa == 0 and sd == 0:
        return None
    if sa != sd:
        return c["a"] if sa > sd else c["d"]
    na, nd = numbers(state, da), numbers(state, dd)
    if na != nd:
        return c["a"] if na > nd else c["d"]
    return None


def settle_round(step):
    state = step.state
    c = state["combat"]
    # each side's successes, counted once for the winner, the event and the hits (the
    # event changes no dice)
    won = {"a": successes(state, c["dice"]["a"]), "d": successes(state, c["dice"]["d"])}
    win = winner(state, c, won["a"], won["d"])
    step.emit("CombatRoundWon", seat=win, round=c["round"], successes={str(c["a"]): won["a"], str(c["d"]): won["d"]})
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
    step.emit("CombatHitsDue", hits=hits)
    _locate_next(step)


def _locate_next(step):
    """Each shooter rolls the hit-location dice for its hits (the attacker first)."""
    state = step.state
    c = state["combat"]
    S = T(state)
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
            step.emit("HitsLocated", shooter=shooter, target=target, dice=dice, locations=located, skulls=skulls)
            if skulls and not c["before_round"] and \
                    any(k in side(state, shooter)["weapons"] for k in ("chain_shot", "grape_shot")):
                step.emit("CombatWaiting", seat=shooter, stage="shot", target=target)
                return
            if skulls:
                step.emit("CombatWaiting", seat=target, stage="place", target=target)
                return
    _reallocate_or_apply(step)


def do_special_shot(step, seat, d):
    state = step.state
    c = state["combat"]
    target = c["target"]
    loc = "masts" if d["kind"] == "chain_shot" else "crew"
    step.emit("WeaponSpent", seat=seat, kind=d["kind"], why=f"the skulls hit the {loc}")
    step.emit("SkullsDirected", shooter=seat, target=target, location=loc, hits=c["skulls"][str(target)],
              transfer=False)
    _locate_next(step)


def do_no_shot(step, seat, d):
    state = step.state
    c = state["combat"]
    step.emit("CombatWaiting", seat=c["target"], stage="place", target=c["target"])


def do_place_hit(step, seat, d):
    state = step.state
    c = state["combat"]
    step.emit("SkullPlaced", seat=seat, location=d["location"])
    if c["skulls"][str(seat)] > 0:
        return                              # another skull to place
    _locate_next(step)


def _reallocate_or_apply(step):
    state = step.state
    c = state["combat"]
    for seat in (c["a"], c["d"]):           # (the side is read only for a ship with hits)
        if c["hits"].get(str(seat)) and has(state, side(state, seat), "reallocate_hit") \
                and seat not in c["reallocated"] and seat not in c["asked"]:
            step.emit("CombatWaiting", seat=seat, stage="reallocate")
            return
    for seat in (c["a"], c["d"]):       # Reinforced Hull: a hit absorbed once its location is known
        if c["hits"].get(str(seat)) and seat not in c["absorb_asked"] and \
                tile(state, side(state, seat), "reinforced_hull", ready=True):
            step.emit("CombatWaiting", seat=seat, stage="absorb")
            return
    apply_hits(step)


def do_absorb(step, seat, d):
    state = step.state
    step.emit("HitAbsorbed", seat=seat, location=d["location"],
              tile=tile(state, side(state, seat), "reinforced_hull", ready=True))
    _reallocate_or_apply(step)


def do_no_absorb(step, seat, d):
    step.emit("HitAbsorbed", seat=seat, location=None, tile=None)
    _reallocate_or_apply(step)


def do_reallocate(step, seat, d):
    step.emit("HitReallocated", seat=seat, frm=d["frm"], to=d["to"], why="captain's ability: once a battle")
    _reallocate_or_apply(step)


def do_no_reallocate(step, seat, d):
    step.emit("HitReallocated", seat=seat, frm=None, to=None, why="declined")
    _reallocate_or_apply(step)


def apply_hits(step):
    """All hits of the round land together: numbered ones, then the skulls; a hit
    on a destroyed location goes to the hull, but not a special shot's."""
    state = step.state
    c = state["combat"]
    for seat in (c["d"], c["a"]):
        ship = side(state, seat)["ship"]
        for h in c["hits"].get(str(seat), []):
            loc = h["location"]
            if ship[loc] > 0:
                step.emit("ShipHit", seat=seat, location=loc, aimed=loc, why="combat")
            elif h.get("special"):
                step.emit("HitLost", seat=seat, location=loc, why="a special shot on a destroyed location")
            else:
                step.emit("ShipHit", seat=seat, location="hull", aimed=loc, why="combat")
    before = c["before_round"]
    step.emit("CombatHitsApplied", round=0 if before else c["round"])
    if _sinkings(step):
        return
    if before:
        _declare_first_round(step)
    else:
        after_naval_round(step)


def _sinkings(step):
    """A hull at 0: the ship sinks and its captain dies; True when the fight is over."""
    state = step.state
    c = state["combat"]
    a, d = side(state, c["a"]), side(state, c["d"])
    sunk = [p["seat"] for p in (a, d) if p["ship"]["hull"] <= 0]
    if not sunk:
        return False
    for seat in sunk:
        step.emit("ShipSunk", seat=seat, why="hull destroyed in combat")
    if len(sunk) == 1:
        defeated(step, _other(c, sunk[0]), sunk[0], plunder=False)
    else:
        end(step, None, sunk)
    return True


def after_naval_round(step):
    state = step.state
    c = state["combat"]
    win = c["round_winner"]
    if win is not None:
        key = side_key(c, win)
        act = c["declared"][key]
        if act == "flee" and successes(state, c["dice"]["d" if key == "a" else "a"]) == 0:
            step.emit("CombatFled", seat=win)
            end(step, None, [])
            return
        if act == "board" and side(state, win)["ship"]["crew"] > 0:
            other = side(state, _other(c, win))     # (read only for a boarding)
            step.emit("Boarded", seat=win, target=other["seat"])
            _swivel_guns(step)
            crew_round(step)
            return
    if side(state, c["a"])["ship"]["cannons"] <= 0 and side(state, c["d"])["ship"]["cannons"] <= 0 and \
            declarations(state, c["a"]) == ["shoot"] and declarations(state, c["d"]) == ["shoot"]:
        # both may only shoot and neither has a cannon: nothing can change; the ships drift apart
        step.emit("CombatDrifted", why="neither ship has a cannon and neither may board or flee: "
                  "neither can harm the other")
        end(step, None, [])
        return
    step.emit("CombatRoundBegun", round=c["round"] + 1)
    step.emit("CombatWaiting", seat=c["a"], stage="declare")


# crew combat ------------------------------------------------------------------------
def _swivel_guns(step):
    """Swivel Gun: before crew combat at sea, 2 dice; any success kills one of the other crew."""
    state = step.state
    c = state["combat"]
    S = T(state)
    for seat in (c["a"], c["d"]):
        if tile(state, side(state, seat), "swivel_gun"):
            dice = step.roll(S["die_sides"], 2, vis="all", why=f"seat {seat}: Swivel Gun",
                             faces={"skull": S["die_sides"]})
            step.emit("SwivelGunFired", seat=seat, dice=dice)
            other = _other(c, seat)
            if successes(state, dice) and side(state, other)["ship"]["crew"] > 0:
                step.emit("ShipHit", seat=other, location="crew", aimed="crew", why="Swivel Gun")



def crew_round(step):
    """Rounds of Leadership rolls until a crew is gone: each side inflicts its
    successes on the other's crew, no more than its own crew (the book, PT: "ela só
    pode infligir 2 pela quantidade de tripulacao"). Both gone in one round: more
    successes, then the higher sum of the other dice; still even, nobody wins."""
    state = step.state
    c = state["combat"]
    a, d = side(state, c["a"]), side(state, c["d"])
    for p, other in ((a, d), (d, a)):            # a crew already gone loses at once
        if p["ship"]["crew"] <= 0:
            if other["ship"]["crew"] > 0:
                defeated(step, other["seat"], p["seat"], plunder=True)
            else:
                end(step, None, [])
            return
    _crew_roll(step, 1)


def _crew_roll(step, rnd):
    """One round of crew combat: both roll; glory cards of the phase (rules version 4);
    then the hits."""
    state = step.state
    c = state["combat"]
    S = T(state)
    if rnd >= 100:
        raise RuntimeError("crew combat does not come to an end")
    for who in (c["a"], c["d"]):
        n = skill_dice(state, side(state, who), "leadership")
        dice = step.roll(S["die_sides"], n, vis="all", why=f"{name(who)}: Leadership, crew combat round {rnd}",
                         faces={"skull": S["die_sides"]})
        step.emit("CombatRolled", seat=who, skill="leadership", dice=dice, round=rnd)
    if glory.open_window(step, "crew_roll"):
        return
    crew_settle(step)


def crew_settle(step):
    state = step.state
    c = state["combat"]
    a, d = side(state, c["a"]), side(state, c["d"])
    rolled = {c["a"]: c["dice"]["a"], c["d"]: c["dice"]["d"]}
    dealt = {who: min(successes(state, dice), side(state, who)["ship"]["crew"]) for who, dice in rolled.items()}
    for who, n in dealt.items():
        target = _other(c, who)
        for _ in range(min(n, side(state, target)["ship"]["crew"])):
            step.emit("ShipHit", seat=target, location="crew", aimed="crew", why="crew combat")
    out = [p["seat"] for p in (a, d) if p["ship"]["crew"] <= 0]
    if len(out) == 1:
        defeated(step, _other(c, out[0]), out[0], plunder=True)
        return
    if out:
        sa, sd = successes(state, rolled[c["a"]]), successes(state, rolled[c["d"]])
        na, nd = numbers(state, rolled[c["a"]]), numbers(state, rolled[c["d"]])
        if (sa, na) == (sd, nd):
            step.emit("CrewCombatDrawn", why="both crews lost with the same successes and numbers")
            end(step, None, [])
            return
        win = c["a"] if (sa, na) > (sd, nd) else c["d"]
        defeated(step, win, _other(c, win), plunder=True)
        return
    _crew_roll(step, c["crew_round"] + 1)


# the end ----------------------------------------------------------------------------
def defeated(step, win, lose, plunder):
    """The winner has beaten a ship: a flag if it was not a pirate, the bounties if it
    was (but from nations that want the winner); then plunder and the claim."""
    state = step.state
    w, l = side(state, win), side(state, lose)
    step.emit("CombatWon", seat=win, beaten=lose, how="crew combat" if plunder else "sunk")
    if is_npc(win):                     # an NPC takes nothing: the beaten captain dies
        end(step, win, [lose])
        return
    if is_npc(lose):
        _beat_npc(step, win, lose, plunder)
        return
    if pirate(l):
        from .war import bounty_refused      # part 3: no bounty from a nation at war with the winner's
        pay = {n: 5 * k for n, k in sorted(l["flags"].items()) if k and not w["flags"].get(n)
               and not bounty_refused(state, nation_of(state, w), n)}
        total = sum(pay.values())
        if total:
            step.emit("GoldReceived", seat=win, amount=bank_pays(state, total), why="bounty", by_nation=pay)
    else:
        gain_flag(step, win, nation_of(state, l), "defeating a non-pirate ship")
    if plunder:
        _plunder(step, win, lose)
    else:
        end(step, win, [lose])


def _beat_npc(step, win, lose, plunder):
    """A naval NPC beaten: a flag of its nation; beaten in crew combat, three cargo cards
    give their loot, one is lost at random per hit its hold took, the rest may be kept.
    A pirate NPC beaten by a non-pirate: its bounty. Either may then be claimed."""
    state = step.state
    w, l = side(state, win), side(state, lose)
    S = T(state)
    if l["npc_pirate"]:
        if not pirate(w):
            pay = S["rules"]["npc_pirate_bounty"][l["ship"]["type"]]
            step.emit("GoldReceived", seat=win, amount=bank_pays(state, pay), why="bounty",
                      by_nation={"pirates": pay})
    else:
        gain_flag(step, win, nation_of(state, l), "defeating a non-pirate ship")
    if not plunder:
        end(step, win, [lose])
        return
    if not l["npc_pirate"]:
        decks = state["decks"]
        for k in range(3):
            if not decks["cargo"] and decks["cargo_discard"]:
                step.emit("CargoDeckReshuffled", cards=len(decks["cargo_discard"]))
            if not decks["cargo"]:
                break
            card = step.draw("cargo", decks["cargo"], vis="all", why=f"plunder of the naval ship: cargo card {k + 1}")
            step.emit("NpcCargoFound", npc=lose, card=card, good=S["good"][card], raid=S["cargo"][card]["raid"])
        loot = sum(S["cargo"][x]["raid"] for x in l["cargo"])
        step.emit("GoldReceived", seat=win, amount=bank_pays(state, loot), why="plunder of a naval ship")
        lost = ship_max(state, l["ship"], "cargo") - l["ship"]["cargo"]
        for _ in range(min(lost, len(l["cargo"]))):
            x = step.pick(sorted(l["cargo"]), vis="all", why="a cargo card lost with a hit on the hold")
            step.emit("NpcCargoLost", npc=lose, card=x)
    step.emit("CombatWaiting", seat=win, stage="plunder")
    _claim_when_nothing_fits(step, win)


def _plunder(step, win, lose):
    """Gold aboard, glory cards, the rumor, special weapons and specialists pass to
    the winner (what the beaten captain held is shown to the two of them); then the
    cargo cards that fit, chosen one by one; then the ship may be claimed."""
    state = step.state
    w, l = side(state, win), side(state, lose)
    S = T(state)
    weapons = sorted(k for k in l["weapons"] if k not in w["weapons"])
    have = {S["glory"][g]["specialist"] for g in w["specialists"]}
    specialists = [g for g in l["specialists"] if S["glory"][g]["specialist"] not in have]
    step.emit("Plundered", vis=sorted([win, lose]), seat=win, beaten=lose, gold=l["gold"], glory_cards=list(l["hand"]),
              rumor=l["rumor"] if w["rumor"] is None else None, weapons=weapons, specialists=specialists)
    step.emit("PlunderTaken", seat=win, beaten=lose, glory_count=len(l["hand"]), weapons=weapons,
              specialists=specialists)
    step.emit("CombatWaiting", seat=win, stage="plunder")
    _claim_when_nothing_fits(step, win)


def do_plunder_cargo(step, seat, d):
    c = step.state["combat"]
    if is_npc(c["loser"]):              # a naval ship's cards lie face up
        step.emit("CargoPlundered", seat=seat, beaten=c["loser"], card=d["card"],
                  good=T(step.state)["good"][d["card"]])
    else:
        step.emit("CargoPlundered", vis=sorted([seat, c["loser"]]), seat=seat, beaten=c["loser"], card=d["card"],
                  good=T(step.state)["good"][d["card"]])
        step.emit("CargoPlunderedCount", seat=seat, beaten=c["loser"])
    _claim_when_nothing_fits(step, seat)


def _claim_when_nothing_fits(step, win):
    """The cargo plunder closes by itself when no card is left to take or none fits."""
    if len(legal(step.state, win)) == 1:          # only plunder_done
        step.emit("CombatWaiting", seat=win, stage="claim")


def do_plunder_done(step, seat, d):
    step.emit("CombatWaiting", seat=seat, stage="claim")


def do_claim_ship(step, seat, d):
    state = step.state
    c = state["combat"]
    lose = c["loser"]
    if d["claim"]:
        l = side(state, lose)
        step.emit("ShipClaimed", seat=seat, ship=l["ship"]["type"], upgrades_left=list(l["ship"].get("upgrades", [])),
                  old=side(state, seat)["ship"]["type"], old_upgrades=list(side(state, seat)["ship"]["upgrades"]))
    end(step, seat, [lose])


def end(step, win, dead):
    state = step.state
    cur = state["order"][state["cur"]]
    step.emit("CombatEnded", winner=win, dead=list(dead))
    for who in dead:
        if is_npc(who):
            npc_rules.captain_lost(step, who[4:])
        else:
            captain_dies(step, who, "beaten in combat")
    if cur in dead:
        end_player_turn(step, cur)
        return
    if state.get("npc_queue"):          # other NPCs of the zone that spotted the player
        if npc_rules.scout_on(step):
            return                      # another fight began: its end carries the turn on
    resume(step, cur)


def _for_side(fn):
    """A decision is made by a seat for the side it acts for (itself, or an NPC it controls)."""
    return lambda step, seat, d: fn(step, step.state["combat"]["waiting"], d)


HANDLERS = {
    "combat_action": do_combat_action, "reroll": do_reroll, "keep_dice": do_keep_dice,
    "special_shot": do_special_shot, "no_shot": do_no_shot, "place_hit": do_place_hit,
    "reallocate": do_reallocate, "no_reallocate": do_no_reallocate, "plunder_cargo": do_plunder_cargo,
    "plunder_done": do_plunder_done, "claim_ship": do_claim_ship, "bow_cannon": do_bow_cannon,
    "absorb": do_absorb, "no_absorb": do_no_absorb,
}
HANDLERS = {k: _for_side(v) for k, v in HANDLERS.items()}


def after_window(step, phase):
    """A combat window closed: the round goes on."""
    (settle_round if phase == "naval_roll" else crew_settle)(step)

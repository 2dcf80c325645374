"""Merchants & Marauders: how the events of a fight change the table (combat.py,
glory.py): the fight in ``state["combat"]``, its rounds, hits, boarding, plunder
and claim, and the glory-card windows (``state["combat"]["window"]`` in a fight,
``state["turn_window"]`` at the start of a turn)."""

from __future__ import annotations

from .catalog import tables as T
from .effects import COMBAT_TIMINGS
from .state import pay, new_ship, player, side, side_key


def _combat_begun(state, d, ev):
    npc = None
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
                       "window": None, "crew_round": 0}


def _combat_declared(state, d, ev):
    c = state["combat"]
    c["declared"][side_key(c, d["seat"])] = d["do"]


def _combat_waiting(state, d, ev):
    c = state["combat"]
    c["waiting"], c["stage"] = d["seat"], d["stage"]
    if "target" in d:
        c["target"] = d["target"]


def _combat_rolled(state, d, ev):
    c = state["combat"]
    c["dice"][side_key(c, d["seat"])] = list(d["dice"])
    if d["skill"] == "leadership":
        c["crew_round"] = d["round"]


# glory cards in combat and at the start of a turn (glory.py) -----------------------
def _gw(state):
    c = state.get("combat")
    return c["window"] if c is not None and c.get("window") is not None else state.get("turn_window")


def _window_opened(state, d, ev):
    w = _gw(state)
    new = {"phase": d["phase"], "seats": list(d["seats"]), "passed": [], "announced": [], "reasked": [],
           "resolved": [], "reroll": [], "declined": list(w["declined"]) if w else []}
    if d["phase"] in COMBAT_TIMINGS:
        state["combat"]["window"] = new
    else:
        new["stage"], new["waiting"] = None, None
        state["turn_window"] = new


def _glory_waiting(state, d, ev):
    w = state["turn_window"]
    w["waiting"], w["stage"] = d["seat"], d["stage"]


def _glory_announced(state, d, ev):
    w = _gw(state)
    w["announced"].append(d["seat"])
    for s in list(w["passed"]):          # a side that passed may answer the announcement
        if s not in w["reasked"]:
            w["passed"].remove(s)
            w["reasked"].append(s)


def _glory_passed(state, d, ev):
    _gw(state)["passed"].append(d["seat"])


def _glory_declined(state, d, ev):
    w = _gw(state)
    w["resolved"].append(d["seat"])
    w["declined"].append(d["seat"])


def _glory_reroll_begun(state, d, ev):
    _gw(state)["reroll"] = list(d["sides"])


def _glory_rerolled(state, d, ev):
    c = state["combat"]
    c["dice"][side_key(c, d["side"])] = list(d["dice"])
    c["window"]["reroll"].pop(0)


def _glory_resolved(state, d, ev):
    _gw(state)["resolved"].append(d["seat"])


def _window_closed(state, d, ev):
    if d["phase"] in COMBAT_TIMINGS:
        state["combat"]["window"] = None
    else:
        state["turn_window"] = None


def _combat_rerolled(state, d, ev):
    c = state["combat"]
    c["dice"][side_key(c, d["seat"])] = list(d["dice"])
    c["rerolled"].append(d["seat"])


def _round_won(state, d, ev):
    state["combat"]["round_winner"] = d["seat"]


def _hits_due(state, d, ev):
    c = state["combat"]
    c["due"], c["located"], c["hits"], c["skulls"], c["asked"] = dict(d["hits"]), [], {}, {}, []
    c["absorb_asked"], c["before_round"] = [], bool(d.get("before_round"))


def _hits_located(state, d, ev):
    c = state["combat"]
    key = str(d["target"])
    c["located"].append(key)
    c["hits"].setdefault(key, []).extend({"location": loc} for loc in d["locations"])
    c["skulls"][key] = d["skulls"]


def _skulls_directed(state, d, ev):
    c = state["combat"]
    key = str(d["target"])
    c["hits"].setdefault(key, []).extend({"location": d["location"], "special": True} for _ in range(d["hits"]))
    c["skulls"][key] = 0


def _skull_placed(state, d, ev):
    c = state["combat"]
    key = str(d["seat"])
    c["hits"].setdefault(key, []).append({"location": d["location"]})
    c["skulls"][key] -= 1


def _hit_reallocated(state, d, ev):
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


def _round_begun(state, d, ev):
    c = state["combat"]
    c["round"] = d["round"]
    c["declared"], c["dice"], c["rerolled"], c["round_winner"] = {}, {}, [], None
    c["bow"], c["bow_asked"] = {}, []


def _bow_fired(state, d, ev):
    c = state["combat"]
    c["bow_asked"].append(d["seat"])
    player(state, d["seat"])["ship"]["flipped"].append(d["tile"])
    key = str(d["target"])
    c["bow"][key] = c["bow"].get(key, 0) + 1


def _bow_held(state, d, ev):
    state["combat"]["bow_asked"].append(d["seat"])


def _hit_absorbed(state, d, ev):
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


def _boarded(state, d, ev):
    state["combat"]["kind"] = "crew"


def _combat_won(state, d, ev):
    c = state["combat"]
    c["winner"], c["loser"] = d["seat"], d["beaten"]


def _plundered(state, d, ev):
    w, l = player(state, d["seat"]), side(state, d["beaten"])
    w["gold"] += l["gold"]
    l["gold"] = 0
    w["hand"].extend(l["hand"])
    l["hand"] = []
    if d["rumor"] is not None:
        w["rumor"], l["rumor"] = l["rumor"], None
        if l.pop("rumor_shown", None):      # a kept rumor, face up (tasks.py), stays used
            w["rumor_shown"] = True
    for k in d["weapons"]:
        del l["weapons"][k]
        w["weapons"][k] = 1
    for g in d["specialists"]:
        l["specialists"].remove(g)
        w["specialists"].append(g)


def _cargo_plundered(state, d, ev):
    side(state, d["beaten"])["cargo"].remove(d["card"])
    player(state, d["seat"])["cargo"].append(d["card"])


def _ship_claimed(state, d, ev):
    c = state["combat"]
    w, l = player(state, d["seat"]), side(state, c["loser"])
    w["returning"].extend(w["ship"]["upgrades"])     # the old ship's tiles go back to ports
    if "returning" in l:                             # (an NPC's ship has none)
        l["returning"].extend(l["ship"]["upgrades"])  # the claimed ship comes without its tiles
    w["ship"] = dict(l["ship"], upgrades=[], flipped=[])
    l["ship"] = dict(l["ship"], upgrades=[])
    w["glory_ship"] = False


def _hull_rearmed(state, d, ev):
    p = player(state, d["seat"])
    p["ship"]["flipped"].remove(d["tile"])
    pay(state, p, d["cost"])


def _combat_ended(state, d, ev):
    S = T(state)
    for seat in (state["combat"]["a"], state["combat"]["d"]):    # a Bow Cannon turns face up again
        if isinstance(seat, str):
            continue                                              # an NPC is repaired after a fight
        ship = player(state, seat)["ship"]
        if ship is not None:
            ship["flipped"] = [t for t in ship["flipped"] if S["upgrade"][t] != "bow_cannon"]
    npc = state["combat"].get("npc")
    if npc is not None:                  # the NPC's cards found and not taken go to the discards
        state["decks"]["cargo_discard"].extend(npc["cargo"])
    state["combat"] = None


HANDLERS = {
    "CombatBegun": _combat_begun,
    "CombatActionDeclared": _combat_declared,
    "CombatWaiting": _combat_waiting,
    "CombatRolled": _combat_rolled,
    "GloryWindowOpened": _window_opened,
    "GloryAnnounced": _glory_announced,
    "GloryPassed": _glory_passed,
    "GloryDeclined": _glory_declined,
    "GloryRerollBegun": _glory_reroll_begun,
    "GloryDiceRerolled": _glory_rerolled,
    "GloryResolved": _glory_resolved,
    "GloryWindowClosed": _window_closed,
    "GloryWaiting": _glory_waiting,
    "CombatRerolled": _combat_rerolled,
    "CombatRoundWon": _round_won,
    "CombatHitsDue": _hits_due,
    "HitsLocated": _hits_located,
    "SkullsDirected": _skulls_directed,
    "SkullPlaced": _skull_placed,
    "HitReallocated": _hit_reallocated,
    "CombatRoundBegun": _round_begun,
    "Boarded": _boarded,
    "CombatWon": _combat_won,
    "Plundered": _plundered,
    "CargoPlundered": _cargo_plundered,
    "ShipClaimed": _ship_claimed,
    "CombatEnded": _combat_ended,
    "BowCannonFired": _bow_fired,
    "BowCannonHeld": _bow_held,
    "HitAbsorbed": _hit_absorbed,
    "HullRearmed": _hull_rearmed,
}

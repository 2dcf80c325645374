"""Resolving an attack's current target: the dice (3.2.7), each reaction card's
effect (3.3), the survivor's passage (3.2.6), the after-sinking reactions
(Recalled, Mistaken Identity), the optional challenges of 6.6.1 and 6.9.1.
Called by ``combat.advance``; every change goes through events, and the events
decided only here are applied here (``HANDLERS``)."""

from __future__ import annotations

from . import optional
from .board import is_prize, is_raider, ix, owner
from .dice import challenge, compare, respond_seat
from .hits import apply_result, damage, sink
from .state import player, real_card

TYPE_CHECKING = False  # mypy takes the name as true; typing is not imported at run time
if TYPE_CHECKING:
    from typing import Any

    from service.kernel.events import Ev
    from service.kernel.machine import Step

    from .shapes import Engagement, Mods, State


def _attack_mods(state: State, eng: Engagement, german_ship: str | None = None) -> Mods:
    """Attack modifiers of an intercept (3.2.7, 3.3): limited supply and damage of
    the intercepting German ship, night, Searchlight, Surprise Attack, Monitor."""
    why: list[str]
    mods, why = 0, []
    if german_ship:
        s = state["status"][german_ship]
        if s["supply"]:
            mods -= 2
            why.append("limited supply -2")
        m, w = optional.damage_mods(state, german_ship)
        mods, why = mods + m, why + w
    if eng["night"]:
        mods -= 1
        why.append("night action -1")
        if eng["searchlight"]:
            mods += 3
            why.append("Searchlight +3")
    if eng["surprise"]:
        mods += 2
        why.append("Surprise Attack +2")
        m, w = optional.surprise_extra(state, german_ship)
        mods, why = mods + m, why + w
    if eng["kind"] == "monitor":
        mods += 2
        why.append("Monitor +2")
    return mods, why


def resolve(step: Step) -> bool:
    """Resolve the current target; return True when a merchant was sunk."""
    state = step.state
    eng = state["eng"]
    kind = eng["kind"]
    if kind == "intercept":
        sunk = _resolve_intercept(step)
        if state["eng"] is not None:
            chase_supply(step)
        return sunk
    if kind in ("british", "monitor", "interrogate"):
        _resolve_british(step)
        return False
    if kind == "mines":
        return _resolve_mines(step)
    if kind == "torpedo":
        return _resolve_torpedo(step)
    return False


def _reaction_type(state: State) -> str | None:
    r = state["eng"]["reaction"]
    return r["type"] if r else None


def offer_passage(step: Step, merchant: str, bonus: int = 0, bonus_why: str | None = None) -> None:
    """3.2.6: the survivor *may* sail for a friendly port: its owner is asked
    (``combat.advance`` opens the window once the dice are settled)."""
    step.emit("PassageOffered", {"ship": merchant, "seat": owner(step.state, merchant), "bonus": bonus, "why": bonus_why})


def passage(step: Step, ship: str, bonus: int = 0, why: str | None = None) -> bool:
    """3.2.6: an undamaged merchant or prize that survives an intercept sails for a friendly port."""
    state = step.state
    i = ix(state)
    seat = owner(state, ship)
    m = i.merchants[ship]
    resp = state["current"] if state["current"] != seat else respond_seat(state, seat)  # type: ignore[arg-type]
    ok = challenge(step, f"passage of {ship}", m["challenge"], (bonus, [why] if why else []), m["response"],
                   seat, resp)
    if ok:
        step.emit("PassageMade", {"ship": ship, "seat": seat, "double": is_prize(state, ship)})
    return ok


def _resolve_intercept(step: Step) -> bool:
    """3.2.4: a German ship intercepts a merchant or a prize: the defender's reaction
    first, then the dice; True when a merchant was sunk."""
    r = _reaction_type(step.state)
    if r is not None:
        ended = _reaction_first(step, r)
        if ended is not None:
            return ended
    return _intercept_dice(step, r)


def _reaction_first(step: Step, r: str | None) -> bool | None:
    """The reactions that act before the intercept's dice (3.3): whether a merchant
    was sunk when the intercept ends here, None when its dice follow."""
    state = step.state
    i = ix(state)
    eng = state["eng"]
    seat, opp, ship = eng["seat"], eng["opp"], eng["ship"]
    tgt = eng["targets"][eng["i"]]
    if r == "break-contact":
        mods = _break_contact_mods(state, tgt, ship)
        ok = challenge(step, "Break Contact", i.types["break-contact"]["action"]["challenge"], mods,
                       i.types["break-contact"]["action"]["response"], opp, seat)
        if ok:
            step.emit("InterceptCancelled", {"target": tgt, "why": "Break Contact"})
            return False
    if r == "shallow-run" and not eng.get("pursue"):
        _shallow_run(step, tgt, seat, opp)
        return False
    if r == "shallow-run" and not _pursuit(step, tgt, ship, seat, opp):
        return False
    if r == "slim-pickings":
        # 3.3.40: a Good Hunting / Shipping Lanes intercept is reduced to an intercept
        # against one merchant: answered at the first merchant, only that one remains;
        # answered later (one merchant already intercepted), this and the rest are cancelled.
        more = len(eng["targets"]) > eng["i"] + 1
        if eng["multi"] and more:
            step.emit("TargetsReduced", {"keep": tgt, "why": "Slim Pickings"})
        if not (eng["multi"] and eng["i"] == 0 and more):
            step.emit("InterceptCancelled", {"target": tgt, "why": "Slim Pickings"})
            return False
    if r == "amc":
        _amc(step, tgt)
        return False
    if r == "trap":
        return _trap(step, tgt)
    if r == "qqq":
        step.emit("RevealPending", {"ship": ship, "why": "QQQ"})
    return None


def _intercept_dice(step: Step, r: str | None) -> bool:
    """The intercept's dice (3.2.7) with the reaction's modifiers (Fast Ship,
    Non-Combatant), a capture (Boarding Party, Non-Combatant), passage offered to an
    undamaged survivor (3.2.6); True when a merchant was sunk."""
    state = step.state
    i = ix(state)
    eng = state["eng"]
    seat, opp, ship = eng["seat"], eng["opp"], eng["ship"]
    tgt = eng["targets"][eng["i"]]
    mods, why = _attack_mods(state, eng, ship)
    if r == "fast-ship" and eng.get("pursue"):
        why = why + ["Fast Ship chased: no modifier (6.6.1)"]
    elif r == "fast-ship":
        m, w = optional.fast_ship_extra(state, ship)
        mods, why = mods - 2 + m, why + ["Fast Ship -2"] + w
    capture = tgt in eng["boarding"] or r == "non-combatant"
    if r == "non-combatant":
        mods -= 2
        why = why + ["Non-Combatant -2"]
    said = capture and state.get("issue33")       # (rules version 2's events read "intercepts", "sunk")
    verb = "tries to capture" if said else "intercepts"
    res = compare(step, f"{ship} {verb} {tgt}", i.ships[ship]["attack"], (mods, why), i.vessel(tgt)["defense"],
                  optional.damage_mods(state, tgt), f"seat {seat} attack ({ship})", f"seat {opp} defence ({tgt})",
                  capture=bool(said))
    if capture:
        if res == "sunk":
            step.emit("ShipCaptured", {"ship": tgt, "by": seat, "from_seat": opp, "interceptor": ship})
            _capture_supply(step, ship)
            return False
        if res == "damaged":
            step.emit("DamageIgnored", {"ship": tgt, "why": "a boarding attempt ignores damage"})
        res = "none"
    if res == "sunk":
        sink(step, tgt, seat, eng["special"], "intercepted")
        return True
    if res == "damaged":
        damage(step, tgt, "intercepted")
        return False
    if tgt in player(state, opp)["merchants"] + player(state, opp)["prizes"] and not state["status"][tgt]["damaged"]:
        if r == "non-combatant":
            offer_passage(step, tgt, 2, "Non-Combatant +2")
        else:
            offer_passage(step, tgt)
    return False


def _capture_supply(step: Step, ship: str) -> None:
    """Boarding Party / Non-Combatant: the prize resupplies the interceptor; with 6.12
    this is the player's choice, through the prize resupply decision (6.12.3)."""
    state = step.state
    if ship in state["status"] and state["status"][ship]["supply"] and not optional.on(state, "prize_resupply"):
        step.emit("ShipResupplied", {"ship": ship, "why": "the prize's stores"})


def _break_contact_mods(state: State, ship: str, interceptor: str | None = None) -> Mods:
    s = state["status"][ship]
    mods, why = optional.damage_mods(state, ship)
    if s["supply"]:
        mods -= 2
        why = why + ["limited supply -2"]
    m, w = optional.break_contact_mods(state, ship, interceptor)
    return mods + m, why + w


def _crossing(step: Step, ship: str, crosser: int, other: int, shoals: dict[str, Any], what: str = "Shallow Run",
              pursuing: bool = False) -> tuple[bool, bool]:
    """One ship's shoal crossing: (True when it failed, and whether it was damaged before)."""
    state = step.state
    damaged = state["status"][ship]["damaged"]
    ok = challenge(step, what, shoals["challenge"],
                   optional.shoal_mods(state, ship, pursuing), shoals["response"], crosser, other)
    return (not ok), damaged


def _shallow_run(step: Step, tgt: str, attacker: int, defender: int) -> None:
    state = step.state
    i = ix(state)
    step.emit("InterceptCancelled", {"target": tgt, "why": "Shallow Run: the ship escapes over the shoals"})
    failed, damaged = _crossing(step, tgt, defender, attacker, i.types["shallow-run"]["action"])
    if failed:
        if damaged:
            sink(step, tgt, attacker, False, "wrecked on the shoals")
        else:
            step.emit("ShipDamaged", {"ship": tgt, "why": "crossing the shoals"})


def _pursuit(step: Step, tgt: str, ship: str, attacker: int, defender: int) -> bool:
    """6.10: the interceptor follows over the shoals: both crossings are rolled at
    once, then their damage applies; a ship already damaged that fails is wrecked
    (6.10.3) and scores for the other side. True when the intercept goes on."""
    state = step.state
    shoals = ix(state).types["shallow-run"]["action"]
    step.emit("PursuitOverShoals", {"ship": ship, "target": tgt})
    t_failed, t_damaged = _crossing(step, tgt, defender, attacker, shoals, f"Shallow Run: {tgt} crosses the shoals")
    s_failed, s_damaged = _crossing(step, ship, attacker, defender, shoals,
                                    f"Shallow Run: {ship} follows over the shoals (6.10)", pursuing=True)
    for who, failed, damaged, by in ((tgt, t_failed, t_damaged, attacker), (ship, s_failed, s_damaged, defender)):
        if failed and damaged:
            sink(step, who, by, False, "wrecked on the shoals (6.10.3)")
        elif failed:
            step.emit("ShipDamaged", {"ship": who, "why": "crossing the shoals (6.10.2)"})
    if t_failed and t_damaged or s_failed and s_damaged:
        step.emit("InterceptCancelled", {"target": tgt, "why": "a ship wrecked on the shoals before the intercept (6.10.3)"})
        return False
    return True


def chase_supply(step: Step) -> None:
    """6.6.1: a fast raider that chased a Fast Ship checks its supply at the end."""
    state = step.state
    eng = state["eng"]
    ship = eng["ship"]
    if not eng.get("pursue") or not eng["reaction"] or eng["reaction"]["type"] != "fast-ship" \
            or ship not in state["status"]:
        return
    r = ix(state).optional_rules["chase_supply"]
    if challenge(step, f"{ship} after the chase: supply (6.6.1)", r["challenge"], (0, []), r["response"],
                 eng["opp"], eng["seat"]):
        step.emit("SupplyLimited", {"ship": ship, "why": "the chase of a Fast Ship (6.6.1)"})


def _amc(step: Step, tgt: str) -> None:
    state = step.state
    i = ix(state)
    eng = state["eng"]
    seat, opp, ship = eng["seat"], eng["opp"], eng["ship"]
    amc = eng["reaction"]["card"]
    a = i.ctype(amc)["action"]
    night_m = (-1, ["night action -1"]) if eng["night"] else (0, [])
    step.emit("MerchantIgnored", {"ship": tgt, "why": "AMC"})
    r1 = compare(step, f"{i.card_name[amc]} intercepts {ship}", a["attack"], night_m, i.vessel(ship)["defense"],
                  optional.damage_mods(state, ship), f"seat {opp} attack ({i.card_name[amc]})", f"seat {seat} defence ({ship})")
    mods, why = _attack_mods(state, eng, ship)
    r2 = compare(step, f"{ship} fights {i.card_name[amc]}", i.ships[ship]["attack"], (mods, why), a["defense"],
                  (0, []), f"seat {seat} attack ({ship})", f"seat {opp} defence ({i.card_name[amc]})")
    if is_raider(state, ship) and not state["status"][ship]["revealed"]:
        step.emit("ShipRevealed", {"ship": ship, "why": "AMC"})
        step.emit("RevealPending", {"ship": ship, "why": "AMC"})
    apply_result(step, ship, r1, opp, False, "AMC")
    if r2 == "sunk":
        step.emit("ActionCardScored", {"card": amc, "seat": seat, "why": "AMC sunk"})


def _trap(step: Step, tgt: str) -> bool:
    state = step.state
    i = ix(state)
    eng = state["eng"]
    seat, opp, ship = eng["seat"], eng["opp"], eng["ship"]
    trap = eng["reaction"]["card"]
    night_m = (-1, ["night action -1"]) if eng["night"] else (0, [])
    r1 = compare(step, f"{tgt} (Trap) fires on {ship}", i.ctype(trap)["action"]["attack"], night_m,
                  i.vessel(ship)["defense"], optional.damage_mods(state, ship), f"seat {opp} attack ({tgt})",
                  f"seat {seat} defence ({ship})")
    mods, why = _attack_mods(state, eng, ship)
    board = tgt in eng["boarding"]
    said = board and state.get("issue33")         # (rules version 2's events read "intercepts", "sunk")
    r2 = compare(step, f"{ship} {'tries to capture' if said else 'intercepts'} {tgt}", i.ships[ship]["attack"],
                 (mods, why), i.vessel(tgt)["defense"], optional.damage_mods(state, tgt), f"seat {seat} attack ({ship})",
                 f"seat {opp} defence ({tgt})", capture=bool(said))
    if is_raider(state, ship) and not state["status"][ship]["revealed"]:
        step.emit("ShipRevealed", {"ship": ship, "why": "Trap"})
        step.emit("RevealPending", {"ship": ship, "why": "Trap"})
    apply_result(step, ship, r1, opp, False, "Trap")
    if board:
        # the other committed cards act normally: a Boarding Party captures instead of sinking
        if r2 == "sunk":
            step.emit("ShipCaptured", {"ship": tgt, "by": seat, "from_seat": opp, "interceptor": ship})
            _capture_supply(step, ship)
            return False
        if r2 == "damaged":
            step.emit("DamageIgnored", {"ship": tgt, "why": "a boarding attempt ignores damage"})
        r2 = "none"
    apply_result(step, tgt, r2, seat, eng["special"], "intercepted")
    if r2 == "none" and tgt in player(state, opp)["merchants"] and not state["status"][tgt]["damaged"]:
        offer_passage(step, tgt)
    return r2 == "sunk"


def _resolve_british(step: Step) -> None:
    state = step.state
    i = ix(state)
    eng = state["eng"]
    seat, opp = eng["seat"], eng["opp"]
    tgt = eng["targets"][0]
    r = _reaction_type(state)
    if r == "pull-the-plug":
        step.emit("InterceptCancelled", {"target": tgt, "why": "Pull the Plug"})
        deck = "ship" if tgt in i.ships else "merchant"
        step.emit("ShipRemoved", {"ship": tgt, "deck": deck, "why": "scuttled (Pull the Plug): no victory points"})
        return
    if r == "reflag":
        step.emit("ShipDisguised", {"ship": tgt, "why": "Reflag"})
        step.emit("InterceptCancelled", {"target": tgt, "why": "Reflag: the ship is no longer recognised"})
        return
    if r == "break-contact":
        a = i.types["break-contact"]["action"]
        if challenge(step, "Break Contact", a["challenge"], _break_contact_mods(state, tgt), a["response"], opp, seat):
            step.emit("InterceptCancelled", {"target": tgt, "why": "Break Contact"})
            return
    if r == "shallow-run":
        _shallow_run(step, tgt, seat, opp)
        return
    card = eng["card"]
    if eng["kind"] == "british":
        dice = i.ctype(card)["intercept"]["attack"]
    else:
        dice = i.ctype(card)["action"]["attack"]
    res = compare(step, f"British forces ({i.card_name[card]}) intercept {tgt}", dice, _attack_mods(state, eng),
                   i.vessel(tgt)["defense"], optional.damage_mods(state, tgt), f"seat {seat} attack ({i.card_name[card]})",
                   f"seat {opp} defence ({tgt})")
    apply_result(step, tgt, res, seat, False, "intercepted by British forces")
    if res == "none" and tgt in player(state, opp)["prizes"] and not state["status"][tgt]["damaged"]:
        offer_passage(step, tgt)  # 3.2.6: an undamaged prize that survives an intercept


def interrogate_challenge(step: Step) -> None:
    state = step.state
    i = ix(state)
    eng = state["eng"]
    a = i.ctype(eng["card"])["action"]
    tgt = eng["targets"][0]
    if challenge(step, "Interrogate", a["challenge"], (0, []), a["response"], eng["seat"], eng["opp"]):
        step.emit("ShipRevealed", {"ship": tgt, "why": "Interrogate"})
        step.emit("InterrogationSucceeded", {"target": tgt})
        step.emit("EngagementAdvanced", {"stage": "react", "i": 0})
    else:
        step.emit("InterrogationFailed", {"target": tgt})
        step.emit("EngagementEnded", {"kind": "interrogate", "seat": eng["seat"]})


def torpedo_prize_challenge(step: Step) -> None:
    """6.9.1: a torpedo attack on a hidden prize is German against German: it needs
    a challenge first; failed, the submarine card is spent and nothing else is attacked."""
    state = step.state
    eng = state["eng"]
    tgt = eng["targets"][0]
    r = ix(state).optional_rules["torpedo_prize"]
    if challenge(step, f"a submarine finds the prize {tgt} (6.9.1)", r["challenge"], (0, []), r["response"],
                 eng["seat"], eng["opp"]):
        step.emit("EngagementAdvanced", {"stage": "assist", "i": 0})
    else:
        step.emit("AttackCancelled", {"target": tgt, "why": "the submarine did not find the prize (6.9.1)"})
        step.emit("EngagementEnded", {"kind": "torpedo", "seat": eng["seat"]})


def _resolve_mines(step: Step) -> bool:
    state = step.state
    i = ix(state)
    eng = state["eng"]
    tgt = eng["targets"][eng["i"]]
    a = i.ctype(eng["card"])["action"]
    dice = a["attack"] if i.tid(eng["card"]) == "lay-mines" else a["mines"]
    step.emit("PassageBarred", {"ship": tgt, "why": "attacked by mines"})
    res = compare(step, f"mines attack {tgt}", dice, (0, []), i.vessel(tgt)["defense"], optional.damage_mods(state, tgt),
                   f"seat {eng['seat']} mines", f"seat {eng['opp']} defence ({tgt})")
    apply_result(step, tgt, res, eng["seat"], eng["special"], "mines")
    return res == "sunk"


def _resolve_torpedo(step: Step) -> bool:
    state = step.state
    i = ix(state)
    eng = state["eng"]
    seat, opp = eng["seat"], eng["opp"]
    tgt = eng["targets"][0]
    sub = eng["card"]
    sa = i.ctype(sub)["action"]
    r = _reaction_type(state)
    if r == "razzle-dazzle":
        a = i.types["razzle-dazzle"]["action"]
        if challenge(step, "Razzle-Dazzle", a["challenge"], (0, []), a["response"], opp, seat):
            step.emit("AttackCancelled", {"target": tgt, "why": "Razzle-Dazzle"})
            return False
    if r in ("q-ship", "sail-q-ship"):
        _q_ship(step, tgt)
        return False
    # the phantom's submarine may attack with its guns (the solitaire glossary's "Gun attack")
    how = ("guns", "fires its guns on", "shelled", "guns") if eng.get("guns") else \
        ("torpedo", "torpedoes", "torpedoed", "torpedoes")
    step.emit("PassageBarred", {"ship": tgt, "why": how[2]})
    res = compare(step, f"{i.card_name[sub]} {how[1]} {tgt}", sa[how[0]], (0, []), i.vessel(tgt)["defense"],
                  optional.damage_mods(state, tgt), f"seat {seat} {how[3]} ({i.card_name[sub]})", f"seat {opp} defence ({tgt})")
    apply_result(step, tgt, res, seat, eng["special"], how[2])
    return res == "sunk"


def _q_ship(step: Step, tgt: str) -> None:
    state = step.state
    i = ix(state)
    eng = state["eng"]
    seat, opp = eng["seat"], eng["opp"]
    sub, q = eng["card"], eng["reaction"]["card"]
    sa, qa = i.ctype(sub)["action"], i.ctype(q)["action"]
    qn, sn = i.card_name[q], i.card_name[sub]
    # 3.3.28 / 3.3.34: the merchant is ignored by this torpedo attack only: unlike
    # AMC (3.3.1) nothing bars an intercept of it this turn (3.1.3)
    step.emit("TorpedoTargetIgnored", {"ship": tgt, "why": qn})
    if challenge(step, f"{qn} lures {sn} into a gun duel", qa["lure_challenge"], (0, []), qa["lure_response"], opp, seat):
        r1 = compare(step, f"{qn} guns on {sn}", qa["guns"], (0, []), sa["defense"], (0, []),
                      f"seat {opp} guns ({qn})", f"seat {seat} defence ({sn})")
        r2 = compare(step, f"{sn} guns on {qn}", sa["guns"], (0, []), qa["defense"], (0, []),
                      f"seat {seat} guns ({sn})", f"seat {opp} defence ({qn})")
        sub_sunk, q_sunk = r1 == "sunk", r2 == "sunk"
    else:
        r2 = compare(step, f"{sn} torpedoes {qn}", sa["torpedo"], (0, []), qa["defense"], (0, []),
                      f"seat {seat} torpedoes ({sn})", f"seat {opp} defence ({qn})")
        q_sunk, sub_sunk = r2 == "sunk", False
        if not q_sunk and "dc" in qa:
            mods = (-2, ["damaged -2"]) if r2 == "damaged" else (0, [])
            r1 = compare(step, f"{qn} depth charges on {sn}", qa["dc"], mods, sa["defense"], (0, []),
                          f"seat {opp} depth charges ({qn})", f"seat {seat} defence ({sn})")
            sub_sunk = r1 == "sunk"
    if sub_sunk:
        step.emit("ActionCardScored", {"card": sub, "seat": opp, "why": f"{sn} sunk"})
    if q_sunk:
        step.emit("ActionCardScored", {"card": q, "seat": seat, "why": f"{qn} sunk"})


def after_reaction(step: Step, t: str, d: dict[str, Any]) -> None:
    state = step.state
    i = ix(state)
    eng = state["eng"]
    seat, opp = eng["seat"], eng["opp"]
    tgt = eng["targets"][eng["i"]]
    a = i.types[t]["action"]
    if t == "recalled":
        ship = eng["ship"]
        if challenge(step, "Recalled", a["challenge"], (0, []), a["response"], opp, seat):
            step.emit("ShipRemoved", {"ship": ship, "deck": "ship", "why": "recalled to a friendly port: no victory points"})
    elif t == "mistaken-identity":
        if challenge(step, "Mistaken Identity", a["challenge"], (0, []), a["response"], opp, seat):
            step.emit("VictoryCardsSwapped", {"attacker": seat, "defender": opp, "sunk": tgt, "given": d["give"]})


# how each event decided here changes the state (``evolve``) -----------------------------------
def _interrogation_succeeded(state: State, d: dict[str, Any], ev: Ev) -> None:
    if d["target"] not in state["tt"]["intercepted"]:
        state["tt"]["intercepted"].append(d["target"])


def _targets_reduced(state: State, d: dict[str, Any], ev: Ev) -> None:
    eng = state["eng"]
    eng["targets"] = eng["targets"][: eng["i"] + 1]


def _reveal_pending(state: State, d: dict[str, Any], ev: Ev) -> None:
    if d["ship"] not in state["eng"]["reveal"]:
        state["eng"]["reveal"].append(d["ship"])


def _passage_offered(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["eng"]["passage"] = {"ship": d["ship"], "seat": d["seat"], "bonus": d["bonus"], "why": d["why"]}


def _victory_cards_swapped(state: State, d: dict[str, Any], ev: Ev) -> None:
    # Mistaken Identity: the two cards change places: the just-sunk merchant takes
    # the place of the defender's chosen one, and that one the place of the sinking
    # in the attacker's pile (a Special Cargo double stays with the sinking).
    a, b = player(state, d["attacker"]), player(state, d["defender"])
    ea = next(e for e in reversed(a["vp"]) if e["card"] == d["sunk"])
    eb = next(e for e in b["vp"] if e["card"] == d["given"])
    ea["card"], eb["card"] = d["given"], d["sunk"]


def _action_card_scored(state: State, d: dict[str, Any], ev: Ev) -> None:
    # an action card (AMC, Q-ship, submarine) sunk: into the winner's VP pile
    card = d["card"]
    tt = state["tt"]
    for lst in (tt["played"], tt["reactions"]):
        if card in lst:
            lst.remove(card)
    player(state, d["seat"])["vp"].append({"card": card, "deck": "action" if real_card(card) else "solitaire",
                                           "double": False})


def _merchant_ignored(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["tt"]["ignored"].append(d["ship"])


def _passage_barred(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["tt"]["no_passage"].append(d["ship"])


HANDLERS = {
    "TargetsReduced": _targets_reduced,
    "PassageOffered": _passage_offered,
    "InterrogationSucceeded": _interrogation_succeeded,
    "RevealPending": _reveal_pending,
    "MerchantIgnored": _merchant_ignored,
    "PassageBarred": _passage_barred,
    "VictoryCardsSwapped": _victory_cards_swapped,
    "ActionCardScored": _action_card_scored,
}

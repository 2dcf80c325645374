"""Attacks: intercepts (German ships on merchants, British forces on warships,
recognised raiders and prizes, Monitor, Interrogate), mine laying and
torpedoes, with their assist cards, the defender's reaction windows and the
dice.

An attack in progress is ``state["eng"]``; it walks through stages for each
target: ``assist`` (the attacker may reveal committed assist cards), ``react``
(the defender may answer with one reaction card, or decline), ``resolve``
(the dice), ``after`` (Recalled / Mistaken Identity once a merchant is sunk).
Mines add ``order`` (the attacker picks the next merchant); Interrogate
starts with ``challenge``. ``advance`` moves the stages on until a seat must
decide.
"""

from __future__ import annotations

from .board import (attack_ok, attack_result, can_attack_with, committed, defence_dice, in_refuge,
                    is_prize, is_raider, is_warship, ix, modified, night, opponents, other_ok,
                    recognised, roll)
from .state import player

ATTACK_KINDS = ("intercept", "british", "monitor", "interrogate", "mines", "torpedo")
INTERCEPTS = ("intercept", "british", "monitor", "interrogate")


# announcing an attack ------------------------------------------------------
def announce_options(state, seat):
    """Every attack the active seat may announce now with its committed cards."""
    i = ix(state)
    tt = state["tt"]
    out = []
    icards = committed(state, "intercept")
    opps = [o for o in opponents(state, seat) if attack_ok(state, seat, o)]
    if icards:
        # one card of each kind of intercept side is enough to list (same type, same dice)
        seen = set()
        for card in icards:
            t = i.tid(card)
            if t in seen:
                continue
            seen.add(t)
            for o in opps:
                p = player(state, o)
                for ship in player(state, seat)["ships"]:
                    if not can_attack_with(state, seat, ship):
                        continue
                    for m in p["merchants"]:
                        if m not in tt["intercepted"] and m not in tt["ignored"]:
                            out.append({"action": "intercept", "card": card, "ship": ship, "target": m})
                for t_ in p["ships"] + p["prizes"]:
                    if t_ in tt["intercepted"] or in_refuge(state, t_) or not recognised(state, t_):
                        continue
                    out.append({"action": "intercept", "card": card, "target": t_})
    for card in committed(state, "action"):
        t = i.tid(card)
        if t == "lay-mines":
            for ship in player(state, seat)["ships"]:
                if can_attack_with(state, seat, ship) and i.ships[ship]["mines"]:
                    for o in opps:
                        if player(state, o)["merchants"]:
                            out.append({"action": "lay_mines", "card": card, "ship": ship, "opponent": o})
        elif t in ("submarines-u-27-u-41", "submarines-uc-16-uc-29"):
            for o in opps:
                for m in player(state, o)["merchants"]:
                    out.append({"action": "torpedo", "card": card, "target": m})
                if t == "submarines-uc-16-uc-29" and player(state, o)["merchants"]:
                    out.append({"action": "sub_mines", "card": card, "opponent": o})
        elif t == "interrogate":
            for o in opps:
                p = player(state, o)
                for s in p["ships"] + p["prizes"]:
                    if (is_raider(state, s) or s in p["prizes"]) and not recognised(state, s) \
                            and not in_refuge(state, s) and s not in tt["intercepted"]:
                        out.append({"action": "interrogate", "card": card, "target": s})
        elif t == "monitor":
            for o in opps:
                for s in player(state, o)["ships"]:
                    if in_refuge(state, s) and s not in tt["intercepted"]:
                        out.append({"action": "monitor", "card": card, "target": s})
    return out


def announce(step, seat, d):
    state = step.state
    i = ix(state)
    a = d["action"]
    card = d["card"]
    step.emit("CardRevealed", seat=seat, card=card, name=i.card_name[card],
              use="intercept" if a == "intercept" else "action")
    base = {"seat": seat, "card": card, "ship": d.get("ship")}
    if a == "intercept":
        target = d["target"]
        opp = state_owner(state, target)
        kind = "intercept" if d.get("ship") else "british"
        step.emit("AttackAnnounced", kind=kind, opp=opp, targets=[target], night=night(state, card), **base)
    elif a in ("lay_mines", "sub_mines"):
        opp = d["opponent"]
        step.emit("AttackAnnounced", kind="mines", opp=opp, targets=list(player(state, opp)["merchants"]),
                  night=False, **base)
    elif a == "torpedo":
        step.emit("AttackAnnounced", kind="torpedo", opp=state_owner(state, d["target"]), targets=[d["target"]],
                  night=False, **base)
    elif a == "interrogate":
        step.emit("AttackAnnounced", kind="interrogate", opp=state_owner(state, d["target"]),
                  targets=[d["target"]], night=False, **base)
        _advance_to(step, "challenge", 0)
    elif a == "monitor":
        step.emit("AttackAnnounced", kind="monitor", opp=state_owner(state, d["target"]),
                  targets=[d["target"]], night=False, **base)
    advance(step)


def state_owner(state, ship):
    from .board import owner
    return owner(state, ship)


def _advance_to(step, stage, i):
    step.emit("EngagementAdvanced", stage=stage, i=i)


# windows --------------------------------------------------------------------
def assist_options(state):
    eng = state["eng"]
    i = ix(state)
    seat, first = eng["seat"], eng["i"] == 0
    tgt = eng["targets"][eng["i"]]
    out = []
    kind = eng["kind"]
    for card in committed(state, "action"):
        t = i.tid(card)
        if i.kind(card) != "assist":
            continue
        if kind == "intercept":
            if t == "surprise-attack" and first and not eng["surprise"]:
                out.append({"action": "assist", "card": card})
            elif t == "searchlight" and first and eng["night"] and not eng["searchlight"]:
                out.append({"action": "assist", "card": card})
            elif t == "special-cargo" and first and not eng["special"]:
                out.append({"action": "assist", "card": card})
            elif t == "boarding-party" and tgt not in eng["boarding"] and not state["status"][tgt]["damaged"]:
                out.append({"action": "assist", "card": card})
            elif t in ("good-hunting", "shipping-lanes") and first and eng["multi"] is None:
                raider = is_raider(state, eng["ship"])
                if (t == "good-hunting") != raider:
                    continue
                free = [m for m in player(state, eng["opp"])["merchants"]
                        if m not in state["tt"]["intercepted"] and m not in state["tt"]["ignored"]]
                if not free:
                    continue
                if t == "good-hunting":
                    out += [{"action": "assist", "card": card, "target": m} for m in free]
                else:
                    out.append({"action": "assist", "card": card})
        elif kind in ("british", "monitor"):
            if first and not eng["surprise"] and not eng["searchlight"]:
                if t == "surprise-attack" or (t == "searchlight" and eng["night"]):
                    out.append({"action": "assist", "card": card})
        elif kind in ("mines", "torpedo"):
            if t == "special-cargo" and first and not eng["special"]:
                out.append({"action": "assist", "card": card})
    # one card per type and target is enough
    uniq, seen = [], set()
    for o in out:
        key = (i.tid(o["card"]), o.get("target"))
        if key not in seen:
            seen.add(key)
            uniq.append(o)
    return uniq


def reaction_types(state):
    """The reaction card types the book allows against the current target now."""
    eng = state["eng"]
    tgt = eng["targets"][eng["i"]]
    kind = eng["kind"]
    calm = not eng["night"] and not eng["surprise"]
    out = set()
    if kind == "intercept":
        out |= {"amc", "non-combatant", "slim-pickings", "trap"}
        if calm:
            out |= {"break-contact", "shallow-run"}
            if is_raider(state, eng["ship"]) and not state["status"][tgt]["damaged"]:
                out.add("fast-ship")
        if not state["status"][tgt]["damaged"]:
            out.add("non-combatant")
        else:
            out.discard("non-combatant")
        if is_raider(state, eng["ship"]) and not state["status"][eng["ship"]]["revealed"]:
            out.add("qqq")
    elif kind in ("british", "monitor", "interrogate"):
        out.add("pull-the-plug")
        if calm and not in_refuge(state, tgt):
            out |= {"break-contact", "shallow-run"}
        if kind != "interrogate" and (is_raider(state, tgt) or is_prize(state, tgt)) and state["status"][tgt]["revealed"]:
            out.add("reflag")
    elif kind == "mines":
        if eng["i"] == 0:
            out.add("minesweeper")
    elif kind == "torpedo":
        out |= {"q-ship", "razzle-dazzle"}
        if ix(state).merchants[tgt]["sail"]:
            out.add("sail-q-ship")
    return out


def reaction_options(state, seat):
    i = ix(state)
    types = reaction_types(state)
    out, seen = [], set()
    for card in player(state, seat)["hand"]:
        t = i.tid(card)
        if t in types and t not in seen:
            seen.add(t)
            out.append({"action": "react", "card": card})
    return out + [{"action": "decline"}]


def after_options(state, seat):
    """After a merchant is sunk: Recalled (the intercepting ship) or Mistaken Identity."""
    eng = state["eng"]
    i = ix(state)
    out, seen = [], set()
    p = player(state, seat)
    for card in p["hand"]:
        t = i.tid(card)
        if t in seen:
            continue
        if t == "recalled" and eng["kind"] == "intercept" and eng["ship"] in player(state, eng["seat"])["ships"]:
            seen.add(t)
            out.append({"action": "react", "card": card})
        elif t == "mistaken-identity":
            seen.add(t)
            for e in p["vp"]:
                if e["deck"] == "merchant":
                    out.append({"action": "react", "card": card, "give": e["card"]})
    return out + [{"action": "decline"}]


def reflag_options(state, seat):
    w = state["window"]
    i = ix(state)
    cards = [c for c in player(state, seat)["hand"] if i.tid(c) == "reflag"][:1]
    ships = [s for s in w["ships"] if state["status"].get(s, {}).get("revealed")]
    return [{"action": "react", "card": c, "ship": s} for c in cards for s in ships] + [{"action": "decline"}]


def mine_order_options(state):
    eng = state["eng"]
    return [{"action": "mine_target", "target": m} for m in _live_targets(state)]


def _live_targets(state):
    eng = state["eng"]
    mer = player(state, eng["opp"])["merchants"]
    return [t for t in eng["targets"][eng["i"]:] if t in mer]


def window_options(state, seat):
    w = state["window"]
    if w is None or w["seat"] != seat:
        return []
    k = w["kind"]
    if k == "assist":
        return assist_options(state) + [{"action": "proceed"}]
    if k == "react":
        return reaction_options(state, seat)
    if k == "after":
        return after_options(state, seat)
    if k == "reflag":
        return reflag_options(state, seat)
    if k == "order":
        return mine_order_options(state)
    return []


def window_decide(step, seat, d):
    state = step.state
    w = state["window"]
    i = ix(state)
    k = w["kind"]
    a = d["action"]
    if k == "assist":
        if a == "proceed":
            step.emit("WindowClosed", seat=seat, kind="assist")
            _advance_to(step, "react", state["eng"]["i"])
        else:
            card = d["card"]
            t = i.tid(card)
            eng = state["eng"]
            extra = {}
            if t == "boarding-party":
                extra["target"] = eng["targets"][eng["i"]]
            elif t == "good-hunting":
                extra["targets"] = [d["target"]]
            elif t == "shipping-lanes":
                extra["targets"] = [m for m in player(state, eng["opp"])["merchants"]
                                    if m not in state["tt"]["intercepted"] and m not in state["tt"]["ignored"]]
            step.emit("AssistRevealed", seat=seat, card=card, ctype=t, name=i.card_name[card], **extra)
            if not assist_options(state):
                step.emit("WindowClosed", seat=seat, kind="assist")
                _advance_to(step, "react", eng["i"])
            else:
                return  # the window stays open for more assists
    elif k == "order":
        step.emit("WindowClosed", seat=seat, kind="order")
        step.emit("MineTargetChosen", target=d["target"])
        _advance_to(step, "resolve", state["eng"]["i"])
    elif k == "reflag":
        if a == "decline":
            step.emit("ReactionDeclined", seat=seat, kind="reflag", ships=w["ships"])
        else:
            step.emit("ReactionPlayed", seat=seat, card=d["card"], ctype="reflag", name=i.card_name[d["card"]],
                      against="reveal", ship=d["ship"])
            step.emit("ShipDisguised", ship=d["ship"], why="Reflag")
        if state["eng"] is None:
            return
    elif k in ("react", "after"):
        eng = state["eng"]
        tgt = eng["targets"][eng["i"]]
        if a == "decline":
            step.emit("ReactionDeclined", seat=seat, kind=k, target=tgt)
            nxt = "next" if k == "after" else ("order" if eng["kind"] == "mines" else "resolve")
            _advance_to(step, nxt, eng["i"])
        else:
            t = i.tid(d["card"])
            step.emit("ReactionPlayed", seat=seat, card=d["card"], ctype=t, name=i.card_name[d["card"]],
                      against="attack" if k == "react" else "sinking", target=tgt)
            if k == "react" and eng["kind"] == "mines":
                step.emit("MinesSwept", opp=eng["opp"])
                step.emit("EngagementEnded", kind="mines", seat=eng["seat"])
            elif k == "react":
                _advance_to(step, "resolve", eng["i"])
            else:
                _after_reaction(step, t, d)
                if state["eng"] is not None:
                    _advance_to(step, "next", eng["i"])
    advance(step)


def _open(step, kind, seat, **extra):
    step.emit("WindowOpened", kind=kind, seat=seat, **extra)


# the engine -----------------------------------------------------------------
def advance(step):
    state = step.state
    while state["eng"] is not None and state["window"] is None:
        eng = state["eng"]
        stage = eng["stage"]
        if stage == "challenge":
            _interrogate_challenge(step)
        elif stage == "assist":
            if assist_options(state):
                _open(step, "assist", eng["seat"], target=eng["targets"][eng["i"]])
            else:
                _advance_to(step, "react", eng["i"])
        elif stage == "react":
            if eng["kind"] == "mines" and eng["i"] > 0:
                _advance_to(step, "order", eng["i"])
            elif reaction_types(state) and player(state, eng["opp"])["hand"]:
                _open(step, "react", eng["opp"], target=eng["targets"][eng["i"]], attack=eng["kind"])
            else:
                _advance_to(step, "order" if eng["kind"] == "mines" else "resolve", eng["i"])
        elif stage == "order":
            live = _live_targets(state)
            if not live:
                _finish(step)
            elif len(live) > 1:
                _open(step, "order", eng["seat"])
            else:
                step.emit("MineTargetChosen", target=live[0])
                _advance_to(step, "resolve", eng["i"])
        elif stage == "resolve":
            sunk = _resolve(step)
            if state["eng"] is None:
                break
            if sunk and player(state, eng["opp"])["hand"] and _after_possible(state):
                _advance_to(step, "after", eng["i"])
                _open(step, "after", eng["opp"], target=eng["targets"][eng["i"]])
            else:
                _advance_to(step, "next", eng["i"])
        elif stage == "after":
            _advance_to(step, "next", eng["i"])
        elif stage == "next":
            _next_target(step)


def _after_possible(state):
    """Some after-sinking reaction applies (by the situation, not by the hand)."""
    eng = state["eng"]
    if eng["kind"] == "intercept" and eng["ship"] in player(state, eng["seat"])["ships"]:
        return True
    return any(e["deck"] == "merchant" for e in player(state, eng["opp"])["vp"])


def _next_target(step):
    state = step.state
    eng = state["eng"]
    i = eng["i"] + 1
    if eng["kind"] == "intercept" and eng["ship"] not in player(state, eng["seat"])["ships"]:
        return _finish(step)
    if eng["kind"] == "mines":
        if _live_targets_from(state, i):
            return _advance_to(step, "order", i)
        return _finish(step)
    mer = player(state, eng["opp"])["merchants"]
    while i < len(eng["targets"]) and eng["targets"][i] not in mer:
        i += 1
    if i >= len(eng["targets"]):
        return _finish(step)
    _advance_to(step, "assist", i)


def _live_targets_from(state, i):
    eng = state["eng"]
    mer = player(state, eng["opp"])["merchants"]
    return [t for t in eng["targets"][i:] if t in mer]


def _finish(step):
    state = step.state
    eng = state["eng"]
    reveal = [s for s in eng.get("reveal", []) if state["status"].get(s) is not None]
    step.emit("EngagementEnded", kind=eng["kind"], seat=eng["seat"])
    shown = []
    for s in reveal:
        if not state["status"][s]["revealed"]:
            step.emit("ShipRevealed", ship=s, why="at the end of the intercept")
        shown.append(s)
    if eng["kind"] == "interrogate" and eng["targets"][0] in state["status"] \
            and state["status"][eng["targets"][0]]["revealed"]:
        shown.append(eng["targets"][0])
    # Reflag's special timing: the owner of a ship just revealed may hide it at once
    by_owner = {}
    for s in shown:
        o = state_owner(state, s)
        if o is not None:
            by_owner.setdefault(o, []).append(s)
    for o, ships in sorted(by_owner.items()):
        if player(state, o)["hand"]:
            _open(step, "reflag", o, ships=ships)
            return


# resolution -----------------------------------------------------------------
def _att_mods(state, eng, german_ship=None):
    """Attack modifiers of an intercept (3.2.7, 3.3): limited supply and damage of
    the intercepting German ship, night, Searchlight, Surprise Attack, Monitor."""
    mods, why = 0, []
    if german_ship:
        s = state["status"][german_ship]
        if s["supply"]:
            mods -= 2
            why.append("limited supply -2")
        if s["damaged"]:
            mods -= 2
            why.append("damaged -2")
    if eng["night"]:
        mods -= 1
        why.append("night action -1")
        if eng["searchlight"]:
            mods += 3
            why.append("Searchlight +3")
    if eng["surprise"]:
        mods += 2
        why.append("Surprise Attack +2")
    if eng["kind"] == "monitor":
        mods += 2
        why.append("Monitor +2")
    return mods, why


def _def_mods(state, ship):
    if state["status"][ship]["damaged"]:
        return -2, ["damaged -2"]
    return 0, []


def _compare(step, what, att_dice, att_mods, def_dice, def_mods, att_who, def_who):
    a_raw = roll(step, att_dice, att_who)
    d_raw = roll(step, def_dice, def_who)
    a = modified(a_raw, att_mods[0])
    d = modified(d_raw, def_mods[0])
    res = attack_result(a, d)
    step.emit("DiceCompared", what=what, attack={"dice": att_dice, "high": a_raw, "mods": att_mods[1], "result": a},
              defence={"dice": def_dice, "high": d_raw, "mods": def_mods[1], "result": d}, outcome=res)
    return res


def challenge(step, what, ch_dice, ch_mods, rs_dice, ch_seat, rs_seat):
    c_raw = roll(step, ch_dice, f"seat {ch_seat} challenge ({what})")
    r_raw = roll(step, rs_dice, f"seat {rs_seat} response ({what})")
    c = modified(c_raw, ch_mods[0])
    ok = c > r_raw
    step.emit("ChallengeRolled", what=what, challenge={"dice": ch_dice, "high": c_raw, "mods": ch_mods[1], "result": c},
              response={"dice": rs_dice, "high": r_raw, "result": r_raw}, success=ok)
    return ok


def _sink(step, ship, by, double=False, why=""):
    state = step.state
    i = ix(state)
    deck = "ship" if ship in i.ships else "merchant"
    step.emit("ShipSunk", ship=ship, by=by, deck=deck, double=double, owner=state_owner(state, ship), why=why)


def _damage(step, ship, why=""):
    if not step.state["status"][ship]["damaged"]:
        step.emit("ShipDamaged", ship=ship, why=why)
    else:
        step.emit("FurtherDamageIgnored", ship=ship)


def _apply(step, ship, res, by, double=False, why=""):
    if res == "sunk":
        _sink(step, ship, by, double, why)
    elif res == "damaged":
        _damage(step, ship, why)


def _resolve(step):
    """Resolve the current target; return True when a merchant was sunk."""
    state = step.state
    eng = state["eng"]
    kind = eng["kind"]
    if kind == "intercept":
        return _resolve_intercept(step)
    if kind in ("british", "monitor", "interrogate"):
        _resolve_british(step)
        return False
    if kind == "mines":
        return _resolve_mines(step)
    if kind == "torpedo":
        return _resolve_torpedo(step)
    return False


def _react_type(state):
    r = state["eng"]["reaction"]
    return r["type"] if r else None


def _passage(step, merchant, bonus=0, bonus_why=None):
    from .actions import passage
    passage(step, merchant, bonus, bonus_why)


def _resolve_intercept(step):
    state = step.state
    i = ix(state)
    eng = state["eng"]
    seat, opp, ship = eng["seat"], eng["opp"], eng["ship"]
    tgt = eng["targets"][eng["i"]]
    r = _react_type(state)
    ship_d = i.ships[ship]
    if r == "break-contact":
        mods = _bc_mods(state, tgt)
        ok = challenge(step, "Break Contact", i.types["break-contact"]["action"]["challenge"], mods,
                       i.types["break-contact"]["action"]["response"], opp, seat)
        if ok:
            step.emit("InterceptCancelled", target=tgt, why="Break Contact")
            return False
    if r == "shallow-run":
        _shallow_run(step, tgt, seat, opp)
        return False
    if r == "slim-pickings":
        if eng["multi"] and len(eng["targets"]) > eng["i"] + 1:
            step.emit("TargetsReduced", keep=tgt, why="Slim Pickings")
        else:
            step.emit("InterceptCancelled", target=tgt, why="Slim Pickings")
            return False
    if r == "amc":
        _amc(step, tgt)
        return False
    if r == "trap":
        return _trap(step, tgt)
    if r == "qqq":
        step.emit("RevealPending", ship=ship, why="QQQ")
    mods, why = _att_mods(state, eng, ship)
    if r == "fast-ship":
        mods -= 2
        why = why + ["Fast Ship -2"]
    capture = tgt in eng["boarding"] or r == "non-combatant"
    if r == "non-combatant":
        mods -= 2
        why = why + ["Non-Combatant -2"]
    res = _compare(step, f"{ship} intercepts {tgt}", ship_d["attack"], (mods, why), defence_dice(state, tgt),
                   _def_mods(state, tgt), f"seat {seat} attack ({ship})", f"seat {opp} defence ({tgt})")
    if capture:
        if res == "sunk":
            step.emit("ShipCaptured", ship=tgt, by=seat, from_seat=opp, interceptor=ship)
            if state["status"][ship]["supply"]:
                step.emit("ShipResupplied", ship=ship, why="the prize's stores")
            return False
        if res == "damaged":
            step.emit("DamageIgnored", ship=tgt, why="a boarding attempt ignores damage")
        res = "none"
    if res == "sunk":
        _sink(step, tgt, seat, eng["special"], "intercepted")
        return True
    if res == "damaged":
        _damage(step, tgt, "intercepted")
        return False
    if tgt in player(state, opp)["merchants"] + player(state, opp)["prizes"] and not state["status"][tgt]["damaged"]:
        if r == "non-combatant":
            _passage(step, tgt, 2, "Non-Combatant +2")
        else:
            _passage(step, tgt)
    return False


def _bc_mods(state, ship):
    s = state["status"][ship]
    mods, why = 0, []
    if s["damaged"]:
        mods -= 2
        why.append("damaged -2")
    if s["supply"]:
        mods -= 2
        why.append("limited supply -2")
    return mods, why


def _shallow_run(step, tgt, attacker, defender):
    state = step.state
    i = ix(state)
    step.emit("InterceptCancelled", target=tgt, why="Shallow Run: the ship escapes over the shoals")
    damaged = state["status"][tgt]["damaged"]
    mods = (-2, ["already damaged -2"]) if damaged else (0, [])
    a = i.types["shallow-run"]["action"]
    ok = challenge(step, "Shallow Run", a["challenge"], mods, a["response"], defender, attacker)
    if not ok:
        if damaged:
            _sink(step, tgt, attacker, False, "wrecked on the shoals")
        else:
            step.emit("ShipDamaged", ship=tgt, why="crossing the shoals")


def _amc(step, tgt):
    state = step.state
    i = ix(state)
    eng = state["eng"]
    seat, opp, ship = eng["seat"], eng["opp"], eng["ship"]
    amc = eng["reaction"]["card"]
    a = i.ctype(amc)["action"]
    night_m = (-1, ["night action -1"]) if eng["night"] else (0, [])
    step.emit("MerchantIgnored", ship=tgt, why="AMC")
    r1 = _compare(step, f"{i.card_name[amc]} intercepts {ship}", a["attack"], night_m, defence_dice(state, ship),
                  _def_mods(state, ship), f"seat {opp} attack ({i.card_name[amc]})", f"seat {seat} defence ({ship})")
    mods, why = _att_mods(state, eng, ship)
    r2 = _compare(step, f"{ship} fights {i.card_name[amc]}", i.ships[ship]["attack"], (mods, why), a["defense"],
                  (0, []), f"seat {seat} attack ({ship})", f"seat {opp} defence ({i.card_name[amc]})")
    if is_raider(state, ship) and not state["status"][ship]["revealed"]:
        step.emit("ShipRevealed", ship=ship, why="AMC")
        step.emit("RevealPending", ship=ship, why="AMC")
    _apply(step, ship, r1, opp, False, "AMC")
    if r2 == "sunk":
        step.emit("ActionCardScored", card=amc, seat=seat, why="AMC sunk")


def _trap(step, tgt):
    state = step.state
    i = ix(state)
    eng = state["eng"]
    seat, opp, ship = eng["seat"], eng["opp"], eng["ship"]
    trap = eng["reaction"]["card"]
    night_m = (-1, ["night action -1"]) if eng["night"] else (0, [])
    r1 = _compare(step, f"{tgt} (Trap) fires on {ship}", i.ctype(trap)["action"]["attack"], night_m,
                  defence_dice(state, ship), _def_mods(state, ship), f"seat {opp} attack ({tgt})",
                  f"seat {seat} defence ({ship})")
    mods, why = _att_mods(state, eng, ship)
    r2 = _compare(step, f"{ship} intercepts {tgt}", i.ships[ship]["attack"], (mods, why), defence_dice(state, tgt),
                  _def_mods(state, tgt), f"seat {seat} attack ({ship})", f"seat {opp} defence ({tgt})")
    if is_raider(state, ship) and not state["status"][ship]["revealed"]:
        step.emit("ShipRevealed", ship=ship, why="Trap")
        step.emit("RevealPending", ship=ship, why="Trap")
    _apply(step, ship, r1, opp, False, "Trap")
    _apply(step, tgt, r2, seat, eng["special"], "intercepted")
    return r2 == "sunk"


def _resolve_british(step):
    state = step.state
    i = ix(state)
    eng = state["eng"]
    seat, opp = eng["seat"], eng["opp"]
    tgt = eng["targets"][0]
    r = _react_type(state)
    if r == "pull-the-plug":
        step.emit("InterceptCancelled", target=tgt, why="Pull the Plug")
        deck = "ship" if tgt in i.ships else "merchant"
        step.emit("ShipRemoved", ship=tgt, deck=deck, why="scuttled (Pull the Plug): no victory points")
        return
    if r == "reflag":
        step.emit("ShipDisguised", ship=tgt, why="Reflag")
        step.emit("InterceptCancelled", target=tgt, why="Reflag: the ship is no longer recognised")
        return
    if r == "break-contact":
        a = i.types["break-contact"]["action"]
        if challenge(step, "Break Contact", a["challenge"], _bc_mods(state, tgt), a["response"], opp, seat):
            step.emit("InterceptCancelled", target=tgt, why="Break Contact")
            return
    if r == "shallow-run":
        _shallow_run(step, tgt, seat, opp)
        return
    card = eng["card"]
    if eng["kind"] == "british":
        dice = i.ctype(card)["intercept"]["attack"]
    else:
        dice = i.ctype(card)["action"]["attack"]
    res = _compare(step, f"British forces ({i.card_name[card]}) intercept {tgt}", dice, _att_mods(state, eng),
                   defence_dice(state, tgt), _def_mods(state, tgt), f"seat {seat} attack ({i.card_name[card]})",
                   f"seat {opp} defence ({tgt})")
    _apply(step, tgt, res, seat, False, "intercepted by British forces")


def _interrogate_challenge(step):
    state = step.state
    i = ix(state)
    eng = state["eng"]
    a = i.ctype(eng["card"])["action"]
    tgt = eng["targets"][0]
    if challenge(step, "Interrogate", a["challenge"], (0, []), a["response"], eng["seat"], eng["opp"]):
        step.emit("ShipRevealed", ship=tgt, why="Interrogate")
        _advance_to(step, "react", 0)
    else:
        step.emit("InterrogationFailed", target=tgt)
        step.emit("EngagementEnded", kind="interrogate", seat=eng["seat"])


def _resolve_mines(step):
    state = step.state
    i = ix(state)
    eng = state["eng"]
    tgt = eng["targets"][eng["i"]]
    a = i.ctype(eng["card"])["action"]
    dice = a["attack"] if i.tid(eng["card"]) == "lay-mines" else a["mines"]
    step.emit("PassageBarred", ship=tgt, why="attacked by mines")
    res = _compare(step, f"mines attack {tgt}", dice, (0, []), defence_dice(state, tgt), _def_mods(state, tgt),
                   f"seat {eng['seat']} mines", f"seat {eng['opp']} defence ({tgt})")
    _apply(step, tgt, res, eng["seat"], eng["special"], "mines")
    return res == "sunk"


def _resolve_torpedo(step):
    state = step.state
    i = ix(state)
    eng = state["eng"]
    seat, opp = eng["seat"], eng["opp"]
    tgt = eng["targets"][0]
    sub = eng["card"]
    sa = i.ctype(sub)["action"]
    r = _react_type(state)
    if r == "razzle-dazzle":
        a = i.types["razzle-dazzle"]["action"]
        if challenge(step, "Razzle-Dazzle", a["challenge"], (0, []), a["response"], opp, seat):
            step.emit("AttackCancelled", target=tgt, why="Razzle-Dazzle")
            return False
    if r in ("q-ship", "sail-q-ship"):
        _q_ship(step, tgt)
        return False
    step.emit("PassageBarred", ship=tgt, why="torpedoed")
    res = _compare(step, f"{i.card_name[sub]} torpedoes {tgt}", sa["torpedo"], (0, []), defence_dice(state, tgt),
                   _def_mods(state, tgt), f"seat {seat} torpedoes ({i.card_name[sub]})", f"seat {opp} defence ({tgt})")
    _apply(step, tgt, res, seat, eng["special"], "torpedoed")
    return res == "sunk"


def _q_ship(step, tgt):
    state = step.state
    i = ix(state)
    eng = state["eng"]
    seat, opp = eng["seat"], eng["opp"]
    sub, q = eng["card"], eng["reaction"]["card"]
    sa, qa = i.ctype(sub)["action"], i.ctype(q)["action"]
    qn, sn = i.card_name[q], i.card_name[sub]
    step.emit("MerchantIgnored", ship=tgt, why=qn)
    if challenge(step, f"{qn} lures {sn} into a gun duel", qa["lure_challenge"], (0, []), qa["lure_response"], opp, seat):
        r1 = _compare(step, f"{qn} guns on {sn}", qa["guns"], (0, []), sa["defense"], (0, []),
                      f"seat {opp} guns ({qn})", f"seat {seat} defence ({sn})")
        r2 = _compare(step, f"{sn} guns on {qn}", sa["guns"], (0, []), qa["defense"], (0, []),
                      f"seat {seat} guns ({sn})", f"seat {opp} defence ({qn})")
        sub_sunk, q_sunk = r1 == "sunk", r2 == "sunk"
    else:
        r2 = _compare(step, f"{sn} torpedoes {qn}", sa["torpedo"], (0, []), qa["defense"], (0, []),
                      f"seat {seat} torpedoes ({sn})", f"seat {opp} defence ({qn})")
        q_sunk, sub_sunk = r2 == "sunk", False
        if not q_sunk and "dc" in qa:
            mods = (-2, ["damaged -2"]) if r2 == "damaged" else (0, [])
            r1 = _compare(step, f"{qn} depth charges on {sn}", qa["dc"], mods, sa["defense"], (0, []),
                          f"seat {opp} depth charges ({qn})", f"seat {seat} defence ({sn})")
            sub_sunk = r1 == "sunk"
    if sub_sunk:
        step.emit("ActionCardScored", card=sub, seat=opp, why=f"{sn} sunk")
    if q_sunk:
        step.emit("ActionCardScored", card=q, seat=seat, why=f"{qn} sunk")


def _after_reaction(step, t, d):
    state = step.state
    i = ix(state)
    eng = state["eng"]
    seat, opp = eng["seat"], eng["opp"]
    tgt = eng["targets"][eng["i"]]
    a = i.types[t]["action"]
    if t == "recalled":
        ship = eng["ship"]
        if challenge(step, "Recalled", a["challenge"], (0, []), a["response"], opp, seat):
            step.emit("ShipRemoved", ship=ship, deck="ship", why="recalled to a friendly port: no victory points")
    elif t == "mistaken-identity":
        if challenge(step, "Mistaken Identity", a["challenge"], (0, []), a["response"], opp, seat):
            step.emit("VictoryCardsSwapped", attacker=seat, defender=opp, sunk=tgt, given=d["give"])

"""The solitaire game (rulebook section 5): one real player (seat 1) against the
phantom player, who plays itself from the solitaire deck and the red die.

The phantom is the second player of the state (``PHANTOM``); the kernel knows one
seat only, so the phantom never has a decision to make: at the end of every step
the rules' entry (``rules.play_phantom``) plays for it until the real player must
act: its windows through ``answer`` (its defensive draws, 5.3.3; passage, keeping
a ship), its turns through ``turn_step`` (5.4.3). Every card turned
and every die rolled goes through the kernel's chance (``step.draw`` /
``step.roll`` / ``step.pick``), so at a table the referee enters them.

Actions the phantom takes without an action card use a pseudo-card
``solo:<type>``: the dice are those of the action card of that type (the catalog),
the effect is the card's, and the pseudo-card is never discarded or dealt.
"""

from __future__ import annotations

from . import actions, combat, optional, resolve, windows
from .board import (PHANTOM, attack_ok, can_attack_with, in_refuge, is_raider, is_warship, ix, other_ok, recognised,
                    status_of)
from .catalog import SPECIALS
from .state import player

TYPE_CHECKING = False  # mypy takes the name as true; typing is not imported at run time
if TYPE_CHECKING:
    from typing import Any

    from collections.abc import Callable
    from service.kernel.events import Ev
    from service.kernel.machine import Step

    from .shapes import State, T, Window

SOLO = "solo:"
REAL = 1


def on(state: State) -> bool:
    return state.get("solo") is not None


def pseudo(t: str) -> str:
    return SOLO + t


# setting up ---------------------------------------------------------------
def prepare(state: State, cat: dict[str, Any]) -> None:
    """5.2: the named action cards are not used; the solitaire deck joins the table."""
    deck = cat["solitaire"]
    unused = []
    for t in deck["removed"]["value"]:
        card = next(c for c in ix(state).action_cards if ix(state).tid(c) == t and c not in unused)
        unused.append(card)
    state["unused"] = unused
    state["pool"] = [c for c in state["pool"] if c not in unused]
    state["solo"] = {"pile": [c["id"] for c in deck["cards"]], "next": "start"}
    if state.get("issue33"):
        state["solo"]["short"] = None
    else:                   # rules version 2: step 10 after the real player's Recon Aircraft
        state["solo"]["recon"] = False


# the solitaire deck -------------------------------------------------------------
def turn_card(step: Step, why: str) -> dict[str, Any]:
    state = step.state
    if not state["solo"]["pile"]:
        step.emit("SolitaireDeckReshuffled", {"why": "every solitaire card has been turned (5.4.1)"})
    cid = step.draw("solitaire", sorted(state["solo"]["pile"]), why=why)
    step.emit("SolitaireCardTurned", {"card": cid, "why": why})
    return ix(state).solo_cards[cid]


def red_die(step: Step, why: str) -> int:
    return step.roll(4, 1, why=f"the phantom's red die: {why}")[0]


def _pick(step: Step, options: list[T], why: str) -> T:
    if len(options) == 1:
        return options[0]
    return step.pick(options, why=f"the phantom's choice, at random: {why}")


# the phantom's answers ------------------------------------------------------------
def answer(step: Step, w: Window) -> dict[str, Any] | None:
    """The phantom's answer to the window ``w`` it must answer: a decision for that
    window (the rules' entry applies it as any seat's), or None when the phantom
    answered by itself (its defence, 5.3.3)."""
    state = step.state
    k = w["kind"]
    if k == "react":
        defend(step)
        return None
    if k == "keep":
        return _keep(step)
    if k == "pursue":
        # 6.6.1 / 6.10, in the phantom's interest (5.0): it follows, unless over the shoals
        # with a ship already damaged, which a failed crossing would wreck (6.10.3)
        eng = state["eng"]
        wreck = eng["reaction"]["type"] == "shallow-run" and status_of(state, eng["ship"])["damaged"]
        return {"action": "pursue", "pursue": not wreck}
    if k == "passage":   # always in the phantom's interest (5.0)
        return {"action": "passage", "attempt": True}
    if k == "order":
        return windows.mine_order_options(state)[0]
    if k == "after" and state.get("issue33"):        # only opened for its Recalled (5.3.3)
        recall(step)
        return None
    # Reflag against Interned / Transfer Command, after-sinking reactions and Reflag: the
    # phantom uses no hand (5.2.2); its revealed ships are hidden only by 5.4.3 step 12
    return {"action": "decline"}


def _keep(step: Step) -> dict[str, Any]:
    """5.2.4: the phantom keeps its best ship, by VP (ties at random); with 6.7 its best
    three (its hand is not used, 5.2.2: a kept ship costs it nothing)."""
    state = step.state
    ships = list(player(state, PHANTOM)["ships"])
    vp = {s: ix(state).ships[s]["vp"] for s in ships}
    three = optional.on(state, "keep_three")
    most = ix(state).optional_rules["keep_most"]["value"] if three else 1
    kept: list[str] = []
    while ships and len(kept) < most:
        best = max(vp[s] for s in ships)
        s = _pick(step, [s for s in ships if vp[s] == best], "the best ship to keep (5.2.4)")
        kept.append(s)
        ships.remove(s)
    if three:
        return {"action": "keep", "ships": sorted(kept)}
    return {"action": "keep", "ship": kept[0]}


def defend(step: Step) -> None:
    """5.3.3: one solitaire card and the red die: 1/3 the first defensive action,
    2/4 the second; applied when it fits the real player's attack."""
    state = step.state
    eng = state["eng"]
    tgt = eng["targets"][eng["i"]]
    card = turn_card(step, f"the phantom's defence against the {eng['kind']}")
    r = red_die(step, "defensive actions (5.3.3)")
    name = card["defense"][0 if r in (1, 3) else 1]
    if name == "recalled":
        # Recalled answers the sinking of a merchant by the intercepting ship (3.3.30): it
        # fits a German ship's intercept, and is carried out if the merchant is sunk
        fits = eng["kind"] == "intercept"
    else:
        fits = name != "none" and name in windows.reaction_types(state)
    step.emit("PhantomDefence", {"card": card["id"], "roll": r, "reaction": name, "fits": fits, "target": tgt})
    if name == "recalled" and fits:
        step.emit("EngagementAdvanced", {"stage": "resolve", "i": eng["i"]})
        return
    if not fits:
        step.emit("ReactionDeclined", {"seat": PHANTOM, "kind": "react", "target": tgt})
        step.emit("EngagementAdvanced", {"stage": "order" if eng["kind"] == "mines" else "resolve",
                  "i": eng["i"]})
        return
    i = ix(state)
    c = pseudo(name)
    step.emit("PhantomReacted", {"seat": PHANTOM, "card": c, "ctype": name, "name": i.card_name[c], "target": tgt})
    if eng["kind"] == "mines":
        step.emit("MinesSwept", {"opp": eng["opp"]})
        step.emit("EngagementEnded", {"kind": "mines", "seat": eng["seat"]})
    else:       # 6.6.1 / 6.10: the real player may follow a Fast Ship or over the shoals
        step.emit("EngagementAdvanced", {"stage": "pursue" if optional.can_pursue(state, name) else "resolve", "i": eng["i"]})


def recall(step: Step) -> None:
    """The phantom's Recalled (drawn in its defence, 5.3.3), once the intercepting ship
    has sunk the merchant: the card's challenge, as the action card's (3.3.30)."""
    state = step.state
    eng = state["eng"]
    tgt = eng["targets"][eng["i"]]
    c = pseudo("recalled")
    step.emit("PhantomReacted", {"seat": PHANTOM, "card": c, "ctype": "recalled", "name": ix(state).card_name[c], "target": tgt})
    resolve.after_reaction(step, "recalled", {})
    if state["eng"] is not None:
        step.emit("EngagementAdvanced", {"stage": "next", "i": eng["i"]})


# the phantom's turn (5.4.3) ------------------------------------------------------
def turn_step(step: Step) -> str | None:
    """One step of the phantom's turn; "end_turn" once its turn is over (5.4.2: the
    turn then ends as any other, by the turn's flow)."""
    nxt = step.state["solo"]["next"]
    if nxt == "start":
        _start(step)
    elif nxt == "end":
        _end(step)
        return "end_turn"
    else:
        _offensive(step, nxt)
    return None


def _start(step: Step) -> None:
    state = step.state
    tt = state["tt"]
    _refuge_moves(step)
    p = player(state, PHANTOM)
    if tt["fogged"]:
        mode = "end"
    elif not state.get("issue33"):                   # rules version 2: steps 9-10 "on" the phantom
        mode = "deception" if p["pending"] and p["pending"]["type"] == "deception" else \
            "recon" if state["solo"].get("recon") else "normal"
    elif state["solo"].get("short"):
        mode = state["solo"]["short"]                # steps 9, 10: after its own Deception or Recon Aircraft
    elif p["pending"] and p["pending"]["type"] == "deception":
        mode = "deception"                           # the real player's Deception: as step 9 (3.3.10's forced card)
    else:
        mode = "normal"
    step.emit("PhantomTurnBegun", {"mode": mode})
    if state["phase"] == "commit":
        step.emit("CommittingDone", {"seat": PHANTOM, "cards": 0})
    # 6.12: in its interest, each prize resupplies a ship short of supply (then 6.12.2's roll)
    while optional.resupply_options(state, PHANTOM):
        actions.resupply(step, PHANTOM, optional.resupply_options(state, PHANTOM)[0])


def _refuge_moves(step: Step) -> None:
    """Step 7: a ship stays in the refuge until its damage or limited supply is
    gone (one attempt each a turn), otherwise it comes back the next turn."""
    state = step.state
    for s in list(player(state, PHANTOM)["ships"]):
        stt = status_of(state, s)
        if not stt["refuge"]:
            continue
        tried = False
        for what, flag in (("supply", "supply"), ("repair", "damaged")):
            if stt[flag]:  # type: ignore[literal-required]  # supply or damaged
                actions.refuge(step, PHANTOM, {"action": "refuge", "ship": s, "try": what})
                tried = True
        if not tried and stt.get("since", state["turn"]) < state["turn"]:
            actions.refuge(step, PHANTOM, {"action": "leave_refuge", "ship": s})


def _offensive(step: Step, mode: str) -> None:
    state = step.state
    if mode == "draw":
        mode = "normal"
    card = turn_card(step, "the phantom's offensive actions")
    r = red_die(step, "offensive actions")
    if mode == "deception":                          # step 9: 1/3 the action of 3, 2/4 that of 4
        slot = 3 if r in (1, 3) else 4
    elif mode == "recon":                            # step 10: the defensive side (5.3.3)
        name = card["defense"][0 if r in (1, 3) else 1]
        # "se possibile svolgete l'azione": with no attack to answer, Reflag hides a revealed
        # raider or prize and an AMC intercepts a recognised ship (3.3.1); the others need one
        if name == "reflag":
            ships = _revealed(state)
        elif name == "amc" and state.get("issue33"):
            ships = _recognised(state)
        else:
            ships = []
        step.emit("PhantomActionChosen", {"card": card["id"], "roll": r, "action": name, "side": "defense",
                  "possible": bool(ships), "then": "end"})
        if ships and name == "reflag":
            step.emit("ShipDisguised", {"ship": _pick(step, ships, "the ship to hide"), "why": "the phantom's Reflag"})
        elif ships:
            tgt = _pick(step, ships, "the ship the AMC intercepts")
            step.emit("AttackAnnounced", {"kind": "british", "seat": PHANTOM, "card": pseudo("amc"), "ship": None, "opp": REAL,
                      "targets": [tgt], "night": False, "by": "the phantom's AMC"})
            combat.advance(step)
        return
    else:
        slot = r
    a = card["offense"][slot - 1]
    if mode != "normal" or slot == 1:
        then = "end"
    elif slot == 2:
        then = "draw"
    else:
        then = "end" if a["et"] else "draw"
    plan = _plan(state, a)
    if slot == 2 and mode == "normal" and plan is None:
        then = "end"                                 # step 2: an intercept that cannot be made ends the turn
    step.emit("PhantomActionChosen", {"card": card["id"], "roll": r, "action": a["action"], "side": "offense",
              "possible": plan is not None, "then": then})
    if plan is not None:
        plan(step, card, a)


def _plan(state: State, a: dict[str, Any]) -> Callable[[Step, dict[str, Any], dict[str, Any]], None] | None:
    """The function carrying out action ``a`` now, or None when it cannot be done."""
    kind = a["action"]
    if kind == "none":
        return None
    if kind == "british-intercept":
        return _intercept if _recognised(state) else None
    if kind.endswith("-intercept"):
        return _intercept if _interceptors(state, kind) and _merchants(state) else None
    if kind in ("torpedo", "submarine-guns", "submarine-mines"):
        return _submarine if attack_ok(state, PHANTOM, REAL) and player(state, REAL)["merchants"] else None
    if kind == "lay-mines":
        return _lay_mines if _minelayers(state) and player(state, REAL)["merchants"] else None
    if kind == "monitor":
        return _monitor if _in_refuge(state) else None
    if kind == "interrogate":
        return _interrogate if _suspects(state) else None
    if kind == "recon-aircraft":
        return _recon if player(state, REAL)["hand"] and other_ok(state, PHANTOM, REAL) else None
    return _play if _plays(state, kind) else None


def _revealed(state: State) -> list[str]:
    p = player(state, PHANTOM)
    return [s for s in p["ships"] + p["prizes"]
            if (is_raider(state, s) or s in p["prizes"]) and status_of(state, s)["revealed"] and not in_refuge(state, s)]


def _end(step: Step) -> None:
    """Step 12, then the reshuffle (5.4.1)."""
    state = step.state
    ships = _revealed(state)
    if ships:
        card = turn_card(step, "step 12: the phantom has revealed ships")
        if card["special"] == "reflag":
            step.emit("ShipDisguised", {"ship": _pick(step, ships, "the ship to hide (Reflag)"), "why": "the phantom's Reflag"})
    step.emit("SolitaireDeckReshuffled", {"why": "the end of the phantom's turn (5.4.1)"})


# the offensive actions ------------------------------------------------------------
def _interceptors(state: State, kind: str) -> list[str]:
    want = is_warship if kind == "warship-intercept" else is_raider
    return [s for s in player(state, PHANTOM)["ships"] if want(state, s) and can_attack_with(state, PHANTOM, s)]


def _merchants(state: State) -> list[str]:
    if not attack_ok(state, PHANTOM, REAL):
        return []
    tt = state["tt"]
    return [m for m in player(state, REAL)["merchants"] if m not in tt["intercepted"] and m not in tt["ignored"]]


def _recognised(state: State) -> list[str]:
    """The real player's ships British forces may intercept (3.2.3): warships, revealed
    raiders and prizes, not in a refuge, not intercepted this turn."""
    if not attack_ok(state, PHANTOM, REAL):
        return []
    p = player(state, REAL)
    tt = state["tt"]
    return [s for s in p["ships"] + p["prizes"]
            if recognised(state, s) and not in_refuge(state, s) and s not in tt["intercepted"]]


def _special_applies(sp: str, specials: list[str], warship: bool | None) -> bool:
    """Step 3: a special action that joins the intercept (None: British forces, which take
    only Surprise Attack, 3.2.1); a blank part, a double or an illegal one stops the chain."""
    if sp is None or sp not in SPECIALS or sp == "reflag" or sp in specials:
        return False
    if warship is None:
        return sp == "surprise-attack"
    return not ((sp == "shipping-lanes" and not warship) or (sp == "good-hunting" and warship)
                or (sp in ("shipping-lanes", "good-hunting") and {"shipping-lanes", "good-hunting"} & set(specials)))


def _intercept(step: Step, card: dict[str, Any], a: dict[str, Any]) -> None:
    """Step 3: the special actions chain, the targets, then the intercept: a warship or a
    raider on a merchant, or British forces on a warship, revealed raider or prize."""
    state = step.state
    british = a["action"] == "british-intercept"
    ship = None if british else _pick(step, _interceptors(state, a["action"]), "the intercepting ship")
    warship = None if british else is_warship(state, ship)
    specials: list[str] = []
    while True:
        c = turn_card(step, "the intercept's special actions")
        sp = c["special"]
        legal = _special_applies(sp, specials, warship)
        step.emit("PhantomSpecialTurned", {"card": c["id"], "special": sp, "applies": legal})
        if not legal:
            break
        specials.append(sp)
    i = ix(state)
    if british:
        tgt = _pick(step, _recognised(state), "the ship British forces intercept")
        british_card = pseudo(i.solo["british"]["value"])  # type: ignore[index]  # (the solitaire game: its deck)
        step.emit("AttackAnnounced", {"kind": "british", "seat": PHANTOM, "card": british_card, "ship": None,
                  "opp": REAL, "targets": [tgt], "night": a.get("night", False)})
        step.emit("PhantomAssists", {"specials": specials, "surprise": "surprise-attack" in specials, "boarding": [],
                  "multi": None, "names": [i.types[sp]["name"] for sp in specials]})
        combat.advance(step)
        return
    free = _merchants(state)
    if "shipping-lanes" in specials:
        targets = list(free)
    else:
        first = _pick(step, free, "the merchant to intercept")
        targets = [first]
        if "good-hunting" in specials and len(free) > 1:
            targets.append(_pick(step, [m for m in free if m != first], "the second merchant (Good Hunting)"))
    night = a.get("night", False)
    step.emit("AttackAnnounced", {"kind": "intercept", "seat": PHANTOM, "card": card["id"], "ship": ship, "opp": REAL,
              "targets": targets, "night": night})
    multi = next((sp for sp in specials if sp in ("shipping-lanes", "good-hunting")), None)
    boarding = [targets[0]] if "boarding-party" in specials and not status_of(state, targets[0])["damaged"] else []
    step.emit("PhantomAssists", {"specials": specials, "surprise": "surprise-attack" in specials, "boarding": boarding,
              "multi": multi, "names": [i.types[sp]["name"] for sp in specials]})
    combat.advance(step)


def _submarine(step: Step, card: dict[str, Any], a: dict[str, Any]) -> None:
    """A submarine's torpedo or gun attack on one merchant (the torpedo card's dice,
    5.5.1), or its mines on every merchant (the minelaying submarine's, 3.3.43)."""
    state = step.state
    solo: dict[str, Any] = ix(state).solo  # type: ignore[assignment]  # (the solitaire game: its deck)
    by = "the phantom's U-boat"
    if a["action"] == "submarine-mines":
        step.emit("AttackAnnounced", {"kind": "mines", "seat": PHANTOM, "card": pseudo(solo["mines"]["value"]), "ship": None,
                  "opp": REAL, "targets": list(player(state, REAL)["merchants"]), "night": False, "by": by})
        combat.advance(step)
        return
    guns = a["action"] == "submarine-guns"
    tgt = _pick(step, list(player(state, REAL)["merchants"]), f"the merchant to {'shell' if guns else 'torpedo'}")
    extra: dict[str, Any] = {"by": by} if state.get("issue33") else {}     # (rules version 2's events do not name it)
    if guns:
        extra["guns"] = True
    step.emit("AttackAnnounced", {"kind": "torpedo", "seat": PHANTOM, "card": pseudo(solo["torpedo"]["value"]), "ship": None,
              "opp": REAL, "targets": [tgt], "night": False, **extra})
    combat.advance(step)


def _minelayers(state: State) -> list[str]:
    if not attack_ok(state, PHANTOM, REAL):
        return []
    return [s for s in player(state, PHANTOM)["ships"] if ix(state).ships[s]["mines"] and can_attack_with(state, PHANTOM, s)]


def _lay_mines(step: Step, card: dict[str, Any], a: dict[str, Any]) -> None:
    """Lay Mines (3.3.21): a minelaying raider of the phantom mines every merchant."""
    state = step.state
    ship = _pick(step, _minelayers(state), "the minelayer")
    step.emit("AttackAnnounced", {"kind": "mines", "seat": PHANTOM, "card": pseudo("lay-mines"), "ship": ship, "opp": REAL,
              "targets": list(player(state, REAL)["merchants"]), "night": False})
    combat.advance(step)


def _in_refuge(state: State) -> list[str]:
    if not attack_ok(state, PHANTOM, REAL):
        return []
    return [s for s in player(state, REAL)["ships"] if in_refuge(state, s) and s not in state["tt"]["intercepted"]]


def _monitor(step: Step, card: dict[str, Any], a: dict[str, Any]) -> None:
    """Monitor (3.3.24): British forces on a ship of the real player in an island refuge."""
    state = step.state
    tgt = _pick(step, _in_refuge(state), "the ship in a refuge the Monitor attacks")
    step.emit("AttackAnnounced", {"kind": "monitor", "seat": PHANTOM, "card": pseudo("monitor"), "ship": None, "opp": REAL,
              "targets": [tgt], "night": False})
    combat.advance(step)


def _suspects(state: State) -> list[str]:
    if not attack_ok(state, PHANTOM, REAL):
        return []
    p = player(state, REAL)
    tt = state["tt"]
    return [s for s in p["ships"] + p["prizes"] if (is_raider(state, s) or s in p["prizes"])
            and not recognised(state, s) and not in_refuge(state, s) and s not in tt["intercepted"]]


def _interrogate(step: Step, card: dict[str, Any], a: dict[str, Any]) -> None:
    """Step 11: Low VP, High VP or Random among the real player's disguised raiders and prizes."""
    state = step.state
    i = ix(state)
    cands = _suspects(state)
    rule = a.get("target", "random")
    if rule in ("low", "high"):
        vps = {s: i.vessel(s)["vp"] for s in cands}
        best = (min if rule == "low" else max)(vps.values())
        cands = [s for s in cands if vps[s] == best]
    tgt = _pick(step, cands, f"the ship to interrogate ({rule})")
    step.emit("AttackAnnounced", {"kind": "interrogate", "seat": PHANTOM, "card": pseudo("interrogate"), "ship": None, "opp": REAL,
              "targets": [tgt], "night": False})
    step.emit("EngagementAdvanced", {"stage": "challenge", "i": 0})
    combat.advance(step)


def _recon(step: Step, card: dict[str, Any], a: dict[str, Any]) -> None:
    """Step 8: two cards at random from the real player's hand, face down onto the discards."""
    state = step.state
    hand = sorted(player(state, REAL)["hand"])
    taken = []
    for _ in range(min(2, len(hand))):
        c = step.draw(f"hand-of-{REAL}", hand, vis=[REAL], why="the phantom's Recon Aircraft: a random card of the hand")
        hand.remove(c)
        taken.append(c)
    step.emit("CardsDiscardedFaceDown", {"seat": REAL, "cards": taken, "why": "the phantom's Recon Aircraft (5.4.3 step 8)"}, vis=[REAL])
    step.emit("CardsDiscardedCount", {"seat": REAL, "count": len(taken), "why": "the phantom's Recon Aircraft"})
    if not state.get("issue33"):
        return
    step.emit("PhantomTurnShortened", {"mode": "recon",
              "why": "5.4.3 step 10: the phantom played Recon Aircraft: its next turn is one card, its defensive side"})


def _plays(state: State, kind: str) -> list[dict[str, Any]]:
    c = pseudo(kind)
    return [d for d in actions.play_options(state, PHANTOM, c) if actions.has_effect(state, PHANTOM, d)]


def _play(step: Step, card: dict[str, Any], a: dict[str, Any]) -> None:
    state = step.state
    opts = _plays(state, a["action"])
    if a["action"] == "island-refuge":            # step 7: a damaged, short or revealed ship first
        first = [d for d in opts if status_of(state, d["ship"])["damaged"] or status_of(state, d["ship"])["supply"]
                 or (is_raider(state, d["ship"]) and status_of(state, d["ship"])["revealed"])]
        opts = first or opts
    d = _pick(step, opts, f"the target of {ix(state).types[a['action']]['name']}")
    actions.play(step, PHANTOM, d)
    if a["action"] == "deception" and state.get("issue33"):
        step.emit("PhantomTurnShortened", {"mode": "deception",
                  "why": "5.4.3 step 9: the phantom played Deception: its next turn is one card, the action of 3 or 4"})


# the result -------------------------------------------------------------------------
def outcome(result: dict[str, Any] | None) -> dict[str, Any] | None:
    """The real player's round points; it wins when it beats the phantom (2.5)."""
    if result is None:
        return None
    out: dict[str, Any] = {"scores": {"1": result["scores"]["1"]}, "winners": [1] if 1 in result["winners"] else [],
           "phantom": {"round_points": result["scores"]["2"],
                       "victory_points": result.get("victory_points", {}).get("2")}}
    if "victory_points" in result:
        out["victory_points"] = {"1": result["victory_points"]["1"]}
    return out


# evolve -------------------------------------------------------------------------------
def _solitaire_card_turned(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["solo"]["pile"].remove(d["card"])


def _solitaire_deck_reshuffled(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["solo"]["pile"] = sorted(ix(state).solo_cards)


def _phantom_action_chosen(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["solo"]["next"] = d["then"]


def _phantom_turn_begun(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["solo"]["next"] = "end" if d["mode"] == "end" else d["mode"]
    if not state.get("issue33"):
        if d["mode"] == "recon":
            state["solo"]["recon"] = False
    elif d["mode"] in ("deception", "recon"):
        state["solo"]["short"] = None
        state["solo"].pop("recon", None)       # (a snapshot from before steps 9 and 10 read "by")


def _phantom_turn_shortened(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["solo"]["short"] = d["mode"]


def _turn_ended(state: State, d: dict[str, Any], ev: Ev) -> None:
    if state.get("solo") is not None:
        state["solo"]["next"] = "start"


def _phantom_reacted(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["window"] = None
    eng = state["eng"]
    eng["reacted"].append(d["target"])
    eng["reaction"] = {"card": d["card"], "type": d["ctype"]}


def _phantom_defence(state: State, d: dict[str, Any], ev: Ev) -> None:
    if d["reaction"] == "recalled" and d["fits"]:     # kept for the sinking (``combat._after_window``)
        state["eng"]["recall"] = d["target"]
        state["window"] = None


def _phantom_assists(state: State, d: dict[str, Any], ev: Ev) -> None:
    eng = state["eng"]
    eng["surprise"] = d["surprise"]
    eng["boarding"] = list(d["boarding"])
    eng["multi"] = d["multi"]


def _cards_discarded_face_down(state: State, d: dict[str, Any], ev: Ev) -> None:
    p = player(state, d["seat"])
    for c in d["cards"]:
        p["hand"].remove(c)
        state["discard"].append(c)


HANDLERS = {
    "SolitaireCardTurned": _solitaire_card_turned,
    "SolitaireDeckReshuffled": _solitaire_deck_reshuffled,
    "PhantomActionChosen": _phantom_action_chosen,
    "PhantomTurnBegun": _phantom_turn_begun,
    "PhantomTurnShortened": _phantom_turn_shortened,
    "TurnEnded": _turn_ended,
    "PhantomReacted": _phantom_reacted,
    "PhantomAssists": _phantom_assists,
    "PhantomDefence": _phantom_defence,
    "CardsDiscardedFaceDown": _cards_discarded_face_down,
}

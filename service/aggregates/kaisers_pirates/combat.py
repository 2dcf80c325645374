"""Attacks: intercepts (German ships on merchants, British forces on warships,
recognised raiders and prizes, Monitor, Interrogate), mine laying and
torpedoes, with their assist cards and the defender's reaction windows (what
each window may answer: ``windows.py``); their dice are ``resolve.py``'s.

An attack in progress is ``state["eng"]``; it walks through stages for each
target: ``assist`` (the attacker may reveal committed assist cards), ``react``
(the defender may answer with one reaction card, or decline), ``resolve``
(the dice), ``passage`` (the owner of a survivor may seek passage), ``after``
(Recalled / Mistaken Identity once a merchant is sunk).
Mines add ``order`` (the attacker picks the next merchant); Interrogate
starts with ``challenge``. ``advance`` moves the stages on until a seat must
decide. The events of an attack's course are applied here (``HANDLERS``).
"""

from __future__ import annotations

from . import optional
from .board import can_attack_with, committed, fogged, in_refuge, is_raider, ix, may_hold, opponents, owner, recognised
from .resolve import after_reaction, interrogate_challenge, passage, resolve, torpedo_prize_challenge
from .state import card_revealed, player
from .windows import assist_options, assist_window, live_mine_targets, reaction_types

TYPE_CHECKING = False  # mypy takes the name as true; typing is not imported at run time
if TYPE_CHECKING:
    from typing import Any

    from collections.abc import Callable
    from service.kernel.events import Ev
    from service.kernel.machine import Step

    from .shapes import Committed, State

ASSISTED = ("intercept", "british", "monitor", "mines", "torpedo")   # attacks an assist may join (3.2.1)


# announcing an attack ------------------------------------------------------
def announce_options(state: State, seat: int) -> list[dict[str, Any]]:
    """Every attack the active seat may announce now with its committed cards: the
    intercepts first, then the action sides that attack."""
    tt = state["tt"]
    attack_on = tt["attack_on"]
    # attack_ok (3.1.3): one opponent a turn, none in a fog bank (a loop: no comprehension's call)
    opps = []
    for o in opponents(state, seat):
        if (attack_on is None or attack_on == o) and not fogged(state, o):
            opps.append(o)
    out: list[dict[str, Any]] = []
    # 3.2.3, 3.2.4: the cards committed on their intercept side: a German ship's on a
    # merchant, British forces on a recognised ship (listed here, at every listing of the
    # resolve phase; the rarer action sides that attack in ``_action_side_attacks``)
    players = state["players"]
    intercepted = tt["intercepted"]
    ignored = tt["ignored"]
    sides = False       # an action side among the committed cards (most listings have none)
    for c in tt["committed"]:
        if c["use"] != "intercept":
            sides = True
            continue
        card, ship = c["card"], c["ship"]
        if ship is not None:
            # the German ship the card lies on intercepts a merchant
            if not can_attack_with(state, seat, ship):
                continue
            for o in opps:
                for m in players[o - 1]["merchants"]:
                    if m not in intercepted and m not in ignored:
                        out.append({"action": "intercept", "card": card, "ship": ship, "target": m})
            continue
        # British forces: every committed card is listed, copies included; on ships
        # recognised (warships, revealed raiders and prizes) and not in an island refuge
        for o in opps:
            p = players[o - 1]
            for t_ in p["ships"] + p["prizes"]:
                if t_ not in intercepted and not in_refuge(state, t_) and recognised(state, t_):
                    out.append({"action": "intercept", "card": card, "target": t_})
    if sides:
        _action_side_attacks(state, seat, opps, out)
    return out


def _action_side_attacks(state: State, seat: int, opps: list[int], out: list[dict[str, Any]]) -> None:
    """The attacks of the cards committed on their action side, added to ``out``: Lay Mines
    (3.3.21), the submarines (3.3.42, 3.3.43; 6.9 a hidden prize), Interrogate (3.3.19),
    Monitor (3.3.24); ``opps``: the opponents that may be attacked now."""
    card_type = ix(state).card_type
    for c in state["tt"]["committed"]:
        if c["use"] != "action":
            continue
        attacks = _ATTACK_SIDES.get(card_type[c["card"]])
        if attacks is not None:
            attacks(state, seat, c, opps, out)


def _lay_mines_attacks(state: State, seat: int, c: Committed, opps: list[int], out: list[dict[str, Any]]) -> None:
    """From a minelaying raider (the one the card lies on, if any) against an opponent with merchants."""
    i = ix(state)
    card = c["card"]
    for ship in player(state, seat)["ships"]:
        if c["ship"] not in (None, ship):
            continue
        if can_attack_with(state, seat, ship) and i.ships[ship]["mines"]:
            for o in opps:
                if player(state, o)["merchants"]:
                    out.append({"action": "lay_mines", "card": card, "ship": ship, "opponent": o})


def _submarine_attacks(state: State, seat: int, c: Committed, opps: list[int], out: list[dict[str, Any]]) -> None:
    """A torpedo on a merchant (6.9: or a hidden prize); the UC-boats' mines too."""
    card = c["card"]
    t = ix(state).card_type[card]
    for o in opps:
        for m in player(state, o)["merchants"]:
            out.append({"action": "torpedo", "card": card, "target": m})
        if optional.on(state, "torpedo_prizes"):          # 6.9: a hidden prize
            out += [{"action": "torpedo", "card": card, "target": z} for z in player(state, o)["prizes"]
                    if not state["status"][z]["revealed"]]
        if t == "submarines-uc-16-uc-29" and player(state, o)["merchants"]:
            out.append({"action": "sub_mines", "card": card, "opponent": o})


def _interrogate_attacks(state: State, seat: int, c: Committed, opps: list[int], out: list[dict[str, Any]]) -> None:
    """A raider or prize not recognised, not in a refuge, not intercepted this turn."""
    intercepted = state["tt"]["intercepted"]
    for o in opps:
        p = player(state, o)
        for s in p["ships"] + p["prizes"]:
            if (is_raider(state, s) or s in p["prizes"]) and not recognised(state, s) \
                    and not in_refuge(state, s) and s not in intercepted:
                out.append({"action": "interrogate", "card": c["card"], "target": s})


def _monitor_attacks(state: State, seat: int, c: Committed, opps: list[int], out: list[dict[str, Any]]) -> None:
    """A ship in an island refuge, not intercepted this turn."""
    intercepted = state["tt"]["intercepted"]
    for o in opps:
        for s in player(state, o)["ships"]:
            if in_refuge(state, s) and s not in intercepted:
                out.append({"action": "monitor", "card": c["card"], "target": s})


# the action card types that attack, and their attacks (``_action_side_attacks``)
_ATTACK_SIDES: dict[str, Callable[[State, int, Committed, list[int], list[dict[str, Any]]], None]] = {
    "lay-mines": _lay_mines_attacks,
    "submarines-u-27-u-41": _submarine_attacks, "submarines-uc-16-uc-29": _submarine_attacks,
    "interrogate": _interrogate_attacks, "monitor": _monitor_attacks,
}


def announce(step: Step, seat: int, d: dict[str, Any]) -> None:
    state = step.state
    i = ix(state)
    a = d["action"]
    card = d["card"]
    step.emit("CardRevealed", {"seat": seat, "card": card, "name": i.card_name[card],
              "use": "intercept" if a == "intercept" else "action"})
    base = {"seat": seat, "card": card, "ship": d.get("ship")}
    if a == "intercept":
        target = d["target"]
        opp = owner(state, target)
        kind = "intercept" if d.get("ship") else "british"
        step.emit("AttackAnnounced", {"kind": kind, "opp": opp, "targets": [target],
                  "night": i.ctype(card)["intercept"]["night"], **base})
    elif a in ("lay_mines", "sub_mines"):
        opp = d["opponent"]
        by = {} if a == "lay_mines" or not state.get("issue33") else {"by": i.card_name[card]}  # a UC-boat (3.3.43)
        step.emit("AttackAnnounced", {"kind": "mines", "opp": opp, "targets": list(player(state, opp)["merchants"]),
                  "night": False, **base, **by})
    elif a == "torpedo":
        opp = owner(state, d["target"])
        by = {"by": i.card_name[card]} if state.get("issue33") else {}
        step.emit("AttackAnnounced", {"kind": "torpedo", "opp": opp, "targets": [d["target"]], "night": False, **by, **base})
        if d["target"] in player(state, opp)["prizes"]:  # type: ignore[arg-type]  # (the target's owner)
            step.emit("EngagementAdvanced", {"stage": "challenge", "i": 0})
    elif a == "interrogate":
        step.emit("AttackAnnounced", {"kind": "interrogate", "opp": owner(state, d["target"]),
                  "targets": [d["target"]], "night": False, **base})
        step.emit("EngagementAdvanced", {"stage": "challenge", "i": 0})
    elif a == "monitor":
        step.emit("AttackAnnounced", {"kind": "monitor", "opp": owner(state, d["target"]),
                  "targets": [d["target"]], "night": False, **base})
    advance(step)


# the answers in an attack's windows -----------------------------------------------


def window_decide(step: Step, seat: int, d: dict[str, Any]) -> None:
    """A decision in one of an attack's windows (``window_options``), then the attack
    goes on (``advance``) unless the window stays open."""
    decided = _DECIDED.get(step.state["window"]["kind"])
    if decided is not None and decided(step, seat, d):
        return
    advance(step)


def _assist_decided(step: Step, seat: int, d: dict[str, Any]) -> bool:
    """3.2.1: an assist card revealed (the window stays open while another may join:
    True), or ``proceed``."""
    state = step.state
    if d["action"] == "proceed":
        step.emit("WindowClosed", {"seat": seat, "kind": "assist"}, vis=[seat])
        step.emit("EngagementAdvanced", {"stage": "react", "i": state["eng"]["i"]})
        return False
    card = d["card"]
    i = ix(state)
    t = i.card_type[card]
    eng = state["eng"]
    extra = {}
    if t == "boarding-party":
        extra["target"] = eng["targets"][eng["i"]]
    elif t == "good-hunting":
        extra["targets"] = [d["target"]]
    elif t == "shipping-lanes":
        extra["targets"] = [m for m in player(state, eng["opp"])["merchants"]
                            if m not in state["tt"]["intercepted"] and m not in state["tt"]["ignored"]]
    step.emit("AssistRevealed", {"seat": seat, "card": card, "ctype": t, "name": i.card_name[card], **extra})
    if assist_window(state) if state.get("issue33") else assist_options(state):
        return True     # the window stays open while the table cannot rule out another assist
    step.emit("WindowClosed", {"seat": seat, "kind": "assist"}, vis=[seat])
    step.emit("EngagementAdvanced", {"stage": "react", "i": eng["i"]})
    return False


def _passage_decided(step: Step, seat: int, d: dict[str, Any]) -> bool:
    """3.2.6: the survivor's owner tries passage or not."""
    eng = step.state["eng"]
    pas = eng["passage"]
    if d["attempt"]:
        step.emit("PassageAttempted", {"seat": seat, "ship": pas["ship"]})
        passage(step, pas["ship"], pas["bonus"], pas["why"])
    else:
        step.emit("PassageDeclined", {"seat": seat, "ship": pas["ship"]})
    step.emit("EngagementAdvanced", {"stage": "next", "i": eng["i"]})
    return False


def _pursuit_decided(step: Step, seat: int, d: dict[str, Any]) -> bool:
    """6.6.1 / 6.10: the attacker follows the Fast Ship or over the shoals, or not."""
    eng = step.state["eng"]
    step.emit("PursuitChosen", {"seat": seat, "pursue": d["pursue"], "ship": eng["ship"],
              "target": eng["targets"][eng["i"]], "against": eng["reaction"]["type"]})
    step.emit("EngagementAdvanced", {"stage": "resolve", "i": eng["i"]})
    return False


def _mine_target_decided(step: Step, seat: int, d: dict[str, Any]) -> bool:
    """Mines attack every merchant (3.3.21): the attacker picks which one is next."""
    step.emit("WindowClosed", {"seat": seat, "kind": "order"})
    step.emit("MineTargetChosen", {"target": d["target"]})
    step.emit("EngagementAdvanced", {"stage": "resolve", "i": step.state["eng"]["i"]})
    return False


def _reflag_decided(step: Step, seat: int, d: dict[str, Any]) -> bool:
    """3.3.32: a ship just revealed is disguised again with Reflag, or not (True: the
    attack is over, nothing to carry on)."""
    state = step.state
    if d["action"] == "decline":
        step.emit("ReactionDeclined", {"seat": seat, "kind": "reflag", "ships": state["window"]["ships"]})
    else:
        step.emit("ReactionPlayed", {"seat": seat, "card": d["card"], "ctype": "reflag", "name": ix(state).card_name[d["card"]],
                  "against": "reveal", "ship": d["ship"]})
        step.emit("ShipDisguised", {"ship": d["ship"], "why": "Reflag"})
    return state["eng"] is None


def _reaction_decided(step: Step, seat: int, d: dict[str, Any]) -> bool:
    """3.2.2: the defender's reaction to the attack (``react``) or to a sinking
    (``after``), or none."""
    state = step.state
    k = state["window"]["kind"]
    eng = state["eng"]
    tgt = eng["targets"][eng["i"]]
    if d["action"] == "decline":
        step.emit("ReactionDeclined", {"seat": seat, "kind": k, "target": tgt})
        nxt = "next" if k == "after" else ("order" if eng["kind"] == "mines" else "resolve")
        step.emit("EngagementAdvanced", {"stage": nxt, "i": eng["i"]})
        return False
    i = ix(state)
    t = i.card_type[d["card"]]
    step.emit("ReactionPlayed", {"seat": seat, "card": d["card"], "ctype": t, "name": i.card_name[d["card"]],
              "against": "attack" if k == "react" else "sinking", "target": tgt})
    if k == "react" and eng["kind"] == "mines":
        step.emit("MinesSwept", {"opp": eng["opp"]})
        step.emit("EngagementEnded", {"kind": "mines", "seat": eng["seat"]})
    elif k == "react" and optional.can_pursue(state, t):
        # 6.6.1 / 6.10: the attacker may follow
        step.emit("EngagementAdvanced", {"stage": "pursue", "i": eng["i"]})
    elif k == "react":
        step.emit("EngagementAdvanced", {"stage": "resolve", "i": eng["i"]})
    else:
        after_reaction(step, t, d)
        if state["eng"] is not None:
            step.emit("EngagementAdvanced", {"stage": "next", "i": eng["i"]})
    return False


_DECIDED = {"assist": _assist_decided, "passage": _passage_decided, "pursue": _pursuit_decided,
            "order": _mine_target_decided, "reflag": _reflag_decided, "react": _reaction_decided,
            "after": _reaction_decided}


# the engine -----------------------------------------------------------------
def advance(step: Step) -> None:
    state = step.state
    while state["eng"] is not None and state["window"] is None:
        eng = state["eng"]
        stage = eng["stage"]
        if stage == "challenge" and eng["kind"] == "torpedo":
            torpedo_prize_challenge(step)
        elif stage == "challenge":
            interrogate_challenge(step)
        elif stage == "assist":
            # Whether the attacker holds a fitting assist is hidden: who is to act is
            # public, so the window opens whenever the table cannot rule one out among
            # the action-side cards face down, even when only "proceed" is possible.
            if eng["kind"] in ASSISTED and (assist_window(state) if state.get("issue33")
                                            else committed(state, "action")):
                step.emit("WindowOpened", {"kind": "assist", "seat": eng["seat"],
                          "target": eng["targets"][eng["i"]]}, vis=[eng["seat"]])
            else:
                step.emit("EngagementAdvanced", {"stage": "react", "i": eng["i"]})
        elif stage == "react":
            if eng["kind"] == "mines" and eng["i"] > 0:
                step.emit("EngagementAdvanced", {"stage": "order", "i": eng["i"]})
            elif reaction_types(state) and (state["players"][eng["opp"] - 1]["hand"] or _phantom(state, eng["opp"])):
                step.emit("WindowOpened", {"kind": "react", "seat": eng["opp"], "target": eng["targets"][eng["i"]],
                          "attack": eng["kind"]})
            else:
                step.emit("EngagementAdvanced", {"stage": "order" if eng["kind"] == "mines" else "resolve",
                          "i": eng["i"]})
        elif stage == "order":
            live = live_mine_targets(state, eng["i"])
            if not live:
                _finish(step)
            elif len(live) > 1:
                step.emit("WindowOpened", {"kind": "order", "seat": eng["seat"]})
            else:
                step.emit("MineTargetChosen", {"target": live[0]})
                step.emit("EngagementAdvanced", {"stage": "resolve", "i": eng["i"]})
        elif stage == "resolve":
            sunk = resolve(step)
            if state["eng"] is None:
                break
            if eng["passage"] is not None:
                step.emit("EngagementAdvanced", {"stage": "passage", "i": eng["i"]})
                step.emit("WindowOpened", {"kind": "passage", "seat": eng["passage"]["seat"], "ship": eng["passage"]["ship"]})
            elif sunk and _after_window(state):
                step.emit("EngagementAdvanced", {"stage": "after", "i": eng["i"]})
                step.emit("WindowOpened", {"kind": "after", "seat": eng["opp"], "target": eng["targets"][eng["i"]]})
            else:
                step.emit("EngagementAdvanced", {"stage": "next", "i": eng["i"]})
        elif stage == "pursue":
            step.emit("WindowOpened", {"kind": "pursue", "seat": eng["seat"], "target": eng["targets"][eng["i"]],
                      "against": eng["reaction"]["type"]})
        elif stage in ("after", "passage"):
            step.emit("EngagementAdvanced", {"stage": "next", "i": eng["i"]})
        elif stage == "next":
            _next_target(step)


def _phantom(state: State, seat: int) -> bool:
    """Solitaire: the phantom answers every attack from the solitaire deck (5.3.3), hand or not."""
    return state.get("solo") is not None and seat == 2


def _after_window(state: State) -> bool:
    """Whether the defender is asked after a sinking: by the situation and a hand (hand
    sizes are public); the phantom only for the Recalled its defence drew (5.3.3)."""
    eng = state["eng"]
    if _phantom(state, eng["opp"]) and state.get("issue33"):
        return eng.get("recall") == eng["targets"][eng["i"]] and eng["ship"] in player(state, eng["seat"])["ships"]
    return bool(state["players"][eng["opp"] - 1]["hand"]) and _after_possible(state)


def _after_possible(state: State) -> bool:
    """Some after-sinking reaction applies (by the situation, not by the hand).
    3.2.2: one reaction card only against each intercept or action card: none
    after a reaction to this target (Good Hunting / Shipping Lanes: each
    merchant is answered on its own) or, for mines, to this mine laying."""
    eng = state["eng"]
    if eng["kind"] == "mines":
        if eng["reacted"]:
            return False
    elif eng["targets"][eng["i"]] in eng["reacted"]:
        return False
    if eng["kind"] == "intercept" and eng["ship"] in player(state, eng["seat"])["ships"]:
        return True
    return any(e["deck"] == "merchant" and not e.get("passage") for e in player(state, eng["opp"])["vp"])


def _next_target(step: Step) -> None:
    state = step.state
    eng = state["eng"]
    players = state["players"]
    i = eng["i"] + 1
    if eng["kind"] == "intercept" and eng["ship"] not in players[eng["seat"] - 1]["ships"]:
        return _finish(step)
    if eng["kind"] == "mines":
        if live_mine_targets(state, i):
            step.emit("EngagementAdvanced", {"stage": "order", "i": i})
            return
        return _finish(step)
    mer = players[eng["opp"] - 1]["merchants"]
    while i < len(eng["targets"]) and eng["targets"][i] not in mer:
        i += 1
    if i >= len(eng["targets"]):
        return _finish(step)
    step.emit("EngagementAdvanced", {"stage": "assist", "i": i})


def _finish(step: Step) -> None:
    state = step.state
    eng = state["eng"]
    reveal = eng.get("reveal")
    if reveal:          # (most attacks leave none: no comprehension's call for an empty list)
        reveal = [s for s in reveal if state["status"].get(s) is not None]
    else:
        reveal = []
    step.emit("EngagementEnded", {"kind": eng["kind"], "seat": eng["seat"]})
    shown = []
    for s in reveal:
        if not state["status"][s]["revealed"]:
            step.emit("ShipRevealed", {"ship": s, "why": "at the end of the intercept"})
        shown.append(s)
    if eng["kind"] == "interrogate" and eng["targets"][0] in state["status"] \
            and state["status"][eng["targets"][0]]["revealed"] and not eng["reacted"]:
        # 3.3.19: Reflag only once the intercept is resolved, and 3.2.2: one reaction
        # to the Interrogate card: none if the defender already answered its intercept
        shown.append(eng["targets"][0])
    if not shown:       # (most attacks reveal nothing: no owners to sort)
        return
    # Reflag's special timing: the owner of a ship just revealed may hide it at once
    by_owner: dict[int, list[str]] = {}
    for s in shown:
        o = owner(state, s)
        if o is not None:
            by_owner.setdefault(o, []).append(s)
    for o, ships in sorted(by_owner.items()):
        hand = player(state, o)["hand"]
        if hand and (not state.get("issue33") or may_hold(state, o, ("reflag",), hand)):     # (skipped: nothing the table learns)
            step.emit("WindowOpened", {"kind": "reflag", "seat": o, "ships": ships})
            return


# how each event decided here changes the state (``evolve``) -----------------------------------
def _attack_announced(state: State, d: dict[str, Any], ev: Ev) -> None:
    tt = state["tt"]
    eng = dict(d)
    eng["targets"] = list(d["targets"])  # the state's own list: Good Hunting adds to it, never to the event's
    eng.update({"i": 0, "stage": "assist", "surprise": False, "searchlight": False, "special": False,
                "boarding": [], "multi": None, "reaction": None, "reveal": [], "passage": None,
                "reacted": []})
    state["eng"] = eng  # type: ignore[typeddict-item]  # AttackAnnounced's data and the keys above
    if d["kind"] in ("intercept", "british", "interrogate", "monitor", "mines", "torpedo"):
        tt["attack_on"] = d["opp"]
    if d.get("ship"):
        tt["used"].append(d["ship"])
    # 3.1.3: an Interrogate counts as the ship's one intercept only once it succeeds
    if d["kind"] in ("intercept", "british", "monitor"):
        tt["intercepted"] += [t for t in d["targets"] if t not in tt["intercepted"]]


def _assist_revealed(state: State, d: dict[str, Any], ev: Ev) -> None:
    eng = state["eng"]
    kind = d["ctype"]
    if kind == "surprise-attack":
        eng["surprise"] = True
    elif kind == "searchlight":
        eng["searchlight"] = True
    elif kind == "special-cargo":
        eng["special"] = True
    elif kind == "boarding-party":
        eng["boarding"].append(d["target"])
    elif kind in ("good-hunting", "shipping-lanes"):
        eng["multi"] = kind
        for t in d["targets"]:
            if t not in eng["targets"]:
                eng["targets"].append(t)
            if t not in state["tt"]["intercepted"]:
                state["tt"]["intercepted"].append(t)
    card_revealed(state, d, ev)


def _engagement_advanced(state: State, d: dict[str, Any], ev: Ev) -> None:
    eng = state["eng"]
    eng["stage"] = d["stage"]
    eng["i"] = d["i"]
    if d["stage"] == "assist":
        eng["reaction"] = None


def _mine_target_chosen(state: State, d: dict[str, Any], ev: Ev) -> None:
    eng = state["eng"]
    eng["targets"].remove(d["target"])
    eng["targets"].insert(eng["i"], d["target"])


def _passage_answered(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["window"] = None
    if state["eng"] is not None:
        state["eng"]["passage"] = None


def _engagement_ended(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["eng"] = None  # type: ignore[typeddict-item]  # between attacks (shapes.State)


def _pursuit_chosen(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["window"] = None
    state["eng"]["pursue"] = d["pursue"]


HANDLERS = {
    "AttackAnnounced": _attack_announced,
    "AssistRevealed": _assist_revealed,
    "EngagementAdvanced": _engagement_advanced,
    "EngagementEnded": _engagement_ended,
    "MineTargetChosen": _mine_target_chosen,
    "PassageAttempted": _passage_answered,
    "PassageDeclined": _passage_answered,
    "PursuitChosen": _pursuit_chosen,
}

"""A fight's boarding and its end (the book: "Combattimento fra equipaggi", p. 14; the
Swivel Gun, "Acquistare tessere upgrade", p. 7; "Depredare", p. 15: plundering a
player's ship, a naval NPC's and a pirate NPC's, claiming the ship; "Ricompense", p. 11;
"Morte", p. 15, a beaten captain dies). ``end`` hands the fight's end back to the flow:
``END_TURN`` (the current player died), the next NPC of the zone that found him
(``(npc, seat)``: a new fight), or ``CARRY_ON``.
"""

from __future__ import annotations

from . import glory
from . import npc as npc_rules
from .abilities import dice as skill_dice
from .captains import captain_dies
from .catalog import tables
from .mechanics import bank_pays, gain_glory, numbers, successes
from .readings import reading
from .state import (CARRY_ON, END_TURN, capacity, is_npc, is_pirate, nation_of, other_side as _other, player, ship_max,
                    side, side_name as name, upgrade_tile as tile)
from .wanted import gain_flag
from .war import bounty_refused

TYPE_CHECKING = False   # (the imports below are the type checker's: none at run time)
if TYPE_CHECKING:
    from collections.abc import Callable
    from service.kernel.events import Ev
    from service.kernel.machine import Step
    from typing import Any
    from .shapes import Decision, Outcome, State, Who


def for_side(fn: Callable[[Step, Who, Decision], Outcome]) -> Callable[[Step, int, Decision], Outcome]:
    """A decision is made by a seat for the side it acts for (itself, or an NPC it controls)."""
    return lambda step, seat, d: fn(step, step.state["combat"]["waiting"], d)


def board(step: Step) -> Outcome:
    """A boarding succeeded: the Swivel Guns fire, then crew combat."""
    _swivel_guns(step)
    return crew_round(step)


def plunder_choices(state: State, seat: Who) -> list[Decision]:
    """The winner's plunder: a cargo card of the beaten ship while one fits, or done."""
    c = state["combat"]
    p = side(state, seat)
    out = []
    if len(p["cargo"]) < capacity(state, p):
        out = [{"action": "plunder_cargo", "card": x} for x in sorted(side(state, c["loser"])["cargo"])]  # type: ignore[arg-type]  # (decided)
    return out + [{"action": "plunder_done"}]


def _swivel_guns(step: Step) -> None:
    """Swivel Gun: before crew combat at sea, 2 dice; any success kills one of the other crew."""
    state = step.state
    c = state["combat"]
    S = tables(state)
    for seat in (c["a"], c["d"]):
        if tile(state, side(state, seat), "swivel_gun"):
            dice = step.roll(S["die_sides"], 2, vis="all", why=f"seat {seat}: Swivel Gun",
                             faces={"skull": S["die_sides"]})
            step.emit("SwivelGunFired", {"seat": seat, "dice": dice})
            other = _other(c, seat)
            if successes(state, dice) and side(state, other)["ship"]["crew"] > 0:
                step.emit("ShipHit", {"seat": other, "location": "crew", "aimed": "crew", "why": "Swivel Gun"})


def crew_round(step: Step) -> Outcome:
    """Rounds of Leadership rolls until a crew is gone: each side inflicts its
    successes on the other's crew, no more than its own crew (the book, PT: "ela só
    pode infligir 2 pela quantidade de tripulacao"). Both gone in one round: more
    successes, then the higher sum of the other dice; still even, nobody wins.
    The book: "Combattimento fra equipaggi", p. 14."""
    state = step.state
    c = state["combat"]
    a, d = side(state, c["a"]), side(state, c["d"])
    for p, other in ((a, d), (d, a)):            # a crew already gone loses at once
        if p["ship"]["crew"] <= 0:
            if other["ship"]["crew"] > 0:
                return defeated(step, other["seat"], p["seat"], plunder=True)
            return end(step, None, [])
    return _crew_roll(step, 1)


def _crew_roll(step: Step, rnd: int) -> Outcome:
    """One round of crew combat: both roll; glory cards of the phase (rules version 4);
    then the hits."""
    state = step.state
    c = state["combat"]
    S = tables(state)
    if rnd >= 100:
        raise RuntimeError("crew combat does not come to an end")
    for who in (c["a"], c["d"]):
        n = skill_dice(state, side(state, who), "leadership")
        dice = step.roll(S["die_sides"], n, vis="all", why=f"{name(who)}: Leadership, crew combat round {rnd}",
                         faces={"skull": S["die_sides"]})
        step.emit("CombatRolled", {"seat": who, "skill": "leadership", "dice": dice, "round": rnd})
    if glory.open_window(step, "crew_roll"):
        return None
    return crew_settle(step)


def crew_settle(step: Step) -> Outcome:
    state = step.state
    c = state["combat"]
    a, d = side(state, c["a"]), side(state, c["d"])
    rolled = {c["a"]: c["dice"]["a"], c["d"]: c["dice"]["d"]}
    dealt = {who: min(successes(state, dice), side(state, who)["ship"]["crew"]) for who, dice in rolled.items()}
    for who, n in dealt.items():
        target = _other(c, who)
        for _ in range(min(n, side(state, target)["ship"]["crew"])):
            step.emit("ShipHit", {"seat": target, "location": "crew", "aimed": "crew", "why": "crew combat"})
    out = [p["seat"] for p in (a, d) if p["ship"]["crew"] <= 0]
    if len(out) == 1:
        return defeated(step, _other(c, out[0]), out[0], plunder=True)
    if out:
        sa, sd = successes(state, rolled[c["a"]]), successes(state, rolled[c["d"]])
        na, nd = numbers(state, rolled[c["a"]]), numbers(state, rolled[c["d"]])
        if (sa, na) == (sd, nd):
            step.emit("CrewCombatDrawn", {"why": "both crews lost with the same successes and numbers"})
            return end(step, None, [])
        win = c["a"] if (sa, na) > (sd, nd) else c["d"]
        return defeated(step, win, _other(c, win), plunder=True)
    return _crew_roll(step, c["crew_round"] + 1)


def defeated(step: Step, win: Who, lose: Who, plunder: bool) -> Outcome:
    """The winner has beaten a ship: a player earns a glory point and card (rules version
    5); a flag if it was not a pirate (with ``second_flag=warship``, the Portuguese
    "Derrotando um navio de guerra", only for a naval NPC), the bounties if it was (but
    from nations that want the winner); then plunder and the claim. The book: "Acquisire
    carte Gloria", p. 12 ("Sconfitto un giocatore o un NPC (Sopravvivendo e vincendo un
    combattimento navale o fra equipaggi)"); "Ricompense", p. 11."""
    state = step.state
    w, l = side(state, win), side(state, lose)
    step.emit("CombatWon", {"seat": win, "beaten": lose, "how": "crew combat" if plunder else "sunk"})
    if is_npc(win):                     # an NPC takes nothing: the beaten captain dies
        return end(step, win, [lose])
    if state.get("combat_fixes"):
        gain_glory(step, win, f"defeated {name(lose)}")
    if is_npc(lose):
        return _beat_npc(step, win, lose, plunder)
    if is_pirate(l):
        # no bounty from a nation at war with the winner's (war.py)
        pay = {n: 5 * k for n, k in sorted(l["flags"].items()) if k and not w["flags"].get(n)
               and not bounty_refused(state, nation_of(state, w), n)}
        total = sum(pay.values())
        if total:
            step.emit("GoldReceived", {"seat": win, "amount": bank_pays(state, total), "why": "bounty", "by_nation": pay})
    elif reading(state, "second_flag") == "any_ship":     # the IT; the PT: a warship only (_beat_npc)
        gain_flag(step, win, nation_of(state, l), "defeating a non-pirate ship")  # type: ignore[arg-type]  # (no pirate: a nation)
    if plunder:
        return _plunder(step, win, lose)
    return end(step, win, [lose])


def _beat_npc(step: Step, win: int, lose: str, plunder: bool) -> Outcome:
    """A naval NPC beaten: a flag of its nation; beaten in crew combat, three cargo cards
    give their loot, one is lost at random per hit its hold took, the rest may be kept.
    A pirate NPC beaten by a non-pirate: its bounty. Either may then be claimed.
    The book: "Depredare le navi militari (NPC)", p. 15."""
    state = step.state
    w, l = side(state, win), side(state, lose)
    S = tables(state)
    if l["npc_pirate"]:
        if not is_pirate(w):
            pay = S["rules"]["npc_pirate_bounty"][l["ship"]["type"]]
            step.emit("GoldReceived", {"seat": win, "amount": bank_pays(state, pay), "why": "bounty",
                      "by_nation": {"pirates": pay}})
    else:
        gain_flag(step, win, nation_of(state, l), "defeating a non-pirate ship")  # type: ignore[arg-type]  # (no pirate: a nation)
    if not plunder:
        return end(step, win, [lose])
    if not l["npc_pirate"]:
        decks = state["decks"]
        for k in range(3):
            if not decks["cargo"] and decks["cargo_discard"]:
                step.emit("CargoDeckReshuffled", {"cards": len(decks["cargo_discard"])})
            if not decks["cargo"]:
                break
            card = step.draw("cargo", decks["cargo"], vis="all", why=f"plunder of the naval ship: cargo card {k + 1}")
            step.emit("NpcCargoFound", {"npc": lose, "card": card, "good": S["good"][card], "raid": S["cargo"][card]["raid"]})
        loot = sum(S["cargo"][x]["raid"] for x in l["cargo"])
        step.emit("GoldReceived", {"seat": win, "amount": bank_pays(state, loot), "why": "plunder of a naval ship"})
        lost = ship_max(state, l["ship"], "cargo") - l["ship"]["cargo"]
        for _ in range(min(lost, len(l["cargo"]))):
            if state.get("draws_ties") and len(set(l["cargo"])) == 1:     # one card left: no draw (version 6)
                x = l["cargo"][0]
            else:
                x = step.pick(sorted(l["cargo"]), vis="all", why="a cargo card lost with a hit on the hold")
            step.emit("NpcCargoLost", {"npc": lose, "card": x})
    step.emit("CombatWaiting", {"seat": win, "stage": "plunder"})
    return _claim_when_nothing_fits(step, win)


def _plunder(step: Step, win: Who, lose: Who) -> Outcome:
    """Gold aboard, glory cards, the rumor, special weapons and specialists pass to
    the winner (what the beaten captain held is shown to the two of them); then the
    cargo cards that fit, chosen one by one; then the ship may be claimed.
    The book: "Depredare le navi dei giocatori", p. 15."""
    state = step.state
    w, l = side(state, win), side(state, lose)
    S = tables(state)
    weapons = sorted(k for k in l["weapons"] if k not in w["weapons"])
    have = {S["glory"][g]["specialist"] for g in w["specialists"]}
    specialists = [g for g in l["specialists"] if S["glory"][g]["specialist"] not in have]
    held = len(l["hand"])               # counted before the cards move (rules version 5)
    step.emit("Plundered", {"seat": win, "beaten": lose, "gold": l["gold"], "glory_cards": list(l["hand"]),
              "rumor": l["rumor"] if w["rumor"] is None else None, "weapons": weapons, "specialists": specialists},
              vis=sorted([win, lose]))  # type: ignore[list-item]  # two players: an NPC is never plundered so
    step.emit("PlunderTaken", {"seat": win, "beaten": lose, "glory_count": held if state.get("combat_fixes") else len(l["hand"]),
              "weapons": weapons, "specialists": specialists})
    step.emit("CombatWaiting", {"seat": win, "stage": "plunder"})
    return _claim_when_nothing_fits(step, win)


def do_plunder_cargo(step: Step, seat: Who, d: dict[str, Any]) -> Outcome:
    c = step.state["combat"]
    if is_npc(c["loser"]):              # a naval ship's cards lie face up
        step.emit("CargoPlundered", {"seat": seat, "beaten": c["loser"], "card": d["card"],
                  "good": tables(step.state)["good"][d["card"]]})
    else:
        step.emit("CargoPlundered", {"seat": seat, "beaten": c["loser"], "card": d["card"],
                  "good": tables(step.state)["good"][d["card"]]},
                  vis=sorted([seat, c["loser"]]))  # type: ignore[list-item]  # two players (an NPC's: above)
        step.emit("CargoPlunderedCount", {"seat": seat, "beaten": c["loser"]})
    return _claim_when_nothing_fits(step, seat)


def _claim_when_nothing_fits(step: Step, win: Who) -> Outcome:
    """The cargo plunder closes by itself when no card is left to take or none fits."""
    if len(plunder_choices(step.state, win)) == 1:          # only plunder_done
        step.emit("CombatWaiting", {"seat": win, "stage": "claim"})
    return None


def do_plunder_done(step: Step, seat: Who, d: dict[str, Any]) -> None:
    step.emit("CombatWaiting", {"seat": seat, "stage": "claim"})


def do_claim_ship(step: Step, seat: Who, d: dict[str, Any]) -> Outcome:
    """The book: "Reclamare una nave", p. 15."""
    state = step.state
    c = state["combat"]
    lose = c["loser"]
    if d["claim"]:
        l = side(state, lose)
        step.emit("ShipClaimed", {"seat": seat, "ship": l["ship"]["type"], "upgrades_left": list(l["ship"].get("upgrades", [])),
                  "old": side(state, seat)["ship"]["type"], "old_upgrades": list(side(state, seat)["ship"]["upgrades"])})
    return end(step, seat, [lose])


def end(step: Step, win: Who | None, dead: list[Who]) -> Outcome:
    """The fight is over: the dead captains leave (an NPC's captain: npc.py); what comes
    next is handed back (see the module's text)."""
    state = step.state
    cur = state["order"][state["cur"]]
    step.emit("CombatEnded", {"winner": win, "dead": list(dead)})
    for who in dead:
        if is_npc(who):
            npc_rules.captain_lost(step, who[4:])
        else:
            captain_dies(step, who, "beaten in combat")
    if cur in dead:
        return END_TURN
    if state.get("npc_queue"):          # other NPCs of the zone that spotted the player
        found = npc_rules.scout_on(step)
        if found is not None:
            return found                # another fight (the flow begins it)
    return CARRY_ON


HANDLERS = {k: for_side(v) for k, v in {"plunder_cargo": do_plunder_cargo, "plunder_done": do_plunder_done,
                                         "claim_ship": do_claim_ship}.items()}


# the events ---------------------------------------------------------------------------

def _boarded(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["combat"]["kind"] = "crew"


def _combat_won(state: State, d: dict[str, Any], ev: Ev) -> None:
    c = state["combat"]
    c["winner"], c["loser"] = d["seat"], d["beaten"]


def _plundered(state: State, d: dict[str, Any], ev: Ev) -> None:
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


def _cargo_plundered(state: State, d: dict[str, Any], ev: Ev) -> None:
    side(state, d["beaten"])["cargo"].remove(d["card"])
    player(state, d["seat"])["cargo"].append(d["card"])


def _ship_claimed(state: State, d: dict[str, Any], ev: Ev) -> None:
    c = state["combat"]
    w, l = player(state, d["seat"]), side(state, c["loser"])  # type: ignore[arg-type]  # (the fight decided: a loser)
    w["returning"].extend(w["ship"]["upgrades"])     # the old ship's tiles go back to ports
    if "returning" in l:                             # (an NPC's ship has none)
        l["returning"].extend(l["ship"]["upgrades"])  # the claimed ship comes without its tiles
    w["ship"] = {**l["ship"], "upgrades": [], "flipped": []}
    l["ship"] = {**l["ship"], "upgrades": []}
    w["glory_ship"] = False


def _combat_ended(state: State, d: dict[str, Any], ev: Ev) -> None:
    S = tables(state)
    for seat in (state["combat"]["a"], state["combat"]["d"]):    # a Bow Cannon turns face up again
        if isinstance(seat, str):
            continue                                              # an NPC is repaired after a fight
        ship = player(state, seat)["ship"]
        if ship is not None:
            ship["flipped"] = [t for t in ship["flipped"] if S["upgrade"][t] != "bow_cannon"]
    npc = state["combat"].get("npc")
    if npc is not None:                  # the NPC's cards found and not taken go to the discards
        state["decks"]["cargo_discard"].extend(npc["cargo"])
    state["combat"] = None  # type: ignore[typeddict-item]  # (None: it is over; shapes.py)


APPLY = {
    "Boarded": _boarded,
    "CombatWon": _combat_won,
    "Plundered": _plundered,
    "CargoPlundered": _cargo_plundered,
    "ShipClaimed": _ship_claimed,
    "CombatEnded": _combat_ended,
}

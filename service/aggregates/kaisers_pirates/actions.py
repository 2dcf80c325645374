"""The action side of the cards that are not attacks (3.3): which plays are legal
(``play_options``), whether one can change anything (``has_effect``), and each
card's effect (``EFFECTS``); Reflag against Interned and Transfer Command
(3.3.32); Intelligence's new order of the deck (3.3.17); the island refuge's
turns (3.3.20); Recon Aircraft against the phantom (5.3.2); a prize's stores
(6.12). The events these decide are applied here (``HANDLERS``)."""

from __future__ import annotations

import itertools

from . import optional, team
from .board import PHANTOM, in_refuge, is_prize, is_raider, ix, may_hold, opponents, other_ok, owner, recognised
from .deal import draw_ship
from .dice import challenge, respond_seat, roll
from .hits import refuge_card_off, ship_status
from .resolve import passage
from .state import player, pool_left, real_card

TYPE_CHECKING = False  # mypy takes the name as true; typing is not imported at run time
if TYPE_CHECKING:
    from typing import Any

    from collections.abc import Callable
    from service.kernel.events import Ev
    from service.kernel.machine import Step

    from .shapes import State


def own_ships(state: State, seat: int) -> list[str]:
    p = player(state, seat)
    return p["ships"] + p["prizes"] + p["merchants"]


def play_options(state: State, seat: int, card: str) -> list[dict[str, Any]]:
    """Every way to play ``card``'s action side now (empty: not playable). A play the book
    allows is listed even when it can have no effect (Collier with nothing short of
    supply, Recon Aircraft against an empty hand...): ``has_effect`` tells bots and
    Deception (3.3.10) which plays do something."""
    plays = _PLAYS.get(ix(state).tid(card))
    if plays is None:
        return []
    return plays(state, seat, {"action": "play", "card": card})


# the plays of each card type, by what the card is played on (``_PLAYS``) -----------------
def _on_nothing(state: State, seat: int, base: dict[str, Any]) -> list[dict[str, Any]]:
    """Blockade Runner, Collier, Breakout: played as they are."""
    return [base]


def _second_chance_plays(state: State, seat: int, base: dict[str, Any]) -> list[dict[str, Any]]:
    """Not in an extra turn, nor twice a turn."""
    if not state["extra_turn"] and not state["tt"]["second_chance"]:
        return [base]
    return []


def _wireless_intercept_plays(state: State, seat: int, base: dict[str, Any]) -> list[dict[str, Any]]:
    """Once a turn, not in an extra turn, nor in two of the seat's turns running."""
    tt = state["tt"]
    if not tt["wireless"] and not state["extra_turn"] and \
            player(state, seat)["wireless_turn"] != tt.get("own_prev", -1):
        return [base]
    return []


def _on_undamaged_enemy_ship(state: State, seat: int, base: dict[str, Any]) -> list[dict[str, Any]]:
    """Breakdown: an opponent's undamaged warship or raider."""
    st = state["status"]
    out: list[dict[str, Any]] = []
    for o in opponents(state, seat):
        if other_ok(state, seat, o):
            out += [dict(base, target=s) for s in player(state, o)["ships"] if not st[s]["damaged"]]
    return out


def _on_recognised_enemy_ship(state: State, seat: int, base: dict[str, Any]) -> list[dict[str, Any]]:
    """Interned, Transfer Command (3.3.18, 3.3.45): a warship, a revealed raider or a revealed
    prize (a disguised ship "non può essere" singled out: 3.2.3, and Reflag answers both cards)."""
    out: list[dict[str, Any]] = []
    for o in opponents(state, seat):
        if other_ok(state, seat, o):
            q = player(state, o)
            out += [dict(base, target=s) for s in q["ships"] + q["prizes"] if recognised(state, s)]
    return out


def _on_free_opponent(state: State, seat: int, base: dict[str, Any]) -> list[dict[str, Any]]:
    """Deception, Fog Bank: an opponent with no card placed on it yet."""
    return [dict(base, opponent=o) for o in opponents(state, seat)
            if other_ok(state, seat, o) and player(state, o)["pending"] is None]


def _heavy_weather_plays(state: State, seat: int, base: dict[str, Any]) -> list[dict[str, Any]]:
    """An opponent, one in a fog bank too (``board.other_ok``)."""
    return [dict(base, opponent=o) for o in opponents(state, seat) if other_ok(state, seat, o, heavy_weather=True)]


def _on_opponent(state: State, seat: int, base: dict[str, Any]) -> list[dict[str, Any]]:
    """Recon Aircraft, Rendezvous Missed: an opponent."""
    return [dict(base, opponent=o) for o in opponents(state, seat) if other_ok(state, seat, o)]


def _intelligence_plays(state: State, seat: int, base: dict[str, Any]) -> list[dict[str, Any]]:
    """The deck (while a card is left in it), or an opponent's hand."""
    out: list[dict[str, Any]] = []
    if pool_left(state) or state["top"]:
        out.append(dict(base, deck=True))
    out += _on_opponent(state, seat, base)
    return out


def _damage_control_plays(state: State, seat: int, base: dict[str, Any]) -> list[dict[str, Any]]:
    """One of the seat's damaged ships, merchants or prizes."""
    st = state["status"]
    return [dict(base, ship=s) for s in own_ships(state, seat) if st[s]["damaged"]]


def _fair_seas_plays(state: State, seat: int, base: dict[str, Any]) -> list[dict[str, Any]]:
    """One of the seat's undamaged merchants or prizes."""
    p = player(state, seat)
    st = state["status"]
    return [dict(base, ship=s) for s in p["merchants"] + p["prizes"] if not st[s]["damaged"]]


def _island_refuge_plays(state: State, seat: int, base: dict[str, Any]) -> list[dict[str, Any]]:
    """One of the seat's ships not in a refuge already."""
    return [dict(base, ship=s) for s in player(state, seat)["ships"] if not in_refuge(state, s)]


def _reflag_plays(state: State, seat: int, base: dict[str, Any]) -> list[dict[str, Any]]:
    """3.3.32: committed, Reflag hides a raider or prize "quando inizia il suo turno svelata"."""
    p = player(state, seat)
    st = state["status"]
    at_start = state["tt"].get("revealed_at_start", ())
    return [dict(base, ship=s) for s in p["ships"] + p["prizes"]
            if (is_raider(state, s) or s in p["prizes"]) and st[s]["revealed"] and s in at_start]


def _scuttle_plays(state: State, seat: int, base: dict[str, Any]) -> list[dict[str, Any]]:
    """One of the seat's damaged ships or prizes."""
    p = player(state, seat)
    st = state["status"]
    return [dict(base, ship=s) for s in p["ships"] + p["prizes"] if st[s]["damaged"]]


def _team_plays(state: State, seat: int, base: dict[str, Any]) -> list[dict[str, Any]]:
    """The team game's cards (team.py)."""
    return team.play_options(state, seat, base["card"])


# each action card type's plays (the types not listed are not played for their action side here)
_PLAYS: dict[str, Callable[[State, int, dict[str, Any]], list[dict[str, Any]]]] = {
    "blockade-runner": _on_nothing, "collier": _on_nothing, "breakout": _on_nothing,
    "second-chance": _second_chance_plays, "wireless-intercept": _wireless_intercept_plays,
    "breakdown": _on_undamaged_enemy_ship,
    "interned": _on_recognised_enemy_ship, "transfer-command": _on_recognised_enemy_ship,
    "deception": _on_free_opponent, "fog-bank": _on_free_opponent, "heavy-weather": _heavy_weather_plays,
    "recon-aircraft": _on_opponent, "rendezvous-missed": _on_opponent, "intelligence": _intelligence_plays,
    "damage-control": _damage_control_plays, "fair-seas": _fair_seas_plays, "island-refuge": _island_refuge_plays,
    "reflag": _reflag_plays, "scuttle": _scuttle_plays,
    **dict.fromkeys(team.CARDS, _team_plays),
}


def has_effect(state: State, seat: int, d: dict[str, Any]) -> bool:
    """Whether a listed play can change anything (for bots and Deception)."""
    i = ix(state)
    t = i.tid(d["card"])
    p = player(state, seat)
    st = state["status"]
    if t in ("blockade-runner", "collier"):
        return any(st[s]["supply"] for s in p["ships"])
    if t == "breakout":
        return bool(state["ship_pool"] or state["ship_used"])
    if t == "wireless-intercept":
        return bool(state["discard"])
    if t == "recon-aircraft":
        return bool(player(state, d["opponent"])["hand"])
    if t == "rendezvous-missed":
        return any(not in_refuge(state, s) for s in player(state, d["opponent"])["ships"])
    if t == "heavy-weather":
        q = player(state, d["opponent"])
        return any(not in_refuge(state, s) for s in q["ships"] + q["prizes"] + q["merchants"])
    if t == "intelligence" and d.get("opponent"):
        return bool(player(state, d["opponent"])["hand"])
    return True


def refuge_options(state: State, seat: int) -> list[dict[str, Any]]:
    tt = state["tt"]
    out = []
    for s in state["players"][seat - 1]["ships"]:
        st = state["status"][s]
        if not st["refuge"]:
            continue
        for what, flag in (("supply", "supply"), ("repair", "damaged")):
            if st[flag] and [s, what] not in tt["refuge_tried"]:  # type: ignore[literal-required]  # supply or damaged
                out.append({"action": "refuge", "ship": s, "try": what})
        if st.get("since", state["turn"]) < state["turn"]:
            out.append({"action": "leave_refuge", "ship": s})
            out += team.refuge_exits(state, seat, s)
    return out


def refuge(step: Step, seat: int, d: dict[str, Any]) -> None:
    state = step.state
    i = ix(state)
    s = d["ship"]
    if d["action"] == "leave_refuge":
        step.emit("RefugeLeft", {"ship": s, "seat": seat})
        if d.get("to") is not None:       # 4.6: to the partner's force
            step.emit("ShipTransferred", {"ship": s, "to": d["to"], "from_seat": seat, "why": "left an island refuge (4.6)"})
        return
    card = state["status"][s]["refuge"]
    a = i.ctype(card)["action"]
    step.emit("RefugeAttempted", {"ship": s, "what": d["try"]})
    mods = optional.supply_mods(state, s, "refuge") if d["try"] == "supply" else (0, [])   # 6.1.3, 6.2.3
    if challenge(step, f"island refuge: {d['try']} {s}", a["challenge"], mods, a["response"], seat,
                 respond_seat(state, seat)):
        if d["try"] == "supply":
            step.emit("ShipResupplied", {"ship": s, "why": "island refuge"})
        else:
            step.emit("ShipRepaired", {"ship": s, "why": "island refuge"})


def _draw_ships(step: Step, seat: int, n: int) -> None:
    for _ in range(n):
        if not draw_ship(step, seat):
            break


def play(step: Step, seat: int, d: dict[str, Any]) -> None:
    """A committed card's action side played (3.2.8): revealed, then its effect (3.3)."""
    state = step.state
    i = ix(state)
    card = d["card"]
    t = i.tid(card)
    against = d.get("opponent")
    if d.get("target") is not None:
        against = owner(state, d["target"])
    step.emit("CardRevealed", {"seat": seat, "card": card, "name": i.card_name[card], "use": "action", "against": against,
              **{k: v for k, v in d.items() if k in ("ship", "target", "opponent", "deck")}})
    # (against: the target's owner)
    if t in ("interned", "transfer-command") and reflag_window(step, seat, d, against):  # type: ignore[arg-type]
        return                         # the owner may answer with Reflag first
    _carry_out(step, seat, d, against)


def _carry_out(step: Step, seat: int, d: dict[str, Any], against: int | None) -> None:
    """The effect of the card played (``against``: the seat it is played against, if any)."""
    effect = EFFECTS.get(ix(step.state).tid(d["card"]))
    if effect is not None:
        effect(step, seat, d, against)


def reflag_window(step: Step, seat: int, d: dict[str, Any], against: int) -> bool:
    """3.3.32: Reflag answers an action that needs the raider or prize recognised
    (Interned, Transfer Command): its owner is asked when it holds any card."""
    state = step.state
    tgt = d["target"]
    hand = player(state, against)["hand"]
    if not (is_raider(state, tgt) or is_prize(state, tgt)) or not hand \
            or (state.get("issue33") and not may_hold(state, against, ("reflag",), hand)):
        return False
    step.emit("WindowOpened", {"kind": "reflag_card", "seat": against, "card": d["card"], "target": tgt, "by": seat,
              "decision": dict(d)})
    return True


def reflag_card_options(state: State, seat: int) -> list[dict[str, Any]]:
    w = state["window"]
    i = ix(state)
    cards = sorted(c for c in player(state, seat)["hand"] if i.tid(c) == "reflag")
    return [{"action": "react", "card": c, "ship": w["target"]} for c in cards] + [{"action": "decline"}]  # type: ignore[index]


def reflag_card(step: Step, seat: int, d: dict[str, Any]) -> None:
    state = step.state
    w = state["window"]
    i = ix(state)
    by, played = w["by"], dict(w["decision"])
    if d["action"] == "decline":
        step.emit("ReactionDeclined", {"seat": seat, "kind": "reflag_card", "target": w["target"]})
        _carry_out(step, by, played, seat)
        return
    step.emit("ReactionPlayed", {"seat": seat, "card": d["card"], "ctype": "reflag", "name": i.card_name[d["card"]],
              "against": "card", "target": w["target"], "ship": w["target"]})
    step.emit("ShipDisguised", {"ship": w["target"], "why": "Reflag"})
    step.emit("ActionFoiled", {"card": w["card"], "target": w["target"],
              "why": "Reflag: the ship is no longer recognised"})


# each card's effect (3.3) ---------------------------------------------------------------
def _action_side(step: Step, d: dict[str, Any]) -> dict[str, Any]:
    return ix(step.state).ctype(d["card"])["action"]


def _blockade_runner(step: Step, seat: int, d: dict[str, Any], against: int | None) -> None:
    """3.3.2: each friendly ship short of supply rolls to be resupplied (+2 with a prize)."""
    state = step.state
    a = _action_side(step, d)
    p = player(state, seat)
    st = state["status"]
    bonus = (2, ["prize in the force +2"]) if p["prizes"] else (0, [])
    for s in [s for s in p["ships"] if st[s]["supply"]]:
        m, w = optional.supply_mods(state, s, "blockade-runner")      # 6.1.2, 6.2.2
        if challenge(step, f"Blockade Runner for {s}", a["challenge"], (bonus[0] + m, bonus[1] + w),
                     a["response"], seat, respond_seat(state, seat)):
            step.emit("ShipResupplied", {"ship": s, "why": "Blockade Runner"})


def _collier(step: Step, seat: int, d: dict[str, Any], against: int | None) -> None:
    """3.3.8: every friendly ship short of supply is resupplied."""
    state = step.state
    st = state["status"]
    for s in [s for s in player(state, seat)["ships"] if st[s]["supply"]]:
        step.emit("ShipResupplied", {"ship": s, "why": "Collier"})


def _breakout(step: Step, seat: int, d: dict[str, Any], against: int | None) -> None:
    """3.3.7: a challenge that exceeds the response draws a ship, one at least double
    two (4.7: in the team game one may join the partner's force)."""
    state = step.state
    a = _action_side(step, d)
    p = player(state, seat)
    c = roll(step, a["challenge"], f"seat {seat} challenge (Breakout)")
    r = roll(step, a["response"], f"seat {respond_seat(state, seat)} response (Breakout)")
    n = 2 if c >= 2 * r else (1 if c > r else 0)
    step.emit("ChallengeRolled", {"what": "Breakout", "challenge": {"dice": a["challenge"], "high": c, "mods": [], "result": c},
              "response": {"dice": a["response"], "high": r, "result": r}, "success": n > 0, "ships": n})
    before = list(p["ships"])
    _draw_ships(step, seat, n)
    team.after_breakout(step, seat, before)


def _second_chance(step: Step, seat: int, d: dict[str, Any], against: int | None) -> None:
    """3.3.37: another turn after this one."""
    step.emit("SecondChanceEarned", {"seat": seat})


def _wireless_intercept(step: Step, seat: int, d: dict[str, Any], against: int | None) -> None:
    """3.3.47: the top two cards of the discard pile into the hand."""
    step.emit("DiscardsTaken", {"seat": seat, "cards": list(reversed(step.state["discard"][-2:]))})


def _breakdown(step: Step, seat: int, d: dict[str, Any], against: int | None) -> None:
    """3.3.6: an enemy ship is damaged if the challenge succeeds."""
    a = _action_side(step, d)
    tgt = d["target"]
    if challenge(step, f"Breakdown of {tgt}", a["challenge"], (0, []), a["response"], seat, against):
        step.emit("ShipDamaged", {"ship": tgt, "why": "Breakdown"})


def _interned(step: Step, seat: int, d: dict[str, Any], against: int | None) -> None:
    """3.3.18: a recognised ship leaves the game (+2 a damage marker, 6.8.2; +2 short of supply)."""
    state = step.state
    i = ix(state)
    a = _action_side(step, d)
    tgt = d["target"]
    bonus, why = optional.damage_mods(state, tgt, +1)       # +2 a marker (6.8.2)
    if state["status"][tgt]["supply"]:
        bonus += 2
        why.append("limited supply +2")
    if challenge(step, f"internment of {tgt}", a["challenge"], (bonus, why), a["response"], seat, against):
        step.emit("ShipRemoved", {"ship": tgt, "deck": "ship" if tgt in i.ships else "merchant",
                  "why": "interned in a neutral port: no victory points"})


def _transfer_command(step: Step, seat: int, d: dict[str, Any], against: int | None) -> None:
    """3.3.45: a recognised enemy ship joins the player's force."""
    a = _action_side(step, d)
    tgt = d["target"]
    if challenge(step, f"transfer of {tgt}", a["challenge"], (0, []), a["response"], seat, against):
        step.emit("ShipTransferred", {"ship": tgt, "to": seat, "from_seat": against})


def _team_card(step: Step, seat: int, d: dict[str, Any], against: int | None) -> None:
    """3.3.4 Bounding Main, 3.3.11 Exchange Information (the team game, ``team.py``)."""
    team.play(step, seat, d)


def _placed_on_player(step: Step, seat: int, d: dict[str, Any], against: int | None) -> None:
    """3.3.10 Deception, 3.3.14 Fog Bank: the card waits on the opponent's next turn."""
    card = d["card"]
    step.emit("CardPlacedOnPlayer", {"card": card, "ctype": ix(step.state).tid(card), "on": d["opponent"], "by": seat})


def _heavy_weather(step: Step, seat: int, d: dict[str, Any], against: int | None) -> None:
    """3.3.16: each of the opponent's ships not in a refuge may founder."""
    state = step.state
    i = ix(state)
    a = _action_side(step, d)
    o = d["opponent"]
    q = player(state, o)
    for s in list(q["ships"] + q["prizes"] + q["merchants"]):
        if in_refuge(state, s):
            continue
        if challenge(step, f"Heavy Weather on {s}", a["challenge"], (0, []), a["response"], seat, o):
            step.emit("ShipRemoved", {"ship": s, "deck": "ship" if s in i.ships else "merchant",
                      "why": "foundered in heavy weather: no victory points"})


def _recon_aircraft(step: Step, seat: int, d: dict[str, Any], against: int | None) -> None:
    """3.3.31: two cards at random from the opponent's hand into the player's (5.3.2:
    from the phantom's)."""
    state = step.state
    o = d["opponent"]
    if state.get("solo") and o == 2:
        recon_from_phantom(step, seat)     # 5.3.2
        return
    hand = sorted(player(state, o)["hand"])
    taken = []
    for _ in range(min(2, len(hand))):
        # a card drawn at random from the hand: at a table the referee names the card taken
        # (the event shows the card, never the rest of the hand)
        card = step.draw(f"hand-of-{o}", hand, vis=[seat, o],
                         why=f"Recon Aircraft: a random card of seat {o}'s hand")
        hand.remove(card)
        taken.append(card)
    step.emit("CardsTaken", {"seat": seat, "cards": taken, "from": o}, vis=[seat, o])
    step.emit("CardsTakenCount", {"seat": seat, "count": len(taken), "from": o})


def _rendezvous_missed(step: Step, seat: int, d: dict[str, Any], against: int | None) -> None:
    """3.3.33: each of the opponent's ships not in a refuge may fall short of supply
    (-2 with a prize in its force)."""
    state = step.state
    a = _action_side(step, d)
    o = d["opponent"]
    q = player(state, o)
    mal = (-2, ["prize in the force -2"]) if q["prizes"] else (0, [])
    for s in [s for s in q["ships"] if not in_refuge(state, s)]:
        m, w = optional.supply_mods(state, s, "rendezvous-missed")    # 6.1.1, 6.2.1
        if challenge(step, f"Rendezvous Missed for {s}", a["challenge"], (mal[0] + m, mal[1] + w),
                     a["response"], seat, o):
            step.emit("SupplyLimited", {"ship": s, "why": "Rendezvous Missed"})


def _damage_control(step: Step, seat: int, d: dict[str, Any], against: int | None) -> None:
    """3.3.9: a damaged friendly ship is repaired."""
    step.emit("ShipRepaired", {"ship": d["ship"], "why": "Damage Control"})


def _fair_seas(step: Step, seat: int, d: dict[str, Any], against: int | None) -> None:
    """3.3.12: an undamaged merchant or prize seeks passage, +1 (3.2.6)."""
    passage(step, d["ship"], 1, "Fair Seas +1")


def _island_refuge(step: Step, seat: int, d: dict[str, Any], against: int | None) -> None:
    """3.3.20: a ship enters the refuge (the card stays with it)."""
    step.emit("RefugeEntered", {"ship": d["ship"], "card": d["card"], "seat": seat})


def _reflag(step: Step, seat: int, d: dict[str, Any], against: int | None) -> None:
    """3.3.32: committed, a raider or prize revealed at the turn's start is disguised."""
    step.emit("ShipDisguised", {"ship": d["ship"], "why": "Reflag"})


def _scuttle(step: Step, seat: int, d: dict[str, Any], against: int | None) -> None:
    """3.3.35: a damaged friendly ship leaves the game, no victory points."""
    s = d["ship"]
    step.emit("ShipRemoved", {"ship": s, "deck": "ship" if s in ix(step.state).ships else "merchant",
              "why": "scuttled: no victory points"})


def _intelligence(step: Step, seat: int, d: dict[str, Any], against: int | None) -> None:
    """3.3.17: look at the next draws and put them back in any order, or at an
    opponent's hand."""
    state = step.state
    if d.get("deck"):
        n = state["seats"]
        known = state["top"][:n]
        if known:
            step.emit("KnownCardsPeeked", {"seat": seat, "cards": known}, vis=[seat])
        for _ in range(n - len(known)):
            if not pool_left(state):
                break
            step.draw("action:peek", state["pool"], vis=[seat], why=f"Intelligence: seat {seat} looks at the next draw")
        step.emit("WindowOpened", {"kind": "stack", "seat": seat})
    else:
        o = d["opponent"]
        step.emit("HandSeen", {"seat": seat, "of": o, "cards": list(player(state, o)["hand"])}, vis=[seat])


# card type -> its effect (a type without one, an attack or an assist, is played by ``combat.py``)
EFFECTS = {
    "blockade-runner": _blockade_runner, "collier": _collier, "breakout": _breakout,
    "second-chance": _second_chance, "wireless-intercept": _wireless_intercept, "breakdown": _breakdown,
    "interned": _interned, "transfer-command": _transfer_command,
    **dict.fromkeys(team.CARDS, _team_card),
    "deception": _placed_on_player, "fog-bank": _placed_on_player, "heavy-weather": _heavy_weather,
    "recon-aircraft": _recon_aircraft, "rendezvous-missed": _rendezvous_missed,
    "damage-control": _damage_control, "fair-seas": _fair_seas, "island-refuge": _island_refuge,
    "reflag": _reflag, "scuttle": _scuttle, "intelligence": _intelligence,
}


def recon_from_phantom(step: Step, seat: int) -> None:
    """5.3.2: Recon Aircraft against the phantom: two cards at random from its hand
    (at a table each is named as it is taken), its only effect (5.4.3 step 10 follows the
    phantom's own Recon Aircraft)."""
    state = step.state
    hand = sorted(player(state, PHANTOM)["hand"])
    taken, tokens = [], []
    for _ in range(min(2, len(hand))):
        known = [c for c in state["pool"] if c not in hand and (c not in taken or not state.get("issue33"))]
        c = step.draw(f"hand-of-{PHANTOM}", hand, vis=[seat], why="Recon Aircraft: a random card of the phantom's hand",
                      unknown_pool=sorted(set(known)))
        tok = step.events[-1].data.get("token")
        hand.remove(tok or c)
        taken.append(c)
        tokens.append(tok)
    step.emit("PhantomCardsTaken", {"seat": seat, "cards": taken, "tokens": tokens}, vis=[seat])
    step.emit("CardsTakenCount", {"seat": seat, "count": len(taken), "from": PHANTOM})


def stack_options(state: State, seat: int) -> list[dict[str, Any]]:
    cards = state["peek"]
    if len(cards) > 5:
        cards = cards[:5]
    return [{"action": "stack", "order": list(p)} for p in itertools.permutations(sorted(cards))]


def stack(step: Step, seat: int, d: dict[str, Any]) -> None:
    step.emit("WindowClosed", {"seat": seat, "kind": "stack"})
    step.emit("DeckTopOrdered", {"seat": seat, "cards": d["order"]}, vis=[seat])
    step.emit("DeckTopReordered", {"seat": seat, "count": len(d["order"])})


def resupply(step: Step, seat: int, d: dict[str, Any]) -> None:
    """6.12.1-6.12.2: the ship is resupplied; then the prize's stores may be exhausted."""
    state = step.state
    prize = d["prize"]
    step.emit("PrizeStoresUsed", {"seat": seat, "ship": d["ship"], "prize": prize})
    r = ix(state).optional_rules["prize_stores"]
    if challenge(step, f"are {prize}'s stores exhausted? (6.12.2)", r["challenge"], (0, []), r["response"],
                 respond_seat(state, seat), seat):
        step.emit("ShipSunk", {"ship": prize, "by": seat, "deck": "merchant", "double": False, "owner": seat,
                  "why": "its stores exhausted: scuttled (6.12.2)"})


# how each event decided here changes the state (``evolve``) -----------------------------------
def _known_cards_peeked(state: State, d: dict[str, Any], ev: Ev) -> None:
    for c in d["cards"]:
        state["top"].remove(c)
        state["peek"].append(c)


def _prize_stores_used(state: State, d: dict[str, Any], ev: Ev) -> None:
    ship_status(state, d["ship"])["supply"] = False
    state["tt"].setdefault("prize_used", []).append(d["prize"])


def _card_placed_on_player(state: State, d: dict[str, Any], ev: Ev) -> None:
    if real_card(d["card"]):
        state["tt"]["played"].remove(d["card"])
    player(state, d["on"])["pending"] = {"card": d["card"], "type": d["ctype"]}


def _refuge_entered(state: State, d: dict[str, Any], ev: Ev) -> None:
    if real_card(d["card"]):
        state["tt"]["played"].remove(d["card"])
    st = ship_status(state, d["ship"])
    st["refuge"] = d["card"]
    st["since"] = state["turn"]
    st["revealed"] = False


def _refuge_left(state: State, d: dict[str, Any], ev: Ev) -> None:
    refuge_card_off(state, d["ship"])
    state["tt"]["left_refuge"].append(d["ship"])


def _refuge_attempted(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["tt"]["refuge_tried"].append([d["ship"], d["what"]])


def _deck_top_ordered(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["top"] = list(d["cards"]) + state["top"]
    state["top_known_by"] = d["seat"]
    # every seat that looked keeps knowing which cards it saw (not their new order)
    state.setdefault("top_seen", {})[str(d["seat"])] = list(d["cards"])
    state["peek"] = []


def _cards_taken(state: State, d: dict[str, Any], ev: Ev) -> None:
    a, b = player(state, d["seat"]), player(state, d["from"])
    for c in d["cards"]:
        b["hand"].remove(c)
        a["hand"].append(c)
        state["tt"]["extra"].append(c)


def _discards_taken(state: State, d: dict[str, Any], ev: Ev) -> None:
    p = player(state, d["seat"])
    for c in d["cards"]:
        state["discard"].remove(c)
        p["hand"].append(c)
    state["tt"]["wireless"] = True
    p["wireless_turn"] = state["turn"]


def _second_chance_earned(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["tt"]["second_chance"] = True


def _phantom_cards_taken(state: State, d: dict[str, Any], ev: Ev) -> None:
    a, b = player(state, d["seat"]), player(state, PHANTOM)
    for c, tok in zip(d["cards"], d["tokens"]):
        if tok:
            b["hand"].remove(tok)
            state["pool"].remove(c)
        else:
            b["hand"].remove(c)
        a["hand"].append(c)
        state["tt"]["extra"].append(c)
    if not state.get("issue33"):      # rules version 2: the phantom's next turn was step 10's
        state["solo"]["recon"] = True


HANDLERS = {
    "KnownCardsPeeked": _known_cards_peeked,
    "DeckTopOrdered": _deck_top_ordered,
    "CardsTaken": _cards_taken,
    "DiscardsTaken": _discards_taken,
    "SecondChanceEarned": _second_chance_earned,
    "CardPlacedOnPlayer": _card_placed_on_player,
    "RefugeEntered": _refuge_entered,
    "RefugeLeft": _refuge_left,
    "RefugeAttempted": _refuge_attempted,
    "PrizeStoresUsed": _prize_stores_used,
    "PhantomCardsTaken": _phantom_cards_taken,
}

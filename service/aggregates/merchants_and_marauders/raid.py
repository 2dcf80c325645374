"""Raiding a merchant (the book: "Saccheggiare i mercanti" and "Armi speciali durante il
saccheggio", p. 10; a flag for the raid, "Ricercati & Ricompense", p. 11) once scouting
found it (scout.py); a hull a raid destroys kills the captain (captains.py), which ends
his turn (``END_TURN``, handed back to the flow).

A raid in progress is ``state["raid"]``; it walks through stages: ``engage``
(the merchant's nation is chosen, or it is let go), ``weapons`` (special weapon
tokens turn failed dice into successes), ``use`` (each success draws, discards or
swaps a cargo card), ``take`` (after a successful raid, the cards kept aboard).
Decisions:

* at sea, an action: ``{"action": "scout", "target": "merchant"}`` (scout.py);
* ``{"action": "raid", "nation": N}`` / ``{"action": "let_go"}``;
* ``{"action": "spend_weapon", "kind": K}`` / ``{"action": "weapons_done"}``;
* ``{"action": "raid_draw"}``, ``{"action": "raid_discard", "card": C}``,
  ``{"action": "raid_swap", "card": C}``, ``{"action": "raid_stop"}`` (the
  successes left are not used);
* ``{"action": "raid_take", "card": C}`` / ``{"action": "raid_take_done"}``.
"""

from __future__ import annotations

from .abilities import dice as skill_dice
from .captains import dies
from .catalog import tables
from .mechanics import bank_pays, gain_glory, skill_test
from .readings import raid_earns_glory
from .state import LOCATIONS, capacity, player, ship_max, unseen_identities
from .wanted import gain_flag

TYPE_CHECKING = False   # (the imports below are the type checker's: none at run time)
if TYPE_CHECKING:
    from service.kernel.events import Ev
    from service.kernel.machine import Step
    from typing import Any
    from .shapes import Decision, Outcome, Player, Raid, State

def destroyed(p: Player) -> list:
    """The ship's destroyed locations (no raid with any, the book)."""
    return [k for k in LOCATIONS if p["ship"][k] <= 0]


# legal decisions -----------------------------------------------------------------
def nations(state: State, r: Raid) -> list[str]:
    """The token's nation or the sea zone's (its port's), the raider's choice."""
    zone_nation = tables(state)["zones"][r["zone"]]["nation"]
    return sorted({r["nation"]} | ({zone_nation} if zone_nation else set()))


def legal(state: State, seat: int) -> list[Decision]:
    r = state["raid"]
    p = player(state, seat)
    if r["stage"] == "engage":
        out = [] if destroyed(p) else [{"action": "raid", "nation": n} for n in nations(state, r)]
        return out + [{"action": "let_go"}]
    if r["stage"] == "weapons":
        return [{"action": "spend_weapon", "kind": k} for k in sorted(p["weapons"])] + [{"action": "weapons_done"}]
    if r["stage"] == "use":
        out = [{"action": "raid_draw"}] if (state["decks"]["cargo"] or state["decks"]["cargo_discard"]) else []
        for c in r["cards"]:
            out += [{"action": "raid_discard", "card": c}, {"action": "raid_swap", "card": c}]
        return out + [{"action": "raid_stop"}]
    if r["stage"] == "take":
        out = []
        if len(p["cargo"]) < capacity(state, p):
            out = [{"action": "raid_take", "card": c} for c in r["cards"]]
        return out + [{"action": "raid_take_done"}]
    return []


# the steps -------------------------------------------------------------------------
def sight(step: Step, seat: int) -> None:
    """A scouted merchant is found: its token is turned over and leaves the zone.
    The book: "Gettoni mercante", p. 10."""
    state = step.state
    zone = player(state, seat)["zone"]
    token = state["board"]["merchants"][zone]
    token = step.identify("merchant_tokens", token, unseen_identities(state, "merchant"),
                          why=f"the merchant token in {zone} is turned over")
    S = tables(state)
    step.emit("MerchantSighted", {"seat": seat, "zone": zone, "token": token, "nation": S["merchant"][token],
              "zone_nation": S["zones"][zone]["nation"]})


def do_let_go(step: Step, seat: int, d: dict[str, Any]) -> None:
    step.emit("MerchantLetGo", {"seat": seat, "zone": step.state["raid"]["zone"]})


def _turn_card(step: Step, seat: int, why: str) -> str | None:
    """A cargo card drawn face up for the raid (the discards reshuffled once when the deck runs out)."""
    decks = step.state["decks"]
    if not decks["cargo"]:
        if not decks["cargo_discard"]:
            return None
        step.emit("CargoDeckReshuffled", {"cards": len(decks["cargo_discard"])})
    card = step.draw("cargo", decks["cargo"], vis="all", why=why)
    c = tables(step.state)["cargo"][card]
    step.emit("RaidCardTurned", {"seat": seat, "card": card, "good": c["good"], "raid": c["raid"], "icon": c["icon"]})
    return card


def do_raid(step: Step, seat: int, d: dict[str, Any]) -> Outcome:
    """The book: "Saccheggiare i mercanti", p. 10."""
    state = step.state
    step.emit("RaidBegun", {"seat": seat, "nation": d["nation"], "zone": state["raid"]["zone"]})
    gain_flag(step, seat, d["nation"], "raiding a merchant")       # a non-pirate ship engaged
    for k in range(3):
        _turn_card(step, seat, f"raid: cargo card {k + 1} of 3")
    hits = skill_test(step, seat, "seamanship", "the raid")
    rolled = skill_dice(state, player(state, seat), "seamanship")
    step.emit("RaidSuccesses", {"seat": seat, "successes": hits, "failures": rolled - hits})
    return _after_successes(step, seat)


def _after_successes(step: Step, seat: int) -> Outcome:
    state = step.state
    r = state["raid"]
    p = player(state, seat)
    if r["failures"] > 0 and p["weapons"]:
        step.emit("RaidStage", {"stage": "weapons"})
        return None
    return _to_use(step, seat)


def _to_use(step: Step, seat: int) -> Outcome:
    if step.state["raid"]["left"] > 0:
        step.emit("RaidStage", {"stage": "use"})
        return None
    return resolve(step, seat)


def do_spend_weapon(step: Step, seat: int, d: dict[str, Any]) -> Outcome:
    """The book: "Armi speciali durante il saccheggio", p. 10."""
    state = step.state
    step.emit("WeaponSpent", {"seat": seat, "kind": d["kind"], "why": "a failed die of the raid becomes a success"})
    r = state["raid"]
    if r["failures"] == 0 or not player(state, seat)["weapons"]:
        return _to_use(step, seat)
    return None


def do_weapons_done(step: Step, seat: int, d: dict[str, Any]) -> Outcome:
    return _to_use(step, seat)


def do_raid_draw(step: Step, seat: int, d: dict[str, Any]) -> Outcome:
    step.emit("RaidSuccessUsed", {"seat": seat, "use": "draw"})
    _turn_card(step, seat, "raid: a success draws a card")
    return _next_success(step, seat)


def do_raid_discard(step: Step, seat: int, d: dict[str, Any]) -> Outcome:
    step.emit("RaidSuccessUsed", {"seat": seat, "use": "discard"})
    step.emit("RaidCardDiscarded", {"seat": seat, "card": d["card"]})
    return _next_success(step, seat)


def do_raid_swap(step: Step, seat: int, d: dict[str, Any]) -> Outcome:
    step.emit("RaidSuccessUsed", {"seat": seat, "use": "swap"})
    step.emit("RaidCardDiscarded", {"seat": seat, "card": d["card"]})
    _turn_card(step, seat, "raid: a success swaps a card")
    return _next_success(step, seat)


def do_raid_stop(step: Step, seat: int, d: dict[str, Any]) -> Outcome:
    return resolve(step, seat)


def _next_success(step: Step, seat: int) -> Outcome:
    if step.state["raid"]["left"] <= 0:
        return resolve(step, seat)
    return None


def resolve(step: Step, seat: int) -> Outcome:
    """The icons of the cards left: every hit lands (on the hull once its location
    is destroyed); the merchant escapes when its escape icons reach the ship's
    Maneuverability; any destroyed location fails the raid; no hull, no captain (and
    ``END_TURN``). The book: "Saccheggiare i mercanti", p. 10."""
    state = step.state
    r = state["raid"]
    p = player(state, seat)
    S = tables(state)
    step.emit("RaidStage", {"stage": "resolve"})
    escapes = 0
    for c in list(r["cards"]):
        icon = S["cargo"][c]["icon"]
        if icon == "escape":
            escapes += 1
            continue
        loc = icon.split(":", 1)[1]
        to = loc if p["ship"][loc] > 0 else "hull"  # type: ignore[literal-required]  # (a location's name)
        step.emit("ShipHit", {"seat": seat, "location": to, "aimed": loc, "card": c, "why": "raid"})
        if p["ship"]["hull"] <= 0:
            break
    maneuver = ship_max(state, p["ship"], "maneuver")
    if p["ship"]["hull"] <= 0:
        step.emit("RaidEnded", {"seat": seat, "result": "sunk", "loot": 0, "escapes": escapes, "maneuver": maneuver})
        return dies(step, seat, "the hull was destroyed in a raid")
    _trim_cargo(step, seat)
    broken = destroyed(p)
    if broken:
        step.emit("RaidEnded", {"seat": seat, "result": "failed", "loot": 0, "escapes": escapes, "maneuver": maneuver,
                  "destroyed": broken})
        return None
    if escapes >= maneuver:
        step.emit("RaidEnded", {"seat": seat, "result": "escaped", "loot": 0, "escapes": escapes, "maneuver": maneuver})
        return None
    loot = sum(S["cargo"][c]["raid"] for c in r["cards"])
    step.emit("GoldReceived", {"seat": seat, "amount": bank_pays(state, loot), "why": "raid loot"})
    step.emit("RaidSucceeded", {"seat": seat, "loot": loot, "escapes": escapes, "maneuver": maneuver})
    if raid_earns_glory(state, loot):             # 12 or more (IT), or more than 12 (option)
        gain_glory(step, seat, f"a raid worth {loot} gold")
    step.emit("RaidStage", {"stage": "take"})
    return None


def _trim_cargo(step: Step, seat: int) -> None:
    """Cargo hits: cards over the new capacity are lost at random."""
    state = step.state
    p = player(state, seat)
    while len(p["cargo"]) > capacity(state, p):
        card = step.pick(sorted(p["cargo"]), vis=[seat], why="a cargo card over the damaged hold, lost at random")
        step.emit("CargoLost", {"seat": seat, "card": card, "good": tables(state)["good"][card], "why": "hold damaged in a raid"})


def do_raid_take(step: Step, seat: int, d: dict[str, Any]) -> None:
    step.emit("RaidCardTaken", {"seat": seat, "card": d["card"], "good": tables(step.state)["good"][d["card"]]})
    p = player(step.state, seat)
    if not step.state["raid"]["cards"] or len(p["cargo"]) >= capacity(step.state, p):
        do_raid_take_done(step, seat, d)


def do_raid_take_done(step: Step, seat: int, d: dict[str, Any]) -> None:
    step.emit("RaidEnded", {"seat": seat, "result": "success", "loot": step.state["raid"]["loot"], "kept": True})


# the events ---------------------------------------------------------------------------

def _merchant_sighted(state: State, d: dict[str, Any], ev: Ev) -> None:
    board = state["board"]
    board["merchants"][d["zone"]] = None
    board["merchant_track"].append(d["token"])
    state["raid"] = {"seat": d["seat"], "zone": d["zone"], "token": d["token"], "nation": d["nation"],
                     "stage": "engage", "cards": [], "successes": 0, "failures": 0, "left": 0, "loot": 0}


def _merchant_let_go(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["raid"] = None  # type: ignore[typeddict-item]  # (None: it is over; shapes.py)


def _raid_begun(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["raid"]["stage"] = "draw"
    state["raid"]["chosen"] = d["nation"]


def _raid_card_turned(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["raid"]["cards"].append(d["card"])


def _raid_successes(state: State, d: dict[str, Any], ev: Ev) -> None:
    r = state["raid"]
    r["successes"], r["failures"], r["left"] = d["successes"], d["failures"], d["successes"]


def _raid_stage(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["raid"]["stage"] = d["stage"]


def _raid_success_used(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["raid"]["left"] -= 1


def _raid_card_discarded(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["raid"]["cards"].remove(d["card"])
    state["decks"]["cargo_discard"].append(d["card"])


def _raid_succeeded(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["raid"]["loot"] = d["loot"]


def _raid_card_taken(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["raid"]["cards"].remove(d["card"])
    player(state, d["seat"])["cargo"].append(d["card"])


def _raid_ended(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["decks"]["cargo_discard"].extend(state["raid"]["cards"])
    state["raid"] = None  # type: ignore[typeddict-item]  # (None: it is over; shapes.py)


HANDLERS = {
    "raid": do_raid, "let_go": do_let_go, "spend_weapon": do_spend_weapon,
    "weapons_done": do_weapons_done, "raid_draw": do_raid_draw, "raid_discard": do_raid_discard,
    "raid_swap": do_raid_swap, "raid_stop": do_raid_stop, "raid_take": do_raid_take,
    "raid_take_done": do_raid_take_done,
}

APPLY = {
    "MerchantSighted": _merchant_sighted,
    "MerchantLetGo": _merchant_let_go,
    "RaidBegun": _raid_begun,
    "RaidCardTurned": _raid_card_turned,
    "RaidSuccesses": _raid_successes,
    "RaidStage": _raid_stage,
    "RaidSuccessUsed": _raid_success_used,
    "RaidCardDiscarded": _raid_card_discarded,
    "RaidSucceeded": _raid_succeeded,
    "RaidCardTaken": _raid_card_taken,
    "RaidEnded": _raid_ended,
}

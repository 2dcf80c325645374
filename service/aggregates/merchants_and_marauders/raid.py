"""Scouting a merchant and raiding it (the book: Esplorare; Saccheggiare i
mercanti; Armi speciali durante il saccheggio; Ricercati), and the death of a
captain whose hull a raid destroys.

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
from .catalog import tables as T
from .flow import bank_pays, captain_dies, end_player_turn, gain_glory, skill_test
from .state import LOCATIONS, capacity, player, ship_max
from .wanted import gain_flag



def destroyed(p) -> list:
    """The ship's destroyed locations (no raid with any, the book)."""
    return [k for k in LOCATIONS if p["ship"][k] <= 0]


# legal decisions -----------------------------------------------------------------
def nations(state, r):
    """The token's nation or the sea zone's (its port's), the raider's choice."""
    zone_nation = T(state)["zones"][r["zone"]]["nation"]
    return sorted({r["nation"]} | ({zone_nation} if zone_nation else set()))


def legal(state, seat):
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
def sight(step, seat):
    """A scouted merchant is found: its token is turned over and leaves the zone."""
    state = step.state
    zone = player(state, seat)["zone"]
    token = state["board"]["merchants"][zone]
    token = step.identify("merchant_tokens", token, port_rules.unseen_identities(state, "merchant"),
                          why=f"the merchant token in {zone} is turned over")
    S = T(state)
    step.emit("MerchantSighted", seat=seat, zone=zone, token=token, nation=S["merchant"][token],
              zone_nation=S["zones"][zone]["nation"])


def do_let_go(step, seat, d):
    step.emit("MerchantLetGo", seat=seat, zone=step.state["raid"]["zone"])


def _turn_card(step, seat, why):
    """A cargo card drawn face up for the raid (the discards reshuffled once when the deck runs out)."""
    decks = step.state["decks"]
    if not decks["cargo"]:
        if not decks["cargo_discard"]:
            return None
        step.emit("CargoDeckReshuffled", cards=len(decks["cargo_discard"]))
    card = step.draw("cargo", decks["cargo"], vis="all", why=why)
    c = T(step.state)["cargo"][card]
    step.emit("RaidCardTurned", seat=seat, card=card, good=c["good"], raid=c["raid"], icon=c["icon"])
    return card


def do_raid(step, seat, d):
    state = step.state
    step.emit("RaidBegun", seat=seat, nation=d["nation"], zone=state["raid"]["zone"])
    gain_flag(step, seat, d["nation"], "raiding a merchant")       # a non-pirate ship engaged
    for k in range(3):
        _turn_card(step, seat, f"raid: cargo card {k + 1} of 3")
    hits = skill_test(step, seat, "seamanship", "the raid")
    rolled = skill_dice(state, player(state, seat), "seamanship")
    step.emit("RaidSuccesses", seat=seat, successes=hits, failures=rolled - hits)
    _after_successes(step, seat)


def _after_successes(step, seat):
    state = step.state
    r = state["raid"]
    p = player(state, seat)
    if r["failures"] > 0 and p["weapons"]:
        step.emit("RaidStage", stage="weapons")
    else:
        _to_use(step, seat)


def _to_use(step, seat):
    if step.state["raid"]["left"] > 0:
        step.emit("RaidStage", stage="use")
    else:
        resolve(step, seat)


def do_spend_weapon(step, seat, d):
    state = step.state
    step.emit("WeaponSpent", seat=seat, kind=d["kind"], why="a failed die of the raid becomes a success")
    r = state["raid"]
    if r["failures"] == 0 or not player(state, seat)["weapons"]:
        _to_use(step, seat)


def do_weapons_done(step, seat, d):
    _to_use(step, seat)


def do_raid_draw(step, seat, d):
    step.emit("RaidSuccessUsed", seat=seat, use="draw")
    _turn_card(step, seat, "raid: a success draws a card")
    _next_success(step, seat)


def do_raid_discard(step, seat, d):
    step.emit("RaidSuccessUsed", seat=seat, use="discard")
    step.emit("RaidCardDiscarded", seat=seat, card=d["card"])
    _next_success(step, seat)


def do_raid_swap(step, seat, d):
    step.emit("RaidSuccessUsed", seat=seat, use="swap")
    step.emit("RaidCardDiscarded", seat=seat, card=d["card"])
    _turn_card(step, seat, "raid: a success swaps a card")
    _next_success(step, seat)


def do_raid_stop(step, seat, d):
    resolve(step, seat)


def _next_success(step, seat):
    if step.state["raid"]["left"] <= 0:
        resolve(step, seat)


def resolve(step, seat):
    """The icons of the cards left: every hit lands (on the hull once its location
    is destroyed); the merchant escapes when its escape icons reach the ship's
    Maneuverability; any destroyed location fails the raid; no hull, no captain."""
    state = step.state
    r = state["raid"]
    p = player(state, seat)
    S = T(state)
    step.emit("RaidStage", stage="resolve")
    escapes = 0
    for c in list(r["cards"]):
        icon = S["cargo"][c]["icon"]
        if icon == "escape":
            escapes += 1
            continue
        loc = icon.split(":", 1)[1]
        to = loc if p["ship"][loc] > 0 else "hull"
        step.emit("ShipHit", seat=seat, location=to, aimed=loc, card=c, why="raid")
        if p["ship"]["hull"] <= 0:
            break
    maneuver = ship_max(state, p["ship"], "maneuver")
    if p["ship"]["hull"] <= 0:
        step.emit("RaidEnded", seat=seat, result="sunk", loot=0, escapes=escapes, maneuver=maneuver)
        die(step, seat, "the hull was destroyed in a raid")
        return
    _trim_cargo(step, seat)
    broken = destroyed(p)
    if broken:
        step.emit("RaidEnded", seat=seat, result="failed", loot=0, escapes=escapes, maneuver=maneuver,
                  destroyed=broken)
        return
    if escapes >= maneuver:
        step.emit("RaidEnded", seat=seat, result="escaped", loot=0, escapes=escapes, maneuver=maneuver)
        return
    loot = sum(S["cargo"][c]["raid"] for c in r["cards"])
    step.emit("GoldReceived", seat=seat, amount=bank_pays(state, loot), why="raid loot")
    step.emit("RaidSucceeded", seat=seat, loot=loot, escapes=escapes, maneuver=maneuver)
    if loot >= S["rules"]["raid_glory_gold"]:
        gain_glory(step, seat, f"a raid worth {loot} gold")
    step.emit("RaidStage", stage="take")


def _trim_cargo(step, seat):
    """Cargo hits: cards over the new capacity are lost at random."""
    state = step.state
    p = player(state, seat)
    while len(p["cargo"]) > capacity(state, p):
        card = step.pick(sorted(p["cargo"]), vis=[seat], why="a cargo card over the damaged hold, lost at random")
        step.emit("CargoLost", seat=seat, card=card, good=T(state)["good"][card], why="hold damaged in a raid")


def do_raid_take(step, seat, d):
    step.emit("RaidCardTaken", seat=seat, card=d["card"], good=T(step.state)["good"][d["card"]])
    p = player(step.state, seat)
    if not step.state["raid"]["cards"] or len(p["cargo"]) >= capacity(step.state, p):
        do_raid_take_done(step, seat, d)


def do_raid_take_done(step, seat, d):
    step.emit("RaidEnded", seat=seat, result="success", loot=step.state["raid"]["loot"], kept=True)


def die(step, seat, why):
    """A captain lost outside a fight (a raid, a card): dead in his own turn, it ends."""
    captain_dies(step, seat, why)
    if step.state["order"][step.state["cur"]] == seat:
        end_player_turn(step, seat)


HANDLERS = {
    "raid": do_raid, "let_go": do_let_go, "spend_weapon": do_spend_weapon,
    "weapons_done": do_weapons_done, "raid_draw": do_raid_draw, "raid_discard": do_raid_discard,
    "raid_swap": do_raid_swap, "raid_stop": do_raid_stop, "raid_take": do_raid_take,
    "raid_take_done": do_raid_take_done,
}


# imported at the end, once (not in ``sight``): port imports flow, which this module's importers import
from . import port as port_rules  # noqa: E402

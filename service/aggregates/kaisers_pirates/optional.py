"""The optional rules of section 6 (6.1-6.12): each one an ``--option`` recorded
in ``GameCreated``; none is on unless the players agreed to it (6.0).

This module holds what the rules read: the option names and their checks, the
decks each option changes (6.4, 6.5), and the modifiers and restrictions the
other modules ask for (``supply_mods``, ``break_contact_mods``, ``barred``...).
The ships a rule names are found by the flags of the catalog (``coal``,
``sails``, ``aircraft``, ``fast``; a merchant's ``sail``); the lists and dice
section 6 prints are in ``data/optional.json`` (read by
``catalog.optional_rules_table``; the rules read it as ``ix(state).optional_rules``).
The moves the optional rules add are played where their kind is: a prize's
stores (6.12) in ``actions.py``, the pursuits (6.6, 6.10) in ``combat.py`` and
``resolve.py``.
"""

from __future__ import annotations

from service.kernel import BadInput

from .board import ix

TYPE_CHECKING = False  # mypy takes the name as true; typing is not imported at run time
if TYPE_CHECKING:
    from typing import Any

    from service.kernel.machine import Step

    from .catalog import Index
    from .shapes import Mods, State, Status

RULES = {
    "coal": "6.1 coal: warships and coal-hungry raiders fall short of supply more easily",
    "sails": "6.2 sails: the Seeadler runs short of supply less, but is slower",
    "wolf": "6.3 Wolfchen: the Wolf's seaplane (Surprise Attack +4, no Slim Pickings, Break Contact +2)",
    "tournament": "6.4 tournament deal: round 1 balanced (a light cruiser, two raiders, merchants of 5, 7, 9 VP)",
    "beyond_1914": "6.5 beyond 1914: 'true' (6.5.1-6.5.2), 'historical' (+6.5.4's 19 merchants out), "
                   "'no-breakout' (+6.5.3, 4 players), or 'historical+no-breakout'",
    "fast_raiders": "6.6 fast raiders: they may chase a Fast Ship (then risk their supply); -2 on shoals",
    "keep_three": "6.7 keep up to 3 warships and raiders between rounds (4 cards for 2 kept, 3 for 3)",
    "extra_damage": "6.8 extra damage: every damage result adds a marker, -2 (+2 internment) for each",
    "torpedo_prizes": "6.9 submarines may torpedo an enemy's hidden prize (a 10/8 v 10 challenge first)",
    "shallow_pursuit": "6.10 a German ship may follow a merchant over the shoals (Shallow Run)",
    "sailing_merchants": "6.11 the twelve sailing merchants: no AMC, Q-Ship nor Fast Ship; Break Contact -2",
    "prize_resupply": "6.12 a prize may resupply one ship a turn, then may be exhausted and sunk",
}
BEYOND = ("true", "historical", "no-breakout", "historical+no-breakout")
def parse(seats: int, k: str, v: str, out: dict[str, Any]) -> None:
    """Check one optional rule's value and record it in ``out``."""
    if k == "beyond_1914":
        if v == "false":
            return
        if v not in BEYOND:
            raise BadInput(f"option beyond_1914 must be one of {', '.join(BEYOND)}")
        out[k] = v
        return
    if v not in ("true", "false"):
        raise BadInput(f"option {k} is 'true' or 'false' ({RULES[k]})")
    if v == "true":
        out[k] = True


def check_combination(seats: int, out: dict[str, Any]) -> None:
    """Every combination is accepted but these, each refused with its reason."""
    b = out.get("beyond_1914", "")
    if "no-breakout" in b and seats != 4:
        raise BadInput("option beyond_1914=no-breakout: 6.5.3 removes the Breakout cards with 4 players only")
    if b and out.get("tournament"):
        raise BadInput("options tournament and beyond_1914 cannot be combined: 6.4.1 deals the Emden and the "
                       "Nurnberg, which 6.5.1 removes from the game")


def on(state: State, k: str) -> bool:
    return bool((state.get("options") or {}).get(k))


# the decks (6.4, 6.5) --------------------------------------------------------
def check_catalog(options: dict[str, Any], ix: Index) -> None:
    """The ships and merchants a chosen rule names must be in the game's catalog."""
    d = ix.optional_rules
    if options.get("tournament"):
        t = d["tournament"]
        missing = [s for s in t["warships"] + t["removed"] if s not in ix.ships]
        if missing:
            raise BadInput(f"option tournament: the catalog has no {', '.join(missing)} (6.4)")
        seats = options.get("_seats", 4)
        for v in t["merchant_vp"]:
            n = sum(1 for m in ix.merchants.values() if m["vp"] == v and m["id"] not in t["merchant_excluded"])
            if n < seats:
                raise BadInput(f"option tournament: the catalog has {n} merchants of {v} VP, "
                               f"fewer than the {seats} players (6.4.3)")
    if options.get("beyond_1914"):
        b = d["beyond_1914"]
        missing = [s for s in b["ships_removed"] if s not in ix.ships]
        if "historical" in options["beyond_1914"]:
            missing += [m for m in b["merchants_removed"] if m not in ix.merchants]
        if missing:
            raise BadInput(f"option beyond_1914: the catalog has no {', '.join(missing)} (6.5)")


def prepare(state: State, ix: Index) -> None:
    """6.5: the ships (and merchants, 6.5.4; Breakout cards, 6.5.3) not used."""
    b = state["options"].get("beyond_1914")
    if not b:
        return
    d = ix.optional_rules["beyond_1914"]
    state["unused_ships"] = list(d["ships_removed"])
    state["ship_pool"] = [s for s in state["ship_pool"] if s not in d["ships_removed"]]
    if "historical" in b:
        state["unused_merchants"] = list(d["merchants_removed"])
        state["merchant_pool"] = [m for m in state["merchant_pool"] if m not in d["merchants_removed"]]
    if "no-breakout" in b:
        out = [c for c in ix.action_cards if ix.tid(c) == d["breakout"]]
        state["unused"] = list(state.get("unused") or []) + out
        state["pool"] = [c for c in state["pool"] if c not in out]


def tournament_deal(step: Step, seat: int, kind: str) -> list[str] | None:
    """6.4: the cards seat ``seat``'s first-round force is drawn from, or None."""
    state = step.state
    if state["round"] != 1 or state["phase"] != "dealing" or not on(state, "tournament"):
        return None
    i = ix(state)
    t = i.optional_rules["tournament"]
    p = state["players"][seat - 1]
    if kind == "ship":
        if not p["ships"]:
            return [s for s in t["warships"] if s in state["ship_pool"]]
        # the four light cruisers (all of them, even those no player holds) and the six named ships are out
        return [s for s in state["ship_pool"] if s not in t["warships"] and s not in t["removed"]]
    have = {i.merchants[m]["vp"] for m in p["merchants"]}
    want = next(v for v in t["merchant_vp"] if v not in have)
    return [m for m in state["merchant_pool"] if i.merchants[m]["vp"] == want and m not in t["merchant_excluded"]]


def held_from_reshuffle(state: State) -> list[str]:
    """6.5.2: within a round, ships removed by weather, internment, recall or
    scuttling are not shuffled back into the deck."""
    if not state["options"].get("beyond_1914"):
        return []
    return [s for s in state["ship_used"] if s in state.get("removed_this_round", ())]


# markers (6.8) ----------------------------------------------------------------
def markers(state: State, ship: str) -> int:
    st: Status | dict[str, Any] = state["status"].get(ship) or {}
    if not st.get("damaged"):
        return 0
    return st.get("hits", 1) if on(state, "extra_damage") else 1


def damage_mods(state: State, ship: str, sign: int = -1, label: str = "damaged") -> Mods:
    """-2 for each damage marker (+2 for internment): 3.2.7, 6.8.2."""
    n = markers(state, ship)
    if not n:
        return 0, []
    return sign * 2 * n, [f"{label} {'+' if sign > 0 else '-'}{2 * n}" + (f" ({n} markers)" if n > 1 else "")]


# who is who -------------------------------------------------------------------
def _flag(state: State, ship: str | None, flag: str) -> bool:
    s = ix(state).ships.get(ship)
    return bool(s and s.get(flag))


def sailing_merchant(state: State, ship: str) -> bool:
    m = ix(state).merchants.get(ship)
    return on(state, "sailing_merchants") and bool(m and m.get("sail"))


def fast_raider(state: State, ship: str | None) -> bool:
    return on(state, "fast_raiders") and _flag(state, ship, "fast")


# modifiers --------------------------------------------------------------------
SUPPLY = {  # (rule, flag): {roll: modifier}
    ("coal", "coal"): {"rendezvous-missed": 2, "blockade-runner": -1, "refuge": -1},      # 6.1.1-6.1.3
    ("sails", "sails"): {"rendezvous-missed": -2, "blockade-runner": 1, "refuge": 1},     # 6.2.1-6.2.3
}


def supply_mods(state: State, ship: str, what: str) -> Mods:
    """The coal and sails modifiers on a supply challenge (``what``: the card or 'refuge')."""
    why: list[str]
    mods, why = 0, []
    for (rule, flag), table in SUPPLY.items():
        if on(state, rule) and _flag(state, ship, flag) and what in table:
            m = table[what]
            mods += m
            why.append(f"{'coal' if rule == 'coal' else 'sails'} {m:+d} (6.{1 if rule == 'coal' else 2})")
    return mods, why


def break_contact_mods(state: State, ship: str, interceptor: str | None) -> Mods:
    """Break Contact played by ``ship`` against an intercept by ``interceptor``
    (a German ship, or None for British forces): 6.2.4, 6.2.5, 6.3.3, 6.11.2."""
    why: list[str]
    mods, why = 0, []
    if on(state, "sails") and _flag(state, ship, "sails"):
        mods, why = mods - 2, why + ["sails -2 (6.2.4)"]
    if on(state, "sails") and interceptor and _flag(state, interceptor, "sails"):
        mods, why = mods + 2, why + ["a slow interceptor +2 (6.2.5)"]
    if on(state, "wolf") and _flag(state, ship, "aircraft"):
        mods, why = mods + 2, why + ["Wolfchen +2 (6.3.3)"]
    if sailing_merchant(state, ship):
        mods, why = mods - 2, why + ["sailing merchant -2 (6.11.2)"]
    return mods, why


def fast_ship_extra(state: State, interceptor: str | None) -> Mods:
    """6.2.6: -2 more against the Seeadler."""
    if on(state, "sails") and _flag(state, interceptor, "sails"):
        return -2, ["against a sailing raider -2 (6.2.6)"]
    return 0, []


def surprise_extra(state: State, interceptor: str | None) -> Mods:
    """6.3.1: +2 more for the Wolf."""
    if on(state, "wolf") and interceptor and _flag(state, interceptor, "aircraft"):
        return 2, ["Wolfchen +2 (6.3.1)"]
    return 0, []


def shoal_mods(state: State, ship: str, pursuing: bool = False) -> Mods:
    """Crossing the shoals: -2 per damage marker; a fast raider -2 more (6.6.2, and
    6.10.4 for a pursuit: the same -2, counted once)."""
    mods, why = damage_mods(state, ship, label="already damaged")
    if fast_raider(state, ship):
        mods, why = mods - 2, why + ["deep draught -2 (6.6.2)"]
    elif pursuing and _flag(state, ship, "fast"):
        mods, why = mods - 2, why + ["water consumption -2 (6.10.4)"]
    return mods, why


def barred(state: State, reaction_types: set[str] | frozenset[str]) -> set[str]:
    """The reactions an optional rule forbids against the current target."""
    eng = state["eng"]
    tgt = eng["targets"][eng["i"]]
    out = set(reaction_types)
    if eng["kind"] == "intercept" and on(state, "wolf") and _flag(state, eng["ship"], "aircraft"):
        out.discard("slim-pickings")                                 # 6.3.2
    if sailing_merchant(state, tgt):
        out -= {"amc", "q-ship", "fast-ship"}                        # 6.11.1
    if eng["kind"] == "torpedo" and any(tgt in p["prizes"] for p in state["players"]):
        out -= {"q-ship", "sail-q-ship"}                             # 6.9.2
    return out


# the decisions the optional rules add -------------------------------------------
def can_pursue(state: State, reaction: str | None) -> bool:
    """6.6.1 (a fast raider against Fast Ship, not short of supply) and 6.10 (any
    German ship against Shallow Run; British forces never follow)."""
    eng = state["eng"]
    if eng["kind"] != "intercept" or not eng.get("ship"):
        return False
    if reaction == "shallow-run":
        return on(state, "shallow_pursuit")
    if reaction == "fast-ship":
        return fast_raider(state, eng["ship"]) and not state["status"][eng["ship"]]["supply"]  # type: ignore[index]  # (tested)
    return False


def resupply_options(state: State, seat: int) -> list[dict[str, Any]]:
    """6.12.1: one prize resupplies one ship short of supply, each prize once a turn."""
    if not on(state, "prize_resupply") or state["tt"] is None or state["window"] is not None \
            or state["eng"] is not None:
        return []
    p = state["players"][seat - 1]
    used = state["tt"].get("prize_used", ())
    short = [s for s in p["ships"] if state["status"][s]["supply"]]
    return [{"action": "resupply", "ship": s, "prize": z} for z in p["prizes"] if z not in used for s in short]

"""Bots for ``tools simulate`` and the tests: ``bot(state, seat, legal, rng)``.
They read what their seat may see (its own holdings, the board, the NPCs, the
public counts): a determinization of the rest leaves their choice as it is
(tests/analysis/test_heuristic_bots_hidden.py).

* ``random``: any legal decision.
* ``pirate``: a marauder that raids what it can beat and runs from what it
  cannot. The NPCs that hunt it (``npc.hostile``) and that it would not beat
  (``_beats``: each side's dice times cannons against what the other ship
  takes) are threats: it never sails into their zone, and a small search over
  its actions left (``_plan``: sailing, entering or leaving a port, one raid)
  ends its turn in a port or out of their reach (``_exposure``) when it can. It
  scouts merchant tokens and laden ships it beats, raids in the name of a
  nation whose navy is not at sea, spends each raid success by a two-ahead
  search over the cards left (loot, the raid's glory point, damage, never a
  sunk hull), sells its loot, hires crew, repairs, buys a Frigate, and sails
  home to stash when rich (keeping ``KEEP`` coins aboard).
* ``merchant``: a trader. It buys cheap goods and goods some other port wants
  (three of a kind sold at once earn a glory point), sails to the nearest port
  that wants what it carries around the NPCs that hunt it (the same search:
  never into a hunter's zone, the turn ended in port or out of reach), sells
  there, buys a Galleon for the glory (and its hold) when rich, and sails home
  to stash when it carries ``RICH`` coins, keeping ``TRADE`` to trade.

In a fight either flees a ship that would beat it. In a 4-seat game of two
pirates and two merchants (bench/strength.py, 200 games): pirates win 32%,
merchants 68%; the pirates lose 0.81 captains a game between them (the bots
before: about 10); 40% of the games end by glory, the rest by the event deck.
"""

from __future__ import annotations

from collections import deque

from .catalog import tables
from .glory import playable, window
from .abilities import dice as skill_dice
from .npc import captain_of, hostile, naval_nation
from .readings import raid_earns_glory
from .wanted import port_entries
from .state import at_home, capacity, funds, player, ship_max, side, stash_terms

TYPE_CHECKING = False   # (the imports below are the type checker's: none at run time)
if TYPE_CHECKING:
    from collections.abc import Callable, Collection
    from random import Random
    from typing import Any
    from .shapes import Decision, Location, Player, Ship, Side, State, Who

    # a plan's first action: ("end",), ("leave",), ("enter",), ("move", zone), ("merchant",), ("player", seat)
    Plan = tuple[Any, ...]


def random_bot(state: State, seat: int, legal: list[Decision], rng: Random) -> Decision:
    return rng.choice(legal)


def _by_action(legal: list[Decision]) -> dict[str, list[Decision]]:
    out: dict[str, list[Decision]] = {}
    for d in legal:
        out.setdefault(d["action"], []).append(d)
    return out


def _next_hop(state: State, start: str, goal: str, avoid: Collection[str] = ()) -> str | None:
    """First zone on a shortest path from ``start`` to ``goal`` (None if there), through
    no zone of ``avoid`` when such a path exists (the tests' seekers sail by it)."""
    if start == goal:
        return None
    adj = tables(state)["adj"]
    prev: dict[str, Any] = {start: None}    # zone -> the zone it is reached from (None: the start)
    q = deque([start])
    while q:
        z = q.popleft()
        if z == goal:
            break
        for n in sorted(adj[z]):
            if n not in prev and (n not in avoid or n == goal):
                prev[n] = z
                q.append(n)
    if goal not in prev:
        return _next_hop(state, start, goal) if avoid else None
    z = goal
    while prev[z] != start:
        z = prev[z]
    return z


def _dist(state: State, start: str) -> dict[str, int]:
    """Sailing distance from ``start`` to every zone."""
    return _dist_to(state, {start}, set())


def _wanted(state: State) -> dict[str, list[str]]:
    """good -> ports that want it (read, never changed: kept by the demand tiles, ``_WANTED``)."""
    S = tables(state)
    k = (id(S), tuple(state["board"]["demand"].items()))
    hit = _WANTED.get(k)
    if hit is not None and hit[0] is S:
        return hit[1]
    out: dict[str, list[str]] = {}
    for z, t in k[1]:
        out.setdefault(S["demand"][t], []).append(z)
    if len(_WANTED) >= _DISTANCES_KEPT:
        _WANTED.clear()
    _WANTED[k] = (S, out)
    return out


# the goods wanted by (the tables, the demand tiles on the board): few layouts a game
_WANTED: dict[tuple[int, tuple[tuple[str, Any], ...]], tuple[Any, dict[str, list[str]]]] = {}


def _target(state: State, p: Player, wanted: dict[str, list[str]]) -> str:
    """The port the merchant sails to (``wanted``: ``_wanted(state)``)."""
    S = tables(state)
    dist = _dist(state, p["zone"])
    here = p["zone"]
    goods = {S["good"][c] for c in p["cargo"]}
    home = S["captains"][p["captain"]]["home"]
    options = [z for g in goods for z in wanted.get(g, []) if not (z == here and state["port_used"])]
    if _stash_worth(state, p, RICH) and not (here == home and p["in_port"] and state["port_used"]):
        return home                                     # rich: the stash's glory first
    if options:
        return min(options, key=lambda z: (dist[z], z))
    if p["gold"] >= 15 and not (here == home and p["in_port"] and state["port_used"]):
        return home
    ports = [z for z in S["ports"] if z != here and (p["last_buy"] is None or p["last_buy"][0] != z)]
    return min(ports, key=lambda z: (dist[z], z))


RICH = 20   # a merchant this rich sails home to stash
TRADE = 8   # coins a merchant keeps aboard to trade


def _stash_worth(state: State, p: Player, rich: int) -> bool:
    """``p`` carries ``rich`` coins or more and its stash may still earn glory."""
    per, most = stash_terms(state)
    return p["gold"] >= rich and p["stash"] < per * most


def merchant_bot(state: State, seat: int, legal: list[Decision], rng: Random) -> Decision:
    p = player(state, seat)
    acts = _by_action(legal)
    if state.get("combat") is not None:         # attacked, or controlling an NPC
        return _combat_choice(state, side(state, state["combat"]["waiting"]), acts, rng)
    if state.get("turn_window") is not None:    # glory cards at the start of a turn
        return _glory_choice(state, p, acts)
    due = _what_is_due(state, acts)
    if due is not None:
        return due
    wanted = _wanted(state)
    if state["port"] is not None:
        return _port_activity(state, p, acts, wanted)
    if "discard_cargo" in acts:
        return _jettison(state, acts, wanted)
    if "port" in acts and _port_is_useful(state, p):
        return acts["port"][0]
    if state["actions"] > 0:
        sail = _sail_toward_goal(state, p, acts, wanted)
        if sail is not None:
            return sail
    return acts["end_turn"][0] if "end_turn" in acts else rng.choice(legal)


def _what_is_due(state: State, acts: dict[str, list[Decision]]) -> Decision | None:
    """What must be done before anything else: a tile placed, a ship chosen (a Flute), a
    rumor kept, a glory card over the limit discarded (not a specialist); a specialist
    hired as soon as it can be."""
    S = tables(state)
    for forced in ("place_upgrade", "choose_ship", "keep_rumor"):
        if forced in acts:
            if forced == "choose_ship":
                return next((d for d in acts[forced] if d["ship"] == "flute"), acts[forced][0])
            return acts[forced][0]
    if "discard_glory" in acts:
        plain = [d for d in acts["discard_glory"] if S["glory"][d["card"]]["kind"] != "specialist"]
        return (plain or acts["discard_glory"])[0]
    specialists = [d for d in acts.get("play_glory", []) if S["glory"][d["card"]]["kind"] == "specialist"]
    if specialists:
        return specialists[0]
    for task in ("complete_mission", "follow_rumor"):          # a glory point each when it works
        if task in acts:
            return acts[task][0]
    return None


def _port_activity(state: State, p: Player, acts: dict[str, list[Decision]], wanted: dict[str, list[str]]) -> Decision:
    """In the port action: the activity under way, else the next one worth doing."""
    money = funds(state, p)
    act = state["port"]["act"]
    if act == "buy":
        return _buy(state, p, acts, wanted, money)
    if act == "shipyard":
        return _shipyard(p, acts, money)
    if act == "recruit":
        return acts["end_recruit"][0]
    if act == "stash":
        return acts["end_stash"][0]
    return _next_activity(state, p, acts, wanted, money)


def _buy(state: State, p: Player, acts: dict[str, list[Decision]], wanted: dict[str, list[str]], money: int) -> Decision:
    """Goods another port wants, cheapest first, or any good at 1, while the hold has room
    and a coin is left."""
    S = tables(state)
    port = state["port"]
    room = capacity(state, p) - len(p["cargo"])
    here = port["port"]
    best = []
    for d in acts.get("buy", []):
        c = d["card"]
        price = port["offer"][c]
        good = S["good"][c]
        elsewhere = any(z != here for z in wanted.get(good, []))
        if room > 0 and money - price >= 1 and (elsewhere or price == 1):
            have = sum(1 for x in p["cargo"] if S["good"][x] == good)      # three sold at once: glory
            best.append((0 if elsewhere else 1, -min(have, 2), price, c, d))
    if best:
        return min(best)[-1]
    return acts["end_buy"][0]


def _shipyard(p: Player, acts: dict[str, list[Decision]], money: int) -> Decision:
    """A Galleon, else a Frigate, for the glory when rich; else a repair."""
    if "buy_ship" in acts and not p["glory_ship"]:
        for kind in ("galleon", "frigate"):
            for d in acts["buy_ship"]:
                if d["ship"] == kind and money >= 38:
                    return d
    if "repair" in acts and money >= 6:
        return acts["repair"][0]
    return acts["end_shipyard"][0]


def _next_activity(state: State, p: Player, acts: dict[str, list[Decision]], wanted: dict[str, list[str]], money: int) -> Decision:
    """Sell the demanded good (all of it), or a lone card nobody wants; stash at home; the
    shipyard when rich or damaged; buy goods with room and money; else leave."""
    S = tables(state)
    want_here = S["demand"][state["board"]["demand"][state["port"]["port"]]]
    sells = acts.get("sell", [])
    mine = [d for d in sells if d["good"] == want_here]
    if mine:
        return max(mine, key=lambda d: d["count"])
    dead = [d for d in sells if d["count"] == 1 and not wanted.get(d["good"])]
    if dead:
        return dead[0]
    if "stash" in acts and p["gold"] >= TRADE + 5:   # ten coins a glory point; some kept to trade
        fits = [d for d in acts["stash"] if d["amount"] <= p["gold"] - TRADE]
        if fits:
            return max(fits, key=lambda d: d["amount"])
    if "shipyard" in acts and ((not p["glory_ship"] and money >= 38)
                               or (p["ship"]["hull"] < ship_max(state, p["ship"], "hull") and money >= 8)):
        return acts["shipyard"][0]
    if "buy_goods" in acts and len(p["cargo"]) < capacity(state, p) and money >= 4:
        return acts["buy_goods"][0]
    return acts["end_port"][0]


def _jettison(state: State, acts: dict[str, list[Decision]], wanted: dict[str, list[str]]) -> Decision:
    """Over the hold in port: a card nobody wants first."""
    S = tables(state)
    dead = [d for d in acts["discard_cargo"] if not wanted.get(S["good"][d["card"]])]
    return (dead or acts["discard_cargo"])[0]


def _port_is_useful(state: State, p: Player) -> bool:
    """A port action here sells the demanded good, buys into an empty hold or stashes."""
    S = tables(state)
    here = p["zone"]
    return (any(S["good"][c] == S["demand"][state["board"]["demand"][here]] for c in p["cargo"])
            or (len(p["cargo"]) < capacity(state, p) and funds(state, p) >= 3)
            or (at_home(state, p) and p["gold"] >= TRADE + 5))


def _sail_toward_goal(state: State, p: Player, acts: dict[str, list[Decision]],
                      wanted: dict[str, list[str]]) -> Decision | None:
    """Toward the goal's port (``_target``) around the NPCs that hunt the ship and would
    beat it: never into their zone, the turn ended in a port or out of their reach when
    it can be; None: nothing to do."""
    goal = _target(state, p, wanted)
    threats = _threats(state, p)
    dist = _dist_to(state, {goal}, threats)

    def end_score(zone: str, in_port: bool) -> float:
        if in_port:
            if zone == goal and not (zone == p["zone"] and state["port_used"]):
                return 6.0
            return 2.5 - 1.0 * dist.get(zone, 10)
        hunters = _exposure(state, zone, threats)
        return 2.0 - 1.0 * dist.get(zone, 10) - hunters

    first, _ = _walk(state, p, threats, end_score)
    return None if first == ("end",) else _decision(acts, first)


def _raid_choice(state: State, p: Player, acts: dict[str, list[Decision]]) -> Decision | None:
    """Within a raid: weapons on failed dice; each success spent as the small search
    ``_raid_use`` finds best (draw, discard or swap a card, or stop) for the loot, a raid's
    glory and the ship; keep the richest cards that fit."""
    S = tables(state)
    if "raid" in acts:
        return max(acts["raid"], key=lambda d: p["flags"].get(d["nation"], 0))   # already wanted there
    if "spend_weapon" in acts:
        return acts["spend_weapon"][0]
    if "raid_take" in acts:
        return max(acts["raid_take"], key=lambda d: S["cargo"][d["card"]]["raid"])
    if "raid_take_done" in acts:
        return acts["raid_take_done"][0]
    if "raid_stop" in acts:
        return _raid_use(state, p, acts)
    return acts.get("weapons_done", acts.get("let_go", [None]))[0]


def _raid_outcome(state: State, p: Player, kinds: list[tuple[str, int]]) -> float:
    """What the raid's cards ``kinds`` ((icon, gold) each) are worth to the raider: the
    loot (and a glory point's worth where the game's reading gives one) if the raid
    succeeds, less the damage; a sunk ship is the captain's death."""
    ship = p["ship"]
    hits: dict[str, int] = {}
    escapes, loot = 0, 0
    for icon, gold in kinds:
        loot += gold
        if icon == "escape":
            escapes += 1
        else:
            loc = icon[4:]
            hits[loc] = hits.get(loc, 0) + 1
    hull = ship["hull"]
    broken = False
    for loc, k in hits.items():
        if loc == "hull":
            hull -= k
        elif k >= ship[loc]:  # type: ignore[literal-required]  # (an icon's location)
            broken = True
            hull -= k - ship[loc]  # type: ignore[literal-required]  # (an icon's location)
    if hull <= 0:
        return -60.0
    damage = 2.0 * sum(hits.values())
    if broken or hull <= 0 or escapes >= ship_max(state, ship, "maneuver"):
        return -damage
    return loot + (10.0 if raid_earns_glory(state, loot) else 0.0) - damage


def _raid_deck(state: State) -> dict[tuple[str, int], int]:
    """The cargo cards the raid may still turn, by (icon, gold), with their counts: the
    catalog's, less the cards in sight (the raid's, the raider's hold, the discards)."""
    S = tables(state)
    seen = list(state["raid"]["cards"]) + list(state["decks"]["cargo_discard"])
    counts: dict[tuple[str, int], int] = {}
    for info in S["cargo"].values():
        counts[(info["icon"], info["raid"])] = counts.get((info["icon"], info["raid"]), 0) + 1
    for c in seen:
        k = (S["cargo"][c]["icon"], S["cargo"][c]["raid"])
        counts[k] = counts.get(k, 0) - 1
    return {k: v for k, v in counts.items() if v > 0}


def _raid_use(state: State, p: Player, acts: dict[str, list[Decision]]) -> Decision:
    """The success's best use, two successes ahead: stop, discard, swap or draw."""
    S = tables(state)
    deck = _raid_deck(state)
    total = sum(deck.values()) or 1
    memo: dict[tuple[tuple[tuple[str, int], ...], int], float] = {}

    def value(kinds: list[tuple[str, int]], left: int) -> float:
        key = (tuple(sorted(kinds)), left)
        if key in memo:
            return memo[key]
        best = _raid_outcome(state, p, kinds)
        if left > 0:
            for i, _k in enumerate(kinds):
                rest = kinds[:i] + kinds[i + 1:]
                best = max(best, value(rest, left - 1))
                best = max(best, sum(n * value(rest + [x], left - 1) for x, n in deck.items()) / total)
            best = max(best, sum(n * value(kinds + [x], left - 1) for x, n in deck.items()) / total)
        memo[key] = best
        return best

    r = state["raid"]
    cards = list(r["cards"])
    kinds = [(S["cargo"][c]["icon"], S["cargo"][c]["raid"]) for c in cards]
    ahead = min(r["left"], 2) - 1
    options = [(_raid_outcome(state, p, kinds), 0, acts["raid_stop"][0])]
    for i, c in enumerate(cards):
        rest = kinds[:i] + kinds[i + 1:]
        options.append((value(rest, ahead), 1, {"action": "raid_discard", "card": c}))
        options.append((sum(n * value(rest + [x], ahead) for x, n in deck.items()) / total, 2,
                        {"action": "raid_swap", "card": c}))
    if "raid_draw" in acts:
        options.append((sum(n * value(kinds + [x], ahead) for x, n in deck.items()) / total, 3, acts["raid_draw"][0]))
    return max(options, key=lambda o: (o[0], -o[1]))[2]


def _combat_choice(state: State, p: Side, acts: dict[str, list[Decision]], rng: Random) -> Decision:
    """In a fight: a glory window's answer (``_glory_choice``); the side's combat action
    (``_combat_action``); its failed dice rolled again (``_reroll_failures``); a special
    shot on skulls; the bow cannon fired; a hit absorbed; skull hits placed on its
    soundest location (``_hit_placed``); everything plundered; a bigger ship claimed
    (``_claim``)."""
    ship = p["ship"]
    if "glory_announce" in acts or "glory_play" in acts or "glory_decline" in acts or "glory_reroll" in acts:
        return _glory_choice(state, p, acts)  # type: ignore[arg-type]  # (glory: a player's)
    if "combat_action" in acts:
        d = _combat_action(state, p, acts)
        if d is not None:
            return d
    if "reroll" in acts:
        return _reroll_failures(state, p, acts)
    if "special_shot" in acts:
        return acts["special_shot"][0]
    if "bow_cannon" in acts:
        return {"action": "bow_cannon", "fire": True}
    if "absorb" in acts:
        return acts["absorb"][0]
    if "place_hit" in acts:
        return _hit_placed(ship, acts)
    if "no_reallocate" in acts:
        return acts["no_reallocate"][0]
    if "plunder_cargo" in acts:
        return acts["plunder_cargo"][0]
    if "claim_ship" in acts:
        return _claim(state, ship)
    for k in ("no_shot", "plunder_done", "keep_dice"):
        if k in acts:
            return acts[k][0]
    return rng.choice([d for a in acts.values() for d in a])


def _combat_action(state: State, p: Side, acts: dict[str, list[Decision]]) -> Decision | None:
    """Flee a ship that would beat it (``_beats``, no margin), else shoot while it has
    cannons, else board with a crew, else flee."""
    ship = p["ship"]
    can = {d["do"] for d in acts["combat_action"]}
    c = state["combat"]
    foe = c["d"] if p.get("seat") == c["a"] else c["a"]
    if "flee" in can and isinstance(p.get("seat"), int) and _beats(state, foe, p["seat"], 1.0):
        return {"action": "combat_action", "do": "flee"}      # it would lose: run
    for want in (["shoot"] if ship["cannons"] > 0 else []) + (["board"] if ship["crew"] > 1 else []) + \
            ["flee", "board", "shoot"]:
        if want in can:
            return {"action": "combat_action", "do": want}
    return None


def _reroll_failures(state: State, p: Side, acts: dict[str, list[Decision]]) -> Decision:
    """The side's dice that failed rolled again; none failed: keep them."""
    c = state["combat"]
    dice = c["dice"]["a" if p["seat"] == c["a"] else "d"]
    low = [i for i, v in enumerate(dice) if v < tables(state)["success_from"]]
    return {"action": "reroll", "dice": low} if low else acts["keep_dice"][0]


def _hit_placed(ship: Ship, acts: dict[str, list[Decision]]) -> Decision:
    """A skull hit on the soundest location but the hull, while another remains."""
    spare = [d for d in acts["place_hit"] if d["location"] != "hull" and ship[d["location"]] > 0]  # type: ignore[literal-required]  # (a location)
    return max(spare, key=lambda d: ship[d["location"]]) if spare else acts["place_hit"][0]  # type: ignore[literal-required]  # (a location)


def _claim(state: State, ship: Ship) -> Decision:
    """The beaten ship claimed when its hull is the bigger."""
    c = state["combat"]
    theirs = side(state, c["loser"])["ship"]  # type: ignore[arg-type]  # (the fight decided: a loser)
    bigger = ship_max(state, theirs, "hull") > ship_max(state, ship, "hull")
    return {"action": "claim_ship", "claim": bool(bigger)}


def _glory_choice(state: State, p: Player, acts: dict[str, list[Decision]]) -> Decision:
    """Glory cards in a fight or at a turn's start: announce one only with a card of the
    phase in hand, play it; roll again its own failed dice and the other side's successes."""
    c = state.get("combat")
    if "glory_announce" in acts:
        return acts["glory_announce" if playable(state, p, window(state)["phase"]) else "glory_pass"][0]
    if "glory_play" in acts:
        return acts["glory_play"][0]
    if "glory_decline" in acts:
        return acts["glory_decline"][0]
    whose = c["window"]["reroll"][0]
    dice = c["dice"]["a" if whose == c["a"] else "d"]
    good = tables(state)["success_from"]
    want = [i for i, v in enumerate(dice) if (v < good) == (whose == p["seat"])]
    return {"action": "glory_reroll", "dice": want}


# the pirate ----------------------------------------------------------------------------

LOCS: tuple[Location, ...] = ("hull", "masts", "cargo", "crew", "cannons")


def _strength(state: State, who: Who) -> tuple[int, int, int]:
    """(dice a round, cannons, what the ship takes before it sinks) of a player's ship
    (its captain's Seamanship once revealed, else 2) or an NPC at sea (its chart's ship,
    whole, and its captain's Seamanship): all public."""
    S = tables(state)
    if isinstance(who, str) and who.startswith("npc:"):     # the NPC of a fight: its ship as it is now
        q = side(state, who)
        ship = q["ship"]
        dice = skill_dice(state, q, "seamanship")
        return (dice if ship["masts"] > 0 else 1), ship["cannons"], sum(ship[k] for k in LOCS) + ship["hull"]
    if isinstance(who, str):                        # an NPC at sea
        n = state["board"]["npcs"][who]
        ship = S["ships"][n["ship"]]
        life = 2 * ship["toughness"] + ship["cargo"] + ship["crew"] + ship["cannons"]
        return captain_of(state, who)["seamanship"], ship["cannons"], life
    pl = player(state, who)
    ship = pl["ship"]
    dice = skill_dice(state, pl, "seamanship") if pl["revealed"] or pl["captain"] is None else 2
    if ship is None:
        return 0, 0, 0
    return (dice if ship["masts"] > 0 else 1), ship["cannons"], sum(ship[k] for k in LOCS) + ship["hull"]


def _beats(state: State, me: Who, foe: Who, margin: float = 1.5) -> bool:
    """``me`` (a seat) sinks ``foe`` (a seat or an NPC) well before it is sunk itself:
    each side's expected hits a round (its dice times its cannons) against what the
    other ship takes, with a margin."""
    md, mc, ml = _strength(state, me)
    fd, fc, fl = _strength(state, foe)
    if mc == 0:
        return False
    mine = ml / max(fd * max(fc, 0.5), 0.1)         # rounds it survives
    theirs = fl / (md * mc)                         # rounds the foe survives
    return mine >= margin * theirs


def _threats(state: State, p: Player) -> set[str]:
    """The zones of the NPCs that hunt ``p`` and that it does not beat."""
    out: set[str] = set()
    for k, n in state["board"]["npcs"].items():
        if hostile(state, k, p) and not _beats(state, p["seat"], k):
            out.add(n["zone"])
    return out


def _may_enter(state: State, p: Player, zone: str) -> bool:
    """``p`` may enter the port of ``zone`` (a port, and not one that refuses it)."""
    return zone in tables(state)["ports"] and bool(port_entries(state, {**p, "zone": zone}))


def _exposed(state: State, zone: str, threats: set[str]) -> bool:
    """A ship left at sea in ``zone`` at the end of the turn may be found: a hunter
    there or next to it."""
    adj = tables(state)["adj"]
    return zone in threats or any(z in threats for z in adj[zone])


def _plan(state: State, p: Player, threats: set[str]) -> tuple[Plan, float]:
    """The pirate's best first action of the turn's actions left, by a small search
    over sailing (never into a hunter's zone), scouting a merchant token or a ship it
    beats, and entering a port; scored by the raid, where the turn ends (safe in port
    best, at sea next to a hunter worst) and how close the next merchant is."""
    S = tables(state)
    merchants = {z for z, t in state["board"]["merchants"].items() if t is not None}
    whole = all(p["ship"][k] > 0 for k in LOCS) and p["ship"]["hull"] > 1
    room = capacity(state, p) - len(p["cargo"])
    scouted = set(state.get("scouted", ()))
    dist_m = _dist_to(state, merchants - threats, threats)
    prey: dict[str, list[int]] = {}
    for q in state["players"]:
        if q["seat"] != p["seat"] and q["ship"] is not None and not q["in_port"] and q["captain"] is not None \
                and q["cargo"] and f"seat:{q['seat']}" not in scouted and _beats(state, p["seat"], q["seat"]):
            prey.setdefault(q["zone"], []).append(q["seat"])
    damaged = p["ship"]["hull"] < ship_max(state, p["ship"], "hull") or not whole

    home = S["captains"][p["captain"]]["home"]
    dist_home = _dist_to(state, {home}, threats)

    def end_score(zone: str, in_port: bool) -> float:
        if in_port:
            mends = damaged and (p["gold"] >= 2 or (zone == home and p["stash"] >= 2))
            if state["port_used"] and zone == p["zone"]:
                mends = False
            stash = zone == home and _stash_worth(state, p, KEEP + 10)
            return 1.0 + (3.0 if mends or p["cargo"] or stash else 0.0)
        hunters = _exposure(state, zone, threats)
        if (damaged and p["gold"] < 2) or _stash_worth(state, p, KEEP + 14):   # home: the stash
            return 1.5 - 0.6 * dist_home.get(zone, 8) - hunters
        return 1.5 - 0.5 * dist_m.get(zone, 6) - hunters - (4.0 if damaged else 0.0)

    def raids(zone: str, now: bool) -> list[tuple[Plan, float]]:
        """The raids open in ``zone`` (``now``: this action): ((kind, ...), worth)."""
        out: list[tuple[Plan, float]] = []
        if whole and zone in merchants and (not now or "merchant" not in scouted):
            out.append((("merchant",), 6.0 + (1.0 if room > 0 else 0.0)))
        if whole and zone in prey and now:
            out.append((("player", prey[zone][0]), 7.0))
        return out

    return _walk(state, p, threats, end_score, raids)


def _exposure(state: State, zone: str, threats: set[str]) -> float:
    """How exposed a ship left at sea in ``zone`` is to the hunters in ``threats`` (zones):
    an NPC moves to the prey in its zone or next to it at each of its icons."""
    adj = tables(state)["adj"]
    near = adj[zone]
    out = 8.0 if zone in threats else 0.0
    for z in threats:
        if z in near:
            out += 4.0
        elif any(z in adj[n] for n in near):
            out += 1.0
    return out


def _walk(state: State, p: Player, threats: set[str], end_score: Callable[[str, bool], float],
          raids: Callable[[str, bool], list[tuple[Plan, float]]] | None = None) -> tuple[Plan, float]:
    """The best first action of the turn's actions left, over sailing (never into a
    hunter's zone: ``threats``), entering a port, leaving it, and (``raids``) one raid;
    ``end_score(zone, in_port)``: where the turn ends. Returns (first, score); first is
    ``("end",)`` when ending the turn now is best."""
    adj = tables(state)["adj"]
    # a place's end score and whether its port lets the ship in depend on the place alone: each
    # is worked out once a walk (the paths reach the same few zones many times over)
    ends: dict[tuple[str, bool], float] = {(p["zone"], p["in_port"]): end_score(p["zone"], p["in_port"])}
    enters: dict[str, bool] = {}
    best_score, best_first = ends[p["zone"], p["in_port"]] + 0.05, ("end",)

    def walk(zone: str, in_port: bool, left: int, worth: float, first: Plan | None, raided: bool = False) -> None:
        nonlocal best_score, best_first
        if first is not None:                           # the turn ends here
            score = ends.get((zone, in_port))
            if score is None:
                score = ends[zone, in_port] = end_score(zone, in_port)
            score += worth
            if score > best_score:
                best_score, best_first = score, first
        if left == 0 or (in_port and first is not None):
            return
        if in_port:
            if zone not in threats:
                walk(zone, False, left - 1, worth, first or ("leave",), raided)
            return
        if raids is not None and not raided:
            for kind, value in raids(zone, first is None):
                walk(zone, False, left - 1, worth + value, first or kind, True)
        enter = enters.get(zone)
        if enter is None:
            enter = enters[zone] = _may_enter(state, p, zone)
        if enter:
            walk(zone, True, left - 1, worth, first or ("enter",), raided)
        for z in adj[zone]:
            if z not in threats:
                walk(z, False, left - 1, worth - 0.1, first or ("move", z), raided)

    walk(p["zone"], p["in_port"], state["actions"], 0.0, None)
    return best_first, best_score


def _dist_to(state: State, goals: Collection[str], avoid: Collection[str]) -> dict[str, int]:
    """Sailing distance from every zone to the nearest of ``goals``, around ``avoid`` (read,
    never changed: the map's distances are kept, ``_DISTANCES``)."""
    adj = tables(state)["adj"]
    k = (id(adj), frozenset(goals), frozenset(avoid))
    hit = _DISTANCES.get(k)
    if hit is not None and hit[0] is adj:
        return hit[1]
    dist = {z: 0 for z in goals}
    q = deque(goals)
    while q:
        z = q.popleft()
        for n in adj[z]:
            if n not in dist and n not in avoid:
                dist[n] = dist[z] + 1
                q.append(n)
    if len(_DISTANCES) >= _DISTANCES_KEPT:
        _DISTANCES.clear()
    _DISTANCES[k] = (adj, dist)
    return dist


# a map's distances by (the map's adjacency, goals, zones avoided): what the bots' walks ask again
# and again (the few ports they sail to, the few zones NPCs hold); the map kept beside to tell it
_DISTANCES: dict[tuple[int, frozenset[str], frozenset[str]], tuple[Any, dict[str, int]]] = {}
_DISTANCES_KEPT = 20_000


KEEP = 6    # gold a pirate keeps aboard: repairs, a crew, Port Royal's fee


def _needs(state: State, p: Player) -> tuple[list[str], bool]:
    """(locations to repair but the crew, crew to hire) of ``p``'s ship."""
    ship = p["ship"]
    repair = [k for k in ("hull", "masts", "cargo", "cannons") if ship[k] < ship_max(state, ship, k)]
    return repair, ship["crew"] < ship_max(state, ship, "crew")


def _pirate_port(state: State, p: Player, acts: dict[str, list[Decision]]) -> Decision:
    """In port: the activity under way (the shipyard: ``_pirate_shipyard``; the others
    closed at once), else the next one worth doing (``_pirate_next_activity``); no goods
    bought (the hold is for loot)."""
    act = state["port"]["act"]
    if act == "shipyard":
        return _pirate_shipyard(p, acts)
    if act == "recruit":
        return acts.get("hire_crew", acts["end_recruit"])[0]
    if act == "buy":
        return acts["end_buy"][0]
    if act == "stash":
        return acts["end_stash"][0]
    return _pirate_next_activity(state, p, acts)


def _pirate_shipyard(p: Player, acts: dict[str, list[Decision]]) -> Decision:
    """A Frigate (else a Galleon) for the glory when it can; else a repair, the hull
    first, the most damaged location next."""
    if "buy_ship" in acts and not p["glory_ship"]:
        for kind in ("frigate", "galleon"):
            for d in acts["buy_ship"]:
                if d["ship"] == kind:
                    return d
    fixes = acts.get("repair", [])
    if fixes:
        return min(fixes, key=lambda d: (d["location"] != "hull", p["ship"][d["location"]]))  # type: ignore[literal-required]  # (a location)
    return acts["end_shipyard"][0]


def _pirate_next_activity(state: State, p: Player, acts: dict[str, list[Decision]]) -> Decision:
    """Sell what it carries (the demanded good first), hire a crew, the shipyard for a
    Frigate or repairs, stash its gold at home above what it keeps aboard; else leave."""
    S = tables(state)
    money = funds(state, p)
    repair, crew = _needs(state, p)
    sells = acts.get("sell", [])
    if sells:
        want_here = S["demand"][state["board"]["demand"][state["port"]["port"]]]
        return max(sells, key=lambda d: (d["good"] == want_here, d["count"]))
    if "recruit" in acts and crew and money >= 2:
        return acts["recruit"][0]
    if "shipyard" in acts and ((not p["glory_ship"] and money >= 35) or (repair and money >= 2)):
        return acts["shipyard"][0]
    if "stash" in acts and p["gold"] >= KEEP + 5:
        fits = [d for d in acts["stash"] if d["amount"] <= p["gold"] - KEEP]
        if fits:
            return max(fits, key=lambda d: d["amount"])
    return acts["end_port"][0]


def pirate_bot(state: State, seat: int, legal: list[Decision], rng: Random) -> Decision:
    """A marauder that raids what it can beat and runs from what it cannot: it never sails
    into the zone of an NPC that hunts it and would beat it, ends its turns in port (or
    out of a hunter's reach), scouts merchant tokens and the laden ships it beats, raids
    in the name of a nation whose navy is not at sea (else one that wants it already),
    sells its loot, buys a Frigate, repairs, and stashes its gold at home."""
    p = player(state, seat)
    acts = _by_action(legal)
    if state.get("combat") is not None:         # for itself, or for the NPC it controls
        return _combat_choice(state, side(state, state["combat"]["waiting"]), acts, rng)
    if state.get("turn_window") is not None:
        return _glory_choice(state, p, acts)
    if state.get("raid") is not None:
        if "raid" in acts:
            return _raid_nation(state, p, acts)
        d = _raid_choice(state, p, acts)
        return d if d is not None else rng.choice(legal)
    due = _what_is_due(state, acts)
    if due is not None:
        return due
    if state["port"] is not None:
        return _pirate_port(state, p, acts)
    if "discard_cargo" in acts:
        return _jettison(state, acts, _wanted(state))
    if p["ship"] is None or p["zone"] is None:
        return merchant_bot(state, seat, legal, rng)
    if p["in_port"] and "port" in acts and _pirate_port_is_useful(state, p):
        return acts["port"][0]
    threats = _threats(state, p)
    if state["actions"] > 0:
        first, _ = _plan(state, p, threats)
        d = _decision(acts, first)
        if d is not None:
            return d
    return acts["end_turn"][0] if "end_turn" in acts else merchant_bot(state, seat, legal, rng)


def _decision(acts: dict[str, list[Decision]], first: Plan | None) -> Decision | None:
    """The listed decision that starts the plan ``first``."""
    if first is None:
        return None
    kind = first[0]
    if kind == "end":
        return acts.get("end_turn", [None])[0]
    if kind == "leave":
        return acts.get("leave_port", [None])[0]
    if kind == "merchant":
        return next((d for d in acts.get("scout", []) if d["target"] == "merchant"), None)
    if kind == "player":
        return next((d for d in acts.get("scout", []) if d["target"] == "player" and d["seat"] == first[1]), None)
    if kind == "enter":
        enter = acts.get("enter_port", [])
        return next((d for d in enter if d.get("by") == "fee"), enter[0] if enter else None)
    return next((d for d in acts.get("move", []) if d["to"] == first[1]), None)


def _pirate_port_is_useful(state: State, p: Player) -> bool:
    S = tables(state)
    repair, crew = _needs(state, p)
    money = funds(state, p)
    return bool(p["cargo"]) or (at_home(state, p, S) and p["gold"] >= KEEP + 5) or \
        ((repair or crew) and money >= 2) or (not p["glory_ship"] and money >= 35)


def _raid_nation(state: State, p: Player, acts: dict[str, list[Decision]]) -> Decision:
    """The nation a raid is made in the name of: one whose navy is not at sea and whose
    ports it still enters, else one that wants it already."""
    S = tables(state)
    navies = {naval_nation(state, k) for k in state["board"]["npcs"]}
    home_nation = S["zones"][S["captains"][p["captain"]]["home"]]["nation"]

    def cost(d: Decision) -> tuple[bool, bool, int]:
        n = d["nation"]
        return (n in navies, n == home_nation, -p["flags"].get(n, 0))
    return min(acts["raid"], key=cost)


BOTS = {"random": random_bot, "merchant": merchant_bot, "pirate": pirate_bot}

"""The golden's frozen copy of the Merchants & Marauders bots (bench/golden_bots/__init__.py):
the game's bots.py as it was when the digests were taken. Do not improve it: improve the game's own.

* ``random``: any legal decision.
* ``pirate``: a marauder that scouts and raids every merchant it meets while its
  ship is whole, and trades like the merchant otherwise.
* ``merchant``: a trader. It buys cheap goods and goods some other port
  wants, sails to the nearest port that wants what it carries, sells there,
  buys a Galleon for the glory (and its hold) when rich, and stashes its gold
  at its home port.
"""

from __future__ import annotations

from collections import deque

from service.aggregates.merchants_and_marauders.catalog import tables
from service.aggregates.merchants_and_marauders.glory import playable, window
from service.aggregates.merchants_and_marauders.npc import hostile
from service.aggregates.merchants_and_marauders.state import at_home, capacity, funds, player, ship_max, side


def random_bot(state, seat, legal, rng):
    return rng.choice(legal)


def _by_action(legal):
    out = {}
    for d in legal:
        out.setdefault(d["action"], []).append(d)
    return out


def _next_hop(state, start, goal, avoid=()):
    """First zone on a shortest path from ``start`` to ``goal`` (None if there), through
    no zone of ``avoid`` when such a path exists."""
    if start == goal:
        return None
    adj = tables(state)["adj"]
    prev = {start: None}
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


def _dist(state, start):
    adj = tables(state)["adj"]
    dist = {start: 0}
    q = deque([start])
    while q:
        z = q.popleft()
        for n in adj[z]:
            if n not in dist:
                dist[n] = dist[z] + 1
                q.append(n)
    return dist


def _wanted(state):
    """good -> ports that want it."""
    S = tables(state)
    out = {}
    for z, t in state["board"]["demand"].items():
        out.setdefault(S["demand"][t], []).append(z)
    return out


def _target(state, p):
    S = tables(state)
    wanted = _wanted(state)
    dist = _dist(state, p["zone"])
    here = p["zone"]
    goods = {S["good"][c] for c in p["cargo"]}
    home = S["captains"][p["captain"]]["home"]
    options = [z for g in goods for z in wanted.get(g, []) if not (z == here and state["port_used"])]
    if options:
        return min(options, key=lambda z: (dist[z], z))
    if p["gold"] >= 15 and not (here == home and p["in_port"] and state["port_used"]):
        return home
    ports = [z for z in S["ports"] if z != here and (p["last_buy"] is None or p["last_buy"][0] != z)]
    return min(ports, key=lambda z: (dist[z], z))


def merchant_bot(state, seat, legal, rng):
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
        sail = _sail_toward_goal(state, p, acts)
        if sail is not None:
            return sail
    return acts["end_turn"][0] if "end_turn" in acts else rng.choice(legal)


def _what_is_due(state, acts):
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
    return None


def _port_activity(state, p, acts, wanted):
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


def _buy(state, p, acts, wanted, money):
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
            best.append((0 if elsewhere else 1, price, c, d))
    if best:
        return min(best)[3]
    return acts["end_buy"][0]


def _shipyard(p, acts, money):
    """A Galleon, else a Frigate, for the glory when rich; else a repair."""
    if "buy_ship" in acts and not p["glory_ship"]:
        for kind in ("galleon", "frigate"):
            for d in acts["buy_ship"]:
                if d["ship"] == kind and money >= 38:
                    return d
    if "repair" in acts and money >= 6:
        return acts["repair"][0]
    return acts["end_shipyard"][0]


def _next_activity(state, p, acts, wanted, money):
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
    if "stash" in acts and p["gold"] > 8:
        return max(acts["stash"], key=lambda d: d["amount"])
    if "shipyard" in acts and ((not p["glory_ship"] and money >= 38)
                               or (p["ship"]["hull"] < ship_max(state, p["ship"], "hull") and money >= 8)):
        return acts["shipyard"][0]
    if "buy_goods" in acts and len(p["cargo"]) < capacity(state, p) and money >= 4:
        return acts["buy_goods"][0]
    return acts["end_port"][0]


def _jettison(state, acts, wanted):
    """Over the hold in port: a card nobody wants first."""
    S = tables(state)
    dead = [d for d in acts["discard_cargo"] if not wanted.get(S["good"][d["card"]])]
    return (dead or acts["discard_cargo"])[0]


def _port_is_useful(state, p):
    """A port action here sells the demanded good, buys into an empty hold or stashes."""
    S = tables(state)
    here = p["zone"]
    return (any(S["good"][c] == S["demand"][state["board"]["demand"][here]] for c in p["cargo"])
            or len(p["cargo"]) < capacity(state, p) or (at_home(state, p) and p["gold"] > 8))


def _sail_toward_goal(state, p, acts):
    """Leave port (not with a hunter waiting outside), enter the goal's port, or sail one
    zone toward it around the NPCs that hunt the ship; None: nothing to do."""
    goal = _target(state, p)
    if p["in_port"]:
        waiting = any(n["zone"] == p["zone"] and hostile(state, k, p) for k, n in state["board"]["npcs"].items())
        if goal != p["zone"] and "leave_port" in acts and not waiting:   # a hunter outside: wait
            return acts["leave_port"][0]
        return None
    if goal == p["zone"] and "enter_port" in acts:
        return acts["enter_port"][0]
    danger = {n["zone"] for k, n in state["board"]["npcs"].items() if hostile(state, k, p)}
    hop = _next_hop(state, p["zone"], goal, danger)      # around the NPCs that hunt it
    for d in acts.get("move", []):
        if d["to"] == hop:
            return d
    return None


def _raid_choice(state, p, acts):
    """Within a raid: weapons on failed dice; each success swaps a card whose hit
    would destroy a location, else an escape card that lets the merchant go,
    else draws for more loot while the ship can take it; keep what fits."""
    S = tables(state)
    r = state["raid"]
    if "raid" in acts:
        return max(acts["raid"], key=lambda d: p["flags"].get(d["nation"], 0))   # already wanted there
    if "spend_weapon" in acts:
        return acts["spend_weapon"][0]
    if "raid_take" in acts:
        return max(acts["raid_take"], key=lambda d: S["cargo"][d["card"]]["raid"])
    if "raid_take_done" in acts:
        return acts["raid_take_done"][0]
    if "raid_stop" in acts:
        hits = {}
        for c in r["cards"]:
            icon = S["cargo"][c]["icon"]
            if icon != "escape":
                hits.setdefault(icon[4:], []).append(c)
        for loc, cards in sorted(hits.items()):
            if len(cards) >= p["ship"][loc]:
                return {"action": "raid_swap", "card": cards[0]}
        escapes = [c for c in r["cards"] if S["cargo"][c]["icon"] == "escape"]
        if len(escapes) >= ship_max(state, p["ship"], "maneuver"):
            return {"action": "raid_discard", "card": escapes[0]}
        if "raid_draw" in acts and sum(len(v) for v in hits.values()) < 2:
            return acts["raid_draw"][0]
        return acts["raid_stop"][0]
    return acts.get("weapons_done", acts.get("let_go", [None]))[0]


def _combat_choice(state, p, acts, rng):
    """In a fight: shoot while it has cannons, else board with a crew, else flee; spend
    a special shot on skulls; place skull hits on its soundest location (never the
    hull while another remains); plunder everything and claim a bigger ship."""
    ship = p["ship"]
    if "glory_announce" in acts or "glory_play" in acts or "glory_decline" in acts or "glory_reroll" in acts:
        return _glory_choice(state, p, acts)
    if "combat_action" in acts:
        can = {d["do"] for d in acts["combat_action"]}
        for want in (["shoot"] if ship["cannons"] > 0 else []) + (["board"] if ship["crew"] > 1 else []) + \
                ["flee", "board", "shoot"]:
            if want in can:
                return {"action": "combat_action", "do": want}
    if "reroll" in acts:
        c = state["combat"]
        dice = c["dice"]["a" if p["seat"] == c["a"] else "d"]
        low = [i for i, v in enumerate(dice) if v < tables(state)["success_from"]]
        return {"action": "reroll", "dice": low} if low else acts["keep_dice"][0]
    if "special_shot" in acts:
        return acts["special_shot"][0]
    if "bow_cannon" in acts:
        return {"action": "bow_cannon", "fire": True}
    if "absorb" in acts:
        return acts["absorb"][0]
    if "place_hit" in acts:
        spare = [d for d in acts["place_hit"] if d["location"] != "hull" and ship[d["location"]] > 0]
        return max(spare, key=lambda d: ship[d["location"]]) if spare else acts["place_hit"][0]
    if "no_reallocate" in acts:
        return acts["no_reallocate"][0]
    if "plunder_cargo" in acts:
        return acts["plunder_cargo"][0]
    if "claim_ship" in acts:
        c = state["combat"]
        theirs = side(state, c["loser"])["ship"]
        bigger = ship_max(state, theirs, "hull") > ship_max(state, ship, "hull")
        return {"action": "claim_ship", "claim": bool(bigger)}
    for k in ("no_shot", "plunder_done", "keep_dice"):
        if k in acts:
            return acts[k][0]
    return rng.choice([d for a in acts.values() for d in a])


def _glory_choice(state, p, acts):
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


def pirate_bot(state, seat, legal, rng):
    """A marauder: it scouts every merchant it meets and raids it while its ship is
    whole, and otherwise trades and sails like the merchant bot (repairing first)."""
    p = player(state, seat)
    acts = _by_action(legal)
    if state.get("combat") is not None:         # for itself, or for the NPC it controls
        return _combat_choice(state, side(state, state["combat"]["waiting"]), acts, rng)
    if state.get("turn_window") is not None:
        return _glory_choice(state, p, acts)
    if state.get("raid") is not None:
        d = _raid_choice(state, p, acts)
        return d if d is not None else rng.choice(legal)
    whole = all(p["ship"][k] > 0 for k in ("hull", "masts", "cargo", "crew", "cannons")) if p["ship"] else False
    if "scout" in acts and whole and p["ship"]["hull"] > 1:
        for d in acts["scout"]:         # a merchant, or a weaker ship
            if d["target"] == "merchant" or (d["target"] == "player" and
                                             player(state, d["seat"])["ship"]["cannons"] < p["ship"]["cannons"]):
                return d
    enter = acts.get("enter_port", [])
    if enter and not any(d == {"action": "enter_port"} for d in enter):
        return enter[0]                          # wanted here: the fee, else Influence
    return merchant_bot(state, seat, legal, rng)


BOTS = {"random": random_bot, "merchant": merchant_bot, "pirate": pirate_bot}

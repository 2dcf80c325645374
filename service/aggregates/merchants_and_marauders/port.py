"""The port action and its activities: sell goods (first), buy goods, the
shipyard, recruit, acquire a rumor, stash gold (home port only).

``legal_port`` lists the small decisions open now; each ``do_*`` emits the
consequences of one decision already known to be legal.
"""

from __future__ import annotations

from itertools import combinations

from . import abilities as ab
from .catalog import tables as T

from .flow import bank_pays, draw_cargo, gain_glory, skill_test
from .state import at_home, capacity, damage, funds, player, ship_max, ship_maxima

REPAIRABLE = ("hull", "masts", "cargo", "cannons")


def demanded_good(state, port):
    tile = state["board"]["demand"].get(port)
    return T(state)["demand"][tile] if tile else None


def cargo_by_good(state, p):
    out = {}
    good = T(state)["good"]
    for c in p["cargo"]:
        out.setdefault(good[c], []).append(c)
    for cards in out.values():
        cards.sort()
    return out


AMOUNT_STEPS = (1, 5, 10)


def amounts(n):
    """The amounts ``legal`` offers (and ``decide`` accepts) for one stash or
    withdraw decision out of ``n`` coins: 1, 5, 10 and everything. Several
    decisions in a row reach any whole amount (stashing stays open until
    ``end_stash``; withdrawing is free at the home port)."""
    if n <= 0:
        return []
    out = []                # the steps below ``n`` (in order), then ``n``: sorted, none twice
    for a in AMOUNT_STEPS:
        if a < n:
            out.append(a)
    out.append(n)
    return out


def sale_value(state, p, port, keep=None):
    """What the shipyard pays for the current ship (upgrades +1 each unless
    they move to the new ship at St. John, damage -1 a point, never below 0).
    ``keep``: at St. John (rules version 3) the tiles the player keeps; the others sell."""
    S = T(state)
    ship = p["ship"]
    info = S["ships"][ship["type"]]
    if not info["for_sale"]:
        return 0
    if not keeps_upgrades(state, port):
        sold = len(ship["upgrades"])
    elif keep is None:
        sold = 0
    else:
        sold = len(ship["upgrades"]) - len(keep)
    bonus = S["rules"]["upgrade_sale_bonus"] * sold
    return max(0, info["sell"] + bonus - damage(state, ship))


def keeps_upgrades(state, port):
    return T(state)["zones"][port]["special"].get("kind") == "transfer_upgrades"


def keep_choices(state, p, port):
    """St. John (rules version 3): every set of the ship's tiles to keep (the rest sell for +1)."""
    if not state.get("fixes") or not keeps_upgrades(state, port):
        return [None]
    tiles = sorted(p["ship"]["upgrades"])
    return [list(c) for k in range(len(tiles), -1, -1) for c in combinations(tiles, k)]


def legal_port(state, seat, home=None, S=None):
    """``home``: ``at_home`` of the seat's player, when the caller has read it; ``S``: the
    state's tables (``T(state)``), likewise (``legal`` passes both: it asks at every step)."""
    if S is None:
        S = T(state)
    R = S["rules"]
    p = state["players"][seat - 1]
    port = state["port"]
    here = port["port"]
    if home is None:
        home = at_home(state, p, S)
    money = funds(state, p, home)
    act = port["act"]
    out = []
    if act == "buy":
        out += [{"action": "buy", "card": c} for c, price in sorted(port["offer"].items()) if price <= money]
        out.append({"action": "end_buy"})
        return out
    if act == "shipyard":
        ship = p["ship"]
        if money >= ab.price(state, p, "repair", R["repair_price"]):
            most = ship_maxima(state, ship)
            out += [{"action": "repair", "location": loc} for loc in REPAIRABLE if ship[loc] < most[loc]]
        hull = [t for t in ship["flipped"] if S["upgrade"][t] == "reinforced_hull"]
        if hull and money >= R["reinforced_hull_repair"]:
            out.append({"action": "rearm_hull"})          # Reinforced Hull turned face up again
        tile = state["board"]["upgrades"][here]
        if tile is not None and state["board"]["revealed"][here] and money >= ab.price(state, p, "upgrade", R["upgrade_price"]) and \
                S["upgrade"][tile] not in {S["upgrade"][t] for t in ship["upgrades"]}:
            out.append({"action": "buy_upgrade"})
        weapon_price = None                 # read at the first weapon in stock
        for kind in sorted(S["weapons"]):
            if kind in p["weapons"]:
                out.append({"action": "sell_weapon", "kind": kind})
            elif state["weapons"][kind] > 0:
                if weapon_price is None:
                    weapon_price = ab.price(state, p, "weapon", R["weapon_price"])
                if money >= weapon_price:
                    out.append({"action": "buy_weapon", "kind": kind})
        keeps = keep_choices(state, p, here)
        sale = []                           # the old ship's price, by tiles kept (a loop: mostly one)
        for keep in keeps:
            sale.append(sale_value(state, p, here, keep))
        for kind, info in S["ships"].items():
            if not info["for_sale"]:
                continue
            for keep, value in zip(keeps, sale):
                if info["buy"] - value <= money:    # the new ship's price less the old one's
                    out.append({"action": "buy_ship", "ship": kind} if keep is None else
                               {"action": "buy_ship", "ship": kind, "keep": keep})
        out.append({"action": "end_shipyard"})
        return out
    if act == "stash":
        out += [{"action": "stash", "amount": a} for a in amounts(p["gold"])]
        out.append({"action": "end_stash"})
        return out
    if act == "recruit":
        ship = p["ship"]
        if ship["crew"] < ship_max(state, ship, "crew") and money >= ab.price(state, p, "recruit", R["recruit_price"]):
            out.append({"action": "hire_crew"})
        out.append({"action": "end_recruit"})
        return out
    started = port["started"]
    if not port["sell_closed"] and started.count("sell") == len(started):     # (all sales so far)
        for good, cards in sorted(cargo_by_good(state, p).items()):
            out += [{"action": "sell", "good": good, "count": k} for k in range(1, len(cards) + 1)]
    if "buy" not in started:
        out.append({"action": "buy_goods"})
    if "shipyard" not in started:
        out.append({"action": "shipyard"})
    if "recruit" not in started and p["ship"]["crew"] < ship_max(state, p["ship"], "crew"):
        out.append({"action": "recruit"})
    if "rumor" not in started and money >= R["rumor_price"] and state["decks"]["rumors"]:
        out.append({"action": "rumor"})
    if "mission" not in started:
        for m, z in sorted(state["board"]["missions"].items()):    # (a loop: a comprehension is one more call)
            if z == here:
                out.append({"action": "claim_mission", "mission": m})
    if "stash" not in started and home:
        out += [{"action": "stash", "amount": a} for a in amounts(p["gold"])]
    if tasks.has_task(p):   # (asked first: most captains have none, and the call is saved)
        out += tasks.port_activities(state, p, started)     # rumors followed, missions completed (rules version 4)
    out.append({"action": "end_port"})
    return out


# the activities ------------------------------------------------------------------

def do_sell(step, seat, d):
    state = step.state
    R = T(state)["rules"]
    p = player(state, seat)
    here = state["port"]["port"]
    good, k = d["good"], d["count"]
    cards = cargo_by_good(state, p)[good][:k]
    demanded = good == demanded_good(state, here)
    price = R["sell_demand_price"] if demanded else R["sell_price"]
    total = bank_pays(state, price * k)
    step.emit("GoodsSold", seat=seat, port=here, good=good, cards=cards, price=price, total=total,
              demanded=demanded)
    if demanded:
        old = state["board"]["demand"][here]
        reserve = state["decks"]["demand_reserve"]
        new = step.draw("demand_reserve", reserve, vis="all", why=f"new demand tile for {here}",
                        unknown_pool=unseen_identities(state, "demand"))
        step.emit("DemandTileReplaced", port=here, old=old, new=new, good=T(state)["demand"][new])
        if k >= R["demand_glory_cards"]:
            gain_glory(step, seat, f"sold {k} {good} where it was in demand")


def do_buy_goods(step, seat, d):
    state = step.state
    S = T(state)
    R = S["rules"]
    p = player(state, seat)
    here = state["port"]["port"]
    repeat = p["last_buy"] == [here, state["turn"] - 1]
    n = R["buy_draw_repeat"] if repeat else R["buy_draw"]
    step.emit("PortActivityBegun", seat=seat, activity="buy", draw=n, repeat=repeat)
    want = demanded_good(state, here)
    offer, reshuffled = [], False
    while len(offer) < n:
        before = len(state["decks"]["cargo"])
        card = draw_cargo(step, seat, f"seat {seat} buys goods at {here}", reshuffle=not reshuffled)
        if card is None:
            break
        if before == 0:
            reshuffled = True
        if S["good"][card] == want:
            step.emit("DemandedCargoDiscarded", seat=seat, cards=[card], good=want)
        else:
            offer.append(card)
    counts = {}
    for c in offer:
        counts[S["good"][c]] = counts.get(S["good"][c], 0) + 1
    special = S["zones"][here]["special"]
    prices = {}
    for c in offer:
        k = counts[S["good"][c]]
        price = R["buy_prices"][str(min(k, 3))]
        if special.get("kind") == "buy_price" and k >= 2:
            price = min(price, special["pair_price"])
        prices[c] = price
    step.emit("CargoOffered", vis=[seat], seat=seat, offer=prices)
    step.emit("CargoDrawnForSale", seat=seat, cards=len(offer))


def do_buy(step, seat, d):
    price = step.state["port"]["offer"][d["card"]]
    step.emit("CargoBought", vis=[seat], seat=seat, card=d["card"], price=price,
              good=T(step.state)["good"][d["card"]])


def do_end_buy(step, seat, d):
    state = step.state
    port = state["port"]
    returned = sorted(port["offer"])
    step.emit("BuyingEnded", seat=seat, bought=port.get("bought", 0), returned=returned)


def do_shipyard(step, seat, d):
    step.emit("PortActivityBegun", seat=seat, activity="shipyard")


def do_repair(step, seat, d):
    state = step.state
    step.emit("ShipRepaired", seat=seat, location=d["location"],
              cost=ab.price(state, player(state, seat), "repair", T(state)["rules"]["repair_price"]))


def do_rearm_hull(step, seat, d):
    state = step.state
    ship = player(state, seat)["ship"]
    t = next(t for t in ship["flipped"] if T(state)["upgrade"][t] == "reinforced_hull")
    step.emit("HullRearmed", seat=seat, tile=t, cost=T(state)["rules"]["reinforced_hull_repair"])


def do_buy_upgrade(step, seat, d):
    state = step.state
    here = state["port"]["port"]
    tile = state["board"]["upgrades"][here]
    step.emit("UpgradeBought", seat=seat, port=here, tile=tile, kind=T(state)["upgrade"][tile],
              cost=ab.price(state, player(state, seat), "upgrade", T(state)["rules"]["upgrade_price"]))


def do_buy_weapon(step, seat, d):
    state = step.state
    step.emit("WeaponBought", seat=seat, kind=d["kind"],
              cost=ab.price(state, player(state, seat), "weapon", T(state)["rules"]["weapon_price"]))


def do_sell_weapon(step, seat, d):
    state = step.state
    step.emit("WeaponSold", seat=seat, kind=d["kind"], price=bank_pays(state, T(state)["rules"]["weapon_sale"]))


def do_buy_ship(step, seat, d):
    state = step.state
    S = T(state)
    p = player(state, seat)
    here = state["port"]["port"]
    kind = d["ship"]
    value = sale_value(state, p, here, d.get("keep"))
    net = S["ships"][kind]["buy"] - value
    if net < 0:
        net = -bank_pays(state, -net)
    keep = keeps_upgrades(state, here)
    kept = []
    if keep and "keep" in d:
        kept = list(d["keep"])          # the player's choice; the rest were sold
    elif keep:
        seen = set()
        for t in p["ship"]["upgrades"]:
            if S["upgrade"][t] not in seen:
                kept.append(t)
                seen.add(S["upgrade"][t])
    glory = S["ships"][kind]["glory_on_buy"] and not p["glory_ship"]
    step.emit("ShipBought", seat=seat, port=here, ship=kind, old=p["ship"]["type"], price=S["ships"][kind]["buy"],
              sale_value=value, net=net, keep_upgrades=keep, kept=kept)
    if glory:
        gain_glory(step, seat, f"bought a {S['ships'][kind]['name']} (once per captain)")


def do_end_activity(step, seat, d):
    step.emit("PortActivityEnded", seat=seat, activity=step.state["port"]["act"])


def do_recruit(step, seat, d):
    state = step.state
    step.emit("PortActivityBegun", seat=seat, activity="recruit")
    if skill_test(step, seat, "leadership", "recruit"):
        p = player(state, seat)
        missing = ship_max(state, p["ship"], "crew") - p["ship"]["crew"]
        step.emit("CrewRecruited", seat=seat, crew=missing, cost=0, how="leadership test")
        step.emit("PortActivityEnded", seat=seat, activity="recruit")


def do_hire_crew(step, seat, d):
    state = step.state
    step.emit("CrewRecruited", seat=seat, crew=1, how="paid",
              cost=ab.price(state, player(state, seat), "recruit", T(state)["rules"]["recruit_price"]))


def do_rumor(step, seat, d):
    state = step.state
    step.emit("PortActivityBegun", seat=seat, activity="rumor")
    step.emit("RumorSought", seat=seat, cost=T(state)["rules"]["rumor_price"])
    if skill_test(step, seat, "influence", "acquire a rumor") and state["decks"]["rumors"]:
        card = step.draw("rumors", state["decks"]["rumors"], vis=[seat], why=f"rumor for seat {seat}")
        step.emit("RumorDrawn", vis=[seat], seat=seat, card=card)
        step.emit("RumorAcquired", seat=seat)


def do_keep_rumor(step, seat, d):
    p = player(step.state, seat)
    pair = [p["rumor"], p["offered_rumor"]]
    other = pair[1] if d["card"] == pair[0] else pair[0]
    step.emit("RumorKept", vis=[seat], seat=seat, kept=d["card"], discarded=other)
    step.emit("RumorChosen", seat=seat)


def do_claim_mission(step, seat, d):
    """Claim a mission lying at this port. Mission texts are unknown: the
    claim is an Influence test (provisional, as in the book's example of a
    failed claim); a claimed mission is replaced from the deck. Completing
    missions comes with their texts (later)."""
    state = step.state
    p = player(state, seat)
    m = d["mission"]
    step.emit("PortActivityBegun", seat=seat, activity="mission")
    if not skill_test(step, seat, "influence", f"claim mission {m}"):
        step.emit("MissionClaimFailed", seat=seat, mission=m)
        return
    step.emit("MissionClaimed", seat=seat, mission=m, port=state["port"]["port"], discarded=p["mission"])
    if state["decks"]["missions"]:
        new = step.draw("missions", state["decks"]["missions"], vis="all", why="a new mission for the board")
        info = T(state)["missions"][new]
        step.emit("MissionPlaced", mission=new, name=info["name"], port=info["location"])


def do_stash(step, seat, d):
    """The first ``stash`` opens the activity and is announced (the book: you
    declare that you stash, not how much); further amounts until ``end_stash``
    are private, so the others learn neither the sum nor the number of steps."""
    if step.state["port"]["act"] != "stash":
        step.emit("PortActivityBegun", seat=seat, activity="stash")
        step.emit("GoldStashed", seat=seat)
    step.emit("StashChanged", vis=[seat], seat=seat, amount=d["amount"])


def do_withdraw(step, seat, d):
    """Gold moved from the stash aboard at the home port: announced once a
    turn (the stash box is on the table), the amounts private."""
    if not step.state.get("withdrew"):
        step.emit("GoldWithdrawn", seat=seat)
    step.emit("StashChanged", vis=[seat], seat=seat, amount=-d["amount"])


def do_end_port(step, seat, d):
    step.emit("PortActionEnded", seat=seat)


def do_place_upgrade(step, seat, d):
    p = player(step.state, seat)
    tiles = sorted(p["returning"])
    tile = tiles[0] if len(tiles) == 1 else step.pick(
        tiles, vis="referee", why=f"which face-down upgrade tile goes to {d['port']}")
    step.emit("UpgradeTilePlaced", vis="referee", seat=seat, port=d["port"], tile=tile)
    step.emit("UpgradeTileHidden", seat=seat, port=d["port"])


def do_port(step, seat, d):
    state = step.state
    p = player(state, seat)
    here = p["zone"]
    S = T(state)
    cap = S["captains"][p["captain"]]
    if ab.has(state, p, "enter_any_port") and p["flags"].get(S["zones"][here]["nation"]) and here != cap["home"] \
            and not skill_test(step, seat, "influence", f"a port action at {here} while wanted"):
        step.emit("PortActionRefused", seat=seat, port=here)   # Alexandre Villon: in, but not served
        return
    step.emit("PortActionBegun", seat=seat, port=here)
    tile = state["board"]["upgrades"][here]
    if tile is not None and not state["board"]["revealed"][here]:
        tile = step.identify("upgrades", tile, unseen_identities(state, "upgrade"),
                             why=f"the upgrade tile at {here} is turned over")
        step.emit("UpgradeTileRevealed", port=here, tile=tile, kind=T(state)["upgrade"][tile])


def over_capacity(state, p):
    return len(p["cargo"]) > capacity(state, p)


HANDLERS = {
    "port": do_port, "sell": do_sell, "buy_goods": do_buy_goods, "buy": do_buy, "end_buy": do_end_buy,
    "shipyard": do_shipyard, "repair": do_repair, "buy_upgrade": do_buy_upgrade, "buy_weapon": do_buy_weapon,
    "sell_weapon": do_sell_weapon, "rearm_hull": do_rearm_hull, "buy_ship": do_buy_ship, "end_shipyard": do_end_activity,
    "recruit": do_recruit, "hire_crew": do_hire_crew, "end_recruit": do_end_activity, "rumor": do_rumor,
    "keep_rumor": do_keep_rumor, "claim_mission": do_claim_mission, "stash": do_stash, "end_stash": do_end_activity, "withdraw": do_withdraw, "end_port": do_end_port,
    "place_upgrade": do_place_upgrade,
}
__all__ = ["HANDLERS", "legal_port", "over_capacity"]


def unseen_identities(state, kind: str) -> list:
    """At a table: the tiles (``demand``/``upgrade``) or tokens (``merchant``)
    nobody has seen yet, i.e. every one of the kind not known to be elsewhere.
    Empty in any other game: nothing lies face down unseen, nobody is asked to name it."""
    if not state.get("unseen"):
        return []
    from service.kernel.machine import is_unknown

    every = T(state)[kind]
    board = state["board"]
    if kind == "demand":
        known = set(board["demand"].values()) | {t for t in state["decks"]["demand_reserve"] if not is_unknown(t)}
    elif kind == "upgrade":
        known = {t for t in board["upgrades"].values() if t is not None and not is_unknown(t)}
        for p in state["players"]:
            known |= set((p.get("ship") or {}).get("upgrades", [])) | set(p.get("returning", []))
    else:
        known = {t for t in board["merchants"].values() if t is not None and not is_unknown(t)}
        known |= set(board.get("merchant_track", []))
    return sorted(t for t in every if t not in known)


# imported at the end, once (not in ``legal_port``): tasks imports this module
from . import tasks  # noqa: E402

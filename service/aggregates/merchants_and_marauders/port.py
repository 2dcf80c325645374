"""The port action and its activities (the book: "Azioni in porto", p. 7): sell
goods (first), buy goods, the shipyard (shipyard.py), recruit, acquire a rumor, claim a
mission, stash gold (home port only); rumors followed and missions completed in port
(tasks.py). The port action itself: entering and the upgrade tile turned over, and a
wanted Alexandre Villon's Influence test.

``legal_port`` lists the small decisions open now; each ``do_*`` emits the
consequences of one decision already known to be legal; their events are applied here.
"""

from __future__ import annotations

from . import abilities
from . import shipyard, tasks
from .catalog import tables
from .mechanics import bank_pays, draw_cargo, gain_glory, skill_test
from .state import (at_home, capacity, cargo_by_good, funds, pay, player, receive, ship_max, spend_action,
                    unseen_identities)

TYPE_CHECKING = False   # (the imports below are the type checker's: none at run time)
if TYPE_CHECKING:
    from service.kernel.events import Ev
    from service.kernel.machine import Step
    from typing import Any
    from .shapes import Decision, Player, State

def demanded_good(state: State, port: str) -> str | None:
    tile = state["board"]["demand"].get(port)
    return tables(state)["demand"][tile] if tile else None


AMOUNT_STEPS = (1, 5, 10)


def amounts(n: int) -> list[int]:
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


def legal_port(state: State, seat: int, home: bool | None = None, S: dict[str, Any] | None = None) -> list[Decision]:
    """``home``: ``at_home`` of the seat's player, when the caller has read it; ``S``: the
    state's tables (``tables(state)``), likewise (``legal`` passes both: it asks at every step).
    The book: "Azioni in porto", p. 7."""
    if S is None:
        S = tables(state)
    R = S["rules"]
    p = state["players"][seat - 1]
    port = state["port"]
    here = port["port"]
    if home is None:
        home = at_home(state, p, S)
    money = funds(state, p, home)
    act = port["act"]
    out: list[Decision] = []
    if act == "buy":
        out += [{"action": "buy", "card": c} for c, price in sorted(port["offer"].items()) if price <= money]
        out.append({"action": "end_buy"})
        return out
    if act == "shipyard":
        return shipyard.legal(state, p, here, money, S)
    if act == "stash":
        out += [{"action": "stash", "amount": a} for a in amounts(p["gold"])]
        out.append({"action": "end_stash"})
        return out
    if act == "recruit":
        ship = p["ship"]
        if ship["crew"] < ship_max(state, ship, "crew") and money >= abilities.price(state, p, "recruit", R["recruit_price"]):
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
        here_missions = [m for m, z in state["board"]["missions"].items() if z == here]
        if here_missions:       # (mostly none: only this port's missions are sorted)
            out += [{"action": "claim_mission", "mission": m} for m in sorted(here_missions)]
    if "stash" not in started and home:
        out += [{"action": "stash", "amount": a} for a in amounts(p["gold"])]
    if tasks.has_task(p):   # (asked first: most captains have none, and the call is saved)
        out += tasks.port_activities(state, p, started)     # rumors followed, missions completed (rules version 4)
    out.append({"action": "end_port"})
    return out


# the activities ---------------------------------------------------------------------

def do_sell(step: Step, seat: int, d: dict[str, Any]) -> None:
    """The book: "Vendere merci", p. 7."""
    state = step.state
    R = tables(state)["rules"]
    p = player(state, seat)
    here = state["port"]["port"]
    good, k = d["good"], d["count"]
    cards = cargo_by_good(state, p)[good][:k]
    demanded = good == demanded_good(state, here)
    price = R["sell_demand_price"] if demanded else R["sell_price"]
    total = bank_pays(state, price * k)
    step.emit("GoodsSold", {"seat": seat, "port": here, "good": good, "cards": cards, "price": price, "total": total,
              "demanded": demanded})
    if demanded:
        old = state["board"]["demand"][here]
        reserve = state["decks"]["demand_reserve"]
        new = step.draw("demand_reserve", reserve, vis="all", why=f"new demand tile for {here}",
                        unknown_pool=unseen_identities(state, "demand"))
        step.emit("DemandTileReplaced", {"port": here, "old": old, "new": new, "good": tables(state)["demand"][new]})
        if k >= R["demand_glory_cards"]:
            gain_glory(step, seat, f"sold {k} {good} where it was in demand")


def do_buy_goods(step: Step, seat: int, d: dict[str, Any]) -> None:
    """The book: "Comprare merci", p. 7."""
    state = step.state
    S = tables(state)
    R = S["rules"]
    p = player(state, seat)
    here = state["port"]["port"]
    repeat = p["last_buy"] == [here, state["turn"] - 1]
    n = R["buy_draw_repeat"] if repeat else R["buy_draw"]
    step.emit("PortActivityBegun", {"seat": seat, "activity": "buy", "draw": n, "repeat": repeat})
    want = demanded_good(state, here)
    offer: list[str] = []
    reshuffled = False
    while len(offer) < n:
        before = len(state["decks"]["cargo"])
        card = draw_cargo(step, seat, f"seat {seat} buys goods at {here}", reshuffle=not reshuffled)
        if card is None:
            break
        if before == 0:
            reshuffled = True
        if S["good"][card] == want:
            step.emit("DemandedCargoDiscarded", {"seat": seat, "cards": [card], "good": want})
        else:
            offer.append(card)
    counts: dict[str, int] = {}
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
    step.emit("CargoOffered", {"seat": seat, "offer": prices}, vis=[seat])
    step.emit("CargoDrawnForSale", {"seat": seat, "cards": len(offer)})


def do_buy(step: Step, seat: int, d: dict[str, Any]) -> None:
    """The book ("Comprare merci", p. 7): the player buys cards among those drawn. The
    table sees a card go from the offer into the player's hand (who, how many), never which
    card nor its price (the gold aboard is hidden): the public ``CargoCardTaken``."""
    state = step.state
    price = state["port"]["offer"][d["card"]]
    step.emit("CargoBought", {"seat": seat, "card": d["card"], "price": price,
              "good": tables(state)["good"][d["card"]]}, vis=[seat])
    if state.get("table_seen"):
        step.emit("CargoCardTaken", {"seat": seat, "offered": len(state["port"]["offer"]),
                  "held": len(player(state, seat)["cargo"])})


def do_end_buy(step: Step, seat: int, d: dict[str, Any]) -> None:
    state = step.state
    port = state["port"]
    returned = sorted(port["offer"])
    step.emit("BuyingEnded", {"seat": seat, "bought": port.get("bought", 0), "returned": returned})


def do_end_activity(step: Step, seat: int, d: dict[str, Any]) -> None:
    step.emit("PortActivityEnded", {"seat": seat, "activity": step.state["port"]["act"]})


def do_recruit(step: Step, seat: int, d: dict[str, Any]) -> None:
    """The book: "Reclutare", p. 7."""
    state = step.state
    step.emit("PortActivityBegun", {"seat": seat, "activity": "recruit"})
    if skill_test(step, seat, "leadership", "recruit"):
        p = player(state, seat)
        missing = ship_max(state, p["ship"], "crew") - p["ship"]["crew"]
        step.emit("CrewRecruited", {"seat": seat, "crew": missing, "cost": 0, "how": "leadership test"})
        step.emit("PortActivityEnded", {"seat": seat, "activity": "recruit"})


def do_hire_crew(step: Step, seat: int, d: dict[str, Any]) -> None:
    """The book: "Reclutare", p. 7."""
    state = step.state
    step.emit("CrewRecruited", {"seat": seat, "crew": 1, "how": "paid",
              "cost": abilities.price(state, player(state, seat), "recruit", tables(state)["rules"]["recruit_price"])})


def do_rumor(step: Step, seat: int, d: dict[str, Any]) -> None:
    """The book: "Acquisire una diceria", p. 7."""
    state = step.state
    step.emit("PortActivityBegun", {"seat": seat, "activity": "rumor"})
    step.emit("RumorSought", {"seat": seat, "cost": tables(state)["rules"]["rumor_price"]})
    if skill_test(step, seat, "influence", "acquire a rumor") and state["decks"]["rumors"]:
        card = step.draw("rumors", state["decks"]["rumors"], vis=[seat], why=f"rumor for seat {seat}")
        step.emit("RumorDrawn", {"seat": seat, "card": card}, vis=[seat])
        step.emit("RumorAcquired", {"seat": seat})


def do_keep_rumor(step: Step, seat: int, d: dict[str, Any]) -> None:
    p = player(step.state, seat)
    pair = [p["rumor"], p["offered_rumor"]]
    other = pair[1] if d["card"] == pair[0] else pair[0]
    step.emit("RumorKept", {"seat": seat, "kept": d["card"], "discarded": other}, vis=[seat])
    step.emit("RumorChosen", {"seat": seat})


def do_claim_mission(step: Step, seat: int, d: dict[str, Any]) -> None:
    """Claim a mission lying at this port: an Influence test (the book's example of a
    failed claim; RULINGS.md); a claimed mission is replaced from the deck, and one held
    before goes to the discards. Completing it: tasks.py. The book: "Reclamare una missione", p. 7."""
    state = step.state
    p = player(state, seat)
    m = d["mission"]
    step.emit("PortActivityBegun", {"seat": seat, "activity": "mission"})
    if not skill_test(step, seat, "influence", f"claim mission {m}"):
        step.emit("MissionClaimFailed", {"seat": seat, "mission": m})
        return
    step.emit("MissionClaimed", {"seat": seat, "mission": m, "port": state["port"]["port"], "discarded": p["mission"]})
    if state["decks"]["missions"]:
        new = step.draw("missions", state["decks"]["missions"], vis="all", why="a new mission for the board")
        info = tables(state)["missions"][new]
        step.emit("MissionPlaced", {"mission": new, "name": info["name"], "port": info["location"]})


def do_stash(step: Step, seat: int, d: dict[str, Any]) -> None:
    """The first ``stash`` opens the activity and is announced (the book: you
    declare that you stash, not how much); further amounts until ``end_stash``
    are private, so the others learn neither the sum nor the number of steps.
    The book: "Nascondere monete nel salvadanaio", p. 7."""
    if step.state["port"]["act"] != "stash":
        step.emit("PortActivityBegun", {"seat": seat, "activity": "stash"})
        step.emit("GoldStashed", {"seat": seat})
    step.emit("StashChanged", {"seat": seat, "amount": d["amount"]}, vis=[seat])


def do_withdraw(step: Step, seat: int, d: dict[str, Any]) -> None:
    """Gold moved from the stash aboard at the home port: announced once a
    turn (the stash box is on the table), the amounts private."""
    if not step.state.get("withdrew"):
        step.emit("GoldWithdrawn", {"seat": seat})
    step.emit("StashChanged", {"seat": seat, "amount": -d["amount"]}, vis=[seat])


def do_end_port(step: Step, seat: int, d: dict[str, Any]) -> None:
    step.emit("PortActionEnded", {"seat": seat})


def do_port(step: Step, seat: int, d: dict[str, Any]) -> None:
    """The book: "Azioni in porto", p. 7."""
    state = step.state
    p = player(state, seat)
    here = p["zone"]
    S = tables(state)
    cap = S["captains"][p["captain"]]
    if abilities.has(state, p, "enter_any_port") and p["flags"].get(S["zones"][here]["nation"]) and here != cap["home"] \
            and not skill_test(step, seat, "influence", f"a port action at {here} while wanted"):
        step.emit("PortActionRefused", {"seat": seat, "port": here})   # Alexandre Villon: in, but not served
        return
    step.emit("PortActionBegun", {"seat": seat, "port": here})
    tile = state["board"]["upgrades"][here]
    if tile is not None and not state["board"]["revealed"][here]:
        tile = step.identify("upgrades", tile, unseen_identities(state, "upgrade"),
                             why=f"the upgrade tile at {here} is turned over")
        S = tables(state)
        named = {"name": S["upgrade_name"][tile]} if state.get("table_seen") else {}    # as printed
        step.emit("UpgradeTileRevealed", {"port": here, "tile": tile, "kind": S["upgrade"][tile], **named})


def over_capacity(state: State, p: Player) -> bool:
    n = len(p["cargo"])
    # (the ship's Cargo asked first: ``capacity`` is never below it, and most holds are not full)
    return n > p["ship"]["cargo"] and n > capacity(state, p)


# the events ---------------------------------------------------------------------------

def _port_begun(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["actions"] -= 1                   # (spend_action, inline: a hot path)
    state["acted"] = True
    state["port_used"] = True
    state["port"] = {"port": d["port"], "started": [], "act": None, "sell_closed": False, "offer": {}, "bought": 0}


def _port_action_refused(state: State, d: dict[str, Any], ev: Ev) -> None:
    spend_action(state)
    state["port_used"] = True


def _upgrade_revealed(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["board"]["revealed"][d["port"]] = True


def _goods_sold(state: State, d: dict[str, Any], ev: Ev) -> None:
    p = player(state, d["seat"])
    for c in d["cards"]:
        p["cargo"].remove(c)
    state["decks"]["cargo_discard"].extend(d["cards"])
    receive(state, p, d["total"])
    if "sell" not in state["port"]["started"]:
        state["port"]["started"].append("sell")


def _demand_replaced(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["board"]["demand"][d["port"]] = d["new"]
    state["decks"]["demand_reserve"].append(d["old"])
    state["port"]["sell_closed"] = True


def _activity_begun(state: State, d: dict[str, Any], ev: Ev) -> None:
    port = state["port"]
    port["started"].append(d["activity"])
    if d["activity"] in ("buy", "shipyard", "recruit", "stash"):
        port["act"] = d["activity"]


def _activity_ended(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["port"]["act"] = None


def _demanded_discarded(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["decks"]["cargo_discard"].extend(d["cards"])


def _cargo_offered(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["port"]["offer"] = dict(d["offer"])


def _cargo_bought(state: State, d: dict[str, Any], ev: Ev) -> None:
    p = player(state, d["seat"])
    state["port"]["offer"].pop(d["card"])
    p["cargo"].append(d["card"])
    state["port"]["bought"] += 1
    pay(state, p, d["price"])


def _buying_ended(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["decks"]["cargo_discard"].extend(d["returned"])
    state["port"]["offer"] = {}
    state["port"]["act"] = None
    if d.get("bought", 1) or not state.get("fixes"):   # the three-card rule counts goods really bought
        player(state, d["seat"])["last_buy"] = [state["port"]["port"], state["turn"]]


def _crew_recruited(state: State, d: dict[str, Any], ev: Ev) -> None:
    p = player(state, d["seat"])
    p["ship"]["crew"] += d["crew"]
    pay(state, p, d["cost"])


def _rumor_sought(state: State, d: dict[str, Any], ev: Ev) -> None:
    pay(state, player(state, d["seat"]), d["cost"])


def _rumor_drawn(state: State, d: dict[str, Any], ev: Ev) -> None:
    p = player(state, d["seat"])
    if p["rumor"] is None:
        p["rumor"] = d["card"]
    else:
        p["offered_rumor"] = d["card"]
        p["pending"].append("keep_rumor")


def _rumor_kept(state: State, d: dict[str, Any], ev: Ev) -> None:
    p = player(state, d["seat"])
    if d["kept"] != p["rumor"]:
        p.pop("rumor_shown", None)      # a kept rumor shown face up (tasks.py) given up
    p["rumor"] = d["kept"]
    p["offered_rumor"] = None
    p["pending"].remove("keep_rumor")
    state["decks"]["rumors"].append(d["discarded"])


def _mission_claimed(state: State, d: dict[str, Any], ev: Ev) -> None:
    p = player(state, d["seat"])
    del state["board"]["missions"][d["mission"]]
    if p["mission"] is not None:
        state["decks"]["mission_discard"].append(p["mission"])
    p["mission"] = d["mission"]


def _mission_placed(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["board"]["missions"][d["mission"]] = d["port"]


def _stash_changed(state: State, d: dict[str, Any], ev: Ev) -> None:
    p = player(state, d["seat"])
    p["gold"] -= d["amount"]
    p["stash"] += d["amount"]


def _gold_stashed(state: State, d: dict[str, Any], ev: Ev) -> None:
    player(state, d["seat"])["stash_acts"] += 1


def _gold_withdrawn(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["withdrew"] = True


def _port_ended(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["port"] = None  # type: ignore[typeddict-item]  # (None: it is over; shapes.py)


HANDLERS = {
    "port": do_port, "sell": do_sell, "buy_goods": do_buy_goods, "buy": do_buy, "end_buy": do_end_buy,
    "end_shipyard": do_end_activity, "recruit": do_recruit, "hire_crew": do_hire_crew, "end_recruit": do_end_activity,
    "rumor": do_rumor, "keep_rumor": do_keep_rumor, "claim_mission": do_claim_mission, "stash": do_stash,
    "end_stash": do_end_activity, "withdraw": do_withdraw, "end_port": do_end_port,
    **shipyard.HANDLERS,
}

APPLY = {
    "PortActionBegun": _port_begun,
    "PortActionRefused": _port_action_refused,
    "UpgradeTileRevealed": _upgrade_revealed,
    "GoodsSold": _goods_sold,
    "DemandTileReplaced": _demand_replaced,
    "PortActivityBegun": _activity_begun,
    "PortActivityEnded": _activity_ended,
    "DemandedCargoDiscarded": _demanded_discarded,
    "CargoOffered": _cargo_offered,
    "CargoBought": _cargo_bought,
    "BuyingEnded": _buying_ended,
    "CrewRecruited": _crew_recruited,
    "RumorSought": _rumor_sought,
    "RumorDrawn": _rumor_drawn,
    "RumorKept": _rumor_kept,
    "MissionClaimed": _mission_claimed,
    "MissionPlaced": _mission_placed,
    "StashChanged": _stash_changed,
    "GoldStashed": _gold_stashed,
    "GoldWithdrawn": _gold_withdrawn,
    "PortActionEnded": _port_ended,
}

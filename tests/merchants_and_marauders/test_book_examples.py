"""The rulebook's examples and rules of trade, driven in table mode: the
referee enters every shuffle, card and die the test states.

Captains (provisional home ports from the catalog): Felipe's home port is
Havana, Frances Wright's is Port Royal."""

import pytest

from service.kernel import IllegalDecision, NotYourTurn

from .helpers import end_turn_if_due, S, Table, cards_of, demand_order, give_gold, types

FELIPE, FRANCES = "felipe", "frances_wright"


def start(ships=("sloop", "sloop"), wants=None, first=1, captains=(FELIPE, FRANCES), seats=2, script=None):
    wants = wants or {"havana": "sugar", "nassau": "rum", "port_royal": "wood"}
    base = {"demand_tiles": [demand_order(wants)], "captains": list(captains), "pick": [first]}
    for k, v in (script or {}).items():
        base[k] = v
    t = Table(seats, base)
    assert t.g.to_act() == list(range(1, seats + 1))      # simultaneous secret choice
    for seat, ship in enumerate(ships, start=1):
        t.act(seat, {"action": "choose_ship", "ship": ship})
    assert t.state["phase"] == "play" and t.state["turn"] == 1
    return t


def test_setup_reveals_captains_and_ships_at_home_ports():
    base = {"demand_tiles": [demand_order({"havana": "sugar"})], "captains": [FELIPE, FRANCES], "pick": [2]}
    t = Table(2, base)
    evs = t.act(1, {"action": "choose_ship", "ship": "flute"})
    # the choice is secret until the reveal: only seat 1 sees it
    chosen = [e for e in evs if e.type == "ShipChosen"]
    assert chosen and chosen[0].vis == [1] and evs[0].vis == [1]
    assert "CaptainsRevealed" not in types(evs)
    assert t.g.to_act() == [2]
    evs = t.act(2, {"action": "choose_ship", "ship": "sloop"})
    reveal = next(e for e in evs if e.type == "CaptainsRevealed")
    assert reveal.vis == "all"
    assert reveal.data["seats"] == {"1": {"captain": FELIPE, "ship": "flute"},
                                    "2": {"captain": FRANCES, "ship": "sloop"}}
    p1, p2 = t.p(1), t.p(2)
    assert (p1["zone"], p1["in_port"], p2["zone"]) == ("havana", True, "port_royal")
    assert p1["gold"] == p2["gold"] == 10 and len(p1["hand"]) == len(p2["hand"]) == 1
    # hit-location cubes from the ship card: a sloop has 2 everywhere but 1 cannon
    assert {k: p2["ship"][k] for k in ("hull", "masts", "cargo", "crew", "cannons")} == \
        {"hull": 2, "masts": 2, "cargo": 2, "crew": 2, "cannons": 1}
    assert t.state["order"] == [2, 1] and t.g.to_act() == [2]
    assert "EventCardDrawn" in types(evs)
    assert sum(1 for z in t.state["board"]["merchants"].values() if z) == 17
    assert len(t.state["board"]["demand"]) == 16 and len(t.state["decks"]["demand_reserve"]) == 8
    assert len(t.state["board"]["missions"]) == 2
    # glory cards and captain draws are private
    for e in t.g.events:
        if e.type in ("GloryCardDealt", "CaptainDealt") or (e.type == "CardDrawn" and e.data["deck"] in ("glory", "captains")):
            assert e.vis == [e.data.get("seat") or int(e.data["why"].split("seat ")[1].split()[0].strip("()"))]


def test_movement_example_havana_port_to_nassau_port_uses_all_three_actions():
    t = start()
    assert (t.p(1)["zone"], t.p(1)["in_port"]) == ("havana", True)
    t.act(1, {"action": "leave_port"})
    t.act(1, {"action": "move", "to": "nassau"})
    assert {"action": "port"} not in t.g.legal(1)          # at sea: no port action
    evs = t.act(1, {"action": "enter_port"})
    assert (t.p(1)["zone"], t.p(1)["in_port"]) == ("nassau", True)
    # the actions are spent, but the glory card dealt at set-up may still be played: the
    # turn ends when the player says so (rules version 3)
    assert "PlayerTurnEnded" not in types(evs) and t.state["actions"] == 0
    assert {d["action"] for d in t.g.legal(1)} == {"play_glory", "end_turn"}
    evs = t.act(1, {"action": "end_turn"})
    assert "PlayerTurnEnded" in types(evs) and t.g.to_act() == [2]
    n = len(t.g.events)
    with pytest.raises(NotYourTurn):
        t.g.act(1, {"action": "port"})                     # the port action waits for next turn
    assert len(t.g.events) == n
    end_turn_if_due(t, 1)
    t.act(2, {"action": "end_turn"})
    assert t.state["turn"] == 2 and {"action": "port"} in t.g.legal(1)


def test_buying_example_prices_by_how_many_of_a_good_were_drawn():
    spices, cocoa, rum, sugar = cards_of("spices"), cards_of("cocoa"), cards_of("rum"), cards_of("sugar")
    drawn = [spices[0], cocoa[0], sugar[0], cocoa[1], rum[0], rum[1], rum[2]]
    t = start(script={"cargo": drawn})
    t.act(1, {"action": "port"})
    evs = t.act(1, {"action": "buy_goods"})
    # Havana wants sugar: the sugar drawn is discarded face up and replaced
    disc = next(e for e in evs if e.type == "DemandedCargoDiscarded")
    assert disc.vis == "all" and disc.data["cards"] == [sugar[0]]
    offer = next(e for e in evs if e.type == "CargoOffered")
    assert offer.vis == [1]
    assert offer.data["offer"] == {spices[0]: 3, cocoa[0]: 2, cocoa[1]: 2, rum[0]: 1, rum[1]: 1, rum[2]: 1}
    assert all(e.vis == [1] for e in evs if e.type == "CardDrawn")
    evs = t.act(1, {"action": "buy", "card": rum[0]})
    bought = next(e for e in evs if e.type == "CargoBought")
    assert bought.vis == [1] and evs[0].vis == [1] and bought.data["price"] == 1
    t.act(1, {"action": "buy", "card": spices[0]})
    assert t.p(1)["gold"] == 10 - 1 - 3
    evs = t.act(1, {"action": "end_buy"})
    ended = next(e for e in evs if e.type == "BuyingEnded")
    assert ended.vis == "all" and ended.data["bought"] == 2
    assert sorted(ended.data["returned"]) == sorted([cocoa[0], cocoa[1], rum[1], rum[2]])
    assert sorted(t.p(1)["cargo"]) == sorted([rum[0], spices[0]])
    # the other seat's view shows neither the cards nor the gold
    other = t.g.rules.view(t.state, 2)["players"]["1"]
    assert other["cargo_cards"] == 2 and "cargo" not in other and "gold" not in other


def test_nassau_prices_two_of_a_good_at_one():
    t = start(wants={"havana": "sugar", "nassau": "wood"}, script={"captains": ["captain_06", FRANCES]})
    assert t.p(1)["zone"] == "nassau"
    rum, cocoa = cards_of("rum"), cards_of("cocoa")
    t.add("cargo", rum[0], rum[1], cocoa[0], *cards_of("food")[:3])
    t.act(1, {"action": "port"})
    evs = t.act(1, {"action": "buy_goods"})
    offer = next(e for e in evs if e.type == "CargoOffered").data["offer"]
    assert offer[rum[0]] == offer[rum[1]] == 1 and offer[cocoa[0]] == 3


def test_selling_into_demand_pays_six_replaces_the_tile_ends_selling_and_gives_glory():
    rum = cards_of("rum")
    wood = cards_of("wood")
    script = {"cargo": [rum[0], rum[1], rum[2], wood[0], *cards_of("food")[:2]]}
    t = start(ships=("flute", "sloop"), script=script)
    # at a table the reserve is face down and unseen: the tile drawn is named when it is turned up
    new_tile = sorted(set(S["demand"]) - set(t.state["board"]["demand"].values()))[0]
    t.add("demand_reserve", new_tile)
    t.act(1, {"action": "port"})
    t.act(1, {"action": "buy_goods"})
    for c in (rum[0], rum[1], rum[2], wood[0]):
        t.act(1, {"action": "buy", "card": c})
    assert t.p(1)["gold"] == 10 - 3 - 3
    t.act(1, {"action": "end_buy"})
    t.act(1, {"action": "end_port"})
    t.act(1, {"action": "leave_port"})
    t.act(1, {"action": "move", "to": "nassau"})
    end_turn_if_due(t, 1)
    t.act(2, {"action": "end_turn"})
    t.act(1, {"action": "enter_port"})
    t.act(1, {"action": "port"})
    legal = t.g.legal(1)
    assert {"action": "sell", "good": "rum", "count": 3} in legal
    evs = t.act(1, {"action": "sell", "good": "rum", "count": 3})
    sold = next(e for e in evs if e.type == "GoodsSold")
    assert sold.vis == "all" and sold.data["price"] == 6 and sold.data["total"] == 18 and sold.data["demanded"]
    rep = next(e for e in evs if e.type == "DemandTileReplaced")
    assert rep.data["new"] == new_tile and t.state["board"]["demand"]["nassau"] == new_tile
    assert rep.data["old"] in t.state["decks"]["demand_reserve"]
    assert "GloryGained" in types(evs) and t.p(1)["glory"] == 1 and len(t.p(1)["hand"]) == 2
    assert t.p(1)["gold"] == 4 + 18
    # the demand tile was replaced: no more selling this turn (not even the wood)
    assert not any(d["action"] == "sell" for d in t.g.legal(1))
    n = len(t.g.events)
    with pytest.raises(IllegalDecision):
        t.g.act(1, {"action": "sell", "good": "wood", "count": 1})
    assert len(t.g.events) == n


def test_selling_plain_goods_pays_three_and_must_come_first():
    wood = cards_of("wood")
    t = start(script={"cargo": [wood[0], *cards_of("food")[:5]]})
    t.act(1, {"action": "port"})
    t.act(1, {"action": "buy_goods"})
    t.act(1, {"action": "buy", "card": wood[0]})
    t.act(1, {"action": "end_buy"})
    t.act(1, {"action": "end_port"})
    t.act(1, {"action": "end_turn"})
    end_turn_if_due(t, 1)
    t.act(2, {"action": "end_turn"})
    t.act(1, {"action": "port"})
    t.act(1, {"action": "recruit"}) if {"action": "recruit"} in t.g.legal(1) else t.act(1, {"action": "buy_goods"})
    # another activity has begun: selling is no longer possible
    with pytest.raises(IllegalDecision):
        t.g.act(1, {"action": "sell", "good": "wood", "count": 1})


def test_nothing_bought_last_turn_draws_six_again():
    t = start()
    t.act(1, {"action": "port"})
    t.act(1, {"action": "buy_goods"})
    t.act(1, {"action": "end_buy"})                            # nothing bought
    t.act(1, {"action": "end_port"})
    t.act(1, {"action": "end_turn"})
    t.act(2, {"action": "end_turn"})
    t.act(1, {"action": "port"})
    evs = t.act(1, {"action": "buy_goods"})
    assert next(e for e in evs if e.type == "PortActivityBegun").data["draw"] == 6


def test_consecutive_turn_rule_draws_three_in_the_same_port():
    t = start()
    t.act(1, {"action": "port"})
    evs = t.act(1, {"action": "buy_goods"})
    assert next(e for e in evs if e.type == "PortActivityBegun").data["draw"] == 6
    t.act(1, {"action": "buy", "card": min(t.state["port"]["offer"], key=t.state["port"]["offer"].get)})
    t.act(1, {"action": "end_buy"})
    t.act(1, {"action": "end_port"})
    t.act(1, {"action": "end_turn"})
    end_turn_if_due(t, 1)
    t.act(2, {"action": "end_turn"})
    t.act(1, {"action": "port"})                               # turn 2, same port
    evs = t.act(1, {"action": "buy_goods"})
    begun = next(e for e in evs if e.type == "PortActivityBegun")
    assert begun.data["draw"] == 3 and begun.data["repeat"]
    assert len(t.state["port"]["offer"]) == 3
    t.act(1, {"action": "end_buy"})
    t.act(1, {"action": "end_port"})
    t.act(1, {"action": "end_turn"})
    end_turn_if_due(t, 1)
    t.act(2, {"action": "end_turn"})
    t.act(1, {"action": "end_turn"})                           # turn 3: no buying
    end_turn_if_due(t, 1)
    t.act(2, {"action": "end_turn"})
    t.act(1, {"action": "port"})                               # turn 4: six again
    evs = t.act(1, {"action": "buy_goods"})
    assert next(e for e in evs if e.type == "PortActivityBegun").data["draw"] == 6


def test_cargo_limit_enforced_on_leaving_port():
    t = start(script={"cargo": [*cards_of("food")[:3], *cards_of("wood")[:3]]})
    t.act(1, {"action": "port"})
    t.act(1, {"action": "buy_goods"})
    for c in cards_of("food")[:3]:
        t.act(1, {"action": "buy", "card": c})                # 3 cards on a sloop (Cargo 2): fine in port
    t.act(1, {"action": "end_buy"})
    t.act(1, {"action": "end_port"})
    legal = t.g.legal(1)
    assert {"action": "leave_port"} not in legal
    assert [d for d in legal if d["action"] == "discard_cargo"] == [
        {"action": "discard_cargo", "card": c} for c in cards_of("food")[:3]]
    n = len(t.g.events)
    with pytest.raises(IllegalDecision, match="Cargo"):
        t.g.act(1, {"action": "leave_port"})
    assert len(t.g.events) == n
    evs = t.act(1, {"action": "discard_cargo", "card": cards_of("food")[0]})
    assert next(e for e in evs if e.type == "CargoJettisoned").vis == "all"
    evs = t.act(1, {"action": "leave_port"})
    assert "LeftPort" in types(evs) and len(t.p(1)["cargo"]) == 2


def test_buying_a_frigate_trades_in_the_sloop_and_gives_glory_once():
    t = start()
    give_gold(t, 1, 30)
    t.act(1, {"action": "port"})
    t.act(1, {"action": "shipyard"})
    assert {"action": "buy_ship", "ship": "man_o_war"} not in t.g.legal(1)
    evs = t.act(1, {"action": "buy_ship", "ship": "frigate"})
    bought = next(e for e in evs if e.type == "ShipBought")
    assert bought.data["sale_value"] == 5 and bought.data["net"] == 30
    assert t.p(1)["gold"] == 10
    ship = t.p(1)["ship"]
    assert ship["type"] == "frigate" and ship["hull"] == 3 and ship["cannons"] == 3
    assert ship["crew"] == 2                                    # the sloop's crew came along
    assert "GloryGained" in types(evs) and t.p(1)["glory"] == 1 and len(t.p(1)["hand"]) == 2
    give_gold(t, 1, 30)
    evs = t.act(1, {"action": "buy_ship", "ship": "galleon"})   # the frigate sells for 10
    assert next(e for e in evs if e.type == "ShipBought").data["net"] == 25
    assert "GloryGained" not in types(evs) and t.p(1)["glory"] == 1   # only one per captain
    # recruiting: a failed Leadership test, then 2 gold a crew point
    t.act(1, {"action": "end_shipyard"})
    t.add("dice", [1, 2])
    t.act(1, {"action": "recruit"})
    gold = t.p(1)["gold"]
    t.act(1, {"action": "hire_crew"})
    assert t.p(1)["gold"] == gold - 2 and t.p(1)["ship"]["crew"] == 3
    assert {"action": "hire_crew"} not in t.g.legal(1)


def test_recruit_with_a_successful_leadership_test_is_free():
    t = start(ships=("flute", "sloop"))
    give_gold(t, 1, 30)
    t.act(1, {"action": "port"})
    t.act(1, {"action": "shipyard"})
    t.act(1, {"action": "buy_ship", "ship": "frigate"})          # crew 1 of 3
    t.act(1, {"action": "end_shipyard"})
    t.add("dice", [2, 5])                                       # a skull: success
    evs = t.act(1, {"action": "recruit"})
    assert next(e for e in evs if e.type == "SkillTested").data["successes"] == 1
    assert t.p(1)["ship"]["crew"] == 3 and t.state["port"]["act"] is None


def test_victory_declared_with_stashed_gold_ends_after_the_round():
    t = start(first=1)
    p = t.p(1)
    p["glory"] = 5                                              # test set-up: five points on the track
    give_gold(t, 1, 45)
    t.act(1, {"action": "port"})
    assert [d["amount"] for d in t.g.legal(1) if d["action"] == "stash"] == [1, 5, 10, 55]
    t.act(1, {"action": "stash", "amount": 10})
    for _ in range(3):
        evs = t.act(1, {"action": "stash", "amount": 10})
        assert "VictoryDeclared" not in types(evs)              # 5 + 4 = 9
    evs = t.act(1, {"action": "stash", "amount": 10})
    assert all(e.vis == [1] for e in evs if e.type != "VictoryDeclared")   # a further amount: all private
    stashed = [e for e in t.g.events if e.type == "GoldStashed"]
    assert len(stashed) == 1 and stashed[0].vis == "all"        # the act is announced once
    assert all(e.vis == [1] for e in t.g.events if e.type == "StashChanged")
    decl = next(e for e in evs if e.type == "VictoryDeclared")
    assert decl.vis == "all" and decl.data["stash"] == 50 and decl.data["total"] == 10
    assert not t.g.machine.finished                             # the round is finished first
    t.act(1, {"action": "end_stash"})
    t.act(1, {"action": "end_port"})
    t.act(1, {"action": "end_turn"})
    assert t.g.to_act() == [2]
    evs = t.act(2, {"action": "end_turn"})
    assert t.g.machine.finished
    fin = next(e for e in evs if e.type == "GameFinished")
    assert fin.data["winners"] == [1] and fin.data["scores"]["1"] == 10


def test_stash_counts_at_most_half_the_target():
    t = start()
    t.p(1)["glory"] = 4
    give_gold(t, 1, 70)
    t.act(1, {"action": "port"})
    evs = t.act(1, {"action": "stash", "amount": 80})            # everything
    assert "VictoryDeclared" not in types(evs)                  # 4 + min(8, 5) = 9


def test_two_declarations_in_one_turn_the_track_decides():
    t = start(first=1)
    t.p(1)["glory"], t.p(2)["glory"] = 5, 6
    give_gold(t, 1, 40)
    give_gold(t, 2, 30)
    t.act(1, {"action": "port"})
    t.act(1, {"action": "stash", "amount": 50})
    t.act(1, {"action": "end_stash"})
    t.act(1, {"action": "end_port"})
    t.act(1, {"action": "end_turn"})
    t.act(2, {"action": "port"})
    t.act(2, {"action": "stash", "amount": 40})
    t.act(2, {"action": "end_stash"})
    t.act(2, {"action": "end_port"})
    end_turn_if_due(t, 1)
    t.act(2, {"action": "end_turn"})
    res = t.g.machine.k["result"]
    assert res["scores"] == {"1": 10, "2": 10} and res["winners"] == [2]


def test_retiring_draws_a_new_captain_keeping_glory_and_stash():
    t = start(first=1, script={"captains": [FELIPE, FRANCES, "pepijn_van_avezaath"]})
    t.p(1)["glory"] = 2
    t.act(1, {"action": "port"})
    for _ in range(4):
        t.act(1, {"action": "stash", "amount": 1})
    t.act(1, {"action": "end_stash"})
    t.act(1, {"action": "end_port"})
    t.act(1, {"action": "end_turn"})
    end_turn_if_due(t, 1)
    t.act(2, {"action": "end_turn"})
    assert {"action": "retire"} in t.g.legal(1)
    t.act(1, {"action": "retire"})
    assert t.g.to_act() == [2]
    evs = t.act(2, {"action": "end_turn"})
    left = next(e for e in evs if e.type == "CaptainLeft")
    assert left.data["captain"] == FELIPE
    assert next(e for e in evs if e.type == "CaptainDealt").vis == [1]
    assert t.g.legal(1) == [{"action": "choose_ship", "ship": "sloop"}, {"action": "choose_ship", "ship": "flute"}]
    evs = t.act(1, {"action": "choose_ship", "ship": "flute"})
    p = t.p(1)
    assert p["captain"] == "pepijn_van_avezaath" and p["zone"] == "curacao" and p["in_port"]
    # under 10 stashed: the stash is taken aboard and the bank adds the rest up to 10
    assert p["glory"] == 2 and p["stash"] == 0 and p["gold"] == 10
    assert len(p["hand"]) == 1 and p["ship"]["type"] == "flute"
    aboard = next(e for e in evs if e.type == "StashChanged")
    topped = next(e for e in evs if e.type == "GoldReceived")
    assert aboard.vis == topped.vis == [1] and aboard.data["amount"] == -4 and topped.data["amount"] == 6
    assert next(e for e in evs if e.type == "StartingGoldTopped").vis == "all"
    assert t.state["actions"] == 3 and t.g.to_act() == [1]


def test_five_glory_cards_must_be_trimmed_before_anything_else():
    rum = cards_of("rum")
    t = start(ships=("flute", "sloop"), script={"cargo": [*rum[:3], *cards_of("food")[:3]]})
    p = t.p(1)
    for _ in range(3):                                          # test set-up: a hand of four
        p["hand"].append(t.state["decks"]["glory"].pop())
    t.act(1, {"action": "port"})
    t.act(1, {"action": "buy_goods"})
    for c in rum[:3]:
        t.act(1, {"action": "buy", "card": c})
    t.act(1, {"action": "end_buy"})
    t.act(1, {"action": "end_port"})
    t.act(1, {"action": "leave_port"})
    t.act(1, {"action": "move", "to": "nassau"})
    end_turn_if_due(t, 1)
    t.act(2, {"action": "end_turn"})
    t.act(1, {"action": "enter_port"})
    t.act(1, {"action": "port"})
    t.act(1, {"action": "sell", "good": "rum", "count": 3})
    assert len(t.p(1)["hand"]) == 5
    legal = t.g.legal(1)
    assert {d["action"] for d in legal} == {"discard_glory"}
    with pytest.raises(IllegalDecision, match="five glory cards"):
        t.g.act(1, {"action": "end_port"})
    t.act(1, {"action": "discard_glory", "card": legal[0]["card"]})
    assert len(t.p(1)["hand"]) == 4 and {"action": "end_port"} in t.g.legal(1)


def test_upgrade_tile_revealed_on_the_port_action_and_bought_once():
    ups = sorted(__import__("tests.merchants_and_marauders.helpers", fromlist=["S"]).S["upgrade"])
    t = start(script={"upgrades": [ups]})                      # Havana's tile will turn out to be U01
    from service.kernel.machine import is_unknown

    # at a table nobody has seen the face-down tiles: nobody was asked to name them
    assert is_unknown(t.state["board"]["upgrades"]["havana"])
    assert not any(e.type == "ChanceAwaited" and e.data.get("deck") == "upgrades" for e in t.g.events)
    assert t.g.rules.view(t.state, 1)["board"]["upgrades"]["havana"] == "face-down"
    evs = t.act(1, {"action": "port"})                         # turned over: the referee names it
    ident = next(e for e in evs if e.type == "CardIdentified")
    assert ident.data["card"] == ups[0] and ident.vis == "all"
    rev = next(e for e in evs if e.type == "UpgradeTileRevealed")
    tile = ups[0]
    assert rev.vis == "all" and rev.data["tile"] == tile
    t.act(1, {"action": "shipyard"})
    t.act(1, {"action": "buy_upgrade"})
    assert t.p(1)["ship"]["upgrades"] == [tile] and t.state["board"]["upgrades"]["havana"] is None
    assert t.p(1)["gold"] == 7
    t.act(1, {"action": "buy_weapon", "kind": "chain_shot"})
    assert {"action": "buy_weapon", "kind": "chain_shot"} not in t.g.legal(1)   # one of each kind
    assert t.p(1)["gold"] == 4


def test_illegal_decisions_append_nothing():
    t = start()
    n = len(t.g.events)
    for bad in ({"action": "move", "to": "trinidad"}, {"action": "fly"}, {"action": "stash", "amount": 99},
                {"action": "enter_port"}, {"nothing": 1}, {"action": "sell", "good": "rum", "count": 1}):
        with pytest.raises(IllegalDecision):
            t.g.act(1, bad)
    assert len(t.g.events) == n


def test_selling_a_ship_returns_its_upgrades_to_ports_of_the_owners_choice():
    from .helpers import S
    ups = sorted(S["upgrade"])
    t = start(script={"upgrades": [ups]})
    give_gold(t, 1, 20)
    t.act(1, {"action": "port"})
    t.act(1, {"action": "shipyard"})
    t.act(1, {"action": "buy_upgrade"})
    tile = t.p(1)["ship"]["upgrades"][0]
    evs = t.act(1, {"action": "buy_ship", "ship": "flute"})
    bought = next(e for e in evs if e.type == "ShipBought")
    assert bought.data["sale_value"] == 5 + 1                     # +1 for the upgrade tile
    legal = t.g.legal(1)
    assert legal == [{"action": "place_upgrade", "port": "havana"}]   # the only port without a tile
    evs = t.act(1, {"action": "place_upgrade", "port": "havana"})
    placed = next(e for e in evs if e.type == "UpgradeTilePlaced")
    assert placed.vis == "referee" and t.state["board"]["upgrades"]["havana"] == tile
    assert t.g.rules.view(t.state, 2)["board"]["upgrades"]["havana"] == "face-down"


def test_every_event_has_a_log_line_and_the_referee_sees_everything():
    t = start()
    t.act(1, {"action": "port"})
    t.act(1, {"action": "buy_goods"})
    t.act(1, {"action": "end_buy"})
    from service.kernel.machine import KERNEL_TYPES
    for e in t.g.events:
        line = t.g.rules.describe(e)
        assert isinstance(line, str) and (line or e.type in KERNEL_TYPES), e
    v = t.g.rules.view(t.state, None)
    assert v["bank"] + sum(p["gold"] + p["stash"] for p in v["players"].values()) == 510
    assert all(m != "face-down" for m in v["board"]["merchants"].values())


def test_acquiring_rumors_one_at_a_time():
    t = start(script={"rumors": ["R05", "R07"]})
    t.add("dice", [5, 1])
    t.act(1, {"action": "port"})
    evs = t.act(1, {"action": "rumor"})
    assert next(e for e in evs if e.type == "RumorDrawn").vis == [1]
    assert t.p(1)["rumor"] == "R05" and t.p(1)["gold"] == 8
    t.act(1, {"action": "end_port"})
    t.act(1, {"action": "end_turn"})
    end_turn_if_due(t, 1)
    t.act(2, {"action": "end_turn"})
    t.add("dice", [1, 6])
    t.act(1, {"action": "port"})
    t.act(1, {"action": "rumor"})
    assert t.g.legal(1) == [{"action": "keep_rumor", "card": "R05"}, {"action": "keep_rumor", "card": "R07"}]
    evs = t.act(1, {"action": "keep_rumor", "card": "R07"})
    assert next(e for e in evs if e.type == "RumorKept").vis == [1]
    assert t.p(1)["rumor"] == "R07" and "R05" in t.state["decks"]["rumors"]
    assert t.g.rules.view(t.state, 2)["players"]["1"]["has_rumor"] is True
    assert "rumor" not in t.g.rules.view(t.state, 2)["players"]["1"]


def test_claiming_a_mission_at_its_port():
    t = start(script={"missions": ["X01", "X17"]})          # both lie at Havana
    assert t.state["board"]["missions"] == {"X01": "havana", "X17": "havana"}
    t.add("dice", [1, 2])                                   # a failed Influence test
    t.act(1, {"action": "port"})
    evs = t.act(1, {"action": "claim_mission", "mission": "X01"})
    assert "MissionClaimFailed" in types(evs) and "X01" in t.state["board"]["missions"]
    assert not any(d["action"] == "claim_mission" for d in t.g.legal(1))   # once per port action
    t.act(1, {"action": "end_port"})
    t.act(1, {"action": "end_turn"})
    end_turn_if_due(t, 1)
    t.act(2, {"action": "end_turn"})
    t.add("dice", [6, 2])
    t.act(1, {"action": "port"})
    evs = t.act(1, {"action": "claim_mission", "mission": "X01"})
    assert t.p(1)["mission"] == "X01"
    placed = next(e for e in evs if e.type == "MissionPlaced")
    assert len(t.state["board"]["missions"]) == 2 and placed.data["mission"] in t.state["board"]["missions"]


def test_stashed_gold_is_spent_only_at_the_home_port():
    t = start(first=1, script={"cargo": [*cards_of("spices")[:1], *cards_of("food")[:5]]})
    t.act(1, {"action": "port"})
    t.act(1, {"action": "stash", "amount": 10})                # everything into the stash
    assert t.p(1)["gold"] == 0 and t.p(1)["stash"] == 10
    assert t.g.legal(1) == [{"action": "end_stash"}]            # nothing left aboard to stash
    t.act(1, {"action": "end_stash"})
    t.act(1, {"action": "buy_goods"})
    spice = cards_of("spices")[0]
    assert {"action": "buy", "card": spice} in t.g.legal(1)     # paid from the stash at home
    t.act(1, {"action": "buy", "card": spice})
    assert t.p(1)["stash"] == 7
    t.act(1, {"action": "end_buy"})
    t.act(1, {"action": "end_port"})
    assert [d["amount"] for d in t.g.legal(1) if d["action"] == "withdraw"] == [1, 5, 7]
    evs = t.act(1, {"action": "withdraw", "amount": 1})
    assert next(e for e in evs if e.type == "StashChanged").vis == [1]
    assert next(e for e in evs if e.type == "GoldWithdrawn").vis == "all"
    evs = t.act(1, {"action": "withdraw", "amount": 1})
    assert all(e.vis == [1] for e in evs)                       # announced once a turn
    assert t.p(1)["gold"] == 2 and t.p(1)["stash"] == 5
    t.act(1, {"action": "leave_port"})
    assert not any(d["action"] == "withdraw" for d in t.g.legal(1))   # away from home
    assert t.g.rules.view(t.state, 2)["players"]["1"]["stash_acts"] == 1

"""A referee's review of part 1 against the book: each test pins one rule the
engine had wrong or loose (stash amounts, the new captain's gold, the winner
when a declarer fell back under the target, face-down upgrade tiles, the
order of the port activities)."""

import pytest

from service.kernel import IllegalDecision

from .helpers import end_turn_if_due, cards_of, give_gold, types
from .test_book_examples import FRANCES, FELIPE, start


def seen_by(t, seat, evs):
    return [e for e in evs if e.visible_to(seat)]


def test_stash_amounts_legal_is_exactly_what_decide_accepts():
    t = start(first=1)
    give_gold(t, 1, 7)                                          # 17 aboard, at Felipe's home port
    t.act(1, {"action": "port"})
    stash = [d for d in t.g.legal(1) if d["action"] == "stash"]
    assert stash == [{"action": "stash", "amount": a} for a in (1, 5, 10, 17)]
    n = len(t.g.events)
    for bad in (7, 0, 18, "5", 5.0, True):
        with pytest.raises(IllegalDecision):
            t.g.act(1, {"action": "stash", "amount": bad})
    with pytest.raises(IllegalDecision):
        t.g.act(1, {"action": "stash", "amount": 5, "extra": 1})
    assert len(t.g.events) == n
    # 7 = 5 + 1 + 1: the activity stays open; only the first step is announced
    evs = t.act(1, {"action": "stash", "amount": 5})
    public = seen_by(t, 2, evs)
    assert [e.type for e in public] == ["PortActivityBegun", "GoldStashed"]
    assert t.g.legal(1) == [{"action": "stash", "amount": a} for a in (1, 5, 10, 12)] + [{"action": "end_stash"}]
    for _ in range(2):
        evs = t.act(1, {"action": "stash", "amount": 1})
        assert seen_by(t, 2, evs) == []                         # the others see nothing of further steps
    assert (t.p(1)["gold"], t.p(1)["stash"]) == (10, 7)
    with pytest.raises(IllegalDecision):                        # an activity is completed before another
        t.g.act(1, {"action": "buy_goods"})
    evs = t.act(1, {"action": "end_stash"})
    assert [e.type for e in seen_by(t, 2, evs)] == ["PortActivityEnded"]
    legal = t.g.legal(1)
    assert not any(d["action"] == "stash" for d in legal)       # one Stash activity a port action
    assert [d["amount"] for d in legal if d["action"] == "withdraw"] == [1, 5, 7]
    with pytest.raises(IllegalDecision):
        t.g.act(1, {"action": "withdraw", "amount": 3})
    v = t.g.rules.view(t.state, 2)["players"]["1"]
    assert v["stash_acts"] == 1 and "stash" not in v and "gold" not in v


def test_a_declarer_who_falls_back_under_the_target_the_most_glory_wins():
    t = start(first=1)
    t.p(1)["glory"], t.p(2)["glory"] = 5, 7
    give_gold(t, 1, 40)
    t.act(1, {"action": "port"})
    evs = t.act(1, {"action": "stash", "amount": 50})
    assert "VictoryDeclared" in types(evs)
    t.act(1, {"action": "end_stash"})
    t.act(1, {"action": "end_port"})
    t.act(1, {"action": "withdraw", "amount": 10})             # back aboard: 5 + 4 = 9
    t.act(1, {"action": "end_turn"})
    evs = t.act(2, {"action": "end_turn"})
    assert t.g.machine.finished and t.state["end_reason"] == "glory"
    res = next(e for e in evs if e.type == "GameFinished").data
    # nobody holds 10 at the end: the most glory (9 against 7), not the track (5 against 7)
    assert res["scores"] == {"1": 9, "2": 7} and res["winners"] == [1]


def test_new_captain_with_ten_or_more_stashed_receives_no_gold():
    t = start(first=1, script={"captains": [FELIPE, FRANCES, "pepijn_van_avezaath"]})
    give_gold(t, 1, 2)
    t.act(1, {"action": "port"})
    t.act(1, {"action": "stash", "amount": 12})
    t.act(1, {"action": "end_stash"})
    t.act(1, {"action": "end_port"})
    t.act(1, {"action": "end_turn"})
    end_turn_if_due(t, 1)
    t.act(2, {"action": "end_turn"})
    t.act(1, {"action": "retire"})
    end_turn_if_due(t, 1)
    t.act(2, {"action": "end_turn"})
    bank = t.state["bank"]
    evs = t.act(1, {"action": "choose_ship", "ship": "sloop"})
    p = t.p(1)
    assert (p["gold"], p["stash"], t.state["bank"]) == (0, 12, bank)
    assert "GoldReceived" not in types(evs) and "StashChanged" not in types(evs)
    assert "StartingGoldTopped" in types(evs)                    # the others cannot tell the cases apart
    # the stash now lies at the new captain's home port, spendable there
    assert p["zone"] == "curacao" and [d["amount"] for d in t.g.legal(1) if d["action"] == "withdraw"] == [1, 5, 10, 12]


def test_a_tile_placed_face_down_during_the_port_action_is_not_for_sale_until_revealed():
    from .helpers import S
    ups = sorted(S["upgrade"])
    t = start(first=1, script={"upgrades": [ups]})
    give_gold(t, 1, 20)
    t.act(1, {"action": "port"})
    t.act(1, {"action": "shipyard"})
    t.act(1, {"action": "buy_upgrade"})
    tile = t.p(1)["ship"]["upgrades"][0]
    t.act(1, {"action": "buy_ship", "ship": "flute"})
    t.act(1, {"action": "place_upgrade", "port": "havana"})     # back face down where it was bought
    assert t.state["board"]["upgrades"]["havana"] == tile
    assert {"action": "buy_upgrade"} not in t.g.legal(1)
    n = len(t.g.events)
    with pytest.raises(IllegalDecision):
        t.g.act(1, {"action": "buy_upgrade"})
    assert len(t.g.events) == n
    t.act(1, {"action": "end_shipyard"})
    t.act(1, {"action": "end_port"})
    t.act(1, {"action": "end_turn"})
    end_turn_if_due(t, 1)
    t.act(2, {"action": "end_turn"})
    evs = t.act(1, {"action": "port"})                          # the next port action reveals it
    assert next(e for e in evs if e.type == "UpgradeTileRevealed").data["tile"] == tile
    t.act(1, {"action": "shipyard"})
    assert {"action": "buy_upgrade"} in t.g.legal(1)


def test_port_activities_sell_first_then_any_order_each_once_each_completed():
    wood, food = cards_of("wood"), cards_of("food")
    t = start(ships=("flute", "sloop"), first=1, script={"cargo": [wood[0], food[0], *cards_of("cocoa")[:4]]})
    t.act(1, {"action": "port"})
    t.act(1, {"action": "buy_goods"})
    t.act(1, {"action": "buy", "card": wood[0]})
    t.act(1, {"action": "buy", "card": food[0]})
    t.act(1, {"action": "end_buy"})
    t.act(1, {"action": "end_port"})
    t.act(1, {"action": "end_turn"})
    end_turn_if_due(t, 1)
    t.act(2, {"action": "end_turn"})
    t.act(1, {"action": "port"})
    # selling is one activity made of several sales, before anything else
    t.act(1, {"action": "sell", "good": "wood", "count": 1})
    assert {"action": "sell", "good": "food", "count": 1} in t.g.legal(1)
    t.act(1, {"action": "buy_goods"})
    # inside an activity only its own decisions; selling is over
    assert {d["action"] for d in t.g.legal(1)} <= {"buy", "end_buy"}
    for bad in ({"action": "sell", "good": "food", "count": 1}, {"action": "shipyard"}, {"action": "end_port"}):
        with pytest.raises(IllegalDecision):
            t.g.act(1, bad)
    t.act(1, {"action": "end_buy"})
    names = {d["action"] for d in t.g.legal(1)}
    assert "sell" not in names and "buy_goods" not in names     # each activity once
    assert {"shipyard", "stash", "end_port"} <= names            # the rest in any order
    t.act(1, {"action": "shipyard"})
    t.act(1, {"action": "end_shipyard"})
    assert "shipyard" not in {d["action"] for d in t.g.legal(1)}


def test_buying_redraws_every_demanded_card_and_reshuffles_the_discards_when_the_deck_runs_out():
    sugar, spices, rum = cards_of("sugar"), cards_of("spices"), cards_of("rum")
    t = start(first=1)                                           # Havana wants sugar
    d = t.state["decks"]
    keep = [sugar[0], spices[0]]
    d["cargo_discard"] = [c for c in d["cargo"] if c not in keep]   # test set-up: two cards left in the deck
    d["cargo"] = list(keep)
    t.add("cargo", sugar[0], spices[0], sugar[1], rum[0], rum[1], sugar[2], spices[1], rum[2], rum[3])
    t.act(1, {"action": "port"})
    evs = t.act(1, {"action": "buy_goods"})
    assert types(evs).count("CargoDeckReshuffled") == 1
    assert next(e for e in evs if e.type == "CargoDeckReshuffled").vis == "all"
    discarded = [c for e in evs if e.type == "DemandedCargoDiscarded" for c in e.data["cards"]]
    assert discarded == [sugar[0], sugar[1], sugar[2]]           # each demanded card, replacements too
    offer = next(e for e in evs if e.type == "CargoOffered").data["offer"]
    # 6 cards: 2 spices (2 each), 4 rum (1 each)
    assert offer == {spices[0]: 2, spices[1]: 2, rum[0]: 1, rum[1]: 1, rum[2]: 1, rum[3]: 1}


def test_selling_two_demanded_cards_pays_six_each_but_no_glory():
    rum = cards_of("rum")
    t = start(ships=("flute", "sloop"), first=1, script={"cargo": [rum[0], rum[1], *cards_of("food")[:4]]})
    t.act(1, {"action": "port"})
    t.act(1, {"action": "buy_goods"})
    t.act(1, {"action": "buy", "card": rum[0]})
    t.act(1, {"action": "buy", "card": rum[1]})
    t.act(1, {"action": "end_buy"})
    t.act(1, {"action": "end_port"})
    t.act(1, {"action": "leave_port"})
    t.act(1, {"action": "move", "to": "nassau"})                 # Nassau wants rum
    end_turn_if_due(t, 1)
    t.act(2, {"action": "end_turn"})
    t.act(1, {"action": "enter_port"})
    t.act(1, {"action": "port"})
    gold = t.p(1)["gold"]
    evs = t.act(1, {"action": "sell", "good": "rum", "count": 2})
    assert t.p(1)["gold"] == gold + 12 and "DemandTileReplaced" in types(evs)
    assert "GloryGained" not in types(evs) and t.p(1)["glory"] == 0

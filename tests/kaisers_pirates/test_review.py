"""A referee's review against the rulebook (sections 1-3): each point where the
engine used to differ from the book, driven in table mode with explicit dice.
Seat 1 attacks seat 2 unless said otherwise."""

import random

import pytest
from kp_helpers import count_cards
from test_cards_a import emden_on_matheran, mk, pass_turn

from service.aggregates.kaisers_pirates import RULES
from service.aggregates.kaisers_pirates.actions import has_effect
from service.kernel import IllegalDecision


# 3.2.6: "può immediatamente tentare" -- the owner decides -----------------------
def test_passage_is_offered_to_the_owner_who_may_decline():
    t = mk(["breakout-1"])
    emden_on_matheran(t)
    t.act(2, {"action": "decline"})
    t.roll(1, 1, 1, 5)                                   # 1 against 5: no effect
    assert t.state["window"] == {"kind": "passage", "seat": 2, "ship": "matheran"}
    assert t.g.to_act() == [2] and t.legal(1) == []
    assert t.events("WindowOpened")[-1].vis == "all"
    challenges = len(t.events("ChallengeRolled"))
    t.act(2, {"action": "passage", "attempt": False})
    declined = t.events("PassageDeclined")[-1]
    assert declined.vis == "all" and declined.data["ship"] == "matheran"
    assert len(t.events("ChallengeRolled")) == challenges and t.awaiting() is None
    assert "matheran" in t.p(2)["merchants"] and t.p(2)["vp"] == []
    assert t.g.to_act() == [1]
    count_cards(t.state)


def test_no_passage_offered_after_a_damaging_intercept():
    t = mk(["breakout-1"])
    emden_on_matheran(t)
    t.act(2, {"action": "decline"})
    t.roll(5, 1, 1, 3)                                   # 5 against 3: damaged
    assert t.st("matheran")["damaged"] and t.state["window"] is None and t.g.to_act() == [1]


# 3.1.5: discards face up "ordinandole come desidera" ----------------------------
def test_discard_order_is_chosen_and_wireless_intercept_takes_the_top_two():
    t = mk(["breakout-1", "collier-1", "blockade-runner-1"], ["wireless-intercept-1"])
    t.manual_discards = True
    t.commit(1, ("breakout-1", "intercept", "emden"), ("collier-1", "action"), ("blockade-runner-1", "action"))
    t.act(1, {"action": "play", "card": "collier-1"})
    t.act(1, {"action": "end_turn"})
    # the played card and the two committed but unplayed ones, in the order seat 1 likes
    assert t.state["window"] == {"kind": "discard", "seat": 1}
    assert t.legal(1) == [{"action": "discard", "card": c}
                          for c in ["blockade-runner-1", "breakout-1", "collier-1"]]
    assert t.legal(2) == []
    with pytest.raises(IllegalDecision):
        t.g.act(1, {"action": "discard", "card": "wireless-intercept-1"})
    t.act(1, {"action": "discard", "card": "collier-1"})
    t.act(1, {"action": "discard", "card": "breakout-1"})
    assert t.state["discard"] == ["collier-1", "breakout-1", "blockade-runner-1"]
    assert t.g.to_act() == [2] and t.state["current"] == 2
    t.commit(2, ("wireless-intercept-1", "action"))
    t.act(2, {"action": "play", "card": "wireless-intercept-1"})
    assert t.events("DiscardsTaken")[-1].data["cards"] == ["blockade-runner-1", "breakout-1"]
    count_cards(t.state)


# plays the book allows but that can do nothing stay legal -----------------------
def test_a_play_with_no_effect_is_still_legal_and_the_heuristic_bot_avoids_it():
    t = mk(["collier-1", "blockade-runner-1", "breakout-1", "fog-bank-1"])
    t.commit(1, ("collier-1", "action"), ("blockade-runner-1", "action"), ("breakout-1", "action"),
             ("fog-bank-1", "action"))
    legal = t.legal(1)
    for c in ("collier-1", "blockade-runner-1"):             # no ship short of supply
        d = {"action": "play", "card": c}
        assert d in legal and not has_effect(t.state, 1, d)
    assert has_effect(t.state, 1, {"action": "play", "card": "breakout-1"})
    bot = RULES.bots["heuristic"](t.state, 1, legal, random.Random(0))
    assert bot.get("card") not in ("collier-1", "blockade-runner-1")
    n = len(t.g.events)
    t.act(1, {"action": "play", "card": "collier-1"})        # accepted; nothing to resupply
    assert not [e for e in t.g.events[n:] if e.type == "ShipResupplied"]
    assert "collier-1" in t.state["tt"]["played"]


def test_deception_ignores_a_forced_card_with_no_effect():
    t = mk(["deception-1"], ["collier-1"])
    t.commit(1, ("deception-1", "action"))
    t.act(1, {"action": "play", "card": "deception-1", "opponent": 2})
    t.picks = ["collier-1"]
    t.act(1, {"action": "end_turn"})
    assert t.events("DeceptionForcedCard")[-1].data["card"] == "collier-1"
    assert t.events("ForcedCardIgnored")                 # 3.3.10: "non ha effetto, viene ignorata"
    assert t.legal(2) == [{"action": "end_turn"}]


# 3.3.40: Slim Pickings reduces a multiple intercept to one merchant -------------
def test_slim_pickings_on_the_second_merchant_of_shipping_lanes_stops_the_rest():
    t = mk(["breakout-1", "shipping-lanes-1"], ["slim-pickings-1"])
    t.commit(1, ("breakout-1", "intercept", "emden"), ("shipping-lanes-1", "action"))
    t.act(1, {"action": "intercept", "card": "breakout-1", "ship": "emden", "target": "matheran"})
    t.act(1, {"action": "assist", "card": "shipping-lanes-1"})
    assert t.state["eng"]["targets"] == ["matheran", "lovat", "maria"]
    t.act(2, {"action": "decline"})
    t.roll(5, 1, 1, 3)                                   # Matheran damaged
    t.act(2, {"action": "react", "card": "slim-pickings-1"})   # at the Lovat
    assert t.events("InterceptCancelled")[-1].data == {"target": "lovat", "why": "Slim Pickings"}
    # only one merchant was intercepted: neither the Lovat nor the Maria is rolled against
    assert len(t.events("DiceCompared")) == 1 and t.state["eng"] is None
    assert not t.st("lovat")["damaged"] and not t.st("maria")["damaged"]


# 3.2.2: one reaction card against each intercept card ---------------------------
def test_one_reaction_per_intercept_no_recalled_after_fast_ship():
    t = mk(["breakout-1"], ["fast-ship-1", "recalled-1"])
    t.commit(1, ("breakout-1", "intercept", "prinz-eitel-friedrich"))
    t.act(1, {"action": "intercept", "card": "breakout-1", "ship": "prinz-eitel-friedrich", "target": "matheran"})
    t.act(2, {"action": "react", "card": "fast-ship-1"})
    t.roll(10, 1, 2)                                     # 10 - 2 = 8 against 2: sunk
    assert "matheran" not in t.p(2)["merchants"]
    assert t.state["window"] is None and "recalled-1" in t.p(2)["hand"]


def test_good_hunting_each_merchant_answered_on_its_own():
    t = mk(["breakout-1", "good-hunting-1"], ["fast-ship-1", "recalled-1"])
    t.commit(1, ("breakout-1", "intercept", "prinz-eitel-friedrich"), ("good-hunting-1", "action"))
    t.act(1, {"action": "intercept", "card": "breakout-1", "ship": "prinz-eitel-friedrich", "target": "matheran"})
    t.act(1, {"action": "assist", "card": "good-hunting-1", "target": "lovat"})
    t.act(2, {"action": "react", "card": "fast-ship-1"})
    t.roll(10, 1, 2)                                     # Matheran sunk despite Fast Ship
    assert t.state["window"]["kind"] == "react"          # no Recalled for it; now the Lovat
    t.act(2, {"action": "decline"})
    t.roll(10, 1, 2)                                     # Lovat sunk: Recalled may answer this one
    assert t.state["window"]["kind"] == "after"
    assert {"action": "react", "card": "recalled-1"} in t.legal(2)


# 3.3.23: Mistaken Identity swaps a *sunk* merchant --------------------------------
def test_mistaken_identity_not_with_a_merchant_that_reached_port():
    t = mk(["u-41"], ["fair-seas-1", "mistaken-identity-1"])
    pass_turn(t, 1)
    t.commit(2, ("fair-seas-1", "action"))
    t.act(2, {"action": "play", "card": "fair-seas-1", "ship": "lovat"})
    t.roll(7, 2)                                         # 7 + 1 against 2: passage
    assert [e["card"] for e in t.p(2)["vp"]] == ["lovat"]
    t.act(2, {"action": "end_turn"})
    t.commit(1, ("u-41", "action"))
    t.act(1, {"action": "torpedo", "card": "u-41", "target": "matheran"})
    t.act(2, {"action": "decline"})
    t.roll(9, 1, 1, 4)                                   # sunk
    assert "matheran" not in t.p(2)["merchants"]
    assert t.state["window"] is None                     # nothing to swap: no window


def test_mistaken_identity_swaps_places_and_the_special_cargo_double_stays():
    t = mk(["u-41", "special-cargo-1"], ["u-27", "mistaken-identity-1"])
    pass_turn(t, 1)
    t.commit(2, ("u-27", "action"))
    t.act(2, {"action": "torpedo", "card": "u-27", "target": "appam"})
    t.act(1, {"action": "decline"})
    t.roll(9, 1, 1, 4)                                   # Appam (8 VP) sunk by seat 2
    t.act(2, {"action": "end_turn"})
    t.commit(1, ("u-41", "action"), ("special-cargo-1", "action"))
    t.act(1, {"action": "torpedo", "card": "u-41", "target": "maria"})
    t.act(1, {"action": "assist", "card": "special-cargo-1"})
    t.act(2, {"action": "decline"})
    t.roll(9, 1, 1, 4)                                   # Maria (7 VP) sunk, counts double
    assert t.p(1)["vp"] == [{"card": "maria", "deck": "merchant", "double": True}]
    assert t.legal(2) == [{"action": "react", "card": "mistaken-identity-1", "give": "appam"},
                          {"action": "decline"}]
    t.act(2, {"action": "react", "card": "mistaken-identity-1", "give": "appam"})
    t.roll(9, 1, 3)                                      # success
    assert t.p(1)["vp"] == [{"card": "appam", "deck": "merchant", "double": True}]
    assert t.p(2)["vp"] == [{"card": "maria", "deck": "merchant", "double": False}]
    count_cards(t.state)


# 3.3.18 / 3.3.45: Interned and Transfer Command need a revealed prize (see test_fixes) --
def test_interned_and_transfer_command_skip_a_disguised_prize():
    t = mk(["breakout-1", "boarding-party-1"], ["interned-1", "transfer-command-1"])
    emden_on_matheran(t, "breakout-1", ("boarding-party-1", "action"))
    t.act(1, {"action": "assist", "card": "boarding-party-1"})
    t.act(2, {"action": "decline"})
    t.roll(10, 1, 1, 3)                                  # captured
    assert "matheran" in t.p(1)["prizes"] and not t.st("matheran")["revealed"]
    t.act(1, {"action": "end_turn"})
    t.commit(2, ("interned-1", "action"), ("transfer-command-1", "action"))
    legal = t.legal(2)
    interned = {d["target"] for d in legal if d.get("card") == "interned-1"}
    transfer = {d["target"] for d in legal if d.get("card") == "transfer-command-1"}
    assert interned == transfer == {"emden"}             # the warship; raiders and the prize disguised
    count_cards(t.state)


# 3.1.3: only a successful Interrogate is the ship's intercept of the turn --------
def test_a_failed_interrogation_may_be_tried_again():
    t = mk(["interrogate-1", "interrogate-2"])
    t.commit(1, ("interrogate-1", "action"), ("interrogate-2", "action"))
    t.act(1, {"action": "interrogate", "card": "interrogate-1", "target": "leopard"})
    t.roll(1, 1, 5)                                      # fails
    assert t.events("InterrogationFailed") and not t.st("leopard")["revealed"]
    assert {"action": "interrogate", "card": "interrogate-2", "target": "leopard"} in t.legal(1)


# 3.3.14: a fogged turn plays no card and draws none; a refuge move is no card ----
def test_fog_bank_turn_without_cards_or_draw_but_refuge_moves():
    t = mk(["island-refuge-1"], ["fog-bank-1"])
    t.commit(1, ("island-refuge-1", "action"))
    t.act(1, {"action": "play", "card": "island-refuge-1", "ship": "emden"})
    t.act(1, {"action": "end_turn"})
    t.commit(2, ("fog-bank-1", "action"))
    t.act(2, {"action": "play", "card": "fog-bank-1", "opponent": 1})
    t.act(2, {"action": "end_turn"})
    hand = sorted(t.p(1)["hand"])
    assert t.g.to_act() == [1] and t.state["tt"]["fogged"]
    assert t.legal(1) == [{"action": "leave_refuge", "ship": "emden"}, {"action": "end_turn"}]
    assert "fog-bank-1" in t.state["discard"]
    t.act(1, {"action": "leave_refuge", "ship": "emden"})
    t.act(1, {"action": "end_turn"})
    assert sorted(t.p(1)["hand"]) == hand                # no card drawn
    assert t.events("TurnEnded")[-1].data == {"seat": 1, "drew": False}
    count_cards(t.state)


def test_fog_bank_turn_passes_by_itself_with_nothing_to_do():
    t = mk([], ["fog-bank-1"])
    pass_turn(t, 1)
    t.commit(2, ("fog-bank-1", "action"))
    t.act(2, {"action": "play", "card": "fog-bank-1", "opponent": 1})
    hand = len(t.p(1)["hand"])
    t.act(2, {"action": "end_turn"})
    assert t.g.to_act() == [2] and len(t.p(1)["hand"]) == hand
    assert t.events("TurnEnded")[-1].data == {"seat": 1, "drew": False}


# 3.3.17: a second Intelligence reorders in secret -------------------------------
def test_second_intelligence_the_first_seat_keeps_the_cards_not_the_order():
    t = mk(["intelligence-1"], ["intelligence-2"])
    t.commit(1, ("intelligence-1", "action"))
    t.peeks = ["trap-2", "uc-16"]
    t.act(1, {"action": "play", "card": "intelligence-1", "deck": True})
    t.act(1, {"action": "stack", "order": ["trap-2", "uc-16"]})
    t.act(1, {"action": "end_turn"})                     # seat 1 draws the Trap it put on top
    assert "trap-2" in t.p(1)["hand"] and t.state["top"] == ["uc-16"]
    t.commit(2, ("intelligence-2", "action"))
    t.peeks = ["u-41"]
    t.act(2, {"action": "play", "card": "intelligence-2", "deck": True})
    assert sorted(t.state["peek"]) == ["u-41", "uc-16"]
    t.act(2, {"action": "stack", "order": ["uc-16", "u-41"]})
    v1, v2 = RULES.view(t.state, 1), RULES.view(t.state, 2)
    assert v2["top"] == ["uc-16", "u-41"] and "top_seen" not in v2
    assert "top" not in v1 and v1["top_seen"] == ["uc-16"]
    ordered = t.events("DeckTopOrdered")[-1]
    assert ordered.vis == [2]


# hidden information: who is to act is public, so the assist window must not tell --
@pytest.mark.parametrize("held", ["collier-1", "surprise-attack-1"])
def test_the_assist_window_does_not_tell_whether_an_assist_is_held(held):
    t = mk(["breakout-1", held])
    t.auto_proceed = False
    emden_on_matheran(t, "breakout-1", (held, "action"))
    assert t.g.to_act() == [1] and t.state["window"]["kind"] == "assist"
    assert t.events("WindowOpened")[-1].vis == [1]
    assert RULES.view(t.state, 2)["window"] is None
    assert ({"action": "assist", "card": held} in t.legal(1)) == (held == "surprise-attack-1")

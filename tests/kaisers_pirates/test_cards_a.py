"""Action cards (3.3), part 1: each card's main effect and the restrictions the
book states, driven in table mode with chosen dice. Seat 1 attacks seat 2."""

import pytest
from kp_helpers import Table, count_cards

from service.kernel import IllegalDecision

SHIPS = {1: ["emden", "prinz-eitel-friedrich", "meteor"], 2: ["dresden", "leopard", "wolf"]}
MERCH = {1: ["appam", "kaipara", "hyades"], 2: ["matheran", "lovat", "maria"]}


def mk(h1=(), h2=(), merch=None, **kw):
    return Table(2, {1: list(h1), 2: list(h2)}, SHIPS, merch or MERCH, first=1, **kw)


def emden_on_matheran(t, card="breakout-1", *more):
    t.commit(1, (card, "intercept", "emden"), *more)
    t.act(1, {"action": "intercept", "card": card, "ship": "emden", "target": "matheran"})


def pass_turn(t, seat):
    t.act(seat, {"action": "done"})
    t.act(seat, {"action": "end_turn"})


def test_amc_sinks_the_interceptor_and_the_merchant_is_ignored():
    t = mk(["breakout-1", "breakout-2"], ["hms-alcantara"])
    emden_on_matheran(t, "breakout-1", ("breakout-2", "intercept", "prinz-eitel-friedrich"))
    t.act(2, {"action": "react", "card": "hms-alcantara"})
    t.roll(9, 1, 4)            # AMC 9 against Emden 4: sunk
    t.roll(3, 3, 3, 5)         # Emden 3 against AMC 5: no effect
    assert {"card": "emden", "deck": "ship", "double": False} in t.p(2)["vp"]
    assert "matheran" in t.state["tt"]["ignored"]
    targets = {d.get("target") for d in t.legal(1) if d["action"] == "intercept"}
    assert "matheran" not in targets and "lovat" in targets
    t.act(1, {"action": "end_turn"})
    assert "hms-alcantara" in t.state["discard"]
    count_cards(t.state)


def test_amc_sunk_scores_for_the_raider_player():
    t = mk(["breakout-1"], ["hms-carmania"])
    t.commit(1, ("breakout-1", "intercept", "prinz-eitel-friedrich"))
    t.act(1, {"action": "intercept", "card": "breakout-1", "ship": "prinz-eitel-friedrich", "target": "matheran"})
    t.act(2, {"action": "react", "card": "hms-carmania"})
    t.roll(1, 1, 8)            # AMC misses
    t.roll(10, 1, 3)           # PEF 10 against 3: the AMC is sunk
    assert {"card": "hms-carmania", "deck": "action", "double": False} in t.p(1)["vp"]
    assert t.st("prinz-eitel-friedrich")["revealed"]       # a raider fighting an AMC is revealed
    count_cards(t.state)


def test_blockade_runner_after_rendezvous_missed():
    t = mk(["rendezvous-missed-1"], ["blockade-runner-1"])
    t.commit(1, ("rendezvous-missed-1", "action"))
    t.act(1, {"action": "play", "card": "rendezvous-missed-1", "opponent": 2})
    t.roll(9, 1, 3)            # Dresden: limited supply
    t.roll(1, 1, 3)            # Leopard: no
    t.roll(1, 1, 3)            # Wolf: no
    assert t.st("dresden")["supply"] and not t.st("leopard")["supply"]
    t.act(1, {"action": "end_turn"})
    t.commit(2, ("blockade-runner-1", "action"))
    t.act(2, {"action": "play", "card": "blockade-runner-1"})
    t.roll(9, 1, 3)
    assert not t.st("dresden")["supply"]


def test_limited_supply_and_damage_cut_the_intercept_roll():
    t = mk(["rendezvous-missed-1", "breakout-1"], ["breakdown-1", "breakout-2"])
    pass_turn(t, 1)
    t.commit(2, ("breakdown-1", "action"), ("breakout-2", "intercept"))
    t.act(2, {"action": "play", "card": "breakdown-1", "target": "emden"})
    t.roll(9, 1, 3)
    assert t.st("emden")["damaged"]
    t.act(2, {"action": "end_turn"})
    t.commit(1, ("breakout-1", "intercept", "emden"))
    t.act(1, {"action": "intercept", "card": "breakout-1", "ship": "emden", "target": "matheran"})
    t.act(2, {"action": "decline"})
    t.roll(7, 1, 1, 3)         # 7 - 2 (damaged) = 5 against 3: damaged, not sunk
    cmp = t.events("DiceCompared")[-1].data
    assert cmp["attack"]["result"] == 5 and "damaged -2" in cmp["attack"]["mods"]
    assert cmp["outcome"] == "damaged"


def test_boarding_party_captures_and_ignores_damage():
    t = mk(["breakout-1", "boarding-party-1"])
    emden_on_matheran(t, "breakout-1", ("boarding-party-1", "action"))
    t.act(1, {"action": "assist", "card": "boarding-party-1"})
    t.act(2, {"action": "decline"})
    t.roll(5, 1, 1, 3)         # 5 against 3 would damage: ignored when boarding
    assert not t.st("matheran")["damaged"]
    assert t.events("DamageIgnored")
    # the undamaged merchant then may try its passage (3.2.6): its owner decides
    assert t.state["window"]["kind"] == "passage" and t.g.to_act() == [2]
    t.act(2, {"action": "passage", "attempt": True})
    t.roll(6, 2)
    assert {"card": "matheran", "deck": "merchant", "double": False, "passage": True} in t.p(2)["vp"]


def test_boarding_party_not_for_a_damaged_merchant():
    t = mk(["breakout-1", "boarding-party-1", "breakout-2"], ["trap-1"])
    emden_on_matheran(t)
    t.act(2, {"action": "decline"})
    t.roll(5, 1, 1, 3)
    assert t.st("matheran")["damaged"]
    t.act(1, {"action": "end_turn"})
    pass_turn(t, 2)
    t.commit(1, ("boarding-party-1", "action"), ("breakout-2", "intercept", "prinz-eitel-friedrich"))
    t.auto_proceed = False
    t.act(1, {"action": "intercept", "card": "breakout-2", "ship": "prinz-eitel-friedrich", "target": "matheran"})
    # the assist window opens (a card lies face down: public), but offers only "proceed"
    assert t.state["window"]["kind"] == "assist" and t.legal(1) == [{"action": "proceed"}]
    t.act(1, {"action": "proceed"})
    assert not t.events("AssistRevealed") and t.state["window"]["kind"] == "react"


@pytest.mark.parametrize("card", ["bounding-main-1", "exchange-information-1"])
def test_team_cards_only_intercept_in_the_individual_game(card):
    t = mk([card])
    mine = [d for d in t.legal(1) if d.get("card") == card]
    assert {"action": "commit", "card": card, "use": "intercept", "ship": None} in mine
    assert {"action": "commit", "card": card, "use": "intercept", "ship": "emden"} in mine
    assert not [d for d in mine if d["use"] == "action"]


def test_break_contact_cancels_an_intercept():
    t = mk(["breakout-1"], ["break-contact-1"])
    emden_on_matheran(t)
    t.act(2, {"action": "react", "card": "break-contact-1"})
    t.roll(9, 1, 5)
    assert t.events("InterceptCancelled")[-1].data["why"] == "Break Contact"
    assert not t.events("DiceCompared") and not t.st("matheran")["damaged"]


def test_break_contact_not_at_night():
    t = mk(["collier-1"], ["break-contact-1", "shallow-run-1", "fast-ship-1"])
    t.commit(1, ("collier-1", "intercept", "prinz-eitel-friedrich"))
    t.act(1, {"action": "intercept", "card": "collier-1", "ship": "prinz-eitel-friedrich", "target": "matheran"})
    legal = t.legal(2)
    for c in ("break-contact-1", "shallow-run-1", "fast-ship-1"):
        assert {"action": "react", "card": c} not in legal
    with pytest.raises(IllegalDecision, match="night"):
        t.g.act(2, {"action": "react", "card": "break-contact-1"})
    t.act(2, {"action": "decline"})
    t.roll(7, 1, 3)            # PEF 7 - 1 (night) = 6 against 3: sunk
    assert t.events("DiceCompared")[-1].data["attack"]["result"] == 6


def test_breakdown_damages_an_undamaged_enemy_ship():
    t = mk(["breakdown-1"])
    t.commit(1, ("breakdown-1", "action"))
    opts = [d for d in t.legal(1) if d["action"] == "play"]
    assert {d["target"] for d in opts} == {"dresden", "leopard", "wolf"}   # hidden raiders too
    t.act(1, {"action": "play", "card": "breakdown-1", "target": "leopard"})
    t.roll(9, 1, 3)
    assert t.st("leopard")["damaged"] and not t.st("leopard")["revealed"]


def test_breakout_draws_two_ships_on_double():
    t = mk(["breakout-1"])
    t.commit(1, ("breakout-1", "action"))
    t.act(1, {"action": "play", "card": "breakout-1"})
    t.roll(8, 1, 4)
    assert len(t.p(1)["ships"]) == 5
    count_cards(t.state)


def test_collier_resupplies_every_friendly_ship():
    t = mk(["rendezvous-missed-1"], ["collier-1"])
    t.commit(1, ("rendezvous-missed-1", "action"))
    t.act(1, {"action": "play", "card": "rendezvous-missed-1", "opponent": 2})
    t.roll(9, 1, 3, 9, 1, 3, 1, 1, 3)
    assert t.st("dresden")["supply"] and t.st("leopard")["supply"]
    t.act(1, {"action": "end_turn"})
    t.commit(2, ("collier-1", "action"))
    t.act(2, {"action": "play", "card": "collier-1"})
    assert not t.st("dresden")["supply"] and not t.st("leopard")["supply"]


def test_damage_control_repairs_a_merchant():
    t = mk(["breakout-1"], ["damage-control-1"])
    emden_on_matheran(t)
    t.act(2, {"action": "decline"})
    t.roll(5, 1, 1, 3)
    t.act(1, {"action": "end_turn"})
    t.commit(2, ("damage-control-1", "action"))
    assert t.legal(2)[0] == {"action": "play", "card": "damage-control-1", "ship": "matheran"}
    t.act(2, {"action": "play", "card": "damage-control-1", "ship": "matheran"})
    assert not t.st("matheran")["damaged"]


def test_deception_forces_one_random_card_and_excludes_fog_bank():
    t = mk(["deception-1", "fog-bank-1"], ["breakout-1", "trap-1", "reflag-1"])
    t.commit(1, ("deception-1", "action"), ("fog-bank-1", "action"))
    t.act(1, {"action": "play", "card": "deception-1", "opponent": 2})
    # a player never has both Deception and Fog Bank waiting
    assert not [d for d in t.legal(1) if d.get("card") == "fog-bank-1"]
    t.picks = ["breakout-1"]                                    # the card the referee sees drawn
    t.act(1, {"action": "end_turn"})
    forced = t.events("DeceptionForcedCard")[-1].data
    assert forced == {"seat": 2, "card": "breakout-1", "name": "Breakout"}
    # the only card this turn, on its action side; the turn cannot end before it is played
    assert t.legal(2) == [{"action": "play", "card": "breakout-1"}]
    t.act(2, {"action": "play", "card": "breakout-1"})
    t.roll(1, 1, 5)
    t.act(2, {"action": "end_turn"})
    assert t.state["discard"][-2:] == ["breakout-1", "deception-1"]
    assert "trap-1" in t.p(2)["hand"] and "reflag-1" in t.p(2)["hand"]
    count_cards(t.state)


def test_fair_seas_passage_with_plus_one():
    t = mk(["fair-seas-1"])
    t.commit(1, ("fair-seas-1", "action"))
    t.act(1, {"action": "play", "card": "fair-seas-1", "ship": "appam"})
    t.roll(6, 6)               # 6 + 1 = 7 against 6
    assert {"card": "appam", "deck": "merchant", "double": False, "passage": True} in t.p(1)["vp"]
    t.act(1, {"action": "end_turn"})
    assert len(t.p(1)["merchants"]) == 3       # replenished to three (3.1.6)


def test_fast_ship_minus_two_against_a_raider():
    t = mk(["breakout-1"], ["fast-ship-1"])
    t.commit(1, ("breakout-1", "intercept", "prinz-eitel-friedrich"))
    t.act(1, {"action": "intercept", "card": "breakout-1", "ship": "prinz-eitel-friedrich", "target": "matheran"})
    t.act(2, {"action": "react", "card": "fast-ship-1"})
    t.roll(7, 1, 3)            # 7 - 2 = 5 against 3: damaged instead of sunk
    assert t.events("DiceCompared")[-1].data["outcome"] == "damaged"


def test_fast_ship_not_against_a_warship():
    t = mk(["breakout-1"], ["fast-ship-1"])
    emden_on_matheran(t)
    assert {"action": "react", "card": "fast-ship-1"} not in t.legal(2)
    with pytest.raises(IllegalDecision, match="warship"):
        t.g.act(2, {"action": "react", "card": "fast-ship-1"})


def test_fog_bank_makes_a_player_untouchable_but_heavy_weather():
    t = Table(3, {1: ["fog-bank-1", "heavy-weather-1", "breakout-1", "deception-1"], 2: ["trap-1"], 3: []},
              {1: SHIPS[1], 2: SHIPS[2], 3: ["nurnberg", "iltis", "geier"]},
              {1: MERCH[1], 2: MERCH[2], 3: ["dee", "bowes-castle", "invercoe"]}, first=1)
    t.commit(1, ("fog-bank-1", "action"), ("heavy-weather-1", "action"), ("breakout-1", "intercept"),
             ("deception-1", "action"))
    t.act(1, {"action": "play", "card": "fog-bank-1", "opponent": 2})
    legal = t.legal(1)
    assert not [d for d in legal if d["action"] == "intercept" and d["target"] in MERCH[2] + SHIPS[2]]
    assert {"action": "play", "card": "deception-1", "opponent": 2} not in legal
    assert {"action": "play", "card": "heavy-weather-1", "opponent": 2} in legal
    with pytest.raises(IllegalDecision, match="fog bank"):
        t.g.act(1, {"action": "play", "card": "deception-1", "opponent": 2})
    t.act(1, {"action": "end_turn"})
    # seat 2's turn: no card played, none drawn
    hand = len(t.p(2)["hand"])
    ended = t.events("TurnEnded")[-1].data
    assert ended == {"seat": 2, "drew": False}
    assert len(t.p(2)["hand"]) == hand and t.p(2)["pending"] is None
    assert t.g.to_act() == [3]


def test_good_hunting_only_with_a_raider():
    t = mk(["breakout-1", "good-hunting-1"])
    emden_on_matheran(t, "breakout-1", ("good-hunting-1", "action"))
    # Good Hunting goes with a raider only: nothing to reveal, seat 2 is asked
    assert not t.events("AssistRevealed") and t.state["window"]["kind"] == "react"


def test_heavy_weather_sinks_without_victory_points():
    t = mk(["heavy-weather-1"])
    t.commit(1, ("heavy-weather-1", "action"))
    t.act(1, {"action": "play", "card": "heavy-weather-1", "opponent": 2})
    t.roll(9, 1, 5)            # Dresden founders
    for _ in range(5):
        t.roll(1, 1, 5)
    assert "dresden" not in t.p(2)["ships"] and "dresden" in t.state["ship_used"]
    assert t.p(1)["vp"] == []
    count_cards(t.state)


def test_intelligence_looks_at_a_hand_in_secret():
    t = mk(["intelligence-1"], ["trap-1", "reflag-1"])
    t.commit(1, ("intelligence-1", "action"))
    t.act(1, {"action": "play", "card": "intelligence-1", "opponent": 2})
    seen = t.events("HandSeen")[-1]
    assert seen.vis == [1] and sorted(seen.data["cards"]) == sorted(t.p(2)["hand"])


def test_interned_with_plus_two_for_damage():
    t = mk(["breakdown-1", "interned-1"])
    t.commit(1, ("breakdown-1", "action"), ("interned-1", "action"))
    t.act(1, {"action": "play", "card": "breakdown-1", "target": "dresden"})
    t.roll(9, 1, 3)
    t.act(1, {"action": "play", "card": "interned-1", "target": "dresden"})
    t.roll(4, 1, 5)            # 4 + 2 = 6 against 5
    assert t.events("ChallengeRolled")[-1].data["challenge"]["result"] == 6
    assert "dresden" not in t.p(2)["ships"] and t.p(1)["vp"] == []


def test_interned_needs_a_recognised_raider():
    t = mk(["interned-1"])
    t.commit(1, ("interned-1", "action"))
    assert {d["target"] for d in t.legal(1) if d["action"] == "play"} == {"dresden"}


def test_an_intercept_card_is_placed_on_its_ship_one_card_a_ship():
    """3.2.1: the intercept card lies on the intercepting ship; Lay Mines on a
    minelaying raider; one card a ship; the placement is public, the card is not."""
    t = mk(["breakout-1", "breakout-2", "lay-mines-1"])
    t.act(1, {"action": "commit", "card": "breakout-1", "use": "intercept", "ship": "meteor"})
    legal = t.legal(1)
    assert {"action": "commit", "card": "lay-mines-1", "use": "action", "ship": "meteor"} not in legal
    assert {"action": "commit", "card": "breakout-2", "use": "intercept", "ship": "meteor"} not in legal
    pub = t.events("CardCommittedFaceDown")[-1]
    assert pub.vis == "all" and pub.data == {"seat": 1, "use": "intercept", "ship": "meteor", "count": 1}
    assert t.events("CardCommitted")[-1].vis == [1]
    t.act(1, {"action": "done"})
    # only the Meteor may use it
    assert {d.get("ship") for d in t.legal(1) if d["action"] == "intercept"} == {"meteor"}

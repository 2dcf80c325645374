"""Action cards (3.3), part 2."""

import pytest
from kp_helpers import count_cards
from test_cards_a import MERCH, emden_on_matheran, mk, pass_turn

from service.kernel import IllegalDecision


def test_interrogate_reveals_and_intercepts_without_reflag_or_assist():
    t = mk(["interrogate-1", "surprise-attack-1"], ["reflag-1"])
    t.commit(1, ("interrogate-1", "action"), ("surprise-attack-1", "action"))
    targets = {d["target"] for d in t.legal(1) if d["action"] == "interrogate"}
    assert targets == {"leopard", "wolf"}                # hidden raiders only, never a warship
    t.act(1, {"action": "interrogate", "card": "interrogate-1", "target": "leopard"})
    t.roll(9, 1, 3)                                      # revealed
    assert t.st("leopard")["revealed"]
    assert {"action": "react", "card": "reflag-1"} not in t.legal(2)
    with pytest.raises(IllegalDecision, match="Reflag"):
        t.g.act(2, {"action": "react", "card": "reflag-1"})
    t.act(2, {"action": "decline"})
    assert not t.events("AssistRevealed")
    t.roll(4, 1, 3)                                      # 4 against 3: damaged
    assert t.st("leopard")["damaged"]
    # once the intercept is resolved, Reflag may hide it again
    assert t.state["window"]["kind"] == "reflag"
    t.act(2, {"action": "react", "card": "reflag-1", "ship": "leopard"})
    assert not t.st("leopard")["revealed"]
    count_cards(t.state)


def test_island_refuge_and_monitor():
    t = mk(["island-refuge-1", "breakout-1"], ["monitor-1", "breakout-2"])
    t.commit(1, ("island-refuge-1", "action"), ("breakout-1", "intercept"))
    t.act(1, {"action": "play", "card": "island-refuge-1", "ship": "emden"})
    assert t.st("emden")["refuge"] == "island-refuge-1"
    assert not [d for d in t.legal(1) if d.get("ship") == "emden" and d["action"] == "intercept"]
    t.act(1, {"action": "end_turn"})
    t.commit(2, ("monitor-1", "action"), ("breakout-2", "intercept"))
    legal = t.legal(2)
    assert {"action": "intercept", "card": "breakout-2", "target": "emden"} not in legal
    assert {"action": "monitor", "card": "monitor-1", "target": "emden"} in legal
    t.act(2, {"action": "monitor", "card": "monitor-1", "target": "emden"})
    assert {"action": "react", "card": "break-contact-1"} not in t.legal(1)
    t.act(1, {"action": "decline"})
    t.roll(4, 1, 3)                                      # 4 + 2 (static target) = 6 against 3: sunk
    assert t.events("DiceCompared")[-1].data["attack"]["result"] == 6
    assert {"card": "emden", "deck": "ship", "double": False} in t.p(2)["vp"]
    assert "island-refuge-1" in t.state["discard"]
    count_cards(t.state)


def test_island_refuge_repair_and_leaving():
    t = mk(["island-refuge-1", "breakout-1"], ["breakdown-1"])
    t.commit(1, ("island-refuge-1", "action"))
    t.act(1, {"action": "play", "card": "island-refuge-1", "ship": "emden"})
    assert {"action": "leave_refuge", "ship": "emden"} not in t.legal(1)   # at least one turn
    t.act(1, {"action": "end_turn"})
    t.commit(2, ("breakdown-1", "action"))
    t.act(2, {"action": "play", "card": "breakdown-1", "target": "emden"})
    t.roll(9, 1, 3)
    t.act(2, {"action": "end_turn"})
    t.commit(1, ("breakout-1", "intercept"))
    t.act(1, {"action": "refuge", "ship": "emden", "try": "repair"})
    t.roll(9, 1, 3)
    assert not t.st("emden")["damaged"]
    t.act(1, {"action": "leave_refuge", "ship": "emden"})
    assert t.st("emden")["refuge"] is None
    # no intercept in the turn it leaves
    assert not [d for d in t.legal(1) if d.get("ship") == "emden"]
    count_cards(t.state)


def test_lay_mines_only_with_a_minelaying_raider():
    t = mk(["lay-mines-1"])
    t.commit(1, ("lay-mines-1", "action", "meteor"))
    assert {d["ship"] for d in t.legal(1) if d["action"] == "lay_mines"} == {"meteor"}


def test_minesweeper_removes_the_mines():
    t = mk(["lay-mines-1"], ["minesweeper-1"])
    t.commit(1, ("lay-mines-1", "action", "meteor"))
    t.act(1, {"action": "lay_mines", "card": "lay-mines-1", "ship": "meteor", "opponent": 2})
    t.act(2, {"action": "react", "card": "minesweeper-1"})
    assert t.events("MinesSwept") and not t.events("DiceCompared")
    assert t.state["eng"] is None


def test_mistaken_identity_swaps_the_sunk_merchant():
    t = mk(["u-41"], ["u-27", "mistaken-identity-1"])
    pass_turn(t, 1)
    t.commit(2, ("u-27", "action"))
    t.act(2, {"action": "torpedo", "card": "u-27", "target": "appam"})
    t.act(1, {"action": "decline"})
    t.roll(9, 1, 1, 4)
    assert {"card": "appam", "deck": "merchant", "double": False} in t.p(2)["vp"]
    t.act(2, {"action": "end_turn"})
    t.commit(1, ("u-41", "action"))
    t.act(1, {"action": "torpedo", "card": "u-41", "target": "matheran"})
    t.act(2, {"action": "decline"})
    t.roll(9, 1, 1, 4)
    t.act(2, {"action": "react", "card": "mistaken-identity-1", "give": "appam"})
    t.roll(9, 1, 3)
    assert [e["card"] for e in t.p(1)["vp"]] == ["appam"]
    assert [e["card"] for e in t.p(2)["vp"]] == ["matheran"]


def test_non_combatant_capture():
    t = mk(["breakout-1"], ["non-combatant-1"])
    emden_on_matheran(t)
    t.act(2, {"action": "react", "card": "non-combatant-1"})
    t.roll(10, 1, 1, 3)                                  # 10 - 2 = 8 against 3: captured
    assert "matheran" in t.p(1)["prizes"]
    assert not t.st("matheran")["revealed"]              # a prize starts disguised


def test_non_combatant_passage_plus_two():
    t = mk(["breakout-1"], ["non-combatant-1"])
    emden_on_matheran(t)
    t.act(2, {"action": "react", "card": "non-combatant-1"})
    t.roll(3, 1, 1, 5)                                   # 1 against 5: no effect
    t.act(2, {"action": "passage", "attempt": True})
    t.roll(4, 5)                                         # passage 4 + 2 = 6 against 5
    assert t.events("ChallengeRolled")[-1].data["challenge"]["result"] == 6
    assert {"card": "matheran", "deck": "merchant", "double": False, "passage": True} in t.p(2)["vp"]


def test_pull_the_plug_scuttles_without_points():
    t = mk(["breakout-1"], ["pull-the-plug-1"])
    t.commit(1, ("breakout-1", "intercept"))
    t.act(1, {"action": "intercept", "card": "breakout-1", "target": "dresden"})
    t.act(2, {"action": "react", "card": "pull-the-plug-1"})
    assert "dresden" not in t.p(2)["ships"] and t.p(1)["vp"] == [] and "dresden" in t.state["ship_used"]


def test_qqq_reveals_and_the_active_player_may_reflag_at_once():
    t = mk(["breakout-1", "reflag-1"], ["qqq-1"])
    t.commit(1, ("breakout-1", "intercept", "prinz-eitel-friedrich"))
    t.act(1, {"action": "intercept", "card": "breakout-1", "ship": "prinz-eitel-friedrich", "target": "matheran"})
    t.act(2, {"action": "react", "card": "qqq-1"})
    t.roll(10, 1, 3)                                     # sunk
    # QQQ was this intercept's one reaction (3.2.2): no Recalled / Mistaken Identity window
    assert t.st("prinz-eitel-friedrich")["revealed"]
    assert t.state["window"] == {"kind": "reflag", "seat": 1, "ships": ["prinz-eitel-friedrich"]}
    t.act(1, {"action": "react", "card": "reflag-1", "ship": "prinz-eitel-friedrich"})
    assert not t.st("prinz-eitel-friedrich")["revealed"]
    t.act(1, {"action": "end_turn"})
    assert "reflag-1" in t.state["discard"]
    count_cards(t.state)


def test_q_ship_gun_duel_sinks_the_submarine():
    t = mk(["u-27"], ["q-7-penhurst"])
    t.commit(1, ("u-27", "action"))
    t.act(1, {"action": "torpedo", "card": "u-27", "target": "matheran"})
    t.act(2, {"action": "react", "card": "q-7-penhurst"})
    t.roll(9, 1, 3)                                      # lured into a gun duel
    t.roll(9, 1, 2)                                      # Q-ship guns 9 against 2: sub sunk
    t.roll(1, 5)                                         # sub guns 1 against 5
    assert {"card": "u-27", "deck": "action", "double": False} in t.p(2)["vp"]
    assert "matheran" in t.p(2)["merchants"]
    count_cards(t.state)


def test_q_ship_not_lured_torpedo_then_depth_charges():
    t = mk(["u-27"], ["q-19-privet"])
    t.commit(1, ("u-27", "action"))
    t.act(1, {"action": "torpedo", "card": "u-27", "target": "matheran"})
    t.act(2, {"action": "react", "card": "q-19-privet"})
    t.roll(1, 1, 3)                                      # not lured
    t.roll(9, 1, 1, 2)                                   # torpedoes 9 against 2: Q-ship sunk
    assert {"card": "q-19-privet", "deck": "action", "double": False} in t.p(1)["vp"]
    assert t.awaiting() is None                          # a sunk Q-ship drops no depth charges


def test_razzle_dazzle_cancels_a_torpedo():
    t = mk(["u-27"], ["razzle-dazzle-1"])
    t.commit(1, ("u-27", "action"))
    t.act(1, {"action": "torpedo", "card": "u-27", "target": "matheran"})
    t.act(2, {"action": "react", "card": "razzle-dazzle-1"})
    t.roll(9, 1, 3)
    assert t.events("AttackCancelled") and not t.events("DiceCompared")


def test_recalled_stops_good_hunting():
    t = mk(["breakout-1", "good-hunting-1"], ["recalled-1"])
    t.commit(1, ("breakout-1", "intercept", "prinz-eitel-friedrich"), ("good-hunting-1", "action"))
    t.act(1, {"action": "intercept", "card": "breakout-1", "ship": "prinz-eitel-friedrich", "target": "matheran"})
    t.act(1, {"action": "assist", "card": "good-hunting-1", "target": "lovat"})
    t.act(2, {"action": "decline"})
    t.roll(10, 1, 3)                                     # Matheran sunk
    t.act(2, {"action": "react", "card": "recalled-1"})
    t.roll(9, 1, 3)
    assert "prinz-eitel-friedrich" in t.state["ship_used"]
    assert {"card": "matheran", "deck": "merchant", "double": False} in t.p(1)["vp"]
    assert t.state["eng"] is None and "lovat" in t.p(2)["merchants"] and not t.st("lovat")["damaged"]


def test_recon_aircraft_takes_two_cards_playable_this_turn():
    t = mk(["recon-aircraft-1"], ["breakout-1", "trap-1"])
    t.commit(1, ("recon-aircraft-1", "action"))
    t.picks = ["breakout-1", "trap-1"]                          # the two cards drawn, as named at the table
    t.act(1, {"action": "play", "card": "recon-aircraft-1", "opponent": 2})
    taken = t.events("CardsTaken")[-1]
    assert taken.vis == [1, 2] and taken.data["cards"] == ["breakout-1", "trap-1"]
    assert {"action": "commit", "card": "breakout-1", "use": "action"} in t.legal(1)
    t.act(1, {"action": "commit", "card": "breakout-1", "use": "action"})
    assert {"action": "play", "card": "breakout-1"} in t.legal(1)
    count_cards(t.state)


def test_reflag_committed_hides_a_revealed_raider_and_answers_an_intercept():
    t = mk(["breakout-1", "reflag-2"], ["qqq-1", "breakout-2", "reflag-1"])
    t.commit(1, ("breakout-1", "intercept", "prinz-eitel-friedrich"))
    t.act(1, {"action": "intercept", "card": "breakout-1", "ship": "prinz-eitel-friedrich", "target": "matheran"})
    t.act(2, {"action": "react", "card": "qqq-1"})
    t.roll(10, 1, 3)
    if t.state["window"]["seat"] == 2:
        t.act(2, {"action": "decline"})
    t.act(1, {"action": "decline"})                      # keeps the raider revealed for now
    t.act(1, {"action": "end_turn"})
    # seat 2 intercepts the revealed raider; seat 1 answers with Reflag from the hand
    t.commit(2, ("breakout-2", "intercept"))
    t.act(2, {"action": "intercept", "card": "breakout-2", "target": "prinz-eitel-friedrich"})
    t.act(1, {"action": "react", "card": "reflag-2"})
    assert not t.st("prinz-eitel-friedrich")["revealed"]
    assert t.events("InterceptCancelled")[-1].data["target"] == "prinz-eitel-friedrich"


def test_reflag_committed_at_the_start_of_a_turn():
    t = mk(["breakout-1", "reflag-2"], ["qqq-1"])
    t.commit(1, ("breakout-1", "intercept", "prinz-eitel-friedrich"))
    t.act(1, {"action": "intercept", "card": "breakout-1", "ship": "prinz-eitel-friedrich", "target": "matheran"})
    t.act(2, {"action": "react", "card": "qqq-1"})
    t.roll(10, 1, 3)
    if t.state["window"]["seat"] == 2:
        t.act(2, {"action": "decline"})
    t.act(1, {"action": "decline"})
    t.act(1, {"action": "end_turn"})
    pass_turn(t, 2)
    t.commit(1, ("reflag-2", "action"))
    t.act(1, {"action": "play", "card": "reflag-2", "ship": "prinz-eitel-friedrich"})
    assert not t.st("prinz-eitel-friedrich")["revealed"]


def test_sail_q_ship_only_for_a_sailing_merchant():
    merch = {1: MERCH[1], 2: ["dee", "lovat", "maria"]}
    t = mk(["u-27", "u-41"], ["q-21-prize"], merch=merch)
    t.commit(1, ("u-27", "action"), ("u-41", "action"))
    t.act(1, {"action": "torpedo", "card": "u-27", "target": "lovat"})
    assert {"action": "react", "card": "q-21-prize"} not in t.legal(2)
    t.act(2, {"action": "decline"})
    t.roll(1, 1, 1, 5)
    t.act(1, {"action": "torpedo", "card": "u-41", "target": "dee"})
    assert {"action": "react", "card": "q-21-prize"} in t.legal(2)


def test_scuttle_a_damaged_friendly_ship():
    t = mk(["scuttle-1", "scuttle-2"], ["breakdown-1"])
    t.commit(1, ("scuttle-1", "action"))
    assert not [d for d in t.legal(1) if d["action"] == "play"]    # nothing damaged: nothing to scuttle
    t.act(1, {"action": "end_turn"})
    t.commit(2, ("breakdown-1", "action"))
    t.act(2, {"action": "play", "card": "breakdown-1", "target": "emden"})
    t.roll(9, 1, 3)
    t.act(2, {"action": "end_turn"})
    t.commit(1, ("scuttle-2", "action"))
    assert [d for d in t.legal(1) if d["action"] == "play"] == [
        {"action": "play", "card": "scuttle-2", "ship": "emden"}]
    t.act(1, {"action": "play", "card": "scuttle-2", "ship": "emden"})
    assert "emden" not in t.p(1)["ships"] and "emden" in t.state["ship_used"]
    assert t.p(2)["vp"] == []
    count_cards(t.state)


def test_searchlight_only_at_night():
    t = mk(["collier-1", "searchlight-1"])
    t.commit(1, ("collier-1", "intercept"), ("searchlight-1", "action"))
    t.act(1, {"action": "intercept", "card": "collier-1", "target": "dresden"})
    t.act(1, {"action": "assist", "card": "searchlight-1"})
    t.act(2, {"action": "decline"})
    t.roll(5, 3)                                         # 5 - 1 + 3 = 7 against 3: sunk
    assert t.events("DiceCompared")[-1].data["attack"]["result"] == 7
    t2 = mk(["breakout-1", "searchlight-1"])
    t2.commit(1, ("breakout-1", "intercept"), ("searchlight-1", "action"))
    t2.act(1, {"action": "intercept", "card": "breakout-1", "target": "dresden"})
    assert t2.state["window"]["kind"] == "react"         # no assist window: daylight


def test_second_chance_extra_turn_without_another():
    t = mk(["second-chance-1", "second-chance-2", "wireless-intercept-1", "breakout-1"])
    t.commit(1, ("second-chance-1", "action"), ("breakout-1", "intercept"))
    t.act(1, {"action": "play", "card": "second-chance-1"})
    t.act(1, {"action": "end_turn"})
    started = t.events("TurnStarted")[-1].data
    assert started["seat"] == 1 and started["extra"] and t.g.to_act() == [1]
    # in the extra turn neither another Second Chance nor Wireless Intercept
    t.commit(1, ("second-chance-2", "action"), ("wireless-intercept-1", "action"))
    assert not [d for d in t.legal(1) if d["action"] == "play"]
    t.act(1, {"action": "end_turn"})
    assert t.events("TurnStarted")[-1].data["seat"] == 2


def test_shallow_run_sinks_an_already_damaged_ship_that_fails():
    t = mk(["breakout-1", "breakout-2"], ["shallow-run-1"])
    emden_on_matheran(t)
    t.act(2, {"action": "decline"})
    t.roll(5, 1, 1, 3)
    assert t.st("matheran")["damaged"]
    t.act(1, {"action": "end_turn"})
    pass_turn(t, 2)
    t.commit(1, ("breakout-2", "intercept", "prinz-eitel-friedrich"))
    t.act(1, {"action": "intercept", "card": "breakout-2", "ship": "prinz-eitel-friedrich", "target": "matheran"})
    t.act(2, {"action": "react", "card": "shallow-run-1"})
    t.roll(3, 1, 5)                                      # 3 - 2 = 1 against 5: fails
    assert {"card": "matheran", "deck": "merchant", "double": False} in t.p(1)["vp"]


def test_shipping_lanes_a_warship_against_all_three():
    t = mk(["breakout-1", "shipping-lanes-1"])
    emden_on_matheran(t, "breakout-1", ("shipping-lanes-1", "action"))
    t.act(1, {"action": "assist", "card": "shipping-lanes-1"})
    for _ in range(3):
        t.act(2, {"action": "decline"})
        t.roll(10, 1, 1, 1)
        if t.state["window"] and t.state["window"]["kind"] == "after":
            t.act(2, {"action": "decline"})
    assert sorted(e["card"] for e in t.p(1)["vp"]) == ["lovat", "maria", "matheran"]


def test_slim_pickings_cancels_a_single_intercept():
    t = mk(["breakout-1"], ["slim-pickings-1"])
    emden_on_matheran(t)
    t.act(2, {"action": "react", "card": "slim-pickings-1"})
    assert t.events("InterceptCancelled")[-1].data["why"] == "Slim Pickings"


def test_slim_pickings_reduces_good_hunting_to_one():
    t = mk(["breakout-1", "good-hunting-1"], ["slim-pickings-1"])
    t.commit(1, ("breakout-1", "intercept", "prinz-eitel-friedrich"), ("good-hunting-1", "action"))
    t.act(1, {"action": "intercept", "card": "breakout-1", "ship": "prinz-eitel-friedrich", "target": "matheran"})
    t.act(1, {"action": "assist", "card": "good-hunting-1", "target": "lovat"})
    t.act(2, {"action": "react", "card": "slim-pickings-1"})
    t.roll(10, 1, 3)
    assert t.state["eng"] is None or t.state["window"]["kind"] == "after"
    assert "lovat" in t.p(2)["merchants"] and len(t.events("DiceCompared")) == 1


def test_special_cargo_doubles_the_merchant():
    t = mk(["breakout-1", "special-cargo-1"])
    emden_on_matheran(t, "breakout-1", ("special-cargo-1", "action"))
    t.act(1, {"action": "assist", "card": "special-cargo-1"})
    t.act(2, {"action": "decline"})
    t.roll(10, 1, 1, 3)
    assert {"card": "matheran", "deck": "merchant", "double": True} in t.p(1)["vp"]


def test_uc_submarine_mines_every_merchant():
    t = mk(["uc-16"])
    t.commit(1, ("uc-16", "action"))
    t.act(1, {"action": "sub_mines", "card": "uc-16", "opponent": 2})
    t.act(2, {"action": "decline"})
    for m in ("matheran", "lovat", "maria"):
        t.act(1, {"action": "mine_target", "target": m}) if t.state["window"] and \
            t.state["window"]["kind"] == "order" else None
        t.roll(1, 1, 5)
    assert len(t.events("DiceCompared")) == 3 and t.state["eng"] is None


def test_only_one_surprise_attack_per_intercept():
    t = mk(["breakout-1", "surprise-attack-1", "surprise-attack-2"])
    emden_on_matheran(t, "breakout-1", ("surprise-attack-1", "action"), ("surprise-attack-2", "action"))
    t.act(1, {"action": "assist", "card": "surprise-attack-1"})
    assert t.state["window"]["kind"] == "react"


def test_transfer_command_keeps_the_ship_status():
    t = mk(["breakdown-1", "transfer-command-1"])
    t.commit(1, ("breakdown-1", "action"), ("transfer-command-1", "action"))
    t.act(1, {"action": "play", "card": "breakdown-1", "target": "dresden"})
    t.roll(9, 1, 3)
    t.act(1, {"action": "play", "card": "transfer-command-1", "target": "dresden"})
    t.roll(9, 1, 3)
    assert "dresden" in t.p(1)["ships"] and t.st("dresden")["damaged"]


def test_trap_simultaneous_combat():
    t = mk(["breakout-1"], ["trap-1"])
    emden_on_matheran(t)
    t.act(2, {"action": "react", "card": "trap-1"})
    t.roll(8, 1, 4)                                      # the armed merchant: 8 against Emden 4: sunk
    t.roll(10, 1, 1, 3)                                  # Emden 10 against 3: sunk too (simultaneous)
    assert {"card": "emden", "deck": "ship", "double": False} in t.p(2)["vp"]
    assert {"card": "matheran", "deck": "merchant", "double": False} in t.p(1)["vp"]


def test_wireless_intercept_not_two_turns_running():
    t = mk(["breakout-1", "breakout-2"], ["wireless-intercept-1", "wireless-intercept-2"])
    t.commit(1, ("breakout-1", "intercept"))
    t.act(1, {"action": "end_turn"})                     # committed but unplayed: discarded
    t.commit(2, ("wireless-intercept-1", "action"))
    t.act(2, {"action": "play", "card": "wireless-intercept-1"})
    assert "breakout-1" in t.p(2)["hand"]
    t.act(2, {"action": "end_turn"})
    t.commit(1, ("breakout-2", "intercept"))
    t.act(1, {"action": "end_turn"})
    t.commit(2, ("wireless-intercept-2", "action"))
    assert not [d for d in t.legal(2) if d["action"] == "play"]


def test_trap_with_a_boarding_party_captures_and_survivors_seek_passage():
    t = mk(["breakout-1", "boarding-party-1"], ["trap-1"])
    emden_on_matheran(t, "breakout-1", ("boarding-party-1", "action"))
    t.act(1, {"action": "assist", "card": "boarding-party-1"})
    t.act(2, {"action": "react", "card": "trap-1"})
    t.roll(1, 1, 4)                                      # the armed merchant misses
    t.roll(10, 1, 1, 3)                                  # boarding: sunk result = captured
    assert "matheran" in t.p(1)["prizes"]
    t2 = mk(["breakout-1"], ["trap-1"])
    emden_on_matheran(t2)
    t2.act(2, {"action": "react", "card": "trap-1"})
    t2.roll(1, 1, 4)
    t2.roll(1, 1, 1, 3)                                  # no effect either way: passage
    t2.act(2, {"action": "passage", "attempt": True})
    t2.roll(6, 2)
    assert {"card": "matheran", "deck": "merchant", "double": False, "passage": True} in t2.p(2)["vp"]

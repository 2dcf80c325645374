"""The team game (section 4): seats 1+3 against 2+4, driven in table mode with
chosen dice, plus complete bot games (see test_team_properties.py)."""

import random

import pytest
from kp_helpers import GAME, Table, count_cards

from service.aggregates.kaisers_pirates import team
from service.kernel import BadInput, IllegalDecision
from service.kernel.local import LocalGame

SHIPS = {1: ["emden", "prinz-eitel-friedrich", "meteor"], 2: ["dresden", "leopard", "wolf"],
         3: ["konigsberg", "geier", "iltis"], 4: ["nurnberg", "cormoran", "mowe"]}
MERCH = {1: ["appam", "kaipara", "hyades"], 2: ["matheran", "lovat", "maria"],
         3: ["bowes-castle", "invercoe", "mount-temple"], 4: ["lundy-island", "dee", "diplomat"]}


def mk(hands=None, first=1, **kw):
    """A 4-seat team game at the table."""
    return Table(4, {s: list((hands or {}).get(s, ())) for s in range(1, 5)}, SHIPS, MERCH, first=first,
                 options={"team": "true"}, **kw)


def pass_turn(t, seat):
    t.act(seat, {"action": "done"})
    t.act(seat, {"action": "end_turn"})


# options ------------------------------------------------------------------------
def test_team_option_is_recorded_and_needs_four_players():
    g = LocalGame(GAME, 4, options={"team": "true"}, seed=b"a" * 32)
    assert g.events[0].data["options"] == {"team": True}
    assert g.rules.view(g.state, 1)["teams"] == {"1": [1, 3], "2": [2, 4]}
    with pytest.raises(BadInput, match="4 players"):
        LocalGame(GAME, 3, options={"team": "true"})
    with pytest.raises(BadInput, match="team"):
        LocalGame(GAME, 4, options={"team": "1"})
    assert LocalGame(GAME, 4, options={"team": "false"}, seed=b"a" * 32).events[0].data["options"] == {"team": False}


# 4.1-4.3: partners sit alternately and are never targets ----------------------------
def test_a_partner_is_no_target_of_attacks_or_actions():
    t = mk({1: ["breakout-1", "fog-bank-1", "heavy-weather-1", "interned-1", "u-27"]})
    assert [team.partner(t.state, s) for s in (1, 2, 3, 4)] == [3, 4, 1, 2]
    t.commit(1, ("breakout-1", "intercept", "emden"), ("fog-bank-1", "action"), ("heavy-weather-1", "action"),
             ("interned-1", "action"), ("u-27", "action"))
    legal = t.legal(1)
    targets = {d["target"] for d in legal if "target" in d}
    assert targets and not targets & set(SHIPS[3] + MERCH[3])
    assert targets & set(MERCH[2]) and targets & set(MERCH[4])
    opps = {d["opponent"] for d in legal if "opponent" in d}
    assert opps == {2, 4}


# 4.4: friendly actions are the acting player's own -------------------------------
def test_damage_control_cannot_repair_a_partners_ship():
    t = mk({2: ["breakdown-1"], 1: ["damage-control-1"]}, first=2)
    t.commit(2, ("breakdown-1", "action"))
    t.act(2, {"action": "play", "card": "breakdown-1", "target": "konigsberg"})
    t.roll(9, 1, 3)
    assert t.st("konigsberg")["damaged"]
    t.act(2, {"action": "end_turn"})
    pass_turn(t, 3)
    pass_turn(t, 4)
    t.commit(1, ("damage-control-1", "action"))
    assert not [d for d in t.legal(1) if d.get("card") == "damage-control-1"]     # "un compagno" no
    with pytest.raises(IllegalDecision):
        t.g.act(1, {"action": "play", "card": "damage-control-1", "ship": "konigsberg"})


# 4.5: no reaction for a partner ------------------------------------------------------
def test_only_the_attacked_player_may_react_never_its_partner():
    t = mk({1: ["breakout-1"], 2: ["trap-1"], 4: ["trap-2", "shallow-run-1"]})
    t.commit(1, ("breakout-1", "intercept", "emden"))
    t.act(1, {"action": "intercept", "card": "breakout-1", "ship": "emden", "target": "matheran"})
    assert t.g.to_act() == [2] and t.state["window"]["kind"] == "react"
    assert t.legal(4) == [] and t.legal(3) == []
    with pytest.raises(IllegalDecision):  # seat 4 is not to act (NotYourTurn is one)
        t.g.act(4, {"action": "react", "card": "trap-2"})
    t.act(2, {"action": "decline"})
    t.roll(1, 1, 1, 8)
    t.act(2, {"action": "passage", "attempt": False})
    assert "trap-2" in t.p(4)["hand"]


# 3.3.4 Bounding Main: the next player (an opponent) loses its turn -------------------
def test_bounding_main_skips_the_next_players_turn_and_keeps_its_fog_bank():
    t = mk({1: ["bounding-main-1", "fog-bank-1"]})
    t.commit(1, ("bounding-main-1", "action"), ("fog-bank-1", "action"))
    plays = [d for d in t.legal(1) if d.get("card") == "bounding-main-1"]
    assert plays == [{"action": "play", "card": "bounding-main-1", "opponent": 2}]
    t.act(1, {"action": "play", "card": "bounding-main-1", "opponent": 2})
    # Fog Bank on the skipped player: 3.1.4 allows the attacked player and one other;
    # with no attack, one player only, so the Fog Bank must go on seat 2 too
    assert [d["opponent"] for d in t.legal(1) if d.get("card") == "fog-bank-1"] == [2]
    t.act(1, {"action": "play", "card": "fog-bank-1", "opponent": 2})
    t.act(1, {"action": "end_turn"})
    assert t.events("TurnSkipped")[-1].data["seat"] == 2
    assert t.state["current"] == 3 and t.g.to_act() == [3]
    assert t.p(2)["pending"]["type"] == "fog-bank"        # waits for seat 2's next turn
    pass_turn(t, 3)
    pass_turn(t, 4)
    pass_turn(t, 1)
    # now the fog bank takes seat 2's turn (no card, no draw: it passes by itself)
    assert t.events("TurnInFog")[-1].data["seat"] == 2 and t.p(2)["pending"] is None
    assert t.state["current"] == 3
    count_cards(t.state)


def test_team_cards_action_side_only_in_the_team_game():
    t = mk({1: ["bounding-main-1", "exchange-information-1"]})
    legal = t.legal(1)
    for c in ("bounding-main-1", "exchange-information-1"):
        assert {"action": "commit", "card": c, "use": "action"} in legal


# 3.3.11 Exchange Information: partners swap, neither sees the other's hand ------------
def test_exchange_information_between_partners_hidden_from_everyone_else():
    hands = {1: ["exchange-information-1", "trap-1", "qqq-1"], 3: ["shallow-run-1", "reflag-1"]}
    t = mk(hands)
    t.commit(1, ("exchange-information-1", "action"))
    t.act(1, {"action": "play", "card": "exchange-information-1"})
    assert t.state["window"]["kind"] == "exchange" and t.g.to_act() == [1]
    gives = {d["card"] for d in t.legal(1) if d["action"] == "give"}
    assert gives == set(t.p(1)["hand"])
    t.act(1, {"action": "give", "card": "trap-1"})
    t.act(1, {"action": "give", "card": "qqq-1"})
    assert {"action": "give", "card": "trap-1"} not in t.legal(1)
    v3 = t.g.rules.view(t.state, 3)
    assert isinstance(v3["players"]["1"]["hand"], int) and v3["giving"] == []      # its own choice only
    assert "giving" not in t.g.rules.view(t.state, 2) and "exchange" not in v3
    assert t.g.rules.view(t.state, 1)["giving"] == ["trap-1", "qqq-1"]
    for e in t.events("GiftChosen"):
        assert e.vis == [1]
    t.act(1, {"action": "give_done"})
    assert t.g.to_act() == [3]
    assert {d["card"] for d in t.legal(3) if d["action"] == "give"} == set(t.p(3)["hand"])
    t.act(3, {"action": "give_done"})                      # receives without giving
    ex = t.events("CardsExchanged")[-1]
    assert ex.vis == [1, 3] and ex.data["gives"] == {"1": ["trap-1", "qqq-1"], "3": []}
    assert t.events("CardsExchangedCount")[-1].vis == "all"
    assert "trap-1" in t.p(3)["hand"] and "qqq-1" in t.p(3)["hand"] and "trap-1" not in t.p(1)["hand"]
    assert t.state["window"] is None and t.g.to_act() == [1]
    for s in (2, 4):
        v = t.g.rules.view(t.state, s)
        assert all(isinstance(v["players"][o]["hand"], int) for o in ("1", "3"))
    count_cards(t.state)


# 4.6 a ship leaving an island refuge may pass to the partner ----------------------
def test_leaving_an_island_refuge_to_the_partner():
    t = mk({1: ["island-refuge-1"]})
    t.commit(1, ("island-refuge-1", "action"))
    t.act(1, {"action": "play", "card": "island-refuge-1", "ship": "emden"})
    assert not [d for d in t.legal(1) if d["action"] == "leave_refuge"]      # not in the turn it entered
    t.act(1, {"action": "end_turn"})
    for s in (2, 3, 4):
        pass_turn(t, s)
    t.act(1, {"action": "done"})
    legal = [d for d in t.legal(1) if d["action"] == "leave_refuge"]
    assert legal == [{"action": "leave_refuge", "ship": "emden"}, {"action": "leave_refuge", "ship": "emden", "to": 3}]
    with pytest.raises(IllegalDecision):
        t.g.act(1, {"action": "leave_refuge", "ship": "emden", "to": 2})      # not to an opponent
    t.act(1, {"action": "leave_refuge", "ship": "emden", "to": 3})
    assert "emden" in t.p(3)["ships"] and "emden" not in t.p(1)["ships"]
    assert not t.st("emden")["refuge"] and "island-refuge-1" in t.state["discard"]
    count_cards(t.state)


# 4.7 a double Breakout may give one or both ships to the partner ----------------------
def test_double_breakout_may_give_ships_to_the_partner():
    t = mk({1: ["breakout-1"]})
    t.commit(1, ("breakout-1", "action"))
    t.act(1, {"action": "play", "card": "breakout-1"})
    t.roll(9, 1, 4)                                      # 9 >= 2 x 4: two ships
    w = t.state["window"]
    assert w["kind"] == "breakout_split" and len(w["ships"]) == 2
    a, b = w["ships"]
    legal = t.legal(1)
    assert legal == [{"action": "transfer", "ships": []}, {"action": "transfer", "ships": [a]},
                     {"action": "transfer", "ships": [b]}, {"action": "transfer", "ships": [a, b]}]
    t.act(1, {"action": "transfer", "ships": [b]})
    assert a in t.p(1)["ships"] and b in t.p(3)["ships"] and len(t.p(1)["ships"]) == 4
    count_cards(t.state)


def test_single_breakout_ship_stays_with_the_player():
    t = mk({1: ["breakout-1"]})
    t.commit(1, ("breakout-1", "action"))
    t.act(1, {"action": "play", "card": "breakout-1"})
    t.roll(9, 1, 6)                                      # 9 > 6, not double: one ship
    assert t.state["window"] is None and len(t.p(1)["ships"]) == 4 and len(t.p(3)["ships"]) == 3


# 4.8 / 4.10 scoring --------------------------------------------------------------------
def _scored(rp, vp):
    return {"options": {"team": True}, "seats": 4,
            "players": [{"round_points": list(rp[s]), "round_vp": list(vp[s])} for s in range(4)]}


def test_team_round_points_decide_then_team_vp_then_another_round():
    # 4.8: individual round points add up per team: 4+3 = 7 against 2+1 = 3
    st = _scored([[4, 4, 4], [2, 2, 2], [3, 3, 3], [1, 1, 1]], [[9] * 3] * 4)
    res = team.result(st)
    assert res["winners"] == [1, 3] and res["scores"] == {"1": 21, "2": 9, "3": 21, "4": 9}
    assert res["round_points"] == {"1": 12, "2": 6, "3": 9, "4": 3} and res["team_points"] == {"1": 21, "2": 9}
    # a tie on round points: team VP decide
    st = _scored([[4, 4, 4], [3, 3, 3], [1, 1, 1], [2, 2, 2]], [[9] * 3, [5] * 3, [2] * 3, [5] * 3])
    assert team.result(st)["winners"] == [1, 3]
    # tied on both: another round (2.5), deciding between the tied teams only
    st = _scored([[4, 4, 4], [3, 3, 3], [1, 1, 1], [2, 2, 2]], [[5] * 3] * 4)
    assert team.result(st) is None and team.still_tied(st) == [1, 3, 2, 4]
    st["tied"], st["extra_rounds"] = [1, 3, 2, 4], 1
    for p, (rp, vp) in zip(st["players"], [(2, 5), (4, 9), (1, 5), (3, 5)]):
        p["round_points"].append(rp)
        p["round_vp"].append(vp)
    res = team.result(st)
    assert res["winners"] == [2, 4] and res["extra_rounds"]["2"] == {"round_points": [4], "victory_points": [9]}


# 4.9 between rounds: partners pool their ships ------------------------------------------
def test_partners_pool_their_ships_between_rounds():
    g = LocalGame(GAME, 4, options={"team": "true"}, seed=b"p" * 32)
    rng = random.Random(3)
    while not (g.state["window"] and g.state["window"]["kind"] == "team_keep"):
        seat = g.to_act()[0]
        g.act(seat, g.rules.bots["heuristic"](g.state, seat, g.legal(seat), rng))
    pools = {s: list(g.state["players"][s - 1]["ships"]) for s in range(1, 5)}
    seat = g.state["window"]["seat"]
    mate = team.partner(g.state, seat)
    pool = pools[seat] + pools[mate]
    assert {d["ship"] for d in g.legal(seat)} == set(pool) | {None}
    assert pools[mate]                                   # this seed: the partner has a ship to pass
    choice = pools[mate][0]                              # the first chooser takes the partner's ship
    g.act(seat, {"action": "keep", "ship": choice})
    while g.state["window"] and g.state["window"]["kind"] == "team_keep":
        s = g.state["window"]["seat"]
        legal = g.legal(s)
        if team.partner(g.state, s) == seat:
            assert {"action": "keep", "ship": choice} not in legal     # already claimed
        g.act(s, legal[0])
    assert choice in g.state["players"][seat - 1]["ships"] and choice not in g.state["players"][mate - 1]["ships"]
    assert any(e.data["ship"] == choice and e.data["to"] == seat for e in g.events if e.type == "ShipTransferred")
    assert g.state["players"][seat - 1]["kept"] == choice
    count_cards(g.state)

"""Rounds, turns and scoring: 2.1 removal, 2.3 round points, 2.4 between rounds,
2.5 victory, 3.1.3 / 3.1.4 target restrictions."""

import random

import pytest
from kp_helpers import GAME, Table, count_cards

from service.aggregates.kaisers_pirates.flow import round_points
from service.kernel import BadInput, IllegalDecision
from service.kernel.local import LocalGame

SHIPS3 = {1: ["emden", "prinz-eitel-friedrich", "meteor"], 2: ["dresden", "leopard", "wolf"],
          3: ["nurnberg", "iltis", "geier"]}
MERCH3 = {1: ["appam", "kaipara", "hyades"], 2: ["matheran", "lovat", "maria"],
          3: ["dee", "bowes-castle", "invercoe"]}


def test_round_points_book_examples():
    # 3 players: A 27, B 0, C 68 -> C 3, A 2, B 0
    assert round_points({"A": 27, "B": 0, "C": 68}) == {"A": 2, "B": 0, "C": 3}
    # 4 players: A and B tie on 39, C 72, D 18 -> C 4, A 3, B 3, D 1
    assert round_points({"A": 39, "B": 39, "C": 72, "D": 18}) == {"A": 3, "B": 3, "C": 4, "D": 1}
    assert round_points({"A": 5, "B": 9}) == {"A": 1, "B": 2}


@pytest.mark.parametrize("seats,removed", [(2, 60), (3, 40), (4, 20)])
def test_secret_removal_and_deal(seats, removed):
    g = LocalGame(GAME, seats, seed=b"r" * 32)
    aside = [e for e in g.events if e.type == "CardDrawn" and e.data["deck"] == "action:set-aside"]
    assert len(aside) == removed and all(e.vis == "referee" for e in aside)
    assert len(g.state["set_aside"]) == removed
    for p in g.state["players"]:
        assert len(p["hand"]) == 6 and len(p["ships"]) == 3 and len(p["merchants"]) == 3
    assert len(g.state["pool"]) == 100 - removed - 6 * seats
    count_cards(g.state)


def test_round_ends_when_the_last_card_is_drawn_and_kept_ship_costs_a_card():
    g = LocalGame(GAME, 2, seed=b"e" * 32)
    rng = random.Random(3)
    while g.state["round"] == 1:
        seat = g.to_act()[0]
        legal = g.legal(seat)
        g.act(seat, {"action": "done"} if {"action": "done"} in legal else
              ({"action": "end_turn"} if {"action": "end_turn"} in legal else rng.choice(legal)))
        if g.state["window"] and g.state["window"]["kind"] == "keep":
            break
    drawn = [e for e in g.events if e.type == "ActionCardDrawn"]
    assert drawn[-1].data["left"] == 0
    ended = [i for i, e in enumerate(g.events) if e.type == "RoundEnded"][0]
    last_draw = [i for i, e in enumerate(g.events) if e.type == "ActionCardDrawn"][-1]
    assert last_draw < ended and not [e for e in g.events[last_draw:ended] if e.type == "TurnStarted"]
    # between rounds: keep one ship (or none), markers off, new deal
    seat = g.to_act()[0]
    ship = g.state["players"][seat - 1]["ships"][0]
    g.act(seat, {"action": "keep", "ship": ship})
    while g.state["round"] == 1:
        s = g.to_act()[0]
        g.act(s, {"action": "keep", "ship": None})
    p = g.state["players"][seat - 1]
    assert ship in p["ships"] and len(p["ships"]) == 3
    assert len(p["hand"]) == 5                       # 2.4.5
    for o, q in enumerate(g.state["players"]):
        if o + 1 != seat:
            assert len(q["hand"]) == 6
    assert not g.state["status"][ship]["damaged"] and not g.state["status"][ship]["revealed"]
    count_cards(g.state)


def test_rounds_two_and_three_start_with_the_fewest_round_points():
    g = LocalGame(GAME, 3, seed=b"f" * 32)
    g.play_out(random.Random(5), bot="heuristic")
    scored = [e.data for e in g.events if e.type == "RoundScored"]
    firsts = [e.data for e in g.events if e.type == "FirstPlayerChosen"]
    totals = {"1": 0, "2": 0, "3": 0}
    for r, f in zip(scored, firsts[1:]):
        for s, v in r["points"].items():
            totals[s] += v
        low = min(totals.values())
        assert totals[str(f["seat"])] == low


def test_one_opponent_per_turn_for_attacks_and_one_other_for_other_cards():
    t = Table(3, {1: ["breakout-1", "breakout-2", "deception-1", "fog-bank-1"]}, SHIPS3, MERCH3, first=1)
    t.commit(1, ("breakout-1", "intercept", "emden"), ("breakout-2", "intercept", "meteor"), ("deception-1", "action"),
             ("fog-bank-1", "action"))
    t.act(1, {"action": "intercept", "card": "breakout-1", "ship": "emden", "target": "matheran"})
    t.act(2, {"action": "decline"})
    t.roll(1, 1, 1, 5)
    t.act(2, {"action": "passage", "attempt": True})
    t.roll(1, 8)                                          # passage fails
    legal = t.legal(1)
    targets = {d["target"] for d in legal if d["action"] == "intercept"}
    assert targets and targets <= set(MERCH3[2] + SHIPS3[2])
    # the Emden has intercepted: one intercept per friendly ship a turn
    assert not [d for d in legal if d.get("ship") == "emden"]
    with pytest.raises(IllegalDecision, match="one opponent"):
        t.g.act(1, {"action": "intercept", "card": "breakout-2", "ship": "meteor", "target": "dee"})
    # non-intercept cards: the attacked player and/or one other
    t.act(1, {"action": "play", "card": "deception-1", "opponent": 3})
    assert {"action": "play", "card": "fog-bank-1", "opponent": 2} in t.legal(1)


def test_without_an_attack_other_cards_go_against_one_player():
    t = Table(3, {1: ["deception-1", "fog-bank-1"]}, SHIPS3, MERCH3, first=1)
    t.commit(1, ("deception-1", "action"), ("fog-bank-1", "action"))
    t.act(1, {"action": "play", "card": "deception-1", "opponent": 2})
    opts = [d for d in t.legal(1) if d["action"] == "play"]
    assert opts == [] or all(d["opponent"] == 2 for d in opts)


def test_options():
    with pytest.raises(BadInput, match="team"):
        LocalGame(GAME, 4, options={"team": "yes"})
    with pytest.raises(BadInput):
        LocalGame(GAME, 5)
    with pytest.raises(BadInput, match="removed"):
        LocalGame(GAME, 2, options={"removed": "95"})
    with pytest.raises(BadInput, match="first_player"):
        LocalGame(GAME, 2, options={"first_player": "oldest"})
    # 2.1.4: the players may agree to remove more or fewer cards
    g = LocalGame(GAME, 2, options={"removed": "30"}, seed=b"o" * 32)
    assert len(g.state["set_aside"]) == 30 and len(g.state["pool"]) == 100 - 30 - 12
    # 3.1: the alternative: the fewest VP over the three warships and raiders starts
    g = LocalGame(GAME, 3, options={"first_player": "fewest-ship-vp"}, seed=b"p" * 32)
    from service.aggregates.kaisers_pirates.board import ix
    vps = {s: sum(ix(g.state).ships[x]["vp"] for x in g.state["players"][s - 1]["ships"]) for s in (1, 2, 3)}
    first = [e.data["seat"] for e in g.events if e.type == "FirstPlayerChosen"][0]
    assert vps[first] == min(vps.values())


def test_catalog_counts_and_bad_files(tmp_path):
    import json

    from service.aggregates.kaisers_pirates import catalog
    cat = catalog.load()
    assert sum(c["count"] for c in cat["action_cards"]) == 100 and len(cat["action_cards"]) == 47
    kinds = {c["id"]: c["kind"] for c in cat["action_cards"]}
    assert kinds["shallow-run"] == "reaction" and kinds["boarding-party"] == "assist"
    assert kinds["bounding-main"] == "team" and kinds["breakout"] == "normal"
    bad = json.loads(json.dumps(cat))
    bad["action_cards"][1]["count"] = 3
    with pytest.raises(BadInput, match="100"):
        catalog.validate(bad)
    bad = json.loads(json.dumps(cat))
    del bad["ships"][0]["source"]["vp"]
    with pytest.raises(BadInput, match="source"):
        catalog.validate(bad)
    bad = json.loads(json.dumps(cat))
    bad["merchants"][0]["defense"] = [12]
    with pytest.raises(BadInput, match="dice"):
        catalog.validate(bad)
    f = tmp_path / "c.json"
    f.write_text("{not json")
    with pytest.raises(BadInput, match="cannot read"):
        catalog.load(f)


def test_victory_points_by_hand_from_a_recorded_game():
    """Fold a recorded game's events; at each round end recompute every seat's VP
    from its VP pile and prizes (double), with the warship-and-raider limit."""
    from service.aggregates.kaisers_pirates.board import vp_of
    from service.kernel.machine import Machine

    g = LocalGame(GAME, 4, seed=b"h" * 32)
    g.play_out(random.Random(8), bot="heuristic")
    m = Machine(g.rules, g.events[0])
    m.apply(g.events[0])
    expected = None
    limited = 0
    for e in g.events[1:]:
        if e.type == "RoundEnded":
            expected = {}
            for s, p in enumerate(m.s["players"], 1):
                entries = p["vp"] + [{"card": x, "deck": "merchant", "double": True} for x in p["prizes"]]
                expected[str(s)] = entries
        if e.type == "VictoryCardsDiscarded":
            limited += 1
            entries = expected[str(e.data["seat"])]
            ships = [x for x in entries if x["deck"] == "ship"]
            merchants = [x for x in entries if x["deck"] == "merchant"]
            assert len(ships) - len(e.data["cards"]) == len(merchants)
            expected[str(e.data["seat"])] = [x for x in entries if x["card"] not in e.data["cards"]]
        if e.type == "RoundScored":
            for s, entries in expected.items():
                ships = [x for x in entries if x["deck"] == "ship"]
                merchants = [x for x in entries if x["deck"] == "merchant"]
                assert len(ships) <= len(merchants)
                assert e.data["vp"][s] == sum(vp_of(m.s, x) for x in entries)
        m.apply(e)
    assert m.s["phase"] == "over"


def test_prize_passage_counts_double():
    from test_cards_a import MERCH, SHIPS
    t = Table(2, {1: ["breakout-1"], 2: ["non-combatant-1", "interrogate-1"]}, SHIPS, MERCH, first=1)
    t.commit(1, ("breakout-1", "intercept", "emden"))
    t.act(1, {"action": "intercept", "card": "breakout-1", "ship": "emden", "target": "matheran"})
    t.act(2, {"action": "react", "card": "non-combatant-1"})
    t.roll(10, 1, 1, 3)
    assert "matheran" in t.p(1)["prizes"]
    from service.aggregates.kaisers_pirates.flow import round_vp
    from service.aggregates.kaisers_pirates.board import vp_of
    assert [vp_of(t.state, e) for e in round_vp(t.state, 1)] == [2 * 3]   # a surviving prize: double
    t.act(1, {"action": "end_turn"})
    # seat 2 interrogates the disguised prize; it survives the intercept and reaches a friendly port
    t.commit(2, ("interrogate-1", "action"))
    t.act(2, {"action": "interrogate", "card": "interrogate-1", "target": "matheran"})
    t.roll(9, 1, 3)
    t.act(1, {"action": "decline"})
    t.roll(1, 1, 5)                       # no effect
    t.act(1, {"action": "passage", "attempt": True})
    t.roll(6, 2)                          # passage: 6 against 2
    assert {"card": "matheran", "deck": "merchant", "double": True, "passage": True} in t.p(1)["vp"]


def test_victory_tie_breaks():
    from service.aggregates.kaisers_pirates.flow import result

    def st(rp, vp, extra=0, tied=None):
        return {"seats": len(rp), "extra_rounds": extra, "tied": tied,
                "players": [{"round_points": r, "round_vp": v} for r, v in zip(rp, vp)]}
    # most round points wins
    assert result(st([[3, 2, 3], [2, 3, 1]], [[9, 5, 9], [5, 9, 1]]))["winners"] == [1]
    # tied on round points: most victory points over the three rounds
    assert result(st([[2, 1, 2], [1, 2, 2]], [[9, 5, 9], [5, 9, 10]]))["winners"] == [2]
    # tied on both: another round (no result yet) ...
    assert result(st([[2, 1], [1, 2]], [[9, 5], [5, 9]])) is None
    # 2.5 sets no limit: still tied after extra rounds, yet another round
    assert result(st([[2, 1, 2, 1, 1, 1], [1, 2, 2, 1, 1, 1]], [[9, 5, 9, 3, 3, 3], [5, 9, 9, 3, 3, 3]],
                     extra=3, tied=[1, 2])) is None
    # the extra round decides among the tied players only: seat 3, behind after three
    # rounds, cannot win by taking the most points in it
    res = result(st([[3, 3, 2, 1], [3, 2, 3, 2], [1, 1, 1, 3]], [[9, 9, 5, 1], [9, 5, 9, 2], [1, 1, 1, 9]],
                    extra=1, tied=[1, 2]))
    assert res["winners"] == [2]
    # scores are the three rounds' round points; the extra rounds are listed apart
    assert res["scores"] == {"1": 8, "2": 8, "3": 3}
    assert res["extra_rounds"]["3"] == {"round_points": [3], "victory_points": [9]}


def test_limited_supply_minus_two_on_the_intercept_not_the_defence():
    from test_cards_a import MERCH, SHIPS
    t = Table(2, {1: ["breakout-1"], 2: ["rendezvous-missed-1"]}, SHIPS, MERCH, first=2)
    t.commit(2, ("rendezvous-missed-1", "action"))
    t.act(2, {"action": "play", "card": "rendezvous-missed-1", "opponent": 1})
    t.roll(9, 1, 3, 1, 1, 3, 1, 1, 3)                    # the Emden runs short of coal
    assert t.st("emden")["supply"]
    t.act(2, {"action": "end_turn"})
    t.commit(1, ("breakout-1", "intercept", "emden"))
    t.act(1, {"action": "intercept", "card": "breakout-1", "ship": "emden", "target": "matheran"})
    t.act(2, {"action": "decline"})
    t.roll(7, 1, 1, 3)                                   # 7 - 2 = 5 against 3: damaged only
    cmp = t.events("DiceCompared")[-1].data
    assert cmp["attack"]["mods"] == ["limited supply -2"] and cmp["outcome"] == "damaged"

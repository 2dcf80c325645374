"""Rulebook 3.2.9: the three-turn example of play, in table mode with the book's dice.

The book starts mid-game with the Leopard already revealed and the Maria
already damaged; a short prelude gets there by legal play (the Leopard
intercepts the Maria, which is damaged, and QQQ reveals the Leopard)."""

from kp_helpers import Table, count_cards

import pytest
from service.kernel import IllegalDecision

HANDS = {
    1: ["recalled-1", "surprise-attack-1", "qqq-1", "qqq-2", "fast-ship-1", "damage-control-1"],
    2: ["breakout-1", "lay-mines-1", "good-hunting-1", "boarding-party-1", "u-27", "shallow-run-1"],
    3: ["fair-seas-1", "lay-mines-2", "intelligence-1", "deception-1", "collier-1", "scuttle-1"],
}
SHIPS = {1: ["emden", "dresden", "leipzig"], 2: ["prinz-eitel-friedrich", "leopard", "greif"],
         3: ["meteor", "iltis", "geier"]}
MERCHANTS = {1: ["matheran", "lovat", "maria"], 2: ["bowes-castle", "invercoe", "mount-temple"],
             3: ["appam", "kaipara", "hyades"]}


@pytest.fixture
def t():
    t = Table(3, HANDS, SHIPS, MERCHANTS, first=2)
    # prelude, seat 2: the Leopard intercepts the Maria; seat 1 answers with QQQ
    t.commit(2, ("breakout-1", "intercept", "leopard"))
    t.act(2, {"action": "intercept", "card": "breakout-1", "ship": "leopard", "target": "maria"})
    t.act(1, {"action": "react", "card": "qqq-1"})
    t.roll(5, 3, 2, 3)                    # Leopard 5 (d10, d8, d6: 5.5.2) against Maria 3: damaged
    assert t.st("maria")["damaged"]
    t.act(2, {"action": "decline"})       # no Reflag for the revealed Leopard
    assert t.st("leopard")["revealed"]
    t.act(2, {"action": "end_turn"})
    t.commit(3)
    t.act(3, {"action": "end_turn"})
    assert t.g.to_act() == [1]
    return t


def test_turn_1_leopard_sunk_by_recalled_with_surprise_attack(t):
    t.commit(1, ("recalled-1", "intercept"), ("surprise-attack-1", "action"))
    t.act(1, {"action": "intercept", "card": "recalled-1", "target": "leopard"})
    t.act(1, {"action": "assist", "card": "surprise-attack-1"})
    # seat 2's only reaction, Shallow Run, is barred by Surprise Attack
    assert t.g.to_act() == [2]
    assert {"action": "react", "card": "shallow-run-1"} not in t.legal(2)
    n = len(t.g.events)
    with pytest.raises(IllegalDecision, match="Surprise Attack"):
        t.g.act(2, {"action": "react", "card": "shallow-run-1"})
    assert len(t.g.events) == n
    t.act(2, {"action": "decline"})
    t.roll(4, 6, 4)                       # blue 4, green 6 (+2 = 8) against 4
    cmp = t.events("DiceCompared")[-1].data
    assert cmp["attack"]["result"] == 8 and cmp["defence"]["result"] == 4 and cmp["outcome"] == "sunk"
    assert "leopard" not in t.p(2)["ships"]
    assert {"card": "leopard", "deck": "ship", "double": False} in t.p(1)["vp"]
    t.act(1, {"action": "end_turn"})
    assert sorted(t.state["discard"][-2:]) == ["recalled-1", "surprise-attack-1"]
    count_cards(t.state)


def _turn_1(t):
    t.commit(1, ("recalled-1", "intercept"), ("surprise-attack-1", "action"))
    t.act(1, {"action": "intercept", "card": "recalled-1", "target": "leopard"})
    t.act(1, {"action": "assist", "card": "surprise-attack-1"})
    t.act(2, {"action": "decline"})
    t.roll(4, 6, 4)
    t.act(1, {"action": "end_turn"})


def _turn_2(t):
    t.commit(2, ("lay-mines-1", "intercept", "prinz-eitel-friedrich"), ("good-hunting-1", "action"), ("boarding-party-1", "action"),
             ("u-27", "action"))
    t.act(2, {"action": "intercept", "card": "lay-mines-1", "ship": "prinz-eitel-friedrich", "target": "matheran"})
    t.act(2, {"action": "assist", "card": "good-hunting-1", "target": "lovat"})
    t.act(2, {"action": "proceed"})       # the Boarding Party waits for the Lovat
    t.act(1, {"action": "react", "card": "qqq-2"})
    t.roll(5, 2, 6)                       # PEF blue 5 green 2 against Matheran 6: no effect
    assert t.events("DiceCompared")[-1].data["outcome"] == "none"
    # undamaged and afloat, the Matheran may seek passage: seat 1 chooses to try
    assert t.g.to_act() == [1] and t.legal(1) == [{"action": "passage", "attempt": True},
                                                  {"action": "passage", "attempt": False}]
    t.act(1, {"action": "passage", "attempt": True})
    t.roll(5, 4)                          # passage: white 5 against green 4
    assert t.events("ChallengeRolled")[-1].data["success"]
    assert {"card": "matheran", "deck": "merchant", "double": False, "passage": True} in t.p(1)["vp"]
    t.act(2, {"action": "assist", "card": "boarding-party-1"})
    t.act(1, {"action": "react", "card": "fast-ship-1"})
    t.roll(8, 2, 2)                       # 8 - 2 (Fast Ship) = 6 against 2: captured
    cmp = t.events("DiceCompared")[-1].data
    assert cmp["attack"]["result"] == 6 and cmp["defence"]["result"] == 2
    assert "lovat" in t.p(2)["prizes"] and "lovat" not in t.p(1)["merchants"]
    # QQQ: the Prinz Eitel Friedrich is revealed at the end of the intercept
    assert t.st("prinz-eitel-friedrich")["revealed"]
    t.act(2, {"action": "decline"})       # seat 2 does not Reflag
    t.act(2, {"action": "torpedo", "card": "u-27", "target": "maria"})
    t.act(1, {"action": "decline"})
    t.roll(4, 5, 3, 2)                    # blue 4 white 5 red 3 against 2 - 2 (damaged) = 1
    cmp = t.events("DiceCompared")[-1].data
    assert cmp["attack"]["result"] == 5 and cmp["defence"]["result"] == 1 and cmp["outcome"] == "sunk"
    assert {"card": "maria", "deck": "merchant", "double": False} in t.p(2)["vp"]
    # no window after the sinking: seat 1 has sunk no merchant to swap (Mistaken
    # Identity) and a submarine cannot be Recalled
    assert t.state["window"] is None and t.g.to_act() == [2]
    # 3.1.5: seat 2 discards its four cards in the order it chooses, then seat 1 its two reactions
    t.manual_discards = True
    t.act(2, {"action": "end_turn"})
    assert t.state["window"] == {"kind": "discard", "seat": 2}
    for c in ["lay-mines-1", "good-hunting-1", "boarding-party-1"]:
        t.act(2, {"action": "discard", "card": c})
    assert t.state["window"] == {"kind": "discard", "seat": 1}      # the u-27 went down by itself
    assert t.legal(1) == [{"action": "discard", "card": "fast-ship-1"}, {"action": "discard", "card": "qqq-2"}]
    t.act(1, {"action": "discard", "card": "qqq-2"})
    t.manual_discards = False


def test_turn_2_prinz_eitel_friedrich_good_hunting_and_u27(t):
    _turn_1(t)
    _turn_2(t)
    # four cards of seat 2 discarded, then seat 1's two reactions
    assert t.state["discard"][-6:-2] == ["lay-mines-1", "good-hunting-1", "boarding-party-1", "u-27"]
    assert t.state["discard"][-2:] == ["qqq-2", "fast-ship-1"]
    # seat 1 draws three new merchantmen
    assert len(t.p(1)["merchants"]) == 3
    assert not {"matheran", "lovat", "maria"} & set(t.p(1)["merchants"])
    count_cards(t.state)


def test_turn_3_shallow_run_mines_deception_intelligence(t):
    _turn_1(t)
    _turn_2(t)
    t.commit(3, ("fair-seas-1", "intercept"), ("lay-mines-2", "action", "meteor"), ("deception-1", "action"),
             ("intelligence-1", "action"))
    t.act(3, {"action": "intercept", "card": "fair-seas-1", "target": "prinz-eitel-friedrich"})
    t.act(2, {"action": "react", "card": "shallow-run-1"})
    t.roll(6, 3, 9)                       # challenge blue 6 red 3 against response 9: fails
    assert t.events("InterceptCancelled")[-1].data["target"] == "prinz-eitel-friedrich"
    assert t.st("prinz-eitel-friedrich")["damaged"]
    assert "prinz-eitel-friedrich" in t.p(2)["ships"]
    t.act(3, {"action": "lay_mines", "card": "lay-mines-2", "ship": "meteor", "opponent": 2})
    t.act(2, {"action": "decline"})       # no Minesweeper
    t.act(3, {"action": "mine_target", "target": "bowes-castle"})
    t.roll(7, 2, 4)                       # 7 against 4: damaged
    assert t.st("bowes-castle")["damaged"]
    t.act(3, {"action": "mine_target", "target": "invercoe"})
    t.roll(3, 4, 2)                       # 4 against 2: sunk
    assert {"card": "invercoe", "deck": "merchant", "double": False} in t.p(3)["vp"]
    t.act(2, {"action": "decline"})       # no Mistaken Identity
    t.roll(5, 1, 5)                       # Mount Temple: 5 against 5, no effect, and no passage
    assert t.events("DiceCompared")[-1].data["outcome"] == "none"
    assert "mount-temple" in t.p(2)["merchants"] and not t.st("mount-temple")["damaged"]
    assert t.awaiting() is None and t.g.to_act() == [3]
    t.act(3, {"action": "play", "card": "deception-1", "opponent": 1})
    assert t.p(1)["pending"] == {"card": "deception-1", "type": "deception"}
    t.peeks = ["reflag-1", "trap-1", "wireless-intercept-1"]
    t.act(3, {"action": "play", "card": "intelligence-1", "deck": True})
    assert sorted(t.state["peek"]) == ["reflag-1", "trap-1", "wireless-intercept-1"]
    t.act(3, {"action": "stack", "order": ["trap-1", "reflag-1", "wireless-intercept-1"]})
    t.picks = ["damage-control-1"]                              # Deception's random card
    t.manual_discards = True
    t.act(3, {"action": "end_turn"})
    # seat 3 discards three cards in its chosen order; Deception stays with seat 1
    assert t.legal(3) == [{"action": "discard", "card": c} for c in ["fair-seas-1", "intelligence-1", "lay-mines-2"]]
    t.act(3, {"action": "discard", "card": "fair-seas-1"})
    t.act(3, {"action": "discard", "card": "lay-mines-2"})
    t.manual_discards = False
    # the last one goes down by itself, then seat 2's single Shallow Run
    assert t.state["discard"][-4:] == ["fair-seas-1", "lay-mines-2", "intelligence-1", "shallow-run-1"]
    assert "trap-1" in t.p(3)["hand"]                     # the card seat 3 put on top
    assert t.state["top"] == ["reflag-1", "wireless-intercept-1"]
    assert len(t.p(2)["merchants"]) == 3                  # one merchant replaces the Invercoe
    count_cards(t.state)
    # seat 1's next turn: Deception makes it play one random card of its hand
    picked = [e for e in t.g.events if e.type == "CardDrawn" and "Deception" in e.data["why"]][-1]
    # drawn at random from seat 1's own hand: only seat 1 sees which card, and the referee names it
    assert picked.vis == [1] and picked.data["card"] == "damage-control-1"
    forced = t.events("DeceptionForcedCard")[-1].data
    assert forced["seat"] == 1 and forced["card"] == "damage-control-1"
    # Damage Control has no damaged ship to repair: the card is ignored, and discarded
    # with the Deception card at the end of the turn (3.3.10)
    assert t.events("ForcedCardIgnored")
    assert t.legal(1) == [{"action": "end_turn"}]
    t.act(1, {"action": "end_turn"})
    assert t.p(1)["pending"] is None
    assert t.state["discard"][-2:] == ["damage-control-1", "deception-1"]
    count_cards(t.state)

"""Rulebook 5.5: the solitaire example of turns, in table mode with the book's dice.

Mike (seat 1) plays against the phantom (seat 2). 5.5.1 is the phantom's turn: the
Leipzig captures the Lundy Island with Surprise Attack and Boarding Party, a
U-boat damages the Appam, Recon Aircraft throws two of Mike's cards away. 5.5.2 is
Mike's turn: the Leopard damages the Kaipara and is revealed by the phantom's QQQ,
Interned sends the Leipzig to the bottom of the ship deck.

The solitaire cards are those of data/solitaire.json whose parts 5.5 describes:
solo-1 (offence: No Action (ET), warship intercept, Blockade Runner, Damage
Control), solo-2 (special: Surprise Attack), solo-3 (special: Boarding Party),
solo-4 (special: blank), solo-5 (offence: ..., torpedoes, Interrogate random),
solo-6 (offence: ..., Recon Aircraft (ET), Breakout), solo-7 (defence: No Action,
QQQ)."""

import pytest
from kp_helpers import Table, count_cards

HAND = ["break-contact-1", "lay-mines-1", "interned-1", "collier-1", "fair-seas-1", "scuttle-1"]
SHIPS = {1: ["leopard", "emden", "dresden"], 2: ["leipzig", "geier", "cormoran"]}
MERCHANTS = {1: ["matheran", "lundy-island", "appam"], 2: ["kaipara", "lovat", "maria"]}


@pytest.fixture
def t():
    # the phantom plays first (it rolls 10 against 1) and turns its first cards at once
    return Table(1, {1: HAND}, SHIPS, MERCHANTS, first=2, solo=["solo-1", "solo-2", "solo-3", "solo-4", "solo-5",
                                                                   "solo-6", "solo-7"],
                 picks=["lundy-island", "appam", "collier-1", "fair-seas-1"])


def _phantom_turn(t):
    assert t.state["players"][1]["hand"] and t.awaiting()["kind"] == "dice"     # the phantom's hand, unseen
    t.roll(2)                              # solo-1, red 2: a warship intercepts a merchant
    chosen = t.events("PhantomActionChosen")[-1].data
    assert chosen["action"] == "warship-intercept" and chosen["then"] == "draw"
    # solo-2 Surprise Attack, solo-3 Boarding Party, solo-4 blank: the chain stops
    assert [e.data["special"] for e in t.events("PhantomSpecialTurned")] == ["surprise-attack", "boarding-party", None]
    att = t.events("AttackAnnounced")[-1].data
    assert att["ship"] == "leipzig" and att["targets"] == ["lundy-island"]
    # Mike's only reaction, Break Contact, is barred by the Surprise Attack
    assert t.g.to_act() == [1]
    assert {"action": "react", "card": "break-contact-1"} not in t.legal(1)
    t.act(1, {"action": "decline"})
    t.roll(5, 7, 2, 4)                     # Leipzig blue 5 green 7 (+2 = 9) red 2 against Lundy Island 4
    cmp = t.events("DiceCompared")[-1].data
    assert cmp["attack"]["result"] == 9 and cmp["defence"]["result"] == 4
    assert "lundy-island" in t.p(2)["prizes"] and "lundy-island" not in t.p(1)["merchants"]
    # solo-5, red 3: the U-boat's torpedoes; no card is turned for special actions
    t.roll(3)
    assert t.events("PhantomActionChosen")[-1].data["action"] == "torpedo"
    assert t.events("AttackAnnounced")[-1].data["targets"] == ["appam"]
    assert t.g.to_act() == [1] and t.legal(1) == [{"action": "decline"}]     # no Q-Ship, no Razzle-Dazzle
    t.act(1, {"action": "decline"})
    t.roll(3, 2, 4, 3)                     # blue 3 white 2 red 4 against Appam green 3: damaged
    cmp = t.events("DiceCompared")[-1].data
    assert cmp["attack"]["dice"] == [10, 6, 4] and cmp["defence"]["dice"] == [8]
    assert cmp["attack"]["result"] == 4 and cmp["defence"]["result"] == 3 and cmp["outcome"] == "damaged"
    assert t.st("appam")["damaged"]
    # solo-6, red 3: Recon Aircraft (ET): two of Mike's cards at random, face down on the discards
    t.roll(3)


def test_551_the_phantoms_turn(t):
    _phantom_turn(t)
    assert t.events("CardsDiscardedFaceDown")[-1].data["cards"] == ["collier-1", "fair-seas-1"]
    assert sorted(t.p(1)["hand"]) == ["break-contact-1", "interned-1", "lay-mines-1", "scuttle-1"]
    assert {"collier-1", "fair-seas-1"} <= set(t.state["discard"])
    # (ET): the turn ends; the phantom's draw goes face down on the discards, unseen;
    # Mike draws a merchant for the one captured; the solitaire deck is reshuffled
    ended = t.events("TurnEnded")[-1].data
    assert ended == {"seat": 2, "drew": True}
    assert len(t.p(2)["hand"]) == 6 and len(t.p(1)["merchants"]) == 3
    assert len(t.state["solo"]["pile"]) == 20
    assert t.g.to_act() == [1] and t.state["current"] == 1
    # the discard pile stays hidden (5.3.1) and the phantom's hand is only a number
    v = t.g.rules.view(t.state, 1)
    assert v["discard_top_two"] == [] and v["players"]["2"]["hand"] == 6
    count_cards(t.state)


def test_552_leopard_damages_kaipara_qqq_and_interned(t):
    _phantom_turn(t)
    t.commit(1, ("lay-mines-1", "intercept", "leopard"), ("interned-1", "action"))
    t.act(1, {"action": "intercept", "card": "lay-mines-1", "ship": "leopard", "target": "kaipara"})
    # the phantom's defence: solo-7, red 2: QQQ
    t.roll(2)
    d = t.events("PhantomDefence")[-1].data
    assert d["card"] == "solo-7" and d["reaction"] == "qqq" and d["fits"]
    t.roll(6, 1, 3, 4)                     # Leopard blue 6, green 1, white 3 against Kaipara green 4
    cmp = t.events("DiceCompared")[-1].data
    assert cmp["attack"]["result"] == 6 and cmp["defence"]["result"] == 4 and cmp["outcome"] == "damaged"
    assert t.st("kaipara")["damaged"]
    assert t.st("leopard")["revealed"]     # QQQ: revealed at the end of the intercept
    # Mike holds no Reflag: no window to decline (the only seat: skipping it tells nobody anything)
    assert t.state["window"] is None and t.g.to_act() == [1]
    t.act(1, {"action": "play", "card": "interned-1", "target": "leipzig"})
    t.roll(8, 4, 5)                        # challenge blue 8 green 4 against response blue 5
    assert t.events("ChallengeRolled")[-1].data["success"]
    assert "leipzig" not in t.p(2)["ships"] and t.state["ship_used"][-1] == "leipzig"
    assert not any(e["card"] == "leipzig" for p in t.state["players"] for e in p["vp"])
    t.solo.append("solo-8")
    t.act(1, {"action": "end_turn"})
    assert {"lay-mines-1", "interned-1"} <= set(t.state["discard"])
    count_cards(t.state)
    # "Tocca ora ancora al giocatore fantasma": its next card is turned, its red die awaited
    assert t.state["current"] == 2 and "red die" in t.awaiting()["why"]

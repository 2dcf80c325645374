"""Fixes to sections 1-3: Q-ships spare the merchant for that torpedo only,
the 3.1.5 penalty as a referee decision, Reflag's window (Interned, Transfer
Command, revealed at the turn's start, one reaction per card), type-strict
decisions, every copy of a card listed. Seat 1 attacks seat 2 (table mode)."""

import pytest
from kp_helpers import count_cards
from test_cards_a import MERCH, emden_on_matheran, mk

from service.kernel import IllegalDecision


# 3.3.28 / 3.3.34 with 3.1.3: the torpedoed merchant may still be intercepted -----
def test_q_ship_spares_the_merchant_for_that_torpedo_only():
    t = mk(["u-27", "breakout-1"], ["q-7-penhurst"])
    t.commit(1, ("u-27", "action"), ("breakout-1", "intercept", "emden"))
    t.act(1, {"action": "torpedo", "card": "u-27", "target": "matheran"})
    t.act(2, {"action": "react", "card": "q-7-penhurst"})
    t.roll(1, 1, 9)                                      # not lured
    t.roll(1, 1, 1, 2)                                   # torpedoes miss the Q-ship
    t.roll(1, 1, 6)                                      # depth charges miss
    assert t.events("TorpedoTargetIgnored")[-1].data["ship"] == "matheran"
    assert "matheran" not in t.state["tt"]["ignored"]
    assert {"action": "intercept", "card": "breakout-1", "ship": "emden", "target": "matheran"} in t.legal(1)
    t.act(1, {"action": "intercept", "card": "breakout-1", "ship": "emden", "target": "matheran"})
    t.act(2, {"action": "decline"})
    t.roll(10, 1, 1, 3)                                  # 10 against 3: sunk
    assert {"card": "matheran", "deck": "merchant", "double": False} in t.p(1)["vp"]
    count_cards(t.state)


def test_sail_q_ship_spares_the_merchant_for_that_torpedo_only():
    merch = {1: MERCH[1], 2: ["dee", "lovat", "maria"]}
    t = mk(["u-27", "breakout-1"], ["q-21-prize"], merch=merch)
    t.commit(1, ("u-27", "action"), ("breakout-1", "intercept", "emden"))
    t.act(1, {"action": "torpedo", "card": "u-27", "target": "dee"})
    t.act(2, {"action": "react", "card": "q-21-prize"})
    t.roll(1, 1, 9)                                      # not lured
    t.roll(1, 1, 1, 2)                                   # torpedoes miss; no depth charges
    assert t.awaiting() is None
    assert {"action": "intercept", "card": "breakout-1", "ship": "emden", "target": "dee"} in t.legal(1)


def test_amc_still_bars_a_second_intercept_of_the_merchant():
    t = mk(["breakout-1", "breakout-2"], ["hms-alcantara"])
    emden_on_matheran(t, "breakout-1", ("breakout-2", "intercept", "prinz-eitel-friedrich"))
    t.act(2, {"action": "react", "card": "hms-alcantara"})
    t.roll(1, 1, 4)
    t.roll(1, 1, 1, 5)
    assert not [d for d in t.legal(1) if d.get("target") == "matheran"]


# 3.1.5 irregular plays: the referee's penalty ------------------------------------
def test_penalty_discards_a_committed_card_and_a_hand_card():
    t = mk(["breakout-1", "collier-1", "fog-bank-1"], ["reflag-1", "trap-1"])
    t.act(1, {"action": "commit", "card": "collier-1", "use": "action"})
    t.act(1, {"action": "commit", "card": "breakout-1", "use": "intercept", "ship": "emden"})
    opts = t.g.rules.referee_legal(t.state)
    assert {"referee": "penalty", "seat": 1, "card": "collier-1"} in opts
    assert {"referee": "penalty", "seat": 2, "card": "trap-1"} in opts
    assert {"referee": "penalty", "seat": 2, "card": "breakout-1"} not in opts
    evs = t.g.referee({"referee": "penalty", "seat": 1, "card": "collier-1"})
    pen = [e for e in evs if e.type == "PenaltyApplied"][0]
    assert pen.vis == "all" and pen.data["rule"] == "3.1.5" and pen.data["where"] == "committed"
    assert t.state["discard"] == ["collier-1"]
    assert [c["card"] for c in t.state["tt"]["committed"]] == ["breakout-1"]
    t.g.referee({"referee": "penalty", "seat": 2, "card": "trap-1"})
    assert "trap-1" not in t.p(2)["hand"] and "reflag-1" in t.p(2)["hand"]
    assert t.state["discard"] == ["collier-1", "trap-1"]
    assert t.g.legal(1)                                   # the turn goes on
    count_cards(t.state)


def test_penalty_refused_for_a_card_the_seat_does_not_hold():
    t = mk(["breakout-1"], ["trap-1"])
    n = len(t.g.events)
    for bad in ({"referee": "penalty", "seat": 2, "card": "breakout-1"},      # seat 1's card
                {"referee": "penalty", "seat": 1, "card": "no-such-card"},
                {"referee": "penalty", "seat": True, "card": "breakout-1"},     # a bool is no seat
                {"referee": "penalty", "seat": 5, "card": "breakout-1"},
                {"referee": "bonus", "seat": 1, "card": "breakout-1"}):
        with pytest.raises(IllegalDecision):
            t.g.referee(bad)
    assert len(t.g.events) == n


NO_REFLAG = ["trap-1", "collier-1", "breakdown-1", "fog-bank-1", "heavy-weather-1", "scuttle-1"]


# Reflag (3.3.32) ---------------------------------------------------------------------
def _reveal_leopard(t, extra=()):
    """Seat 1 interrogates the Leopard (revealed), the intercept misses, seat 2 keeps it revealed."""
    t.commit(1, ("interrogate-1", "action"), *extra)
    t.act(1, {"action": "interrogate", "card": "interrogate-1", "target": "leopard"})
    t.roll(9, 1, 3)                                      # revealed
    t.act(2, {"action": "decline"})
    t.roll(1, 1, 8)                                      # the intercept misses
    assert t.state["window"]["kind"] == "reflag"
    t.act(2, {"action": "decline"})
    assert t.st("leopard")["revealed"]


@pytest.mark.parametrize("card", ["interned-1", "transfer-command-1"])
def test_reflag_answers_interned_and_transfer_command(card):
    t = mk(["interrogate-1", card], ["reflag-1", "trap-1"])
    _reveal_leopard(t, ((card, "action"),))
    t.act(1, {"action": "play", "card": card, "target": "leopard"})
    assert t.state["window"]["kind"] == "reflag_card" and t.g.to_act() == [2]
    legal = t.legal(2)
    assert {"action": "react", "card": "reflag-1", "ship": "leopard"} in legal and legal[-1] == {"action": "decline"}
    assert {d["action"] for d in legal} == {"react", "decline"}
    t.act(2, {"action": "react", "card": "reflag-1", "ship": "leopard"})
    assert t.events("ActionFoiled") and not t.st("leopard")["revealed"]
    assert "leopard" in t.p(2)["ships"] and t.awaiting() is None
    t.act(1, {"action": "end_turn"})
    assert "reflag-1" in t.state["discard"]
    count_cards(t.state)


def test_interned_goes_on_when_reflag_is_declined():
    t = mk(["interrogate-1", "interned-1"], NO_REFLAG)
    t.commit(1, ("interrogate-1", "action"), ("interned-1", "action"))
    t.act(1, {"action": "interrogate", "card": "interrogate-1", "target": "leopard"})
    t.roll(9, 1, 3)
    t.act(2, {"action": "decline"})
    t.roll(1, 1, 8)
    t.act(2, {"action": "decline"})                      # the Reflag window (opens on any hand)
    t.act(1, {"action": "play", "card": "interned-1", "target": "leopard"})
    assert t.legal(2) == [{"action": "decline"}]          # no Reflag in hand: only decline
    t.act(2, {"action": "decline"})
    t.roll(9, 1, 3)                                      # interned
    assert "leopard" not in t.p(2)["ships"] and "leopard" in t.state["ship_used"]
    count_cards(t.state)


def test_committed_reflag_only_for_a_ship_revealed_at_the_turn_start():
    t = mk(["interrogate-1"], ["reflag-1", "reflag-4", "breakout-1"])
    _reveal_leopard(t)
    t.act(1, {"action": "end_turn"})
    # seat 2's turn starts with the Leopard revealed: both copies may be committed
    legal = t.legal(2)
    for c in ("reflag-1", "reflag-4"):
        assert {"action": "commit", "card": c, "use": "action"} in legal
    t.act(2, {"action": "commit", "card": "reflag-4", "use": "action"})
    t.act(2, {"action": "done"})
    assert {"action": "play", "card": "reflag-4", "ship": "leopard"} in t.legal(2)
    t.act(2, {"action": "play", "card": "reflag-4", "ship": "leopard"})
    assert not t.st("leopard")["revealed"]


def test_no_committed_reflag_without_a_ship_revealed_at_the_start():
    t = mk([], ["reflag-1", "breakout-1"])
    t.act(1, {"action": "done"})
    t.act(1, {"action": "end_turn"})
    assert not [d for d in t.legal(2) if d.get("card") == "reflag-1" and d.get("use") == "action"]
    with pytest.raises(IllegalDecision):
        t.g.act(2, {"action": "commit", "card": "reflag-1", "use": "action"})


def test_no_reflag_after_interrogate_when_the_defender_already_reacted():
    t = mk(["interrogate-1"], ["reflag-1", "break-contact-1"])
    t.commit(1, ("interrogate-1", "action"))
    t.act(1, {"action": "interrogate", "card": "interrogate-1", "target": "leopard"})
    t.roll(9, 1, 3)
    t.act(2, {"action": "react", "card": "break-contact-1"})
    t.roll(1, 1, 9)                                      # Break Contact fails
    t.roll(1, 1, 8)                                      # the intercept misses
    # 3.2.2: one reaction to the Interrogate card: no Reflag window now
    assert t.state["window"] is None and t.st("leopard")["revealed"]
    assert t.g.to_act() == [1]


# strict types and every copy -------------------------------------------------------
def test_decisions_are_type_strict():
    t = mk(["breakout-1"])
    emden_on_matheran(t)
    t.act(2, {"action": "decline"})
    t.roll(1, 1, 1, 5)                                   # no effect: passage window
    n = len(t.g.events)
    for bad in ({"action": "passage", "attempt": 0}, {"action": "passage", "attempt": 1},
                {"action": "passage", "attempt": "true"}, {"action": "passage", "attempt": None}):
        with pytest.raises(IllegalDecision):
            t.g.act(2, bad)
    assert len(t.g.events) == n
    t.act(2, {"action": "passage", "attempt": False})
    t.act(1, {"action": "end_turn"})
    t.act(2, {"action": "done"})
    t.act(2, {"action": "end_turn"})
    # an int must be an int, never a bool nor a float
    t2 = mk(["fog-bank-1"])
    t2.commit(1, ("fog-bank-1", "action"))
    for bad in ({"action": "play", "card": "fog-bank-1", "opponent": True},
                {"action": "play", "card": "fog-bank-1", "opponent": 2.0}):
        with pytest.raises(IllegalDecision):
            t2.g.act(1, bad)
    t2.act(1, {"action": "play", "card": "fog-bank-1", "opponent": 2})


def test_every_copy_of_a_held_card_is_listed_and_accepted():
    t = mk(["reflag-2", "reflag-4", "breakout-1", "breakout-3"], ["trap-1", "trap-2"])
    legal = t.legal(1)
    for c in ("reflag-2", "reflag-4", "breakout-1", "breakout-3"):
        assert {"action": "commit", "card": c, "use": "intercept", "ship": "emden"} in legal
    for d in legal:                                      # legal == accepted
        t.g.machine.copy().decide(1, d, t.g.chance())
    t.act(1, {"action": "commit", "card": "reflag-4", "use": "intercept", "ship": "emden"})
    t.act(1, {"action": "commit", "card": "breakout-3", "use": "intercept", "ship": None})
    t.act(1, {"action": "done"})
    t.act(1, {"action": "intercept", "card": "reflag-4", "ship": "emden", "target": "matheran"})
    legal = t.legal(2)
    assert {"action": "react", "card": "trap-1"} in legal and {"action": "react", "card": "trap-2"} in legal
    t.act(2, {"action": "react", "card": "trap-2"})
    count_cards(t.state)

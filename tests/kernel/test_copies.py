"""Copies of one face (service/kernel/copies.py): read by what the public has seen.

Driven at a Loot table, where the referee names each card dealt: seat 1 is dealt
``blue-2a`` and then seat 2 a ``blue-2`` (the kernel takes the copy left, ``blue-2b``)."""

from __future__ import annotations

import pytest

from service.kernel.copies import as_listed, as_read, kinds_of, offered, reading, show
from service.kernel.errors import IllegalDecision
from service.kernel.local import LocalGame
from service.kernel.machine import Machine


def test_kinds_labels_and_reading():
    kinds = kinds_of(["a1", "a2", "a3", "b", "c1", "c2"], lambda c: c[0] if c != "b" else None)
    assert kinds == {"a1": ["a1", "a2", "a3"], "a2": ["a1", "a2", "a3"], "a3": ["a1", "a2", "a3"],
                     "c1": ["c1", "c2"], "c2": ["c1", "c2"]}
    assert kinds["a1"] is kinds["a3"]  # one list a kind
    shown: dict = {}
    show(shown, kinds, ["a3", "c2", "a3"])  # the public sees a3, then c2: each its kind's first label
    show(shown, kinds, ["a1"])              # then a1: the second label of its kind
    assert reading(kinds, shown) == {"a1": "a2", "a2": "a1", "a3": "a1", "c1": "c1", "c2": "c1"}
    # unseen copies read as their kind's first copy; a seen one by its label
    alike = reading(kinds, shown)
    assert as_read({"hand": ["a2", "c1", "b"], "a3": 1}, alike) == {"hand": ["a1", "c1", "b"], "a1": 1}


def test_offered_once_a_kind_and_taken_back():
    alike = {"x1": "x1", "x2": "x1"}
    listed = [{"play": "x1"}, {"play": "x2"}, {"play": "y"}]
    assert offered(listed, alike) == [{"play": "x1"}, {"play": "y"}]
    # a seat's decision (as it reads its list) stands for the first listed that reads so
    assert as_listed({"play": "x1"}, listed, alike, read=True) is listed[0]
    # naming a copy by its id is no way in for a seat: "x2" reads as nothing it was offered
    assert as_listed({"play": "x2"}, listed, alike, read=True) is None
    # the referee's or a record's decision stands for itself where listed, else for what it names
    assert as_listed({"play": "x2"}, listed, alike) is listed[1]
    assert as_listed({"play": "x2"}, listed[:1], alike) is listed[0]
    assert as_listed({"play": "z"}, listed, alike) is None


def _dealt(first_for_seat_1: str) -> LocalGame:
    """A two-seat Loot table: seat 1 dealt ``first_for_seat_1``, seat 2 then a ``blue-2``."""
    g = LocalGame("loot", 2, table=True)
    g.enter(1)                                      # seat 1 deals, seat 2 is dealt first
    for card in ["merchant-2", first_for_seat_1, "merchant-3", "merchant-4", "merchant-5", "merchant-6",
                 "merchant-7", "merchant-8", "merchant-2", "merchant-3", "blue-2", "merchant-4"]:
        g.enter(card)
    assert g.machine.to_act() == [2]
    return g


def test_a_seat_reads_the_same_whichever_copy_another_seat_holds():
    a, b = _dealt("blue-2a"), _dealt("blue-2b")
    assert "blue-2b" in a.state["hands"][1] and "blue-2a" in b.state["hands"][1]   # the kernel took the copy left
    for seat in (0, 1, 2):
        views = [as_read(g.rules.view(g.state, seat), g.machine.alike()) for g in (a, b)]
        assert views[0] == views[1]
    assert a.machine.offered(2) == b.machine.offered(2)
    assert {"action": "merchant", "card": "merchant-2a"} in a.machine.offered(2)
    assert [d for d in a.machine.offered(2) if d.get("card") == "merchant-2a"] == [
        {"action": "merchant", "card": "merchant-2a"}]  # two merchant 2s in hand: one choice


def test_a_seat_cannot_probe_which_copy_it_holds():
    for g in (_dealt("blue-2a"), _dealt("blue-2b")):
        held = next(c for c in g.state["hands"][1] if c.startswith("blue-2"))
        other = "blue-2b" if held == "blue-2a" else "blue-2a"
        with pytest.raises(IllegalDecision):   # the copy it does not hold: refused in either game
            g.machine.decide(2, {"action": "discard", "card": other}, g.chance(), read=True)
        if held != "blue-2a":                  # and the one it holds, by its id, is refused too
            with pytest.raises(IllegalDecision):
                g.machine.decide(2, {"action": "merchant", "card": "merchant-2b"}, g.chance(), read=True)


def test_the_public_labels_copies_in_the_order_it_saw_them():
    g = _dealt("blue-2b")
    g.events += g.machine.decide(2, {"action": "merchant", "card": "merchant-2a"}, g.chance(), read=True)
    g.act(1, {"action": "draw"})
    g.enter("merchant-2")                       # seat 1 draws a third merchant 2, unseen
    g.events += g.machine.decide(2, {"action": "merchant", "card": "merchant-2a"}, g.chance(), read=True)
    played = [e.data["card"] for e in g.events if e.type == "MerchantPlayed"]
    unseen = next(c for c in g.state["hands"][0] if c.startswith("merchant-2"))
    assert len(played) == 2 and unseen not in played
    alike = g.machine.alike()
    # the first seen reads as the first label, the second as the second, the unseen one as its kind
    assert [alike[played[0]], alike[played[1]], alike[unseen]] == ["merchant-2a", "merchant-2b", "merchant-2a"]
    # the labels are the fold's too: the stored history gives them again
    folded = Machine(g.rules, g.events[0])
    for e in g.events:
        folded.apply(e)
    assert folded.alike() == alike

"""Issue 33, The Kaiser's Pirates: what the referees found at a table. Each test
plays the book's situation in table mode with the book's dice and failed before
its fix: the log says who fires a torpedo and that a boarding captures (3.2.9),
..."""

from kp_helpers import Table, count_cards
from test_example_329 import _turn_1, _turn_2, t  # noqa: F401 (the 3.2.9 example's table)


def _lines(t, start=0, types=None):
    return [t.g.rules.describe(e) for e in t.g.events[start:] if types is None or e.type in types]


# 3.2.9 turn 2: the Prinz Eitel Friedrich's Boarding Party, then the U-27 ------------
def test_the_u27s_torpedo_is_logged_as_the_u27s_and_the_boarding_as_a_capture(t):
    _turn_1(t)
    n = len(t.g.events)
    _turn_2(t)
    lines = _lines(t, n, ("AttackAnnounced", "DiceCompared", "ShipCaptured", "ShipSunk"))
    assert "seat 2: U-27 torpedo against seat 1: maria" in lines
    assert not [x for x in lines if "British forces" in x]
    # "il Lovat viene catturato": the dice read as a capture, nothing is sunk before it
    i = next(k for k, x in enumerate(lines) if "captures lovat" in x)
    assert lines[i - 1] == "prinz-eitel-friedrich tries to capture lovat: 8 Fast Ship -2 = 6 against 2 = 2: captured"
    assert not [x for x in lines if "lovat" in x and "sunk" in x]


# 5.5.1: the phantom's U-boat torpedoes the Appam -----------------------------------
SOLO_HAND = ["break-contact-1", "lay-mines-1", "interned-1", "collier-1", "fair-seas-1", "scuttle-1"]
SOLO_SHIPS = {1: ["leopard", "emden", "dresden"], 2: ["leipzig", "geier", "cormoran"]}
SOLO_MERCHANTS = {1: ["matheran", "lundy-island", "appam"], 2: ["kaipara", "lovat", "maria"]}


def solo_table(cards, hand=SOLO_HAND, ships=SOLO_SHIPS, picks=(), **kw):
    return Table(1, {1: list(hand)}, ships, SOLO_MERCHANTS, first=2, solo=list(cards), picks=list(picks), **kw)


def test_the_phantoms_torpedo_and_capture_are_logged_as_the_phantoms():
    t = solo_table(["solo-1", "solo-2", "solo-3", "solo-4", "solo-5", "solo-6"],
                   picks=["lundy-island", "appam", "collier-1", "fair-seas-1"])
    t.roll(2)
    t.act(1, {"action": "decline"})
    t.roll(5, 7, 2, 4)                     # 9 against 4: the Lundy Island captured
    t.roll(3)                              # solo-5, red 3: the U-boat's torpedoes
    t.act(1, {"action": "decline"})
    t.roll(3, 2, 4, 3)
    lines = _lines(t, 0, ("AttackAnnounced", "DiceCompared", "ShipCaptured"))
    assert "seat 2: the phantom's U-boat torpedo against seat 1: appam" in lines
    assert "leipzig tries to capture lundy-island: 7 Surprise Attack +2 = 9 against 4 = 4: captured" in lines
    assert not [x for x in lines if "British forces" in x]
    count_cards(t.state)


# at a table: a card named by its type as printed --------------------------------------
def test_a_card_with_named_copies_is_named_by_its_type_at_the_table():
    t = Table(2, {1: ["submarines-u-27-u-41", "amc", "submarines-u-27-u-41", "q-ship", "sail-q-ship",
                      "submarines-uc-16-uc-29"]}, {}, {}, first=1)
    hand = t.p(1)["hand"]
    assert {"u-27", "u-41", "hms-alcantara", "q-21-prize", "uc-16"} <= set(hand)      # any copy left will do
    assert {"q-7-penhurst", "q-19-privet"} & set(hand)
    # the copy's own name still works, and the log says both
    t2 = Table(2, {1: ["u-41"]}, {}, {}, first=1)
    assert "u-41" in t2.p(1)["hand"] and "u-27" not in t2.p(1)["hand"]
    count_cards(t.state)

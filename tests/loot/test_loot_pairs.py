"""The pairs game in table mode: shared sight of a partner's hand, team colours,
the Admiral for a partner, the team's first player checking captures."""

from __future__ import annotations

import json

import pytest

from service.kernel import BadInput, IllegalDecision
from service.kernel.local import LocalGame
from service.aggregates.loot.state import battle, leader

from loot_helpers import deal_table, draw, snapshot

HANDS = {
    1: ["merchant-5a", "green-1a", "green-1b", "purple-1a", "gold-1a", "gold-1b"],
    2: ["admiral", "merchant-2a", "green-2a", "purple-2a", "gold-2a", "gold-2b"],
    3: ["blue-2a", "merchant-2b", "green-2b", "purple-2b", "gold-3a", "gold-3b"],
    4: ["blue-3a", "blue-captain", "green-3a", "purple-3a", "merchant-2c", "gold-4a"],
}


def captures(events):
    return [(e.data["seat"], e.data["merchant"]) for e in events if e.type == "MerchantCaptured"]


def test_pairs_setup_and_sight():
    g = deal_table(4, 4, HANDS, {"pairs": "true"})
    st = g.state
    assert st["first"] == 1 and st["checkers"] == [1, 3]
    for e in g.events:
        if e.type == "CardDrawn":
            assert e.vis in ([1, 2], [3, 4])
    v1 = g.rules.view(st, 1)
    assert v1["players"]["1"]["hand"] == sorted(HANDS[1])
    assert v1["players"]["2"]["hand"] == sorted(HANDS[2])
    assert v1["players"]["3"]["hand"] is None and v1["players"]["4"]["hand"] is None
    text = json.dumps(v1)
    assert not any(c in text for c in HANDS[3] + HANDS[4])


def test_pairs_team_attack_partner_admiral_and_checker():
    g = deal_table(4, 4, HANDS, {"pairs": "true"})
    g.act(1, {"action": "merchant", "card": "merchant-5a"})
    draw(g, 2, "merchant-3a")
    evs = g.act(3, {"action": "pirate", "card": "blue-2a", "merchant": "merchant-5a"})
    # seat 4's turn starts with team 2 leading, but only seat 3 checks for team 2
    assert leader(battle(g.state, "merchant-5a")) == 2 and captures(evs) == []
    before = snapshot(g)
    with pytest.raises(IllegalDecision, match="only strengthen"):
        g.act(4, {"action": "pirate", "card": "green-3a", "merchant": "merchant-5a"})
    assert snapshot(g) == before
    draw(g, 4, "merchant-3b")
    draw(g, 1, "merchant-3c")
    # seat 2 defends its partner's merchant with the Admiral
    g.act(2, {"action": "admiral", "merchant": "merchant-5a"})
    assert leader(battle(g.state, "merchant-5a")) == 1
    evs = draw(g, 3, "merchant-3d")
    assert captures(evs) == []
    # seat 4 plays the blue captain on its partner's blue pirate
    g.act(4, {"action": "captain", "card": "blue-captain", "merchant": "merchant-5a"})
    assert leader(battle(g.state, "merchant-5a")) == 2
    assert captures(draw(g, 1, "merchant-3e")) == []
    evs = draw(g, 2, "merchant-3f")
    assert captures(evs) == [(3, "merchant-5a")]
    assert g.state["captured"][2] == ["merchant-5a"]
    assert sorted(g.state["discard"]) == ["admiral", "blue-2a", "blue-captain"]


def test_pairs_admiral_not_for_an_opponent():
    g = deal_table(4, 4, HANDS, {"pairs": "true"})
    draw(g, 1, "merchant-3a")
    draw(g, 2, "merchant-3b")
    g.act(3, {"action": "merchant", "card": "merchant-2b"})
    draw(g, 4, "merchant-3c")
    draw(g, 1, "merchant-3d")
    before = snapshot(g)
    with pytest.raises(IllegalDecision, match="your own or your partner's"):
        g.act(2, {"action": "admiral", "merchant": "merchant-2b"})
    assert snapshot(g) == before


@pytest.mark.parametrize("seats,options,reason", [
    (3, {"pairs": "true"}, "4, 6 or 8"),
    (6, {}, "2 to 5"),
    (4, {"pairs": "maybe"}, "true or false"),
    (4, {"teams": "2"}, "only the option pairs"),
])
def test_bad_options(seats, options, reason):
    with pytest.raises(BadInput, match=reason):
        LocalGame("loot", seats, options)


def test_pairs_end_when_both_partners_are_out():
    """Pile empty: seat 3 runs out first and keeps its place (its turns are skipped
    but, as team 2's first player, it still checks captures); the game ends only
    when both partners of a team (seats 1 and 2) have played their last card."""
    from loot_helpers import MERCHANTS, NON_MERCHANTS

    team2 = ["merchant-2a", "merchant-2b", "merchant-6a", "merchant-8a"]
    ms = [m for m in MERCHANTS if m not in team2]
    ns = list(NON_MERCHANTS)
    s1 = ms[:11] + ns[:9]
    s2 = ms[11:] + ns[9:19]
    s3 = ["merchant-2a", "merchant-2b"] + ns[19:35]
    s4 = ["merchant-6a", "merchant-8a"] + ns[35:]
    assert (len(s1), len(s2), len(s3), len(s4)) == (20, 20, 18, 20)
    lists = {1: s1, 2: s2, 3: s3, 4: s4}
    g = deal_table(4, 4, {s: cards[:6] for s, cards in lists.items()}, {"pairs": "true"})
    rest = {s: cards[6:] for s, cards in lists.items()}
    # two rounds: seat 3 puts its two merchants to sea, everyone else draws
    for _ in range(2):
        for seat in (1, 2, 3, 4):
            if seat == 3:
                card = next(c for c in g.state["hands"][2] if c.startswith("merchant-"))
                g.act(3, {"action": "merchant", "card": card})
            else:
                draw(g, seat, rest[seat].pop(0))
    while g.state["pile"]:
        seat = g.to_act()[0]
        draw(g, seat, rest[seat].pop(0))
    assert all(not r for r in rest.values())
    assert sorted(g.state["captured"][2]) == ["merchant-2a", "merchant-2b"]
    assert [len(h) for h in g.state["hands"]] == [20, 20, 16, 20] and g.to_act() == [1]

    def play(seat, rnd):
        hand = g.state["hands"][seat - 1]
        if seat == 4 and rnd == 17:
            return g.act(4, {"action": "merchant", "card": "merchant-6a"})
        merchants = [c for c in hand if c.startswith("merchant-")]
        if merchants and seat in (1, 2):
            return g.act(seat, {"action": "merchant", "card": merchants[0]})
        return g.act(seat, {"action": "discard", "card": next(c for c in hand if not c.startswith("merchant-"))})

    skipped = []
    for rnd in range(1, 21):
        for seat in (1, 2, 3, 4):
            if g.machine.finished:
                break
            if seat == 3 and rnd > 16:
                continue  # skipped by the rules
            assert g.to_act() == [seat], (rnd, seat)
            evs = play(seat, rnd)
            skipped += [(rnd, e.data["seat"]) for e in evs if e.type == "TurnSkipped"]
            if rnd == 18 and seat == 2:
                assert captures(evs) == [(3, "merchant-6a")]  # checked on seat 3's skipped turn
            if rnd == 20 and seat == 1:
                assert g.state["hands"][0] == [] and not g.machine.finished
    assert skipped == [(17, 3), (18, 3), (19, 3)]
    assert g.machine.finished
    assert g.state["hands"] == [[], [], [], ["merchant-8a"]]
    out = g.rules.outcome(g.state)
    assert out["teams"] == {"1": {"seats": [1, 2], "score": 82}, "2": {"seats": [3, 4], "score": 2}}
    assert g.machine.k["result"] == {"scores": {"1": 82, "2": 82, "3": 2, "4": 2}, "winners": [1, 2]}

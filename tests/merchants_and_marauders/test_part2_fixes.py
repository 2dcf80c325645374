"""The part-1 rules the part-2 review found off (rules version 3), and their
reading for games recorded before (rules version 2)."""

from .helpers import Table, demand_order, give_gold

ST_JOHN_CAPTAIN = "captain_14"              # home port St. John (provisional)


def at_st_john(version=None):
    base = {"demand_tiles": [demand_order({"havana": "sugar"})], "captains": [ST_JOHN_CAPTAIN, "frances_wright"],
            "pick": [1]}
    t = Table(2, base)
    if version is not None:
        t.state["fixes"] = version >= 3
    t.act(1, {"action": "choose_ship", "ship": "sloop"})
    t.act(2, {"action": "choose_ship", "ship": "sloop"})
    ship = t.p(1)["ship"]
    # test set-up: Extra Hammocks (recruited to 3 crew) and Extended Hold, bought earlier
    for port in sorted(z for z, x in t.state["board"]["upgrades"].items() if x)[:2]:
        t.state["board"]["upgrades"][port] = None
    ship["upgrades"] += ["U01", "U04"]
    ship["crew"], ship["cargo"] = 3, 3
    give_gold(t, 1, 10)
    t.act(1, {"action": "port"})
    t.act(1, {"action": "shipyard"})
    return t


def test_st_john_transfer_is_the_players_choice_and_keeps_the_hammocks_crew():
    t = at_st_john()
    flutes = [d for d in t.g.legal(1) if d["action"] == "buy_ship" and d["ship"] == "flute"]
    assert {tuple(d["keep"]) for d in flutes} == {("U01", "U04"), ("U01",), ("U04",), ()}
    gold = t.p(1)["gold"]
    t.act(1, {"action": "buy_ship", "ship": "flute", "keep": ["U01"]})
    p = t.p(1)
    # the sloop sells for 5 + 1 (the Extended Hold sold with it): the flute costs 10 - 6
    assert gold - p["gold"] == 4
    assert p["ship"]["type"] == "flute" and p["ship"]["upgrades"] == ["U01"]
    assert p["ship"]["crew"] == 2                          # flute 1 + Extra Hammocks: the crew point stays
    assert p["returning"] == ["U04"]


def test_games_of_rules_version_2_keep_the_old_transfer():
    t = at_st_john(version=2)
    flutes = [d for d in t.g.legal(1) if d["action"] == "buy_ship" and d["ship"] == "flute"]
    assert flutes == [{"action": "buy_ship", "ship": "flute"}]
    t.act(1, {"action": "buy_ship", "ship": "flute"})
    assert sorted(t.p(1)["ship"]["upgrades"]) == ["U01", "U04"] and t.p(1)["ship"]["crew"] == 1


def test_the_turn_waits_for_end_turn_whatever_the_hand_holds():
    """The turn never ends by itself after the last action: if it did only when the hand
    held no playable glory card, every seat would learn about that hidden hand."""
    ends = []
    for keep_card in (True, False):
        base = {"demand_tiles": [demand_order({"havana": "sugar"})], "captains": ["felipe", "frances_wright"],
                "pick": [1]}
        t = Table(2, base)
        t.act(1, {"action": "choose_ship", "ship": "sloop"})
        t.act(2, {"action": "choose_ship", "ship": "sloop"})
        if not keep_card:                       # test set-up: the glory card dealt is discarded
            t.state["decks"]["glory_discard"] += t.p(1)["hand"]
            t.p(1)["hand"] = []
        t.act(1, {"action": "leave_port"})
        t.act(1, {"action": "move", "to": "nassau"})
        evs = t.act(1, {"action": "enter_port"})
        ends.append([e.type for e in evs if e.vis == "all"])
        assert t.g.to_act() == [1] and {"action": "end_turn"} in t.g.legal(1)
    assert ends[0] == ends[1]                   # the same public events either way

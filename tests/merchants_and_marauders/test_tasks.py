"""Rumors followed and missions completed (tasks.py), driven in table mode.

The book: a rumor names a port or a sea zone and a skill (Influence in a port action,
Scouting with a Scout action); the card is shown and the skill tested; false, it is
discarded; true, the player gets what it promises, a glory point and a glory card, and
discards it unless it says otherwise (Forged Documents). A mission's Requirement is met
to complete it; completing it gives its Earn, a glory point and a glory card.

Felipe (seat 1): home Havana, Influence 2, Scouting 2. The default catalog's rumor and
mission effects are provisional (their texts are not known)."""

import copy

import pytest

from service.aggregates.merchants_and_marauders.catalog_checks import load
from service.aggregates.merchants_and_marauders.rules import RULES
from service.kernel import BadInput

from .helpers import Table, cards_of, demand_order
from .test_table_unseen import audit

FELIPE, FRANCES = "felipe", "frances_wright"


def start(cat=None, **script):
    base = {"demand_tiles": [demand_order({"havana": "sugar"})], "captains": [FELIPE, FRANCES], "pick": [1],
            "events": ["E21", "E23", "E25"]}
    base.update(script)
    t = Table(2, base, catalog=cat)
    t.act(1, {"action": "choose_ship", "ship": "sloop"})
    t.act(2, {"action": "choose_ship", "ship": "sloop"})
    return t


def hold_rumor(t, seat, card):
    """Test set-up: the rumor was acquired in an earlier turn."""
    t.state["decks"]["rumors"].remove(card)
    t.p(seat)["rumor"] = card


def hold_mission(t, seat, card):
    """Test set-up: the mission was claimed in an earlier turn."""
    if card in t.state["decks"]["missions"]:
        t.state["decks"]["missions"].remove(card)
    t.state["board"]["missions"].pop(card, None)
    t.p(seat)["mission"] = card


def test_a_true_rumor_in_port_gives_what_it_promises_a_glory_point_and_goes_back():
    t = start()
    t.act(1, {"action": "port"})
    t.add("dice", [6, 1])                          # the rumor acquired: Influence 2, one skull
    t.add("rumors", "R02")                         # A Myriad of Goods: Havana, Influence (3 cargo cards)
    t.act(1, {"action": "rumor"})
    assert t.p(1)["rumor"] == "R02" and {"action": "follow_rumor"} in t.g.legal(1)
    cocoa = cards_of("cocoa")[:3]
    t.add("dice", [6, 1])                          # Influence 2: one skull
    t.add("cargo", *cocoa)
    evs = t.act(1, {"action": "follow_rumor"})
    shown = next(e for e in evs if e.type == "RumorRevealed")
    assert shown.vis == "all" and shown.data["card"] == "R02"          # the card is shown
    assert sorted(t.p(1)["cargo"]) == sorted(cocoa)
    assert t.p(1)["glory"] == 1 and len(t.p(1)["hand"]) == 2           # a glory point and a glory card
    assert t.p(1)["rumor"] is None and "R02" in t.state["decks"]["rumors"]
    gained = [e for e in evs if e.type == "CargoGainedByCard"]
    assert all(e.vis == [1] for e in gained) and len(gained) == 3      # which cards: the player only
    assert {"action": "follow_rumor"} not in t.g.legal(1)
    assert audit(t.g).ok


def test_a_false_rumor_is_discarded_and_gives_nothing():
    t = start()
    hold_rumor(t, 1, "R02")
    t.act(1, {"action": "port"})
    t.add("dice", [1, 2])
    evs = t.act(1, {"action": "follow_rumor"})
    assert "RumorFalse" in [e.type for e in evs]
    assert t.p(1)["cargo"] == [] and t.p(1)["glory"] == 0 and t.p(1)["rumor"] is None
    assert "R02" in t.state["decks"]["rumors"]


def test_a_rumor_in_another_port_or_needing_scouting_is_not_followed_here():
    t = start()
    hold_rumor(t, 1, "R04")                        # Port Royal
    t.act(1, {"action": "port"})
    assert {"action": "follow_rumor"} not in t.g.legal(1)


def test_a_scouting_rumor_is_a_scout_action_at_sea_in_its_zone():
    t = start()
    hold_rumor(t, 1, "R05")                        # Petite Goave, Scouting: 5 gold (provisional)
    p = t.p(1)
    p["zone"], p["in_port"] = "petite_goave", False        # test set-up: sailed there earlier
    assert {"action": "follow_rumor"} in t.g.legal(1)
    gold, actions = p["gold"], t.state["actions"]
    t.add("dice", [5, 1])
    t.act(1, {"action": "follow_rumor"})
    assert t.p(1)["gold"] == gold + 5 and t.state["actions"] == actions - 1
    assert t.p(1)["glory"] == 1


def test_forged_documents_is_kept_after_it_proves_true():
    t = start()
    hold_rumor(t, 1, "R01")                        # San Juan, Influence; a Spanish flag removed (provisional)
    p = t.p(1)
    p["zone"], p["in_port"], p["flags"] = "san_juan", True, {"spain": 2}
    t.act(1, {"action": "port"})
    t.add("dice", [6, 6])
    t.act(1, {"action": "follow_rumor"})
    assert t.p(1)["flags"] == {"spain": 1} and t.p(1)["glory"] == 1
    assert t.p(1)["rumor"] == "R01" and "R01" not in t.state["decks"]["rumors"]     # kept
    t.state["port"]["started"].remove("follow_rumor")
    assert {"action": "follow_rumor"} not in t.g.legal(1)                          # not followed twice


def holding_mission_at(mission, zone, in_port):
    """Seat 1 holds ``mission`` in ``zone`` (in its port: the port action begun)."""
    t = start()
    hold_mission(t, 1, mission)
    p = t.p(1)
    p["zone"], p["in_port"] = zone, in_port
    if in_port:
        t.act(1, {"action": "port"})
    return t


def test_a_mission_is_completed_where_its_requirement_is_met():
    """X01 (provisional): claimed at Havana, completed at Port Royal with 2 cocoa: 10 gold."""
    t = holding_mission_at("X01", "port_royal", True)
    cocoa = cards_of("cocoa")[:2]
    t.state["decks"]["cargo"] = [c for c in t.state["decks"]["cargo"] if c not in cocoa]
    t.p(1)["cargo"] = list(cocoa) + [cards_of("rum")[0]]
    t.state["decks"]["cargo"].remove(cards_of("rum")[0])
    gold = t.p(1)["gold"]
    evs = t.act(1, {"action": "complete_mission"})
    done = next(e for e in evs if e.type == "MissionCompleted")
    assert done.vis == "all" and sorted(done.data["delivered"]) == sorted(cocoa)
    assert t.p(1)["cargo"] == [cards_of("rum")[0]] and set(cocoa) <= set(t.state["decks"]["cargo_discard"])
    assert t.p(1)["gold"] == gold + 10 and t.p(1)["glory"] == 1 and t.p(1)["mission"] is None
    assert "X01" in t.state["decks"]["mission_discard"]


def test_a_mission_whose_requirement_is_not_met_is_not_offered():
    t = holding_mission_at("X01", "port_royal", True)
    assert {"action": "complete_mission"} not in t.g.legal(1)        # no cocoa aboard


def test_a_mission_at_sea_with_a_failed_test_stays_held():
    """X02 (provisional): a Scouting test at sea off Trinidad, 6 gold."""
    t = holding_mission_at("X02", "trinidad", False)
    t.add("dice", [1, 1])
    evs = t.act(1, {"action": "complete_mission"})
    assert "MissionAttemptFailed" in [e.type for e in evs] and t.p(1)["mission"] == "X02"
    gold = t.p(1)["gold"]
    t.add("dice", [6, 1])
    t.act(1, {"action": "complete_mission"})
    assert t.p(1)["gold"] == gold + 6 and t.p(1)["mission"] is None and t.p(1)["glory"] == 1


def test_a_mission_that_asks_for_coins():
    cat = copy.deepcopy(load())
    m = next(x for x in cat["missions"]["value"] if x["id"] == "X01")
    m["complete"] = {"at": "havana", "during": "port", "needs": [{"need": "pay", "amount": 4}],
                     "steps": [{"do": "remove_flag", "nation": "spain"}]}
    t = start(cat)
    hold_mission(t, 1, "X01")
    t.p(1)["flags"] = {"spain": 1}
    t.act(1, {"action": "port"})
    gold = t.p(1)["gold"]
    t.act(1, {"action": "complete_mission"})
    assert t.p(1)["gold"] == gold - 4 and t.p(1)["flags"] == {} and t.p(1)["glory"] == 1


def test_games_before_rules_version_4_neither_follow_nor_complete():
    t = start()
    t.state["tasks"] = False                        # as a game recorded under rules version 3
    hold_rumor(t, 1, "R02")
    t.act(1, {"action": "port"})
    assert {"action": "follow_rumor"} not in t.g.legal(1)


@pytest.mark.parametrize("deck,card,key,value,word", [
    ("rumors", "R03", "effect", {"timing": "immediate", "steps": [{"do": "find_treasure"}]}, "find_treasure"),
    ("rumors", "R03", "skill", "seamanship", "skill"),
    ("rumors", "R04", "location", "caribbean_sea", "caribbean_sea"),
    ("missions", "X03", "complete", {"at": "havana", "during": "port", "needs": [{"need": "bribe"}]}, "bribe"),
    ("missions", "X03", "complete", {"at": "atlantis", "during": "port"}, "atlantis"),
])
def test_a_bad_rumor_or_mission_is_refused_naming_the_card(deck, card, key, value, word):
    cat = copy.deepcopy(load())
    next(c for c in cat[deck]["value"] if c["id"] == card)[key] = value
    with pytest.raises(BadInput, match=card) as e:
        RULES.validate_catalog(cat)
    assert word in str(e.value)


def test_the_default_rumors_and_missions_say_they_are_provisional():
    cat = load()
    for r in cat["rumors"]["value"]:
        assert r["effect_source"] == "provisional" and "provisional" in r["note"]
    for m in cat["missions"]["value"]:
        assert m["complete_source"] == "provisional" and "provisional" in m["note"]


def test_an_unknown_zone_rule_is_refused_naming_the_zone():
    cat = copy.deepcopy(load())
    z = next(x for x in cat["zones"]["value"] if x["id"] == "st_maarten")
    z["special"] = {"kind": "free_port"}
    with pytest.raises(BadInput, match="st_maarten") as e:
        RULES.validate_catalog(cat)
    assert "free_port" in str(e.value)

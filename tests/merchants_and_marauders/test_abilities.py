"""Captains' special abilities as data (abilities.py): every captain carries one in the
vocabulary, the rules read them, and an organiser's unknown word is refused at load."""

import copy
import json

import pytest

from service.aggregates.merchants_and_marauders.catalog_checks import load
from service.kernel import BadInput

from .helpers import Table, demand_order


def at_home(captain, catalog=None):
    base = {"demand_tiles": [demand_order({"havana": "sugar"})], "captains": [captain, "pepijn_van_avezaath"], "pick": [1]}
    t = Table(2, base, catalog=catalog)
    t.act(1, {"action": "choose_ship", "ship": "sloop"})
    t.act(2, {"action": "choose_ship", "ship": "sloop"})
    return t


def test_every_captain_has_an_ability_and_the_unknown_ones_say_they_are_provisional():
    caps = load()["captains"]["value"]
    assert len(caps) == 16 and all(c["abilities"] for c in caps)
    known = {"felipe": ["reallocate_hit"], "pepijn_van_avezaath": ["extra_cargo"],
             "alexandre_villon": ["enter_any_port"]}
    for c in caps:
        if c["id"] in known:
            assert c["abilities"] == known[c["id"]]
        else:
            assert "ability provisional" in c["note"]


def test_an_extra_die_is_rolled_for_its_skill_and_only_for_it():
    t = at_home("captain_06")                  # provisional: one die more for Influence (2 + 1)
    t.add("dice", [1, 1, 6])
    t.act(1, {"action": "port"})
    evs = t.act(1, {"action": "rumor"})        # the rumor is an Influence test
    test = next(e for e in evs if e.type == "SkillTested").data
    assert test["skill"] == "influence" and len(test["dice"]) == 3 and test["passed"]
    t.add("dice", [1, 1])
    t.p(1)["ship"]["crew"] -= 1                # (a crew lost earlier)
    evs = t.act(1, {"action": "recruit"})      # Leadership: no extra die (2)
    assert len(next(e for e in evs if e.type == "SkillTested").data["dice"]) == 2


def test_a_discount_lowers_the_price_it_names():
    t = at_home("frances_wright")              # provisional: repairs 1 cheaper (2 - 1)
    t.p(1)["ship"]["hull"] -= 1
    gold = t.p(1)["gold"]
    t.act(1, {"action": "port"})
    t.act(1, {"action": "shipyard"})
    evs = t.act(1, {"action": "repair", "location": "hull"})
    assert next(e for e in evs if e.type == "ShipRepaired").data["cost"] == 1
    assert gold - t.p(1)["gold"] == 1
    t2 = at_home("alexandre_villon")           # no discount: the book's 2
    t2.p(1)["ship"]["hull"] -= 1
    t2.act(1, {"action": "port"})
    t2.act(1, {"action": "shipyard"})
    evs = t2.act(1, {"action": "repair", "location": "hull"})
    assert next(e for e in evs if e.type == "ShipRepaired").data["cost"] == 2


def test_an_organisers_printed_ability_is_played_and_a_bad_one_is_refused_naming_the_captain(tmp_path):
    cat = copy.deepcopy(load())
    felipe = next(c for c in cat["captains"]["value"] if c["id"] == "felipe")
    felipe["abilities"] = ["reallocate_hit", {"ability": "extra_die", "skill": "leadership"}]
    t = at_home("felipe", catalog=cat)
    t.add("dice", [1, 1, 1])
    t.p(1)["ship"]["crew"] -= 1
    t.act(1, {"action": "port"})
    evs = t.act(1, {"action": "recruit"})
    assert len(next(e for e in evs if e.type == "SkillTested").data["dice"]) == 3   # 2 + 1
    from service.catalogs import load_catalog_file
    for bad, word in ((["walk_the_plank"], "walk_the_plank"), ([{"ability": "extra_die", "skill": "luck"}], "luck"),
                      ([{"ability": "discount", "on": "repair"}], "amount")):
        felipe["abilities"] = bad
        f = tmp_path / "bad.json"
        f.write_text(json.dumps(cat))
        with pytest.raises(BadInput, match=f"captain 'felipe'.*{word}"):
            load_catalog_file("merchants-and-marauders", str(f))


def test_a_hired_specialist_gives_its_ability_and_its_requirements_are_kept():
    cat = copy.deepcopy(load())
    lookout = next(g for g in cat["glory_cards"]["value"] if g["id"] == "G09")
    assert lookout["name"] == "Lookout" and lookout["abilities"] == [{"ability": "extra_die", "skill": "scouting"}]
    lookout["requires"] = ["not_wanted"]

    def table(flags):
        base = {"demand_tiles": [demand_order({"havana": "sugar"})], "captains": ["felipe", "pepijn_van_avezaath"],
                "pick": [1], "glory": ["G09", "G02"]}
        t = Table(2, base, catalog=cat)
        t.act(1, {"action": "choose_ship", "ship": "sloop"})
        t.p(1)["flags"] = flags                     # (test set-up: flags from earlier turns)
        t.act(2, {"action": "choose_ship", "ship": "sloop"})
        return t

    assert {"action": "play_glory", "card": "G09"} not in table({"spain": 1}).g.legal(1)   # wanted: he won't sign on
    t = table({})
    evs = t.act(1, {"action": "play_glory", "card": "G09"})
    assert next(e for e in evs if e.type == "GloryCardPlayed").data["specialist"] == "lookout"
    assert t.p(1)["specialists"] == ["G09"]
    # Felipe's Scouting 2, and the Lookout's die: a merchant is scouted with 3 dice
    t.act(1, {"action": "leave_port"})
    t.add("dice", [1, 1, 1])
    evs = t.act(1, {"action": "scout", "target": "merchant"})
    assert len(next(e for e in evs if e.type == "SkillTested").data["dice"]) == 3


def test_a_bad_specialist_requirement_is_refused_naming_the_card():
    cat = copy.deepcopy(load())
    next(g for g in cat["glory_cards"]["value"] if g["id"] == "G09")["requires"] = ["a_parrot"]
    from service.aggregates.merchants_and_marauders.catalog_checks import validate
    with pytest.raises(BadInput, match="G09.*requires"):
        validate(cat)

"""Scouting and raiding merchants (the book: Esplorare, Saccheggiare i mercanti,
Ricercati), driven in table mode with the dice and cards the book states."""

import pytest

from service.kernel import IllegalDecision

from .helpers import Table, demand_order, types

FREDERICO, FRANCES = "frederico_da_silva", "frances_wright"
RUM, COCOA_MASTS, TOBACCO_CANNONS, FOOD_CARGO = "C19", "C04", "C46", "C16"


def at_sea(script=None, captains=(FREDERICO, FRANCES)):
    """Frederico da Silva (seat 1, a sloop, home Santo Domingo) sails out of his port."""
    base = {"demand_tiles": [demand_order({"havana": "sugar"})], "captains": list(captains), "pick": [1]}
    base.update(script or {})
    t = Table(2, base)
    t.act(1, {"action": "choose_ship", "ship": "sloop"})
    t.act(2, {"action": "choose_ship", "ship": "sloop"})
    t.act(1, {"action": "leave_port"})
    return t


def sight_spanish_merchant(t, token="M01"):
    t.add("dice", [6, 1, 1])                    # Scouting 3: one skull
    t.add("merchant_tokens", token)             # the referee names the token turned over
    evs = t.act(1, {"action": "scout", "target": "merchant"})
    assert "MerchantSighted" in types(evs)
    return evs


def test_the_books_raid_example():
    """Frederico draws Rum (escape), a Masts hit and a Tobacco card that hits the Cannons;
    his one Seamanship success swaps the Tobacco for a card worth 5 that hits the Cargo:
    the raid succeeds for 10 gold, no glory, and he keeps the Rum in his one hold left."""
    t = at_sea()
    sight_spanish_merchant(t)
    assert t.g.legal(1) == [{"action": "raid", "nation": "spain"}, {"action": "let_go"}]
    t.add("cargo", RUM, COCOA_MASTS, TOBACCO_CANNONS)
    t.add("dice", [5, 2, 1])                    # Seamanship 3: one success
    evs = t.act(1, {"action": "raid", "nation": "spain"})
    flag = next(e for e in evs if e.type == "WantedFlagGained")
    assert flag.data == {"seat": 1, "nation": "spain", "flags": 1, "why": "raiding a merchant"}
    assert types(evs).index("WantedFlagGained") < types(evs).index("RaidCardTurned")   # before any card (ex. 2)
    assert t.state["raid"]["left"] == 1
    t.add("cargo", FOOD_CARGO)
    evs = t.act(1, {"action": "raid_swap", "card": TOBACCO_CANNONS})
    hits = [e.data["location"] for e in evs if e.type == "ShipHit"]
    assert sorted(hits) == ["cargo", "masts"]
    won = next(e for e in evs if e.type == "RaidSucceeded").data
    assert won["loot"] == 10 and won["escapes"] == 1 and won["maneuver"] == 4
    assert "GloryGained" not in types(evs)                   # 12 gold were needed
    p = t.p(1)
    assert p["gold"] == 20 and p["ship"]["masts"] == 1 and p["ship"]["cargo"] == 1
    assert {"action": "raid_take", "card": RUM} in t.g.legal(1)
    evs = t.act(1, {"action": "raid_take", "card": RUM})
    assert "RaidEnded" in types(evs) and t.state["raid"] is None      # the hold is full: done
    p = t.p(1)
    assert p["cargo"] == [RUM] and p["flags"] == {"spain": 1}
    assert {COCOA_MASTS, FOOD_CARGO, TOBACCO_CANNONS} <= set(t.state["decks"]["cargo_discard"])
    assert "M01" in t.state["board"]["merchant_track"] and t.state["board"]["merchants"]["santo_domingo"] is None


def test_without_the_swap_the_cannons_are_destroyed_and_the_raid_fails():
    t = at_sea()
    sight_spanish_merchant(t)
    t.add("cargo", RUM, COCOA_MASTS, TOBACCO_CANNONS)
    t.add("dice", [5, 2, 1])
    t.act(1, {"action": "raid", "nation": "spain"})
    evs = t.act(1, {"action": "raid_stop"})
    end = next(e for e in evs if e.type == "RaidEnded").data
    assert end["result"] == "failed" and end["destroyed"] == ["cannons"]
    assert t.p(1)["gold"] == 10 and t.p(1)["ship"]["cannons"] == 0 and t.p(1)["ship"]["masts"] == 1


def test_hits_on_a_destroyed_location_go_to_the_hull_and_a_lost_hull_kills_the_captain():
    t = at_sea()
    sight_spanish_merchant(t)
    # the sloop's one cannon: the second cannon hit lands on the hull; two hull hits sink her
    cannons = "C10"                                         # food, hit:cannons
    hull = ["C02", "C12"]                                   # cocoa and food, hit:hull
    t.add("cargo", TOBACCO_CANNONS, cannons, hull[0])
    t.add("dice", [1, 1, 1])                                # no success
    evs = t.act(1, {"action": "raid", "nation": "spain"})
    hits = [(e.data["aimed"], e.data["location"]) for e in evs if e.type == "ShipHit"]
    assert hits == [("cannons", "cannons"), ("cannons", "hull"), ("hull", "hull")]
    assert next(e for e in evs if e.type == "RaidEnded").data["result"] == "sunk"
    died = next(e for e in evs if e.type == "CaptainDied")
    assert died.data["seat"] == 1
    left = next(e for e in evs if e.type == "CaptainLeft").data
    assert left["reason"] == "died" and left["captain"] == FREDERICO
    p = t.p(1)
    assert p["captain"] is None and p["flags"] == {} and p["gold"] == 0 and p["needs_captain"]
    assert t.g.to_act() == [2]                              # his turn is over


def test_escape_icons_reaching_maneuverability_let_the_merchant_go():
    t = at_sea()
    sight_spanish_merchant(t)
    escapes = ["C01", "C03", "C05", "C07"]                  # four escape icons: the sloop's Maneuverability 4
    t.add("cargo", *escapes[:3])
    t.add("dice", [6, 1, 1])
    t.act(1, {"action": "raid", "nation": "spain"})
    t.add("cargo", escapes[3])
    evs = t.act(1, {"action": "raid_draw"})
    end = next(e for e in evs if e.type == "RaidEnded").data
    assert end["result"] == "escaped" and end["escapes"] == 4
    assert t.p(1)["gold"] == 10


def test_special_weapons_turn_failed_dice_into_successes():
    t = at_sea()
    # test set-up: a Chain Shot token from the supply (bought at a shipyard in play)
    t.state["weapons"]["chain_shot"] -= 1
    t.p(1)["weapons"]["chain_shot"] = 1
    sight_spanish_merchant(t)
    t.add("cargo", RUM, COCOA_MASTS, TOBACCO_CANNONS)
    t.add("dice", [1, 1, 1])
    t.act(1, {"action": "raid", "nation": "spain"})
    assert t.g.legal(1) == [{"action": "spend_weapon", "kind": "chain_shot"}, {"action": "weapons_done"}]
    t.act(1, {"action": "spend_weapon", "kind": "chain_shot"})
    assert t.state["raid"]["left"] == 1 and t.state["weapons"]["chain_shot"] == 4
    t.act(1, {"action": "raid_discard", "card": TOBACCO_CANNONS})
    assert t.p(1)["gold"] == 15                              # Rum 2 + Cocoa 3


def test_the_nation_is_the_tokens_or_the_sea_zones_and_the_merchant_may_be_let_go():
    t = at_sea()
    sight_spanish_merchant(t, token="M10")                  # a French token off Santo Domingo (Spain)
    assert t.g.legal(1) == [{"action": "raid", "nation": "france"}, {"action": "raid", "nation": "spain"},
                            {"action": "let_go"}]
    t.act(1, {"action": "let_go"})
    assert t.state["raid"] is None and t.p(1)["flags"] == {}
    assert "M10" in t.state["board"]["merchant_track"]      # the token goes to the track all the same


def test_no_target_scouted_twice_in_a_turn():
    t = at_sea()
    t.add("dice", [1, 2, 3])                                # the scouting fails
    evs = t.act(1, {"action": "scout", "target": "merchant"})
    assert "MerchantSighted" not in types(evs)
    assert {"action": "scout", "target": "merchant"} not in t.g.legal(1)
    with pytest.raises(IllegalDecision):
        t.g.act(1, {"action": "scout", "target": "merchant"})


def test_wanted_captains_keep_out_of_their_ports_but_home():
    t = at_sea()
    sight_spanish_merchant(t)
    t.add("cargo", RUM, "C09", "C11")                       # three escapes < 4, no hit
    t.add("dice", [1, 1, 1])
    t.act(1, {"action": "raid", "nation": "spain"})
    t.act(1, {"action": "raid_take_done"})
    assert t.p(1)["flags"] == {"spain": 1}
    # home port (Santo Domingo, Spanish) is open; a Spanish port elsewhere would not be
    assert {"action": "enter_port"} in t.g.legal(1)
    from service.aggregates.merchants_and_marauders.wanted import port_entries
    p = dict(t.p(1), zone="havana")
    assert port_entries(t.state, p) == []
    p = dict(t.p(1), zone="port_royal", flags={"england": 2})
    assert port_entries(t.state, p) == [{"action": "enter_port", "by": "fee"},
                                        {"action": "enter_port", "by": "influence"}]


def test_alexandre_villon_enters_any_port_but_needs_influence_to_be_served():
    t = at_sea(captains=("alexandre_villon", FRANCES))
    t.p(1)["flags"] = {"france": 1}                         # test set-up: wanted by France
    p = dict(t.p(1), zone="petite_goave")
    from service.aggregates.merchants_and_marauders.wanted import port_entries
    assert port_entries(t.state, p) == [{"action": "enter_port"}]
    t.p(1)["zone"] = "petite_goave"                        # French, not his home (Tortuga)
    t.act(1, {"action": "enter_port"})
    t.add("dice", [1, 2])                                   # Influence 2: both fail
    evs = t.act(1, {"action": "port"})
    assert "PortActionRefused" in types(evs) and "PortActionBegun" not in types(evs)
    assert {"action": "port"} not in t.g.legal(1)

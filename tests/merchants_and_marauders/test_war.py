"""War (war.py): the At War space, the War event card, the Man-o-Wars it brings, their
hunting and scouting, the bounty clause and the war's end, driven in table mode.

Felipe (seat 1) sails for Spain (home Havana), Frances Wright (seat 2) for England
(home Port Royal). The default catalog's War cards (provisional data): E19 puts England
and Spain at war (Man-o-Wars at Havana and Port Royal), E20 England and France
(Nassau and Tortuga)."""

import copy

from service.aggregates.merchants_and_marauders.catalog_checks import load
from service.aggregates.merchants_and_marauders.npc import _hunt_rank
from service.aggregates.merchants_and_marauders.state import new_ship

from .test_npcs import at_sea, next_turn
from .test_npcs import start as npc_table
from .test_table_unseen import audit

FELIPE, FRANCES = "felipe", "frances_wright"


def start(events, cat=None, seats=2, options=None):
    """The NPC tests' table, the set-up glory cards kept in hand."""
    return npc_table(events, cat, seats, glory=True, options=options)


def finish_fight(t):
    """Hits are placed on the hull, nobody reallocates or absorbs."""
    while t.state["combat"] is not None:
        seat = t.g.to_act()[0]
        legal = t.g.legal(seat)
        for want in ({"action": "place_hit", "location": "hull"}, {"action": "no_reallocate"},
                     {"action": "no_absorb"}):
            if want in legal:
                t.act(seat, want)
                break
        else:
            raise AssertionError(f"unexpected decisions {legal}")


def test_the_war_card_puts_two_nations_at_war_and_their_man_o_wars_enter_at_the_end_of_the_turn():
    t = start(["E19", "E21", "E23"])
    declared = next(e for e in t.g.events if e.type == "WarDeclared")
    assert declared.data["nations"] == ["england", "spain"] and declared.vis == "all"
    assert t.state["board"]["war"] == ["england", "spain"]
    assert not t.state["board"]["npcs"]                          # not before the end of the turn
    next_turn(t)
    npcs = t.state["board"]["npcs"]
    assert npcs["man_o_war_spain"]["zone"] == "havana" and npcs["man_o_war_england"]["zone"] == "port_royal"
    assert npcs["man_o_war_spain"]["ship"] == "man_o_war" and npcs["man_o_war_spain"]["cards"] == []
    assert "E19" in t.state["decks"]["event_discard"]           # the War card itself is discarded


def test_at_war_the_enemy_nations_warships_hunt_a_captain_third():
    t = start(["E19", "E21", "E23"])
    next_turn(t)
    at_sea(t, 1, "havana")
    at_sea(t, 2, "havana")
    # England's Man-o-War hunts Felipe (Spanish) on the third priority only; Spain's spares him
    assert _hunt_rank(t.state, "man_o_war_england", t.p(1)) == (0, 0, 1)
    assert _hunt_rank(t.state, "man_o_war_spain", t.p(1)) == (0, 0, 0)
    assert _hunt_rank(t.state, "man_o_war_spain", t.p(2)) == (0, 0, 1)
    # a wanted captain comes first: Frances with a Spanish flag outranks Felipe for Spain's ships
    t.p(2)["flags"] = {"spain": 1}
    assert _hunt_rank(t.state, "man_o_war_spain", t.p(2)) == (1, 0, 1)


def test_a_man_o_war_scouts_alone_but_two_man_o_wars_in_one_zone_do_not():
    t = start(["E19", "E21", "E23"])
    next_turn(t)
    npcs = t.state["board"]["npcs"]
    npcs["man_o_war_england"]["zone"] = "havana"                 # test set-up: it sailed to Havana,
    npcs["man_o_war_spain"]["zone"] = "nassau"                   # Spain's to Nassau
    assert t.g.to_act() == [1]
    t.add("dice", [1, 1])                                        # its Scouting 2: not found
    evs = t.act(1, {"action": "leave_port"})
    scouted = [e.data for e in evs if e.type == "NpcScouted"]
    assert [s["npc"] for s in scouted] == ["man_o_war_england"] and scouted[0]["value"] == 2
    # back in port; both Man-o-Wars now lie off Havana: neither scouts (the book)
    t.p(1)["in_port"] = True
    t.state["board"]["npcs"]["man_o_war_spain"]["zone"] = "havana"
    evs = t.act(1, {"action": "leave_port"})
    assert "NpcsScouting" not in [e.type for e in evs]


def test_a_man_o_war_moves_with_its_nations_naval_icon():
    cat = copy.deepcopy(load())
    for e in cat["events"]["value"]:
        if e["id"] == "E21":
            e["npc_icons"] = [{"npc": "english_naval", "dir": "S"}]
    t = start(["E19", "E21", "E23"], cat)
    # test set-up: Felipe (Spanish, at war with England) in port at St. John, far from Port
    # Royal; in Havana's port, next to it, he is hunted (rules version 5: hunted in port too)
    t.p(1)["zone"] = "st_john"
    next_turn(t)                                                  # E21: the English icon, south
    moved = [e.data for e in t.g.events if e.type == "NpcMoved"]
    assert moved and moved[0]["npc"] == "man_o_war_england" and moved[0]["frm"] == "port_royal"
    assert moved[0]["to"] == "old_providence"                     # Port Royal's S border


def test_a_man_o_war_hunts_a_captain_of_the_enemy_nation_in_port_next_to_it():
    cat = copy.deepcopy(load())
    for e in cat["events"]["value"]:
        if e["id"] == "E21":
            e["npc_icons"] = [{"npc": "english_naval", "dir": "S"}]
    t = start(["E19", "E21", "E23"], cat)
    assert t.p(1)["in_port"] and t.p(1)["zone"] == "havana"       # Felipe, Spanish, at home
    next_turn(t)
    moved = [e.data for e in t.g.events if e.type == "NpcMoved"]
    assert (moved[0]["npc"], moved[0]["to"], moved[0]["hunting"]) == ("man_o_war_england", "havana", 1)


def test_beating_a_man_o_war_costs_a_flag_and_it_leaves_the_sea():
    t = start(["E19", "E21", "E23"])
    next_turn(t)
    npcs = t.state["board"]["npcs"]
    npcs["man_o_war_england"]["zone"] = "havana"
    npcs["man_o_war_england"]["ship"] = "sloop"                  # test set-up: a weak Man-o-War,
    npcs["man_o_war_spain"]["zone"] = "nassau"                   # alone off Havana
    t.p(1)["ship"] = new_ship(t.state, "frigate")
    # it scouts Felipe (2 dice) and attacks; round 1: its Seamanship 3 dice, Felipe's 3: three
    # skulls, his three cannons; three skulls placed by seat 2 for the NPC: the hull, sunk
    t.add("dice", [6, 1], [1, 1, 1], [6, 6, 6], [5, 5, 5])
    t.act(1, {"action": "leave_port"})
    finish_fight(t)
    won = next(e.data for e in t.g.events if e.type == "CombatWon")
    assert won["seat"] == 1 and won["beaten"] == "npc:man_o_war_england"
    assert t.p(1)["flags"] == {"england": 1}                     # defeating a non-pirate ship
    lost = next(e.data for e in t.g.events if e.type == "NpcCaptainLost")
    assert lost == {"npc": "man_o_war_england", "card": None, "successor": None}
    assert "man_o_war_england" not in t.state["board"]["npcs"]


def test_no_bounty_from_a_nation_at_war_with_the_winners():
    """The Portuguese clause: Frances (English) sinks Felipe, wanted by Spain (2) and France
    (1): England is at war with Spain, so only France pays."""
    t = start(["E19", "E21", "E23"])
    next_turn(t)
    t.state["board"]["npcs"].clear()                             # test set-up: no NPC nearby
    at_sea(t, 1, "nassau", {"spain": 2, "france": 1})
    at_sea(t, 2, "nassau")
    t.p(2)["ship"] = new_ship(t.state, "frigate")
    t.act(1, {"action": "end_turn"})
    assert t.g.to_act() == [2]
    gold = t.p(2)["gold"]
    # Frances finds him (2 dice); round 1: her 2 dice, both skulls; his 3, none; three hits
    t.add("dice", [6, 1], [6, 6], [1, 1, 1], [5, 5, 5])
    t.act(2, {"action": "scout", "target": "player", "seat": 1})
    finish_fight(t)
    bounty = [e.data for e in t.g.events if e.type == "GoldReceived" and e.data["why"] == "bounty"]
    assert bounty and bounty[-1]["by_nation"] == {"france": 5}
    assert t.p(2)["gold"] == gold + 5
    assert t.p(2)["flags"] == {}                                 # he was a pirate: no flag


def test_a_war_declared_and_ended_by_the_next_war():
    t = start(["E19", "E21", "E20", "E23", "E25"])
    next_turn(t)
    next_turn(t)                                                  # E20: England and France
    ended = next(e.data for e in t.g.events if e.type == "WarEnded")
    assert ended["nations"] == ["england", "spain"]
    left = sorted(e.data["npc"] for e in t.g.events if e.type == "NpcLeft")
    assert left == ["man_o_war_england", "man_o_war_spain"]
    assert t.state["board"]["war"] == ["england", "france"] and not t.state["board"]["npcs"]
    next_turn(t)
    npcs = t.state["board"]["npcs"]
    assert {n: x["zone"] for n, x in npcs.items()} == {"man_o_war_england": "nassau", "man_o_war_france": "tortuga"}
    # England and Spain are at peace now: England's Man-o-War no longer hunts Felipe (Spanish)
    assert not _hunt_rank(t.state, "man_o_war_england", t.p(1))[2]


def test_a_peace_card_ends_the_war():
    cat = copy.deepcopy(load())
    for e in cat["events"]["value"]:
        if e["id"] == "E21":
            e["effect"] = {"timing": "immediate", "steps": [{"do": "peace"}]}
    t = start(["E19", "E21", "E23"], cat)
    next_turn(t)
    assert t.state["board"]["war"] is None and not t.state["board"]["npcs"]
    assert [e.data["why"] for e in t.g.events if e.type == "WarEnded"] == ["card E21"]


def test_the_war_game_replays_and_audits():
    t = start(["E19", "E21", "E20", "E23", "E25"])
    for _ in range(3):
        next_turn(t)
    assert t.state["board"]["war"] == ["england", "france"]
    assert audit(t.g).ok                         # every step re-runs to the same events


def test_complete_games_with_war_declared_and_ended_re_run_identically():
    """Seeded merchant-bot games of 2, 3 and 4 players in which both War cards come up: a
    war is declared, its Man-o-Wars enter, the second War card ends it; the games end,
    conserve coins and cards, hide what they must, and every step re-runs to the same
    events (what the audit checks)."""
    import random

    from service.kernel.local import LocalGame

    from .test_properties import check_conservation, check_events, check_views
    from .test_replay import rerun
    for seats in (2, 3, 4):
        for k in range(1, 13):          # the first seed whose game draws both War cards (the bot plays on)
            g = LocalGame("merchants-and-marauders", seats, seed=bytes([k]) * 32)
            g.play_out(random.Random(k), bot="merchant")
            types_ = [e.type for e in g.events]
            if types_.count("WarDeclared") == 2:
                break
        assert types_.count("WarDeclared") == 2 and "WarEnded" in types_ and "NpcLeft" in types_
        assert any(e.type == "NpcEntered" and e.data["card"] is None for e in g.events)   # a Man-o-War
        assert g.machine.finished
        check_conservation(g.state)
        check_views(g)
        check_events(g)
        rerun(g.events, g.rules)


def test_a_war_card_acting_at_each_players_turn_calls_each_man_o_war_once():
    cat = copy.deepcopy(load())
    e = next(x for x in cat["events"]["value"] if x["id"] == "E19")
    e["effect"]["timing"] = "each_turn"
    t = start(["E19", "E21", "E23"], cat)
    next_turn(t)
    entered = [e.data["npc"] for e in t.g.events if e.type == "NpcEntered"]
    assert sorted(entered) == ["man_o_war_england", "man_o_war_spain"]

"""NPC ships (the book: Entrata in gioco dei NPC, Movimento degli NPC, Cacciare i
capitani dei giocatori), driven in table mode: the book's NPC examples."""

import copy

from service.aggregates.merchants_and_marauders.catalog_checks import load
from service.aggregates.merchants_and_marauders.combat import controller

from .helpers import Table, demand_order, end_turn_if_due, no_glory_cards

FELIPE, FRANCES = "felipe", "frances_wright"
QUIET = ["E29", "E21", "E23"]                   # event cards with no NPC and no icons


def catalog(icons=None, zones=None):
    cat = copy.deepcopy(load())
    for e in cat["events"]["value"]:
        if icons and e["id"] in icons:
            e["npc_icons"] = icons[e["id"]]
        if zones and e["id"] in zones:
            e["zone"] = zones[e["id"]]
    return cat


def start(events, cat=None, seats=2, glory=False, options=None):
    base = {"demand_tiles": [demand_order({"havana": "sugar"})], "captains": [FELIPE, FRANCES, "frederico_da_silva"],
            "pick": [1], "events": list(events)}
    t = Table(seats, base, catalog=cat, options=options)
    for s in range(1, seats + 1):
        t.act(s, {"action": "choose_ship", "ship": "sloop"})
    if not glory:
        no_glory_cards(t)
    return t


def next_turn(t, seats=2):
    for s in t.state["order"]:
        end_turn_if_due(t, s)
        if t.g.to_act() == [s]:
            t.act(s, {"action": "end_turn"})


def at_sea(t, seat, zone, flags=None):
    """Test set-up: the player's ship at sea in ``zone`` (sailed there in earlier turns)."""
    p = t.p(seat)
    p["zone"], p["in_port"] = zone, False
    p["flags"] = dict(flags or {})


def test_the_books_replacement_example_first_part():
    """The Dutch Naval Ship of Philips van Almonde enters at Curacao at the end of the turn;
    a second Dutch card later goes on top of it and the frigate sails to its zone."""
    t = start(["E10", QUIET[0], "E11", QUIET[1]])
    assert "dutch_naval" not in t.state["board"]["npcs"]                 # not before the end of the turn
    next_turn(t)
    npc = t.state["board"]["npcs"]["dutch_naval"]
    assert npc == {"zone": "curacao", "cards": ["E10"], "ship": "frigate"}
    entered = next(e.data for e in t.g.events if e.type == "NpcEntered")
    assert entered["captain"] == "Philips van Almonde"
    next_turn(t)                                                          # E11, another Dutch card
    assert t.state["board"]["npcs"]["dutch_naval"]["zone"] == "curacao"
    next_turn(t)
    npc = t.state["board"]["npcs"]["dutch_naval"]
    assert npc["cards"] == ["E10", "E11"] and npc["zone"] == "st_maarten"  # the new card's zone
    assert "E10" not in t.state["decks"]["event_discard"]                # the cards lie in the NPC's area


def test_the_books_first_hunting_example():
    """A Dutch naval ship at Basse-Terre is moved North; a pirate with an English flag is at
    Bridgetown next to it: not its first priority, but its second: it sails East to him."""
    cat = catalog(icons={"E29": [{"npc": "dutch_naval", "dir": "N"}]}, zones={"E10": "basse_terre"})
    t = start(["E10", "E21", "E29"], cat)
    next_turn(t)
    assert t.state["board"]["npcs"]["dutch_naval"]["zone"] == "basse_terre"
    at_sea(t, 2, "bridgetown", {"england": 1})
    next_turn(t)                                                          # E19: move the Dutch ship North
    moved = [e.data for e in t.g.events if e.type == "NpcMoved"][-1]
    assert moved["frm"] == "basse_terre" and moved["to"] == "bridgetown" and moved["hunting"] == 2


def test_the_books_first_hunting_example_with_the_pirate_in_port():
    """The Portuguese text of the same example: the pirate with an English flag is at
    Bridgetown "no porto, mas sem nenhuma conseqüência" (in port, but with no consequence):
    the Dutch ship still sails East to Bridgetown's sea zone; nothing happens in port; it
    scouts him when he sails out ("incluso l'azione di uscire dal porto")."""
    cat = catalog(icons={"E29": [{"npc": "dutch_naval", "dir": "N"}]}, zones={"E10": "basse_terre"})
    t = start(["E10", "E21", "E29", "E23"], cat)
    next_turn(t)
    assert t.state["board"]["npcs"]["dutch_naval"]["zone"] == "basse_terre"
    p = t.p(2)
    p["zone"], p["in_port"], p["flags"] = "bridgetown", True, {"england": 1}   # in Bridgetown's port
    next_turn(t)                                                          # E29: move the Dutch ship North
    moved = [e.data for e in t.g.events if e.type == "NpcMoved"][-1]
    assert (moved["frm"], moved["to"], moved["hunting"]) == ("basse_terre", "bridgetown", 2)
    assert moved["why"] == "hunting (seat 2 is in port: no consequence there)"
    # no consequence in port: no scouting and no fight, neither now nor at the start of her turn
    end_turn_if_due(t, 1)
    if t.g.to_act() == [1]:
        t.act(1, {"action": "end_turn"})
    assert t.g.to_act() == [2] and t.p(2)["in_port"]
    assert not [e for e in t.g.events if e.type in ("NpcsScouting", "NpcScouted", "CombatBegun")]
    t.add("dice", [1, 1])                                                 # its Scouting: no skull
    evs = t.act(2, {"action": "leave_port"})                              # she sails out: it scouts her
    scouting = next(e.data for e in evs if e.type == "NpcsScouting")
    assert scouting["seat"] == 2 and scouting["npcs"] == ["dutch_naval"]
    assert not next(e.data for e in evs if e.type == "NpcScouted")["success"] and t.state["combat"] is None


def test_games_before_rules_version_5_hunt_only_players_at_sea():
    cat = catalog(icons={"E29": [{"npc": "dutch_naval", "dir": "N"}]}, zones={"E10": "basse_terre"})
    t = start(["E10", "E21", "E29", "E23"], cat)
    t.state["combat_fixes"] = False                                       # as a game of rules version 4
    next_turn(t)
    p = t.p(2)
    p["zone"], p["in_port"], p["flags"] = "bridgetown", True, {"england": 1}
    next_turn(t)
    moved = [e.data for e in t.g.events if e.type == "NpcMoved"][-1]
    assert moved["to"] == "st_maarten" and moved["hunting"] is None       # by the letter: North


def test_without_prey_the_letter_and_then_clockwise():
    cat = catalog(icons={"E29": [{"npc": "dutch_naval", "dir": "N"}], "E21": [{"npc": "dutch_naval", "dir": "N"}]},
                  zones={"E10": "basse_terre"})
    t = start(["E10", "E23", "E29", "E21"], cat)
    next_turn(t)
    next_turn(t)                                                          # North from Basse-Terre: St. Maarten
    assert t.state["board"]["npcs"]["dutch_naval"]["zone"] == "st_maarten"
    next_turn(t)                                                          # no North border there: NE, then E
    moved = [e.data for e in t.g.events if e.type == "NpcMoved"][-1]
    assert moved["to"] == "st_john" and "clockwise" in moved["why"]


def test_a_board_with_the_books_four_letters_moves_by_them_and_then_clockwise():
    """The book prints N, S, E or W on every border; the default board carries the
    reference's eight points. An organiser's board with the printed letters (here each
    diagonal read as its E or W) is a four-point compass."""
    cat = catalog(icons={"E19": [{"npc": "dutch_naval", "dir": "N"}], "E21": [{"npc": "dutch_naval", "dir": "N"}]},
                  zones={"E10": "basse_terre"})
    four = {"N": "N", "NE": "E", "E": "E", "SE": "E", "S": "S", "SW": "W", "W": "W", "NW": "W"}
    cat["compass"]["value"] = ["N", "E", "S", "W"]
    cat["borders"]["value"] = [[a, b, four[d]] for a, b, d in cat["borders"]["value"]]
    t = start(["E10", "E23", "E19", "E21"], cat)
    next_turn(t)
    next_turn(t)                                                          # N from Basse-Terre: St. Maarten
    assert t.state["board"]["npcs"]["dutch_naval"]["zone"] == "st_maarten"
    next_turn(t)                                                          # no N there: E, St. John
    moved = [e.data for e in t.g.events if e.type == "NpcMoved"][-1]
    assert moved["to"] == "st_john" and moved["why"] == "the letter E (no N border: next clockwise)"


def test_a_movement_icon_off_the_books_letters_is_refused_at_load():
    from service.aggregates.merchants_and_marauders.catalog_checks import validate
    from service.kernel import BadInput
    import pytest
    cat = catalog(icons={"E19": [{"npc": "dutch_naval", "dir": "NE"}]})
    with pytest.raises(BadInput, match="E19.*movement icon"):
        validate(cat)


def test_the_books_second_hunting_example():
    """A French naval ship at Basse-Terre should move South; a captain with two Spanish flags
    is at Basse-Terre and one with Spanish, Dutch and English flags at Caracas: neither is
    wanted by France, both by others, the second more: it sails to Caracas."""
    cat = catalog(icons={"E29": [{"npc": "french_naval", "dir": "S"}]})
    t = start(["E09", "E21", "E29"], cat, seats=3)
    next_turn(t, 3)
    assert t.state["board"]["npcs"]["french_naval"]["zone"] == "basse_terre"
    at_sea(t, 1, "basse_terre", {"spain": 2})
    at_sea(t, 3, "caracas", {"spain": 1, "netherlands": 1, "england": 1})
    next_turn(t, 3)
    moved = [e.data for e in t.g.events if e.type == "NpcMoved"][-1]
    assert moved["to"] == "caracas" and moved["hunting"] == 3


def test_pirates_spare_pirates_and_hunt_the_richest_honest_captain():
    cat = catalog(icons={"E29": [{"npc": "pirate_sloop", "dir": "N"}]}, zones={"E13": "basse_terre"})
    t = start(["E13", "E21", "E29"], cat, seats=3)
    next_turn(t, 3)
    at_sea(t, 1, "bridgetown", {"spain": 1})                              # a pirate: spared
    at_sea(t, 2, "trinidad")                                               # honest, gold aboard
    t.p(3)["gold"] = 0
    at_sea(t, 3, "st_john")                                                # honest, nothing aboard
    next_turn(t, 3)
    moved = [e.data for e in t.g.events if e.type == "NpcMoved"][-1]
    assert moved["to"] == "trinidad" and moved["hunting"] == 2


# NPC scouting and fights ------------------------------------------------------------------
def dutch_at(zone, events=None, seats=2, glory=False):
    cat = catalog(zones={"E10": zone, "E11": zone})
    t = start(events or ["E10", "E21", "E23", "E25"], cat, seats=seats, glory=glory)
    next_turn(t, seats)                                                   # the Dutch frigate is at sea
    return t


def test_the_books_scouting_value_example():
    """A player with 5 Dutch flags: the Dutch NPC scouts him with 5 dice (its card says 2)."""
    t = dutch_at("havana")
    p = t.p(1)
    p["flags"] = {"netherlands": 5}
    t.add("dice", [1, 1, 1, 1, 1])                        # five dice, no skull: not found
    t.act(1, {"action": "leave_port"})                   # Felipe sails out of Havana into its zone
    scouted = [e.data for e in t.g.events if e.type == "NpcScouted"][-1]
    assert scouted["npc"] == "dutch_naval" and scouted["value"] == 5 and not scouted["success"]
    assert t.state["combat"] is None


def test_an_npc_fight_is_decided_by_the_player_to_the_left_and_may_not_flee_stronger():
    t = dutch_at("havana")
    t.p(1)["flags"] = {"spain": 1}                        # wanted: the Dutch ship hunts him
    # found (2 dice, one skull); round 1: both shoot; the frigate (3 dice) against the sloop
    t.add("dice", [6, 1], [1, 1, 1], [1, 1, 1])
    evs = t.act(1, {"action": "leave_port"})
    begun = next(e.data for e in evs if e.type == "CombatBegun")
    assert begun["a"] == "npc:dutch_naval" and begun["d"] == 1 and begun["npc"]["captain"]["name"] == \
        "Philips van Almonde"
    assert t.p(1)["flags"] == {"spain": 1}                # attacked by an NPC: no flag
    # round 2: the NPC declares first; seat 2 (to the left of seat 1) decides for it
    assert t.g.to_act() == [2] and t.state["combat"]["waiting"] == "npc:dutch_naval"
    acts = {d["do"] for d in t.g.legal(2)}
    assert acts == {"shoot", "board"}                     # more cannons and crew: no flight
    assert t.g.legal(1) == []


def test_with_three_players_the_npc_is_decided_by_the_next_player_in_turn_order():
    """The book: "controllata dal giocatore alla sinistra del giocatore che combatte contro
    l'NPC"; the turn "procede in senso orario", so the player to the left plays next: the
    Dutch ship that attacks seat 1 is decided by seat 2, not by seat 3 (the one before)."""
    t = dutch_at("havana", seats=3)
    assert t.state["order"] == [1, 2, 3] and t.g.to_act() == [1]
    t.p(1)["flags"] = {"spain": 1}
    t.add("dice", [6, 1], [1, 1, 1], [1, 1, 1])           # found; round 1: no skull either side
    t.act(1, {"action": "leave_port"})
    assert t.state["combat"]["waiting"] == "npc:dutch_naval"
    assert t.g.to_act() == [2] and t.g.legal(3) == [] and t.g.legal(1) == []
    # the last seat's left is the first seat's (the order wraps)
    state = copy.deepcopy(t.state)
    state["combat"]["d"] = 3
    assert controller(state, "npc:dutch_naval") == 1
    state["combat"]["d"] = 1
    state["combat_fixes"] = False                         # as a game of rules version 4: the one before
    assert controller(state, "npc:dutch_naval") == 3


def test_a_fight_with_an_npc_that_nobody_can_harm_or_leave_drifts_apart():
    """Found in a pirate-bot game that never ended: the player's ship has lost masts (Shoot
    only) and cannons; the NPC has no cannons and no crew (no Board) and may not flee, as it
    has no fewer cannons or crew than the player. Every round would be the same: the fight
    ends, no winner (RULINGS.md)."""
    t = dutch_at("havana")
    t.p(1)["flags"] = {"spain": 1}
    t.add("dice", [6, 1], [1, 1, 1], [1, 1, 1])           # found; round 1: no skull either side
    t.act(1, {"action": "leave_port"})
    # test set-up: the damage of earlier rounds
    npc = t.state["combat"]["npc"]["ship"]
    npc["crew"] = npc["cannons"] = 0
    ship = t.p(1)["ship"]
    ship["masts"] = ship["cannons"] = ship["crew"] = 0
    assert t.g.legal(2) == [{"action": "combat_action", "do": "shoot"}]
    t.act(2, {"action": "combat_action", "do": "shoot"})
    assert t.g.legal(1) == [{"action": "combat_action", "do": "shoot"}]
    t.add("dice", [6, 6, 6], [1])                         # the NPC wins the round: no cannon, no hit
    evs = t.act(1, {"action": "combat_action", "do": "shoot"})
    assert "CombatDrifted" in [e.type for e in evs] and t.state["combat"] is None
    assert t.p(1)["captain"] and "dutch_naval" in t.state["board"]["npcs"]


def test_against_an_npc_only_the_player_is_asked_for_glory_cards():
    """The book: the opponent may declare a card too "if he is another player (not an NPC)";
    the player who decides for the NPC plays none of his own for it."""
    cat = catalog(zones={"E10": "havana", "E11": "havana"})
    g = next(c for c in cat["glory_cards"]["value"] if c["id"] == "G19")      # a card of the naval roll
    g.update(kind="combat", timing="combat", effect={"timing": "naval_roll", "steps": [
        {"do": "reroll_dice", "whose": "own"}]})
    t = start(["E10", "E21", "E23", "E25"], cat, glory=True)
    next_turn(t)
    assert len(t.p(1)["hand"]) == 1 and len(t.p(2)["hand"]) == 1
    t.p(1)["flags"] = {"spain": 1}
    t.add("dice", [6, 1], [1, 1, 1], [1, 1, 1])
    evs = t.act(1, {"action": "leave_port"})
    opened = next(e.data for e in evs if e.type == "GloryWindowOpened")
    assert opened == {"phase": "naval_roll", "seats": [1]}
    assert t.g.to_act() == [1] and t.g.legal(2) == []
    evs = t.act(1, {"action": "glory_pass"})
    assert "GloryWindowClosed" in [e.type for e in evs] and t.g.to_act() == [2]   # round 2: the NPC declares


def test_beating_a_naval_npc_costs_a_flag_pays_its_cargo_and_the_admiral_beneath_returns():
    """The second part of the book's replacement example: the admiral on top dies, Philips
    van Almonde takes command again and his frigate sails back to Curacao at the end of the turn."""
    t = start(["E10", "E21", "E11", "E23", "E25", "E27"], catalog(zones={"E11": "havana"}))
    next_turn(t)
    next_turn(t)
    next_turn(t)
    npc = t.state["board"]["npcs"]["dutch_naval"]
    assert npc["cards"] == ["E10", "E11"] and npc["zone"] == "havana"
    # test set-up: Felipe on a frigate wanted by nobody; he scouts the Dutch ship himself
    from service.aggregates.merchants_and_marauders.state import new_ship
    t.p(1)["ship"] = new_ship(t.state, "frigate")
    if t.g.to_act() != [1]:
        next_turn(t)
    t.act(1, {"action": "leave_port"})
    assert {"action": "scout", "target": "npc", "npc": "dutch_naval"} in t.g.legal(1)
    t.add("dice", [6, 1])                                 # Felipe's Scouting finds it
    t.add("dice", [6, 6, 6], [1, 1, 1], [1, 1, 1])        # round 1: Felipe wins, three hits on the cargo
    t.act(1, {"action": "scout", "target": "npc", "npc": "dutch_naval"})
    assert t.p(1)["flags"] == {"netherlands": 1}          # engaging a non-pirate ship
    assert t.state["combat"]["npc"]["ship"]["cargo"] == 0
    # round 2: Felipe boards; seat 2 shoots for the NPC; crew combat: Felipe's skulls kill
    # two of the three Dutch crew, then the last one
    t.act(1, {"action": "combat_action", "do": "board"})
    t.add("dice", [6, 1, 1], [1, 1, 1], [6, 6], [1, 1, 1], [6, 1], [1, 1, 1])
    t.add("cargo", "C01", "C02", "C03")                   # the hold: 1 + 2 + 2 gold
    gold = t.p(1)["gold"]
    evs = t.act(2, {"action": "combat_action", "do": "shoot"})
    won = next(e.data for e in evs if e.type == "CombatWon")
    assert won["seat"] == 1 and won["beaten"] == "npc:dutch_naval"
    assert t.p(1)["flags"] == {"netherlands": 2}          # defeating a non-pirate ship
    assert t.p(1)["gold"] == gold + 5
    # defeating an NPC in crew combat: a glory point and a glory card
    assert [e.data for e in evs if e.type == "GloryGained"] == [{"seat": 1, "why": "defeated the dutch naval ship",
                                                                 "glory": 1}]
    assert t.p(1)["glory"] == 1 and len(t.p(1)["hand"]) == 1
    assert [e.type for e in evs].count("NpcCargoLost") == 3   # three hits on its hold: all three lost
    t.act(1, {"action": "claim_ship", "claim": False})
    lost = next(e.data for e in t.g.events if e.type == "NpcCaptainLost")
    assert lost == {"npc": "dutch_naval", "card": "E11", "successor": "E10"}
    npc = t.state["board"]["npcs"]["dutch_naval"]
    assert npc["cards"] == ["E10"] and npc["zone"] == "havana"
    next_turn(t)
    assert t.state["board"]["npcs"]["dutch_naval"]["zone"] == "curacao"     # back at the end of the turn


def test_an_honest_captain_beating_a_pirate_npc_takes_its_bounty():
    cat = catalog(zones={"E13": "havana"})
    t = start(["E13", "E21", "E23"], cat)
    next_turn(t)
    from service.aggregates.merchants_and_marauders.state import new_ship
    t.p(1)["ship"] = new_ship(t.state, "frigate")
    t.p(1)["gold"] = 0                                    # nothing aboard: the sloop still hunts him
    gold = t.p(1)["gold"]
    # the pirate sloop scouts him (3 dice) and attacks; round 1: the sloop rolls first (2 dice),
    # Felipe wins with his three cannons: three skulls, which seat 2 places for the NPC
    t.add("dice", [6, 1, 1], [1, 1], [6, 6, 6], [5, 5, 5])
    t.act(1, {"action": "leave_port"})
    while t.state["combat"] and t.state["combat"]["stage"] == "place":
        t.act(2, {"action": "place_hit", "location": "hull"})   # seat 2 places the skulls for the NPC
    evs = t.g.events
    bounty = [e.data for e in evs if e.type == "GoldReceived" and e.data["why"] == "bounty"]
    assert bounty and bounty[-1]["amount"] == 5 and t.p(1)["gold"] == gold + 5
    assert t.p(1)["glory"] == 1                                 # a pirate NPC sunk: a glory point too
    assert "pirate_sloop" not in t.state["board"]["npcs"]       # no captain beneath: it leaves the sea


def test_two_npcs_in_turn_and_a_death_in_ones_own_turn_ends_it_without_a_new_captain_yet():
    """Spotted by two naval NPCs, Felipe escapes the first and is sunk by the second: his
    turn ends; his new captain comes at his next turn, not now."""
    cat = catalog(zones={"E10": "havana", "E07": "havana"})
    t = start(["E10", "E07", "E21", "E23"], cat)
    next_turn(t)
    next_turn(t)
    assert {n: x["zone"] for n, x in t.state["board"]["npcs"].items()} == {"dutch_naval": "havana",
                                                                           "french_naval": "havana"}
    if t.g.to_act() != [1]:
        next_turn(t)
    t.p(1)["flags"] = {"netherlands": 1, "france": 1}
    # the Dutch scout first (the order drawn: the first listed), find him; round 1: nothing
    t.add("dice", [6, 1], [1, 1, 1], [1, 1, 1])
    t.act(1, {"action": "leave_port"})
    assert t.state["combat"]["a"] == "npc:dutch_naval"
    t.act(2, {"action": "combat_action", "do": "shoot"})          # seat 2 for the Dutch ship
    t.add("dice", [1, 1, 1], [6, 1, 1])                           # he flees: the Dutch rolled no skull
    t.add("dice", [6, 1], [6, 6, 6], [1, 1, 1], [5, 5, 5])        # the French find him; three skulls on him
    evs = t.act(1, {"action": "combat_action", "do": "flee"})
    assert "CombatFled" in [e.type for e in evs] and t.state["combat"]["a"] == "npc:french_naval"
    for _ in range(3):
        t.act(1, {"action": "place_hit", "location": "hull"})
    evs = t.act(1, {"action": "no_reallocate"})
    types_ = [e.type for e in evs]
    assert "CaptainDied" in types_ and "PlayerTurnEnded" in types_
    assert "GloryGained" not in types_ and t.p(2)["glory"] == 0   # an NPC's win earns nobody glory
    assert not [e for e in evs if e.type == "CaptainDealt" and e.data["seat"] == 1]
    assert t.p(1)["captain"] is None and t.g.to_act() == [2]


def test_a_new_captain_whose_home_a_pirate_npc_watches_may_be_exchanged_once():
    """The death procedure, 1: a pirate NPC in the new captain's home zone: another card."""
    cat = catalog(zones={"E13": "santo_domingo"})
    base = {"demand_tiles": [demand_order({"havana": "sugar"})],
            "captains": [FELIPE, FRANCES, "frederico_da_silva", "captain_06"], "pick": [1],
            "events": ["E13", "E21", "E23"]}
    t = Table(2, base, catalog=cat)
    t.act(1, {"action": "choose_ship", "ship": "sloop"})
    t.act(2, {"action": "choose_ship", "ship": "sloop"})
    t.act(1, {"action": "retire"})                        # in port, before any action
    t.act(2, {"action": "end_turn"})                      # the pirate sloop enters at Santo Domingo
    assert t.state["board"]["npcs"]["pirate_sloop"]["zone"] == "santo_domingo"
    assert t.p(1)["captain"] == "frederico_da_silva"      # home: Santo Domingo
    assert {"action": "redraw_captain"} in t.g.legal(1)
    evs = t.act(1, {"action": "redraw_captain"})
    assert next(e for e in evs if e.type == "CaptainRedrawn").vis == [1]
    assert t.p(1)["captain"] == "captain_06" and "frederico_da_silva" in t.state["decks"]["captain_discard"]
    assert {"action": "redraw_captain"} not in t.g.legal(1)

"""Combat between players (the book: Combattimento navale, Posizione dei colpi,
Combattimento fra equipaggi, Armi speciali, Depredare), driven in table mode with
the book's dice: the battle example as the Portuguese text gives its dice."""

import copy

import pytest

from service.aggregates.merchants_and_marauders import RULES
from service.aggregates.merchants_and_marauders.catalog_checks import load
from service.aggregates.merchants_and_marauders.glory import declined_this_turn
from service.aggregates.merchants_and_marauders.state import new_ship
from service.kernel import BadInput, IllegalDecision

from .helpers import Table, demand_order, no_glory_cards, types

FELIPE, FRANCES = "felipe", "frances_wright"


def _take_tile(t, kind):
    """Test set-up: the tile bought at a port in an earlier turn (at a table the tiles on
    the board are unseen tokens: one of them leaves its port)."""
    board = t.state["board"]
    port = sorted(z for z, tile in board["upgrades"].items() if tile)[0]
    board["upgrades"][port] = None
    return {"better_rigging": "U02", "reinforced_hull": "U03", "bow_cannon": "U05", "swivel_gun": "U07",
            "long_range": "U08"}[kind]


def _weapon(t, seat, kind):
    t.state["weapons"][kind] -= 1
    t.p(seat)["weapons"][kind] = 1


def battle(felipe_tiles=(), frances_tiles=(), scout=(6, 1), sail=True, glory=None, rules_version=None, catalog=None,
           options=None):
    """Felipe (seat 1, a Frigate, Chain Shot) meets Frances Wright (seat 2, a Sloop with
    Better Rigging, Grappling Hooks) at sea off Port Royal, and scouts her."""
    base = {"demand_tiles": [demand_order({"havana": "sugar"})], "captains": [FELIPE, FRANCES], "pick": [1]}
    if glory:
        base["glory"] = list(glory)
    t = Table(2, base, catalog=catalog, options=options)
    if rules_version is not None:           # as a game recorded under that version folds
        t.state["glory_windows"] = int(rules_version) >= 4
    t.act(1, {"action": "choose_ship", "ship": "sloop"})
    t.act(2, {"action": "choose_ship", "ship": "sloop"})
    # the set-up of the example (bought in earlier turns of a real game)
    t.p(1)["ship"] = new_ship(t.state, "frigate")
    t.p(2)["ship"]["upgrades"].append(_take_tile(t, "better_rigging"))
    for k in felipe_tiles:
        t.p(1)["ship"]["upgrades"].append(_take_tile(t, k))
    for k in frances_tiles:
        t.p(2)["ship"]["upgrades"].append(_take_tile(t, k))
    _weapon(t, 1, "chain_shot")
    _weapon(t, 2, "grappling_hooks")
    if glory is None:
        no_glory_cards(t)
    t.p(2)["in_port"] = False
    if sail:
        t.act(1, {"action": "leave_port"})
        t.act(1, {"action": "move", "to": "port_royal"})
    else:                                                   # he begins his turn at sea there
        t.p(1)["in_port"], t.p(1)["zone"] = False, "port_royal"
    assert {"action": "scout", "target": "player", "seat": 2} in t.g.legal(1)
    if scout:
        t.add("dice", list(scout))                          # Felipe's Scouting finds her
    return t


def test_the_books_battle_example():
    # Felipe holds "Fast Learner" (G18), Frances "Crew Combat Rerolls" (G17): their set-up cards
    t = battle(glory=["G18", "G17"])
    assert [t.p(1)["hand"], t.p(2)["hand"]] == [["G18"], ["G17"]]
    # round 1: shoot only; Felipe skull-1-1, Frances skull-3-2 (3 dice: her Maneuverability 5 vs 3)
    t.add("dice", [6, 1, 1], [6, 3, 2], [1], [3])
    evs = t.act(1, {"action": "scout", "target": "player", "seat": 2})
    assert "CombatBegun" in types(evs)
    flag = next(e for e in evs if e.type == "WantedFlagGained").data
    assert flag["seat"] == 1 and flag["nation"] == "england"          # Frances was no pirate
    assert [e.data["do"] for e in evs if e.type == "CombatActionDeclared"] == ["shoot", "shoot"]
    rolled = [e.data["dice"] for e in evs if e.type == "CombatRolled"]
    assert rolled == [[6, 1, 1], [6, 3, 2]]
    # no glory window after a naval roll: no card of the default catalog is played then
    assert "GloryWindowOpened" not in types(evs)
    won = next(e for e in evs if e.type == "CombatRoundWon").data
    assert won["seat"] == 2                                 # one success each; numbers 5 against 2
    assert next(e for e in evs if e.type == "CombatHitsDue").data["hits"] == {"2": 1, "1": 1}
    # Felipe's hit lands on Frances' cargo; hers rolls the crew: Felipe moves it to his own cargo
    assert t.state["combat"]["stage"] == "reallocate" and t.g.to_act() == [1]
    t.act(1, {"action": "reallocate", "frm": "crew", "to": "cargo"})
    f, w = t.p(1)["ship"], t.p(2)["ship"]
    assert (f["cargo"], f["crew"]) == (2, 3) and w["cargo"] == 1

    # round 2: shoot against flee; skull-1-3 against skull-4-1: Frances wins, but cannot flee
    t.act(1, {"action": "combat_action", "do": "shoot"})
    t.add("dice", [6, 1, 3], [6, 4, 1], [4])
    evs = t.act(2, {"action": "combat_action", "do": "flee"})
    assert next(e for e in evs if e.type == "CombatRoundWon").data["seat"] == 2
    assert "CombatFled" not in types(evs)
    assert t.p(2)["ship"]["cannons"] == 0                  # Felipe's one hit: her only cannon

    # round 3: skull-2-2 against 3-1-4: Felipe wins, three hits: 1 cargo, 4 cannons (-> hull), skull
    t.act(1, {"action": "combat_action", "do": "shoot"})
    t.add("dice", [6, 2, 2], [3, 1, 4], [1, 4, 6])
    t.act(2, {"action": "combat_action", "do": "flee"})
    assert t.state["combat"]["stage"] == "shot" and t.g.to_act() == [1]
    t.act(1, {"action": "special_shot", "kind": "chain_shot"})            # the skull hits the masts
    w = t.p(2)["ship"]
    assert (w["cargo"], w["cannons"], w["hull"], w["masts"]) == (0, 0, 1, 1)
    assert "chain_shot" not in t.p(1)["weapons"]

    # round 4: shoot against board; skull-2-4 against 4-1-4, then Grappling Hooks: two skulls
    t.act(1, {"action": "combat_action", "do": "shoot"})
    t.add("dice", [6, 2, 4], [4, 1, 4])
    t.act(2, {"action": "combat_action", "do": "board"})
    assert t.state["combat"]["stage"] == "reroll" and t.g.to_act() == [2]
    # Felipe's hit rolls 2 (masts); crew combat round 1: Felipe skull-2 against skull-skull-skull
    # then crew round 2: Felipe skull-skull against skull-1-4
    t.add("dice", [5, 6, 2], [2], [6, 2], [6, 6, 6], [6, 6], [6, 1, 4])
    evs = t.act(2, {"action": "reroll", "dice": [0, 1, 2]})
    # after the Leadership roll of crew round 1, both hold a glory card: both are asked, the attacker first
    assert t.state["combat"]["stage"] == "glory_announce" and t.g.to_act() == [1]
    for seat in (1, 2):                 # nobody plays a card after crew round 1
        evs += t.act(seat, {"action": "glory_pass"})
    assert next(e for e in evs if e.type == "CombatRoundWon").data["seat"] == 2
    assert next(e for e in evs if e.type == "Boarded").data == {"seat": 2, "target": 1}
    hits = [(e.data["seat"], e.data["location"]) for e in evs if e.type == "ShipHit"]
    assert hits[0] == (2, "masts")                          # before the boarding: her masts are gone
    # crew round 1 (after its window): Felipe one hit, Frances two of three (her crew is 2)
    assert hits[1:] == [(2, "crew"), (1, "crew"), (1, "crew")]
    assert (t.p(1)["ship"]["crew"], t.p(2)["ship"]["crew"]) == (1, 1)
    assert t.state["combat"]["stage"] == "glory_announce"   # round 2 rolled, nothing hit yet

    # crew round 2: Felipe skull-skull against skull-1-4 (so far Felipe would win: more successes)
    assert [e.data["dice"] for e in t.g.events if e.type == "CombatRolled"][-2:] == [[6, 6], [6, 1, 4]]
    t.act(1, {"action": "glory_pass"})
    t.act(2, {"action": "glory_announce"})                  # Frances declares a glory card
    assert t.g.to_act() == [1]                              # Felipe may declare one too: he declines
    t.act(1, {"action": "glory_pass"})
    assert t.g.legal(2) == [{"action": "glory_play", "card": "G17"}, {"action": "glory_decline", "card": "G17"}]
    evs = t.act(2, {"action": "glory_play", "card": "G17"})  # "Crew Combat Rerolls"
    assert next(e for e in evs if e.type == "GloryCardPlayed").data["name"] == "Crew Combat Rerolls"
    t.act(2, {"action": "glory_reroll", "dice": []})           # none of her own dice
    t.add("dice", [3, 1])
    evs = t.act(2, {"action": "glory_reroll", "dice": [0, 1]})  # Felipe rolls again: no success
    assert next(e for e in evs if e.type == "GloryDiceRerolled").data == {
        "seat": 2, "side": 1, "which": [0, 1], "dice": [3, 1]}
    # a new announcement: Felipe plays "Fast Learner", the text of the card played last
    assert t.g.to_act() == [1] and t.state["combat"]["stage"] == "glory_announce"
    t.act(1, {"action": "glory_announce"})
    evs = t.act(1, {"action": "glory_play", "card": "G18"})
    played = next(e for e in evs if e.type == "GloryCardPlayed").data
    assert (played["name"], played["copies"]) == ("Fast Learner", "G17")
    t.add("dice", [6, 2])
    t.act(1, {"action": "glory_reroll", "dice": [0, 1]})   # his own dice: one success
    evs = t.act(1, {"action": "glory_reroll", "dice": []})
    # one success each: both crews are gone; Frances wins the tie on the numbers, 5 against 2
    crew = [(e.data["seat"], e.data["location"]) for e in evs if e.type == "ShipHit"]
    assert crew == [(2, "crew"), (1, "crew")]
    won = next(e for e in evs if e.type == "CombatWon").data
    assert won == {"seat": 2, "beaten": 1, "how": "crew combat"}
    # "Frances vince la battaglia": defeating a player earns a glory point and a glory card
    # ("Sconfitto un giocatore o un NPC (Sopravvivendo e vincendo un combattimento navale o fra
    # equipaggi)"); the referee enters the card she draws
    gained = next(e for e in evs if e.type == "GloryGained").data
    assert gained == {"seat": 2, "why": "defeated seat 1", "glory": 1}
    assert t.p(2)["glory"] == 1 and t.p(1)["glory"] == 0
    # Felipe had become a pirate (an English flag): Frances, wanted by nobody, takes the bounty
    bounty = next(e for e in evs if e.type == "GoldReceived" and e.data["why"] == "bounty").data
    assert bounty["by_nation"] == {"england": 5}
    assert t.p(1)["hand"] == [] and t.p(2)["hand"] == [next(e for e in evs if e.type == "GloryCardDealt").data["card"]]
    assert [e.data["glory_count"] for e in evs if e.type == "PlunderTaken"] == [0]   # Felipe held none
    assert t.state["combat"]["stage"] == "claim" and t.g.to_act() == [2]   # her hold is gone: no cargo fits


def naval_card_catalog():
    """A catalog where glory card G19 acts after the Seamanship roll (its player rolls
    any of his own dice again): naval-roll windows open."""
    cat = copy.deepcopy(load())
    g = next(c for c in cat["glory_cards"]["value"] if c["id"] == "G19")
    g.update(kind="combat", timing="combat", effect={"timing": "naval_roll", "steps": [
        {"do": "reroll_dice", "whose": "own"}]})
    return cat


def test_glory_windows_are_not_opened_for_games_of_rules_version_3():
    """A game recorded before glory cards in combat replays as it was: no window."""
    for version, opened in (("3", False), ("4", True)):
        t = battle(glory=["G18", "G19"], rules_version=version, catalog=naval_card_catalog())
        t.add("dice", [6, 1, 1], [6, 3, 2], [1], [3])
        evs = t.act(1, {"action": "scout", "target": "player", "seat": 2})
        assert ("GloryWindowOpened" in types(evs)) == opened


def test_an_announced_card_declined_is_shown_and_the_side_is_not_asked_again():
    t = battle(glory=["G18", "G19"], catalog=naval_card_catalog())
    t.add("dice", [6, 1, 1], [6, 3, 2], [1], [3])
    t.act(1, {"action": "scout", "target": "player", "seat": 2})
    t.act(1, {"action": "glory_announce"})
    t.act(2, {"action": "glory_pass"})
    # Fast Learner has nothing to copy yet: it can only be declined, and is shown
    assert t.g.legal(1) == [{"action": "glory_decline", "card": "G18"}]
    evs = t.act(1, {"action": "glory_decline", "card": "G18"})
    shown = next(e for e in evs if e.type == "GloryDeclined")
    assert (shown.data["card"], shown.data["name"], shown.vis) == ("G18", "Fast Learner", "all")
    assert t.p(1)["hand"] == ["G18"]
    # a new round of the window asks only Frances; her pass closes it and the round is settled
    assert t.g.to_act() == [2]
    evs = t.act(2, {"action": "glory_pass"})
    assert "GloryWindowClosed" in types(evs) and "CombatRoundWon" in types(evs)


@pytest.mark.parametrize("reading", ["it", "pt"])
def test_an_announced_card_declined_once_a_turn_with_the_portuguese_option(reading):
    """The Italian book: "Un giocatore può rinunciare a giocare la carta annunciata quando è
    il proprio turno" (whenever he resolves); the Portuguese: "Um jogador pode recusar jogar
    a carta anunciada dele uma vez no turno" (once in the turn), the option decline=once.
    Felipe holds a card of the naval roll (G19), Frances Fast Learner (G18, nothing to copy
    yet). Both announce and decline in round 1; in round 2 of the same turn, with the
    Portuguese reading, Frances (nothing playable) may only pass, and Felipe must play
    what he announces."""
    t = battle(glory=["G19", "G18"], catalog=naval_card_catalog(),
               options={"decline": "once"} if reading == "pt" else None)
    assert t.state["decline_once"] == (reading == "pt")
    t.add("dice", [6, 1, 1], [6, 3, 2], [1], [3])           # round 1, then its hit locations
    t.act(1, {"action": "scout", "target": "player", "seat": 2})
    t.act(1, {"action": "glory_announce"})
    t.act(2, {"action": "glory_announce"})
    evs = t.act(1, {"action": "glory_decline", "card": "G19"})
    evs += t.act(2, {"action": "glory_decline", "card": "G18"})
    assert [e.data["card"] for e in evs if e.type == "GloryDeclined"] == ["G19", "G18"]
    assert "CombatRoundWon" in types(evs)                   # both declined: the window closed
    t.act(1, {"action": "no_reallocate"})
    # round 2, the same turn: shoot against shoot, no skull
    t.act(1, {"action": "combat_action", "do": "shoot"})
    t.add("dice", [1, 1, 1], [1, 1, 1])
    t.act(2, {"action": "combat_action", "do": "shoot"})
    assert t.state["combat"]["stage"] == "glory_announce" and t.g.to_act() == [1]
    assert t.g.legal(1) == [{"action": "glory_announce"}, {"action": "glory_pass"}]   # G19 is playable
    t.act(1, {"action": "glory_announce"})
    assert t.g.to_act() == [2]
    if reading == "pt":                                     # she could only decline again: she passes
        assert t.g.legal(2) == [{"action": "glory_pass"}]
    else:
        assert t.g.legal(2) == [{"action": "glory_announce"}, {"action": "glory_pass"}]
    t.act(2, {"action": "glory_pass"})
    plays = [{"action": "glory_play", "card": "G19"}]
    assert t.g.legal(1) == plays + ([] if reading == "pt" else [{"action": "glory_decline", "card": "G19"}])
    if reading == "pt":
        with pytest.raises(IllegalDecision):
            t.act(1, {"action": "glory_decline", "card": "G19"})
        # the limit is the player's turn: in the next player's turn each may decline again
        state = copy.deepcopy(t.state)
        state["cur"] = 1
        assert not declined_this_turn(state, 1) and not declined_this_turn(state, 2)
        assert declined_this_turn(t.state, 1) and declined_this_turn(t.state, 2)


def test_the_decline_option_is_any_or_once():
    assert RULES.parse_options(2, {"decline": "once"}) == {"decline": "once"}
    assert RULES.parse_options(2, {"decline": "ANY", "glory": "12"}) == {"decline": "any", "glory": 12}
    with pytest.raises(BadInput, match="once"):
        RULES.parse_options(2, {"decline": "twice"})
    assert "uma vez no turno" in RULES.options_said["decline"]


def test_a_card_of_the_naval_roll_rolls_its_players_own_dice_again():
    t = battle(glory=["G18", "G19"], catalog=naval_card_catalog())
    t.add("dice", [6, 1, 1], [6, 3, 2])
    t.act(1, {"action": "scout", "target": "player", "seat": 2})
    t.act(1, {"action": "glory_pass"})
    t.act(2, {"action": "glory_announce"})
    t.act(1, {"action": "glory_pass"})
    t.act(2, {"action": "glory_play", "card": "G19"})
    assert t.g.legal(2)[-1] == {"action": "glory_reroll", "dice": [0, 1, 2]}     # her own three dice
    t.add("dice", [6, 6], [1], [3])
    t.act(2, {"action": "glory_reroll", "dice": [1, 2]})
    evs = t.act(1, {"action": "glory_announce"})          # Felipe copies it: Fast Learner
    evs += t.act(1, {"action": "glory_play", "card": "G18"})
    t.add("dice", [1])
    evs += t.act(1, {"action": "glory_reroll", "dice": [0]})     # his skull: a 1 now
    won = next(e for e in evs if e.type == "CombatRoundWon").data
    assert won["seat"] == 2 and won["successes"] == {"1": 0, "2": 3}


def test_plunder_and_claim_then_the_beaten_captain_is_gone():
    t = battle()
    t.add("dice", [6, 6, 6], [1, 1, 1], [1, 1, 2])          # round 1: Felipe wins, 3 hits: cargo, cargo, masts
    t.act(1, {"action": "scout", "target": "player", "seat": 2})
    t.act(1, {"action": "combat_action", "do": "board"})
    t.add("dice", [6, 1, 1], [1, 1, 1], [6, 6], [1, 1, 1])   # Felipe boards; crew: 2 skulls, none
    t.act(2, {"action": "combat_action", "do": "shoot"})
    c = t.state["combat"]
    assert c["stage"] == "claim" and t.g.to_act() == [1]    # she carries no cargo: straight to the claim
    assert t.p(2)["gold"] == 0 and t.p(1)["gold"] == 20     # her 10 gold aboard are his
    gold_before = t.p(1)["gold"]
    evs = t.act(1, {"action": "claim_ship", "claim": True})
    assert t.p(1)["ship"]["type"] == "sloop" and t.p(1)["ship"]["upgrades"] == []
    assert t.p(1)["gold"] == gold_before                    # her gold aboard is his
    died = next(e for e in evs if e.type == "CaptainDied").data
    assert died["seat"] == 2 and t.p(2)["captain"] is None and t.p(2)["needs_captain"]
    assert t.state["combat"] is None
    assert t.p(2)["returning"] == ["U02"]                   # the Better Rigging tile goes back to a port


def test_the_public_plunder_counts_the_glory_cards_taken():
    """The table sees how many glory cards change hands, not which ("Depredare le navi dei
    giocatori": "Le Carte Gloria"): two plundered, the public PlunderTaken says two."""
    t = battle(glory=["G01", "G02"])
    t.state["decks"]["glory"].remove("G03")                  # test set-up: a second card in her hand
    t.p(2)["hand"].append("G03")
    t.add("dice", [6, 6, 6], [1, 1, 1], [1, 1, 2])          # round 1: Felipe wins, 3 hits: cargo, cargo, masts
    t.act(1, {"action": "scout", "target": "player", "seat": 2})
    t.act(1, {"action": "combat_action", "do": "board"})
    t.add("dice", [6, 1, 1], [1, 1, 1], [6, 6], [1, 1, 1])   # Felipe boards; crew: two skulls against none
    t.add("glory", "G04")                                   # his card for the win
    t.act(2, {"action": "combat_action", "do": "shoot"})
    assert t.state["combat"]["stage"] == "glory_announce"   # both hold cards: the crew roll's window
    evs = t.act(1, {"action": "glory_pass"}) + t.act(2, {"action": "glory_pass"})
    taken = next(e for e in evs if e.type == "PlunderTaken")
    assert taken.vis == "all" and taken.data["glory_count"] == 2
    shown = next(e for e in evs if e.type == "Plundered")
    assert shown.vis == [1, 2] and shown.data["glory_cards"] == ["G02", "G03"]
    assert sorted(t.p(1)["hand"]) == ["G01", "G02", "G03", "G04"] and t.p(2)["hand"] == []


def test_a_successful_flight_ends_the_fight():
    t = battle()
    t.add("dice", [1, 1, 1], [1, 1, 1])                     # round 1: nobody wins, no hits
    t.act(1, {"action": "scout", "target": "player", "seat": 2})
    t.act(1, {"action": "combat_action", "do": "shoot"})
    t.add("dice", [1, 1, 1], [6, 1, 1])                     # Frances wins and Felipe has no success
    evs = t.act(2, {"action": "combat_action", "do": "flee"})
    assert "CombatFled" in types(evs) and t.state["combat"] is None
    assert t.p(1)["flags"] == {"england": 1}                # engaging her was enough
    # nobody was defeated: no glory (the book: "Sopravvivendo e vincendo")
    assert "GloryGained" not in types(t.g.events) and t.p(1)["glory"] == t.p(2)["glory"] == 0


def test_bounty_for_a_pirate_not_from_nations_that_want_the_winner():
    t = battle()
    t.p(2)["flags"] = {"spain": 3, "england": 1}            # Frances is a pirate
    t.p(1)["flags"] = {"spain": 1}                          # ... and Felipe is wanted in Spain
    t.add("dice", [6, 6, 6], [1, 1, 1], [5, 5, 5])          # round 1: Felipe wins; three skulls
    t.act(1, {"action": "scout", "target": "player", "seat": 2})
    assert t.p(1)["flags"] == {"spain": 1}                  # no flag for engaging a pirate
    assert t.state["combat"]["stage"] == "shot"
    t.act(1, {"action": "no_shot"})                         # the Chain Shot kept: she places them
    gold = t.p(1)["gold"]
    for _ in range(3):
        evs = t.act(2, {"action": "place_hit", "location": "hull"})
    assert [e.data["seat"] for e in evs if e.type == "ShipSunk"] == [2]
    bounty = next(e.data for e in evs if e.type == "GoldReceived" and e.data["why"] == "bounty")
    assert bounty["by_nation"] == {"england": 5} and t.p(1)["gold"] == gold + 5   # not Spain's 15
    assert t.p(1)["flags"] == {"spain": 1}                  # beating a pirate costs no flag
    assert t.p(2)["captain"] is None and t.state["combat"] is None


def sink_frances(t):
    """Round 1: Felipe wins with three skulls; Frances places the three hits on her hull."""
    t.add("dice", [6, 6, 6], [1, 1, 1], [5, 5, 5])
    t.act(1, {"action": "scout", "target": "player", "seat": 2})
    t.act(1, {"action": "no_shot"})
    evs = []
    for _ in range(3):
        evs += t.act(2, {"action": "place_hit", "location": "hull"})
    return evs


def test_sinking_a_player_earns_a_glory_point_and_a_glory_card():
    """The book ("Acquisire carte Gloria", p. 12): a glory point, and so a glory card, for
    "Sconfitto un giocatore o un NPC (Sopravvivendo e vincendo un combattimento navale o fra
    equipaggi)": a naval fight won by sinking the other ship."""
    t = battle()
    t.add("glory", "G05")                                   # the referee enters the card he draws
    evs = sink_frances(t)
    assert [e.data["seat"] for e in evs if e.type == "ShipSunk"] == [2]
    assert [e.data for e in evs if e.type == "GloryGained"] == [{"seat": 1, "why": "defeated seat 2", "glory": 1}]
    dealt = next(e for e in evs if e.type == "GloryCardDealt")
    assert dealt.data == {"seat": 1, "card": "G05"} and dealt.vis == [1]      # the card is his secret
    assert t.p(1)["glory"] == 1 and t.p(1)["hand"] == ["G05"] and t.p(2)["glory"] == 0
    # the point comes with the win, before the fight's end
    assert types(evs).index("CombatWon") < types(evs).index("GloryGained") < types(evs).index("CombatEnded")


def test_games_before_rules_version_5_earn_no_glory_for_a_win():
    t = battle()
    t.state["combat_fixes"] = False                         # as a game recorded under rules version 4
    evs = sink_frances(t)
    assert "ShipSunk" in types(evs) and "GloryGained" not in types(evs) and t.p(1)["glory"] == 0


# the combat upgrades ---------------------------------------------------------------------
def test_long_range_fires_before_the_first_round():
    t = battle(felipe_tiles=["long_range"])
    # Long Range: 3 dice (his cannons), one skull: one hit, located 2 (masts); then round 1
    t.add("dice", [6, 1, 2], [2], [1, 1, 1], [1, 1, 1])
    evs = t.act(1, {"action": "scout", "target": "player", "seat": 2})
    fired = next(e.data for e in evs if e.type == "LongRangeFired")
    assert fired["hits"] == 1 and t.p(2)["ship"]["masts"] == 1
    assert types(evs).index("LongRangeFired") < types(evs).index("CombatActionDeclared")


def test_bow_cannon_answers_a_flight():
    t = battle(felipe_tiles=["bow_cannon"])
    t.add("dice", [1, 1, 1], [1, 1, 1])                     # round 1: nothing
    t.act(1, {"action": "scout", "target": "player", "seat": 2})
    t.act(1, {"action": "combat_action", "do": "shoot"})
    t.act(2, {"action": "combat_action", "do": "flee"})
    assert t.state["combat"]["stage"] == "bow" and t.g.to_act() == [1]
    t.add("dice", [1, 1, 1], [1, 1, 1], [4])                # nobody wins; the bow hit lands on the cannons
    evs = t.act(1, {"action": "bow_cannon", "fire": True})
    assert next(e.data for e in evs if e.type == "CombatHitsDue")["hits"] == {"2": 1}
    assert t.p(2)["ship"]["cannons"] == 0
    assert "U05" in t.p(1)["ship"]["flipped"]               # face down until the fight ends


def test_reinforced_hull_absorbs_a_hit_and_is_rearmed_in_port():
    t = battle(frances_tiles=["reinforced_hull"])
    t.add("dice", [6, 6, 6], [1, 1, 1], [1, 2, 3])          # Felipe: three hits, cargo, masts, crew
    t.act(1, {"action": "scout", "target": "player", "seat": 2})
    assert t.state["combat"]["stage"] == "absorb" and t.g.to_act() == [2]
    assert {"action": "absorb", "location": "crew"} in t.g.legal(2)
    t.act(2, {"action": "absorb", "location": "crew"})
    w = t.p(2)["ship"]
    assert (w["cargo"], w["masts"], w["crew"]) == (1, 1, 2) and "U03" in w["flipped"]


def test_swivel_gun_before_crew_combat():
    t = battle(felipe_tiles=["swivel_gun"])
    t.add("dice", [1, 1, 1], [1, 1, 1])
    t.act(1, {"action": "scout", "target": "player", "seat": 2})
    t.act(1, {"action": "combat_action", "do": "board"})
    # Felipe boards; the swivel gun: one skull kills one of her two crew; then crew combat
    t.add("dice", [6, 1, 1], [1, 1, 1], [6, 1], [6, 1], [1, 1, 1])
    evs = t.act(2, {"action": "combat_action", "do": "shoot"})
    assert "SwivelGunFired" in types(evs)
    assert types(evs).index("SwivelGunFired") < types(evs).index("CombatRolled", types(evs).index("Boarded"))
    assert next(e.data for e in evs if e.type == "CombatWon")["seat"] == 1


def test_the_books_scouting_example():
    """A player meets another player and a merchant in one sea zone: his Scouting for the
    player fails; he may not look for that player again this turn, but may for the merchant."""
    t = battle(scout=None, sail=False)
    t.add("dice", [1, 2])                                   # Felipe's Scouting: no skull
    evs = t.act(1, {"action": "scout", "target": "player", "seat": 2})
    assert "CombatBegun" not in types(evs)
    legal = t.g.legal(1)
    assert {"action": "scout", "target": "player", "seat": 2} not in legal
    assert {"action": "scout", "target": "merchant"} in legal


def test_the_books_wanted_example_1():
    """A captain with no flags engages another with none (here Felipe, Spanish, engages
    Frances, English): he is wanted by her nation at once, before any die, and she fights
    back without a flag."""
    t = battle()
    t.add("dice", [1, 1, 1], [6, 6, 6], [5])                # round 1: Frances wins; her one hit: a skull
    evs = t.act(1, {"action": "scout", "target": "player", "seat": 2})
    flag = types(evs).index("WantedFlagGained")
    assert flag < types(evs).index("CombatRolled")
    assert t.p(1)["flags"] == {"england": 1} and t.p(2)["flags"] == {}
    assert t.state["combat"]["stage"] == "place" and t.g.to_act() == [1]
    t.act(1, {"action": "place_hit", "location": "cargo"})
    t.act(1, {"action": "no_reallocate"})
    assert t.p(1)["ship"]["cargo"] == 2
    assert t.p(2)["flags"] == {}                            # fighting back at a pirate costs nothing


def test_a_fight_neither_ship_can_win_ends_with_the_first_round():
    """Both ships without masts (Shoot only) and without cannons: nothing can happen; the
    fight ends (the book is silent; RULINGS.md)."""
    t = battle()
    for seat in (1, 2):
        t.p(seat)["ship"]["masts"] = t.p(seat)["ship"]["cannons"] = 0
    t.add("dice", [6], [6])                                 # one die each (no masts): a tie, no hits
    evs = t.act(1, {"action": "scout", "target": "player", "seat": 2})
    assert "CombatDrifted" in types(evs) and t.state["combat"] is None
    assert t.p(1)["captain"] and t.p(2)["captain"]


def test_random_fights_with_the_combat_cards_end_and_keep_every_glory_card():
    """Fights from the battle's set-up with random dice and random legal decisions (glory
    windows, rerolls of either side, Fast Learner, declines): every fight ends, every
    glory card is somewhere, each die rolled again is a die of the side named."""
    import random
    played = 0
    for seed in range(40):
        rng = random.Random(seed)
        t = battle(glory=["G18", "G17"], scout=None)
        scripted = t._value
        t._value = lambda spec, rng=rng, scripted=scripted: (
            [rng.randint(1, 6) for _ in range(spec["n"])] if spec["kind"] == "dice" else scripted(spec))
        t.add("dice", [6, 6])                                # he finds her
        t.act(1, {"action": "scout", "target": "player", "seat": 2})
        for _ in range(400):
            if t.state["combat"] is None:
                break
            seat = t.g.to_act()[0]
            for e in t.act(seat, rng.choice(t.g.legal(seat))):
                if e.type == "GloryDiceRerolled":
                    assert len(e.data["dice"]) in (2, 3) and set(e.data["which"]) <= set(range(len(e.data["dice"])))
                played += e.type == "GloryCardPlayed" and e.data["effect"] == "crew_roll"
        assert t.state["combat"] is None
        d = t.state["decks"]
        cards = d["glory"] + d["glory_discard"] + [c for p in t.state["players"] for c in p["hand"] + p["specialists"]]
        assert sorted(cards) == sorted(t.g.rules.card_names(t.state, "glory"))
    assert played >= 3                     # cards played in crew combat (4 with these seeds)


def test_what_the_other_captain_sees_does_not_depend_on_which_glory_card_is_held():
    """An attacker's view: Felipe watches Frances through a whole boarding and crew round
    while she holds the combat card or a card that does nothing in a fight, and passes.
    Everything Felipe may read (events, their data, versions, the window) is the same."""
    def seen(her_card):
        t = battle(glory=["G18", her_card])
        t.add("dice", [6, 6, 6], [1, 1, 1], [1, 1, 2])       # round 1: Felipe wins, three hits
        t.act(1, {"action": "scout", "target": "player", "seat": 2})
        t.act(1, {"action": "combat_action", "do": "board"})
        t.add("dice", [6, 1, 1], [1, 1, 1], [1, 1], [1, 1, 1])  # Felipe boards; crew round 1: no hit
        t.act(2, {"action": "combat_action", "do": "shoot"})
        assert t.state["combat"]["stage"] == "glory_announce"
        t.act(1, {"action": "glory_pass"})
        t.act(2, {"action": "glory_pass"})
        return [(e.type, e.data) for e in t.g.events if e.visible_to(1) and e.type != "GloryCardDealt"], \
            len(t.g.events), t.g.rules.view(t.state, 1)["players"]["2"]
    a, b = seen("G17"), seen("G01")
    assert sum(1 for ty, d in a[0] if ty == "GloryWindowOpened" and d["seats"] == [1, 2]) == 2   # both asked, twice
    assert a[0] == b[0] and a[1] == b[1] and a[2] == b[2]

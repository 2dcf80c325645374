"""An NPC's hunting tie (the book, "Movimento degli NPC", p. 13: players even on every
priority, "mescolando le carte dei Capitani coinvolti e pescandone una a caso"): from rules
version 6 one of the tied players' captain cards is drawn, a chance event the referee enters
as the card drawn; older games keep the draw among the seats they recorded."""

from .test_npcs import FRANCES, catalog, next_turn, start


def tied(t):
    for seat in (1, 2):
        p = t.p(seat)
        p["zone"], p["in_port"], p["flags"] = "bridgetown", False, {"england": 1}


def test_a_hunting_tie_is_settled_by_drawing_one_of_the_tied_captains_cards():
    cat = catalog(icons={"E29": [{"npc": "dutch_naval", "dir": "N"}]}, zones={"E10": "basse_terre"})
    t = start(["E10", "E21", "E29", "E23"], cat)
    assert t.state["draws_ties"]
    next_turn(t)
    tied(t)
    t.add("hunt_tie", FRANCES)                               # the card the referee turns over
    next_turn(t)
    drawn = [e.data for e in t.g.events if e.type == "CardDrawn" and e.data["deck"] == "hunt_tie"]
    assert len(drawn) == 1 and drawn[0]["card"] == FRANCES and drawn[0]["of"] == 2
    assert not [e for e in t.g.events if e.type == "ChanceChosen" and "hunts" in e.data["why"]]
    moved = [e.data for e in t.g.events if e.type == "NpcMoved"][-1]
    assert moved["hunting"] == [p["seat"] for p in t.state["players"] if p["captain"] == FRANCES][0]
    # at a table the referee names the card as printed; the log says the deck in words
    from service.aggregates.merchants_and_marauders.names import for_config

    assert t.g.rules.card_names(t.state, "hunt_tie")[FRANCES] == "Frances Wright"
    assert for_config(t.g.machine.config).deck("hunt_tie") == "the tied players' captain cards"


def test_games_before_rules_version_6_draw_among_the_seats():
    cat = catalog(icons={"E29": [{"npc": "dutch_naval", "dir": "N"}]}, zones={"E10": "basse_terre"})
    t = start(["E10", "E21", "E29", "E23"], cat)
    t.state["draws_ties"] = False                             # as a game of rules version 5
    next_turn(t)
    tied(t)
    next_turn(t)
    assert [e for e in t.g.events if e.type == "ChanceChosen" and "hunts" in e.data["why"]]
    assert not [e for e in t.g.events if e.type == "CardDrawn" and e.data["deck"] == "hunt_tie"]


def beat_the_dutch_ship_with_three_hits_on_its_hold(version_6):
    """test_npcs' naval plunder: three cargo cards found, three lost with the hold's three hits."""
    from service.aggregates.merchants_and_marauders.state import new_ship

    t = start(["E10", "E21", "E11", "E23", "E25", "E27"], catalog(zones={"E11": "havana"}))
    t.state["draws_ties"] = version_6
    for _ in range(3):
        next_turn(t)
    t.p(1)["ship"] = new_ship(t.state, "frigate")
    if t.g.to_act() != [1]:
        next_turn(t)
    t.act(1, {"action": "leave_port"})
    t.add("dice", [6, 1])
    t.add("dice", [6, 6, 6], [1, 1, 1], [1, 1, 1])
    t.act(1, {"action": "scout", "target": "npc", "npc": "dutch_naval"})
    t.act(1, {"action": "combat_action", "do": "board"})
    t.add("dice", [6, 1, 1], [1, 1, 1], [6, 6], [1, 1, 1], [6, 1], [1, 1, 1])
    t.add("cargo", "C01", "C02", "C03")
    evs = t.act(2, {"action": "combat_action", "do": "shoot"})
    picks = [e.data for e in evs if e.type == "ChanceChosen" and "lost with a hit" in e.data["why"]]
    return picks, [e.data["card"] for e in evs if e.type == "NpcCargoLost"]


def test_the_last_cargo_card_lost_is_no_draw():
    picks, lost = beat_the_dutch_ship_with_three_hits_on_its_hold(True)
    assert [len(p["options"]) for p in picks] == [3, 2]      # no draw among one card: the table knows it
    assert sorted(lost) == ["C01", "C02", "C03"]


def test_games_before_rules_version_6_draw_the_last_card_too():
    picks, lost = beat_the_dutch_ship_with_three_hits_on_its_hold(False)
    assert [len(p["options"]) for p in picks] == [3, 2, 1]
    assert sorted(lost) == ["C01", "C02", "C03"]

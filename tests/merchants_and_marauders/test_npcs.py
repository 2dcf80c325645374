"""NPC ships (the book: Entrata in gioco dei NPC, Movimento degli NPC, Cacciare i
capitani dei giocatori), driven in table mode: the book's NPC examples."""

import copy

from service.aggregates.merchants_and_marauders.catalog import load

from .helpers import Table, demand_order, end_turn_if_due

FELIPE, FRANCES = "felipe", "frances_wright"
QUIET = ["E19", "E21", "E23"]                   # event cards with no NPC and no icons


def catalog(icons=None, zones=None):
    cat = copy.deepcopy(load())
    for e in cat["events"]["value"]:
        if icons and e["id"] in icons:
            e["npc_icons"] = icons[e["id"]]
        if zones and e["id"] in zones:
            e["zone"] = zones[e["id"]]
    return cat


def start(events, cat=None, seats=2):
    base = {"demand_tiles": [demand_order({"havana": "sugar"})], "captains": [FELIPE, FRANCES, "frederico_da_silva"],
            "pick": [1], "events": list(events)}
    t = Table(seats, base, catalog=cat)
    for s in range(1, seats + 1):
        t.act(s, {"action": "choose_ship", "ship": "sloop"})
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
    cat = catalog(icons={"E19": [{"npc": "dutch_naval", "dir": "N"}]}, zones={"E10": "basse_terre"})
    t = start(["E10", "E21", "E19"], cat)
    next_turn(t)
    assert t.state["board"]["npcs"]["dutch_naval"]["zone"] == "basse_terre"
    at_sea(t, 2, "bridgetown", {"england": 1})
    next_turn(t)                                                          # E19: move the Dutch ship North
    moved = [e.data for e in t.g.events if e.type == "NpcMoved"][-1]
    assert moved["frm"] == "basse_terre" and moved["to"] == "bridgetown" and moved["hunting"] == 2


def test_without_prey_the_letter_and_then_clockwise():
    cat = catalog(icons={"E19": [{"npc": "dutch_naval", "dir": "N"}], "E21": [{"npc": "dutch_naval", "dir": "N"}]},
                  zones={"E10": "basse_terre"})
    t = start(["E10", "E23", "E19", "E21"], cat)
    next_turn(t)
    next_turn(t)                                                          # North from Basse-Terre: St. Maarten
    assert t.state["board"]["npcs"]["dutch_naval"]["zone"] == "st_maarten"
    next_turn(t)                                                          # no North border there: NE, then E
    moved = [e.data for e in t.g.events if e.type == "NpcMoved"][-1]
    assert moved["to"] == "st_john" and "clockwise" in moved["why"]


def test_the_books_second_hunting_example():
    """A French naval ship at Basse-Terre should move South; a captain with two Spanish flags
    is at Basse-Terre and one with Spanish, Dutch and English flags at Caracas: neither is
    wanted by France, both by others, the second more: it sails to Caracas."""
    cat = catalog(icons={"E19": [{"npc": "french_naval", "dir": "S"}]})
    t = start(["E09", "E21", "E19"], cat, seats=3)
    next_turn(t, 3)
    assert t.state["board"]["npcs"]["french_naval"]["zone"] == "basse_terre"
    at_sea(t, 1, "basse_terre", {"spain": 2})
    at_sea(t, 3, "caracas", {"spain": 1, "netherlands": 1, "england": 1})
    next_turn(t, 3)
    moved = [e.data for e in t.g.events if e.type == "NpcMoved"][-1]
    assert moved["to"] == "caracas" and moved["hunting"] == 3


def test_pirates_spare_pirates_and_hunt_the_richest_honest_captain():
    cat = catalog(icons={"E19": [{"npc": "pirate_sloop", "dir": "N"}]}, zones={"E13": "basse_terre"})
    t = start(["E13", "E21", "E19"], cat, seats=3)
    next_turn(t, 3)
    at_sea(t, 1, "bridgetown", {"spain": 1})                              # a pirate: spared
    at_sea(t, 2, "trinidad")                                               # honest, gold aboard
    t.p(3)["gold"] = 0
    at_sea(t, 3, "st_john")                                                # honest, nothing aboard
    next_turn(t, 3)
    moved = [e.data for e in t.g.events if e.type == "NpcMoved"][-1]
    assert moved["to"] == "trinidad" and moved["hunting"] == 2

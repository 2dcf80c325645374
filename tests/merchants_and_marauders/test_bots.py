"""The pirate and merchant bots (issue 34) in constructed positions: a pirate raids
what it can beat and runs from what it cannot; a raid's success is spent so that the
ship is not sunk; a merchant sails around a hunter. And a few seeded games: the
pirates' captains live."""

import random

from bench.strength import mm_table
from service.aggregates.merchants_and_marauders.bots import _beats
from service.aggregates.merchants_and_marauders.catalog import tables
from service.kernel.local import LocalGame
from service.kernel.games import get_rules
from service.kernel.sampling import copy_state

GAME = "merchants-and-marauders"
rules = get_rules(GAME)
pirate, merchant = rules.bots["pirate"], rules.bots["merchant"]


def turn_start(name: str, seed: int = 1):
    """A seeded 4-seat game of pirate and merchant bots, played to the first start of a
    turn (three actions, nothing under way) of a ``name`` bot at sea or in port."""
    g = LocalGame(GAME, 4, seed=f"bots-test:{seed}".encode().ljust(32, b"."))
    names = {1: "pirate", 2: "merchant", 3: "pirate", 4: "merchant"}
    rng = random.Random(seed)
    for _ in range(5000):
        seat = g.to_act()[0]
        st = g.state
        p = st["players"][seat - 1]
        if names[seat] == name and st["phase"] == "play" and st["actions"] == 3 and p["ship"] and \
                st.get("combat") is None and st.get("raid") is None and st["port"] is None and \
                st.get("turn_window") is None and st["turn"] > 2:
            return g, seat
        g.act(seat, rules.bots[names[seat]](st, seat, g.legal(seat), rng))
    raise AssertionError("no such turn")


def at_sea(state, seat, zone):
    p = state["players"][seat - 1]
    p.update(zone=zone, in_port=False)
    state["board"]["npcs"] = {}
    state["board"]["merchants"] = {z: None for z in state["board"]["merchants"]}
    return p


def choices(state, seat, bot, n=10):
    return [bot(state, seat, rules.legal(state, seat), random.Random(i)) for i in range(n)]


def test_the_pirate_never_sails_into_a_navy_that_hunts_it_and_would_sink_it():
    g, seat = turn_start("pirate")
    state = copy_state(g.state)
    p = at_sea(state, seat, "tortuga")
    p["flags"] = {"spain": 2}                                  # wanted: the Spanish navy hunts it
    state["board"]["merchants"]["havana"] = "M05"              # a merchant beyond the navy...
    state["board"]["npcs"]["spanish_naval"] = {"zone": "havana", "cards": ["E01"], "ship": "frigate"}
    picks = choices(state, seat, pirate)
    assert {"action": "move", "to": "havana"} not in picks
    # ... the same merchant with no navy there: it sails to it
    state["board"]["npcs"] = {}
    assert {"action": "move", "to": "havana"} in choices(state, seat, pirate)


def test_the_pirate_raids_a_merchant_it_meets_when_no_hunter_is_near():
    g, seat = turn_start("pirate")
    state = copy_state(g.state)
    p = at_sea(state, seat, "curacao")
    p["ship"].update(hull=3, masts=3, cargo=3, crew=3, cannons=3, type="frigate")
    state["board"]["merchants"]["curacao"] = "M08"
    assert choices(state, seat, pirate) == [{"action": "scout", "target": "merchant"}] * 10


def test_the_pirate_ends_its_turn_in_port_rather_than_next_to_a_hunter():
    g, seat = turn_start("pirate")
    state = copy_state(g.state)
    p = at_sea(state, seat, "tortuga")                         # French: a port it may enter
    state["actions"] = 1
    state["board"]["npcs"]["english_naval"] = {"zone": "havana", "cards": ["E04"], "ship": "frigate"}
    p["flags"] = {"england": 1}                                # hunted by the English navy next door
    assert {"action": "enter_port"} in rules.legal(state, seat)
    assert choices(state, seat, pirate) == [{"action": "enter_port"}] * 10


def test_the_pirate_fights_what_it_can_beat_a_merchant_flute_and_not_a_frigate():
    g, seat = turn_start("pirate")
    state = copy_state(g.state)
    p = at_sea(state, seat, "caracas")
    p["ship"].update(type="frigate", hull=3, masts=3, cargo=3, crew=3, cannons=3, upgrades=[])
    other = next(q for q in state["players"] if q["seat"] != seat and q["ship"] is not None)
    other.update(zone="caracas", in_port=False, cargo=["C01"], flags={})
    other["ship"].update(type="flute", hull=3, masts=3, cargo=4, crew=1, cannons=1, upgrades=[])
    scout = {"action": "scout", "target": "player", "seat": other["seat"]}
    assert scout in rules.legal(state, seat)
    assert scout in choices(state, seat, pirate)
    other["ship"].update(type="frigate", hull=3, masts=3, cargo=3, crew=3, cannons=3)
    p["ship"].update(type="sloop", hull=2, masts=2, cargo=2, crew=2, cannons=1)
    assert scout not in choices(state, seat, pirate)


def test_a_raid_success_is_spent_so_that_the_hull_is_not_sunk():
    g, seat = turn_start("pirate")
    state = copy_state(g.state)
    p = at_sea(state, seat, "curacao")
    S = tables(state)
    hull_hits = [c for c, info in S["cargo"].items() if info["icon"] == "hit:hull"][:2]
    rich = [c for c, info in S["cargo"].items() if info["icon"] == "escape" and info["raid"] == 4][:1]
    p["ship"].update(hull=2)
    state["raid"] = {"seat": seat, "zone": "curacao", "nation": "spain", "stage": "use", "left": 1,
                     "failures": 0, "cards": hull_hits + rich}
    legal = rules.legal(state, seat)
    d = pirate(state, seat, legal, random.Random(1))
    assert d in legal and d["action"] in ("raid_discard", "raid_swap") and d["card"] in hull_hits


def test_the_merchant_sails_around_a_pirate_that_hunts_it():
    g, seat = turn_start("merchant")
    state = copy_state(g.state)
    p = at_sea(state, seat, "petite_goave")
    p.update(cargo=[], gold=0, flags={})
    state["actions"] = 3
    state["board"]["npcs"]["pirate_frigate"] = {"zone": "tortuga", "cards": ["E16"], "ship": "frigate"}
    picks = choices(state, seat, merchant)
    assert {"action": "move", "to": "tortuga"} not in picks


def test_in_seeded_games_the_pirates_live_and_each_side_wins_some():
    r = mm_table(6, "tests")
    assert r["captains_lost_a_game"]["pirate"] <= 3.0
    assert r["wins"]["pirate"] > 0 and r["wins"]["merchant"] > 0


def test_in_a_fight_it_would_lose_the_pirate_flees():
    """Seeded games: whenever a pirate bot declares for its own ship against a ship that
    would sink it first (a navy's frigate against its sloop, say), it flees."""
    seen = 0
    for k in range(4):
        g = LocalGame(GAME, 4, seed=f"bots-flee:{k}".encode().ljust(32, b"."))
        rng = random.Random(k)
        names = {1: "pirate", 2: "merchant", 3: "pirate", 4: "merchant"}
        while not g.machine.finished:
            seat = g.to_act()[0]
            st, legal = g.state, g.legal(seat)
            d = rules.bots[names[seat]](st, seat, legal, rng)
            c = st.get("combat")
            if names[seat] == "pirate" and c is not None and c["waiting"] == seat and \
                    {"action": "combat_action", "do": "flee"} in legal:
                foe = c["d"] if c["a"] == seat else c["a"]
                if _beats(st, foe, seat, 1.0):
                    assert d == {"action": "combat_action", "do": "flee"}
                    seen += 1
            g.act(seat, d)
    assert seen >= 1

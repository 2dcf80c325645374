"""Card effects as data (effects.py): a hand-written card in the vocabulary does
exactly what it says when drawn or played; a catalog with an unknown word is
refused naming the card and the word."""

import copy
import json

import pytest

from service.aggregates.merchants_and_marauders.catalog import static
from service.aggregates.merchants_and_marauders.catalog_checks import load
from service.aggregates.merchants_and_marauders.rules import RULES
from service.kernel import BadInput

from .helpers import Table, demand_order, types

FELIPE, FRANCES = "felipe", "frances_wright"


def catalog_with(deck, card, effect):
    cat = copy.deepcopy(load())
    entry = next(c for c in cat[deck]["value"] if c["id"] == card)
    entry["effect"] = effect
    entry["note"] = "hand-written for the test"
    return cat


def start(cat, script):
    base = {"demand_tiles": [demand_order({"havana": "sugar"})], "captains": [FELIPE, FRANCES], "pick": [1]}
    base.update(script)
    t = Table(2, base, catalog=cat)
    t.act(1, {"action": "choose_ship", "ship": "sloop"})
    return t


def test_an_event_card_written_in_the_vocabulary_does_what_it_says():
    effect = {"timing": "immediate", "steps": [
        {"do": "gain_gold", "amount": 3, "who": "each"},
        {"do": "skill_test", "skill": "influence", "who": "active",
         "then": [{"do": "draw_glory"}], "else": [{"do": "place_flag", "nation": "spain"}]},
    ]}
    cat = catalog_with("events", "E01", effect)
    influence = static(cat)["captains"][FELIPE]["influence"]
    t = start(cat, {"events": ["E01"], "dice": [[1] * influence]})
    evs = t.act(2, {"action": "choose_ship", "ship": "sloop"})
    drawn = next(e for e in evs if e.type == "EventCardDrawn").data
    assert drawn["card"] == "E01" and drawn["effect"] == "immediate"
    assert t.p(1)["gold"] == t.p(2)["gold"] == 13            # 10 to start, 3 from the card
    tested = next(e for e in evs if e.type == "SkillTested").data
    assert tested["seat"] == 1 and tested["skill"] == "influence" and not tested["passed"]
    assert t.p(1)["flags"] == {"spain": 1} and t.p(2)["flags"] == {}
    assert len(t.p(1)["hand"]) == 1                           # the failure drew no glory card
    assert t.g.events[0].data["catalog"]["events"]["value"][0]["effect"] == effect   # the game records it


def test_an_each_turn_event_acts_at_every_players_turn_until_the_next_event():
    effect = {"timing": "each_turn", "steps": [{"do": "lose_gold", "amount": 2}]}
    cat = catalog_with("events", "E01", effect)
    t = start(cat, {"events": ["E01", "E02"]})
    t.act(2, {"action": "choose_ship", "ship": "sloop"})
    assert t.p(1)["gold"] == 8 and t.p(2)["gold"] == 10       # seat 1's turn has begun
    t.act(1, {"action": "end_turn"})
    assert t.p(2)["gold"] == 8
    t.act(2, {"action": "end_turn"})                          # turn 2: E02 replaces it
    assert t.p(1)["gold"] == 8 and t.state["event_in_play"] is None


def test_a_glory_card_written_in_the_vocabulary():
    effect = {"timing": "immediate", "steps": [{"do": "gain_gold", "amount": 5}, {"do": "damage", "location": "masts"}]}
    cat = catalog_with("glory_cards", "G43", effect)
    t = start(cat, {"glory": ["G43"]})
    t.act(2, {"action": "choose_ship", "ship": "sloop"})
    assert "G43" in t.p(1)["hand"]
    evs = t.act(1, {"action": "play_glory", "card": "G43"})
    assert t.p(1)["gold"] == 15 and t.p(1)["ship"]["masts"] == 1
    assert next(e for e in evs if e.type == "GloryCardPlayed").data["effect"] == "immediate"


@pytest.mark.parametrize("effect,word", [
    ({"timing": "immediate", "steps": [{"do": "summon_kraken"}]}, "summon_kraken"),
    ({"timing": "immediate", "steps": [{"do": "skill_test", "skill": "influence",
                                        "then": [{"do": "teleport"}]}]}, "teleport"),
    ({"timing": "sometimes", "steps": []}, "timing"),
    ({"timing": "immediate", "steps": [{"do": "place_flag", "nation": "portugal"}]}, "portugal"),
])
def test_a_bad_card_is_refused_naming_the_card_and_the_word(effect, word, tmp_path):
    cat = catalog_with("events", "E07", effect)
    with pytest.raises(BadInput, match="E07") as e:
        RULES.validate_catalog(cat)
    assert word in str(e.value)
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(cat))
    from service.catalogs import load_catalog_file
    with pytest.raises(BadInput, match="E07"):
        load_catalog_file("merchants-and-marauders", str(f))


def test_the_default_cards_say_their_text_is_not_known():
    """Every default card does nothing and says so, but the two the book's battle example
    describes ("Crew Combat Rerolls", "Fast Learner"), whose effects are the book's."""
    cat = load()
    acting = []
    for deck in ("events", "glory_cards"):
        for c in cat[deck]["value"]:
            if c.get("effect", "none") != "none":
                if c.get("effect_source") == "provisional":     # a provisional effect says so (the War cards)
                    assert "provisional" in c["note"], c["id"]
                else:
                    acting.append(c["name"])
                    assert c["source"] == "rulebook"
            else:
                assert "provisional" in c.get("note", "") or c.get("source")
    assert acting == ["Crew Combat Rerolls", "Fast Learner"]


def turn_card_catalog():
    """Two glory cards played in another player's turn (an organiser's printed texts):
    G20 "Customs Inspection": the player whose turn it is loses 2 gold; G21 "Fair Winds":
    its player gains 1 gold."""
    cat = copy.deepcopy(load())
    for cid, name, steps in (("G20", "Customs Inspection", [{"do": "lose_gold", "amount": 2, "who": "current"}]),
                             ("G21", "Fair Winds", [{"do": "gain_gold", "amount": 1}])):
        g = next(c for c in cat["glory_cards"]["value"] if c["id"] == cid)
        g.update(name=name, kind="other_turn", timing="other_turn", source="rulebook",
                 effect={"timing": "turn_start", "steps": steps})
    return cat


def test_a_glory_card_played_at_the_start_of_another_players_turn():
    """The book: announce it in the phase the card names without showing it; the others may
    announce too; the cards resolve in turn order from the player whose turn it is."""
    base = {"demand_tiles": [demand_order({"havana": "sugar"})], "captains": ["felipe", "frances_wright"],
            "pick": [1], "glory": ["G21", "G20"]}
    t = Table(2, base, catalog=turn_card_catalog())
    t.act(1, {"action": "choose_ship", "ship": "sloop"})
    evs = t.act(2, {"action": "choose_ship", "ship": "sloop"})
    opened = next(e.data for e in evs if e.type == "GloryWindowOpened")
    assert opened == {"phase": "turn_start", "seats": [1, 2]}          # seat 1's turn: seat 1 first
    assert t.g.to_act() == [1] and t.g.legal(1) == [{"action": "glory_announce"}, {"action": "glory_pass"}]
    t.act(1, {"action": "glory_pass"})
    evs = t.act(2, {"action": "glory_announce"})
    assert all("G20" not in str(e.data) for e in evs if e.visible_to(1))  # announced, not shown
    t.act(1, {"action": "glory_pass"})                                   # seat 1 may answer: it does not
    gold = t.p(1)["gold"]
    evs = t.act(2, {"action": "glory_play", "card": "G20"})
    assert next(e.data for e in evs if e.type == "GloryCardPlayed")["name"] == "Customs Inspection"
    assert gold - t.p(1)["gold"] == 2
    # a new round: only seat 1 holds a card; it announces Fair Winds, then declines it (shown)
    t.act(1, {"action": "glory_announce"})
    evs = t.act(1, {"action": "glory_decline", "card": "G21"})
    assert next(e for e in evs if e.type == "GloryDeclined").vis == "all" and t.p(1)["hand"] == ["G21"]
    assert "GloryWindowClosed" in types(evs)
    assert {"action": "leave_port"} in t.g.legal(1)                      # the turn goes on
    # with the default catalog no card is played at a turn's start: no window, nobody asked
    t2 = Table(2, dict(base, glory=["G01", "G02"]))
    t2.act(1, {"action": "choose_ship", "ship": "sloop"})
    evs = t2.act(2, {"action": "choose_ship", "ship": "sloop"})
    assert "GloryWindowOpened" not in types(evs) and {"action": "leave_port"} in t2.g.legal(1)


def test_a_combat_card_may_not_declare_war_or_peace():
    cat = copy.deepcopy(load())
    g = next(c for c in cat["glory_cards"]["value"] if c["id"] == "G19")
    g["effect"] = {"timing": "crew_roll", "steps": [{"do": "peace"}]}
    with pytest.raises(BadInput, match="G19.*war and peace"):
        from service.aggregates.merchants_and_marauders.catalog_checks import validate
        validate(cat)


def test_an_organisers_cards_in_stored_simulated_games_through_the_cli(cli, tmp_path):
    """`tools simulate --catalog`: every game plays the organiser's cards (glory cards at a
    turn's start and after the naval roll, printed here in the vocabulary), records the
    catalog, and audits clean."""
    from .test_combat import naval_card_catalog
    cat = turn_card_catalog()
    cat["glory_cards"]["value"] = [next(g for g in naval_card_catalog()["glory_cards"]["value"] if g["id"] == "G19")
                                   if g["id"] == "G19" else g for g in cat["glory_cards"]["value"]]
    path = tmp_path / "printed.json"
    path.write_text(json.dumps(cat))
    out = json.loads(cli.ok("simulate", "merchants-and-marauders", "--seats", "3", "--games", "2", "--seed", "org",
                            "--bot", "pirate", "--catalog", path, "--json"))
    for gid in out["game_ids"]:
        assert cli.json("status", gid)["finished"]
        log = cli.ok("log", gid)
        assert "glory cards may be played" in log
    p = cli.run("audit", "--all", "--json")
    assert p.returncode == 0 and all(r["ok"] for r in json.loads(p.stdout)), p.stdout
    bad = tmp_path / "bad.json"
    cat["glory_cards"]["value"][19]["effect"] = {"timing": "turn_start", "steps": [{"do": "walk_the_plank"}]}
    bad.write_text(json.dumps(cat))
    p = cli.run("simulate", "merchants-and-marauders", "--seats", "2", "--catalog", bad, "--in-memory")
    assert p.returncode != 0 and "walk_the_plank" in (p.stdout + p.stderr)


def test_every_effect_word_has_its_function_in_the_one_table():
    """The vocabulary is one table: a word is known only with its function, so a card
    naming a word without one is refused at load (above), never silently ignored."""
    from service.aggregates.merchants_and_marauders.effects import WORDS
    assert WORDS and all(callable(w.run) for w in WORDS.values())
    cat = catalog_with("events", "E07", {"timing": "immediate", "steps": [{"do": "gain_gold", "amount": 2}]})
    RULES.validate_catalog(cat)                         # a word of the table: accepted
    cat = catalog_with("events", "E07", {"timing": "immediate", "steps": [{"do": "gain_glory"}]})
    with pytest.raises(BadInput, match=r"card 'E07': unknown effect word 'gain_glory' \(known: gain_gold, "):
        RULES.validate_catalog(cat)


def test_an_action_handled_by_two_modules_is_refused():
    from service.aggregates.merchants_and_marauders.rules import one_table
    assert one_table({"a": 1}, {"b": 2}) == {"a": 1, "b": 2}
    with pytest.raises(RuntimeError, match="handled twice: \\['b'\\]"):
        one_table({"a": 1, "b": 2}, {"b": 3})


@pytest.mark.parametrize("timing", ["immediate", "each_turn", "end_of_turn"])
def test_a_card_that_sinks_ships_ends_a_turn_once(timing):
    """Event cards whose damage sinks every ship: a captain a card kills in his own turn
    ends it once the card is done; one killed between turns (a card drawn at a round's
    start, or acting at its end) draws his successor at his next turn. Every round then
    gives each seat one turn, in order, and the game plays to its end."""
    import random

    from service.kernel.local import LocalGame

    cat = copy.deepcopy(load())
    for e in cat["events"]["value"]:
        if "npc" not in e and e.get("effect", "none") == "none":
            e["effect"] = {"timing": timing, "steps": [{"do": "damage", "location": "hull", "who": "each"}] * 3
                           + [{"do": "gain_gold", "amount": 1, "who": "each"}]}
    for seed in (1, 2):
        g = LocalGame("merchants-and-marauders", 3, seed=bytes([seed]) * 32, catalog=cat)
        rng = random.Random(seed)
        while not g.machine.finished:
            seat = g.to_act()[0]
            g.act(seat, g.rules.bots["merchant"](g.state, seat, g.legal(seat), rng))
        types = [e.type for e in g.events]
        assert "CaptainDied" in types
        rounds, turns = [], None
        for e in g.events:
            if e.type == "TurnStarted":
                turns = []
                rounds.append(turns)
            elif e.type == "PlayerTurnStarted":
                turns.append(e.data["seat"])
        order = g.state["order"]
        assert all(t == order[:len(t)] for t in rounds), rounds     # one turn a seat, in order
        assert types.count("TurnStarted") == types.count("EventCardDrawn")

"""A game from a stated position (position.py, docs/positions.md): the book's worked
examples start where the book starts them, from a position file of a few lines, and run
at a table with the book's dice; impossible positions are refused, naming the problem;
what a position hides stays hidden from the other seats."""

import json
from pathlib import Path

import pytest

from service.kernel import BadInput
from service.kernel.local import LocalGame

from .helpers import GAME, Table, demand_order, types

POSITIONS = Path(__file__).resolve().parents[2] / "docs" / "positions"


def position(name):
    return json.loads((POSITIONS / f"merchants-and-marauders-{name}.json").read_text())


def test_the_example_files_are_at_most_five_lines():
    for name in ("battle", "raid"):
        assert len((POSITIONS / f"merchants-and-marauders-{name}.json").read_text().splitlines()) <= 5


def battle():
    t = Table(2, {"demand_tiles": [demand_order({"havana": "sugar"})]}, position=position("battle"))
    assert t.g.to_act() == [1] and t.state["actions"] == 3
    return t


def fight_the_books_battle(t):
    """The book's battle ("ESEMPIO DI BATTAGLIA") with its dice, from Felipe's scouting to
    Frances' victory in the crew combat (the rounds as tests/.../test_combat.py plays them
    after an 86-command prelude); returns the last step's events."""
    t.add("dice", [6, 1])                                   # Felipe's Scouting finds her
    # round 1: shoot only; Felipe skull-1-1, Frances skull-3-2; hits on cargo (1) and crew (3)
    t.add("dice", [6, 1, 1], [6, 3, 2], [1], [3])
    evs = t.act(1, {"action": "scout", "target": "player", "seat": 2})
    assert "CombatBegun" in types(evs)
    flag = next(e for e in evs if e.type == "WantedFlagGained").data
    assert flag["seat"] == 1 and flag["nation"] == "england"          # Frances was no pirate
    assert next(e for e in evs if e.type == "CombatRoundWon").data["seat"] == 2   # 5 against 2
    t.act(1, {"action": "reallocate", "frm": "crew", "to": "cargo"})  # Felipe's ability
    assert (t.p(1)["ship"]["cargo"], t.p(1)["ship"]["crew"], t.p(2)["ship"]["cargo"]) == (2, 3, 1)
    # round 2: shoot against flee; skull-1-3 against skull-4-1: Frances wins but cannot flee
    t.act(1, {"action": "combat_action", "do": "shoot"})
    t.add("dice", [6, 1, 3], [6, 4, 1], [4])
    evs = t.act(2, {"action": "combat_action", "do": "flee"})
    assert "CombatFled" not in types(evs) and t.p(2)["ship"]["cannons"] == 0
    # round 3: Felipe wins, three hits: 1 cargo, 4 cannons (-> hull), skull -> Chain Shot: masts
    t.act(1, {"action": "combat_action", "do": "shoot"})
    t.add("dice", [6, 2, 2], [3, 1, 4], [1, 4, 6])
    t.act(2, {"action": "combat_action", "do": "flee"})
    t.act(1, {"action": "special_shot", "kind": "chain_shot"})
    w = t.p(2)["ship"]
    assert (w["cargo"], w["cannons"], w["hull"], w["masts"]) == (0, 0, 1, 1)
    # round 4: shoot against board, Grappling Hooks rerolls; crew rounds as the book
    t.act(1, {"action": "combat_action", "do": "shoot"})
    t.add("dice", [6, 2, 4], [4, 1, 4])
    t.act(2, {"action": "combat_action", "do": "board"})
    t.add("dice", [5, 6, 2], [2], [6, 2], [6, 6, 6], [6, 6], [6, 1, 4])
    t.act(2, {"action": "reroll", "dice": [0, 1, 2]})
    for seat in (1, 2):
        t.act(seat, {"action": "glory_pass"})
    assert (t.p(1)["ship"]["crew"], t.p(2)["ship"]["crew"]) == (1, 1)
    t.act(1, {"action": "glory_pass"})
    t.act(2, {"action": "glory_announce"})
    t.act(1, {"action": "glory_pass"})
    t.act(2, {"action": "glory_play", "card": "G17"})          # "Crew Combat Rerolls"
    t.act(2, {"action": "glory_reroll", "dice": []})
    t.add("dice", [3, 1])
    t.act(2, {"action": "glory_reroll", "dice": [0, 1]})
    t.act(1, {"action": "glory_announce"})
    t.act(1, {"action": "glory_play", "card": "G18"})          # "Fast Learner"
    t.add("dice", [6, 2])
    t.act(1, {"action": "glory_reroll", "dice": [0, 1]})
    return t.act(1, {"action": "glory_reroll", "dice": []})


def test_the_books_battle_from_a_position_of_four_lines():
    t = battle()
    evs = fight_the_books_battle(t)
    assert next(e for e in evs if e.type == "CombatWon").data == {"seat": 2, "beaten": 1, "how": "crew combat"}
    bounty = next(e for e in evs if e.type == "GoldReceived" and e.data["why"] == "bounty").data
    assert bounty["by_nation"] == {"england": 5}
    # both played their glory card; Frances holds the one her win earned ("un punto e una carta")
    assert t.p(1)["hand"] == [] and len(t.p(2)["hand"]) == 1
    assert t.state["combat"]["stage"] == "claim" and t.g.to_act() == [2]
    # "Frances vince la battaglia": she leaves Felipe's Frigate; he died, his turn ends
    evs = t.act(2, {"action": "claim_ship", "claim": False})
    assert next(e for e in evs if e.type == "CombatEnded").data == {"winner": 2, "dead": [1]}
    assert t.state["combat"] is None and t.g.to_act() == [2]


RUM, COCOA_MASTS, TOBACCO_CANNONS, FOOD_CARGO = "C19", "C04", "C46", "C16"


def test_the_books_raid_from_a_position_of_three_lines():
    """Frederico da Silva's raid (Saccheggiare i mercanti, the example): he starts his turn
    at sea off Santo Domingo, sights a Spanish merchant, draws Rum, Cocoa (masts) and
    Tobacco (cannons), swaps the Tobacco with his one success for a card worth 5 (cargo):
    10 gold, no glory, and the Rum in his one hold left."""
    t = Table(2, {"demand_tiles": [demand_order({"havana": "sugar"})]}, position=position("raid"))
    assert t.g.to_act() == [1] and t.p(1)["zone"] == "santo_domingo" and not t.p(1)["in_port"]
    t.add("dice", [6, 1, 1])                    # Scouting 3: one skull
    t.add("merchant_tokens", "M01")             # the referee names the token turned over
    t.act(1, {"action": "scout", "target": "merchant"})
    assert t.g.legal(1) == [{"action": "raid", "nation": "spain"}, {"action": "let_go"}]
    t.add("cargo", RUM, COCOA_MASTS, TOBACCO_CANNONS)
    t.add("dice", [5, 2, 1])                    # Seamanship 3: one success
    t.act(1, {"action": "raid", "nation": "spain"})
    t.add("cargo", FOOD_CARGO)
    evs = t.act(1, {"action": "raid_swap", "card": TOBACCO_CANNONS})
    assert sorted(e.data["location"] for e in evs if e.type == "ShipHit") == ["cargo", "masts"]
    won = next(e for e in evs if e.type == "RaidSucceeded").data
    assert won["loot"] == 10 and won["escapes"] == 1 and won["maneuver"] == 4
    assert "GloryGained" not in types(evs)                   # 12 gold were needed
    evs = t.act(1, {"action": "raid_take", "card": RUM})
    assert "RaidEnded" in types(evs)
    p = t.p(1)
    assert p["gold"] == 20 and p["cargo"] == [RUM] and p["flags"] == {"spain": 1}


def test_the_books_battle_from_a_position_ends_with_frances_at_one_glory():
    t = battle()
    fight_the_books_battle(t)
    assert t.p(2)["glory"] == 1


# impossible positions -------------------------------------------------------------------

def two(first=None, second=None, **top):
    """A two-seat position: Felipe and Frances Wright, with the fields given."""
    return {"players": [{"captain": "Felipe", **(first or {})}, {"captain": "Frances Wright", **(second or {})}],
            **top}


@pytest.mark.parametrize("pos,said", [
    (two({"glory_cards": ["Fast Learner", "Fast Learner"]}),
     "Felipe)'s glory cards: 'Fast Learner' stated more times than the game has copies (1)"),
    (two({"glory_cards": ["Fast Learner"]}, {"glory_cards": ["fast learner"]}),
     "seat 2 (Frances Wright)'s glory cards: 'fast learner' stated more times than the game has copies (1)"),
    (two({"cargo": ["C19"]}, {"cargo": ["C19"]}), "'C19' stated more times than the game has copies (1)"),
    (two({"gold": 300}, {"gold": 200, "stash": 20}),
     "counts not conserved: 520 gold stated (on board and stashed), the game has 510 coins"),
    (two(None, {"captain": "felipe"}), "captain Felipe (surname unknown) is stated twice (seats 1 and 2)"),
    (two({"ship": "Man-o-War"}), "a player cannot sail a Man-o-War"),
    (two({"ship": "Galleon", "upgrades": ["Long Guns", "long_range"]}), "two Long Guns tiles on one ship"),
    (two({"weapons": ["Chain Shot", "chain shot"]}), "chain shot twice"),
    (two({"hits": {"hull": 2}}), "seat 1 (Felipe)'s hits on hull must be a whole number from 0 to 1"),
    (two({"sea": "Port Royal", "cargo": 3}), "3 cargo cards at sea in a hold of 2"),
    (two({"glory_cards": 5}), "5 glory cards; at most 4 in hand"),
    (two({"glory": 10}), "glory must be a whole number from 0 to 9"),
    (two({"port": "Caribbean Sea"}), "port: no 'Caribbean Sea'"),
    (two({"ship": "Canoe"}), "ship: no 'Canoe' (known: Flute, Frigate, Galleon, Man-o-War, Sloop)"),
    (two({"flags": {"Prussia": 1}}), "wanted flags: no 'Prussia'"),
    (two({"shipp": "Sloop"}), "seat 1: unknown 'shipp'"),
    (two(to_play="Pepijn"), "to_play: no 'Pepijn'"),
    ({"players": [{"captain": "Felipe"}]}, "the position describes 1 players"),
])
def test_an_impossible_position_is_refused_naming_the_problem(pos, said):
    with pytest.raises(BadInput) as refused:
        LocalGame(GAME, 2, table=True, position=pos)
    assert said in refused.value.reason


def test_upgrade_tiles_are_counted_across_ships():
    pos = {"players": [{"captain": c, "upgrades": ["Better Rigging"]} for c in
                       ("Felipe", "Frances Wright", "Frederico da Silva")]}
    with pytest.raises(BadInput, match="no Advanced Rigs & Sails tile left: the game has 2"):
        LocalGame(GAME, 3, position=pos)


# what a position hides -------------------------------------------------------------------

def seen_by(g, seat):
    return [e.as_tuple() for e in g.events if e.visible_to(seat)]


def test_a_hand_and_gold_a_position_states_are_seen_by_their_seat_alone():
    """Seat 2 attacks: two games whose positions differ only in seat 1's hidden glory card
    and gold give seat 2 the same events, numbering and view; GameCreated (read by every
    seat) holds neither; seat 1 sees its own."""
    seed = b"s" * 32
    games = [LocalGame(GAME, 2, seed=seed, position=two({"glory_cards": [card], "gold": gold}, {"glory_cards": 1}))
             for card, gold in (("Fast Learner", 12), ("Carpenter", 37))]
    for g in games:
        assert g.events[0].type == "GameCreated" and g.events[0].vis == "all"
        created = str(g.events[0].data["position"])
        assert "G18" not in created and "G01" not in created and "37" not in created
    a, b = games
    assert seen_by(a, 2) == seen_by(b, 2) and seen_by(a, 0) == seen_by(b, 0)
    assert a.rules.view(a.state, 2) == b.rules.view(b.state, 2)
    assert a.machine.seen(2, len(a.events)) == b.machine.seen(2, len(b.events))
    assert seen_by(a, 1) != seen_by(b, 1)
    assert a.state["players"][0]["hand"] == ["G18"] and b.state["players"][0]["hand"] == ["G01"]
    assert (a.state["players"][0]["gold"], b.state["players"][0]["gold"]) == (12, 37)
    assert a.rules.view(a.state, 1)["players"]["1"]["gold"] == 12 and "gold" not in a.rules.view(a.state, 2)["players"]["1"]
    # the card only counted for seat 2 is dealt by the seed, seen by seat 2 alone
    dealt = [e for e in a.events if e.type == "GloryCardDealt" and e.data["seat"] == 2]
    assert len(dealt) == 1 and dealt[0].vis == [2]

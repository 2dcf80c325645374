"""The ``captain`` bot (issue 34): a privateer who bluffs, in situations built at a
table from the book's preliminary example (red 4, blue 3, green 5, yellow 7)."""

import random

from service.kernel.local import LocalGame
from service.kernel.games import get_rules
from service.kernel.sampling import copy_state

RED, BLUE, GREEN, YELLOW = 1, 2, 3, 4
captain = get_rules("letter-of-marque").bots["captain"]


def drawn(cards=(4, 3, 5, 7)) -> LocalGame:
    g = LocalGame("letter-of-marque", 4, table=True)
    for card in cards:
        g.enter(card)
    return g


def placed(armed: dict) -> LocalGame:
    g = drawn()
    for seat in (RED, BLUE, GREEN, YELLOW):
        g.act(seat, {"action": "place", "armed": armed[seat]})
    return g


def _choices(g, seat, n=300):
    return [captain(g.state, seat, g.legal(seat), random.Random(i)) for i in range(n)]


def test_the_captain_guards_its_rich_treasure_and_bluffs_one_time_in_three():
    g = drawn()
    on_seven = _choices(g, YELLOW)          # yellow drew its best card, a 7
    on_three = _choices(g, BLUE)            # blue drew its poorest, a 3
    unarmed_seven = sum(not d["armed"] for d in on_seven) / len(on_seven)
    armed_three = sum(d["armed"] for d in on_three) / len(on_three)
    assert 0.2 < unarmed_seven < 0.45       # mostly armed, as the book's yellow; a bold bluff sometimes
    assert 0.2 < armed_three < 0.45         # mostly unarmed; bait sometimes


def test_a_poor_unarmed_ship_is_sometimes_left_at_sea_as_if_it_were_guarded():
    # blue (to play) sent its 3 unarmed and its deck still has cards; the others hold cannon
    # cards, and their ships are known armed (a constructed table: no attack is worth it)
    g = placed({RED: True, BLUE: False, GREEN: True, YELLOW: True})
    assert g.to_act() == [BLUE]
    state = copy_state(g.state)
    for ship in state["sea"]:
        ship["revealed"] = ship["owner"] != BLUE
    picks = [captain(state, BLUE, g.legal(BLUE), random.Random(i)) for i in range(300)]
    returned = sum(d == {"action": "return", "ship": "blue-1"} for d in picks) / len(picks)
    launched = sum(d == {"action": "launch"} for d in picks) / len(picks)
    assert returned + launched == 1.0
    assert 0.2 < launched < 0.45            # the bluff: it launches, its poor ship left at sea


def test_the_captain_never_attacks_a_ship_revealed_armed_and_plunders_a_revealed_unarmed_one():
    g = placed({RED: True, BLUE: False, GREEN: False, YELLOW: True})
    g.act(BLUE, {"action": "attack", "ship": "red-1"})      # repelled: red-1 shown armed
    seat = g.to_act()[0]
    assert seat == GREEN
    picks = _choices(g, GREEN, 50)
    assert {"action": "attack", "ship": "red-1"} not in picks
    # with a ship shown unarmed at sea (a constructed table), green takes it at once
    state = copy_state(g.state)
    yellow = next(s for s in state["sea"] if s["id"] == "yellow-1")
    yellow.update(armed=False, revealed=True)
    assert all(captain(state, GREEN, g.legal(GREEN), random.Random(i)) == {"action": "attack", "ship": "yellow-1"}
               for i in range(20))


def test_the_captain_beats_the_random_bot():
    rules = get_rules("letter-of-marque")
    won = 0
    for i in range(40):
        me = 1 + i % 2
        g = LocalGame("letter-of-marque", 2, seed=f"lom-bots:{i}".encode().ljust(32, b"."))
        rng = random.Random(i)
        while not g.machine.finished:
            seat = g.to_act()[0]
            bot = rules.bots["captain" if seat == me else "random"]
            g.act(seat, bot(g.state, seat, g.legal(seat), rng))
        won += me in g.machine.k["result"]["winners"]
    assert won >= 26

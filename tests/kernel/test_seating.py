"""A bot per seat (``tools simulate --bot 1=pirate --bot 2=merchant``)."""

import random

import pytest

from service.kernel.errors import BadInput
from service.kernel.local import LocalGame
from service.kernel.games import get_rules
from service.kernel.seating import choosers, parse_bots


def _events(bot, seed=3):
    g = LocalGame("loot", 3, seed=b"s" * 32)
    g.play_out(random.Random(seed), bot=bot)
    return [(e.type, e.data) for e in g.events]


def test_parse_gives_every_seat_and_named_seats():
    assert parse_bots(None) == {0: "random"}
    assert parse_bots("greedy") == {0: "greedy"}
    assert parse_bots(["2=greedy"]) == {0: "random", 2: "greedy"}
    assert parse_bots(["1=pirate", "merchant"]) == {0: "merchant", 1: "pirate"}
    with pytest.raises(BadInput, match="twice"):
        parse_bots(["1=greedy", "1=random"])
    with pytest.raises(BadInput, match="SEAT=BOT"):
        parse_bots(["first=greedy"])


def test_each_seat_gets_its_bot():
    rules = get_rules("merchants-and-marauders")
    seats = choosers(rules, ["1=pirate", "3=pirate", "merchant"], 4)
    assert seats[1:] == [rules.bots["pirate"], rules.bots["merchant"], rules.bots["pirate"], rules.bots["merchant"]]
    with pytest.raises(BadInput, match="seats 1 to 4"):
        choosers(rules, ["5=pirate"], 4)
    with pytest.raises(BadInput, match="no bot 'greedy'"):
        choosers(rules, ["2=greedy"], 4)


def test_naming_every_seat_is_the_same_game_as_one_bot_for_all():
    assert _events({1: "greedy", 2: "greedy", 3: "greedy"}) == _events("greedy")


def test_a_mixed_table_plays_differently_from_either_bot_alone():
    mixed = [_events(["1=greedy"], seed) for seed in range(4)]
    assert any(m != _events("greedy", seed) for seed, m in enumerate(mixed))
    assert any(m != _events("random", seed) for seed, m in enumerate(mixed))


def test_simulate_stores_a_mixed_table(cli):
    out = cli.json("simulate", "merchants-and-marauders", "--seats", "4", "--bot", "1=pirate",
                   "--bot", "2=pirate", "--bot", "merchant", "--seed", "mixed")
    assert out["games"] == 1 and out["decisions"] > 0
    status = cli.json("status", out["game_ids"][0])
    assert status["finished"] is True


def test_a_chooser_given_itself_plays_every_seat():
    """A search's rollout bot is a chooser, not a name: ``play_out`` seats it everywhere."""
    seen: set[int] = set()

    def first(state, seat, legal, rng):
        seen.add(seat)
        return legal[0]

    g = LocalGame("loot", 3, seed=b"chooser".ljust(32, b"."))
    g.play_out(random.Random(1), bot=first, keep=False)
    assert g.machine.finished and seen == {1, 2, 3}

"""The ismcts bot is seated in every game by name, per seat, and a seeded game
with it is played the same way again."""

from __future__ import annotations

import random

import pytest

from service.kernel.errors import BadInput
from service.kernel.local import LocalGame
from service.kernel.machine import same_events
from service.kernel.games import get_rules
from service.kernel.seating import choosers


def _played(seed: bytes):
    g = LocalGame("letter-of-marque", 2, seed=seed)
    g.play_out(random.Random(seed), {1: "ismcts"})
    return g


def test_a_seeded_game_with_the_ismcts_bot_is_played_the_same_again():
    a, b = _played(b"s" * 32), _played(b"s" * 32)
    assert a.machine.finished and same_events(a.events, b.events)
    c = _played(b"t" * 32)
    assert not same_events(a.events, c.events)


@pytest.mark.parametrize("game", ["letter-of-marque", "loot", "kaisers-pirates", "merchants-and-marauders"])
def test_every_game_seats_the_ismcts_bot(game):
    rules = get_rules(game)
    seated = choosers(rules, ["1=ismcts"], 2)
    assert seated[1].__name__ == "ismcts_bot" and seated[2] is rules.bots["random"]
    with pytest.raises(BadInput, match="ismcts"):
        choosers(rules, ["1=nobody"], 2)


def test_tools_simulate_seats_the_ismcts_bot(cli):
    out = cli.ok("simulate", "loot", "--seats", "2", "--games", "1", "--seed", "3", "--bot", "1=ismcts",
                 "--bot", "2=greedy", "--in-memory")
    assert "1 games" in out

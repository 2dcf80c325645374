"""Letter of Marque in the game's words, not the engine's (issue 45): the log as the
referee, the public and each seat read it, the table (``tools replay``'s text) and every
decision a seat is offered say a ship by its colour and the order it was launched in
(``red ship 2``), never by its id (``red-2``, ``treasure:red``)."""

from __future__ import annotations

import re

import pytest

from service.kernel.events import Ev
from service.kernel.games import get_rules
from service.views import describe
from tests.words_check import offending, play

rules = get_rules("letter-of-marque")

BANNED = ("from treasure:", "preliminary turn started", "players seated", "colours (")
IDS = re.compile(r"\b(?:red|blue|green|yellow|black|white|purple|orange)-\d+\b")


def _say(type_: str, **data) -> str:
    return describe(rules, Ev(type_, 5, "all", data))


@pytest.fixture(scope="module", params=[(3, "lom-words-3"), (6, "lom-words-6")], ids=["3-seats", "6-seats"])
def read(request):
    seats, seed = request.param
    return play("letter-of-marque", seats, seed)[1]


def test_no_id_nor_bookkeeping_word_in_what_a_person_reads(read):
    texts = read.log + read.tables + read.labels
    assert not offending(texts, BANNED)[:5]
    assert not [(w, t) for w, t in texts if IDS.search(t)][:5]


def test_the_lines_say_the_ships():
    assert _say("ShipLaunched", seat=1, ship="red-1", treasure=3) == "seat 1 puts red ship 1 to sea on a treasure worth 3"
    assert _say("ShipAttacked", attacker=2, defender=3, ship="green-1") == \
        "seat 2 attacks seat 3's green ship 1 with a cannon card"
    assert _say("ShipRevealed", ship="green-1", armed=True) == "green ship 1 is revealed: armed"
    assert _say("TreasurePlundered", attacker=1, defender=2, ship="blue-1", treasure=5) == \
        "seat 1 plunders blue ship 1: treasure worth 5 taken, ship removed"
    assert _say("PlayersSeated", colours={"1": "red", "2": "blue"}) == "the players take their colours: seat 1 red, seat 2 blue"
    assert _say("CardDrawn", deck="treasure:red", card=3, why="seat 1's first treasure") == \
        "seat 1's first treasure: a treasure worth 3"

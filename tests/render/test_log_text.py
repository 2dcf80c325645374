"""The log in words (service/views.py ``describe`` and each game's ``describe``):
a referee who is not a programmer reads every line of whole games, so no line
prints ``None``, ``True``/``False``, a list of text in quotes or a dict in braces, as
Python or JSON writes them."""

from __future__ import annotations

import random

import pytest

from service.kernel.local import LocalGame
from service.views import describe

GAMES = [("letter-of-marque", 3, {}), ("loot", 4, {}), ("kaisers-pirates", 3, {}),
         ("kaisers-pirates", 4, {"team": "true", "torpedo_prizes": "true", "shallow_pursuit": "true"}),
         ("kaisers-pirates", 1, {}), ("merchants-and-marauders", 3, {})]
PYTHON = ("None", "True", "False", "['", '["', "{", "}")


@pytest.mark.parametrize("game,seats,options", GAMES)
def test_every_log_line_reads_as_words(game, seats, options):
    lines = {}
    for seed in (b"a", b"b", b"c"):
        g = LocalGame(game, seats, options=options, seed=seed * 32)
        g.play_out(random.Random(seed))
        for e in g.events:
            lines.setdefault(e.type, set()).add(describe(g.rules, e))
    assert "GameFinished" in lines
    for t, texts in lines.items():
        for text in texts:
            assert not any(p in text for p in PYTHON), (t, text)


def test_the_end_of_a_game_names_the_winners_and_each_seats_score():
    g = LocalGame("loot", 3, seed=b"w" * 32)
    g.play_out(random.Random(1))
    end = g.events[-1]
    text = describe(g.rules, end)
    winners = end.data["winners"]
    assert text.startswith(f"game finished: seat {winners[0]} win")
    for seat, n in end.data["scores"].items():
        assert f"seat {seat} {n}" in text

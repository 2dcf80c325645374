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


def test_cards_drawn_read_as_printed_not_by_their_ids():
    """Merchants & Marauders' card ids (C28, captain_12, G44) say nothing to a referee:
    the log names each card as printed, from the game's own catalog ("a sugar cargo card
    (raid 2)", "captain card 12"); a seat's log names only the cards it may see drawn."""
    from service.aggregates.merchants_and_marauders.names import for_config
    from service.views import card_namer, log_entries

    g = LocalGame("merchants-and-marauders", 3, seed=b"n" * 32)
    g.play_out(random.Random(3))
    m = g.machine
    N = for_config(m.config)
    referee = log_entries(m.rules, _stored(g), None, names=card_namer(m))
    drawn = [(e, x) for e, x in zip(g.events, referee) if e.type == "CardDrawn"]
    decks = {e.data["deck"] for e, _ in drawn}
    assert {"cargo", "captains", "glory", "events"} <= decks
    for e, x in drawn:
        assert x["text"].startswith(f"drew {N.drawn(e.data['deck'], e.data['card'])} from {N.deck(e.data['deck'])} (")
        assert e.data["card"] not in x["text"]
    cargo = next(e for e, _ in drawn if e.data["deck"] == "cargo")
    good = m.rules.card_names(m.s, "cargo")[cargo.data["card"]]
    line = f"drew a {good} cargo card (raid "
    assert good in {"rum", "sugar", "spices", "tobacco", "cocoa", "food", "textiles", "wood"}
    seat = cargo.vis[0]
    mine = log_entries(m.rules, _stored(g), seat, names=card_namer(m))
    other = log_entries(m.rules, _stored(g), 1 + seat % 3, names=card_namer(m))
    assert any(x["text"].startswith(line) and x["data"]["why"] == cargo.data["why"] for x in mine)
    assert not any(x["type"] == "CardDrawn" and x["data"] == {k: cargo.data[k] for k in x["data"]} for x in other)


def _stored(g):
    """``g``'s events as the store gives them to ``log_entries``."""
    from types import SimpleNamespace

    return [SimpleNamespace(type=e.type, turn=e.turn, visible_to=e.vis, data=e.data, originator_version=v,
                            timestamp="2026-01-01T00:00:00+00:00")
            for v, e in enumerate(g.events, 1)]

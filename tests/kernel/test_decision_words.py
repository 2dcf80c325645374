"""Every decision a seat may choose reads in the game's own words: over a whole
seeded game of each game, every listed decision gets a short text with no JSON
left in it and no card, ship or port id where something else is printed."""

from __future__ import annotations

import random
import re

import pytest

from service.aggregates.kaisers_pirates.catalog import Index
from service.kernel.local import LocalGame
from service.render.loot import card as loot_card

GAMES = [("letter-of-marque", 4, {}), ("loot", 4, {"pairs": "true"}), ("kaisers-pirates", 4, {}),
         ("merchants-and-marauders", 3, {})]


def printed(game: str, machine) -> dict:
    """Ids -> what is printed on the card, ship or board, from the game's own data."""
    cfg = machine.config
    if game == "loot":
        from service.aggregates.loot.cards import build_deck

        return {c: loot_card(c) for c in build_deck(cfg["catalog"])}
    if game == "kaisers-pirates":
        ix = Index(cfg["catalog"])
        return {**ix.card_name, **{s: v["name"] for s, v in ix.ships.items()},
                **{m: v["name"] for m, v in ix.merchants.items()}}
    if game == "merchants-and-marauders":
        out = {}
        for deck in ("cargo", "captains", "glory", "events", "rumors", "missions", "upgrades"):
            out.update(machine.rules.card_names(machine.s, deck) or {})
        cat = cfg["catalog"]
        out.update({z["id"]: z["name"] for z in cat["zones"]["value"]})
        out.update({t: s["name"] for t, s in cat["ships"]["value"].items()})
        return out
    return {}  # Letter of Marque: a ship at sea is its colour and number (``red-2``)


def strings(v):
    if isinstance(v, str):
        yield v
    elif isinstance(v, list):
        for x in v:
            yield from strings(x)
    elif isinstance(v, dict):
        for x in v.values():
            yield from strings(x)


@pytest.mark.parametrize("game,seats,options", GAMES, ids=[g[0] for g in GAMES])
def test_every_listed_decision_is_said_in_the_games_words(game, seats, options):
    g = LocalGame(game, seats, options, seed=bytes([7]) * 32)
    m = g.machine
    names = printed(game, m)
    choose = g.rules.bots["random"]
    rng = random.Random(7)
    said: dict[str, str] = {}
    steps = 0
    while not m.finished:
        for seat in m.to_act():
            for d in m.legal(seat):
                text = g.rules.say_decision(m.config, d)
                assert text and "{" not in text and "}" not in text and '"' not in text, (d, text)
                assert "_" not in text, (d, text)  # no identifier left as written in the data
                for v in strings({k: x for k, x in d.items() if k != "action"}):
                    if game == "letter-of-marque" or (v in names and names[v].lower() != v.lower()):
                        assert not re.search(rf"(?<![\w-]){re.escape(v)}(?![\w-])", text), (d, text)
                said[text] = d["action"]
        seat = m.to_act()[0]
        g.act(seat, choose(m.s, seat, m.legal(seat), rng))
        steps += 1
    assert steps > 20 and len(said) > 10
    assert len(set(said.values())) >= (5 if game != "loot" else 6)

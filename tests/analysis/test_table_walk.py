"""Issue 42: `tools analyse` answers at every step of a table game of each of the
four games started from a position, and the bots seated at a table decide there.

At a table the cards nobody has seen are unknown tokens (``?deck#n``); the search
plays out states its game's sampler draws, so a token left in one, or one put where
a card should be, reached the rules or a bot as a card (a ``KeyError`` in Kaiser's
Pirates' windows.py and in Merchants & Marauders' port.py, a 500 from
``GET /analysis``). Each game is walked to its end through the store, as `tools
analyse` reads it (``analyse_stored``), with few playouts and a fixed seed; at every
decision each seat to act is analysed and each of the game's bots (its heuristic
ones, and the ismcts bot with one playout) chooses for it through the service's path
(``service.http.bots.choose``, which plays at random, and logs, when a bot fails: a
seated ismcts bot did so at every decision of these games)."""

from __future__ import annotations

import logging
import random

import pytest

from service.analyse import analyse_stored
from service.analysis.bot import bot_for
from service.app import Privateer
from service.http.bots import choose
from service.kernel.games import get_rules

from .positions import TABLE_POSITIONS, entered_at_random, unknown_tokens

PLAYOUTS = 1


@pytest.mark.parametrize("game", TABLE_POSITIONS)
def test_tools_analyse_answers_at_every_step_of_a_table_game_from_a_position(game, tmp_path, caplog):
    seats, options, position = TABLE_POSITIONS[game]
    db = str(tmp_path / "table.db")
    app = Privateer(db)
    gid = app.create(game, seats, options=options, table=True, position=position)
    rules = get_rules(game)
    bots = [rules.bots[name] for name in rules.bots if name != "random"] + [bot_for(rules, playouts=1)]
    rng = random.Random(2)
    asked = with_tokens = 0
    caplog.set_level(logging.WARNING, logger="service.http.bots")
    while True:
        m = app.load(gid).machine
        if m.finished:
            break
        if m.awaiting_chance() is not None:
            app.enter_chance(gid, entered_at_random(m, rng))
            continue
        with_tokens += bool(unknown_tokens(m.state))
        for seat in m.to_act():
            legal = m.legal(seat)
            a = analyse_stored(db, str(gid), seat, playouts=PLAYOUTS, seed="1")
            assert a["seat"] == seat and [d["decision"] for d in a["decisions"]] == m.offered(seat)
            assert sum(d["playouts"] for d in a["decisions"]) == PLAYOUTS
            for d in a["decisions"]:
                if d["playouts"]:
                    assert 0.0 <= d["win_rate"] <= 1.0
            for bot in bots:
                assert choose(rules, m.state, seat, legal, bot, random.Random(asked)) in legal
            asked += 1
        seat = m.to_act()[0]
        app.act(gid, seat, rng.choice(m.legal(seat)))
    assert not [r for r in caplog.records if r.name == "service.http.bots"]  # no bot failed to choose
    assert asked >= 15
    if game in ("kaisers-pirates", "merchants-and-marauders"):
        assert with_tokens >= asked // 2  # the walk met the table's unknown cards (set aside; tiles, tokens)

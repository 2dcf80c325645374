"""The table in words (service/render): every game renders at several points,
for the referee and for each seat, within 80 columns; and what is hidden from a
seat cannot change its text (non-interference: change the hidden part of the
referee's state, the seat's text stays the same, while the referee's changes)."""

from __future__ import annotations

import random
from uuid import uuid4

import pytest

from service.kernel.local import LocalGame
from service.render import board_text
from service.render.table import to_text
from service.views import board

GAMES = [("letter-of-marque", 3), ("loot", 4), ("kaisers-pirates", 2), ("merchants-and-marauders", 3)]


def played(game, seats, steps, seed):
    g = LocalGame(game, seats, seed=seed * 32)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.machine.finished:
            break
        s = g.to_act()[0]
        g.act(s, rng.choice(g.legal(s)))
    return g


def text(machine, seat, names=None):
    cfg = dict(machine.config, players=names or {})
    return to_text(board_text(board(uuid4(), machine, 100, seat), cfg))


@pytest.mark.parametrize("game,seats", GAMES)
def test_every_viewer_gets_a_table_within_80_columns(game, seats):
    for steps in (0, 15, 60, 2000):
        g = played(game, seats, steps, b"r")
        names = {"1": "Ada", "2": "Bo"}
        for seat in [None] + list(range(1, seats + 1)):
            out = text(g.machine, seat, names)
            assert max(len(line) for line in out.splitlines()) <= 80, (game, steps, seat)
            assert "seat 1 (Ada)" in out and "seat 2 (Bo)" in out
            assert ("the referee" if seat is None else f"seat {seat}") in out.splitlines()[0]
        if g.machine.finished:
            assert "Finished. Won by" in text(g.machine, None)


def _hidden_change(game, state, other):
    """Change what ``other`` holds that another seat may not see; False if nothing is hidden now."""
    if game == "letter-of-marque":
        ships = [s for s in state["sea"] if s["owner"] == other and not s.get("revealed")]
        for s in ships:
            s["armed"] = not s["armed"]
        return bool(ships)
    if game == "loot":
        hand, pile = state["hands"][other - 1], state["pile"]
        if not hand or not pile:
            return False
        hand[0], pile[0] = pile[0], hand[0]
        return hand[0] != pile[0]
    if game == "kaisers-pirates":
        hand = state["players"][other - 1]["hand"]
        pool = [c for c in state["pool"] if c not in hand] if isinstance(state.get("pool"), list) else []
        if not hand or not pool:
            return False
        hand[0] = pool[0]
        return True
    if game == "merchants-and-marauders":
        state["players"][other - 1]["gold"] += 7
        return True
    raise AssertionError(game)


@pytest.mark.parametrize("game,seats", GAMES)
def test_what_a_seat_may_not_see_cannot_change_its_text(game, seats):
    checked = 0
    for steps in (3, 10, 20, 40, 120):
        g = played(game, seats, steps, b"h")
        for seat in range(1, seats + 1):
            for other in range(1, seats + 1):
                if other == seat or (game == "loot" and g.state.get("pairs") and (other + 1) // 2 == (seat + 1) // 2):
                    continue
                before_seat, before_ref = text(g.machine, seat), text(g.machine, None)
                m = g.machine.copy()
                if not _hidden_change(game, m.s, other):
                    continue
                assert text(m, seat) == before_seat, (game, steps, seat, other)
                if game != "loot":  # (a swapped Loot card may read the same: "blue 2" and "blue 2")
                    assert text(m, None) != before_ref  # the change was real: the referee sees it
                checked += 1
    assert checked >= 3


@pytest.mark.parametrize("game,seats", GAMES)
def test_the_table_reads_as_words_not_as_python(game, seats):
    """A referee who is not a programmer reads the table: no ``None``, no list or
    dict printed as Python writes it, at any point of whole games, for any viewer."""
    for seed in (b"r", b"w", b"p"):
        g = LocalGame(game, seats, seed=seed * 32)
        rng = random.Random(seed)
        while not g.machine.finished:
            s = g.to_act()[0]
            g.act(s, rng.choice(g.legal(s)))
            if g.machine.k["steps"] % 7:
                continue
            for seat in [None] + list(range(1, seats + 1)):
                out = text(g.machine, seat)
                for python in ("None", "['", "{'", "True", "False"):
                    assert python not in out, (game, seat, python, out)


@pytest.mark.parametrize("options,seats", [({}, 3), ({"pairs": "true"}, 4)])
def test_loot_names_the_side_that_leads_a_battle_as_players_do(options, seats):
    """A battle's side is a seat (or, in the pairs game, a team of two seats), never
    the engine's bare side number."""
    from service.render.svg import board_svg

    seen = 0
    g = LocalGame("loot", seats, options=options, seed=b"s" * 32)
    rng = random.Random(5)
    while not g.machine.finished and seen < 5:
        s = g.to_act()[0]
        g.act(s, rng.choice(g.legal(s)))
        b = board(uuid4(), g.machine, 100, None)
        leading = [x["leading"] for x in b["board"]["sea"] if x.get("leading") is not None]
        if not leading:
            continue
        cfg = dict(g.machine.config, players={})
        out, pic = to_text(board_text(b, cfg)), board_svg(b, cfg)
        n = leading[0]
        said = f"team {n} (seat {2 * n - 1} and seat {2 * n})" if options else f"seat {n}"
        assert said in out and f"{said} leads" in pic
        assert "side " not in out and "side " not in pic
        seen += 1
    assert seen == 5


def test_the_punctuation_taken_as_narrow_is_one_cell_as_char_cells_reads_it(monkeypatch):
    """Text made only of ``_NARROW``'s characters is measured by its length, without
    ``unicodedata``: beside rich's single-cell ranges, the dashes, quotes and ellipsis of
    U+2010-U+2027, each one cell by ``char_cells``' own reading too."""
    from service.render import table

    added = [chr(c) for c in range(0x2010, 0x2028)]
    assert table._NARROW.issuperset(added) and "\u2014" in added and "\u2026" in added  # a title's dash; "…"
    monkeypatch.setattr(table, "_NARROW", frozenset())
    assert [table.char_cells(c) for c in added] == [1] * len(added)

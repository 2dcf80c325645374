"""The board text (service/render/table.py) is laid out as rich laid it out:
for played-out games of every game and option set, at points along each, every
viewer's text at several widths is the same, byte for byte, as rich printed
the same lines and tables for a file (the heading as a bold ``Text``, tables
with rich's defaults), player names with wide and combining characters too.
rich stays a dependency of the project (progress bars, other tables): this is
the only place the board text meets it."""

from __future__ import annotations

import hashlib
import io
import random
from uuid import uuid4

import pytest
from rich.console import Console, Group
from rich.table import Table as RichTable
from rich.text import Text

from bench.golden import configs
from service.kernel.local import LocalGame
from service.kernel.machine import Machine
from service.kernel.games import available_games
from service.render import board_text
from service.render.table import Table, cell_len, set_cell_size, to_text, wrap
from service.views import board

WIDTHS = (37, 50, 80, 132)
NAMES = {"1": "Ada", "2": "張偉 the Terrible", "3": "José Núñez", "4": "Zoë ☠️ Blackbeard",
         "5": "Ｆｕｌｌ ｗｉｄｔｈ", "6": "Kim Ji-ho 김지호"}


def with_rich(parts: list, width: int) -> str:
    """``parts`` as the board text drew them before: the heading a bold ``Text``, the other
    lines strings, the tables rich's ``Table`` with the same columns."""
    out = []
    for i, part in enumerate(parts):
        if isinstance(part, Table):
            t = RichTable(*(c.header for c in part.columns), title=part.title, title_justify="left")
            for rich_column, column in zip(t.columns, part.columns):
                rich_column.no_wrap = column.no_wrap
            for row in zip(*(c.cells for c in part.columns)):
                t.add_row(*row)
            out.append(t)
        else:
            out.append(Text(part, style="bold") if i == 0 else part)
    console = Console(width=width, file=io.StringIO(), color_system=None)
    console.print(Group(*out))
    return console.file.getvalue()


def _games():
    for game in available_games():
        for seats, options, _ in configs(game):
            yield game, seats, options


@pytest.mark.parametrize("game,seats,options", list(_games()))
def test_every_view_is_drawn_as_rich_drew_it(game, seats, options):
    seed = hashlib.sha256(f"table-vs-rich-{game}-{seats}-{options}".encode()).digest()
    g = LocalGame(game, seats, options, seed=seed)
    rng = random.Random(seed)
    g.play_out(rng)
    points = {rng.randrange(1, len(g.events)), len(g.events)}
    m = Machine(g.rules, g.events[0])
    names = {s: n for s, n in NAMES.items() if int(s) <= seats}
    differ = []
    for v, ev in enumerate(g.events, 1):
        m.apply(ev)
        if v not in points:
            continue
        for seat in [None, *range(1, seats + 1)]:
            for named in (False, True):
                config = dict(m.config, players=names) if named else m.config
                parts = board_text(board(uuid4(), m, v, seat), config)
                for width in WIDTHS[(v + named) % 2::2]:
                    if to_text(parts, width) != with_rich(parts, width):
                        differ.append((v, seat, named, width))
    assert not differ, differ[:5]


@pytest.mark.parametrize("text", ["Ada", "張偉 the Terrible", "José Núñez", "Zoë ☠️ Blackbeard", "Ｆｕｌｌ ｗｉｄｔｈ",
                                  "김지호", "e\u0301te\u0301", "ab\u200dcd", "🏴‍☠"])
def test_cells_are_counted_as_rich_counts_them(text):
    from rich.cells import cell_len as rich_cell_len
    from rich.cells import set_cell_size as rich_set_cell_size

    assert cell_len(text) == rich_cell_len(text)
    for n in range(0, cell_len(text) + 2):
        assert set_cell_size(text, n) == rich_set_cell_size(text, n)


def test_a_table_of_long_wide_names_in_narrow_widths():
    t = Table("player", "hand", title="Players")
    t.columns[0].no_wrap = True
    t.add_row("seat 1 (張偉張偉張偉張偉張偉)", "一二三四五六七八九十 一二三四五 ab")
    t.add_row("seat 2 (Zoë ☠️)", "Ｆｕｌｌｗｉｄｔｈｗｏｒｄ short")
    for width in range(12, 60):
        parts = ["張偉 " * 9, t]
        assert to_text(parts, width) == with_rich(parts, width), width


def test_control_characters_are_refused():
    with pytest.raises(ValueError, match="control character"):
        wrap("a\tb", 10)

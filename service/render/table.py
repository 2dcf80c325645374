"""The board text laid out without rich: plain lines and tables (``Table``) as
``to_text(parts, width)`` draws them for a file or a pipe.

The layout is rich's for what the board text uses, so the text is the same,
byte for byte, as rich printed it for a file or a pipe (tests/render/
test_table_vs_rich.py compares the two over played-out games of every game):

* a line of text wraps at spaces to the width (a word longer than the width is
  folded), as rich wraps a ``Text``;
* a table (rich's ``Table`` with its defaults: the heavy head box, one space of
  padding each side of a cell, no expansion) takes each column's widest cell,
  and where that does not fit, narrows the widest wrappable columns first, then
  all of them in proportion; a cell's words wrap, a line still too long ends
  in ``…``; the headers are aligned to the bottom of their row; the title is
  left-justified above the table, padded to its width.

What it does not do that rich did:

* no styles: on a terminal rich printed the heading in bold; this prints
  every line plain, on a terminal too;
* no markup or emoji codes: rich read ``[bold]`` and ``:smile:`` in the
  strings it printed (so a player named ``[/x]`` stopped it); here every
  string is printed as it is;
* cell widths come from Python's ``unicodedata`` (``east_asian_width`` W and F
  take two cells, combining marks and format characters none, a variation
  selector 16 widens the character before it to two), where rich has its own
  tables: they agree but for ~200 characters whose width changed in Unicode
  versions newer than Python's data;
* control characters (tabs, carriage returns...) are refused (``ValueError``)
  instead of being expanded or dropped: player names cannot hold them
  (service/kernel/local.py) and no game's words do; ``\\n`` breaks a line.
"""

from __future__ import annotations

import re

# rich's single-cell ranges (rich/cells.py), and the dashes, quotes and ellipsis of U+2010-U+2027
# (one cell each as ``char_cells`` reads them: tests/render/test_board_text.py): text made of these
# alone is measured by its length, and a board's text (its title's dash) needs no ``unicodedata``
_NARROW = frozenset(chr(c) for a, b in ((0x20, 0x7E), (0xA0, 0xAC), (0xAE, 0x2FF), (0x370, 0x482),
                                        (0x2010, 0x2027), (0x2500, 0x25FC), (0x2800, 0x28FF))
                    for c in range(a, b + 1))
_all_narrow = _NARROW.issuperset
# format characters that take a cell: the prepended concatenation marks and the soft hyphen
_FORMAT_SHOWN = frozenset(map(chr, (0xAD, 0x600, 0x601, 0x602, 0x603, 0x604, 0x605, 0x6DD, 0x70F, 0x890, 0x891,
                                    0x8E2, 0x110BD, 0x110CD)))
_ZWJ, _VS16 = "\u200d", "\ufe0f"


def char_cells(c: str) -> int:
    """The cells one character takes on a terminal: 0, 1 or 2."""
    if c in _NARROW:
        return 1
    import unicodedata  # imported here, at the first character not narrow: a board's text has none (a replay's start)

    cat = unicodedata.category(c)
    if cat in ("Cc", "Zl", "Zp"):
        raise ValueError(f"the board text cannot hold the control character {c!r}")
    if cat in ("Mn", "Me", "Mc") or (cat == "Cf" and c not in _FORMAT_SHOWN) or "\u1160" <= c <= "\u11ff" \
            or "\ud7b0" <= c <= "\ud7ff":
        return 0
    return 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1


def cell_len(text: str) -> int:
    """The cells ``text`` takes (the character after a zero width joiner is not
    counted; a variation selector 16 widens a one-cell character before it)."""
    if _all_narrow(text):
        return len(text)
    total, last, joined = 0, None, False
    for c in text:
        if joined:   # the character a zero width joiner joins is not counted
            joined = False
            continue
        if c == _ZWJ:
            joined = True
            continue
        if c == _VS16:
            if last is not None:
                total += last == 1
                last = None
            continue
        w = char_cells(c)
        if w:
            last, total = w, total + w
    return total


def graphemes(text: str) -> tuple[list[tuple[int, int, int]], int]:
    """``text`` as (start, end, cells) spans of what is drawn as one character
    (a character with the zero-width ones after it), and its cells in all."""
    spans: list[tuple[int, int, int]] = []
    total, last, i, n = 0, None, 0, len(text)
    while i < n:
        c = text[i]
        if c in (_ZWJ, _VS16):
            if not spans:
                spans.append((i, i + 1, 0))
                i += 1
                continue
            start, _, cells = spans[-1]
            if c == _ZWJ:   # joins the next character into this one
                i += 2 if i < n - 1 else 1
            else:
                i += 1
                if last == 1:
                    last, cells, total = None, cells + 1, total + 1
            spans[-1] = (start, i, cells)
            continue
        w = char_cells(c)
        if w:
            last, total = w, total + w
            spans.append((i, i + 1, w))
        elif spans:
            start, _, cells = spans[-1]
            spans[-1] = (start, i + 1, cells)
        else:
            spans.append((i, i + 1, 0))
        i += 1
    return spans, total


def _split(text: str, position: int) -> str:
    """The part of ``text`` before cell ``position`` (a two-cell character cut in half: a space)."""
    if position <= 0:
        return ""
    spans, _ = graphemes(text)
    size = 0
    for start, _end, cells in spans:
        if size == position:
            return text[:start]
        if size + cells > position:
            return text[:start] + " "
        size += cells
    return text


def set_cell_size(text: str, total: int) -> str:
    """``text`` cropped or padded with spaces to ``total`` cells."""
    if _all_narrow(text):
        return text + " " * (total - len(text)) if len(text) < total else text[:total]
    if total <= 0:
        return ""
    size = cell_len(text)
    if size == total:
        return text
    if size < total:
        return text + " " * (total - size)
    return _split(text, total)


def chop_cells(text: str, width: int) -> list[str]:
    """``text`` cut into pieces of at most ``width`` cells."""
    if _all_narrow(text):
        return [text[i:i + width] for i in range(0, len(text), width)]
    spans, _ = graphemes(text)
    lines, size, offset = [], 0, 0
    for start, _, cells in spans:
        if size + cells > width:
            lines.append(text[offset:start])
            offset, size = start, 0
        size += cells
    if size:
        lines.append(text[offset:])
    return lines


_WORD = re.compile(r"\s*\S+\s*")
_TRAILING = re.compile(r"\s+$")


def _breaks(text: str, width: int, fold: bool) -> list[int]:
    """Where a line of ``text`` breaks to fit ``width`` cells."""
    breaks: list[int] = []
    offset = 0
    m = _WORD.match(text, 0)
    while m is not None:
        start, end = m.span()
        word = m.group(0)
        length = cell_len(word.rstrip())
        if width - offset >= length:
            offset += cell_len(word)
        elif length > width:
            if fold:
                pieces = chop_cells(word, width)
                for i, piece in enumerate(pieces):
                    if start:
                        breaks.append(start)
                    if i == len(pieces) - 1:
                        offset = cell_len(piece)
                    else:
                        start += len(piece)
            else:
                if start:
                    breaks.append(start)
                offset = cell_len(word)
        elif offset and start:
            breaks.append(start)
            offset = cell_len(word)
        m = _WORD.match(text, end)
    return breaks


def _truncate(line: str, width: int, ellipsis: bool, pad: bool = False) -> str:
    size = cell_len(line)
    if size > width:
        line = set_cell_size(line, width - 1) + "…" if ellipsis else set_cell_size(line, width)
    if pad and size < width:
        line += " " * (width - size)
    return line


def wrap(text: str, width: int, *, pad: bool = False, ellipsis: bool = False, no_wrap: bool = False) -> list[str]:
    """``text``'s lines within ``width`` cells: broken at spaces (a word too long
    folded, or with ``ellipsis`` cut with ``…``), ``pad``-ded to the width."""
    if width < 1:  # no room: nothing is drawn
        return []
    out = []
    for line in text.split("\n"):
        if no_wrap:
            pieces = [line]
        else:
            cuts = [0, *_breaks(line, width, fold=not ellipsis), len(line)]
            pieces = [line[a:b] for a, b in zip(cuts, cuts[1:])]
            for i, piece in enumerate(pieces):  # the spaces a break left at the end
                if len(piece) > width:
                    m = _TRAILING.search(piece)
                    if m:
                        pieces[i] = piece[:len(piece) - min(len(m.group(0)), len(piece) - width)]
        if pad:
            pieces = [_truncate(p, width, ellipsis, pad=True) for p in pieces]
        out += [_truncate(p, width, ellipsis) for p in pieces]
    return out


def _measure(text: str, most: int) -> tuple[int, int]:
    """The narrowest and widest a cell holding ``text`` may be (its longest word,
    its longest line, with a space each side), within ``most`` cells."""
    if most - 2 < 1:
        return most, most
    inner = most - 2
    lines = text.splitlines()
    widest = max((cell_len(x) for x in lines), default=0)
    words = text.split()
    narrowest = max((cell_len(w) for w in words), default=widest)
    narrowest = min(max(0, narrowest), widest)
    widest = max(narrowest, widest)
    narrowest, widest = min(narrowest, inner), min(widest, inner)
    if widest < 1:
        narrowest = widest = 0
    else:
        narrowest = min(max(0, narrowest), widest)
    return min(narrowest + 2, most), min(widest + 2, most)


class Column:
    """A table's column: its header, its cells; ``no_wrap``: its cells are cut
    with ``…``, never wrapped, and it is not the first narrowed."""

    __slots__ = ("header", "no_wrap", "cells")

    def __init__(self, header: str) -> None:
        self.header, self.no_wrap = header, False
        self.cells: list[str] = []

    def widest(self, most: int) -> int:
        if most < 1:
            return 0
        return min(max(_measure(c, most)[1] for c in [self.header, *self.cells]), most)


def _reduce(total: int, ratios: list[int], maximums: list[int], values: list[int]) -> list[int]:
    """``values`` less ``total`` shared by ``ratios``, none less by more than its maximum."""
    ratios = [r if m else 0 for r, m in zip(ratios, maximums)]
    left_ratio = sum(ratios)
    if not left_ratio:
        return values[:]
    left = total
    out = []
    for r, m, v in zip(ratios, maximums, values):
        if r and left_ratio > 0:
            d = min(m, round(r * left / left_ratio))
            out.append(v - d)
            left -= d
            left_ratio -= r
        else:
            out.append(v)
    return out


def _collapse(widths: list[int], wrappable: list[bool], most: int) -> list[int]:
    """Narrow the widest wrappable columns, a step at a time, until the table fits (or cannot)."""
    total = sum(widths)
    excess = total - most
    if any(wrappable):
        while total and excess > 0:
            widest = max(w for w, a in zip(widths, wrappable) if a)
            second = max(w if a and w != widest else 0 for w, a in zip(widths, wrappable))
            ratios = [1 if (w == widest and a) else 0 for w, a in zip(widths, wrappable)]
            if not any(ratios) or not widest - second:
                break
            widths = _reduce(excess, ratios, [min(excess, widest - second)] * len(widths), widths)
            total = sum(widths)
            excess = total - most
    return widths


class Table:
    """A table of words with a header row and a title: ``Table("player", "hand",
    title="Players")``, ``columns[0].no_wrap = True``, ``add_row(...)``."""

    def __init__(self, *headers: str, title: str | None = None) -> None:
        self.columns = [Column(h) for h in headers]
        self.title = title

    def add_row(self, *cells: str) -> None:
        for column, cell in zip(self.columns, cells, strict=True):
            column.cells.append(str(cell))

    def _widths(self, most: int) -> list[int]:
        widths = [c.widest(most) or 1 for c in self.columns]
        if sum(widths) > most:
            widths = _collapse(widths, [not c.no_wrap for c in self.columns], most)
            if sum(widths) > most:
                widths = _reduce(sum(widths) - most, [1] * len(widths), widths, widths)
            widths = [c.widest(w) for c, w in zip(self.columns, widths)]
        return widths

    def lines(self, width: int) -> list[str]:
        """The table drawn within ``width`` cells."""
        edges = len(self.columns) + 1
        widths = self._widths(width - edges)
        out = wrap(self.title, sum(widths) + edges, pad=True) if self.title else []
        out.append("┏" + "┳".join("━" * w for w in widths) + "┓")
        rows = [[c.header for c in self.columns]] + [list(r) for r in zip(*(c.cells for c in self.columns))]
        for n, row in enumerate(rows):
            cells = []
            for text, w, column in zip(row, widths, self.columns):
                inner = w - 2
                cells.append([" " + set_cell_size(x, inner) + " "
                              for x in wrap(text, inner, pad=True, ellipsis=True, no_wrap=column.no_wrap)])
            height = max(1, *map(len, cells))
            for i, c in enumerate(cells):
                blank = [" " * widths[i]] * (height - len(c))
                cells[i] = blank + c if n == 0 else c + blank   # headers at the bottom of their row
            bar = "┃" if n == 0 else "│"
            out += [bar + bar.join(c[k] for c in cells) + bar for k in range(height)]
            if n == 0:
                out.append("┡" + "╇".join("━" * w for w in widths) + "┩")
        out.append("└" + "┴".join("─" * w for w in widths) + "┘")
        return out


def to_text(parts: list, width: int = 80) -> str:
    """``parts`` (lines of text and ``Table``s), one under the other, within
    ``width`` cells, each line ending with a line break."""
    lines: list[str] = []
    for part in parts:
        lines += part.lines(width) if isinstance(part, Table) else wrap(part, width)
    return "".join(x + "\n" for x in lines)

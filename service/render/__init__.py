"""The table in words, for a person: ``board_text`` renders what one viewer
may see (a seat's view, or the referee's) as lines and tables that fit
80 columns (laid out by service/render/table.py as rich laid them out), with
player names and names as printed on the cards.

It reads only the viewer's board (``service.views.board``: the rules' view for
that seat), never the referee's state, so nothing hidden from a seat can reach
its text. One module per game holds that game's layout.
"""

from __future__ import annotations

from .common import board_text

__all__ = ["board_text"]

"""The table printed for a person (``tools replay``, ``tools status --board``
and the quick path of tools/quick.py), without the command-line framework."""

from __future__ import annotations

import sys


def print_board(b: dict, config: dict) -> None:
    """The table for a person (service/render), or the raw view for a game it cannot draw."""
    from rich.console import Console

    from service.render import board_text

    # highlight=False: the board's text carries its own styles; rich's automatic
    # highlighter only coloured stray numbers in sentences ("seat 3"), and it
    # compiles and runs its regular expressions over every line (~20 ms a call)
    Console(highlight=False).print(board_text(b, config))
    sys.stdout.write(f"game {b['game_id']}; `--json` gives every detail of this view\n")

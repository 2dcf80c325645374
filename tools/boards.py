"""The table printed for a person (``tools replay``, ``tools status --board``
and the quick path of tools/quick.py), without the command-line framework."""

from __future__ import annotations

import sys


def print_board(b: dict, config: dict) -> None:
    """The table for a person (service/render), or the raw view for a game it cannot draw."""
    from rich.console import Console

    from service.render import board_text

    Console().print(board_text(b, config))
    sys.stdout.write(f"game {b['game_id']}; `--json` gives every detail of this view\n")

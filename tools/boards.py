"""The table printed for a person (``tools replay``, ``tools status --board``
and the quick path of tools/quick.py), without the command-line framework."""

from __future__ import annotations

import os
import sys

from service.render.common import board_text
from service.render.table import to_text


def columns() -> int:
    """The width rich would find for the text: 80 on a dumb terminal, else the
    terminal's (standard input's, output's or error's, the first that is one),
    else ``COLUMNS``, else 80."""
    if os.environ.get("TERM", "").lower() in ("dumb", "unknown") and sys.stdout.isatty():
        return 80
    width = None
    for fd in (0, 1, 2):
        try:
            width = os.get_terminal_size(fd).columns
        except (AttributeError, ValueError, OSError):  # not a terminal
            continue
        break
    env = os.environ.get("COLUMNS")
    if env is not None and env.isdigit():
        width = int(env)
    return width or 80


def print_board(b: dict, config: dict) -> None:
    """The table for a person (service/render), as wide as the terminal."""
    sys.stdout.write(to_text(board_text(b, config), columns()))
    sys.stdout.write(f"game {b['game_id']}; `--json` gives every detail of this view\n")

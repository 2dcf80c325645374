"""Dice Race in words: where each seat stands on the way to the goal."""

from __future__ import annotations

from rich.table import Table

from service.render.common import who


def render(view: dict, config: dict, names: dict, seat) -> list:
    track = Table("player", "at", "to go", title=f"The race to {view['goal']}", title_justify="left")
    for s, at in view["at"].items():
        track.add_row(who(s, names), str(at), str(view["goal"] - at))
    return [track, f"Last roll: {view['last'] or 'none yet'}"]

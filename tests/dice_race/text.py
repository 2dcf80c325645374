"""Dice Race in words: where each seat stands on the way to the goal."""

from __future__ import annotations

from service.render.common import who
from service.render.table import Table


def render(view: dict, config: dict, names: dict, seat) -> list:
    track = Table("player", "at", "to go", title=f"The race to {view['goal']}")
    for s, at in view["at"].items():
        track.add_row(who(s, names), str(at), str(view["goal"] - at))
    return [track, f"Last roll: {view['last'] or 'none yet'}"]

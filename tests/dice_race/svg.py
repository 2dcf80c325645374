"""Dice Race as a picture: one lane per seat, a counter where it stands."""

from __future__ import annotations

from service.render.common import who
from service.render.svg.draw import seat_colour

WIDTH = 640


def height(view: dict) -> int:
    return 60 + 50 * len(view["at"]) + 20


def draw(svg, view: dict, config: dict, names: dict, seat, top: int) -> None:
    step = (WIDTH - 200) / view["goal"]
    for i, (s, at) in enumerate(view["at"].items()):
        y = top + 20 + 50 * i
        svg.text(16, y + 5, who(s, names), size=13)
        svg.line(160, y, 160 + step * view["goal"], y)
        svg.circle(160 + step * at, y, 10, fill=seat_colour(s))
        svg.text(160 + step * at, y - 14, str(at), size=11, anchor="middle")

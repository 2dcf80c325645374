"""Letter of Marque: the ships at sea, each on its treasure; every player's piles."""

from __future__ import annotations

from ..common import count, who
from service.aggregates.letter_of_marque.words import ship as ship_words

from .draw import COLOURS

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    from .draw import Svg

WIDTH = 900


def height(view: dict) -> int:
    rows = (len(view["sea"]) + 7) // 8
    return 60 + 40 + max(1, rows) * 150 + 40 + len(view["players"]) * 70 + 20


def _ship(svg: Svg, x: float, y: float, colour: str, base: str) -> None:
    """A hull with a sail, in the player's colour; the base below: a cannon, nothing, or '?'."""
    c = COLOURS.get(colour, "#888")
    svg.path(f"M{x - 34},{y} L{x + 34},{y} L{x + 24},{y + 16} L{x - 24},{y + 16} Z", fill=c, stroke="#222")
    svg.path(f"M{x},{y - 44} L{x},{y} M{x},{y - 42} L{x + 26},{y - 10} L{x},{y - 10} Z", fill="#fdf6e3",
             stroke="#222")
    label = {"armed": "cannon", "unarmed": "no cannon", "hidden": "?"}[base]
    fill = {"armed": "#333", "unarmed": "#ddd", "hidden": "#a08060"}[base]
    svg.rect(x - 30, y + 18, 60, 16, fill=fill, stroke="#222", rx=2)
    svg.text(x, y + 30, label, size=10, anchor="middle", fill="#fff" if base != "unarmed" else "#222")


def draw(svg: Svg, view: dict, config: dict, names: dict[str, str], seat: int | None, top: int) -> None:
    svg.text(16, top + 20, "At sea", size=15, weight="bold")
    y0 = top + 40
    if not view["sea"]:
        svg.text(16, y0 + 20, "no ship at sea", size=12)
    for i, ship in enumerate(view["sea"]):
        x = 20 + (i % 8) * 108
        y = y0 + (i // 8) * 150
        svg.card(x, y + 60, 86, 80, label=str(ship["treasure"]), sub="treasure", fill="#f8e9a1", size=22)
        base = "armed" if ship["armed"] is True else "unarmed" if ship["armed"] is False else "hidden"
        owner_colour = view["players"][str(ship["owner"])]["colour"]
        _ship(svg, x + 43, y + 42, owner_colour, base)
        svg.text(x + 43, y + 4 + 0, ship_words(ship["ship"]) + (" (revealed)" if ship.get("revealed") else ""), size=10,
                 anchor="middle")
    y = y0 + max(1, (len(view["sea"]) + 7) // 8) * 150 + 20
    svg.text(16, y, "Players", size=15, weight="bold")
    for j, (s, p) in enumerate(view["players"].items()):
        yy = y + 14 + j * 70
        c = COLOURS.get(p["colour"], "#888")
        svg.rect(16, yy, 14, 50, fill=c, stroke="#222", rx=2)
        svg.text(38, yy + 16, f"{who(s, names)} — {p['colour']} — {count(p['points'], 'point')}", size=13, weight="bold")
        res = p["reserve"]
        reserve = (f"{res['armed']} armed + {res['unarmed']} unarmed ships in reserve" if "armed" in res
                   else f"{count(res.get('ships', '?'), 'ship')} in reserve")
        svg.text(38, yy + 34, f"{count(p['cannon_cards'], 'cannon card')} · {reserve} · {count(p['deck'], 'treasure')} in deck",
                 size=11)
        pile = p["score_pile"]
        x = 520
        for t in pile["treasures"]:
            svg.card(x, yy, 26, 36, label=str(t), fill="#f8e9a1", size=12)
            x += 30
        for col in pile["enemy_cannon_cards"]:
            svg.card(x, yy, 26, 36, label="C", fill=COLOURS.get(col, "#888"), size=12)
            x += 30

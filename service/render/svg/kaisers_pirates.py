"""The Kaiser's Pirates: each player's raiders and warships, merchant line,
prizes and hand (face down for the other seats)."""

from __future__ import annotations

from service.kernel.text import words

from ..common import who
from ..kaisers_pirates import _names
from .draw import seat_colour

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    from .draw import Svg

WIDTH = 960


def height(view: dict) -> int:
    return 60 + 40 + len(view["players"]) * 250 + 20


def _lines(name: str, most: int = 15) -> list[str]:
    """``name`` on one line, or on two split at the space nearest its middle when it
    is longer than ``most`` characters (a card is 110 px wide: Kronprinz Wilhelm)."""
    if len(name) <= most or " " not in name:
        return [name]
    spaces = [i for i, ch in enumerate(name) if ch == " "]
    cut = min(spaces, key=lambda i: abs(i - len(name) / 2))
    return [name[:cut], name[cut + 1:]]


def _vessel(svg: Svg, x: float, y: float, v: dict, ships: dict[str, str], fill: str) -> None:
    name = ships.get(v["ship"], words(v["ship"]))
    svg.card(x, y, 110, 64, fill=fill)
    lines = _lines(name)
    for k, line in enumerate(lines):
        svg.text(x + 55, y + (24 if len(lines) == 1 else 18) + k * 13, line, size=11, anchor="middle", weight="bold")
    dmg = "damaged" + (f" x{v['hits']}" if v.get("hits", 1) > 1 else "")     # 6.8: markers
    marks = [m for m, on in ((dmg, v.get("damaged")), ("low supply", v.get("supply")),
                             ("refuge", v.get("refuge"))) if on]
    svg.text(x + 55, y + 48, ", ".join(marks), size=9, anchor="middle", fill="#a01010")


def draw(svg: Svg, view: dict, config: dict, names: dict[str, str], seat: int | None, top: int) -> None:
    ships, cards = _names(config)
    svg.text(16, top + 20, f"Round {view['round']}, {words(view['phase'])} phase — action deck "
             f"{view['action_deck']}, discard {view['discard']}, ship deck {view['ship_deck']}, "
             f"merchant deck {view['merchant_deck']}", size=12)
    for j, (s, p) in enumerate(view["players"].items()):
        y = top + 40 + j * 250
        svg.rect(10, y, WIDTH - 20, 236, fill="#fbf8ef", stroke=seat_colour(s), width=2)
        svg.text(22, y + 22, f"{who(s, names)} — {p['vp']} VP", size=14, weight="bold", fill=seat_colour(s))
        svg.text(22, y + 44, "raiders & warships", size=10)
        for k, v in enumerate(p["ships"][:8]):
            _vessel(svg, 22 + k * 116, y + 50, v, ships, "#d6dbdf")
        svg.more(22, y + 128, 8, len(p["ships"]))
        svg.text(22, y + 132, "merchant line", size=10)
        for k, v in enumerate(p["merchants"][:5]):
            _vessel(svg, 22 + k * 116, y + 138, v, ships, "#f8e9a1")
        svg.more(22, y + 218, 5, len(p["merchants"]))
        px = 22 + 5 * 116 + 10
        for k, v in enumerate(p["prizes"][:2]):
            _vessel(svg, px + k * 116, y + 138, v if isinstance(v, dict) else {"ship": v}, ships, "#f5cba7")
        svg.more(px, y + 218, 2, len(p["prizes"]))
        hand = p["hand"]
        svg.text(WIDTH - 330, y + 22, "hand", size=10, weight="bold")
        if isinstance(hand, list):
            for k, c in enumerate(hand[:7]):
                svg.card(WIDTH - 290 + (k % 2) * 136, y + 8 + (k // 2) * 30, 130, 26,
                         label=cards.get(c, words(c))[:22], fill="#fff", size=10)
            svg.more(WIDTH - 154, y + 112, 7, len(hand))
        else:
            for k in range(min(hand, 10)):
                svg.card(WIDTH - 290 + k * 24, y + 8, 20, 28, face_down=True)
            svg.more(WIDTH - 290, y + 52, 10, hand)

"""Loot: merchant ships at sea with the pirates laid on them, hands and hauls."""

from __future__ import annotations

from ..common import who
from ..loot import card as card_name
from ..loot import checks, side
from .draw import COLOURS

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    from .draw import Svg

TEAM_TAG = "#4a4a4a"  # a team's tag: dark grey, no pirate's colour

WIDTH = 900


def _layout(view: dict) -> list[tuple[int, int]]:
    """(x, row) of each merchant at sea: as wide as its attacks, wrapped at the edge."""
    out, x, row = [], 16, 0
    for b in view["sea"]:
        w = 84 + 34 * len(b["attacks"]) + 16
        if x + w > WIDTH - 10 and x > 16:
            x, row = 16, row + 1
        out.append((x, row))
        x += w
    return out


def height(view: dict) -> int:
    rows = max([r for _, r in _layout(view)] + [0]) + 1
    return 60 + 40 + rows * 190 + 40 + len(view["players"]) * 64 + 30


def _colour(c: str) -> str:
    return COLOURS.get(c.split("-")[0], "#eee")


def draw(svg: Svg, view: dict, config: dict, names: dict[str, str], seat: int | None, top: int) -> None:
    svg.text(16, top + 20, "At sea", size=15, weight="bold")
    y0 = top + 36
    if not view["sea"]:
        svg.text(16, y0 + 20, "no merchant at sea", size=12)
    places = _layout(view)
    for b, (x, row) in zip(view["sea"], places):
        y = y0 + row * 190
        svg.card(x, y, 64, 90, label=f"{b['gold']}", sub="gold", fill="#f8e9a1", size=22)
        svg.text(x, y + 104, who(b["owner"], names), size=10)
        ax = x + 70
        for a in b["attacks"]:
            for k, c in enumerate(a["cards"]):
                svg.card(ax, y + k * 14, 30, 44, label=card_name(c).split()[-1], fill=_colour(c), size=11)
            svg.text(ax + 15, y + 60 + len(a["cards"]) * 14, f"{a['skulls']}", size=11, anchor="middle",
                     weight="bold")
            ax += 34
        for k, c in enumerate(b.get("captains_and_admiral") or []):
            label = card_name(c if isinstance(c, str) else c.get("card", "?"))
            svg.text(x, y + 120 + k * 14, label, size=10, weight="bold")
        lead = f"{side(view, b['leading'], names)} leads" if b.get("leading") is not None else (b.get("status") or "")
        svg.text(x, y + 160, lead, size=10)
    y = y0 + (max([r for _, r in places] + [0]) + 1) * 190 + 10
    svg.text(16, y, f"Players (draw pile {view['draw_pile']}, discard {len(view['discard_pile'])})", size=15,
             weight="bold")
    for j, (s, p) in enumerate(view["players"].items()):
        yy = y + 12 + j * 64
        # no colour per player: Loot's colours are the pirates' (blue, gold, green, purple); in the
        # pairs game a neutral tag names the team, and the team's two players sit side by side
        if view.get("pairs"):
            svg.rect(16, yy, 62, 20, fill=TEAM_TAG, stroke="#222", rx=10)
            svg.text(47, yy + 14, f"team {p['side']}", size=11, weight="bold", fill="#fff", anchor="middle")
            svg.text(84, yy + 15, who(s, names) + (" · checks captures" if checks(view, s) else ""), size=13,
                     weight="bold")
        else:
            svg.text(16, yy + 16, who(s, names), size=13, weight="bold")
        svg.text(16, yy + 36, f"captured {p['captured_gold']} gold ({len(p['captured'])} merchants)", size=11)
        x = 300
        hand = p["hand"]
        if isinstance(hand, list):
            shown, total = min(len(hand), 12), len(hand)
            for c in hand[:12]:
                label = card_name(c)
                short = "Adm." if c == "admiral" else ("capt." if "captain" in c else label.split()[-1])
                svg.card(x, yy, 40, 50, label=short, sub="gold" if c.startswith("merchant") else "",
                         fill=_colour(c) if not c.startswith("merchant") else "#f8e9a1", size=12)
                x += 44
        else:
            shown, total = min(p["hand_count"], 16), p["hand_count"]
            for _ in range(shown):
                svg.card(x, yy, 34, 50, face_down=True)
                x += 37
        svg.more(x + 4, yy + 30, shown, total)

"""Merchants & Marauders: a schematic Caribbean, its ports placed roughly as on
the map (borders from the reference), demand goods, upgrade tiles, the
captains' ships and the NPCs; a fight or a raid in progress; each captain's
gold, glory, cargo, ship's condition and wanted flags."""

from __future__ import annotations

from service.kernel.text import words

from ..common import who
from .draw import seat_colour

from service.aggregates.merchants_and_marauders.names import for_config, printed

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    from typing import Any

    from .draw import Svg

WIDTH = 960
MAP_H = 560
# rough places on the board (x, y in 0..1 of the map area), west to east
PLACES = {
    "havana": (0.16, 0.14), "nassau": (0.36, 0.05), "tortuga": (0.50, 0.18), "port_royal": (0.33, 0.36),
    "petite_goave": (0.50, 0.33), "santo_domingo": (0.64, 0.30), "old_providence": (0.18, 0.62),
    "cartagena": (0.38, 0.80), "caribbean_sea": (0.60, 0.55), "curacao": (0.56, 0.82), "caracas": (0.72, 0.86),
    "san_juan": (0.77, 0.22), "st_maarten": (0.88, 0.16), "st_john": (0.96, 0.26), "basse_terre": (0.86, 0.44),
    "bridgetown": (0.96, 0.60), "trinidad": (0.90, 0.86),
}
BORDERS = [("nassau", "havana"), ("nassau", "tortuga"), ("havana", "port_royal"), ("havana", "tortuga"),
           ("port_royal", "old_providence"), ("port_royal", "tortuga"), ("port_royal", "petite_goave"),
           ("port_royal", "cartagena"), ("old_providence", "cartagena"), ("tortuga", "petite_goave"),
           ("tortuga", "santo_domingo"), ("petite_goave", "santo_domingo"), ("petite_goave", "caribbean_sea"),
           ("petite_goave", "cartagena"), ("cartagena", "caribbean_sea"), ("cartagena", "curacao"),
           ("santo_domingo", "san_juan"), ("santo_domingo", "caribbean_sea"), ("caribbean_sea", "san_juan"),
           ("caribbean_sea", "basse_terre"), ("caribbean_sea", "caracas"), ("caribbean_sea", "curacao"),
           ("curacao", "caracas"), ("san_juan", "st_maarten"), ("san_juan", "basse_terre"),
           ("caracas", "basse_terre"), ("caracas", "trinidad"), ("st_maarten", "st_john"),
           ("st_maarten", "basse_terre"), ("basse_terre", "st_john"), ("basse_terre", "bridgetown"),
           ("basse_terre", "trinidad"), ("trinidad", "bridgetown"), ("st_john", "bridgetown")]


ROW = 58
NATIONS = {"spain": "#d4ac0d", "england": "#c0392b", "france": "#2e6fb5", "netherlands": "#ca6f1e"}
LOCS = ("hull", "masts", "cargo", "crew", "cannons")


def height(view: dict) -> int:
    return 60 + MAP_H + 30 + len(view["players"]) * ROW + 20


def _xy(zone: str, top: int) -> tuple[float, float]:
    fx, fy = PLACES.get(zone, (0.5, 0.5))
    return 40 + fx * (WIDTH - 110), top + 24 + fy * (MAP_H - 70)


def draw(svg: Svg, view: dict, config: dict, names: dict[str, str], seat: int | None, top: int) -> None:
    svg.rect(10, top, WIDTH - 20, MAP_H, fill="#cfe3ee", stroke="#7aa", rx=8)
    for a, b in BORDERS:
        (x1, y1), (x2, y2) = _xy(a, top), _xy(b, top)
        svg.line(x1, y1, x2, y2, stroke="#9fbfcf", width=2)
    board = view["board"]
    N = for_config(config)
    for zone in PLACES:
        x, y = _xy(zone, top)
        port = zone != "caribbean_sea"
        svg.circle(x, y, 26 if port else 34, fill="#efe3c2" if port else "#b9d7e6", stroke="#6b5b3e")
        svg.text(x, y - 30 if port else y - 38, N.zone(zone), size=11, anchor="middle", weight="bold")
        good = board["demand"].get(zone)
        if good:
            svg.text(x, y + 4, words(good), size=10, anchor="middle")
        up = board["upgrades"].get(zone)
        if isinstance(up, dict):
            label = words(up.get("kind", "?")) if up.get("face_up") else f"({words(up.get('kind', '?'))})"
            svg.text(x, y + 16, label[:18], size=8, anchor="middle", fill="#555")
        elif up:
            svg.rect(x - 8, y + 8, 16, 10, fill="#5b4636", stroke="#222", rx=1)  # a tile face down
    # NPCs and captains' ships
    stacked: dict = {}
    for npc, where in (board.get("npcs") or {}).items():
        zone = str(where.get("zone") if isinstance(where, dict) else where)
        x, y = _xy(zone, top)
        n = stacked[zone] = stacked.get(zone, -1) + 1   # several in a zone: one above the other
        label = npc_label(npc)
        w = 8 + len(label) * 5
        r = 26 if zone != "caribbean_sea" else 34                  # the zone's circle
        left = x + r - 2 if x + r - 2 + w <= WIDTH - 14 else x - r + 2 - w   # beside it, inside the map
        y0 = y - 12 - n * 17
        svg.rect(left, y0, w, 14, fill="#222", stroke="#000", rx=3)
        svg.text(left + w / 2, y0 + 10, label, size=8, anchor="middle", fill="#fff")
    at: dict = {}
    for s, p in view["players"].items():
        zone = p.get("zone")
        if not zone:
            continue
        x, y = _xy(zone, top)
        n = at.setdefault(zone, 0)
        at[zone] += 1
        sx, sy = x - 34 + n * 18, y + 30
        svg.path(f"M{sx - 9},{sy} L{sx + 9},{sy} L{sx + 6},{sy + 7} L{sx - 6},{sy + 7} Z", fill=seat_colour(s),
                 stroke="#111")
        svg.text(sx, sy + 18, str(s), size=10, anchor="middle", weight="bold", fill=seat_colour(s))
    _fight(svg, view, names, top)
    y = top + MAP_H + 24
    svg.text(16, y, "Captains", size=15, weight="bold")
    for j, (s, p) in enumerate(view["players"].items()):
        yy = y + 22 + j * ROW
        svg.rect(16, yy - 14, 10, 34, fill=seat_colour(s), stroke="#222", rx=2)
        cap = p.get("captain")
        cap_name = (N.captain(cap["id"]) if isinstance(cap, dict) and cap.get("id") else
                    printed(cap["name"]) if isinstance(cap, dict) and cap.get("name") else "hidden" if cap else "-")
        ship = p.get("ship")
        ship_name = ship.get("name") if isinstance(ship, dict) else words(ship or "?")
        gold = p.get("gold")
        glory = p.get("total_glory", p.get("glory_track"))
        svg.text(32, yy, f"{who(s, names)} — {cap_name} — {ship_name} at {N.zone(p['zone']) if p.get('zone') else '?'}", size=12,
                 weight="bold")
        svg.text(32, yy + 16, f"gold {'hidden' if gold is None else gold} · glory "
                 f"{'hidden' if glory is None else glory} · cargo "
                 f"{len(p['cargo']) if isinstance(p.get('cargo'), list) else p.get('cargo_cards', '?')}", size=11)
        _condition(svg, p, 32, yy + 32)


def npc_label(npc: str) -> str:
    """An NPC as the board names it: ``man_o_war_england`` -> ``Man-o-War England``,
    ``pirate_sloop`` -> ``Pirate Sloop``."""
    if npc.startswith("man_o_war_"):
        return "Man-o-War " + words(npc[len("man_o_war_"):]).title()
    return words(npc).title()


def _condition(svg: Svg, p: dict, x: float, y: float) -> None:
    """The ship's locations (now/most; red when destroyed) and the wanted flags."""
    ship = p.get("ship")
    if isinstance(ship, dict) and ship.get("locations"):
        for k, loc in enumerate(LOCS):
            now, most = ship["locations"][loc], ship["max"][loc]
            svg.text(x + k * 92, y, f"{loc} {now}/{most}", size=11, fill="#b03a2e" if now <= 0 else "#333")
    flags = {n: k for n, k in (p.get("flags") or {}).items() if k}
    fx = x + 470
    if flags:
        svg.text(fx, y, "wanted:", size=11, weight="bold")
        fx += 58
    for nation, k in sorted(flags.items()):
        for i in range(k):
            svg.path(f"M{fx + i * 8},{y + 2} L{fx + i * 8},{y - 12} L{fx + i * 8 + 9},{y - 8} "
                     f"L{fx + i * 8},{y - 4}", fill=NATIONS.get(nation, "#555"), stroke="#222")
        svg.text(fx + k * 8 + 12, y, f"{words(nation)} {k}", size=10)
        fx += k * 8 + 18 + 7 * len(nation)


def _fight(svg: Svg, view: dict, names: dict[str, str], top: int) -> None:
    """A fight or a raid in progress: a box in the map's south-west corner."""
    fight: Any = view.get("combat")  # (the board as JSON)
    raid: Any = view.get("raid")
    if not fight and not raid:
        return
    x, y = 20, top + MAP_H - 92
    svg.rect(x, y, 300, 82, fill="#fff8e6", stroke="#8b0000", rx=6, width=2)
    if fight:
        side = lambda w: (f"the {str(w)[4:].replace('_', ' ')} ship" if isinstance(w, str) and str(w).startswith("npc:")
                          else who(str(w), names))
        svg.text(x + 10, y + 18, f"Fight: {side(fight['a'])} against {side(fight['d'])}", size=12, weight="bold",
                 fill="#8b0000")
        kind = (f"crew combat, round {fight.get('crew_round') or 1}" if fight["kind"] == "crew"
                else f"naval combat, round {fight['round']}")
        svg.text(x + 10, y + 36, kind, size=11)
        dice = fight.get("dice") or {}
        if dice:
            svg.text(x + 10, y + 54, "dice: " + "; ".join(f"{side(fight[k])} {v}" for k, v in sorted(dice.items())),
                     size=10)
        svg.text(x + 10, y + 72, f"waiting for {side(fight['waiting'])}: {words(fight['stage'])}", size=10,
                 fill="#555")
    else:
        svg.text(x + 10, y + 18, f"Raid: {who(str(raid['seat']), names)} in {words(raid['zone'])}", size=12,
                 weight="bold", fill="#8b0000")
        cards = ", ".join(f"{words(c['good'])} ({c['raid']})" for c in raid["cards"]) or "no card yet"
        svg.text(x + 10, y + 38, f"cards: {cards}"[:52], size=11)
        svg.text(x + 10, y + 56, f"{raid['successes_left']} success(es) to use", size=11)

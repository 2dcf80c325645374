"""A few SVG primitives (escaped text, rectangles, paths) and the palette."""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

COLOURS = {"red": "#c0392b", "blue": "#2e6fb5", "green": "#2e8b57", "yellow": "#d4ac0d", "black": "#333333",
           "white": "#fdfdfd", "purple": "#7d3c98", "gold": "#b7950b"}
SEATS = ["#c0392b", "#2e6fb5", "#2e8b57", "#d4ac0d", "#7d3c98", "#ca6f1e", "#17a589", "#5d6d7e"]
BACK = "#5b4636"  # a card seen from the back


def seat_colour(seat: int | str) -> str:
    return SEATS[(int(seat) - 1) % len(SEATS)]


class Svg:
    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.parts: list[str] = []

    def rect(self, x: float, y: float, w: float, h: float, fill: str = "#fff", stroke: str = "#333", rx: int = 4, width: int = 1) -> None:
        self.parts.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="{rx}" '
                          f'fill={quoteattr(fill)} stroke={quoteattr(stroke)} stroke-width="{width}"/>')

    def circle(self, x: float, y: float, r: float, fill: str = "#fff", stroke: str = "#333") -> None:
        self.parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill={quoteattr(fill)} '
                          f'stroke={quoteattr(stroke)}/>')

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = "#8aa", width: int = 2) -> None:
        self.parts.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                          f'stroke={quoteattr(stroke)} stroke-width="{width}"/>')

    def path(self, d: str, fill: str = "#fff", stroke: str = "#333") -> None:
        self.parts.append(f'<path d={quoteattr(d)} fill={quoteattr(fill)} stroke={quoteattr(stroke)}/>')

    def text(self, x: float, y: float, s: object, size: int = 12, fill: str = "#222", weight: str = "normal", anchor: str = "start") -> None:
        self.parts.append(f'<text x="{x:.1f}" y="{y:.1f}" font-family="sans-serif" font-size="{size}" '
                          f'font-weight="{weight}" fill={quoteattr(fill)} text-anchor="{anchor}">'
                          f'{escape(str(s))}</text>')

    def card(self, x: float, y: float, w: float, h: float, label: str = "", sub: str = "", fill: str = "#fff", face_down: bool = False, size: int = 11) -> None:
        """A card: face up with its label, or its back."""
        if face_down:
            self.rect(x, y, w, h, fill=BACK, stroke="#2b1d12")
            self.rect(x + 4, y + 4, w - 8, h - 8, fill="none", stroke="#a08060", rx=3)
            return
        self.rect(x, y, w, h, fill=fill)
        if label != "":
            self.text(x + w / 2, y + h / 2 + (0 if sub else size / 3), label, size=size, anchor="middle",
                      weight="bold")
        if sub:
            self.text(x + w / 2, y + h / 2 + min(size, 14) + 4, sub, size=min(11, max(8, size - 3)), anchor="middle")

    def more(self, x: float, y: float, shown: int, total: int) -> None:
        """What a row had no room for (``total`` things, ``shown`` drawn), said rather than dropped."""
        if total > shown:
            self.text(x, y, f"+{total - shown} more", size=10, weight="bold", fill="#a01010")

    def finish(self) -> str:
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{self.height}" '
                f'viewBox="0 0 {self.width} {self.height}">' + "".join(self.parts) + "</svg>\n")

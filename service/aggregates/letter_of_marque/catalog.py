"""Letter of Marque card data, loaded and validated from ``data/catalog.json``.

Every entry is ``{"value": ..., "source": "rulebook"|"reference"|"provisional", "note": ...}``.
"""

from __future__ import annotations

import json
from pathlib import Path

from service.kernel.errors import BadInput

PATH = Path(__file__).with_name("data") / "catalog.json"
SOURCES = {"rulebook", "reference", "provisional"}


def validate(cat: dict) -> dict:
    for key in ("colours", "treasures", "ships", "cannon_cards"):
        entry = cat.get(key)
        if not isinstance(entry, dict) or "value" not in entry or entry.get("source") not in SOURCES:
            raise BadInput(f"catalog entry {key!r} needs a value and a source ({', '.join(sorted(SOURCES))})")
    colours = cat["colours"]["value"]
    if len(colours) < 6 or len(set(colours)) != len(colours):
        raise BadInput("catalog needs six distinct colours")
    for c in colours:
        values = cat["treasures"]["value"].get(c)
        if not isinstance(values, list) or len(values) != 5 or not all(
                isinstance(v, int) and v > 0 for v in values):
            raise BadInput(f"colour {c!r} needs five positive treasure values")
    ships = cat["ships"]["value"]
    if ships != {"armed": 2, "unarmed": 3}:
        raise BadInput("the rulebook fixes the ships: 2 armed and 3 unarmed per colour")
    if cat["cannon_cards"]["value"] != 3:
        raise BadInput("the rulebook fixes three cannon cards per colour")
    return cat


def load(path: Path | None = None) -> dict:
    return validate(json.loads((path or PATH).read_text()))

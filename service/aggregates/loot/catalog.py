"""Loot card data, loaded and validated from ``data/catalog.json``.

Every entry is ``{"value": ..., "source": "rulebook"|"reference"|"provisional", "note": ...}``.
All of Loot's values are printed in the rulebook.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from service.kernel.errors import BadInput

PATH = Path(__file__).with_name("data") / "catalog.json"
SOURCES = {"rulebook", "reference", "provisional"}
KEYS = ("merchants", "colours", "pirates_per_colour", "captains_per_colour", "admirals", "hand_size")
COLOUR = re.compile(r"^[a-z]+$")
NUMBER = re.compile(r"[1-9][0-9]*")  # a positive number as written once: "5", not "05" (the same cards) or "５"


def _counts(cat: dict, key: str) -> None:
    value = cat[key]["value"]
    if not isinstance(value, dict) or not value:
        raise BadInput(f"catalog {key!r} must map a number (as text) to a count")
    for k, n in value.items():
        if not (isinstance(k, str) and NUMBER.fullmatch(k)):
            raise BadInput(f"catalog {key!r}: {k!r} is not a positive number written in digits without a leading 0")
        if not (isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 26):
            raise BadInput(f"catalog {key!r}: count for {k} must be a whole number from 0 to 26")


def validate(cat: dict) -> dict:
    if not isinstance(cat, dict):
        raise BadInput("the loot catalog must be a JSON object")
    for key in KEYS:
        entry = cat.get(key)
        if not isinstance(entry, dict) or "value" not in entry or entry.get("source") not in SOURCES:
            raise BadInput(f"catalog entry {key!r} needs a value and a source ({', '.join(sorted(SOURCES))})")
    _counts(cat, "merchants")
    _counts(cat, "pirates_per_colour")
    colours = cat["colours"]["value"]
    if (not isinstance(colours, list) or not colours or len(set(colours)) != len(colours)
            or not all(isinstance(c, str) and COLOUR.match(c) and c not in ("merchant", "admiral")
                       for c in colours)):
        raise BadInput("catalog 'colours' must be distinct lower-case words (not 'merchant' or 'admiral')")
    for key, low, high in (("captains_per_colour", 0, 1), ("admirals", 0, 1), ("hand_size", 1, 20)):
        v = cat[key]["value"]
        if not (isinstance(v, int) and not isinstance(v, bool) and low <= v <= high):
            raise BadInput(f"catalog {key!r} must be a whole number from {low} to {high}")
    colours_n = len(colours)
    size = (sum(cat["merchants"]["value"].values())
            + colours_n * (sum(cat["pirates_per_colour"]["value"].values()) + cat["captains_per_colour"]["value"])
            + cat["admirals"]["value"])
    need = 8 * cat["hand_size"]["value"] + 1
    if size < need:
        raise BadInput(f"the catalog makes a deck of {size} cards: at least {need} are needed "
                       "to deal eight hands and leave a draw pile")
    return cat


def load(path: Path | None = None) -> dict:
    try:
        data = json.loads((path or PATH).read_text())
    except (OSError, ValueError) as e:
        raise BadInput(f"cannot read the loot catalog: {e}") from None
    return validate(data)

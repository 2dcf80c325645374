"""What every game's check of a stated position (``Rules.position``) asks of its shape,
said the same way in every game: an object with known keys, one entry a seat, a whole
number within its bounds. What a position may state is each game's own (its position.py)."""

from __future__ import annotations

from .errors import BadInput

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any


def keys(what: str, d: dict[str, Any], known: Iterable[str]) -> dict:
    """``d``, a JSON object with no key outside ``known``; else a refusal naming ``what``."""
    if not isinstance(d, dict):
        raise BadInput(f"{what} must be a JSON object")
    unknown = sorted(set(d) - set(known))
    if unknown:
        raise BadInput(f"{what}: unknown {', '.join(map(repr, unknown))} (known: {', '.join(known)})")
    return d


def players(position: dict, seats: int) -> list:
    """The position's ``players``: a list, one entry a seat."""
    people = position.get("players")
    if not isinstance(people, list) or len(people) != seats:
        n = len(people) if isinstance(people, list) else 0
        raise BadInput(f"the position describes {n} players ('players': a list, one a seat); the game has {seats} seats")
    return people


def whole(what: str, value: Any, low: int, high: int) -> int:
    """``value``, a whole number from ``low`` to ``high`` (``true`` is not 1)."""
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise BadInput(f"{what} must be a whole number from {low} to {high}, not {value!r}")
    return value

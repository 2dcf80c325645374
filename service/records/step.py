"""A step of a game's history as a verifier names it: the versions from a
step's first event to the event before the next step's (spec/SPEC.md §2)."""

from __future__ import annotations


def starts_step(row) -> bool:
    return row["type"] in ("Decided", "EntropyAdded")


def step_bounds(rows: list, version: int) -> list[int]:
    """The step holding ``version``: from its Decided (or EntropyAdded) to the event before the next."""
    first = version
    while first > 1 and not starts_step(rows[first - 1]):
        first -= 1
    last = version
    while last < len(rows) and not starts_step(rows[last]):
        last += 1
    return [first, last]


def types_between(rows, first: int, last: int) -> str:
    names = [r["type"] for r in rows if first <= r["version"] <= last]
    head = ", ".join(names[:3])
    return head + (f" and {len(names) - 3} more" if len(names) > 3 else "")

"""A step of a game's history as a verifier names it: the versions from a
step's first event to the event before the next step's (spec/SPEC.md §2). A
step starts at a ``Decided``, ``EntropyAdded``, ``SeatNamed`` or
``SeatKeyRegistered``: the kernel's ``STEP_STARTS``, the one definition."""

from __future__ import annotations

from service.kernel.machine import STEP_STARTS


def starts_step(row) -> bool:
    return row["type"] in STEP_STARTS


def step_bounds(rows: list, version: int) -> list[int]:
    """The step holding ``version``: from its step start to the event before the next (spec §2)."""
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

"""Equal, types included: the one comparison of a submitted decision with the
listed ones (JSON keeps ``true`` and ``1``, ``1`` and ``1.0``, apart; Python's ``==``
does not). Every game compares decisions with this, never with a copy of its own."""

from __future__ import annotations

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    from typing import Any


def strictly_equal(a: Any, b: Any) -> bool:
    """Equal, types included: ``True`` is not ``1``, ``1.0`` is not ``1``."""
    t = type(a)
    if t is not type(b):
        return False
    if t is str or t is int:
        return a == b
    if isinstance(a, dict):
        if a.keys() != b.keys():
            return False
        for k, v in a.items():
            w = b[k]
            tv = type(v)
            if tv is not type(w):
                return False
            if tv is str or tv is int:
                if v != w:
                    return False
            elif not strictly_equal(v, w):
                return False
        return True
    if isinstance(a, list):
        return len(a) == len(b) and all(strictly_equal(x, y) for x, y in zip(a, b))
    return a == b

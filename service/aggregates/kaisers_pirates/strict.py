"""Type-strict comparison of a submitted decision with the listed ones.

JSON has booleans and numbers apart, Python does not (``0 == False``,
``1 == True``, ``1 == 1.0``): a decision is accepted only when it equals a
listed decision value for value *and* type for type (a boolean must be a
boolean, a whole number an int and not a bool, a string a string)."""

from __future__ import annotations


def same(a, b) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return isinstance(b, (list, tuple)) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def listed(decision, legal) -> bool:
    return any(same(decision, d) for d in legal)

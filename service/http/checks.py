"""What a request's values must be before the service keeps them, and the
fingerprint an idempotent request is known by."""

from __future__ import annotations

import hashlib
import json
import math
from datetime import datetime, timezone

from service.kernel.errors import BadInput

MAX_DEPTH = 32
INT_MIN, UINT_MAX = -(2**63), 2**64 - 1


def check_json(value: object, what: str, depth: int = 0) -> None:
    """Refuse what JSON allows but the store cannot keep or give back
    (NaN, infinities, integers beyond 64 bits, very deep nesting)."""
    if depth > MAX_DEPTH:
        raise BadInput(f"{what} is nested too deeply")
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return
    if isinstance(value, int):
        if not INT_MIN <= value <= UINT_MAX:
            raise BadInput(f"{what} holds an integer beyond 64 bits")
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise BadInput(f"{what} holds a number that is not finite")
        return
    if isinstance(value, list):
        for v in value:
            check_json(v, what, depth + 1)
        return
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                raise BadInput(f"{what} has a key that is not a string")
            check_json(v, what, depth + 1)
        return
    raise BadInput(f"{what} holds a {type(value).__name__}, which JSON does not have")


def fingerprint(obj: object) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def now() -> str:
    return datetime.now(timezone.utc).isoformat()

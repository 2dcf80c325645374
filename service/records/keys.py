"""Keys as a verifier is given them (spec/SPEC.md §4): bare public keys, key
histories with each key's life and the rotation statements between them, and
the two checks on a signature's time (within its key's life; never going back
along a chain)."""

from __future__ import annotations

import json
from pathlib import Path

from event_store.signing import KeyHistory, fingerprint, rotation_problem
from service.kernel.errors import BadInput


def merge_keys(*many) -> KeyHistory:
    """Several key sets (a ``KeyHistory`` keeps its lives) as one."""
    out = KeyHistory()
    for keys in many:
        out.update(keys or {})
        out.life.update(getattr(keys, "life", {}) or {})
    return out


def instant(time: str):
    from datetime import datetime, timezone

    t = datetime.fromisoformat(str(time))
    return t if t.tzinfo is not None else t.replace(tzinfo=timezone.utc)


def sort_time(time) -> tuple:
    try:
        return (0, instant(str(time)).timestamp(), str(time))
    except ValueError:
        return (1, 0.0, str(time))


def outside_life(keys, fp: str, time: str) -> str | None:
    """Why a signature by ``fp`` at ``time`` is outside its key's life (None: within it, or undated)."""
    start, until = (getattr(keys, "life", {}) or {}).get(fp, (None, None))
    try:
        t = instant(time)
        if until and t > instant(until):
            return f"signed at {time} by key {fp[:16]}, after its key's retirement at {until}"
        if start and t < instant(start):
            return f"signed at {time} by key {fp[:16]}, before its key's life began at {start}"
    except ValueError:
        return f"its signature's time {str(time)[:40]!r} is not a time"
    return None


def goes_back(time: str, before: tuple | None) -> str | None:
    """Why a signature at ``time`` breaks the chain's time order after ``before``
    ((time, version) of the previous counted signature); None when it does not."""
    if before is None:
        return None
    try:
        if instant(time) < instant(before[0]):
            return (f"signed at {time}, earlier than the signature of version {before[1]} ({before[0]}): "
                    "time goes back along the chain")
    except ValueError:
        return f"its signature's time {str(time)[:40]!r} is not a time"
    return None


def history_keys(doc: dict, where: str) -> KeyHistory:
    """The keys of a key history (``tools key --json``, ``GET /key``), each with its
    life, after checking its rotation statements with both their keys."""

    out = KeyHistory()
    for k in doc.get("keys") or [doc]:
        pk = bytes.fromhex(k["public_key"])
        fp = fingerprint(pk)
        out[fp] = pk
        start, until = k.get("from", k.get("created")), k.get("until", k.get("retired"))
        if start or until:
            out.life[fp] = (start or None, until or None)
    listed = {fingerprint(bytes.fromhex(k["public_key"])): k for k in doc.get("keys") or []}
    for st in list(doc.get("rotations") or []) + [k["rotation"] for k in listed.values() if k.get("rotation")]:
        problem = rotation_problem(st)
        if problem is not None:
            raise BadInput(f"--key {where[:40]!r}: the key history does not hold together: {problem}")
        old = listed.get(fingerprint(bytes.fromhex(st["outgoing"])))
        if old is not None and old.get("until", old.get("retired")) != st["time"]:
            raise BadInput(f"--key {where[:40]!r}: the key history does not hold together: key "
                           f"{fingerprint(bytes.fromhex(st['outgoing']))[:16]} retired at "
                           f"{old.get('until', old.get('retired'))}, its rotation at {st['time']}")
    return out


def published_keys(values: list[str]) -> dict[str, bytes] | None:
    """``--key`` values: a public key in hex (64 digits), or a file holding one
    or the JSON of `tools key --json` / `GET /key` (the key history: every key
    listed in it, each within its life, the rotations checked with both keys)."""
    if not values:
        return None
    out = KeyHistory()
    for v in values:
        text = v.strip()
        if not is_hex(text, 64) and _is_file(text):
            text = Path(text).read_text().strip()
        if is_hex(text, 64):
            pk = bytes.fromhex(text)
            out[fingerprint(pk)] = pk
            continue
        try:
            doc = json.loads(text)
            out = merge_keys(out, history_keys(doc, v))
        except BadInput:
            raise
        except (ValueError, AttributeError, KeyError, TypeError):
            raise BadInput(f"--key {v[:40]!r}: give an Ed25519 public key (64 hex digits) or a file holding it "
                           "(or `tools key --json`)") from None
    return out


def _is_file(text: str) -> bool:
    """Whether ``text`` names a file (a key history's JSON given as text is no file name, however long)."""
    try:
        return Path(text).is_file()
    except OSError:  # a name too long for the system
        return False


def is_hex(text: str, digits: int) -> bool:
    return len(text) == digits and all(c in "0123456789abcdefABCDEF" for c in text)


def keys_said(used: dict, own: bool) -> str:
    fps = ", ".join(fp[:16] for fp in used)
    return (f"the keys the file carries ({fps}; give --key to check against a published key)" if own
            else f"the published key{'s' if len(used) > 1 else ''} {fps}")

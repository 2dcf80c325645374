"""Seats' receipts (spec/SPEC.md §6): reading them, checking their signature,
and finding the step a receipt names in a file by its head and the seat's own
version."""

from __future__ import annotations

import json
from pathlib import Path
from uuid import UUID

from event_store.signing import RECEIPT, fingerprint, receipt_message, verify
from service.kernel.errors import BadInput
from service.kernel.events import may_read
from service.records.keys import outside_life
from service.records.step import step_bounds, types_between


def read_receipts(values: list[str]) -> list[dict]:
    """``--receipt`` values: a receipt's JSON, or a file of one (a JSON object,
    a list of them, or one per line)."""
    out = []
    for v in values:
        text = v.strip()
        if not text.startswith(("{", "[")):
            try:
                text = Path(text).read_text()
            except OSError as e:
                raise BadInput(f"--receipt {v[:40]!r}: not JSON and not a readable file ({e.strerror})") from None
        try:
            doc = json.loads(text)
            items = doc if isinstance(doc, list) else [doc]
        except json.JSONDecodeError:
            try:
                items = [json.loads(line) for line in text.splitlines() if line.strip()]
            except json.JSONDecodeError:
                raise BadInput(f"--receipt {v[:40]!r}: not a receipt (JSON)") from None
        for r in items:
            if isinstance(r, dict) and isinstance(r.get("receipt"), dict):
                r = r["receipt"]  # an `act --json` answer kept whole
            need = ("game_id", "seat", "seat_version", "head", "time", "fingerprint", "signature")
            if not isinstance(r, dict) or r.get("statement", RECEIPT) != RECEIPT or any(k not in r for k in need):
                raise BadInput(f"--receipt {v[:40]!r}: not a receipt (want {', '.join(need)})")
            out.append(r)
    return out


def seat_counts(rows: list, seat: int) -> dict[int, int]:
    """By store version: how many events ``seat`` may read up to there."""
    n, out = 0, {}
    for r in rows:
        n += may_read(r["visible_to"], seat)
        out[r["version"]] = n
    return out


def ordered(receipts: list[dict], rows: list) -> list[dict]:
    """Receipts in the order of the steps they name in this file (the first step that differs first)."""
    def where(r):
        counts = seat_counts(rows, int(r["seat"]))
        return next((v for v, n in counts.items() if n >= int(r["seat_version"])), rows[-1]["version"] + 1)
    return sorted(receipts, key=where)


def receipt_signed(gid_hex: str, r: dict, file_keys: dict, published: dict | None) -> str | None:
    """None when the receipt is the service's signature (by a published key,
    or the file's, or its own public key); else why not."""
    fp = r["fingerprint"]
    keys = published if published is not None else dict(file_keys)
    if published is None and r.get("public_key") and fingerprint(bytes.fromhex(r["public_key"])) == fp:
        keys.setdefault(fp, bytes.fromhex(r["public_key"]))
    if fp not in keys:
        return f"receipt of seat {r['seat']} at its version {r['seat_version']}: signed by key {fp[:16]}, " \
               "which is not " + ("the published key" if published is not None else "known")
    msg = receipt_message(bytes.fromhex(r["game_id"]), int(r["seat"]), int(r["seat_version"]),
                          bytes.fromhex(r["head"]), r["time"], fp)
    if not verify(keys[fp], bytes.fromhex(r["signature"]), msg):
        return f"receipt of seat {r['seat']} at its version {r['seat_version']}: its signature does not check " \
               f"(not a receipt the service gave)"
    late = outside_life(keys, fp, r["time"])
    if late is not None:
        return f"receipt of seat {r['seat']} at its version {r['seat_version']}: {late}"
    if r["game_id"] != gid_hex:
        return f"receipt of seat {r['seat']}: for game {r['game_id']}, not this file's game {gid_hex}"
    return None


def check_receipt(gid: UUID, rows: list, r: dict, file_keys: dict, published: dict | None) -> dict | None:
    seat, n = int(r["seat"]), int(r["seat_version"])
    problem = receipt_signed(gid.hex, r, file_keys, published)
    if problem is not None:
        return {"version": None, "step": None, "reason": problem}
    counts = seat_counts(rows, seat)
    head = bytes.fromhex(r["head"])
    at = next((x["version"] for x in rows if x["hash"] == head), None)
    if at is not None and counts[at] == n:
        return None
    # where the seat's step should be in this file: the first event after which the seat had read n events
    there = next((v for v, c in counts.items() if c >= n), None)
    if there is None:
        return {"version": rows[-1]["version"], "step": None,
                "reason": f"receipt of seat {seat} at its version {n}: the file ends before that step "
                          f"(the seat may read {counts[rows[-1]['version']]} events in it)"}
    step = step_bounds(rows, there)
    return {"version": step[0], "step": step,
            "reason": f"receipt of seat {seat} at its version {n}: the file does not hold that step unchanged: "
                      f"the step at versions {step[0]}-{step[1]} ({types_between(rows, step[0], step[1])}) differs from "
                      f"what the seat was given (head {r['head'][:16]} is not in this file)"}

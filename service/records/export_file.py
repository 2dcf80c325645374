"""One portable file per game: MessagePack (our codec), exact to the byte, so
an imported game's chain and hashes verify as they did in the source store.

    {"format": "privateer-game", "format_version": 3, "game_id": UUID,
     "events": [[version, timestamp, type, turn, visible_to, data, prev, hash, salt], ...],
     "secret": seed bytes or None,
     "signatures": [[version, time, fingerprint, signature], ...],
     "keys": {fingerprint: public key bytes, ...},
     "parents": [[version, seed bytes or None], ...] or None,
     "key_history": {...} (absent unless the service signed it),
     "end": [version, time, fingerprint, signature] (a finished game's signed end; absent otherwise)}

MessagePack as in event_store/codec.py: the game id is ext type 1 (its 16
bytes), each timestamp ext type 2 (its ISO 8601 text, the exact text the
chain hashes), ``prev``/``hash``/``salt`` are bin (``salt`` is nil for a
chain version 1 event). ``signatures`` are the service's signed heads
(event_store/signing.py; ``signature`` bin, 64 bytes), ``keys`` the public
keys (bin, 32 bytes) that made them, by fingerprint; ``parents`` (a fork) the
seeds its ancestors revealed, oldest first: the chance events up to each
``version`` were drawn with that seed (None: not revealed yet). Format version 2 files
(no signatures, keys or parent secret) and 1 (rows of 8, no salt) are read
too. spec/SPEC.md is the specification.
"""

from __future__ import annotations

from pathlib import Path
from uuid import UUID

from service.kernel.errors import BadInput

from event_store.codec import UNPACK_ERRORS, pack, unpack, unpack_event_row

FORMAT = "privateer-game"
FORMAT_VERSION = 3
FIELDS = ("version", "timestamp", "type", "turn", "visible_to", "data", "prev", "hash", "salt")
READS = (1, 2, 3)


def write_game(path: str, game_id: UUID, events: list, secret: bytes | None, signatures: list | None = None,
               keys: dict | None = None, parents: list | None = None, key_history: dict | None = None,
               end: list | None = None) -> int:
    """``key_history``: the signing service's key history (spec/SPEC.md §4, §10), when it signed the game;
    ``end``: a finished game's signed end ``[version, time, fingerprint, signature]`` (§4a)."""
    rows = [[e.originator_version, e.timestamp, e.type, e.turn, e.visible_to, e.data, e.prev, e.hash,
             getattr(e, "salt", None)] for e in events]
    doc = {"format": FORMAT, "format_version": FORMAT_VERSION, "game_id": game_id,
           "events": rows, "secret": secret, "signatures": signatures or [], "keys": keys or {},
           "parents": parents}
    if key_history is not None:
        doc["key_history"] = key_history
    if end is not None:
        doc["end"] = [end[0], end[1], end[2], bytes(end[3])]
    body = pack(doc)
    Path(path).write_bytes(body)
    return len(body)


def read_game(path: str, times_as_text: bool = False) -> dict:
    """``times_as_text``: each timestamp as the ISO text in the file (what the chain hashes)."""
    try:
        raw = Path(path).read_bytes()
    except OSError as e:
        raise BadInput(f"cannot read {path}: {e.strerror}") from None
    try:
        doc = unpack_event_row(raw) if times_as_text else unpack(raw)
    except UNPACK_ERRORS:
        raise BadInput(f"{path} is not a privateer game file (not MessagePack)") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise BadInput(f"{path} is not a privateer game file")
    fv = doc.get("format_version")
    if fv not in READS:
        raise BadInput(f"{path} has format version {fv}, this build reads {', '.join(map(str, READS))}")
    width = len(FIELDS) if fv >= 2 else len(FIELDS) - 1
    if not isinstance(doc.get("game_id"), UUID) or not isinstance(doc.get("events"), list) or not doc["events"]:
        raise BadInput(f"{path} has no game id or no events")
    events = []
    for row in doc["events"]:
        if not isinstance(row, list) or len(row) != width:
            raise BadInput(f"{path} has a malformed event row")
        ev = dict(zip(FIELDS, row))
        ev.setdefault("salt", None)
        events.append(ev)
    signatures, keys = doc.get("signatures") or [], doc.get("keys") or {}
    if not isinstance(signatures, list) or not isinstance(keys, dict) or not all(
            isinstance(r, list) and len(r) == 4 for r in signatures):
        raise BadInput(f"{path} has malformed signatures")
    end = doc.get("end")
    if end is not None and not (isinstance(end, list) and len(end) == 4 and isinstance(end[0], int)
                                and isinstance(end[1], str) and isinstance(end[2], str)
                                and isinstance(end[3], bytes) and len(end[3]) == 64):
        raise BadInput(f"{path} has a malformed signed end")
    return {"game_id": doc["game_id"], "events": events, "secret": doc.get("secret"), "format_version": fv,
            "signatures": signatures, "keys": keys, "parents": doc.get("parents"),
            "key_history": doc.get("key_history") if isinstance(doc.get("key_history"), dict) else None,
            "end": end}

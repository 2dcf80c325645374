"""One portable file per game: MessagePack (our codec), exact to the byte, so
an imported game's chain and hashes verify as they did in the source store.

    {"format": "privateer-game", "format_version": 1, "game_id": UUID,
     "events": [[version, timestamp, type, turn, visible_to, data, prev, hash], ...],
     "secret": seed bytes or None}
"""

from __future__ import annotations

from pathlib import Path
from uuid import UUID

from service.kernel.errors import BadInput

from .codec import pack, unpack

FORMAT = "privateer-game"
FORMAT_VERSION = 1
FIELDS = ("version", "timestamp", "type", "turn", "visible_to", "data", "prev", "hash")


def write_game(path: str, game_id: UUID, events: list, secret: bytes | None) -> int:
    rows = [[e.originator_version, e.timestamp, e.type, e.turn, e.visible_to, e.data, e.prev, e.hash]
            for e in events]
    body = pack({"format": FORMAT, "format_version": FORMAT_VERSION, "game_id": game_id,
                 "events": rows, "secret": secret})
    Path(path).write_bytes(body)
    return len(body)


def read_game(path: str) -> dict:
    try:
        raw = Path(path).read_bytes()
    except OSError as e:
        raise BadInput(f"cannot read {path}: {e.strerror}") from None
    try:
        doc = unpack(raw)
    except Exception:
        raise BadInput(f"{path} is not a privateer game file (not MessagePack)") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise BadInput(f"{path} is not a privateer game file")
    if doc.get("format_version") != FORMAT_VERSION:
        raise BadInput(f"{path} has format version {doc.get('format_version')}, this build reads {FORMAT_VERSION}")
    if not isinstance(doc.get("game_id"), UUID) or not isinstance(doc.get("events"), list) or not doc["events"]:
        raise BadInput(f"{path} has no game id or no events")
    events = []
    for row in doc["events"]:
        if not isinstance(row, list) or len(row) != len(FIELDS):
            raise BadInput(f"{path} has a malformed event row")
        events.append(dict(zip(FIELDS, row)))
    return {"game_id": doc["game_id"], "events": events, "secret": doc.get("secret")}

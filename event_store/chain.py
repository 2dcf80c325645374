"""The hash chain of one game's stored events.

Every stored event carries ``prev`` (the previous event's hash; for the first
event, the genesis hash of the game id) and its own ``hash``:

    genesis = SHA-256("privateer-chain-v1:" || game_id as 16 bytes)
    hash    = SHA-256(msgpack([game_id bytes, version, timestamp ISO text,
                               type, turn, visible_to, data, prev]))

so changing any stored byte of an event changes its hash, and deleting or
reordering events breaks the ``prev`` links. The store's games index keeps the
head (last version and hash) in the same transaction as the events, so a
truncated history is caught too.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from uuid import UUID

from .codec import pack


def genesis(game_id: UUID) -> bytes:
    return hashlib.sha256(b"privateer-chain-v1:" + game_id.bytes).digest()


def link(game_id: UUID, version: int, timestamp: datetime, type: str, turn: int, vis, data,
         prev: bytes) -> bytes:
    body = pack([game_id.bytes, version, timestamp.isoformat(), type, turn, vis, data, prev])
    return hashlib.sha256(body).digest()

"""The hash chain of one game's stored events.

Two chain versions exist; ``GameCreated.data["chain"]`` says which (absent: 1).

Version 2 (every game created by this build). Each stored event carries a
``salt`` (32 random bytes, kept with the event in the store, never shown to a
seat), ``prev`` (the previous event's hash; for version 1 of the history the
genesis) and its own ``hash``:

    genesis = SHA-256("privateer-chain-v2:" || game_id as 16 bytes)
    seal    = SHA-256("privateer-seal-v2:" || salt || canon([type, data]))
    hash    = SHA-256(canon([game_id as 16 bytes, version, timestamp text,
                             turn, visible_to, seal, prev]))

``canon`` is MessagePack with ``bin`` for bytes and ``str`` for text, integers
in their shortest form, and every map's keys sorted by their UTF-8 bytes (all
keys are text). The timestamp text is the event's stored ISO 8601 text
(``datetime.isoformat()``: ``2026-11-22T14:09:00.123456+00:00``).

The seal hides the event's content behind a secret salt: a public head or
hash says nothing about a hidden event, however few values it could hold
(an armed or unarmed ship, a stash amount), because nobody without the salt
can recompute it. Whoever holds the full events with their salts (the
referee, or an export of a finished game) checks every link.

Version 1 (games stored before chain version 2; still verified):

    genesis = SHA-256("privateer-chain-v1:" || game_id as 16 bytes)
    hash    = SHA-256(msgpack([game_id bytes, version, timestamp ISO text,
                               type, turn, visible_to, data, prev]))

with the data's maps in their stored key order.
"""

from __future__ import annotations

import os

import msgpack

TYPE_CHECKING = False  # typing itself is not imported: a replay's start-up does without it
if TYPE_CHECKING:
    from datetime import datetime
    from typing import Any
    from uuid import UUID

from service.kernel.sha import sha256

from .codec import pack

CHAIN_VERSION = 2
SALT_BYTES = 32
_packb = msgpack.Packer(use_bin_type=True).pack
_SEAL_PREFIX = b"privateer-seal-v2:"
_INTS = frozenset((int,))   # a list of seat numbers holds these types alone


def chain_version(created_data: dict[str, Any]) -> int:
    v = created_data.get("chain", 1)
    if v not in (1, 2):
        raise ValueError(f"chain version {v!r} is not one this build reads (1 or 2)")
    return v


def new_salt() -> bytes:
    return os.urandom(SALT_BYTES)  # secrets.token_bytes, without importing random


def new_salts(n: int) -> list[bytes]:
    """``n`` fresh salts from one read of the system's random source."""
    raw = os.urandom(SALT_BYTES * n)
    return [raw[i:i + SALT_BYTES] for i in range(0, SALT_BYTES * n, SALT_BYTES)]


_ISO: dict = {}


def iso(ts: datetime) -> str:
    """``ts.isoformat()``, remembered for the few timestamps in flight (an
    event's is needed by its link, its stored row and the games index)."""
    hit = _ISO.get(id(ts))
    if hit is not None and hit[0] is ts:
        return hit[1]
    text = ts.isoformat()
    if len(_ISO) > 512:
        _ISO.clear()
    _ISO[id(ts)] = (ts, text)   # the entry keeps ts alive, so its id is not reused meanwhile
    return text


_SCALAR_TYPES = frozenset((str, int, bool, bytes, type(None)))   # (membership by hash, not a scan of a tuple)
_type = type                          # (``seal`` and ``link`` name a parameter ``type``)


def _canon_obj(obj: Any) -> Any:
    t = type(obj)
    if t in _SCALAR_TYPES:
        return obj
    if t is dict or isinstance(obj, dict):
        return _canon_map(obj)
    if t is list or t is tuple or isinstance(obj, (list, tuple)):
        if _SCALAR_TYPES.issuperset(map(type, obj)):
            return obj  # scalars alone: packs to the same bytes as a copy (a tuple packs as a list)
        scalars = _SCALAR_TYPES
        return [v if type(v) in scalars else _canon_obj(v) for v in obj]
    if isinstance(obj, float):
        raise TypeError("event data holds no floats")
    return obj


def _canon_map(obj: dict[Any, Any]) -> dict[str, Any]:
    """The map with its keys sorted (code point order is UTF-8 byte order) at
    every depth; the map itself when it is already so and holds only scalars."""
    try:
        keys = sorted(obj)
    except TypeError:  # keys of several types: one of them is not text
        keys = None
    if keys is None or (keys and type(keys[0]) is not str):
        for k in obj:
            if not isinstance(k, str):
                raise TypeError(f"map key {k!r} is not text")
        if keys is None:  # not reached: keys that do not sort are not all text
            raise TypeError("map keys that do not sort")
    scalars = _SCALAR_TYPES
    if type(obj) is dict and keys == list(obj) and scalars.issuperset(map(type, obj.values())):
        return obj  # already canonical: packs to the same bytes as a sorted copy
    out: dict[str, Any] = {}
    for k in keys:
        v = obj[k]
        out[k] = v if type(v) in scalars else _canon_obj(v)
    return out


def canon(obj: Any) -> bytes:
    """Canonical MessagePack: keys sorted by UTF-8 bytes, bin type for bytes."""
    return msgpack.packb(_canon_obj(obj), use_bin_type=True)


def _id_bytes(game_id: UUID | bytes) -> bytes:
    """The game id's 16 bytes, what the chain hashes: given as a UUID, or as those bytes
    (a replay reads the id as text and makes no UUID of it: service/replay.py ``ChainCheck``)."""
    return game_id if _type(game_id) is bytes else game_id.bytes  # type: ignore[union-attr]  # a UUID


def genesis(game_id: UUID | bytes, version: int = CHAIN_VERSION) -> bytes:
    """``game_id``: see ``_id_bytes``."""
    return sha256(f"privateer-chain-v{version}:".encode() + _id_bytes(game_id)).digest()


def seal(salt: bytes, type: str, data: Any, known: dict[str, bytes] | None = None) -> bytes:
    """``known``: canonical bytes (``canon``) already made of some of the data
    map's values, by key (a game's catalog, packed once a process)."""
    # canon([type, data]): a two-item array (0x92), then each item
    kind = type if _type(type) is str else _canon_obj(type)
    if known is None:
        # the array packed at once: the same bytes (event data, a map, made canonical directly)
        body = _packb([kind, _canon_map(data) if _type(data) is dict else _canon_obj(data)])
    else:
        body = b"\x92" + _packb(kind) + _canon_map_with(data, known)
    return sha256(_SEAL_PREFIX + salt + body).digest()


_map_header = msgpack.Packer(use_bin_type=True).pack_map_header


def _canon_map_with(data: dict[str, Any], known: dict[str, bytes]) -> bytes:
    """``canon(data)``, with the values of ``known``'s keys taken as the bytes
    given: a map packs as its header, then each key and value packed in
    turn, in the canonical order of the keys."""
    for k in data:
        if _type(k) is not str:
            raise TypeError(f"map key {k!r} is not text")
    parts = [_map_header(len(data))]
    for k in sorted(data):
        parts.append(_packb(k))
        parts.append(known[k] if k in known else _packb(_canon_obj(data[k])))
    return b"".join(parts)


def link(game_id: UUID | bytes, version: int, timestamp: datetime | str, type: str, turn: int, vis: Any, data: Any,
         prev: bytes, salt: bytes | None = None, chain: int = CHAIN_VERSION,
         known: dict[str, bytes] | None = None) -> bytes:
    """``game_id``: see ``_id_bytes``; ``timestamp``: the event's stored time, or its
    ISO text (``iso``); ``known``: see ``seal``."""
    gid = _id_bytes(game_id)
    ts = timestamp if _type(timestamp) is str else iso(timestamp)  # type: ignore[arg-type]  # not text
    if chain == 1:
        body = pack([gid, version, ts, type, turn, vis, data, prev])
    else:
        if not isinstance(salt, bytes) or len(salt) != SALT_BYTES:
            raise ValueError("a chain v2 event needs a 32-byte salt")
        items = [gid, version, ts, turn, vis, seal(salt, type, data, known), prev]
        # already canonical when every item is a plain scalar and vis is text or a list
        # of seat numbers (as the kernel writes it): packed as it is, the same bytes
        vt = _type(vis)
        plain = (_type(version) is int and _type(turn) is int and _type(ts) is str and _type(prev) is bytes
                 and (vt is str or (vt is list and _INTS.issuperset(map(_type, vis)))))
        body = _packb(items) if plain else canon(items)
    return sha256(body).digest()

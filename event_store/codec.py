"""MessagePack for every stored event and snapshot.

The ``eventsourcing`` library hands the transcoder a dict of the event's
attributes; UUIDs and datetimes travel as MessagePack extension types:

* ext 1: a UUID, its 16 bytes;
* ext 2: a datetime, its ISO 8601 text (UTF-8), so the time zone survives.
"""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

import msgpack

EXT_UUID = 1
EXT_DATETIME = 2


def _default(obj):
    if isinstance(obj, UUID):
        return msgpack.ExtType(EXT_UUID, obj.bytes)
    if isinstance(obj, datetime):
        return msgpack.ExtType(EXT_DATETIME, obj.isoformat().encode())
    if isinstance(obj, (set, frozenset)):
        return sorted(obj)
    raise TypeError(f"cannot store {type(obj).__name__} as MessagePack")


def _ext_hook(code, data):
    if code == EXT_UUID:
        return UUID(bytes=data)
    if code == EXT_DATETIME:
        return datetime.fromisoformat(data.decode())
    return msgpack.ExtType(code, data)


def pack(obj) -> bytes:
    return msgpack.packb(obj, default=_default, use_bin_type=True)


def unpack(data: bytes):
    return msgpack.unpackb(data, ext_hook=_ext_hook, raw=False, strict_map_key=False)


class MsgPackTranscoder:
    """The library's transcoder interface (``encode``/``decode``), duck-typed so
    that a direct read (event_store/reads.py) imports no part of the library."""

    def encode(self, obj) -> bytes:
        return pack(obj)

    def decode(self, data: bytes):
        return unpack(data)

"""MessagePack for every stored event and snapshot.

The ``eventsourcing`` library hands the transcoder a dict of the event's
attributes; UUIDs and datetimes travel as MessagePack extension types:

* ext 1: a UUID, its 16 bytes;
* ext 2: a datetime, its ISO 8601 text (UTF-8), so the time zone survives.
"""

from __future__ import annotations

import sys
from datetime import datetime  # sqlite3 and psycopg import it anyway

import msgpack

TYPE_CHECKING = False  # typing is not imported at run time: a direct read's start-up does without it
if TYPE_CHECKING:
    from typing import Any

EXT_UUID = 1
# what unpacking bytes that are not ours raises (msgpack's errors, its ext hooks' on a bad
# timestamp or id, a map with an unhashable key)
UNPACK_ERRORS = (ValueError, TypeError, OverflowError, msgpack.UnpackException)
EXT_DATETIME = 2


# ``uuid`` is imported only by what makes or reads UUIDs (importing it takes
# ``platform`` with it; a direct read of a status needs neither): an object is
# a UUID only once its module is loaded.
def _default(obj: object) -> Any:
    uuid = sys.modules.get("uuid")
    if uuid is not None and isinstance(obj, uuid.UUID):
        return msgpack.ExtType(EXT_UUID, obj.bytes)
    if isinstance(obj, datetime):
        return msgpack.ExtType(EXT_DATETIME, obj.isoformat().encode())
    if isinstance(obj, (set, frozenset)):
        return sorted(obj)
    raise TypeError(f"cannot store {type(obj).__name__} as MessagePack")


def _ext_hook(code: int, data: bytes) -> Any:
    if code == EXT_UUID:
        from uuid import UUID

        return UUID(bytes=data)
    if code == EXT_DATETIME:
        return datetime.fromisoformat(data.decode())
    return msgpack.ExtType(code, data)


def _ext_hook_times_as_text(code: int, data: bytes) -> Any:
    if code == EXT_DATETIME:
        return data.decode()
    return _ext_hook(code, data)


def unpack_event_row(data: bytes) -> Any:
    """``unpack`` of a stored event's row with its ``timestamp`` left as the
    ISO 8601 text stored, which is what the hash chain hashes
    (event_store/chain.py): a read that checks the chain or folds the events
    makes no ``datetime`` of it only to write it back as text."""
    return msgpack.unpackb(data, ext_hook=_ext_hook_times_as_text, raw=False, strict_map_key=False)


def unpack_state_item(data: bytes, key: str) -> Any:
    """``unpack_event_row(data)["state"].get(key)`` of a stored snapshot, read
    without building the values before it (they are skipped) or after it;
    None when there is no such item or the bytes are not a map holding one."""
    u = msgpack.Unpacker(raw=False, strict_map_key=False, ext_hook=_ext_hook_times_as_text)
    u.feed(data)
    try:
        for _ in range(u.read_map_header()):
            if u.unpack() != "state":
                u.skip()
                continue
            for _ in range(u.read_map_header()):
                if u.unpack() == key:
                    return u.unpack()
                u.skip()
            return None
    except (msgpack.UnpackException, ValueError):
        return None
    return None


def pack(obj: Any) -> bytes:
    return msgpack.packb(obj, default=_default, use_bin_type=True)


def unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, ext_hook=_ext_hook, raw=False, strict_map_key=False)


class MsgPackTranscoder:
    """The library's transcoder interface (``encode``/``decode``), duck-typed so
    that a direct read (event_store/reads.py) imports no part of the library.
    ``times_as_text``: decode stored times as the ISO text stored
    (``unpack_event_row``; the audit's reading, service/records/audit.py)."""

    def __init__(self, times_as_text: bool = False):
        self.decode = unpack_event_row if times_as_text else unpack

    def encode(self, obj: Any) -> bytes:
        return pack(obj)


# A recorded event's stored state, made without the library's mapper --------------
# The mapper packs the event's attributes (without its id and version) as one map,
# in their order, then ``class_version``. The same bytes, made from the parts, with
# the data as the bytes the kernel froze when the event was emitted (a map packs as
# its header, then each key and value packed in order; the data's frozen bytes are
# what packing the data gives).
_plain_pack = msgpack.Packer(use_bin_type=True).pack
_ENVELOPE_KEYS = [_plain_pack(k) for k in ("timestamp", "type", "turn", "visible_to", "data", "prev", "hash",
                                           "salt", "class_version")]


def packed_timestamp(timestamp_text: str) -> bytes:
    """A stored time as packed in a row (ext 2, its ISO text)."""
    return _plain_pack(msgpack.ExtType(EXT_DATETIME, timestamp_text.encode()))


def pack_recorded(timestamp_packed: bytes, type: str, turn: int, visible_to: Any, data_packed: bytes, prev: bytes,
                  hash: bytes, salt: bytes | None, class_version: int) -> bytes:
    """``pack`` of ``{"timestamp": <ext 2>, "type", "turn", "visible_to", "data",
    "prev", "hash", "salt", "class_version"}``, byte for byte, with the time and
    the data given packed (``packed_timestamp``; the data's frozen bytes)."""
    k = _ENVELOPE_KEYS
    p = _plain_pack
    return b"".join((b"\x89", k[0], timestamp_packed, k[1], p(type),
                     k[2], p(turn), k[3], p(visible_to), k[4], data_packed, k[5], p(prev), k[6], p(hash),
                     k[7], p(salt), k[8], p(class_version)))

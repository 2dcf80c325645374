"""The operator's forgery, as the tests of tests/evidence play it: SQL on the store's
SQLite file, the chain re-hashed from the changed event on (same salts), every signed
head re-signed with the service's key (the operator holds the key file)."""

from __future__ import annotations

import sqlite3
from typing import Callable
from uuid import UUID

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from event_store.chain import link
from event_store.codec import pack, unpack
from event_store.signing import KeyFile, head_message


def rehash(rows: list[dict], gid: UUID, version: int, change: Callable[[dict], None]) -> None:
    """``change(data)`` on the event row at ``version``; every hash from there on recomputed
    (same salts): what anyone holding the salts can do, a file's holder or the operator."""
    change(rows[version - 1]["data"])
    prev = rows[version - 2]["hash"]
    for r in rows[version - 1:]:
        r["prev"] = prev
        r["hash"] = link(gid, r["version"], r["timestamp"], r["type"], r["turn"], r["visible_to"], r["data"],
                         prev, r["salt"], 2)
        prev = r["hash"]


def operator_rewrite(db: str, gid: UUID, version: int, change: Callable[[dict], None],
                     key_file: str | None = None) -> None:
    """``change(data)`` on the stored event at ``version``; the chain re-hashed and re-signed."""
    conn = sqlite3.connect(db)
    stored = conn.execute("SELECT originator_version, state FROM stored_events WHERE originator_id = ? "
                          "ORDER BY originator_version", (gid.hex,)).fetchall()
    states = [unpack(s) for _, s in stored]
    rows = [dict(st, version=v) for (v, _), st in zip(stored, states)]
    rehash(rows, gid, version, change)
    for (v, _), r, st in zip(stored, rows, states):
        st.update(data=r["data"], prev=r["prev"], hash=r["hash"])
        conn.execute("UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
                     (pack(st), gid.hex, v))
    fp = conn.execute("SELECT fingerprint FROM privateer_keys WHERE retired = ''").fetchone()[0]
    key = Ed25519PrivateKey.from_private_bytes(KeyFile(key_file or db + ".key").get(fp))
    for (v, signed) in conn.execute("SELECT version, signed FROM privateer_signatures WHERE game_id = ?",
                                    (gid.hex,)).fetchall():
        head = rows[v - 1]["hash"]
        sig = key.sign(head_message(gid.bytes, v, head, signed, fp))
        conn.execute("UPDATE privateer_signatures SET head = ?, signature = ?, fingerprint = ? "
                     "WHERE game_id = ? AND version = ?", (head.hex(), sig.hex(), fp, gid.hex, v))
    conn.execute("UPDATE privateer_games SET head = ? WHERE game_id = ?", (rows[-1]["hash"], gid.hex))
    conn.execute("DELETE FROM stored_snapshots")
    conn.commit()
    conn.close()

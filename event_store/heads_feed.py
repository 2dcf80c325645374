"""The feed of heads: an append-only, signed list of every head the service
signed, for witnesses to follow (``GET /heads?after=``, ``tools witness``), as
Certificate Transparency logs certificates (spec/SPEC.md §13).

An entry says: game ``tag``'s history had head ``head`` at ``version``, signed
at ``signed`` by key ``fingerprint`` (``head_signature``, a signed head of §4),
and it extends the game's entry before (``since_version``, ``since_head``; 0
and zeros for the game's first): a version that does not grow says the game
was cut back.
Entries are numbered from 1 with no gap (``seq``); each names the SHA-256 of
the entry before (``prev``; 32 zero bytes before the first) and is signed by
the service: its ``entry`` is the SHA-256 of its statement
(``feed_message``), its ``signature`` the Ed25519 signature of that statement.
A witness that keeps the last entry it saw can tell a feed that was rewritten
(the next entries do not follow it) from one that grew.

The game is named by its tag, ``SHA-256("privateer-feed-game:" || game id)``'s
first 16 bytes: whoever knows a game's id finds its heads; nobody learns from
the feed that a private fork exists. A head the feed took once is not taken
again; a head that differs at a version the feed already holds (the operator
cut a game back and played it on, or rewrote it and signed again) is a new
entry, and a witness that saw the first reports it.

Only finished games' heads are fed (all of them, once the game ends, then any
later one): a live game's versions count events hidden from its seats (§2), so
its seats' receipts (§6) are their evidence until the end.

The feed takes heads after they are committed (``catch_up``, run when the
feed is read), not in the step's transaction: writing a game's step never
waits on the feed's order. Several processes may catch up at once: each
writes its entries in one transaction, and one that lost the race (a ``seq``
or a head taken) reads again and goes on from there.
"""

from __future__ import annotations

import hashlib
from typing import Any

from eventsourcing.persistence import IntegrityError

from .service_tables import FEED_COLUMNS
from .signing import Signer, feed_message, verify

TAG_PREFIX = b"privateer-feed-game:"
FIRST_PREV = bytes(32)
ATTEMPTS = 8  # catch-ups that lose a race to another process before giving up (each one's entries are stored)


def game_tag(game_id: bytes) -> bytes:
    """A game's tag in the feed (16 bytes)."""
    return hashlib.sha256(TAG_PREFIX + game_id).digest()[:16]


def catch_up(recorder: Any, signer: Signer) -> int:
    """Append the service's signed heads the feed has not taken; how many."""
    own = signer.own_keys()
    for _ in range(ATTEMPTS):
        taken: set[tuple[str, int, str]] = set()
        unfed = []
        for r in recorder.select_unfed():  # a head signed by two keys is fed once, by its first signature
            key = (r["game_id"], r["version"], r["head"])
            if r["fingerprint"] in own and key not in taken:
                taken.add(key)
                unfed.append(r)
        if not unfed:
            return 0
        last = recorder.select_feed_last()
        seq, prev = (last["seq"], bytes.fromhex(last["entry"])) if last else (0, FIRST_PREV)
        rows = []
        since: dict[str, tuple[int, bytes]] = {}  # each game's entry before, in this batch
        for r in unfed:
            seq += 1
            gid = r["game_id"]
            if gid not in since:
                before = recorder.select_feed_game_last(gid)
                since[gid] = (before["version"], bytes.fromhex(before["head"])) if before else (0, FIRST_PREV)
            head = bytes.fromhex(r["head"])
            msg, time, fp, sig = signer.sign_feed_entry(seq, game_tag(bytes.fromhex(gid)), r["version"], head,
                                                        r["signed"], r["fingerprint"], since[gid], prev)
            entry = hashlib.sha256(msg).digest()
            rows.append((seq, gid, r["version"], r["head"], r["signed"], r["fingerprint"], r["signature"],
                         since[gid][0], since[gid][1].hex(), prev.hex(), time, fp, entry.hex(), sig.hex()))
            since[gid] = (r["version"], head)
            prev = entry
        try:
            recorder.insert_service_rows(feed=rows)
        except IntegrityError:  # another process appended first: read the feed's end again
            continue
        return len(rows)
    raise RuntimeError(f"the feed of heads could not be appended to in {ATTEMPTS} attempts (other processes kept "
                       "appending first)")


def read(recorder: Any, after: int, limit: int) -> list[dict]:
    """The feed's entries after ``seq`` ``after``, at most ``limit``, as published."""
    return [published(r) for r in recorder.select_feed(after, limit)]


def published(row: dict) -> dict:
    """A stored entry as the feed publishes it: the game by its tag, never its id."""
    out = {c: row[c] for c in FEED_COLUMNS if c != "game_id"}
    out["tag"] = game_tag(bytes.fromhex(row["game_id"])).hex()
    return out


def entry_problem(entry: dict, prev: bytes, seq: int, keys: dict[str, bytes]) -> str | None:
    """None when ``entry`` (as published) is entry ``seq`` of a feed whose entry
    before hashes to ``prev``, and its signature checks with its key in ``keys``
    (public keys by fingerprint); else what is wrong."""
    try:
        if entry["seq"] != seq:
            return f"entry {entry['seq']} where entry {seq} was due"
        if bytes.fromhex(entry["prev"]) != prev:
            return f"entry {seq} does not follow the entry before it (the feed was rewritten before {seq})"
        since = (entry["since_version"], bytes.fromhex(entry["since_head"]))
        msg = feed_message(seq, bytes.fromhex(entry["tag"]), entry["version"], bytes.fromhex(entry["head"]),
                           entry["signed"], entry["fingerprint"], since, prev, entry["time"], entry["feed_fingerprint"])
        if hashlib.sha256(msg).hexdigest() != entry["entry"]:
            return f"entry {seq}: its hash is not the hash of what it says"
        public = keys.get(entry["feed_fingerprint"])
        if public is None:
            return f"entry {seq}: signed by key {entry['feed_fingerprint'][:16]}, not one of the service's keys"
        if not verify(public, bytes.fromhex(entry["signature"]), msg):
            return f"entry {seq}: the service's signature does not check"
    except (KeyError, TypeError, ValueError) as e:
        return f"entry {seq}: cannot be read ({type(e).__name__}: {e})"
    return None

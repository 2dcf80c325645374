"""The feed of heads (event_store/heads_feed.py, spec/SPEC.md §13): every head the
service signed, in one append-only signed list, for witnesses (``tools witness``)."""

from __future__ import annotations

import threading
from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

from event_store.heads_feed import catch_up, read

from .route_params import ERRORS, Service

router = APIRouter()

MAX_ENTRIES = 5000


class FeedEntry(BaseModel):
    seq: int = Field(description="The entry's number, from 1, no gap.")
    tag: str = Field(description="The game's tag: the first 16 bytes of SHA-256(\"privateer-feed-game:\" || game id), "
                                 "hex. Who knows a game's id finds its heads; the feed names no game.")
    version: int
    head: str = Field(description="The game's head at that version (hex).")
    signed: str = Field(description="When the service signed that head (§4).")
    fingerprint: str = Field(description="The key that signed the head.")
    head_signature: str = Field(description="The signed head's signature (§4), hex.")
    since_version: int = Field(description="The version of the game's entry before this one (0 for its first): "
                                           "this head extends it.")
    since_head: str = Field(description="The head of the game's entry before this one (hex; zeros for its first).")
    prev: str = Field(description="The SHA-256 of the entry before (hex; zeros before the first).")
    time: str = Field(description="When the feed took the head.")
    feed_fingerprint: str = Field(description="The key that signed this entry.")
    entry: str = Field(description="The SHA-256 of this entry's statement (§13), hex.")
    signature: str = Field(description="The service's Ed25519 signature of the entry's statement, hex.")


class Feed(BaseModel):
    format: str = Field("privateer-heads-feed", description="spec/SPEC.md §13.")
    after: int
    entries: list[FeedEntry]
    more: bool = Field(description="More entries follow the last one given: ask again after it.")


_catching_up = threading.Lock()  # one catch-up at a time in this process (other processes: heads_feed.py)


@router.get("/heads", response_model=Feed, responses=ERRORS, tags=["service"])
def heads(svc: Service,
          after: Annotated[int, Query(ge=0, le=2**53, description="The last entry already read (0: from the start).")] = 0,
          limit: Annotated[int, Query(ge=1, le=MAX_ENTRIES, description="At most this many entries.")] = 1000
          ) -> Feed:
    """The feed of heads: every head the service signed, each entry chained to the one before and signed,
    for witnesses that keep what they saw (`tools witness`). Public: games are named by their tag only."""
    with _catching_up:  # every head signed before this request is in the feed it reads
        catch_up(svc.app.recorder, svc.app.signer)
    entries = read(svc.app.recorder, after, limit + 1)
    return Feed(format="privateer-heads-feed", after=after, entries=[FeedEntry(**e) for e in entries[:limit]],
                more=len(entries) > limit)

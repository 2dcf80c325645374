"""The server's heap, settled once it is built.

A serving process holds ~60,000 objects that live as long as it does
(modules, the FastAPI application, its models and routes). Python's cyclic
garbage collector walks all of them at every full collection: measured under
the HTTP bench (50 games at once), a 41 ms pause, taken while every request
in flight waits, which is the tail of the latency. ``gc.freeze()`` moves them
out of the collector's reach once the application is built (the full
collection in the same run: 2.4 ms); what requests allocate is collected as
before.

What the games in play hold is not frozen: each step leaves a new copy of its
game's state in the cache, and the default thresholds (700, 10, 10) then make a
full collection of every live state every hundred steps or so (bench/gc_pauses.py,
40 games played round robin, 2,291 decisions, a quiet machine: 25 full passes, the
longest collection 83 ms, the collector 13% of the CPU). ``THRESHOLDS`` collect the
young objects every 10,000 allocations and the old ones rarely (in that run: no full
pass, the longest collection 20 ms, the collector 6.6% of the CPU); cyclic garbage
still goes at the next full pass, every 10 million allocations or so, or when the
old objects have grown by a quarter (Python's rule).
"""

from __future__ import annotations

import gc

THRESHOLDS = (10_000, 10, 100)  # gc.set_threshold's: young, middle, old (bench/gc_pauses.py)


def settle() -> None:
    """Collect what start-up left behind, then freeze the rest (call once the
    application is built, in each serving process)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)

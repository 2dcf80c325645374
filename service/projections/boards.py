"""The public boards of the read model (``proj_boards``): what a spectator sees of
each game a batch of events touched, folded from the store."""

from __future__ import annotations

import json
from uuid import UUID

from service.views import board

from .model import Batch


def public_boards(app, batch: Batch) -> None:
    """The current public board (what a spectator sees) of every game with new
    public events in the batch, as ``proj_boards`` rows."""
    for gid in {r["game_id"] for r in batch.events}:
        try:
            machine, version, _ = app.fold(UUID(gid))
        except Exception:  # a game that does not fold (the audit says why): no board row
            continue
        b = board(UUID(gid), machine, version, 0)
        batch.boards[gid] = {"game_id": gid, "version": b["version"], "turn": b["turn"],
                             "finished": int(b["finished"]), "board": json.dumps(b["board"], sort_keys=True,
                                                                                 default=str)}

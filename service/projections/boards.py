"""The public boards of the read model (``proj_boards``): what a spectator sees of
each game a batch of events touched, folded from the store."""

from __future__ import annotations

import json
from uuid import UUID

from service.logs import logger
from service.views import board

from .model import Batch

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    from service.app import Privateer

log = logger(__name__)


def public_boards(app: Privateer, batch: Batch) -> None:
    """The current public board (what a spectator sees) of every game with new
    public events in the batch, as ``proj_boards`` rows."""
    for gid in {r["game_id"] for r in batch.events}:
        try:
            machine, version, _ = app.fold(UUID(gid))
        except Exception:  # a game that does not fold (the audit says why): no board row, and the log says so
            log.exception("the game does not fold: no board row for it", extra={"game_id": gid})
            continue
        b = board(UUID(gid), machine, version, 0)
        batch.boards[gid] = {"game_id": gid, "version": b["version"], "turn": b["turn"],
                             "finished": int(b["finished"]), "board": json.dumps(b["board"], sort_keys=True,
                                                                                 default=str)}

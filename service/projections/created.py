"""Each game's ``GameCreated`` data for the read model (its players' names, its
options), read once per game from the store."""

from __future__ import annotations

from uuid import UUID

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    from collections.abc import Callable
    
    from service.app import Privateer


def created_data(app: Privateer, keep: int = 256) -> Callable[[str], dict | None]:
    """``config_of(game_id)``: the game's ``GameCreated`` data, read once (a few games kept)."""
    held: dict = {}

    def config_of(gid: str) -> dict | None:
        if gid not in held:
            if len(held) >= keep:
                held.clear()
            first = app.stored_events(UUID(gid), lte=1)
            held[gid] = first[0].data if first else None
        return held[gid]

    return config_of

"""Audit a stored game: gathers what ``service.audit`` needs from the store."""

from __future__ import annotations

from uuid import UUID

from service.audit import AuditReport, audit_events


def audit_game(app, game_id: UUID) -> AuditReport:
    stored = app.recorder.select_events(game_id)
    rows = app.recorder.select_games(prefix=game_id.hex)
    head = {"version": rows[0]["version"], "head": bytes(rows[0]["head"]).hex()} if rows else None
    secret = app.recorder.select_secret(game_id.hex)
    parent_seed = None
    try:
        first = app.mapper.to_domain_event(stored[0]) if stored else None
        fork = first.data.get("fork") if first is not None else None
    except Exception:
        fork = None
    if fork:
        parent_seed = parent_seed_of(app, UUID(fork["parent"]))
    return audit_events(game_id, stored, app.mapper, head, secret, parent_seed)


def parent_seed_of(app, parent: UUID) -> bytes | None:
    """The parent's seed if it is revealed or held by this store."""
    secret = app.recorder.select_secret(parent.hex)
    if secret is not None:
        return secret
    for e in app.events.get(parent, desc=True, limit=1):
        if e.type == "GameFinished" and e.data.get("seed"):
            return bytes.fromhex(e.data["seed"])
    return None

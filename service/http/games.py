"""Making games: create one (the organiser), fork one at a decision boundary
(private until published), publish a fork. Each new game's referee key is
returned once; only its SHA-256 is kept."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from eventsourcing.persistence import IntegrityError, RecordConflictError

from service.app import Privateer
from service.catalogs import loaded_catalog
from service.records.history import fork
from service.kernel.errors import BadInput

from .access import Access
from .auth import Caller, Forbidden, new_token, token_hash
from .checks import now
from .current import Current
from .reads import Reads


def option_text(key: str, value: object) -> str:
    """An option given as JSON, as the CLI's ``--option key=value`` gives it to
    the rules (``true``, ``12``, ``red,blue``), so a game created either way
    records the same options."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return str(int(value))
    if isinstance(value, list) and all(isinstance(v, str) and "," not in v for v in value):
        return ",".join(value)
    raise BadInput(f"option {key} takes a string, a whole number, true or false, or a list of strings "
                   f"(without commas), not {_json_kind(value)}")


def _json_kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, float):
        return f"the number {value}"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "that list"
    return type(value).__name__


class Games:
    def __init__(self, app: Privateer, current: Current, access: Access, reads: Reads):
        self.app = app
        self.current = current
        self.access = access
        self.reads = reads

    def create(self, body: dict[str, Any]) -> dict[str, Any]:
        options = {k: option_text(k, v) for k, v in (body.get("options") or {}).items()}
        catalog = loaded_catalog(self.app.recorder, body["catalog"], body["game"]) if body.get("catalog") else None
        agg, seed = self.app.new_game(body["game"], body["seats"], table=body.get("table", False),
                                      options=options, name=body.get("name", ""),
                                      tournament=body.get("tournament", ""), players=body.get("players") or {},
                                      setup=not body.get("wait_for_seats"), position=body.get("position"),
                                      catalog=catalog)
        gid = agg.id
        referee_key = new_token("ref")
        self.app.save_game(agg, secret=seed, credential=(gid.hex, "referee", token_hash(referee_key), now()))
        return {"game_id": gid.hex, "referee_key": referee_key, "status": self.reads.status(gid, Caller("organiser"))}

    def fork(self, gid: UUID, at_turn: int | None, at_event: int | None) -> dict[str, Any]:
        self.current.version_of(gid)
        new_id = fork(self.app, gid, at_turn, at_event)
        referee_key = new_token("ref")
        self.app.recorder.insert_credential(new_id.hex, "referee", token_hash(referee_key), now())
        return {"game_id": new_id.hex, "referee_key": referee_key,
                "status": self.reads.status(new_id, Caller("organiser"))}

    def publish(self, gid: UUID, row: dict[str, Any]) -> dict[str, Any]:
        if not row.get("parent"):
            raise BadInput(f"game {gid.hex} is not a fork: it is public already")
        reason = self.access.unfinished_ancestor(row)
        if reason is not None:
            raise Forbidden(f"fork {gid.hex} cannot be published yet: {reason}")
        if not self.access.published(gid.hex):
            try:
                self.app.recorder.insert_service_rows(published=(gid.hex, now()))
            except (IntegrityError, RecordConflictError):
                pass  # published at the same moment by another request
        return {"game_id": gid.hex, "published": True}

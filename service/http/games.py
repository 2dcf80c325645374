"""Making games: create one (the organiser), fork one at a decision boundary
(private until published), publish a fork. Each new game's referee key is
returned once; only its SHA-256 is kept."""

from __future__ import annotations

from uuid import UUID, uuid4

from eventsourcing.persistence import IntegrityError, RecordConflictError

from service.aggregate import Game
from service.history import fork
from service.kernel.chance import SeededChance, TableChance
from service.kernel.errors import BadInput
from service.kernel.local import created_event
from service.kernel.rules import get_rules

from .auth import Caller, Forbidden, new_token, token_hash
from .checks import check_json, now


class Games:
    def __init__(self, app, current, access, reads):
        self.app = app
        self.current = current
        self.access = access
        self.reads = reads

    def create(self, body: dict) -> dict:
        rules = get_rules(body["game"])
        check_json(body.get("options") or {}, "options")
        created, seed = created_event(rules, body["seats"], body.get("options") or {}, body.get("table", False),
                                      None, body.get("name", ""), body.get("tournament", ""),
                                      players=body.get("players") or {})
        gid = uuid4()
        agg = Game.start(gid, created)
        if not body.get("wait_for_seats"):
            agg.record(agg.machine.setup(TableChance([]) if created.data["table"] else SeededChance(seed, [], 0)))
        referee_key = new_token("ref")
        self.app._save(agg, secret=seed, credential=(gid.hex, "referee", token_hash(referee_key), now()))
        return {"game_id": gid.hex, "referee_key": referee_key, "status": self.reads.status(gid, Caller("organiser"))}

    def fork(self, gid: UUID, at_turn: int | None, at_event: int | None) -> dict:
        self.current.version_of(gid)
        new_id = fork(self.app, gid, at_turn, at_event)
        referee_key = new_token("ref")
        self.app.recorder.insert_credential(new_id.hex, "referee", token_hash(referee_key), now())
        return {"game_id": new_id.hex, "referee_key": referee_key,
                "status": self.reads.status(new_id, Caller("organiser"))}

    def publish(self, gid: UUID, row: dict) -> dict:
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

"""Who may know that a game exists, and who may take its seats.

* A fork (its games-index row has a ``parent``) is private until its
  organiser or referee publishes it (``privateer_published``): to everyone
  else it does not exist (404), in ``GET /games`` too. Its own credentials
  (the fork's referee key, the seats its referee invited) and the organiser
  see it.
* A fork of an unfinished game (or of a fork of one, any distance up) takes
  no invitations, no joins, no seat reads, and is not published, until every
  game it descends from is finished: its history holds what the parent still
  hides from the parent's seats (403).
* Seats are claimed with invitations: the organiser or the game's referee
  issues a one-time code for one seat (optionally naming the player); only
  its SHA-256 is stored. Joining consumes it in the credential's transaction.
"""

from __future__ import annotations

from contextvars import ContextVar

from uuid import UUID

from service.app import Privateer
from service.kernel.errors import BadInput, UnknownGame

from .auth import Forbidden, is_organiser, token_hash

MAX_ANCESTORS = 64


# The games-index row a request read when it located its game: the same
# request asks for that row again (GameService.index_row) and gets it without
# another query. Each request runs in its own copy of the context (an async
# route in the request's own task; FastAPI runs a sync route, and ``run`` each
# call, in a fresh copy), so a row never outlives the call that read it.
request_rows: ContextVar[dict | None] = ContextVar("request_rows", default=None)


class Access:
    def __init__(self, app: Privateer, organiser_key: str):
        self.app = app
        self.organiser_key = organiser_key
        self._published: set[str] = set()  # a published fork stays published: cache the yes only

    # forks ----------------------------------------------------------------------
    def published(self, gid_hex: str) -> bool:
        if gid_hex in self._published:
            return True
        if self.app.recorder.select_published(gid_hex):
            self._published.add(gid_hex)
            return True
        return False

    def is_private(self, row: dict) -> bool:
        return bool(row.get("parent")) and not self.published(row["game_id"])

    def insider(self, gid_hex: str, token: str | None, code: str | None = None) -> bool:
        """The organiser, a credential of this game, or the holder of one of its invitations."""
        if token is not None:
            if is_organiser(token, self.organiser_key):
                return True
            if self.app.recorder.select_role(gid_hex, token_hash(token)) is not None:
                return True
        if code is not None and self.app.recorder.select_invitation(gid_hex, token_hash(code)) is not None:
            return True
        return False

    def visible(self, row: dict, token: str | None, code: str | None = None) -> bool:
        return not self.is_private(row) or self.insider(row["game_id"], token, code)

    def locate(self, game_id: str, token: str | None, code: str | None = None) -> tuple[UUID, dict]:
        """The game named by an id or a unique prefix (6+ characters) among the
        games the caller may know of; ``UnknownGame`` otherwise."""
        text = (game_id or "").strip().lower().replace("-", "")
        if len(text) < 6 or len(text) > 32 or any(ch not in "0123456789abcdef" for ch in text):
            raise UnknownGame(f"no game with id {game_id!r}")
        rows = [r for r in self.app.recorder.select_games(prefix=text) if self.visible(r, token, code)]
        if len(rows) == 1:
            request_rows.set({rows[0]["game_id"]: rows[0]})
            return UUID(rows[0]["game_id"]), rows[0]
        if len(rows) > 1:
            raise BadInput(f"game id prefix {game_id!r} is ambiguous ({len(rows)} games)")
        raise UnknownGame(f"no game with id {game_id!r}")

    def listed(self, rows: list[dict], token: str | None) -> list[dict]:
        return [r for r in rows if self.visible(r, token)]

    def unfinished_ancestor(self, row: dict) -> str | None:
        """Why this game's seats must wait (an unfinished game it was forked from), or None."""
        parent, depth = row.get("parent"), 0
        while parent:
            prows = self.app.recorder.select_games(prefix=parent)
            if not prows:
                return f"the game it was forked from ({parent}) is not in this store"
            if not prows[0]["finished"]:
                return f"the game it was forked from ({parent}) is not finished"
            parent, depth = prows[0].get("parent"), depth + 1
            if depth > MAX_ANCESTORS:
                return "its forks go back too far to check"
        return None

    def guard_seats(self, row: dict, what: str) -> None:
        reason = self.unfinished_ancestor(row)
        if reason is not None:
            raise Forbidden(f"{what} on fork {row['game_id']}: {reason}, and a seat must not see what it hides")

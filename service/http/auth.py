"""Who is calling: organiser, referee, a seat, or a spectator.

Every credential travels as ``Authorization: Bearer <secret>``.

* Organiser: one key for the whole service, from ``$PRIVATEER_ORGANISER_KEY``,
  else from the config file (``--config`` or ``$PRIVATEER_CONFIG``, TOML:
  ``organiser_key = "..."``), else ``tools serve`` makes a random one and
  prints it once on stderr. The organiser creates and forks games and may act
  as the referee of every game.
* Referee: a key per game, returned once to the organiser when the game is
  created (or forked). Invites seats, enters chance outcomes (table mode),
  starts a game that waits for its seats, publishes a fork, sees everything
  of that game.
* Seat: a token per seat, returned once by ``POST /games/{id}/seats/{n}/join``
  to the holder of an invitation code for that seat (see access.py).
  Acts for that seat only and sees what that seat may see.
* Spectator: no token; public facts only (events visible to ``"all"``).

Referee keys and seat tokens are stored only as their SHA-256 (hex).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import tomllib
from dataclasses import dataclass

from service.kernel.errors import PrivateerError


class Unauthorized(PrivateerError):
    http_status = 401
    kind = "unauthorized"


class Forbidden(PrivateerError):
    http_status = 403
    kind = "forbidden"


class Conflict(PrivateerError):
    exit_code = 4
    http_status = 409
    kind = "conflict"


def new_token(prefix: str) -> str:
    return f"{prefix}_{secrets.token_urlsafe(32)}"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def organiser_key(config_path: str | None = None) -> tuple[str, str]:
    """The organiser key and where it came from."""
    key = os.environ.get("PRIVATEER_ORGANISER_KEY", "").strip()
    if key:
        return key, "environment"
    path = config_path or os.environ.get("PRIVATEER_CONFIG")
    if path:
        try:
            with open(path, "rb") as f:
                doc = tomllib.load(f)
        except (OSError, tomllib.TOMLDecodeError) as e:
            raise ValueError(f"cannot read the config file {path}: {e}") from None
        key = str(doc.get("organiser_key", "")).strip()
        if key:
            return key, f"config file {path}"
        raise ValueError(f"the config file {path} has no organiser_key")
    return new_token("org"), "generated"


@dataclass(frozen=True)
class Caller:
    role: str  # organiser, referee, seat, spectator
    seat: int | None = None

    @property
    def is_referee(self) -> bool:
        return self.role in ("organiser", "referee")

    @property
    def view_seat(self) -> int | None:
        """For ``Ev.visible_to`` and ``rules.view``: None is the referee,
        0 (no seat) sees only what everyone sees."""
        if self.is_referee:
            return None
        if self.role == "seat":
            return self.seat
        return 0

    @property
    def viewer(self) -> str:
        return "referee" if self.is_referee else self.role

    @property
    def scope(self) -> str:
        return f"seat:{self.seat}" if self.role == "seat" else "referee"


def bearer(header: str | None) -> str | None:
    if header is None:
        return None
    scheme, _, value = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        raise Unauthorized("the Authorization header must be 'Bearer <token>'")
    return value.strip()


def is_organiser(token: str | None, key: str) -> bool:
    return token is not None and hmac.compare_digest(token.encode(), key.encode())

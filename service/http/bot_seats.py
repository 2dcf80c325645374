"""Which seats the service's bots play (``BotSeats``), read by a game's status and by the
bots (service/http/bots.py, which seats them)."""

from __future__ import annotations

from uuid import UUID

from service.app import Privateer

MARK = "bot:"  # the code hash of a bot's invitation: "bot:<seat>"


class BotSeats:
    """Which seats the service's bots play, read from the seats' records, never from a name:
    a bot's seat was taken with the invitation whose code hash is ``bot:<seat>``, which only
    ``Bots.seat`` writes (no code hashes to it), so a person who joins under a name that
    looks like a bot's is a person here. The games stored before this was read so are read
    alike: their bots took their seats the same way. A seat, once taken, never changes
    hands, so each is looked up once per process."""

    def __init__(self, app: Privateer):
        self.app = app
        self._known: dict[tuple[str, int], str | None] = {}  # (game, seat) -> bot name, None: a person

    def of(self, gid: UUID, roles: list[str] | None = None) -> dict[int, str]:
        """The game's bot seats and their bots; ``roles``: the game's taken roles, if read already."""
        out: dict[int, str] = {}
        for role in self.app.recorder.select_roles(gid.hex) if roles is None else roles:
            if not role.startswith("seat:"):
                continue
            seat = int(role.split(":", 1)[1])
            k = (gid.hex, seat)
            if k not in self._known:
                inv = self.app.recorder.select_invitation(gid.hex, f"{MARK}{seat}")
                # the bot's name: its invitation's player, "<bot> (bot)" as Bots.seat wrote it
                self._known[k] = inv["player"].split(" ", 1)[0] if inv and inv["used"] is not None else None
            bot = self._known[k]
            if bot is not None:
                out[seat] = bot
        return out

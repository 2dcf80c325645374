"""A seat's own side of seat signing (spec/SPEC.md §6a), for a seat played from a terminal:
its decisions signed with the key in its seat key file (``tools seat-key``, ``tools act
--seat-key``). The service's side, which checks them, is service/seat_keys.py."""

from __future__ import annotations

from uuid import UUID

from event_store.signing import SeatKeyFile, decision_message, sign
from service.app import Privateer
from service.seat_keys import NotSigned, seat_key


def sign_as_seat(app: Privateer, game_id: UUID, seat: int, decision: object, key_path: str) -> str:
    """A terminal seat's signature of ``decision`` (``tools act --seat-key FILE``) with the key in
    its seat key file (event_store/signing.py ``SeatKeyFile``), over the seat's version now. The
    key is registered first when the seat has none; a seat registered with another key is refused."""
    private, public = SeatKeyFile(key_path).read()
    game = app.load(game_id)
    have = seat_key(game.machine, seat)
    if have is None:
        app.register_seat_key(game_id, seat, public.hex())
        game = app.load(game_id)
    elif have != public:
        raise NotSigned(f"seat {seat} registered another key than the one in {key_path}")
    version = game.machine.seen(seat, game.version)
    return sign(private, decision_message(game_id.bytes, seat, version, decision)).hex()

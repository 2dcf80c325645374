"""A seat's own side of seat signing (spec/SPEC.md §6a), for a seat played from a terminal:
its decisions signed with the key in its seat key file (``tools seat-key``, ``tools act
--seat-key``), and a table's referee's side (§9a: ``tools table --referee-key``). The
service's side, which checks them, is service/seat_keys.py and service/referee_key.py."""

from __future__ import annotations

from uuid import UUID

from event_store.signing import SeatKeyFile, decision_message, seat_key_message, sign, signer_of
from service.app import Privateer
from service.referee_key import RefereeSign, referee_key
from service.seat_keys import NotSigned, seat_key


def sign_as_seat(app: Privateer, game_id: UUID, seat: int, decision: object, key_path: str,
                 previous: str | None = None) -> str:
    """A terminal seat's signature of ``decision`` (``tools act --seat-key FILE``) with the key in
    its seat key file (event_store/signing.py ``SeatKeyFile``), over the seat's version now. The
    key is registered first when the seat has none; a seat registered with another key is refused,
    unless ``previous`` names the file of the key it registered: that key hands the seat over to
    the new one (``tools act --previous-seat-key OLD``)."""
    private, public = SeatKeyFile(key_path).read()
    game = app.load(game_id)
    have = seat_key(game.machine, seat)
    if have is None:
        app.register_seat_key(game_id, seat, public.hex())
        game = app.load(game_id)
    elif have != public:
        if previous is None:
            raise NotSigned(f"seat {seat} registered another key than the one in {key_path} (a seat moves to a "
                            "new key with its old one's handover: --previous-seat-key OLD)")
        old_private, old_public = SeatKeyFile(previous).read()
        if old_public != have:
            raise NotSigned(f"seat {seat}'s registered key is not the one in {previous} either")
        handover = sign(old_private, seat_key_message(game_id.bytes, seat, old_public, public)).hex()
        app.register_seat_key(game_id, seat, public.hex(), handover)
        game = app.load(game_id)
    version = game.machine.seen(seat, game.version)
    return sign(private, decision_message(game_id.bytes, seat, version, decision)).hex()


def referee_signer(app: Privateer, game_id: UUID, key_path: str) -> RefereeSign:
    """A table's referee's signing (``tools table --referee-key FILE``, a key file as ``tools seat-key``
    makes): its key registered first when the game has none (a table-mode game's); a game whose
    referee registered another key is refused."""
    private, public = SeatKeyFile(key_path).read()
    have = referee_key(app.load(game_id).machine)
    if have is None:
        app.register_referee_key(game_id, public.hex())
    elif have != public:
        raise NotSigned(f"the referee of this game registered another key than the one in {key_path}")
    signing = signer_of(private)  # the key parsed once: a table's session signs each entry with it
    return lambda message: signing(message).hex()

"""Seats sign their own decisions (spec/SPEC.md §6a, issue 43).

A seat may hold its own Ed25519 key: made in the browser (WebCrypto, kept there,
service/http/pages/seatkey.js) or by ``tools seat-key FILE`` for a seat played from
a terminal. Its public key becomes a public event of the game, ``SeatKeyRegistered
{seat, key}`` (``key``: 64 hex digits), appended on its own between steps once the
seat is taken. A seat that has a key registers another (the seat moved to a new
device) only with a handover, its old key's signature of the new one
(``seat_key_message``): ``SeatKeyRegistered {seat, key, handover}``; without it a
second registration is refused. A registration stays in force even if a correction
later retracts it (as a seat's name does).

From then on every decision of that seat carries its signature (``signature``:
128 hex digits) over ``decision_message(game id, seat, seat version, decision)``
(event_store/signing.py), the seat version being the seat's own count of the
events it may read before its ``Decided`` (the ``expected_version`` it decided
at). The service refuses an unsigned or wrongly signed decision of such a seat
(``NotSigned``, HTTP 403, nothing appended), whoever sends it: the referee cannot
decide in its name either. The signature is kept in the ``Decided`` event's data,
so exactly those who may read the decision read its signature; in a game with copies
of one face (service/kernel/copies.py), where the decision the seat signed may stand
for another one the rules list, ``as_signed`` holds the one it signed (as JSON text).
"""

from __future__ import annotations

import json
import re
from uuid import UUID

from event_store.signing import decision_message, seat_key_message, verify
from service.kernel.errors import BadInput, IllegalDecision, PrivateerError
from service.kernel.machine import Ev, Machine

REGISTERED = "SeatKeyRegistered"
HEX = re.compile("[0-9a-fA-F]*")  # (with the length checked apart)
# what a signed ``Decided`` holds beside its seat and decision (the last: a table's referee's, service/referee_key.py)
SIGNED_FIELDS = ("signature", "as_signed", "referee_signature")


class NotSigned(PrivateerError):
    """A decision of a seat that registered a key, without its valid signature."""

    exit_code = 3
    http_status = 403
    kind = "not_signed"


class AlreadyRegistered(IllegalDecision):
    """The key a seat registers is its key already: nothing to append (the device that received
    it registers it again after the handover, and is answered as registered)."""


def seat_key(machine: Machine, seat: int) -> bytes | None:
    """The public key ``seat`` registered (raw 32 bytes), or None."""
    keys = machine.kernel_state.get("seat_keys")
    if not keys:
        return None
    text = keys.get(str(seat))
    return bytes.fromhex(text) if text else None


def _hex(text: object, digits: int, what: str) -> bytes:
    if not isinstance(text, str) or len(text) != digits or HEX.fullmatch(text) is None:
        raise BadInput(f"{what} must be {digits} hex digits")
    return bytes.fromhex(text)


def public_key(key_hex: object, what: str) -> bytes:
    """An Ed25519 public key given as 64 hex digits (raw 32 bytes), else ``BadInput`` naming ``what``."""
    key = _hex(key_hex, 64, f"{what} (Ed25519, raw)")
    try:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

        Ed25519PublicKey.from_public_bytes(key)
    except ValueError:
        raise BadInput(f"{what} is not an Ed25519 public key") from None
    return key


def key_event(machine: Machine, seat: int, key_hex: object, game_id: UUID | None = None,
              handover: object = None) -> Ev:
    """``SeatKeyRegistered {seat, key}`` applied to ``machine`` (the caller saves it); refused
    (nothing applied) for a key that is not an Ed25519 public key, or a table step awaiting its
    outcome. A seat that has a key already registers another (a new device) only with
    ``handover``: its old key's signature (hex) over ``seat_key_message(game id, seat, old key,
    new key)``, kept in the event (``{seat, key, handover}``); without it, refused."""
    machine.check_seat(seat)
    key = public_key(key_hex, "the seat's public key")
    old = seat_key(machine, seat)
    if old == key:
        raise AlreadyRegistered(f"seat {seat} signs with this key already")
    if old is None and handover is not None:
        raise BadInput(f"seat {seat} has no key yet: its first key needs no handover")
    if old is not None:
        if handover is None:
            raise IllegalDecision(f"seat {seat} registered its key already: another key (a new device) is "
                                  "registered only with its old key's signature of the new one (the handover)")
        sig = _hex(handover, 128, "the handover (the old key's signature, Ed25519)")
        if game_id is None or not verify(old, sig, seat_key_message(game_id.bytes, seat, old, key)):
            raise NotSigned(f"the handover does not check with seat {seat}'s key (the old key signs the game id, "
                            "the seat, the old key and the new one)")
    if machine.kernel_state["finished"]:
        raise IllegalDecision("the game is finished")
    if machine.kernel_state["awaiting"] is not None:
        raise IllegalDecision("the game awaits a chance outcome: register the key once it is entered")
    data: dict[str, object] = {"seat": seat, "key": key.hex()}
    if old is not None:
        data["handover"] = sig.hex()
    ev = Ev(REGISTERED, machine.turn(), "all", data)
    machine.apply(ev)
    return ev


def signed_fields(game_id: UUID, machine: Machine, version: int, seat: int, decision: object,
                  signature: str | None) -> dict[str, str] | None:
    """What the ``Decided`` of ``seat``'s ``decision`` keeps of its signature
    (``{"signature": hex}``), checked against the key the seat registered, over the
    seat's own version at store version ``version``; None for a seat without a key.
    ``NotSigned`` for a missing or wrong signature."""
    key = seat_key(machine, seat)
    if key is None:
        if signature is not None:
            raise BadInput(f"seat {seat} registered no key: its decisions are not signed "
                           "(register one first: POST /games/{id}/seats/{seat}/key)")
        return None
    if signature is None:
        raise NotSigned(f"seat {seat} registered a key: its decisions must carry its signature "
                        "(over the game id, the seat, the version it decided at and the decision)")
    sig = _hex(signature, 128, "the decision's signature (Ed25519)")
    seat_version = machine.seen(seat, version)
    if not verify(key, sig, decision_message(game_id.bytes, seat, seat_version, decision)):
        raise NotSigned(f"the decision's signature does not check with seat {seat}'s key (it signs the game id, "
                        f"the seat, the version it decided at, {seat_version}, and the decision)")
    return {"signature": sig.hex()}


def handed_over(old: bytes, new: bytes, handover: object, game_id: bytes, seat: int) -> bool:
    """Whether ``handover`` (hex) is ``old``'s signature of ``new`` for ``seat`` of ``game_id``."""
    try:
        sig = bytes.fromhex(handover) if isinstance(handover, str) else None
    except ValueError:
        return False
    return sig is not None and verify(old, sig, seat_key_message(game_id, seat, old, new))


def lineage(parent_created: dict, parent_id: str) -> list[list]:
    """A fork's ``fork.ancestors``: ``[[fork version, game id hex], ...]``, oldest first, the
    games its parent inherited from (the parent's own ancestors, then the parent's parent):
    what a seat's signature of an inherited decision names (``signing_game``)."""
    pf = parent_created.get("fork")
    if not pf:
        return []
    return [list(a) for a in pf.get("ancestors") or []] + [[pf["version"], pf["parent"]]]


def signing_game(created: dict, game_id: bytes, version: int) -> bytes:
    """The game id a seat signed its decision at ``version`` for: a fork's inherited events
    (``version`` up to its fork point) were decided in its parent (or, further back, in the
    ancestor ``fork.ancestors`` names), later ones in the game itself."""
    fork = created.get("fork")
    if fork:
        for v, gid in list(fork.get("ancestors") or []) + [[fork["version"], fork["parent"]]]:
            if version <= v:
                return bytes.fromhex(gid)
    return game_id


def signed_decision(data: dict) -> object:
    """The decision a ``Decided`` event's signature was made over: ``as_signed`` (JSON
    text) when present, else ``decision``."""
    text = data.get("as_signed")
    return json.loads(text) if isinstance(text, str) else data.get("decision")

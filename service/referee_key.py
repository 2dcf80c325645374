"""At a table the referee signs what it enters (spec/SPEC.md §9a, issue 43).

In table mode the referee enters every seat's decisions, its own steps and its
corrections. It may hold its own Ed25519 key (``tools seat-key FILE`` makes one;
``tools table ID --referee-key FILE`` registers and uses it), never the service's:
its public key becomes a public event of the game, ``RefereeKeyRegistered {key}``
(``key``: 64 hex digits), appended on its own between steps, once.

From then on every ``Decided`` carries ``referee_signature`` (128 hex digits) over
``referee_message(game id, version, head, seat, decision)`` (event_store/signing.py):
the store's version before the ``Decided`` and the hash there, which binds every
event before it (the outcomes entered included), and the decision as entered. A
seat that decides itself with its own key (service/seat_keys.py) needs no referee's
signature. The service refuses (``NotSigned``, nothing appended) an entry without a
valid one. The signature is kept in the ``Decided`` event's data, which the export
and the referee read; a seat's reading leaves it out (``REFEREE_ONLY``): with a head
it holds (a receipt's), a seat could otherwise test store versions against it and
count the events hidden from it.

Who signs is the caller's ``RefereeSign``: the bytes to sign in, the signature (hex)
out; a caller holding a signature already made (HTTP) gives ``given(signature)``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from uuid import UUID

from event_store.signing import referee_message, verify
from service.kernel.errors import BadInput, IllegalDecision
from service.kernel.machine import Ev, Machine
from service.seat_keys import HEX, NotSigned, public_key, signed_decision

REGISTERED = "RefereeKeyRegistered"
FIELD = "referee_signature"
REFEREE_ONLY = (FIELD,)  # what a seat's reading of a ``Decided`` leaves out

RefereeSign = Callable[[bytes], str]


def given(signature: str) -> RefereeSign:
    """A signature made already (the referee's page sends it): checked as any other."""
    return lambda _message: signature


def referee_key(machine: Machine) -> bytes | None:
    """The referee's registered public key (raw 32 bytes), or None."""
    text = machine.kernel_state.get("referee_key")
    return bytes.fromhex(text) if text else None


def key_event(machine: Machine, key_hex: object) -> Ev:
    """``RefereeKeyRegistered {key}`` applied to ``machine`` (the caller saves it): a table-mode
    game's, once, between steps, before its end."""
    key = public_key(key_hex, "the referee's public key")
    if not machine.kernel_state["table"]:
        raise BadInput("a referee's key signs what a referee enters at a table: only a table-mode game takes one "
                       "(the seats of a seeded game sign their own decisions)")
    if referee_key(machine) is not None:
        raise IllegalDecision("the referee registered its key already: a referee's key is registered once")
    if machine.kernel_state["finished"]:
        raise IllegalDecision("the game is finished")
    if machine.kernel_state["awaiting"] is not None:
        raise IllegalDecision("the game awaits a chance outcome: register the key once it is entered")
    ev = Ev(REGISTERED, machine.turn(), "all", {"key": key.hex()})
    machine.apply(ev)
    return ev


def referee_fields(game_id: UUID, machine: Machine, version: int, head: bytes, seat: int, decision: Any,
                   sign: RefereeSign | None, seat_signed: bool = False) -> dict[str, str] | None:
    """What the ``Decided`` of an entry keeps of the referee's signature (``{FIELD: hex}``),
    checked against the registered key; None in a game without one, or for a seat's own
    signed decision (``seat_signed``) that the referee did not sign. ``NotSigned`` for a
    missing or wrong signature."""
    key = referee_key(machine)
    if key is None:
        if sign is not None:
            raise BadInput("this game has no referee's key: what the referee enters is not signed "
                           "(register one first: tools table ID --referee-key FILE)")
        return None
    if sign is None:
        if seat_signed:
            return None
        raise NotSigned("not signed by the referee: the referee registered a key, and what it enters carries its "
                        "signature (over the game id, the version and head it entered at, the seat and the decision)")
    message = referee_message(game_id.bytes, version, head, seat, decision)
    sig = sign(message)
    if not (isinstance(sig, str) and len(sig) == 128 and HEX.fullmatch(sig) is not None) \
            or not verify(key, bytes.fromhex(sig), message):
        # (the version is not said: a seat sending a signature of its own would learn the store's version)
        raise NotSigned("not signed by the referee: the signature does not check with the referee's key (it signs "
                        "the game id, the store's version it entered at, the head there, the seat and the decision)")
    return {FIELD: sig.lower()}


def with_referee(signed: dict[str, str] | None, referee: dict[str, str] | None) -> dict[str, str] | None:
    """A ``Decided``'s signatures: the seat's (if any) and the referee's (if any)."""
    if referee is None:
        return signed
    return {**(signed or {}), **referee}


def referee_problem(envs: list, game_id: bytes) -> tuple[int, str, str] | None:
    """The first entry of a table's referee that its key does not sign, as (version, type, why);
    None: every one is signed. ``envs``: the game's events in log order (retracted ones too), each
    with ``version``, ``type``, ``data``, ``hash``. From the referee's ``RefereeKeyRegistered`` on,
    each ``Decided`` carries ``referee_signature`` over the version before it, the hash there, its
    seat and decision (``as_signed`` when present), except a seat's own signed decision (§6a checks
    that). A fork's inherited entries were signed over its parent's chain (their hashes differ in
    the fork): the parent's file is their evidence, so they are not checked here."""
    fork = envs[0].data.get("fork") if envs else None
    inherited = fork["version"] if fork else 0
    key: bytes | None = None
    for e in envs:
        d = e.data
        if e.type == REGISTERED:
            if key is not None:
                return e.version, e.type, "a second key for the referee (the referee registers one)"
            try:
                key = bytes.fromhex(d["key"])
            except (KeyError, TypeError, ValueError):
                return e.version, e.type, "the referee's key is not hex"
            continue
        if e.type != "Decided" or key is None or e.version <= inherited:
            continue
        sig = d.get(FIELD)
        if sig is None and d.get("seat") and "signature" in d:
            continue
        where = f"not signed by the referee: the entry at version {e.version}"
        if not isinstance(sig, str):
            return e.version, e.type, where + " carries no signature by the referee's key"
        try:
            ok = verify(key, bytes.fromhex(sig), referee_message(game_id, e.version - 1, envs[e.version - 2].hash,
                                                                  d.get("seat"), signed_decision(d)))
        except (TypeError, ValueError):
            ok = False
        if not ok:
            return e.version, e.type, where + ": its signature does not check with the referee's key"
    return None

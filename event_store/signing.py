"""The service's signing key (Ed25519) and the statements it signs.

A key is made on first use and kept in the store (``privateer_keys``,
event_store/service_tables.py), with the games' secret seeds. Its
``fingerprint`` is the SHA-256 of its raw 32-byte public key, in hex.
``rotate`` makes a new key and retires the others: a retired key signs
nothing more but stays listed, so what it signed still checks.

Every statement is ``canon`` (event_store/chain.py) of an array whose first
item names it; the signature is Ed25519 (RFC 8032) over those bytes:

* a signed head (the end of every step, stored with the step):
  ``["privateer-head-v1", game id (16 bytes), version, head (32 bytes), time, fingerprint]``
* a seat's receipt (given to the seat with its accepted decision; nothing in it
  counts events hidden from the seat: the seat's own version, not the store's):
  ``["privateer-receipt-v1", game id, seat, seat version, head, time, fingerprint]``
* a record's signed step (``tools record``; ``digest`` is the SHA-256 of the
  record's text before the signing line):
  ``["privateer-record-v1", game id, version, head, time, fingerprint, digest]``

``time`` is the signing time, ISO 8601 text in UTC; ``fingerprint`` is text
(64 hex digits). spec/SPEC.md is the specification.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timezone

from .chain import canon

HEAD = "privateer-head-v1"
RECEIPT = "privateer-receipt-v1"
RECORD = "privateer-record-v1"


def fingerprint(public_key: bytes) -> str:
    return hashlib.sha256(public_key).hexdigest()


def now() -> str:
    return datetime.now(timezone.utc).isoformat()


def head_message(game_id: bytes, version: int, head: bytes, time: str, fp: str) -> bytes:
    return canon([HEAD, game_id, version, head, time, fp])


def receipt_message(game_id: bytes, seat: int, seat_version: int, head: bytes, time: str, fp: str) -> bytes:
    return canon([RECEIPT, game_id, seat, seat_version, head, time, fp])


def record_message(game_id: bytes, version: int, head: bytes, time: str, fp: str, digest: bytes) -> bytes:
    return canon([RECORD, game_id, version, head, time, fp, digest])


def verify(public_key: bytes, signature: bytes, message: bytes) -> bool:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


def _new_key() -> tuple[bytes, bytes]:
    """(private, public): raw 32 bytes each."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat, PublicFormat

    key = Ed25519PrivateKey.generate()
    return (key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption()),
            key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw))


class Signer:
    """The store's signing key, loaded (or made) on first use."""

    def __init__(self, recorder):
        self.recorder = recorder
        self._key = None          # the cryptography private key object
        self.fingerprint = ""
        self.public_key = b""

    def _active(self):
        if self._key is None:
            rows = self._signing_rows()
            if not rows:  # first use: made and stored, then read back (two processes may race: both keep the first)
                private, public = _new_key()
                self.recorder.insert_service_rows(key=(fingerprint(public), public.hex(), private.hex(), now(), ""))
                rows = self._signing_rows()
            self._use(rows[0])
        return self._key

    def _signing_rows(self) -> list[dict]:
        return [r for r in self.recorder.select_keys() if r["private_key"] and not r["retired"]]

    def _use(self, row: dict) -> None:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        self._key = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(row["private_key"]))
        self.fingerprint = row["fingerprint"]
        self.public_key = bytes.fromhex(row["public_key"])

    def head_row(self, game_id, version: int, head: bytes) -> tuple:
        """The signed head of a step: a ``privateer_signatures`` row."""
        key = self._active()
        t = now()
        sig = key.sign(head_message(game_id.bytes, version, head, t, self.fingerprint))
        return (game_id.hex, version, head.hex(), t, self.fingerprint, sig.hex())

    def receipt(self, game_id, seat: int, seat_version: int, head: bytes) -> dict:
        """A seat's receipt for the head after its accepted step."""
        key = self._active()
        t = now()
        sig = key.sign(receipt_message(game_id.bytes, seat, seat_version, head, t, self.fingerprint))
        return {"statement": RECEIPT, "game_id": game_id.hex, "seat": seat, "seat_version": seat_version,
                "head": head.hex(), "time": t, "fingerprint": self.fingerprint,
                "public_key": self.public_key.hex(), "signature": sig.hex()}

    def sign_record(self, game_id, version: int, head: bytes, digest: bytes) -> tuple[str, str, str]:
        """(time, fingerprint, signature hex) of a record's signed step."""
        key = self._active()
        t = now()
        return t, self.fingerprint, key.sign(record_message(game_id.bytes, version, head, t, self.fingerprint,
                                                           digest)).hex()

    def rotate(self) -> dict:
        """A new signing key; every other one is retired (still listed)."""
        private, public = _new_key()
        fp = fingerprint(public)
        t = now()
        self.recorder.insert_service_rows(key=(fp, public.hex(), private.hex(), t, ""), retire_keys=(t, fp))
        self._key = None
        self._active()
        return self.describe()[-1]

    def describe(self) -> list[dict]:
        """Every key of the service's own (oldest first): the active one has ``retired``
        empty. A public key kept from an imported file is that file's claim, not the
        service's: never listed (``tools key``, ``GET /key``)."""
        self._active()
        return [{"fingerprint": r["fingerprint"], "public_key": r["public_key"], "created": r["created"],
                 "retired": r["retired"] or None, "signing": r["fingerprint"] == self.fingerprint}
                for r in self.recorder.select_keys() if r["private_key"]]

    def own_keys(self) -> dict[str, bytes]:
        """The service's own public keys (the signing one and the retired ones), by fingerprint."""
        self._active()
        return {r["fingerprint"]: bytes.fromhex(r["public_key"]) for r in self.recorder.select_keys()
                if r["private_key"]}

    def public_keys(self, fingerprints) -> dict[str, bytes]:
        """The public keys of these fingerprints (those the store knows)."""
        want = set(fingerprints)
        return {r["fingerprint"]: bytes.fromhex(r["public_key"]) for r in self.recorder.select_keys()
                if r["fingerprint"] in want}

    def remember(self, keys: dict[str, bytes]) -> None:
        """Public keys from an imported file, kept so a re-export lists them with the
        file's signatures: never used to sign, never listed as the service's (``describe``)."""
        known = {r["fingerprint"] for r in self.recorder.select_keys()}
        for fp, public in keys.items():
            if fp not in known and fingerprint(public) == fp:
                self.recorder.insert_service_rows(key=(fp, public.hex(), "", now(), ""))

"""The service's signing key (Ed25519), its history, and the statements it signs.

The private keys live in a **key file** (``KeyFile``), never in the store:
``$PRIVATEER_KEY_FILE`` when set, else beside an SQLite store (``<db>.key``),
else, for PostgreSQL, ``$XDG_CONFIG_HOME/privateer/<store>.key`` (``~/.config``
when unset; ``<store>`` names the server, database and schema). The file is
JSON (``{"format": "privateer-key-file", "format_version": 1, "keys":
{fingerprint: private key hex}}``), owner-only (0600): a key file readable by
group or others is refused. The store (``privateer_keys``,
event_store/service_tables.py) keeps each key's public half and life
(``created``, ``retired``) and marks the service's own keys with
``private_key = "key-file"``. A store opened with private keys in its table
(before issue 43) has them moved into the key file (written first), then
blanked in the table.

A key is made on first use. Its ``fingerprint`` is the SHA-256 of its raw
32-byte public key, in hex. ``rotate`` makes a new key and retires the others
with a rotation statement signed by both keys: a retired key signs nothing more
(its private half leaves the key file) but stays listed with its life, so what
it signed before its retirement still checks, and nothing it signs after.

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
* an entry of the feed of heads (event_store/heads_feed.py; ``tag`` is the
  game's feed tag; ``since version``, ``since head``: the game's entry before, 0 and
  32 zero bytes for its first; ``prev`` the entry before's SHA-256, 32 zero bytes for the first):
  ``["privateer-feed-v1", seq, tag (16 bytes), version, head, signed, head fingerprint, since version,
  since head, prev, time, fingerprint]``
* a rotation, signed by the outgoing key and by the incoming one:
  ``["privateer-rotation-v1", outgoing public key (32 bytes), incoming public key, time]``
* a seat's decision, signed by the seat's own key (never the service's; a seat
  key file, ``SeatKeyFile``, or a browser's WebCrypto key):
  ``["privateer-decision-v1", game id, seat, seat version, decision]`` where the
  seat version is the seat's own count of the events it may read before its
  ``Decided`` (the ``expected_version`` it decided at)

* what a table's referee enters (a seat's decision, its own step, a correction), signed by the
  referee's own key (``RefereeKeyRegistered``, service/referee_key.py): ``["privateer-referee-v1",
  game id, version, head, seat, decision]`` where ``version`` is the store's version before the
  entry's ``Decided`` and ``head`` the hash there (the referee reads every event)
* a seat's new key, signed by its old key (a seat moving to another device, service/seat_keys.py):
  ``["privateer-seat-key-v1", game id, seat, old public key, new public key]``

``time`` is the signing time, ISO 8601 text in UTC (never earlier, in one
process, than its previous signature's); ``fingerprint`` is text (64 hex
digits). spec/SPEC.md is the specification.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
from datetime import datetime, timezone
from urllib.parse import parse_qs, urlsplit

from service.kernel.errors import BadInput

from .chain import canon

# True for the type checker only (pyproject.toml: ``always_true``): cryptography is imported when a key is used
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

HEAD = "privateer-head-v1"
RECEIPT = "privateer-receipt-v1"
RECORD = "privateer-record-v1"
ROTATION = "privateer-rotation-v1"
FEED = "privateer-feed-v1"
DECISION = "privateer-decision-v1"
END = "privateer-end-v1"
REFEREE = "privateer-referee-v1"
SEAT_KEY = "privateer-seat-key-v1"
SEAT_KEY_FORMAT = "privateer-seat-key"
ROTATION_ATTEMPTS = 5     # a rotation dated again when a step signed by the outgoing key committed after its time
IN_KEY_FILE = "key-file"   # ``privateer_keys.private_key`` of the service's own keys: the private half is in the key file
KEY_FILE_FORMAT = "privateer-key-file"


def fingerprint(public_key: bytes) -> str:
    return hashlib.sha256(public_key).hexdigest()


class KeyHistory(dict):
    """Public keys by fingerprint, with the life of those a key history dates
    (``life``: fingerprint -> (from, until), either None when not said): a
    signature by a dated key counts only within its life (spec/SPEC.md §4)."""

    def __init__(self, *args, life: dict | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.life: dict[str, tuple[str | None, str | None]] = dict(life or {})


def now() -> str:
    return datetime.now(timezone.utc).isoformat()


def head_message(game_id: bytes, version: int, head: bytes, time: str, fp: str) -> bytes:
    return canon([HEAD, game_id, version, head, time, fp])


def feed_message(seq: int, tag: bytes, version: int, head: bytes, signed: str, head_fp: str, since: tuple[int, bytes],
                 prev: bytes, time: str, fp: str) -> bytes:
    return canon([FEED, seq, tag, version, head, signed, head_fp, since[0], since[1], prev, time, fp])


def receipt_message(game_id: bytes, seat: int, seat_version: int, head: bytes, time: str, fp: str) -> bytes:
    return canon([RECEIPT, game_id, seat, seat_version, head, time, fp])


def record_message(game_id: bytes, version: int, head: bytes, time: str, fp: str, digest: bytes) -> bytes:
    return canon([RECORD, game_id, version, head, time, fp, digest])


def end_message(game_id: bytes, version: int, head: bytes, secret: bytes | None, parents: list | None, time: str,
                fp: str) -> bytes:
    """The bytes of a finished game's signed end (spec/SPEC.md §4a): its last version and head, the
    revealed seed (``secret``, None in table mode) and a fork's ``parents`` (None: [])."""
    return canon([END, game_id, version, head, None if secret is None else bytes(secret),
                  [[int(v), None if s is None else bytes(s)] for v, s in parents or []], time, fp])


def rotation_message(outgoing: bytes, incoming: bytes, time: str) -> bytes:
    return canon([ROTATION, outgoing, incoming, time])


def decision_message(game_id: bytes, seat: int, seat_version: int, decision: object) -> bytes:
    """The bytes a seat signs for its decision (spec/SPEC.md §6a)."""
    return canon([DECISION, game_id, seat, seat_version, decision])


def referee_message(game_id: bytes, version: int, head: bytes, seat: int, decision: object) -> bytes:
    """The bytes a table's referee signs for what it enters (spec/SPEC.md §9a)."""
    return canon([REFEREE, game_id, version, head, seat, decision])


def seat_key_message(game_id: bytes, seat: int, old: bytes, new: bytes) -> bytes:
    """The bytes a seat's old key signs to hand the seat to a new key (spec/SPEC.md §6a)."""
    return canon([SEAT_KEY, game_id, seat, old, new])


def sign(private_key: bytes, message: bytes) -> bytes:
    """Ed25519 (RFC 8032) of ``message`` with a raw 32-byte private key: 64 bytes."""
    return signer_of(private_key)(message)


def signer_of(private_key: bytes) -> Callable[[bytes], bytes]:
    """``sign`` with the key parsed once, for one who signs many messages (a table's referee)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    return Ed25519PrivateKey.from_private_bytes(private_key).sign


def owner_only(path: str, what: str) -> bytes | None:
    """The bytes of a key file only its owner may read (None: there is none); a file
    readable by group or others is refused, naming ``what`` it is."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise KeyFileError(f"cannot read {what} {path}: {e.strerror}") from None
    with os.fdopen(fd, "rb") as f:
        mode = os.fstat(f.fileno()).st_mode & 0o777
        if mode & 0o077:
            raise KeyFileError(f"{what} {path} is readable by others (mode {mode:03o}): "
                               f"refused; make it the owner's alone (chmod 600 {path})")
        return f.read()


class SeatKeyFile:
    """A seat's own Ed25519 key in a JSON file only its owner may read (0600):
    ``{"format": "privateer-seat-key", "format_version": 1, "public_key": hex,
    "private_key": hex}``. The player keeps it; the service never sees its
    private half (``tools seat-key FILE`` makes one, ``tools act --seat-key FILE``
    registers its public half and signs with it)."""

    def __init__(self, path: str):
        self.path = path

    def make(self) -> bytes:
        """A new key written to ``path`` (refused if the file exists); its public key."""
        private, public = _new_key()
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            raise KeyFileError(f"{self.path} exists already: a seat key is made once (choose another file)") from None
        except OSError as e:
            raise KeyFileError(f"cannot write the seat key file {self.path}: {e.strerror}") from None
        with os.fdopen(fd, "w") as f:
            os.fchmod(f.fileno(), 0o600)
            json.dump({"format": SEAT_KEY_FORMAT, "format_version": 1, "public_key": public.hex(),
                       "private_key": private.hex()}, f, indent=1)
            f.write("\n")
        return public

    def read(self) -> tuple[bytes, bytes]:
        """(private, public), raw 32 bytes each; a file readable by group or others is refused."""
        raw = owner_only(self.path, "the seat key file")
        if raw is None:
            raise KeyFileError(f"cannot read the seat key file {self.path}: No such file or directory")
        try:
            doc = json.loads(raw)
            if doc.get("format") != SEAT_KEY_FORMAT:
                raise ValueError
            private, public = bytes.fromhex(doc["private_key"]), bytes.fromhex(doc["public_key"])
            if len(private) != 32 or len(public) != 32:
                raise ValueError
        except (ValueError, KeyError, TypeError, AttributeError):
            raise KeyFileError(f"{self.path} is not a privateer seat key file") from None
        return private, public


_PUBLIC_KEYS: dict[bytes, Ed25519PublicKey] = {}  # raw public key -> its parsed key object (``verify``)
_PUBLIC_KEYS_KEPT = 4096


def verify(public_key: bytes, signature: bytes, message: bytes) -> bool:
    """Whether ``signature`` is ``public_key``'s Ed25519 signature of ``message``. A key's object
    is parsed once and kept (a game's seats' and referee's keys are checked at every step);
    what is checked is the same."""
    from cryptography.exceptions import InvalidSignature

    key = _PUBLIC_KEYS.get(public_key)
    if key is None:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

        try:
            key = Ed25519PublicKey.from_public_bytes(public_key)
        except (ValueError, TypeError):
            return False
        if len(_PUBLIC_KEYS) >= _PUBLIC_KEYS_KEPT:
            _PUBLIC_KEYS.clear()
        _PUBLIC_KEYS[bytes(public_key)] = key
    try:
        key.verify(signature, message)
    except (InvalidSignature, ValueError, TypeError):
        return False
    return True


def _new_key() -> tuple[bytes, bytes]:
    """(private, public): raw 32 bytes each."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat, PublicFormat

    key = Ed25519PrivateKey.generate()
    return (key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption()),
            key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw))


class KeyFileError(BadInput):
    """A key file that cannot be used (said in one line)."""


def key_file_path(db: str) -> str | None:
    """Where the store's private keys live (module docstring); None: nowhere
    (an in-memory SQLite store keeps its key in memory)."""
    named = os.environ.get("PRIVATEER_KEY_FILE")
    if named:
        return named
    if db.startswith(("postgresql://", "postgres://")):
        u = urlsplit(db)
        schema = (parse_qs(u.query).get("schema") or ["public"])[0]
        name = f"{u.hostname or 'localhost'}-{u.port or 5432}-{u.path.lstrip('/') or 'postgres'}-{schema}"
        name = "".join(c if c.isalnum() or c in "-_." else "_" for c in name)
        base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
        return os.path.join(base, "privateer", f"{name}.key")
    if db == ":memory:" or db.startswith("file::memory:"):
        return None
    return db + ".key"


class KeyFile:
    """The private keys, by fingerprint, in a JSON file only its owner may read
    (0600). Written whole to a new file (0600 from its creation) that replaces
    the old one, under a lock (``<path>.lock``) so that processes sharing it
    never lose each other's keys. ``path`` None: kept in memory only."""

    def __init__(self, path: str | None):
        self.path = path
        self._memory: dict[str, str] = {}

    def read(self) -> dict[str, str]:
        if self.path is None:
            return dict(self._memory)
        raw = owner_only(self.path, "the key file")
        if raw is None:
            return {}
        try:
            doc = json.loads(raw)
            keys = doc["keys"]
            if doc.get("format") != KEY_FILE_FORMAT or not isinstance(keys, dict):
                raise ValueError
        except (ValueError, KeyError, TypeError):
            raise KeyFileError(f"{self.path} is not a privateer key file") from None
        return {str(k): str(v) for k, v in keys.items()}

    def get(self, fp: str) -> bytes | None:
        text = self.read().get(fp)
        return bytes.fromhex(text) if text else None

    def update(self, add: dict[str, bytes] | None = None, drop: tuple[str, ...] = ()) -> None:
        """Add keys (fingerprint -> raw private key) and drop others, durably, before anything relies on it."""
        if self.path is None:
            self._memory.update({fp: k.hex() for fp, k in (add or {}).items()})
            for fp in drop:
                self._memory.pop(fp, None)
            return
        folder = os.path.dirname(os.path.abspath(self.path))
        os.makedirs(folder, mode=0o700, exist_ok=True)
        lock = os.open(self.path + ".lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX)
            keys = self.read()
            keys.update({fp: k.hex() for fp, k in (add or {}).items()})
            for fp in drop:
                keys.pop(fp, None)
            tmp = f"{self.path}.{os.getpid()}.new"
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w") as f:
                os.fchmod(f.fileno(), 0o600)
                json.dump({"format": KEY_FILE_FORMAT, "format_version": 1, "keys": keys}, f, indent=1, sort_keys=True)
                f.write("\n")
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
            dfd = os.open(folder, os.O_RDONLY)
            try:
                os.fsync(dfd)
            finally:
                os.close(dfd)
        finally:
            os.close(lock)


class Signer:
    """The store's signing key, loaded (or made) on first use from the key file."""

    def __init__(self, recorder, key_file: KeyFile):
        self.recorder = recorder
        self.key_file = key_file
        self._key: Ed25519PrivateKey | None = None  # the cryptography private key object
        self.fingerprint = ""
        self.public_key = b""
        self._last = ""           # the last signing time of this process: times never go back
        self._rows: list[dict] = []  # the signing keys' rows as last read (``_signing_rows``)
        self.move_out()

    def move_out(self) -> int:
        """Private keys kept in the store's table (stores before issue 43) are moved
        into the key file: written there first, then blanked in the table. How many."""
        rows = [r for r in self.recorder.select_keys() if r["private_key"] not in ("", IN_KEY_FILE)]
        if not rows:
            return 0
        self.key_file.update({r["fingerprint"]: bytes.fromhex(r["private_key"]) for r in rows})
        held = self.key_file.read()
        if any(held.get(r["fingerprint"]) != r["private_key"].lower() for r in rows):  # never blanked before it is kept
            raise KeyFileError(f"the key file {self.key_file.path} does not hold the keys just written to it")
        self.recorder.insert_service_rows(keys_moved=[(IN_KEY_FILE, r["fingerprint"]) for r in rows])
        return len(rows)

    def _active(self, read: bool = True):
        """The signing key; ``read=False``: as last read, when there is one (a step's head:
        its transaction refuses a key retired before the head's time, ``in_life`` then reads
        the keys again and the step is signed again)."""
        rows = self._rows if not read and self._rows else self._signing_rows()
        if not rows:  # first use: made, kept in the key file, then stored and read back (two may race: all keep the first)
            private, public = _new_key()
            fp = fingerprint(public)
            self.key_file.update({fp: private})
            self.recorder.insert_service_rows(key=(fp, public.hex(), IN_KEY_FILE, now(), ""))
            rows = self._signing_rows()
        if self._key is None or rows[0]["fingerprint"] != self.fingerprint:  # a rotation elsewhere is seen at once
            self._use(rows[0])
        return self._key

    def _signing_rows(self, rows: list[dict] | None = None) -> list[dict]:
        """The keys that sign (held in the key file, not retired), from ``rows`` (else read now), kept."""
        self._rows = [r for r in (self.recorder.select_keys() if rows is None else rows)
                      if r["private_key"] and not r["retired"]]
        return self._rows

    def _use(self, row: dict) -> None:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        private = self.key_file.get(row["fingerprint"])
        if private is None:
            raise KeyFileError(f"the signing key {row['fingerprint'][:16]} is not in the key file "
                               f"{self.key_file.path or '(in memory)'}: copy the key file of the server that made "
                               "it (or name it with PRIVATEER_KEY_FILE)")
        self._key = Ed25519PrivateKey.from_private_bytes(private)
        self.fingerprint = row["fingerprint"]
        self.public_key = bytes.fromhex(row["public_key"])

    def _now(self) -> str:
        t = now()
        if self._last and datetime.fromisoformat(t) < datetime.fromisoformat(self._last):
            t = self._last  # the clock went back: sign at the last time said, never earlier
        self._last = t
        return t

    def in_life(self, fp: str, time: str) -> bool:
        """Whether the key ``fp`` still signs at ``time`` (not retired before it): a step whose
        transaction refused its signed head (a rotation committed first) is signed again."""
        rows = self.recorder.select_keys()
        self._signing_rows(rows)
        return not any(r["fingerprint"] == fp and r["retired"] and r["retired"] < time for r in rows)

    def head_row(self, game_id, version: int, head: bytes) -> tuple:
        """The signed head of a step: a ``privateer_signatures`` row (the keys read now)."""
        return self.step(game_id, version, head, None, read=True)[0]

    def sign_feed_entry(self, seq: int, tag: bytes, version: int, head: bytes, signed: str, head_fp: str,
                        since: tuple[int, bytes], prev: bytes) -> tuple[bytes, str, str, bytes]:
        """An entry of the feed of heads: its statement, time, the signing key's fingerprint, the signature."""
        key = self._active()
        t = self._now()
        msg = feed_message(seq, tag, version, head, signed, head_fp, since, prev, t, self.fingerprint)
        return msg, t, self.fingerprint, key.sign(msg)

    def step(self, game_id, version: int, head: bytes, receipt: tuple[int, int] | None,
             read: bool = False) -> tuple[tuple, dict | None]:
        """A step's signed head (``head_row``) and, for a seat's decision, its receipt
        (``receipt``: the seat and its own version): one key, one time. The key is the one
        last read (``read=False``): no read of the store's keys for every step. The step's
        transaction refuses a head whose key retired before its time (a rotation by another
        process); the step is then signed again, its receipt with it (``Privateer.signed_again``).
        So a receipt, of its head's key and time, is within its key's life exactly when its head is."""
        key = self._active(read)
        t = self._now()
        fp = self.fingerprint
        row = (game_id.hex, version, head.hex(), t, fp, key.sign(head_message(game_id.bytes, version, head, t, fp)).hex())
        if receipt is None:
            return row, None
        return row, self._receipt(key, t, game_id, *receipt, head)

    def receipt(self, game_id, seat: int, seat_version: int, head: bytes) -> dict:
        """A seat's receipt for the head after its accepted step."""
        key = self._active()
        return self._receipt(key, self._now(), game_id, seat, seat_version, head)

    def _receipt(self, key, t: str, game_id, seat: int, seat_version: int, head: bytes) -> dict:
        sig = key.sign(receipt_message(game_id.bytes, seat, seat_version, head, t, self.fingerprint))
        return {"statement": RECEIPT, "game_id": game_id.hex, "seat": seat, "seat_version": seat_version,
                "head": head.hex(), "time": t, "fingerprint": self.fingerprint,
                "public_key": self.public_key.hex(), "signature": sig.hex()}

    def sign_record(self, game_id, version: int, head: bytes, digest: bytes) -> tuple[str, str, str]:
        """(time, fingerprint, signature hex) of a record's signed step."""
        key = self._active()
        t = self._now()
        return t, self.fingerprint, key.sign(record_message(game_id.bytes, version, head, t, self.fingerprint,
                                                           digest)).hex()

    def sign_end(self, game_id, version: int, head: bytes, secret: bytes | None, parents: list | None) -> list:
        """A finished game's end statement: ``[version, time, fingerprint, signature]`` (spec/SPEC.md §4a)."""
        key = self._active()
        t = self._now()
        return [version, t, self.fingerprint,
                key.sign(end_message(game_id.bytes, version, head, secret, parents, t, self.fingerprint))]

    def rotate(self) -> dict:
        """A new signing key; every other one is retired (still listed, with its life),
        each by a rotation statement signed by it and by the new key. The new key is in
        the key file before the store names it; the retired ones leave the key file after."""
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        from eventsourcing.persistence import IntegrityError

        self._active()
        outgoing = self._signing_rows()
        private, public = _new_key()
        fp = fingerprint(public)
        self.key_file.update({fp: private})
        new = Ed25519PrivateKey.from_private_bytes(private)
        for attempt in range(ROTATION_ATTEMPTS):
            t = self._now()
            statements = []
            for r in outgoing:
                old_private = self.key_file.get(r["fingerprint"])
                if old_private is None:
                    raise KeyFileError(f"the signing key {r['fingerprint'][:16]} is not in the key file: "
                                       "it cannot sign its rotation")
                old_public = bytes.fromhex(r["public_key"])
                msg = rotation_message(old_public, public, t)
                statements.append((r["fingerprint"], fp, t, r["public_key"], public.hex(),
                                   Ed25519PrivateKey.from_private_bytes(old_private).sign(msg).hex(),
                                   new.sign(msg).hex()))
            try:  # refused when an outgoing key signed after ``t`` meanwhile (a step committed first): dated again
                self.recorder.insert_service_rows(key=(fp, public.hex(), IN_KEY_FILE, t, ""), retire_keys=(t, fp),
                                                  rotations=statements)
                break
            except IntegrityError:
                if attempt == ROTATION_ATTEMPTS - 1:
                    raise
        self.key_file.update(drop=tuple(r["fingerprint"] for r in outgoing))
        self._key = None
        self._active()
        return self.describe()[-1]

    def describe(self) -> list[dict]:
        """Every key of the service's own (oldest first), with its life (``from``,
        ``until``: None while it signs; ``created`` and ``retired`` say the same) and
        the statement of the rotation that retired it (None: still signing, or retired
        before rotations were signed). A public key kept from an imported file is that
        file's claim, not the service's: never listed (``tools key``, ``GET /key``)."""
        self._active()
        rotations = {r["old_fingerprint"]: rotation_statement(r) for r in self.recorder.select_rotations()}
        return [{"fingerprint": r["fingerprint"], "public_key": r["public_key"], "created": r["created"],
                 "retired": r["retired"] or None, "from": r["created"], "until": r["retired"] or None,
                 "signing": r["fingerprint"] == self.fingerprint, "rotation": rotations.get(r["fingerprint"])}
                for r in self.recorder.select_keys() if r["private_key"]]

    def history(self) -> dict:
        """The key history as ``tools key --json`` and ``GET /key`` publish it (spec/SPEC.md §4)."""
        keys = self.describe()
        active = next(k for k in keys if k["signing"])
        return {"format": "privateer-key-history", "fingerprint": active["fingerprint"],
                "public_key": active["public_key"], "keys": keys,
                "rotations": [k["rotation"] for k in keys if k["rotation"]]}

    def own_keys(self) -> dict[str, bytes]:
        """The service's own public keys (the signing one and the retired ones), by fingerprint,
        each with its life (``KeyHistory``): what a key signs after its retirement does not count."""
        self._active()
        rows = [r for r in self.recorder.select_keys() if r["private_key"]]
        return KeyHistory({r["fingerprint"]: bytes.fromhex(r["public_key"]) for r in rows},
                          life={r["fingerprint"]: (r["created"], r["retired"] or None) for r in rows})

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


def rotation_statement(row: dict) -> dict:
    """A ``privateer_key_rotations`` row as published (spec/SPEC.md §4)."""
    return {"statement": ROTATION, "outgoing": row["old_public_key"], "incoming": row["new_public_key"],
            "outgoing_fingerprint": row["old_fingerprint"], "incoming_fingerprint": row["new_fingerprint"],
            "time": row["time"], "outgoing_signature": row["old_signature"],
            "incoming_signature": row["new_signature"]}


def rotation_problem(statement: dict) -> str | None:
    """None when a rotation statement verifies with both its keys; else why not."""
    try:
        old, new = bytes.fromhex(statement["outgoing"]), bytes.fromhex(statement["incoming"])
        msg = rotation_message(old, new, statement["time"])
        if not verify(old, bytes.fromhex(statement["outgoing_signature"]), msg):
            return f"the rotation at {statement['time']}: the outgoing key's signature does not check"
        if not verify(new, bytes.fromhex(statement["incoming_signature"]), msg):
            return f"the rotation at {statement['time']}: the incoming key's signature does not check"
    except (KeyError, TypeError, ValueError):
        return "a rotation statement that cannot be read"
    return None

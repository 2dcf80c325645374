"""Tables of the HTTP service, kept in the same database as the events.

* ``privateer_credentials``: one row per credential of a game: a seat token
  (``role`` = ``"seat:<n>"``) or the game's referee key (``role`` =
  ``"referee"``). Only the SHA-256 (hex) of the secret is stored.
  Primary key ``(game_id, role)``: a seat is taken once.
* ``privateer_idempotency``: the first result of every request that carried
  an ``Idempotency-Key`` and appended events. Written in the SAME transaction
  as those events (recorder kwarg ``idempotency=``), so a retry after a crash
  either finds the record (and the events) or finds neither.
  Primary key ``(game_id, scope, idem_key)``; ``scope`` is who asked
  (``"seat:<n>"`` or ``"referee"``), ``fingerprint`` the SHA-256 of the
  canonical request, ``status``/``body`` the first response (JSON text).

The SQL is portable (SQLite and PostgreSQL); statements are given in both
placeholder styles: ``*_QMARK`` (``?``, SQLite) and ``*_PYFORMAT`` (``%s``,
psycopg). Recorder kwargs (both recorders must accept them in
``_insert_events`` and write the rows in the events' transaction):

* ``idempotency=(game_id, scope, idem_key, fingerprint, status, body)``
* ``credential=(game_id, role, token_hash, created)`` (a seat that joins
  with entropy, or the referee key of a new game)
* ``invitation_use=(game_id, code_hash, role, used)`` (the invitation a seat
  joined with: consumed in the same transaction as its credential)

* ``privateer_invitations``: one row per seat invitation issued by the
  organiser or the game's referee: ``code_hash`` (SHA-256 of the one-time
  code, never the code), the ``seat`` it is for, the ``player`` it names
  (may be empty). Primary key ``(game_id, code_hash)``.
* ``privateer_invitation_uses``: one row per consumed invitation. Primary key
  ``(game_id, code_hash)``: inserted with the seat's credential (and any
  events) in one transaction, so a code gives at most one seat, even to two
  joins racing with it.
* ``privateer_published``: the forks their organiser or referee published
  (a fork without a row is private). Primary key ``game_id``.
* ``privateer_keys``: the service's Ed25519 signing keys (event_store/signing.py):
  ``fingerprint`` (hex SHA-256 of the raw public key), ``public_key`` (hex of
  the raw 32 bytes), ``private_key``: never the key itself, which lives in the
  key file (event_store/signing.py ``KeyFile``), but ``"key-file"`` for the
  service's own keys and empty for a key known only by its public half (from
  an imported file); a row that holds the key's hex (a store of an older layout)
  has it moved out to the key file when the store is opened (``keys_moved``). ``created``,
  ``retired`` (empty while it signs): the key's life. A rotated key stays
  listed, so what it signed in its life still checks.
* ``privateer_key_rotations``: one row per rotation: the outgoing and incoming
  keys (fingerprints, public keys hex), the ``time`` (the outgoing key's
  ``retired``, the incoming one's ``created``) and the statement's two
  signatures (hex), by the outgoing and by the incoming key (signing.py
  ``rotation_message``). Primary key ``(old_fingerprint, new_fingerprint)``.
* ``privateer_signatures``: one row per signed head: the last version of every
  step (game id, version, head hex, time, fingerprint, signature hex), written
  in the step's transaction (recorder kwarg ``signatures=[row, ...]``); an
  imported file's signatures too. Primary key ``(game_id, version, fingerprint)``.
* ``privateer_ends``: an imported finished game's signed end, as its file carried
  it (version, time, fingerprint, signature hex; spec/SPEC.md §4a) with the
  fork's ``parents`` it binds (JSON ``[[version, seed hex or null], ...]``), so
  that a re-export carries both. The store's own games are not here: their end is signed
  when they are exported or written as a record. Primary key ``game_id``.
* ``privateer_heads_feed``: the feed of heads (event_store/heads_feed.py): one row
  per head of the service's own signed heads, in the order the feed took them
  (``seq`` from 1, no gap), each entry chained to the one before (``prev``,
  ``entry``: hex SHA-256) and signed by the service; ``since_version``,
  ``since_head``: the game's entry the feed took before this one (0 and
  zeros for its first). Unique ``(game_id,
  version, head)``: a head is fed once; a rewritten one is a new entry. Only
  finished games' heads (the games index's ``finished``): a live game's versions
  count events hidden from its seats.
* ``privateer_catalogs``: the printed-card catalogs an organiser loaded
  (service/catalogs.py): ``digest`` (the kernel's ``catalog_digest``), the
  ``game``, a ``name``, the validated ``catalog`` (JSON text), ``created``.
  Primary key ``digest``: the same catalog loaded twice is one row.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not imported at run time
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any, Protocol

    class Cursor(Protocol):
        """A database cursor (``sqlite3``'s or psycopg's)."""

        def execute(self, sql: str, params: tuple[Any, ...], /) -> object: ...


CREDENTIALS_TABLE = (
    "CREATE TABLE IF NOT EXISTS privateer_credentials ("
    "game_id TEXT NOT NULL, role TEXT NOT NULL, token_hash TEXT NOT NULL, created TEXT NOT NULL, "
    "PRIMARY KEY (game_id, role))"
)
IDEMPOTENCY_TABLE = (
    "CREATE TABLE IF NOT EXISTS privateer_idempotency ("
    "game_id TEXT NOT NULL, scope TEXT NOT NULL, idem_key TEXT NOT NULL, fingerprint TEXT NOT NULL, "
    "status INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (game_id, scope, idem_key))"
)
INVITATIONS_TABLE = (
    "CREATE TABLE IF NOT EXISTS privateer_invitations ("
    "game_id TEXT NOT NULL, code_hash TEXT NOT NULL, seat INTEGER NOT NULL, player TEXT NOT NULL, "
    "created TEXT NOT NULL, PRIMARY KEY (game_id, code_hash))"
)
INVITATION_USES_TABLE = (
    "CREATE TABLE IF NOT EXISTS privateer_invitation_uses ("
    "game_id TEXT NOT NULL, code_hash TEXT NOT NULL, role TEXT NOT NULL, used TEXT NOT NULL, "
    "PRIMARY KEY (game_id, code_hash))"
)
PUBLISHED_TABLE = (
    "CREATE TABLE IF NOT EXISTS privateer_published ("
    "game_id TEXT PRIMARY KEY, published TEXT NOT NULL)"
)
KEYS_TABLE = (
    "CREATE TABLE IF NOT EXISTS privateer_keys ("
    "fingerprint TEXT PRIMARY KEY, public_key TEXT NOT NULL, private_key TEXT NOT NULL, "
    "created TEXT NOT NULL, retired TEXT NOT NULL)"
)
SIGNATURES_TABLE = (
    "CREATE TABLE IF NOT EXISTS privateer_signatures ("
    "game_id TEXT NOT NULL, version INTEGER NOT NULL, head TEXT NOT NULL, signed TEXT NOT NULL, "
    "fingerprint TEXT NOT NULL, signature TEXT NOT NULL, PRIMARY KEY (game_id, version, fingerprint))"
)
ROTATIONS_TABLE = (
    "CREATE TABLE IF NOT EXISTS privateer_key_rotations ("
    "old_fingerprint TEXT NOT NULL, new_fingerprint TEXT NOT NULL, time TEXT NOT NULL, old_public_key TEXT NOT NULL, "
    "new_public_key TEXT NOT NULL, old_signature TEXT NOT NULL, new_signature TEXT NOT NULL, "
    "PRIMARY KEY (old_fingerprint, new_fingerprint))"
)
HEADS_FEED_TABLE = (
    "CREATE TABLE IF NOT EXISTS privateer_heads_feed ("
    "seq INTEGER PRIMARY KEY, game_id TEXT NOT NULL, version INTEGER NOT NULL, head TEXT NOT NULL, "
    "signed TEXT NOT NULL, fingerprint TEXT NOT NULL, head_signature TEXT NOT NULL, since_version INTEGER NOT NULL, "
    "since_head TEXT NOT NULL, prev TEXT NOT NULL, "
    "time TEXT NOT NULL, feed_fingerprint TEXT NOT NULL, entry TEXT NOT NULL, signature TEXT NOT NULL, "
    "UNIQUE (game_id, version, head))"
)
ENDS_TABLE = (
    "CREATE TABLE IF NOT EXISTS privateer_ends ("
    "game_id TEXT PRIMARY KEY, version INTEGER NOT NULL, signed TEXT NOT NULL, fingerprint TEXT NOT NULL, "
    "signature TEXT NOT NULL, parents TEXT NOT NULL)"
)
CATALOGS_TABLE = (
    "CREATE TABLE IF NOT EXISTS privateer_catalogs ("
    "digest TEXT PRIMARY KEY, game TEXT NOT NULL, name TEXT NOT NULL, catalog TEXT NOT NULL, created TEXT NOT NULL)"
)
CREATE_STATEMENTS = [CREDENTIALS_TABLE, IDEMPOTENCY_TABLE, INVITATIONS_TABLE, INVITATION_USES_TABLE,
                     PUBLISHED_TABLE, KEYS_TABLE, SIGNATURES_TABLE, ROTATIONS_TABLE, HEADS_FEED_TABLE, CATALOGS_TABLE,
                     ENDS_TABLE]
FEED_COLUMNS = ("seq", "game_id", "version", "head", "signed", "fingerprint", "head_signature", "since_version",
                "since_head", "prev", "time",
                "feed_fingerprint", "entry", "signature")

_INSERT_CREDENTIAL = "INSERT INTO privateer_credentials (game_id, role, token_hash, created) VALUES ({p}, {p}, {p}, {p})"
_INSERT_IDEMPOTENCY = ("INSERT INTO privateer_idempotency (game_id, scope, idem_key, fingerprint, status, body) "
                       "VALUES ({p}, {p}, {p}, {p}, {p}, {p})")
_INSERT_INVITATION = ("INSERT INTO privateer_invitations (game_id, code_hash, seat, player, created) "
                      "VALUES ({p}, {p}, {p}, {p}, {p})")
_INSERT_INVITATION_USE = ("INSERT INTO privateer_invitation_uses (game_id, code_hash, role, used) "
                          "VALUES ({p}, {p}, {p}, {p})")
# A signed head whose key was retired before its time is refused by its own transaction (the signature
# NULL: a NOT NULL violation, the library's IntegrityError), as a rotation is whose outgoing key signed
# a head or a feed entry after its time: a rotation and a step racing each other, whichever commits
# second fails and is signed again (event_store/signing.py ``Signer.rotate``, service/app.py ``Privateer.write``).
_INSERT_SIGNATURE = ("INSERT INTO privateer_signatures (game_id, version, head, signed, fingerprint, signature) "
                     "SELECT {p}, {p}, {p}, {p}, {p}, CASE WHEN EXISTS (SELECT 1 FROM privateer_keys "
                     "WHERE fingerprint = {p} AND retired <> '' AND retired < {p}) THEN NULL ELSE {p} END "
                     "WHERE true ON CONFLICT DO NOTHING")
_LOCK_KEY = "SELECT 1 FROM privateer_keys WHERE fingerprint = %s FOR SHARE"  # PostgreSQL: a rotation waits for the step
_INSERT_END = ("INSERT INTO privateer_ends (game_id, version, signed, fingerprint, signature, parents) "
               "VALUES ({p}, {p}, {p}, {p}, {p}, {p}) ON CONFLICT DO NOTHING")
_SELECT_END = "SELECT version, signed, fingerprint, signature, parents FROM privateer_ends WHERE game_id = {p}"
_INSERT_KEY = ("INSERT INTO privateer_keys (fingerprint, public_key, private_key, created, retired) "
               "VALUES ({p}, {p}, {p}, {p}, {p}) ON CONFLICT DO NOTHING")
_RETIRE_KEYS = "UPDATE privateer_keys SET retired = {p} WHERE retired = '' AND private_key != '' AND fingerprint != {p}"
_MOVE_KEY = "UPDATE privateer_keys SET private_key = {p} WHERE fingerprint = {p}"
_INSERT_ROTATION = ("INSERT INTO privateer_key_rotations (old_fingerprint, new_fingerprint, time, old_public_key, "
                    "new_public_key, old_signature, new_signature) SELECT {p}, {p}, {p}, {p}, {p}, {p}, "
                    "CASE WHEN EXISTS (SELECT 1 FROM privateer_signatures WHERE fingerprint = {p} AND signed > {p}) "
                    "OR EXISTS (SELECT 1 FROM privateer_heads_feed WHERE feed_fingerprint = {p} AND time > {p}) "
                    "THEN NULL ELSE {p} END WHERE true ON CONFLICT DO NOTHING")
SELECT_ROTATIONS = ("SELECT old_fingerprint, new_fingerprint, time, old_public_key, new_public_key, old_signature, "
                    "new_signature FROM privateer_key_rotations ORDER BY time, old_fingerprint")
_SELECT_KEYS = "SELECT fingerprint, public_key, private_key, created, retired FROM privateer_keys ORDER BY created, fingerprint"
_SELECT_SIGNATURES = ("SELECT version, head, signed, fingerprint, signature FROM privateer_signatures "
                      "WHERE game_id = {p} ORDER BY version, signed, fingerprint")
_INSERT_FEED = (f"INSERT INTO privateer_heads_feed ({', '.join(FEED_COLUMNS)}) "
                f"VALUES ({', '.join('{p}' for _ in FEED_COLUMNS)})")
_SELECT_FEED = (f"SELECT {', '.join(FEED_COLUMNS)} FROM privateer_heads_feed WHERE seq > {{p}} "
                "ORDER BY seq LIMIT {p}")
SELECT_FEED_LAST = "SELECT seq, entry FROM privateer_heads_feed ORDER BY seq DESC LIMIT 1"
_SELECT_FEED_GAME_LAST = ("SELECT version, head FROM privateer_heads_feed WHERE game_id = {p} "
                          "ORDER BY seq DESC LIMIT 1")
SELECT_UNFED = ("SELECT s.game_id, s.version, s.head, s.signed, s.fingerprint, s.signature "
                "FROM privateer_signatures s JOIN privateer_games g ON g.game_id = s.game_id AND g.finished = 1 "
                "WHERE NOT EXISTS (SELECT 1 FROM privateer_heads_feed f "
                "WHERE f.game_id = s.game_id AND f.version = s.version AND f.head = s.head) "
                "ORDER BY s.game_id, s.version, s.signed, s.fingerprint")
_INSERT_CATALOG = ("INSERT INTO privateer_catalogs (digest, game, name, catalog, created) "
                   "VALUES ({p}, {p}, {p}, {p}, {p}) ON CONFLICT DO NOTHING")
_SELECT_CATALOG = "SELECT digest, game, name, catalog, created FROM privateer_catalogs WHERE digest = {p}"
SELECT_CATALOGS = "SELECT digest, game, name, created FROM privateer_catalogs ORDER BY created, digest"
_INSERT_PUBLISHED = "INSERT INTO privateer_published (game_id, published) VALUES ({p}, {p})"
_SELECT_INVITATION = ("SELECT i.seat, i.player, i.created, u.used FROM privateer_invitations i "
                      "LEFT JOIN privateer_invitation_uses u ON u.game_id = i.game_id AND u.code_hash = i.code_hash "
                      "WHERE i.game_id = {p} AND i.code_hash = {p}")
_SELECT_INVITATIONS = ("SELECT i.seat, i.player, i.created, u.used FROM privateer_invitations i "
                       "LEFT JOIN privateer_invitation_uses u ON u.game_id = i.game_id AND u.code_hash = i.code_hash "
                       "WHERE i.game_id = {p} ORDER BY i.created")
_SELECT_PUBLISHED = "SELECT published FROM privateer_published WHERE game_id = {p}"
_SELECT_ROLE = "SELECT role FROM privateer_credentials WHERE game_id = {p} AND token_hash = {p}"
_SELECT_ROLES = "SELECT role FROM privateer_credentials WHERE game_id = {p}"
_SELECT_IDEMPOTENCY = ("SELECT fingerprint, status, body FROM privateer_idempotency "
                       "WHERE game_id = {p} AND scope = {p} AND idem_key = {p}")

INSERT_CREDENTIAL_QMARK = _INSERT_CREDENTIAL.format(p="?")
INSERT_INVITATION_QMARK = _INSERT_INVITATION.format(p="?")
INSERT_INVITATION_USE_QMARK = _INSERT_INVITATION_USE.format(p="?")
INSERT_PUBLISHED_QMARK = _INSERT_PUBLISHED.format(p="?")
SELECT_INVITATION_QMARK = _SELECT_INVITATION.format(p="?")
SELECT_INVITATIONS_QMARK = _SELECT_INVITATIONS.format(p="?")
SELECT_PUBLISHED_QMARK = _SELECT_PUBLISHED.format(p="?")
INSERT_IDEMPOTENCY_QMARK = _INSERT_IDEMPOTENCY.format(p="?")
SELECT_ROLE_QMARK = _SELECT_ROLE.format(p="?")
SELECT_ROLES_QMARK = _SELECT_ROLES.format(p="?")
SELECT_IDEMPOTENCY_QMARK = _SELECT_IDEMPOTENCY.format(p="?")
SELECT_KEYS = _SELECT_KEYS
SELECT_SIGNATURES_QMARK = _SELECT_SIGNATURES.format(p="?")
SELECT_SIGNATURES_PYFORMAT = _SELECT_SIGNATURES.format(p="%s")
SELECT_END_QMARK = _SELECT_END.format(p="?")
SELECT_END_PYFORMAT = _SELECT_END.format(p="%s")
SELECT_FEED_QMARK = _SELECT_FEED.format(p="?")
SELECT_CATALOG_QMARK = _SELECT_CATALOG.format(p="?")
SELECT_CATALOG_PYFORMAT = _SELECT_CATALOG.format(p="%s")
SELECT_FEED_PYFORMAT = _SELECT_FEED.format(p="%s")
SELECT_FEED_GAME_LAST_QMARK = _SELECT_FEED_GAME_LAST.format(p="?")
SELECT_FEED_GAME_LAST_PYFORMAT = _SELECT_FEED_GAME_LAST.format(p="%s")

INSERT_CREDENTIAL_PYFORMAT = _INSERT_CREDENTIAL.format(p="%s")
INSERT_INVITATION_PYFORMAT = _INSERT_INVITATION.format(p="%s")
INSERT_INVITATION_USE_PYFORMAT = _INSERT_INVITATION_USE.format(p="%s")
INSERT_PUBLISHED_PYFORMAT = _INSERT_PUBLISHED.format(p="%s")
SELECT_INVITATION_PYFORMAT = _SELECT_INVITATION.format(p="%s")
SELECT_INVITATIONS_PYFORMAT = _SELECT_INVITATIONS.format(p="%s")
SELECT_PUBLISHED_PYFORMAT = _SELECT_PUBLISHED.format(p="%s")
INSERT_IDEMPOTENCY_PYFORMAT = _INSERT_IDEMPOTENCY.format(p="%s")
SELECT_ROLE_PYFORMAT = _SELECT_ROLE.format(p="%s")
SELECT_ROLES_PYFORMAT = _SELECT_ROLES.format(p="%s")
SELECT_IDEMPOTENCY_PYFORMAT = _SELECT_IDEMPOTENCY.format(p="%s")


_NAME_INVITATION = ("UPDATE privateer_invitations SET player = {p} "
                    "WHERE game_id = {p} AND code_hash = {p} AND player = ''")
NAME_INVITATION_QMARK = _NAME_INVITATION.format(p="?")
NAME_INVITATION_PYFORMAT = _NAME_INVITATION.format(p="%s")


def service_statements(idempotency: Sequence[Any] | None = None, credential: Sequence[Any] | None = None,
                       invitation_use: Sequence[Any] | None = None, invitation: Sequence[Any] | None = None,
                       published: Sequence[Any] | None = None, invitation_player: Sequence[Any] | None = None,
                       signatures: Iterable[Sequence[Any]] | None = None, key: Sequence[Any] | None = None,
                       retire_keys: Sequence[Any] | None = None, rotations: Iterable[Sequence[Any]] | None = None,
                       keys_moved: Iterable[Sequence[Any]] | None = None, feed: Iterable[Sequence[Any]] | None = None,
                       catalog: Sequence[Any] | None = None, end: Sequence[Any] | None = None,
                       style: str = "qmark") -> list[tuple[str, tuple[Any, ...]]]:
    """The statements (SQL, parameters) that write the service rows passed
    to ``_insert_events``, in the order they run inside the events' transaction."""
    pyformat = style != "qmark"
    out: list[tuple[str, tuple[Any, ...]]] = []
    if invitation_use is not None:  # first: a used code fails before anything else is written
        out.append((INSERT_INVITATION_USE_PYFORMAT if pyformat else INSERT_INVITATION_USE_QMARK, tuple(invitation_use)))
    if credential is not None:
        out.append((INSERT_CREDENTIAL_PYFORMAT if pyformat else INSERT_CREDENTIAL_QMARK, tuple(credential)))
    if invitation is not None:
        out.append((INSERT_INVITATION_PYFORMAT if pyformat else INSERT_INVITATION_QMARK, tuple(invitation)))
    if published is not None:
        out.append((INSERT_PUBLISHED_PYFORMAT if pyformat else INSERT_PUBLISHED_QMARK, tuple(published)))
    if invitation_player is not None:  # (name, game_id, code_hash): the joiner names an unnamed seat
        out.append((NAME_INVITATION_PYFORMAT if pyformat else NAME_INVITATION_QMARK, tuple(invitation_player)))
    if idempotency is not None:
        out.append((INSERT_IDEMPOTENCY_PYFORMAT if pyformat else INSERT_IDEMPOTENCY_QMARK, tuple(idempotency)))
    p = "%s" if pyformat else "?"
    for row in signatures or ():  # (game_id, version, head, signed, fingerprint, signature)
        if pyformat:
            out.append((_LOCK_KEY, (row[4],)))
        out.append((_INSERT_SIGNATURE.format(p=p), (*row[:5], row[4], row[3], row[5])))
    if end is not None:  # (game_id, version, signed, fingerprint, signature, parents JSON): an imported file's end
        out.append((_INSERT_END.format(p=p), tuple(end)))
    if key is not None:  # (fingerprint, public_key, private_key, created, retired)
        out.append((_INSERT_KEY.format(p=p), tuple(key)))
    if retire_keys is not None:  # (retired time, the fingerprint kept signing)
        out.append((_RETIRE_KEYS.format(p=p), tuple(retire_keys)))
    for row in rotations or ():  # (old fp, new fp, time, old public, new public, old signature, new signature)
        out.append((_INSERT_ROTATION.format(p=p), (*row[:6], row[0], row[2], row[0], row[2], row[6])))
    for row in keys_moved or ():  # ("key-file", fingerprint): the private key moved out to the key file
        out.append((_MOVE_KEY.format(p=p), tuple(row)))
    for row in feed or ():  # the feed's new entries (FEED_COLUMNS), in order
        out.append((_INSERT_FEED.format(p=p), tuple(row)))
    if catalog is not None:  # (digest, game, name, catalog JSON text, created)
        out.append((_INSERT_CATALOG.format(p=p), tuple(catalog)))
    return out


def write_service_rows(c: Cursor, style: str = "qmark", **rows: Any) -> None:
    """Write the service rows passed to ``_insert_events`` with cursor ``c``
    (inside the events' transaction)."""
    for sql, params in service_statements(style=style, **rows):
        c.execute(sql, params)

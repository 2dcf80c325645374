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
"""

from __future__ import annotations

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
CREATE_STATEMENTS = [CREDENTIALS_TABLE, IDEMPOTENCY_TABLE]

_INSERT_CREDENTIAL = "INSERT INTO privateer_credentials (game_id, role, token_hash, created) VALUES ({p}, {p}, {p}, {p})"
_INSERT_IDEMPOTENCY = ("INSERT INTO privateer_idempotency (game_id, scope, idem_key, fingerprint, status, body) "
                       "VALUES ({p}, {p}, {p}, {p}, {p}, {p})")
_SELECT_ROLE = "SELECT role FROM privateer_credentials WHERE game_id = {p} AND token_hash = {p}"
_SELECT_ROLES = "SELECT role FROM privateer_credentials WHERE game_id = {p}"
_SELECT_IDEMPOTENCY = ("SELECT fingerprint, status, body FROM privateer_idempotency "
                       "WHERE game_id = {p} AND scope = {p} AND idem_key = {p}")

INSERT_CREDENTIAL_QMARK = _INSERT_CREDENTIAL.format(p="?")
INSERT_IDEMPOTENCY_QMARK = _INSERT_IDEMPOTENCY.format(p="?")
SELECT_ROLE_QMARK = _SELECT_ROLE.format(p="?")
SELECT_ROLES_QMARK = _SELECT_ROLES.format(p="?")
SELECT_IDEMPOTENCY_QMARK = _SELECT_IDEMPOTENCY.format(p="?")

INSERT_CREDENTIAL_PYFORMAT = _INSERT_CREDENTIAL.format(p="%s")
INSERT_IDEMPOTENCY_PYFORMAT = _INSERT_IDEMPOTENCY.format(p="%s")
SELECT_ROLE_PYFORMAT = _SELECT_ROLE.format(p="%s")
SELECT_ROLES_PYFORMAT = _SELECT_ROLES.format(p="%s")
SELECT_IDEMPOTENCY_PYFORMAT = _SELECT_IDEMPOTENCY.format(p="%s")


def write_service_rows(c, idempotency=None, credential=None, style: str = "qmark") -> None:
    """Write the service rows passed to ``_insert_events`` with cursor ``c``
    (inside the events' transaction)."""
    pyformat = style != "qmark"
    if credential is not None:
        c.execute(INSERT_CREDENTIAL_PYFORMAT if pyformat else INSERT_CREDENTIAL_QMARK, tuple(credential))
    if idempotency is not None:
        c.execute(INSERT_IDEMPOTENCY_PYFORMAT if pyformat else INSERT_IDEMPOTENCY_QMARK, tuple(idempotency))

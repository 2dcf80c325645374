"""Which database: ``--db PATH`` (or ``PRIVATEER_DB``), default ``./privateer.db``.

A path is an SQLite file; a ``postgresql://`` URL is a PostgreSQL database.
Returns the environment for the ``eventsourcing`` application.
"""

from __future__ import annotations

import os

from service.kernel.errors import BadInput

TYPE_CHECKING = False  # typing is not imported at run time: a direct read's start-up does without it
if TYPE_CHECKING:
    from typing import TypeAlias

    from .postgres import IndexedPostgresRecorder
    from .sqlite_recorder import IndexedSQLiteRecorder

    # the application recorder a store's environment names (``APPLICATION_RECORDER_TOPIC``)
    IndexedRecorder: TypeAlias = IndexedSQLiteRecorder | IndexedPostgresRecorder

DEFAULT_DB = "./privateer.db"


def resolve_db(db: str | None) -> str:
    return db or os.environ.get("PRIVATEER_DB") or DEFAULT_DB


def store_env(db: str) -> dict[str, str]:
    if db.startswith(("postgresql://", "postgres://")):
        try:
            from .postgres import postgres_env
        except ImportError as e:
            raise BadInput(f"PostgreSQL is not available in this build: {e}") from None
        return postgres_env(db)
    if not db or db.endswith("/"):
        raise BadInput(f"--db must name an SQLite file or a postgresql:// URL, not {db!r}")
    parent = os.path.dirname(os.path.abspath(db))
    if not os.path.isdir(parent):
        raise BadInput(f"cannot create the database {db!r}: folder {parent!r} does not exist")
    return {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": db,
        "CREATE_TABLE": "true",
        "SQLITE_LOCK_TIMEOUT": "30",
        "APPLICATION_RECORDER_TOPIC": "event_store.sqlite_recorder:IndexedSQLiteRecorder",
    }

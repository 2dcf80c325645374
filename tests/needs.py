"""What the suite needs from the machine, named in one place: the PostgreSQL server and Debian's
Chromium. Either missing is a test failure, never a skip, so CI cannot pass without them.

- PostgreSQL: ``$PRIVATEER_TEST_PG``, else ``postgresql://postgres@127.0.0.1:5432/test`` (trust
  auth). Every test that uses it takes its own schema of that database (``schema_url``) and drops it.
- Chromium: ``$PRIVATEER_TEST_CHROMIUM``, else ``chromium`` (or ``chromium-browser``) on the PATH;
  launched by path, never downloaded.

A local run on a machine without one of them opts out explicitly:
``PRIVATEER_TEST_WITHOUT=postgresql`` (or ``chromium``, or ``postgresql,chromium``) skips the tests
that need it, saying why. CI (``.ci/run``) never sets it.
"""

from __future__ import annotations

import os
import shutil
from typing import NoReturn

import psycopg
import pytest

PG = os.environ.get("PRIVATEER_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
CHROMIUM = os.environ.get("PRIVATEER_TEST_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
WITHOUT = "PRIVATEER_TEST_WITHOUT"


def missing(what: str, why: str) -> NoReturn:
    """Fail the test (skip it only when ``$PRIVATEER_TEST_WITHOUT`` names ``what``)."""
    opted_out = {w.strip() for w in os.environ.get(WITHOUT, "").split(",")}
    if what in opted_out:
        pytest.skip(f"{what} left out ({WITHOUT}): {why}")
    pytest.fail(f"{why} (the suite needs {what}; {WITHOUT}={what} skips these tests on a machine without it)",
                pytrace=False)


def postgresql() -> str:
    """The PostgreSQL URL, once the server answers there."""
    try:
        psycopg.connect(PG, connect_timeout=5).close()
    except psycopg.Error as e:
        missing("postgresql", f"PostgreSQL at {PG} is not reachable: {' '.join(str(e).split())}")
    return PG


def chromium() -> str:
    """The path of Chromium's executable."""
    if CHROMIUM is None:
        missing("chromium", "no chromium here (.ci/run installs Debian's package; set $PRIVATEER_TEST_CHROMIUM "
                            "to another path)")
    return CHROMIUM


def schema_url(schema: str) -> str:
    """The URL of a schema of the test database (the store creates it on first use)."""
    return f"{PG}?schema={schema}"


def drop_schema(schema: str) -> None:
    with psycopg.connect(PG, autocommit=True, connect_timeout=5) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')

"""Store tests run on BOTH backends: an SQLite file in a tmp dir, and the real
PostgreSQL server of tests/needs.py (``$PRIVATEER_TEST_PG``, else 127.0.0.1:5432,
trust auth, database ``test``, user ``postgres``). Every PostgreSQL test gets its
own schema (``pvt_<run>_<n>``), created on first use by the store itself and
dropped afterwards. PostgreSQL being down is a failure, never a skip."""

from __future__ import annotations

import itertools
import logging
import os
import subprocess
import sys
import uuid

import pytest

from ..needs import PG, drop_schema, schema_url

PG_BASE = PG  # the database the schemas are made in, as the tests here name it
RUN = uuid.uuid4().hex[:8]
_counter = itertools.count(1)


@pytest.fixture(scope="session")
def pg_available(postgresql):
    """PostgreSQL answers (tests/conftest.py: a failure when it does not)."""
    return True


def new_pg_url(request) -> str:
    schema = f"pvt_{RUN}_{next(_counter)}"
    request.addfinalizer(lambda: drop_schema(schema))
    return schema_url(schema)


class Stores:
    """Opens ``Privateer`` apps on one database and closes them at the end."""

    def __init__(self, url: str, backend: str):
        self.url = url
        self.backend = backend
        self.apps = []

    def app(self, **kw):
        from service.app import Privateer

        a = Privateer(self.url, **kw)
        self.apps.append(a)
        return a

    def close(self):
        for a in self.apps:
            try:
                a.close()
            except Exception:  # the other stores are closed all the same; this one's failure is said
                logging.getLogger(__name__).warning("closing a store failed", exc_info=True)

    # the real CLI, in a subprocess ------------------------------------------------
    def env(self, **extra) -> dict:
        bindir = os.path.dirname(sys.executable)
        env = dict(os.environ, PRIVATEER_DB=self.url, PATH=bindir + os.pathsep + os.environ.get("PATH", ""))
        env.update(extra)
        return env

    def cli(self, *args, check: int | None = 0, **extra_env) -> subprocess.CompletedProcess:
        p = subprocess.run([sys.executable, "-m", "tools", *map(str, args)], capture_output=True, text=True,
                           env=self.env(**extra_env), timeout=120)
        if check is not None:
            assert p.returncode == check, (args, p.returncode, p.stdout, p.stderr)
        return p


@pytest.fixture(params=["sqlite", "postgres"])
def store(request, tmp_path):
    if request.param == "postgres":
        request.getfixturevalue("pg_available")
        url = new_pg_url(request)
    else:
        url = str(tmp_path / "privateer.db")
    s = Stores(url, request.param)
    yield s
    s.close()


@pytest.fixture
def pg_store(request, pg_available):
    s = Stores(new_pg_url(request), "postgres")
    yield s
    s.close()


@pytest.fixture
def sqlite_store(tmp_path):
    s = Stores(str(tmp_path / "other.db"), "sqlite")
    yield s
    s.close()

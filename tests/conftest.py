import json
import os
import subprocess
import sys

import pytest


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "privateer.db")


class Cli:
    """Runs the real `tools` console script in a subprocess."""

    def __init__(self, db):
        self.db = db
        bindir = os.path.dirname(sys.executable)
        self.env = dict(os.environ, PRIVATEER_DB=db, PATH=bindir + os.pathsep + os.environ.get("PATH", ""))

    def run(self, *args, check=None):
        p = subprocess.run([sys.executable, "-m", "tools", *map(str, args)], capture_output=True,
                           text=True, env=self.env)
        if check is not None:
            assert p.returncode == check, (args, p.returncode, p.stdout, p.stderr)
        return p

    def ok(self, *args):
        return self.run(*args, check=0).stdout

    def json(self, *args):
        return json.loads(self.ok(*args, "--json"))


@pytest.fixture
def cli(db):
    return Cli(db)

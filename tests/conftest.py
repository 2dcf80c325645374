"""What every test shares: the store of a test (in its temporary directory), the real ``tools``
command, the PostgreSQL server and Chromium (tests/needs.py); and two rules for the whole run,
checked when it ends: no test is skipped (unless ``$PRIVATEER_TEST_WITHOUT`` leaves something
out), and no test writes a file into the checkout (every file goes to a test's temporary
directory). Under xdist (``-n``), tests run file by file, the longest given out first (``FIRST``)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from xdist.scheduler import LoadFileScheduling

from . import needs


@pytest.fixture(scope="session", autouse=True)
def _kept_files(tmp_path_factory):
    """What ``tools`` keeps between calls (the ``--help`` page, tools/help_page.py) and a
    PostgreSQL store's key file go to the run's temporary directory, for every command a test runs (they inherit the environment)."""
    os.environ["PRIVATEER_CACHE_DIR"] = str(tmp_path_factory.mktemp("tools-cache"))
    # a PostgreSQL store's key file, by default under $XDG_CONFIG_HOME/privateer (event_store/signing.py)
    os.environ["XDG_CONFIG_HOME"] = str(tmp_path_factory.mktemp("config"))


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


@pytest.fixture(scope="session")
def postgresql() -> str:
    """The test PostgreSQL server's URL (tests/needs.py): unreachable, the test fails."""
    return needs.postgresql()


@pytest.fixture(scope="session")
def chromium() -> str:
    """Chromium's path (tests/needs.py): missing, the test fails."""
    return needs.chromium()


ROOT = Path(__file__).resolve().parents[1]
# what tools keep in the checkout by design (git, the venv, caches, pytest-playwright's output)
KEPT = {".git", ".venv", ".pytest_cache", ".hypothesis", ".ruff_cache", ".mypy_cache", "__pycache__", "test-results"}
_FILES_BEFORE = pytest.StashKey[set[str]]()


def _checkout_files() -> set[str]:
    found = set()
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in KEPT and not d.endswith(".egg-info")]
        found.update(os.path.relpath(os.path.join(folder, f), ROOT) for f in files)
    return found


def _controller(session) -> bool:
    return not hasattr(session.config, "workerinput")  # not one of xdist's workers


def pytest_sessionstart(session):
    if _controller(session):
        session.config.stash[_FILES_BEFORE] = _checkout_files()


def pytest_sessionfinish(session, exitstatus):
    if not _controller(session) or _FILES_BEFORE not in session.config.stash:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    problems = []
    written = sorted(_checkout_files() - session.config.stash[_FILES_BEFORE])
    if written:
        problems.append(f"the tests wrote {len(written)} file(s) into the checkout instead of a temporary "
                        f"directory: {', '.join(written[:10])}")
    skipped = reporter.stats.get("skipped", []) if reporter is not None else []
    if skipped and not os.environ.get(needs.WITHOUT):
        problems.append(f"{len(skipped)} test(s) skipped: a skip fails the run here (see tests/needs.py for "
                        f"{needs.WITHOUT}); first: {skipped[0].nodeid}: {skipped[0].longrepr[-1]}")
    if problems and reporter is not None:
        reporter.write("\n")
        for problem in problems:
            reporter.write_line(problem, red=True, bold=True)
    if problems and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


# The longest tests, longest first: xdist's workers take them before the rest, so that no worker is
# left running one at the end while the other waits. A file runs whole on one worker, as every other
# file does (``--dist loadfile``: its fixtures are set up once); each case of a test named with its
# function runs on its own, on either worker.
FIRST = (
    "tests/http/test_schemathesis.py::test_openapi_conformance",
    "tests/http/test_hidden.py",
    "tests/http/browser/test_referee_page.py",
    "tests/cli/test_shell_game.py",
    "tests/evidence/test_independent_verifier.py::test_the_committed_vectors",
    "tests/evidence/test_independent_verifier.py::test_the_vectors_regenerated",
    "tests/evidence/test_independent_verifier.py",
    "tests/cli/test_corrections_in_step.py",
    "tests/store/test_multiprocess.py",
    "tests/cli/test_table_session.py",
    "tests/kernel/test_corrections_in_step.py::test_every_game_at_a_table_with_entries_taken_back_and_steps_undone_audits",
    "tests/test_golden.py::test_the_digests_are_as_committed",
)


class LongestFirst(LoadFileScheduling):
    """``--dist loadfile``, with the cases of the tests ``FIRST`` names apart, and ``FIRST`` first."""

    def _split_scope(self, nodeid: str) -> str:
        return nodeid if nodeid.split("[", 1)[0] in FIRST else super()._split_scope(nodeid)

    def _assign_work_unit(self, node) -> None:
        first = min(self.workqueue, key=_rank)
        if _rank(first) < len(FIRST):
            self.workqueue.move_to_end(first, last=False)  # the unit handed out next
        super()._assign_work_unit(node)


def _rank(scope: str) -> int:
    test = scope.split("[", 1)[0]
    return FIRST.index(test) if test in FIRST else len(FIRST)


def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") == "loadfile":
        return LongestFirst(config, log)
    return None

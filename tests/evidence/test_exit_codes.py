"""Every verifying command exits as spec/SPEC.md §12's table says: 0 when what it checks
holds, 1 naming the first failure (a violation, a refusal, a finding), 2 when it could
not check (bad input: a file, a key, usage; a service it cannot read), 5 for no such game."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

SPEC = Path(__file__).resolve().parents[2] / "spec"
VECTORS = SPEC / "vectors"


def independent(*args) -> int:
    return subprocess.run([sys.executable, str(SPEC / "verify.py"), *map(str, args)], capture_output=True,
                          text=True, cwd="/").returncode


def _garbage(tmp_path) -> Path:
    bad = tmp_path / "garbage.pgame"
    bad.write_bytes(b"\xc1 not a game file")
    return bad


def test_verify_exit_codes_tools_and_spec_verifier_alike(cli, tmp_path):
    key = VECTORS / "service.key"
    garbage, missing = _garbage(tmp_path), tmp_path / "missing.pgame"
    bad_key = tmp_path / "bad.key"
    bad_key.write_text("not a key\n")
    cases = [((VECTORS / "seeded.pgame", "--key", key), 0),
             ((VECTORS / "seeded.pgame",), 0),  # its own keys: consistent, said so
             ((VECTORS / "holder-rewrite.pgame", "--key", key), 1),
             ((VECTORS / "truncated-finished.pgame", "--key", VECTORS / "service-end.key"), 1),
             ((garbage, "--key", key), 2),
             ((missing, "--key", key), 2),
             ((VECTORS / "seeded.pgame", "--key", bad_key), 2)]
    for args, code in cases:
        assert cli.run("verify", *args).returncode == code, args
        assert independent(*args) == code, args


def test_import_exit_codes(cli, tmp_path):
    db = str(tmp_path / "store.db")
    named, key = VECTORS / "named.pgame", VECTORS / "service-43.key"
    assert cli.run("import", named, "--key", key, "--db", db).returncode == 0
    assert cli.run("import", named, "--key", key, "--db", db).returncode == 2  # already in the store
    assert cli.run("import", VECTORS / "holder-rewrite.pgame", "--key", VECTORS / "service.key",
                   "--db", db).returncode == 1
    assert cli.run("import", VECTORS / "end-missing.pgame", "--key", VECTORS / "service-end.key",
                   "--db", db).returncode == 1
    assert cli.run("import", _garbage(tmp_path), "--db", db).returncode == 2
    assert cli.run("import", named, "--key", "zz", "--db", str(tmp_path / "other.db")).returncode == 2


def test_audit_exit_codes(cli, tmp_path):
    db = str(tmp_path / "store.db")
    gid = cli.ok("import", VECTORS / "named.pgame", "--key", VECTORS / "service-43.key", "--db", db).strip()
    assert cli.run("audit", gid, "--db", db).returncode == 0
    assert cli.run("audit", "--all", "--db", db).returncode == 0
    assert cli.run("audit", "--db", db).returncode == 2
    assert cli.run("audit", "0" * 32, "--db", db).returncode == 5
    # the imported game's kept end broken: a violation
    copy = tmp_path / "finished.db"
    gid = cli.ok("import", VECTORS / "finished.pgame", "--key", VECTORS / "service-end.key",
                 "--db", str(copy)).strip()
    import sqlite3

    conn = sqlite3.connect(copy)
    conn.execute("UPDATE privateer_ends SET signature = ?", ("00" * 64,))
    conn.commit()
    conn.close()
    assert cli.run("audit", gid, "--db", str(copy)).returncode == 1


def test_witness_exit_codes(cli, tmp_path):
    state = str(tmp_path / "witness.db")
    export = tmp_path / "seeded.pgame"
    shutil.copy(VECTORS / "seeded.pgame", export)
    assert cli.run("witness", "check", export, "--state", state).returncode == 0  # it saw nothing of it
    assert cli.run("witness", "check", _garbage(tmp_path), "--state", state).returncode == 2
    # a service it cannot reach: it could not check, which is no finding
    assert cli.run("witness", "follow", "http://127.0.0.1:9", "--state", state).returncode == 2

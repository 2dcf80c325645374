"""Issue 43: trust comes only from what the verifier is given. `tools verify` re-derives
chance as spec/verify.py and `tools import` do; a file's own keys are its claim, never
the importing service's; a record's sign lines are checked on import."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from event_store.codec import pack, unpack

SPEC = Path(__file__).resolve().parents[2] / "spec"
VECTORS = SPEC / "vectors"
KEY = VECTORS / "service.key"


def independent(path, key=None) -> dict:
    args = [sys.executable, str(SPEC / "verify.py"), str(path), "--json"] + (["--key", str(key)] if key else [])
    p = subprocess.run(args, capture_output=True, text=True, cwd="/")
    assert p.returncode in (0, 1), p.stderr
    return json.loads(p.stdout)


def test_tools_verify_re_derives_chance_operator_chance_fails_at_22(cli):
    p = cli.run("verify", VECTORS / "operator-chance.pgame", "--key", KEY, "--json")
    assert p.returncode == 1, p.stdout
    out = json.loads(p.stdout)
    assert out["first_bad"]["version"] == 22 and "stream" in out["first_bad"]["reason"]


def test_a_fork_whose_parents_seed_was_replaced_fails_tools_verify(cli, tmp_path):
    doc = unpack((VECTORS / "fork.pgame").read_bytes())
    assert doc["parents"] and doc["parents"][0][1] is not None
    doc["parents"] = [[v, b"\x33" * 32] for v, _ in doc["parents"]]
    bad = tmp_path / "fork-other-seed.pgame"
    bad.write_bytes(pack(doc))
    p = cli.run("verify", bad, "--key", KEY, "--json")
    assert p.returncode == 1, p.stdout
    ours = json.loads(p.stdout)["first_bad"]
    theirs = independent(bad, KEY)
    assert not theirs["ok"] and theirs["first_bad"]["version"] == ours["version"]
    assert ours["version"] <= doc["parents"][0][0]

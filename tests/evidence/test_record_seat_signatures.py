"""Issue 43: a text record carries the seats' own keys and signatures (spec/SPEC.md §6a, §11,
format 5), so a seat-signed game's record is as strong as its export: `tools verify`,
`tools import` and spec/verify.py refuse a decision the seat did not sign."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SPEC = Path(__file__).resolve().parents[2] / "spec"
VECTORS = SPEC / "vectors"
KEY = VECTORS / "service-seats.key"


def independent(path) -> dict:
    p = subprocess.run([sys.executable, str(SPEC / "verify.py"), str(path), "--json", "--key", str(KEY)],
                       capture_output=True, text=True, cwd="/")
    assert p.returncode in (0, 1), p.stderr
    return json.loads(p.stdout)


def test_the_record_carries_each_seat_signature_of_the_export():
    from event_store.codec import unpack

    doc = unpack((VECTORS / "seat-signed.pgame").read_bytes())
    signed = [e[5] for e in doc["events"] if e[2] == "Decided" and "signature" in e[5]]
    lines = (VECTORS / "seat-signed.record").read_text().splitlines()
    assert [ln.split()[3] for ln in lines if ln.startswith("signed ")] == [d["signature"] for d in signed]
    assert [ln for ln in lines if ln.startswith("key ")] == [
        f"key {e[5]['seat']} {e[5]['key']}" for e in doc["events"] if e[2] == "SeatKeyRegistered"]


def test_a_signed_line_taken_out_or_moved_fails(cli, tmp_path):
    text = (VECTORS / "seat-signed.record").read_text()
    lines = text.splitlines(keepends=True)
    at = next(i for i, ln in enumerate(lines) if ln.startswith("signed "))
    cases = {"dropped": lines[:at] + lines[at + 1:],
             "another's": lines[:at] + [lines[at].replace("signed 1 ", "signed 2 ", 1)] + lines[at + 1:],
             "version": lines[:at] + [lines[at].replace(lines[at].split()[2], str(int(lines[at].split()[2]) + 1), 1)]
             + lines[at + 1:]}
    for name, changed in cases.items():
        path = tmp_path / f"{name}.record"
        path.write_text("".join(changed))
        ours = cli.run("verify", path, "--key", KEY, "--json")
        theirs = independent(path)
        assert ours.returncode == 1 and not theirs["ok"], name
        # (the sign lines fail first: the holder changed signed text; the operator, who re-signs them,
        # is caught by the seat's signature: vector seat-forged.record)
        assert json.loads(ours.stdout)["first_bad"]["version"] == theirs["first_bad"]["version"], name


def test_the_operators_record_forgery_is_refused_on_import(cli, tmp_path):
    p = cli.run("import", VECTORS / "seat-forged.record", "--key", KEY, "--db", str(tmp_path / "x.db"))
    assert p.returncode == 1 and "not signed by seat 1" in p.stderr, p.stderr
    out = json.loads(cli.run("verify", VECTORS / "seat-forged.record", "--key", KEY, "--json").stdout)
    assert not out["ok"] and "not signed by seat 1" in out["first_bad"]["reason"]
    assert "not signed by seat 1" in independent(VECTORS / "seat-forged.record")["first_bad"]["reason"]

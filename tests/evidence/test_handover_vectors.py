"""The test vectors of a seat's key handed over to a new device (spec/SPEC.md §6a;
spec/make_vectors.py ``handover_vectors``): the game whose seat 1 moved to a new key with its
old key's signature of it verifies; the operator's forgery (seat 1 moved to a key of the
operator's, the "handover" signed by that key, the later decisions signed with it, every head
re-signed) is named at its ``SeatKeyRegistered``, "without a handover signed by its old key",
by spec/verify.py and `tools verify` alike, and refused by `tools import --key`. The committed
vectors, and the same made again."""

from __future__ import annotations

import json
from pathlib import Path

from event_store.codec import unpack
from event_store.signing import decision_message, verify
from spec import make_vectors

from .test_independent_verifier import independent

VECTORS = Path(__file__).resolve().parents[2] / "spec" / "vectors"
FILES = ("seat-handover.pgame", "seat-handover-forged.pgame")


def _agree(folder: Path, manifest: list[dict], cli, tmp_path) -> None:
    entries = {e["file"]: e for e in manifest if e["file"] in FILES}
    assert set(entries) == set(FILES)
    assert entries["seat-handover.pgame"]["ok"] and not entries["seat-handover-forged.pgame"]["ok"]
    for name, e in entries.items():
        path, key = folder / name, folder / e["key"]
        spec = independent(path, key)
        ours = json.loads(cli.run("verify", str(path), "--key", str(key), "--json").stdout)
        assert spec["ok"] == ours["ok"] == e["ok"], (e, spec, ours)
        if not e["ok"]:
            assert spec["first_bad"]["version"] == ours["first_bad"]["version"] == e["version"], (e, spec, ours)
            assert e["reason"] in spec["first_bad"]["reason"] and e["reason"] in ours["first_bad"]["reason"]
        else:
            assert any("decisions signed by their seats" in c for c in spec["checked"]), spec
        p = cli.run("import", str(path), "--key", str(key), "--db", str(tmp_path / f"{name}.db"))
        assert p.returncode == (0 if e["ok"] else 1), (e, p.stderr)
    _only_the_handover_fails(folder / "seat-handover-forged.pgame", entries["seat-handover-forged.pgame"]["version"])


def _only_the_handover_fails(path: Path, at: int) -> None:
    """The forgery holds together but for its handover: seat 1's decisions after it check with the
    key it names (the operator's), and its handover is a signature by that key, not the old one's."""
    doc = unpack(path.read_bytes())
    rows = make_vectors.rows_of(doc)
    gid = doc["game_id"].bytes
    registered = rows[at - 1]
    assert registered["type"] == "SeatKeyRegistered" and registered["data"]["handover"]
    key = bytes.fromhex(registered["data"]["key"])
    later = [r for r in rows[at:] if r["type"] == "Decided" and r["data"]["seat"] == 1]
    assert later
    for r in later:
        seen = sum(1 for x in rows[:r["version"] - 1] if x["visible_to"] == "all"
                   or (isinstance(x["visible_to"], list) and 1 in x["visible_to"]))
        assert verify(key, bytes.fromhex(r["data"]["signature"]), decision_message(gid, 1, seen, r["data"]["decision"]))


def test_the_committed_handover_vectors(cli, tmp_path) -> None:
    _agree(VECTORS, json.loads((VECTORS / "manifest.json").read_text()), cli, tmp_path)


def test_the_handover_vectors_made_again(cli, tmp_path) -> None:
    out = tmp_path / "vectors"
    out.mkdir()
    manifest: list[dict] = []

    def add(name, expect, receipts=None, note="", key="service.key"):
        manifest.append(make_vectors.entry_of(name, expect, note, key))

    make_vectors.handover_vectors(tmp_path, out, add)
    _agree(out, manifest, cli, tmp_path)

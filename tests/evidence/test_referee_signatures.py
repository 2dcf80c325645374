"""At a table the referee signs what it enters (spec/SPEC.md §9a): its key registered as a
public ``RefereeKeyRegistered``, every entry after it (a seat's decision entered at the
table, the referee's own step, a correction) carries its signature over the version and
head it entered at, the service refuses one without it, and `tools verify`, `tools import`
and spec/verify.py name the operator's forgery "not signed by the referee"."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from bench.golden import entered_at_random
from event_store.signing import SeatKeyFile, sign
from service.app import Privateer
from service.records.audit import audit_game
from service.kernel.errors import BadInput, IllegalDecision
from service.seat_client import referee_signer
from service.seat_keys import NotSigned
from service.views import log_entries

from .forgery import operator_rewrite

VERIFY = Path(__file__).resolve().parents[2] / "spec" / "verify.py"


def _outcome(m, rng: random.Random):
    return entered_at_random(m.kernel_state["awaiting"], rng)


def play(app: Privateer, gid, decisions: int, rng: random.Random, referee=None) -> list[int]:
    """``decisions`` decisions entered at the table (each outcome awaited entered as it comes),
    signed by ``referee``; the versions of their ``Decided`` events."""
    entered = []
    while len(entered) < decisions:
        m = app.load(gid).machine
        if m.finished:
            break
        if m.awaiting_chance() is not None:
            app.enter_chance(gid, _outcome(m, rng))
            continue
        seat = m.to_act()[0]
        app.act(gid, seat, rng.choice(m.legal(seat)), referee=referee)
        entered.append(next(e.originator_version for e in reversed(app.stored_events(gid)) if e.type == "Decided"))
    return entered


@pytest.fixture
def refereed(tmp_path):
    """A table game whose referee registered its key after the first decisions, then entered more."""
    db = str(tmp_path / "store.db")
    key = str(tmp_path / "referee.key")
    SeatKeyFile(key).make()
    app = Privateer(db)
    gid = app.create("letter-of-marque", 2, table=True)
    play(app, gid, 2, random.Random(1))
    signer = referee_signer(app, gid, key)
    signed = play(app, gid, 8, random.Random(2), referee=signer)
    return db, app, gid, key, signer, signed


def _spec_verify(path: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(VERIFY), path, *args, "--json"], capture_output=True, text=True)


def test_after_its_key_every_entry_of_the_referee_is_signed_or_refused(refereed) -> None:
    db, app, gid, key, signer, signed = refereed
    stored = app.stored_events(gid)
    registered = [e for e in stored if e.type == "RefereeKeyRegistered"]
    assert len(registered) == 1 and registered[0].visible_to == "all"
    assert set(registered[0].data) == {"key"} and registered[0].data["key"] == SeatKeyFile(key).read()[1].hex()
    after = [e for e in stored if e.type == "Decided" and e.originator_version > registered[0].originator_version]
    assert after and all(len(e.data["referee_signature"]) == 128 for e in after)
    assert audit_game(app, gid).ok, audit_game(app, gid).first_bad
    # unsigned, or signed by another key: refused, nothing appended
    m = app.load(gid).machine
    while m.awaiting_chance() is not None:
        app.enter_chance(gid, _outcome(m, random.Random(3)))
        m = app.load(gid).machine
    seat = m.to_act()[0]
    d = m.legal(seat)[0]
    version = app.load(gid).version
    stranger = str(Path(db).parent / "stranger.key")
    SeatKeyFile(stranger).make()
    other = SeatKeyFile(stranger).read()[0]
    for attempt in (None, lambda message: sign(other, message).hex(), lambda message: "ab" * 64):
        with pytest.raises(NotSigned):
            app.act(gid, seat, d, referee=attempt)
    with pytest.raises(NotSigned, match="not signed by the referee"):
        app.referee(gid, {"referee": "note", "text": "a note the operator slips in"})
    with pytest.raises(NotSigned):
        app.correct(gid, signed[-1] - 1, "the operator takes a step back")
    assert app.load(gid).version == version
    # signed: taken
    app.act(gid, seat, d, referee=signer)
    app.correct(gid, signed[-1] - 1, "taken back at the table",
                referee=signer)
    assert audit_game(app, gid).ok, audit_game(app, gid).first_bad


def test_one_key_for_the_referee_of_a_table_game_only(refereed, tmp_path) -> None:
    db, app, gid, key, signer, signed = refereed
    public = SeatKeyFile(key).read()[1].hex()
    with pytest.raises(IllegalDecision, match="registered its key already"):
        app.register_referee_key(gid, public)
    seeded = app.create("letter-of-marque", 2, seed=b"\x01" * 32)
    with pytest.raises(BadInput, match="table-mode"):
        app.register_referee_key(seeded, public)


def test_a_seat_reads_no_referee_signature(refereed) -> None:
    """The signature covers the store's version and head: with a head it holds (a receipt's) a
    seat could test versions against it. It is the referee's and the export's alone."""
    db, app, gid, key, signer, signed = refereed
    m = app.load(gid).machine
    stored = app.stored_events(gid)
    for seat in (0, 1, 2):
        for entry in log_entries(m.rules, stored, seat):
            assert "referee_signature" not in entry["data"], (seat, entry)
    referee = log_entries(m.rules, stored, None)
    assert sum("referee_signature" in e["data"] for e in referee) == len(signed)


def test_the_operators_forgery_of_an_entry_is_named(refereed, cli, tmp_path) -> None:
    db, app, gid, key, signer, signed = refereed
    good = str(tmp_path / "good.pgame")
    cli.ok("export", gid.hex, "-o", good, "--db", db)
    public = json.loads(cli.ok("key", "--json", "--db", db))["public_key"]
    said = cli.ok("verify", good, "--key", public)
    assert f"{len(signed)} entries signed by the referee" in said, said
    spec = _spec_verify(good, "--key", public)
    assert spec.returncode == 0, spec.stdout + spec.stderr
    assert f"{len(signed)} entries signed by the referee" in spec.stdout
    # the operator writes another decision for the seat and re-signs every head with the service's key
    target = signed[2]
    before = app.load(gid, version=target - 1).machine
    row = app.stored_events(gid)[target - 1].data
    instead = next(d for d in before.legal(row["seat"]) if d != row["decision"])
    app.close()
    operator_rewrite(db, gid, target, lambda data: data.__setitem__("decision", instead))
    forged = str(tmp_path / "forged.pgame")
    cli.ok("export", gid.hex, "-o", forged, "--db", db)
    p = cli.run("verify", forged, "--key", public, "--json")
    assert p.returncode == 1, p.stdout + p.stderr
    bad = json.loads(p.stdout)["first_bad"]
    assert bad["version"] == target and "not signed by the referee" in bad["reason"], bad
    spec = _spec_verify(forged, "--key", public)
    assert spec.returncode == 1, spec.stdout + spec.stderr
    first = json.loads(spec.stdout)["first_bad"]
    assert first["version"] == target and "not signed by the referee" in first["reason"], first
    other = str(tmp_path / "other.db")
    p = cli.run("import", forged, "--db", other, "--key", public)
    assert p.returncode == 1 and "not signed by the referee" in p.stdout + p.stderr, p.stdout + p.stderr


def test_an_outcome_changed_by_the_operator_fails_the_next_entry(refereed, cli, tmp_path) -> None:
    """An outcome is entered without a signature of its own: the referee's next entry signs the
    head after it, which binds it."""
    db, app, gid, key, signer, signed = refereed
    stored = app.stored_events(gid)
    chance = next(e for e in stored if e.type == "CardDrawn" and signed[0] < e.originator_version < signed[-1])
    other = next(e.data["card"] for e in stored if e.type == "CardDrawn" and e.data["card"] != chance.data["card"])
    following = next(v for v in signed if v > chance.originator_version)
    public = json.loads(cli.ok("key", "--json", "--db", db))["public_key"]
    app.close()
    operator_rewrite(db, gid, chance.originator_version, lambda data: data.__setitem__("card", other))
    forged = str(tmp_path / "forged.pgame")
    cli.ok("export", gid.hex, "-o", forged, "--db", db)
    p = cli.run("verify", forged, "--key", public, "--json")
    bad = json.loads(p.stdout)["first_bad"]
    assert p.returncode == 1 and "not signed by the referee" in bad["reason"], bad
    assert chance.originator_version < bad["version"] <= following, bad


def test_tools_table_with_the_referee_key(cli, db, tmp_path) -> None:
    key = str(tmp_path / "referee.key")
    cli.ok("seat-key", key)
    app = Privateer(db)
    gid = app.create("letter-of-marque", 2, table=True)
    m = app.load(gid).machine
    rng = random.Random(5)
    while m.awaiting_chance() is not None:
        app.enter_chance(gid, _outcome(m, rng))
        m = app.load(gid).machine
    app.close()
    p = subprocess.run([sys.executable, "-m", "tools", "table", gid.hex, "--referee-key", key, "--quiet"],
                       input="1\n", capture_output=True, text=True, env=cli.env)
    assert p.returncode == 0, p.stdout + p.stderr
    app = Privateer(db)
    stored = app.stored_events(gid)
    assert [e.type for e in stored].count("RefereeKeyRegistered") == 1
    last = [e for e in stored if e.type == "Decided"][-1]
    assert len(last.data["referee_signature"]) == 128
    app.close()
    # without the key the table session is refused its entries now
    p = subprocess.run([sys.executable, "-m", "tools", "table", gid.hex, "--quiet"], input="1\n",
                       capture_output=True, text=True, env=cli.env)
    assert p.returncode != 0 and "referee" in p.stdout + p.stderr, p.stdout + p.stderr

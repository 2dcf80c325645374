"""A game from a stated position through the store, the command line and HTTP:
replayed, audited, recorded and imported from there; what it hides stays hidden in a
seat's log, view and version."""

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from service.app import Privateer
from service.records.audit import AuditReport, Envelope, audit_game, rerun
from service.records.history import export_game
from service.records.text_import import import_record
from spec import verify

from .test_record import history, record_of

POSITIONS = Path(__file__).resolve().parents[2] / "docs" / "positions"
BATTLE = POSITIONS / "merchants-and-marauders-battle.json"
GAME = "merchants-and-marauders"
VERIFIER = Path(verify.__file__)


def random_play(app, gid, rng, steps):
    for _ in range(steps):
        m = app.load(gid).machine
        if m.finished:
            return
        awaited = m.awaiting_chance()
        if awaited is not None:
            if awaited["kind"] == "dice":
                outcome = [rng.randint(1, awaited["sides"]) for _ in range(awaited["n"])]
            elif awaited["kind"] == "card":
                outcome = rng.choice(awaited["choices"])
            elif awaited["kind"] == "pick":
                outcome = rng.choice(awaited["options"])
            else:
                outcome = list(m.kernel_state["awaiting"]["cards"])
            app.enter_chance(gid, outcome)
            continue
        seat = m.to_act()[0]
        app.act(gid, seat, rng.choice(m.legal(seat)))


def test_a_seeded_game_from_a_position_replays_audits_records_and_imports(tmp_path):
    app = Privateer(str(tmp_path / "s.db"))
    position = json.loads(BATTLE.read_text())
    gid = app.create(GAME, 2, options={"glory": "3"}, position=position)
    created = app.stored_events(gid)[0].data
    assert created["position"]["to_play"] == 1 and "G18" not in json.dumps(created["position"])
    random_play(app, gid, random.Random(7), 3000)
    assert app.load(gid).machine.finished
    assert audit_game(app, gid).ok
    text = record_of(app, gid)
    assert "\nsetup\nposition G18\nposition G17\n" in text    # the hidden part the position gave the setup
    again = import_record(app, text)
    assert history(app, again) == history(app, gid) and audit_game(app, again).ok


def test_a_table_game_from_a_position_records_and_imports(tmp_path):
    app = Privateer(str(tmp_path / "t.db"))
    gid = app.create(GAME, 2, table=True, position=json.loads(BATTLE.read_text()))
    random_play(app, gid, random.Random(3), 120)
    assert audit_game(app, gid).ok
    again = import_record(app, record_of(app, gid))
    assert history(app, again) == history(app, gid) and audit_game(app, again).ok


def test_the_audit_refuses_a_seeded_outcome_passed_off_as_stated(tmp_path):
    """A seeded game's chance outside the stream is a stated position's, in its setup, or
    nothing: a die roll recorded without its counter, or marked stated, fails the re-run
    (the chain is not asked here: the operator who rewrites a log re-hashes it)."""
    app = Privateer(str(tmp_path / "f.db"))
    gid = app.create(GAME, 2, options={"glory": "3"}, position=json.loads(BATTLE.read_text()))
    random_play(app, gid, random.Random(7), 40)

    def rerun_with(change):
        envs = [Envelope(app.mapper.to_domain_event(s)) for s in app.recorder.select_events(gid)]
        change(envs)
        report = AuditReport(game_id=gid.hex)
        rerun(envs, report)
        return report

    assert rerun_with(lambda envs: None).ok
    last = lambda envs: max(i for i, e in enumerate(envs) if e.type == "DiceRolled")

    def unstream(envs):
        envs[last(envs)].data = dict(envs[last(envs)].data, counter=None, draws=0)

    def mark(envs):
        envs[last(envs)].data = dict(envs[last(envs)].data, stated=True)

    report = rerun_with(unstream)
    assert not report.ok and "without its place in the seed's stream" in report.first_bad["reason"]
    report = rerun_with(mark)
    assert not report.ok and "a stated position's outcome where the rules ask for chance" in report.first_bad["reason"]


def test_the_command_line_starts_a_table_game_from_a_position_file(cli):
    gid = cli.ok("new", GAME, "--seats", "2", "--table", "--position", BATTLE).strip()
    status = cli.json("status", gid)
    assert status["awaiting_chance"]["deck"] == "demand_tiles"     # the board, as at any set-up
    log2 = cli.ok("log", gid, "--seat", "2")
    assert "starts from a stated position" in log2 and "G18" not in log2 and "Fast Learner" not in log2
    assert "Fast Learner" in cli.ok("log", gid, "--seat", "1")   # (G18, named as printed)
    bad = BATTLE.parent / "bad.json"
    p = cli.run("new", GAME, "--seats", "3", "--position", BATTLE, check=2)
    assert "the position describes 2 players" in p.stderr and not bad.exists()


def test_the_independent_verifier_passes_a_positioned_export_and_places_stated_outcomes(tmp_path):
    """spec/verify.py (written from spec/SPEC.md, §5.5) passes the export of a finished
    seeded game from a position, and refuses a stated mark or a missing counter elsewhere."""
    app = Privateer(str(tmp_path / "v.db"))
    gid = app.create(GAME, 2, options={"glory": "3"}, position=json.loads(BATTLE.read_text()))
    random_play(app, gid, random.Random(7), 3000)
    f = tmp_path / "g.pgame"
    export_game(app, gid, str(f))
    key = tmp_path / "key.hex"
    key.write_text(app.signer.public_key.hex())
    p = subprocess.run([sys.executable, str(VERIFIER), str(f), "--key", str(key), "--json"],
                       capture_output=True, text=True, cwd="/")
    assert p.returncode == 0 and json.loads(p.stdout)["ok"], p.stdout + p.stderr
    rows = verify.read_export(f.read_bytes())["events"]
    verify.check_stated(rows)
    roll = next(r for r in reversed(rows) if r["type"] == "DiceRolled")
    for change in ({"stated": True}, {"counter": None, "draws": 0}):
        forged = [dict(r, data=dict(r["data"], **change)) if r is roll else r for r in rows]
        with pytest.raises(verify.Failure, match=f"event {roll['version']} "):
            verify.check_stated(forged)
    created = rows[0]
    unpositioned = [dict(created, data={k: v for k, v in created["data"].items() if k != "position"})] + rows[1:]
    with pytest.raises(verify.Failure, match="marked stated outside the setup of a game from a stated position"):
        verify.check_stated(unpositioned)

"""`--referee-key FILE` on every command through which a table's referee enters (spec/SPEC.md §9a):
`tools act` (a seat's decision entered for it), `tools referee` (a penalty or a note) and `tools
correct` (whole steps, or outcomes of the current step), as on `tools table`: one signing
(tools/answers.py ``referee_signing``). The first command given the key registers it; from then on
each of these commands without it is refused (exit 3, nothing appended), and with another key file
too; the export verifies with every entry counted."""

from __future__ import annotations

import json
import random
from uuid import UUID

from bench.golden import entered_at_random
from event_store.signing import SeatKeyFile
from service.app import Privateer


def _machine(db: str, gid: UUID):
    app = Privateer(db)
    try:
        return app.load(gid).machine, len(app.stored_events(gid))
    finally:
        app.close()


def _chance_entered(db: str, gid: UUID, rng: random.Random) -> None:
    """Every outcome the game awaits now, entered (outcomes carry no signature of their own)."""
    app = Privateer(db)
    try:
        while (m := app.load(gid).machine).kernel_state["awaiting"] is not None:
            app.enter_chance(gid, entered_at_random(m.kernel_state["awaiting"], rng))
    finally:
        app.close()


def _refused_unsigned(cli, *args: str) -> None:
    """The command as given, without the referee's key and with another key: exit 3, nothing appended."""
    gid = UUID(args[1])
    before = _machine(cli.db, gid)[1]
    for extra in ((), ("--referee-key", cli.other_key)):
        p = cli.run(*args, *extra)
        assert p.returncode == 3 and "referee" in p.stderr, (args, extra, p.returncode, p.stdout, p.stderr)
    assert _machine(cli.db, gid)[1] == before


def test_each_command_a_referee_enters_with_signs_with_its_key(cli, tmp_path) -> None:
    key, other = str(tmp_path / "referee.key"), str(tmp_path / "other.key")
    cli.ok("seat-key", key)
    cli.ok("seat-key", other)
    cli.other_key = other
    gid = UUID(cli.ok("new", "letter-of-marque", "--seats", "2", "--table").strip())
    rng = random.Random(7)
    _chance_entered(cli.db, gid, rng)

    # tools act: the first entry given the key registers it, then signs
    m, _ = _machine(cli.db, gid)
    cli.ok("act", gid.hex, "1", "--seat", str(m.to_act()[0]), "--referee-key", key)
    m, _ = _machine(cli.db, gid)
    assert m.kernel_state["referee_key"] == SeatKeyFile(key).read()[1].hex()
    for _ in range(4):
        _chance_entered(cli.db, gid, rng)
        m, _ = _machine(cli.db, gid)
        _refused_unsigned(cli, "act", gid.hex, "1", "--seat", str(m.to_act()[0]))
        cli.ok("act", gid.hex, "1", "--seat", str(m.to_act()[0]), "--referee-key", key)
    _chance_entered(cli.db, gid, rng)

    # tools referee: a note on the record
    note = json.dumps({"referee": "note", "text": "seat 2 asked to see the boarding rules"})
    _refused_unsigned(cli, "referee", gid.hex, note)
    cli.ok("referee", gid.hex, note, "--referee-key", key)

    # tools correct: the last step undone, then (a step awaiting its outcome) the outcome taken back
    app = Privateer(cli.db)
    try:
        undo_to = next(e.originator_version - 1 for e in reversed(app.stored_events(gid))
                       if e.type == "Decided" and e.data["seat"] != 0)
    finally:
        app.close()
    _refused_unsigned(cli, "correct", gid.hex, "--to-version", str(undo_to), "--reason", "a wrong button")
    cli.ok("correct", gid.hex, "--to-version", str(undo_to), "--reason", "a wrong button", "--referee-key", key)
    retracted = False
    for _ in range(20):
        _chance_entered(cli.db, gid, rng)
        if cli.json("correct", gid.hex, "--list"):
            _refused_unsigned(cli, "correct", gid.hex, "--outcomes", "1", "--reason", "the die misread")
            cli.ok("correct", gid.hex, "--outcomes", "1", "--reason", "the die misread", "--referee-key", key)
            retracted = True
            break
        m, _ = _machine(cli.db, gid)
        cli.ok("act", gid.hex, "1", "--seat", str(m.to_act()[0]), "--referee-key", key)
    assert retracted

    # every entry after the key carries the referee's signature; the export verifies with each counted
    app = Privateer(cli.db)
    try:
        stored = app.stored_events(gid)
    finally:
        app.close()
    at = next(e.originator_version for e in stored if e.type == "RefereeKeyRegistered")
    entries = [e for e in stored if e.type == "Decided" and e.originator_version > at]
    said = {(e.data["decision"] or {}).get("referee") for e in entries}
    assert {None, "note", "correct"} <= said, said
    assert all(len(e.data.get("referee_signature") or "") == 128 for e in entries)
    out = str(tmp_path / "game.pgame")
    cli.ok("export", gid.hex, "-o", out)
    service_key = cli.json("key")["public_key"]
    verified = cli.ok("verify", out, "--key", service_key)
    assert f"{len(entries)} entries signed by the referee" in verified, verified

"""Direct reads (event_store/reads.py, service/replay.py): `tools status` and
`tools replay` on SQLite answer from the tables without the application, and
give exactly what the application's fold gives; where they cannot, they say
so (None) and the application answers."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from service.app import Privateer
from service.replay import direct_fold
from service.views import board, status

from .helpers import play, state_bytes

FIXTURE = Path(__file__).parent.parent / "fixtures" / "chain_v1.db"

# `tools ARGV` in a fresh interpreter: which of the watched packages (argv[1], JSON) it
# imported, then its output; a non-zero exit is written to stderr
_TOOLS = ("import sys, json, contextlib, io\n"
          "import tools.cli\n"
          "from tools.cli import main\n"
          "def _end():\n"   # a quick answer ends the process at once (tools/cli.py): here, to be looked at after
          "    raise SystemExit(0)\n"
          "tools.cli._answered_end = _end\n"
          "watched = set(json.loads(sys.argv[1]))\n"
          "sys.argv = ['tools'] + sys.argv[2:]\n"
          "out = io.StringIO()\n"
          "with contextlib.redirect_stdout(out):\n"
          "    try:\n"
          "        main()\n"
          "    except SystemExit as e:\n"
          "        if e.code:\n"
          "            print('exit', e.code, file=sys.stderr)\n"
          "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules} & watched)))\n"
          "print(out.getvalue())\n")


def _tools(watched: set, *argv) -> tuple[set, str, str]:
    """``(the watched packages imported, the output, stderr)`` of ``tools *argv``."""
    p = subprocess.run([sys.executable, "-c", _TOOLS, json.dumps(sorted(watched)), *argv], capture_output=True,
                       text=True, check=True)
    first, rest = p.stdout.split("\n", 1)
    return set(json.loads(first)), rest, p.stderr


def test_direct_fold_equals_the_application_fold_at_every_turn(tmp_path):
    db = str(tmp_path / "d.db")
    app = Privateer(db, snapshot_interval=25)
    [gid] = play(app, game="loot", seats=3, seed="direct")
    top = app.fold(gid)[0].turn()
    points = [{"to_turn": t} for t in range(0, top + 2)] + [{"to_event": v} for v in (1, 2, 24, 25, 26, 99)] + [{}]
    for kw in points:
        m, v, h = app.fold(gid, **kw)
        g, dm, dv, dh = direct_fold(db, gid.hex[:8], **kw)
        assert (g, dv, dh) == (gid, v, h), kw
        assert state_bytes(dm) == state_bytes(m), kw
        for seat in (None, 1, 2):
            assert board(gid, dm, dv, seat) == board(gid, m, v, seat)


def test_damaged_snapshots_are_stepped_over_as_the_application_does(tmp_path):
    """A replay to a turn probes each snapshot's max_turn without decoding the
    snapshot; a snapshot whose bytes are cut short serves neither the probe nor
    the fold, and the answer is still the application's."""
    import sqlite3

    db = str(tmp_path / "d.db")
    app = Privateer(db, snapshot_interval=20)
    [gid] = play(app, game="loot", seats=3, seed="damaged")
    with sqlite3.connect(db) as c:
        rows = c.execute("SELECT originator_version, state FROM stored_snapshots ORDER BY originator_version").fetchall()
        assert len(rows) >= 4
        for version, state in rows[1::2]:  # every other snapshot, the probes' first pick among them
            c.execute("UPDATE stored_snapshots SET state = ? WHERE originator_version = ?",
                      (state[:len(state) // 2], version))
    top = app.fold(gid)[0].turn()
    for t in range(0, top + 1):
        m, v, h = app.fold(gid, to_turn=t)
        g, dm, dv, dh = direct_fold(db, gid.hex, to_turn=t)
        assert (g, dv, dh) == (gid, v, h), t
        assert state_bytes(dm) == state_bytes(m), t


def test_direct_reads_step_aside_where_they_cannot_answer(tmp_path):
    old = tmp_path / "old.db"
    shutil.copy(FIXTURE, old)  # written before the status table: no status rows
    a = Privateer(str(old))
    gid = a.games()[0]["game_id"]
    assert direct_fold(str(old), gid) is None
    assert direct_fold(str(tmp_path / "none.db"), gid) is None
    assert direct_fold("postgresql://x@127.0.0.1/none", gid) is None
    db = str(tmp_path / "d.db")
    app = Privateer(db)
    [g1, g2] = play(app, seats=2, games=2, seed="amb")
    common = 0
    while g1.hex[:common + 1] == g2.hex[:common + 1]:
        common += 1
    if common >= 6:  # an ambiguous prefix is the application's to refuse
        assert direct_fold(db, g1.hex[:common]) is None
    assert direct_fold(db, "xyz123") is None and direct_fold(db, "abc") is None


def test_a_corrected_game_is_folded_by_the_application(tmp_path):
    db = str(tmp_path / "c.db")
    app = Privateer(db)
    gid = app.create("letter-of-marque", 2, table=True)
    app.enter_chances(gid, [4, 3])
    at = app.fold(gid)[1]
    app.act(gid, 1, {"action": "place", "armed": True})
    assert direct_fold(db, gid.hex) is not None
    app.correct(gid, at, "wrong ship")
    assert direct_fold(db, gid.hex) is None


def test_status_and_replay_start_without_the_library(tmp_path):
    db = str(tmp_path / "s.db")
    app = Privateer(db)
    [gid] = play(app, seats=2, seed="light")
    m, v, h = app.fold(gid)
    bare = subprocess.run([sys.executable, "-c", "import sys, json; print(json.dumps(sorted(sys.modules)))"],
                          capture_output=True, text=True, check=True)
    started = set(json.loads(bare.stdout))  # what this interpreter imports before any code of ours

    def run(*argv):
        imported, out, err = _tools({"eventsourcing", "rich", "typing", "secrets", "random", "uuid", "unicodedata",
                                     "logging"},
                                    *argv, "--json", "--db", db)
        assert "exit" not in err, err
        return imported - started, json.loads(out)

    imported, answer = run("status", gid.hex)
    assert imported == set()  # neither the library nor rich, nor typing, secrets, random, uuid or logging
    assert answer == json.loads(json.dumps(status(gid, m, v, h), default=lambda o: o.hex()))
    m3, v3, _ = app.fold(gid, to_turn=3)
    imported, answer = run("replay", gid.hex, "--to-turn", "3")
    assert imported == set()  # nor uuid: its id read as text (service/replay.py), nor text layout (unicodedata)
    assert answer == json.loads(json.dumps(board(gid, m3, v3, None)))
    imported, out, err = _tools({"eventsourcing", "rich", "unicodedata"}, "replay", gid.hex, "--to-turn", "3", "--db",
                                db)
    assert "exit" not in err, err
    # the table for a person is drawn without rich, and its narrow characters without unicodedata
    # (service/render/table.py)
    assert imported - started == set()
    assert f"turn {m3.turn()}, event {v3}, as the referee sees it" in out.splitlines()[0]


def test_the_replays_chain_check_hashes_the_time_as_stored(tmp_path):
    """The chain hashes an event's stored ISO text (event_store/chain.py): a
    time rewritten in another ISO form of the same instant is a change the
    replay's check and the audit report, as a verifier reading the rows would."""
    import sqlite3

    import msgpack

    from event_store.codec import EXT_DATETIME
    from service.records.audit import audit_game
    from service.replay import verify_to

    db = str(tmp_path / "t.db")
    app = Privateer(db, snapshot_interval=0)
    [gid] = play(app, game="letter-of-marque", seats=3, seed="times")
    assert verify_to(db, gid, 12) is None
    with sqlite3.connect(db) as c:
        state = c.execute("SELECT state FROM stored_events WHERE originator_version = 7").fetchone()[0]
        env = msgpack.unpackb(state, raw=False, strict_map_key=False)
        text = env["timestamp"].data.decode()
        assert "T" in text
        env["timestamp"] = msgpack.ExtType(EXT_DATETIME, text.replace("T", " ").encode())  # same instant
        c.execute("UPDATE stored_events SET state = ? WHERE originator_version = 7",
                  (msgpack.packb(env, use_bin_type=True),))
    assert "event 7 does not match its hash" in verify_to(db, gid, 12)
    assert verify_to(db, gid, 6) is None
    report = audit_game(Privateer(db, snapshot_interval=0), gid)
    assert not report.ok and report.first_bad["version"] == 7, report.as_dict()


def test_snapshots_leave_a_shared_catalog_out_and_load_it_back(tmp_path):
    """A read-only catalog (Merchants & Marauders') is left out of every
    snapshot, which keeps its digest; a load in a process that does not hold
    that catalog takes the game's own from its GameCreated, and every replay
    and load gives what the events give."""
    import sqlite3

    from event_store.codec import unpack_event_row
    from service.kernel import rules as kernel_rules

    from .helpers import play_partly

    db = str(tmp_path / "m.db")
    app = Privateer(db, snapshot_interval=20)
    gid = app.create("merchants-and-marauders", 3)
    play_partly(app, gid, 80)
    with sqlite3.connect(db) as c:
        rows = [r[0] for r in c.execute("SELECT state FROM stored_snapshots ORDER BY originator_version")]
    assert len(rows) >= 3
    for row in rows:
        state = unpack_event_row(row)["state"]
        assert state["catalog_left_out"] and state["config"]["catalog"] is None
        assert state["config"]["catalog_digest"] == app.load(gid).machine.config["catalog_digest"]
        assert len(row) < 16_000  # the catalog alone packs to some 55 KB
    events_only = Privateer(db, snapshot_interval=0)
    kernel_rules._BY_DIGEST.clear()  # as a new process: no catalog held
    top = events_only.fold(gid)[0].turn()
    # the snapshots serve (they are not stepped over): from the application and read directly
    from event_store.reads import SqliteReader
    from service.replay import _start
    from service.snapshots import fold_start

    with SqliteReader.open(db) as reader:
        assert _start(reader, gid.hex, top, None)[1] >= 60
    assert fold_start(app, gid, top, None)[1] >= 60
    kernel_rules._BY_DIGEST.clear()
    for t in range(0, top + 1):
        m, v, h = events_only.fold(gid, to_turn=t)
        for fm, fv, fh in (app.fold(gid, to_turn=t), direct_fold(db, gid.hex, to_turn=t)[1:]):
            assert (fv, fh) == (v, h) and state_bytes(fm) == state_bytes(m), t
            assert fm.config == m.config and list(fm.config) == list(m.config)
        kernel_rules._BY_DIGEST.clear()
    fresh = Privateer(db, snapshot_interval=20)
    loaded = fresh.load(gid)
    assert state_bytes(loaded.machine) == state_bytes(events_only.load(gid).machine)
    assert loaded.machine.config == events_only.load(gid).machine.config
    assert kernel_rules.known_catalog(loaded.machine.config["catalog_digest"]) is not None  # held now


def test_legal_is_answered_from_the_tables(tmp_path):
    """`tools legal GAME --seat N --json` (a script's call before each `act`)
    is answered without the library or Typer, with what the application's
    fold lists; a seat the game has not goes to the command, which refuses it."""
    import random

    from .helpers import play_partly

    db = str(tmp_path / "l.db")
    app = Privateer(db, snapshot_interval=10)
    gid = app.create("loot", 3)
    play_partly(app, gid, 25, random.Random(4))
    heavy = {"eventsourcing", "typer", "rich"}
    m = app.fold(gid)[0]
    listed = 0
    for seat in (1, 2, 3):
        imported, out, _ = _tools(heavy, "legal", gid.hex[:8], "--seat", str(seat), "--json", "--db", db)
        assert imported == set()
        assert json.loads(out) == json.loads(json.dumps(m.offered(seat)))  # (copies read as the seat reads them)
        listed += len(m.offered(seat))
    assert listed  # some seat has something to decide
    imported, _, err = _tools(heavy, "legal", gid.hex, "--seat", "7", "--json", "--db", db)
    assert "exit 2" in err and "seat" in err
    assert imported != set()  # the command answered it


def test_the_games_list_is_read_from_the_tables(tmp_path):
    """`tools games` lists what ``Privateer.games`` lists, read without the
    library; a store written before status rows is listed by the application."""
    from service.replay import games_for_reading

    db = str(tmp_path / "g.db")
    app = Privateer(db)
    play(app, game="loot", seats=3, games=2, seed="list", players={"1": "Ada", "2": "Bo", "3": "Cy"})
    app.create("letter-of-marque", 2, name="open table")
    code = ("import sys, json\n"
            "from service.replay import games_for_reading\n"
            "rows = games_for_reading(sys.argv[1])\n"
            "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules} & {'eventsourcing'})))\n"
            "print(json.dumps(rows))\n")
    p = subprocess.run([sys.executable, "-c", code, db], capture_output=True, text=True, check=True)
    first, rest = p.stdout.split("\n", 1)
    assert json.loads(first) == []
    assert json.loads(rest) == json.loads(json.dumps(app.games())) and len(json.loads(rest)) == 3
    assert any(r["players"] == {"1": "Ada", "2": "Bo", "3": "Cy"} for r in json.loads(rest))
    old = tmp_path / "old.db"
    shutil.copy(FIXTURE, old)
    assert games_for_reading(str(old)) == Privateer(str(old)).games()


def test_a_replay_reads_each_event_once_for_its_fold_and_its_chain_check(tmp_path, monkeypatch):
    """``direct_replay`` gives what ``direct_fold`` and ``verify_to`` give, from a
    snapshot or not, the history intact or changed before or after the snapshot
    the fold starts from, and reads each event of the store once."""
    import sqlite3

    import msgpack

    from event_store.reads import SqliteReader
    from service.replay import direct_replay, verify_to

    db = str(tmp_path / "r.db")
    app = Privateer(db, snapshot_interval=25)
    [gid] = play(app, game="loot", seats=3, seed="once")
    top = app.fold(gid)[0].turn()
    read: list = []
    events = SqliteReader.events

    def counted(self, gid, gt=0, lte=None, page=256):
        for row in events(self, gid, gt, lte, page):
            read.append(row[0])
            yield row

    monkeypatch.setattr(SqliteReader, "events", counted)

    def check(points):
        for kw in points:
            read.clear()
            g, m, v, problem = direct_replay(db, gid.hex[:8], **kw)
            stopped = [x for x in read if x > v]   # the fold reads ahead to find the turn's end
            assert sorted(x for x in read if x <= v) == list(range(1, v + 1)), kw
            assert len(stopped) <= 256, kw
            fg, fm, fv, _ = direct_fold(db, gid.hex[:8], **kw)
            assert (g, v) == (fg.hex, fv) and state_bytes(m) == state_bytes(fm), kw  # (its id as read: hex)
            assert problem == verify_to(db, gid, v), kw
            yield v, problem

    points = [{"to_turn": t} for t in (0, 1, 3, top // 2, top)] + [{"to_event": v} for v in (1, 24, 25, 26, 60)] + [{}]
    assert all(p is None for _, p in check(points))
    with sqlite3.connect(db) as c:
        state = c.execute("SELECT state FROM stored_events WHERE originator_version = 30").fetchone()[0]
        env = msgpack.unpackb(state, raw=False, strict_map_key=False)
        env["turn"] += 1000
        c.execute("UPDATE stored_events SET state = ? WHERE originator_version = 30",
                  (msgpack.packb(env, use_bin_type=True),))
    found = dict(check([{"to_event": 29}, {"to_event": 30}, {"to_event": 60}, {}]))
    assert found[29] is None and all("event 30 does not match its hash" in found[v] for v in found if v >= 30)


def test_a_replay_checks_each_event_before_the_fold_applies_it(tmp_path):
    """The Kaiser's Pirates' state keeps an attack's list of targets from its
    event and adds to it later: a check made after the fold would read the
    changed list and call the history changed."""
    from service.replay import direct_replay, verify_to

    db = str(tmp_path / "k.db")
    app = Privateer(db, snapshot_interval=0)
    [gid] = play(app, game="kaisers-pirates", seats=2, seed="a2")  # its event 268: a list changed later
    g, m, v, problem = direct_replay(db, gid.hex)
    assert problem is None and verify_to(db, gid, v) is None and v == app.fold(gid)[1]

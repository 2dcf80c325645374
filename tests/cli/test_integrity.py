"""Tampering is caught, and fork / export-import / replay agree with the original."""

import random
import sqlite3

import pytest

from event_store.chain import link
from event_store.codec import pack, unpack
from service.app import Privateer


@pytest.fixture
def finished_game(db):
    app = Privateer(db)
    gid = app.create("letter-of-marque", 3, seed=b"\x05" * 32)
    agg = app.load(gid)
    rng = random.Random(3)
    m = agg.machine
    while not m.finished:
        seat = m.to_act()[0]
        agg.record(m.decide(seat, rng.choice(m.legal(seat)), app.chance_for(agg)))
        app.save_game(agg)
    return app, gid


def rows(db, gid):
    con = sqlite3.connect(db)
    return con, con.execute("SELECT originator_version, state FROM stored_events WHERE originator_id=? "
                            "ORDER BY originator_version", (gid.hex,)).fetchall()


def audit_fails_at(cli, gid, version, reason):
    p = cli.run("audit", gid.hex)
    assert p.returncode == 1, p.stdout
    assert f"event {version} " in p.stdout and reason in p.stdout, p.stdout


def first_version(app, gid, type_):
    return next(e.originator_version for e in app.stored_events(gid) if e.type == type_)


def test_clean_game_audits_clean(cli, finished_game):
    app, gid = finished_game
    p = cli.run("audit", gid.hex)
    assert p.returncode == 0 and "chain, chance and rules agree" in p.stdout


def test_changed_bytes_are_caught(cli, db, finished_game):
    app, gid = finished_game
    con, rs = rows(db, gid)
    v, state = rs[19]
    state = bytearray(state)
    state[-3] ^= 0x01
    con.execute("UPDATE stored_events SET state=? WHERE originator_id=? AND originator_version=?",
                (bytes(state), gid.hex, v))
    con.commit()
    p = cli.run("audit", gid.hex)
    assert p.returncode == 1 and f"event {v} " in p.stdout


def test_a_row_rewritten_as_text_is_a_damaged_history_not_a_crash(cli, db, finished_game):
    """SQL's ``||`` turns a BLOB into text: the row no longer reads back as bytes.
    Replay (both of its paths) and audit say so in one line, exit 1."""
    app, gid = finished_game
    con, rs = rows(db, gid)
    con.execute("UPDATE stored_events SET state = state || x'00' WHERE originator_id=? AND originator_version=?",
                (gid.hex, rs[5][0]))
    con.commit()
    for argv in (("audit", gid.hex), ("replay", gid.hex, "--to-turn", "9", "--json"),
                 ("replay", gid.hex, "--to-event", "12")):
        p = cli.run(*argv)
        assert p.returncode == 1, (argv, p.stdout, p.stderr)
        assert "this history does not verify" in p.stderr and "Traceback" not in p.stderr, (argv, p.stderr)


def test_deleted_event_is_caught(cli, db, finished_game):
    app, gid = finished_game
    con, _ = rows(db, gid)
    con.execute("DELETE FROM stored_events WHERE originator_id=? AND originator_version=20", (gid.hex,))
    con.commit()
    audit_fails_at(cli, gid, 20, "missing")


def test_truncated_history_is_caught(cli, db, finished_game):
    app, gid = finished_game
    con, rs = rows(db, gid)
    last = rs[-1][0]
    con.execute("DELETE FROM stored_events WHERE originator_id=? AND originator_version>=?", (gid.hex, last - 1))
    con.commit()
    p = cli.run("audit", gid.hex)
    assert p.returncode == 1 and "head is version" in p.stdout


def rewrite(db, gid, version, change, rechain):
    """Change one event's data; with rechain, recompute every later hash too
    (a tamperer who knows the chain) and move the store's head."""
    con, rs = rows(db, gid)
    prev = None
    for v, raw in rs:
        st = unpack(raw)
        if v == version:
            change(st["data"])
        if v >= version and rechain:
            if prev is not None:
                st["prev"] = prev
            st["hash"] = link(gid, v, st["timestamp"], st["type"], st["turn"], st["visible_to"], st["data"], st["prev"],
                             st.get("salt"))
        if v == version or (rechain and v > version):
            con.execute("UPDATE stored_events SET state=? WHERE originator_id=? AND originator_version=?",
                        (pack(st), gid.hex, v))
        prev = st["hash"]
    if rechain:
        con.execute("UPDATE privateer_games SET head=? WHERE game_id=?", (prev, gid.hex))
    con.commit()


def test_changed_card_is_caught_by_the_chain(cli, db, finished_game):
    app, gid = finished_game
    v = first_version(app, gid, "CardDrawn")
    rewrite(db, gid, v, lambda d: d.update(card=7 if d["card"] != 7 else 2), rechain=False)
    audit_fails_at(cli, gid, v, "does not match its hash")


def test_changed_die_or_card_with_a_rebuilt_chain_is_caught_by_the_seed(cli, db, finished_game):
    app, gid = finished_game
    v = [e.originator_version for e in app.stored_events(gid) if e.type == "CardDrawn"][4]

    def change(d):
        d["index"] = (d["index"] + 1) % d["of"]

    rewrite(db, gid, v, change, rechain=True)
    audit_fails_at(cli, gid, v, "does not match the seed's stream")


def test_changed_decision_with_a_rebuilt_chain_is_caught_by_the_rules(cli, db, finished_game):
    app, gid = finished_game
    ev = next(e for e in app.stored_events(gid) if e.type == "ShipRevealed")
    rewrite(db, gid, ev.originator_version, lambda d: d.update(armed=not d["armed"]), rechain=True)
    audit_fails_at(cli, gid, ev.originator_version, "differs from what the rules derive")


def boards(app, gid, upto):
    machine, version, _ = app.fold(gid, to_event=upto)
    return [machine.rules.view(machine.s, seat) for seat in (None, 1, 2, 3)], machine.to_act()


def test_fork_export_import_and_replay_agree(cli, db, tmp_path, finished_game):
    app, gid = finished_game
    fork_id = cli.ok("fork", gid.hex, "--at-turn", "6").strip()
    forked = Privateer(db)
    fid = forked.resolve_id(fork_id)
    fev = forked.stored_events(fid)
    cut = fev[0].data["fork"]["version"]
    assert len(fev) == cut and fev[0].data["fork"]["parent"] == gid.hex
    assert fev[0].data["fork"]["hash"] == app.stored_events(gid)[cut - 1].hash.hex()
    assert [(e.type, e.turn, e.data) for e in fev[1:]] == [(e.type, e.turn, e.data) for e in app.stored_events(gid)[1:cut]]
    assert boards(forked, fid, None) == boards(app, gid, cut)
    assert cli.json("replay", fork_id, "--to-turn", "6")["board"] == cli.json("replay", gid.hex, "--to-turn", "6")["board"]
    cli.ok("audit", fork_id)
    # the fork plays on with its own seed and still audits clean
    seat = forked.fold(fid)[0].to_act()[0]
    decision = forked.fold(fid)[0].legal(seat)[0]
    forked.act(fid, seat, decision)
    cli.ok("audit", fork_id)

    path = str(tmp_path / "game.pgame")
    cli.ok("export", gid.hex, "-o", path)
    other_db = str(tmp_path / "other.db")
    imported = cli.run("import", path, "--db", other_db, check=0).stdout.strip()
    assert imported == gid.hex
    assert cli.run("audit", gid.hex, "--db", other_db).returncode == 0
    other = Privateer(other_db)
    for upto in (None, 30, cut):
        assert boards(other, gid, upto) == boards(app, gid, upto)
    p = cli.run("import", path, "--db", other_db)
    assert p.returncode == 2 and "already in this store" in p.stderr


def test_fork_refuses_the_middle_of_a_step(cli, finished_game):
    app, gid = finished_game
    v = first_version(app, gid, "ShipRevealed")
    p = cli.run("fork", gid.hex, "--at-event", v)
    assert p.returncode == 2 and "middle of a decision" in p.stderr


def test_corrupt_export_file_is_refused(cli, tmp_path, finished_game):
    app, gid = finished_game
    path = tmp_path / "g.pgame"
    cli.ok("export", gid.hex, "-o", str(path))
    doc = unpack(path.read_bytes())
    doc["events"][10][5]["card"] = 99  # change an event's data without fixing the chain
    path.write_bytes(pack(doc))
    p = cli.run("import", str(path), "--db", str(tmp_path / "x.db"))
    assert p.returncode == 1 and "event 11" in p.stderr  # a file that fails its audit: an audit violation
    path.write_bytes(b"not a game")
    p = cli.run("import", str(path), "--db", str(tmp_path / "x.db"))
    assert p.returncode == 2 and "not a privateer game file" in p.stderr

"""Chain versions: games stored before chain version 2 still replay, audit and
fork; new games are version 2; import audits a file before it writes anything;
emitted events never change after they are emitted."""

import shutil
from pathlib import Path

import msgpack

from event_store.codec import pack, unpack

FIXTURE = Path(__file__).parent.parent / "fixtures" / "chain_v1.db"


def test_a_store_of_chain_v1_games_replays_audits_and_forks(cli, tmp_path):
    db = tmp_path / "old.db"
    shutil.copy(FIXTURE, db)
    cli.env["PRIVATEER_DB"] = str(db)
    games = cli.json("games")
    assert len(games) == 4
    report = cli.json("audit", "--all")
    reports = report if isinstance(report, list) else report["reports"]
    assert all(r["ok"] for r in reports)
    assert all(any("chain version 1" in n for n in r["notes"]) for r in reports)
    finished = next(g for g in games if g["game"] == "letter-of-marque" and g["finished"] and not g.get("parent"))
    assert cli.json("replay", finished["game_id"], "--to-turn", "3")["turn"] <= 3
    child = cli.ok("fork", finished["game_id"], "--at-turn", "4").strip()
    r = cli.json("audit", child)
    r = r[0] if isinstance(r, list) else r
    assert r["ok"] and any("chain version 2" in n for n in r["notes"])
    # the old table-mode game still takes outcomes, on its old chain
    table = next(g for g in games if g["name"] == "v1-table")
    cli.ok("chance", table["game_id"], "3")
    r = cli.json("audit", table["game_id"])
    r = r[0] if isinstance(r, list) else r
    assert r["ok"], r


def test_new_games_are_chain_v2_with_a_salt_on_every_event(cli, db):
    import sqlite3

    gid = cli.ok("new", "letter-of-marque", "--seats", "2").strip()
    con = sqlite3.connect(db)
    rows = con.execute("SELECT state FROM stored_events WHERE originator_id=?", (gid,)).fetchall()
    states = [unpack(r[0]) for r in rows]
    assert states[0]["data"]["chain"] == 2
    salts = [s["salt"] for s in states]
    assert all(isinstance(s, bytes) and len(s) == 32 for s in salts)
    assert len(set(salts)) == len(salts)


def test_import_refuses_a_history_that_does_not_verify_and_writes_nothing(cli, tmp_path):
    from uuid import UUID

    from service.app import Privateer

    app = Privateer(cli.db)  # six decisions in process: the export and import are what is tested
    gid = app.create("letter-of-marque", 2).hex
    for _ in range(6):
        m = app.load(UUID(gid)).machine
        seat = m.to_act()[0]
        app.act(UUID(gid), seat, m.legal(seat)[0])
    file = tmp_path / "g.pgame"
    cli.ok("export", gid, "-o", file, "--with-secret")
    doc = unpack(file.read_bytes())
    # a tamperer who rebuilds the whole chain: change a decision, re-hash everything
    from event_store.chain import genesis, link

    rows = doc["events"]
    k = next(i for i, r in enumerate(rows) if r[2] == "Decided" and r[5]["seat"] != 0)
    decision = rows[k][5]["decision"]
    key = next(key for key, v in decision.items() if isinstance(v, bool))
    decision[key] = not decision[key]
    prev = genesis(doc["game_id"])
    for r in rows:
        r[6] = prev
        r[7] = link(doc["game_id"], r[0], r[1], r[2], r[3], r[4], r[5], prev, r[8])
        prev = r[7]
    bad = tmp_path / "bad.pgame"
    bad.write_bytes(pack(doc))
    other = tmp_path / "other.db"
    p = cli.run("import", bad, "--db", other)
    assert p.returncode == 1 and "does not verify" in p.stderr, p.stderr  # an audit violation
    assert cli.json("games", "--db", other) == []
    # the untouched file imports and audits clean
    cli.ok("import", file, "--db", other)
    r = cli.json("audit", gid, "--db", other)
    assert (r[0] if isinstance(r, list) else r)["ok"]


def test_export_import_audit_is_clean_for_long_games_of_every_game(cli, tmp_path):
    """Kaiser's Pirates events used to share lists with the rules' state, so a
    stored event changed after it was emitted and an imported copy failed."""
    for game, seats in (("kaisers-pirates", 3), ("merchants-and-marauders", 3), ("loot", 4),
                        ("letter-of-marque", 4)):
        src = tmp_path / f"{game}.db"
        out = cli.json("simulate", game, "--seats", seats, "--games", 1, "--seed", "long", "--db", src)
        gid = out["game_ids"][0]
        file = tmp_path / f"{game}.pgame"
        cli.ok("export", gid, "-o", file, "--db", src)
        dst = tmp_path / f"{game}-copy.db"
        cli.ok("import", file, "--db", dst)
        r = cli.json("audit", gid, "--db", dst)
        assert (r[0] if isinstance(r, list) else r)["ok"], (game, r)


def test_emitted_events_do_not_change_when_the_state_later_does():
    from service.kernel.machine import Ev

    shared = [1]
    ev = Ev("X", 1, "all", {"targets": shared}).freeze()
    shared.append(2)
    assert ev.frozen() == {"targets": [1]}
    assert msgpack.unpackb(ev.packed) == {"targets": [1]}


def test_a_decision_must_be_exactly_as_listed_types_included(cli):
    import json

    gid = cli.ok("new", "letter-of-marque", "--seats", "2").strip()
    seat = cli.json("status", gid)["to_act"][0]
    listed = cli.json("legal", gid, "--seat", seat)
    d = next(x for x in listed if any(isinstance(v, bool) for v in x.values()))
    key = next(k for k, v in d.items() if isinstance(v, bool))
    before = cli.json("status", gid)["version"]
    for wrong in (int(d[key]), str(d[key]).lower(), None):
        p = cli.run("act", gid, "--seat", seat, json.dumps(dict(d, **{key: wrong})))
        assert p.returncode in (2, 3), (wrong, p.stderr)
        assert cli.json("status", gid)["version"] == before
    cli.ok("act", gid, "--seat", seat, json.dumps(d))


def test_a_snapshot_from_an_older_build_is_ignored(tmp_path):
    """Snapshots are a cache: one without the per-viewer counts is not used."""
    from service.app import Privateer
    from service.simulate import simulate

    app = Privateer(str(tmp_path / "s.db"), snapshot_interval=20)
    gid = simulate("loot", 3, 1, seed="snap", app=app)["game_ids"][0]
    from uuid import UUID

    game = app.load(UUID(gid))
    con = __import__("sqlite3").connect(str(tmp_path / "s.db"))
    rows = con.execute("SELECT originator_version, state FROM stored_snapshots").fetchall()
    assert rows
    for v, raw in rows:
        st = unpack(raw)
        st["state"].pop("format", None)
        st["state"]["k"].pop("seen", None)
        con.execute("UPDATE stored_snapshots SET state=? WHERE originator_version=?", (pack(st), v))
    con.commit()
    again = Privateer(str(tmp_path / "s.db"), snapshot_interval=20).load(UUID(gid))
    assert again.version == game.version and again.machine.k["seen"] == game.machine.k["seen"]


def test_a_game_recorded_under_other_rules_says_so(cli, tmp_path):
    """The audit re-runs a game with this build's rules; a game recorded under
    another rules version is named as such (here the re-run still agrees)."""
    from event_store.chain import genesis, link

    src = tmp_path / "a.db"
    gid = cli.json("simulate", "letter-of-marque", "--seats", 2, "--seed", "rv", "--db", src)["game_ids"][0]
    file = tmp_path / "g.pgame"
    cli.ok("export", gid, "-o", file, "--db", src)
    doc = unpack(file.read_bytes())
    rows = doc["events"]
    rows[0][5]["rules_version"] = "0"
    doc["signatures"] = []  # as a file written before signing (a signed one rewritten is refused)
    prev = genesis(doc["game_id"])
    for r in rows:
        r[6] = prev
        r[7] = link(doc["game_id"], r[0], r[1], r[2], r[3], r[4], r[5], prev, r[8])
        prev = r[7]
    file.write_bytes(pack(doc))
    dst = tmp_path / "b.db"
    cli.ok("import", file, "--db", dst)
    r = cli.json("audit", gid, "--db", dst)
    r = r[0] if isinstance(r, list) else r
    assert r["ok"] and any("recorded under rules version 0" in n for n in r["notes"])

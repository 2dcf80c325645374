"""`tools referee`: a penalty the book names (The Kaiser's Pirates 3.1.5),
listed, applied, recorded in public and audited."""

import json


def test_a_kaisers_pirates_penalty_through_the_cli(cli):
    gid = cli.ok("new", "kaisers-pirates", "--seats", "2").strip()
    open_now = cli.json("referee", gid, "--list")
    assert open_now and all(d["referee"] == "penalty" for d in open_now)
    d = open_now[0]
    before = cli.json("status", gid)["version"]
    out = cli.json("referee", gid, json.dumps(d))
    types = [e["type"] for e in out["events"]]
    assert types[0] == "Decided" and "PenaltyApplied" in types
    assert d not in cli.json("referee", gid, "--list")  # the card is gone from the seat
    p = cli.run("referee", gid, json.dumps(d))
    assert p.returncode == 3 and cli.json("status", gid)["version"] == before + len(types)
    p = cli.run("referee", gid, '{"referee": "bribe"}')
    assert p.returncode == 3
    r = cli.json("audit", gid)
    assert (r[0] if isinstance(r, list) else r)["ok"]
    log = cli.json("log", gid, "--seat", 2 if d["seat"] == 1 else 1)
    assert any(e["type"] == "PenaltyApplied" for e in log)  # public
    ruled = [e["text"] for e in log if e["type"] == "Decided" and e["data"]["seat"] == 0]
    assert ruled == ["the table is set up", "the referee rules a penalty"]  # in words; the fact after it says what was discarded


def test_a_physical_slip_is_noted_in_public_and_changes_nothing(cli):
    gid = cli.ok("new", "letter-of-marque", "--seats", "2").strip()
    before = cli.json("replay", gid)["board"]
    out = cli.json("referee", gid, '{"referee": "note", "text": "seat 2 knocked the deck; reshuffled"}')
    assert [e["type"] for e in out["events"]] == ["Decided", "RefereeNoted"]
    assert cli.json("replay", gid)["board"] == before
    log = cli.json("log", gid, "--seat", 1)
    assert [e["text"] for e in log if e["type"] in ("Decided", "RefereeNoted") and e["data"].get("seat", 0) == 0] \
        == ["the table is set up", "the referee puts a note on the record", "referee's note: seat 2 knocked the deck; reshuffled"]
    assert cli.run("referee", gid, '{"referee": "note", "text": ""}').returncode == 2
    r = cli.json("audit", gid)
    assert (r[0] if isinstance(r, list) else r)["ok"]

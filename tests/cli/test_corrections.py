"""Corrections on the record: the referee retracts the last step(s); the log
keeps the mistake and the correction, replay, audit and standings follow the
corrected line."""

import json
import random


def table_game_to_first_turn(cli):
    """Letter of Marque at a table: treasures 4 and 3 dealt, both seats place."""
    gid = cli.ok("new", "letter-of-marque", "--seats", "2", "--table", "--player", "1=Ada",
                 "--player", "2=Bo", "--tournament", "t").strip()
    cli.ok("chance", gid, "4", "3")
    cli.ok("act", gid, "--seat", "1", '{"action": "place", "armed": true}')
    cli.ok("act", gid, "--seat", "2", '{"action": "place", "armed": false}')
    return gid


def audit(cli, gid):
    r = cli.json("audit", gid)
    return r[0] if isinstance(r, list) else r


def test_a_misread_card_is_corrected_and_the_game_follows_the_corrected_line(cli):
    gid = table_game_to_first_turn(cli)
    at = cli.json("status", gid)["version"]
    assert cli.json("status", gid)["to_act"] == [2]
    cli.ok("act", gid, "--seat", "2", '{"action": "launch"}')
    cli.ok("chance", gid, "5")  # misread: the card was a 7
    blue = cli.json("replay", gid)["board"]["players"]["2"]
    assert blue["drawn"] == 5 and 5 not in blue["deck_cards"]
    out = cli.json("correct", gid, "--to-version", at, "--reason", "card misread: it was a 7")
    assert [e["type"] for e in out["events"]] == ["Decided", "Corrected"]
    assert out["next"]["to_act"] == [2]
    cli.ok("act", gid, "--seat", "2", '{"action": "launch"}')
    cli.ok("chance", gid, "7")
    blue = cli.json("replay", gid)["board"]["players"]["2"]
    # the 7 is drawn, and the misread 5 is back in the deck: it can be drawn later
    assert blue["drawn"] == 7 and 5 in blue["deck_cards"] and 7 not in blue["deck_cards"]
    log = cli.json("log", gid)
    retracted = [e for e in log if e.get("retracted")]
    assert [e["type"] for e in retracted] == ["Decided", "ChanceAwaited", "CardDrawn"]
    assert retracted[-1]["data"]["card"] == 5
    corr = next(e for e in log if e["type"] == "Corrected")
    assert corr["data"]["reason"] == "card misread: it was a 7" and corr["data"]["to_version"] == at
    r = audit(cli, gid)
    assert r["ok"], r
    assert any("correction at version" in n and "card misread" in n for n in r["notes"])
    # a seat reads the correction in its own numbers
    mine = cli.json("log", gid, "--seat", "1")
    assert [e["version"] for e in mine] == list(range(1, len(mine) + 1))
    c1 = next(e for e in mine if e["type"] == "Corrected")
    assert c1["data"]["to_version"] <= len(mine) and c1["data"]["to_version"] < at


def test_a_correction_must_fall_between_steps_and_appends_nothing_when_refused(cli):
    gid = table_game_to_first_turn(cli)
    at = cli.json("status", gid)["version"]
    cli.ok("act", gid, "--seat", "2", '{"action": "launch"}')
    cli.ok("chance", gid, "5")
    v = cli.json("status", gid)["version"]
    # at + 1 is the launch's Decided, at + 2 the card it awaited: a correction inside a step cuts
    # just before an outcome, and the refusal names where
    for to, words in ((at + 1, "middle of a step"), (3, "inside the setup"), (v, "from 1 to"), (0, "from 1 to")):
        p = cli.run("correct", gid, "--to-version", to, "--reason", "x")
        assert p.returncode == 2 and words in p.stderr, (to, p.stderr)
        if to in (at + 1, 3):
            assert f"before one of its 1 outcome(s) entered: version {at + 2}" in p.stderr, p.stderr
    p = cli.run("correct", gid, "--to-version", at, "--reason", " ")
    assert p.returncode == 2 and "reason" in p.stderr
    assert cli.json("status", gid)["version"] == v
    p = cli.run("act", gid, "--seat", "0", '{"referee": "correct", "to_version": 3, "reason": "x"}')
    assert p.returncode == 2
    assert cli.json("status", gid)["version"] == v


def test_a_seeded_game_corrected_draws_on_from_the_stream_and_finishes_in_the_standings(cli):
    gid = cli.ok("new", "letter-of-marque", "--seats", "2", "--player", "1=Ada", "--player", "2=Bo",
                 "--tournament", "spring").strip()
    rng = random.Random(4)

    def play(n):
        for _ in range(n):
            st = cli.json("status", gid)
            if st["finished"]:
                return
            seat = st["to_act"][0]
            cli.ok("act", gid, "--seat", seat, json.dumps(rng.choice(cli.json("legal", gid, "--seat", seat))))

    play(4)
    at = cli.json("status", gid)["version"]
    play(2)
    cli.ok("correct", gid, "--to-version", at, "--reason", "wrong button")
    before = [e for e in cli.json("log", gid) if e["type"] in ("CardDrawn", "DiceRolled", "ChanceChosen")]
    play(2)  # through the command line after the correction, then to the end in process (quicker)
    from uuid import UUID

    from service.app import Privateer

    app = Privateer(cli.db)
    u = UUID(gid)
    while not app.load(u).machine.finished:
        m = app.load(u).machine
        seat = m.to_act()[0]
        app.act(u, seat, rng.choice(m.legal(seat)))
    st = cli.json("status", gid)
    assert st["finished"]
    chance = [e for e in cli.json("log", gid) if e["type"] in ("CardDrawn", "DiceRolled", "ChanceChosen")]
    counters = [e["data"]["counter"] for e in chance]
    assert counters == sorted(counters) and len(set(counters)) == len(counters)  # no block used twice
    assert len(chance) >= len(before)
    r = audit(cli, gid)
    assert r["ok"], r
    cli.ok("projections", "rebuild")
    rows = cli.json("standings", "--tournament", "spring")
    rows = rows if isinstance(rows, list) else rows.get("rows", rows)
    assert {r["player"] for r in rows} == {"Ada", "Bo"}
    assert sum(r["wins"] for r in rows) >= 1
    p = cli.run("correct", gid, "--to-version", at, "--reason", "too late")
    assert p.returncode == 3 and "finished" in p.stderr


def test_a_forged_correction_is_caught_by_the_audit(cli, db):
    import sqlite3

    from event_store.chain import link
    from event_store.codec import pack, unpack

    gid = table_game_to_first_turn(cli)
    at = cli.json("status", gid)["version"]
    cli.ok("act", gid, "--seat", "2", '{"action": "launch"}')
    cli.ok("chance", gid, "5")
    cli.ok("correct", gid, "--to-version", at, "--reason", "misread")
    # a tamperer widens the retracted range and rebuilds the chain from there
    con = sqlite3.connect(db)
    rows = con.execute("SELECT originator_version, state FROM stored_events WHERE originator_id=? "
                       "ORDER BY originator_version", (gid,)).fetchall()
    from uuid import UUID

    u = UUID(gid)
    prev = None
    for v, raw in rows:
        st = unpack(raw)
        if st["type"] == "Corrected":
            st["data"]["retracted"] = [st["data"]["retracted"][0] - 1, st["data"]["retracted"][1]]
        if prev is not None:
            st["prev"] = prev
        st["hash"] = link(u, v, st["timestamp"], st["type"], st["turn"], st["visible_to"], st["data"],
                          st["prev"], st["salt"])
        prev = st["hash"]
        con.execute("UPDATE stored_events SET state=? WHERE originator_id=? AND originator_version=?",
                    (pack(st), gid, v))
    con.execute("UPDATE privateer_games SET head=? WHERE game_id=?", (prev, gid))
    con.commit()
    p = cli.run("audit", gid, "--json")
    assert p.returncode == 1
    r = json.loads(p.stdout)
    r = r[0] if isinstance(r, list) else r
    assert not r["ok"] and r["first_bad"]["version"] <= at + 2, (at, r)

"""What a newcomer runs into in the first hour: clear refusals for ids and
turns, decisions picked by number, help that names its choices, nothing left
behind by a refused import."""

import os
import re

from service.kernel.games import available_games, get_rules


def test_ids_too_short_or_not_ids_say_what_an_id_is(cli):
    gid = cli.ok("new", "letter-of-marque", "--seats", "2").strip()
    p = cli.run("status", gid[:4], check=2)
    assert "6 or more characters" in p.stderr
    p = cli.run("replay", "zz" + gid[2:10], check=5)
    assert "32 hexadecimal characters" in p.stderr


def test_replay_refuses_impossible_points_and_says_when_the_turn_was_not_reached(cli):
    gid = cli.ok("new", "letter-of-marque", "--seats", "2", "--table").strip()
    cli.ok("chance", gid, "4", "3")
    assert "--to-turn" in cli.run("replay", gid, "--to-turn", "-1", check=2).stderr
    assert "--to-event" in cli.run("replay", gid, "--to-event", "0", check=2).stderr
    far = cli.json("replay", gid, "--to-turn", "99")
    assert far["turn"] == 0 and "turn 99 was not reached" in far["note"]
    assert "note" not in cli.json("replay", gid, "--to-turn", "0")
    p = cli.run("replay", gid, "--to-event", "500", check=0)
    assert "event 500 was not reached" in p.stderr


def test_legal_is_numbered_and_act_takes_the_number(cli):
    gid = cli.ok("new", "letter-of-marque", "--seats", "2").strip()
    text = cli.ok("legal", gid, "--seat", "1")
    listed = cli.json("legal", gid, "--seat", "1")
    # a person reads them in words; a script reads --json, the decisions exactly as `act` takes them
    assert [line.split(". ", 1)[1] for line in text.splitlines()[1:]] == \
        ["place an armed ship on the treasure", "place an unarmed ship on the treasure"]
    assert listed == [{"action": "place", "armed": True}, {"action": "place", "armed": False}]
    out = cli.json("act", gid, "--seat", "1", "2")
    assert out["events"][0]["data"]["decision"] == listed[1]
    p = cli.run("act", gid, "--seat", "2", "7", check=2)
    assert "pick 1 to 2" in p.stderr


def test_a_refused_import_leaves_no_database_behind(cli, tmp_path):
    junk = tmp_path / "junk.game"
    junk.write_bytes(b"not a game")
    target = tmp_path / "fresh.db"
    p = cli.run("import", str(junk), "--db", str(target), check=2)
    assert "not a privateer game file" in p.stderr
    assert not any(n.startswith("fresh.db") for n in os.listdir(tmp_path))


def test_help_names_the_bots_and_options_show_what_they_take(cli):
    text = cli.ok("simulate", "--help")
    for game in available_games():
        for bot in get_rules(game).bots:
            assert bot in text, (game, bot)
    for command in ("new", "status", "replay", "act", "legal", "simulate", "chance", "audit"):
        options = [line for line in cli.ok(command, "--help").splitlines()
                   if re.match(r"^\W*\*?\s*--[a-z]", line.lstrip("│ "))]
        assert options and not [line for line in options if "<str>" in line or "<int>" in line or "<bool>" in line]


def test_replay_warns_when_what_it_shows_does_not_verify(cli, db):
    import sqlite3

    from event_store.codec import pack, unpack

    gid = cli.ok("new", "letter-of-marque", "--seats", "2", "--table").strip()
    cli.ok("chance", gid, "4", "3")
    assert "warning" not in cli.json("replay", gid)
    conn = sqlite3.connect(db)
    state = conn.execute("SELECT state FROM stored_events WHERE originator_version = 6").fetchone()[0]
    d = unpack(state)
    d["data"] = dict(d["data"], card=7)  # the referee's 3 rewritten behind the store's back
    conn.execute("UPDATE stored_events SET state = ? WHERE originator_version = 6", (pack(d),))
    conn.commit()
    conn.close()
    out = cli.json("replay", gid)
    assert "event 6 does not match its hash" in out["warning"]
    assert "warning: this history does not verify" in cli.run("replay", gid, check=0).stderr
    assert "warning" not in cli.json("replay", gid, "--to-event", "5")  # before the change: it verifies


def test_every_command_shows_an_example_in_help_that_flows_in_80_columns(cli):
    from tools.cli import app

    names = [c.name or c.callback.__name__ for c in app.registered_commands]
    assert len(names) >= 18
    cli.env["COLUMNS"] = "80"
    for name in names:
        text = cli.ok(name, "--help")
        assert "Example" in text, name
        # the description wraps where the terminal ends, not where the source's lines did:
        # a line ends early only when the next word would not have fitted (78 columns of text)
        lines = text.split("Usage", 1)[1].split("\u256d", 1)[0].splitlines()[1:]
        for a, b in zip(lines, lines[1:]):
            if a.strip() and b.strip():
                assert len(a.strip()) + 1 + len(b.split()[0]) > 78, (name, a, b)

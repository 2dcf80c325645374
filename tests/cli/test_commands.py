"""The CLI's shapes, exit codes and bad-input handling (real subprocesses)."""

import json

import pytest


@pytest.fixture
def game(cli):
    gid = cli.ok("new", "letter-of-marque", "--seats", "3", "--name", "table 4", "--tournament", "spring").strip()
    assert len(gid) == 32 and gid.isalnum()  # stdout is only the id
    return gid


def count(cli, gid):
    return cli.json("status", gid)["version"]


def test_status_legal_act_shapes(cli, game):
    st = cli.json("status", game)
    for key in ("version", "turn", "finished", "to_act", "awaiting_chance", "scores"):
        assert key in st
    assert st["turn"] == 0 and st["to_act"] == [1, 2, 3] and st["scores"] is None
    legal = cli.json("legal", game, "--seat", "1")
    assert legal == [{"action": "place", "armed": True}, {"action": "place", "armed": False}]
    out = cli.json("act", game, "--seat", "1", json.dumps(legal[0]), "--expect-version", st["version"])
    assert out["version"] > st["version"]
    log = cli.json("log", game)
    assert all({"version", "turn", "type", "visible_to"} <= set(e) for e in log)
    assert [e["version"] for e in log] == list(range(1, out["version"] + 1))
    rows = cli.json("games")
    assert rows[0]["game_id"] == game and rows[0]["name"] == "table 4" and rows[0]["tournament"] == "spring"


@pytest.mark.parametrize("args, code, message", [
    (["act", "{GAME}", "--seat", "1", "{not json"], 2, "not valid JSON"),
    (["act", "{GAME}", "--seat", "1", '{"action": "attack", "ship": "red-1"}'], 3, "drawn a treasure"),
    (["act", "{GAME}", "--seat", "9", '{"action": "place", "armed": true}'], 2, "seat must be"),
    (["act", "{GAME}", "--seat", "1", '{"action": "place", "armed": true}', "--expect-version", "3"], 4, "expected version 3"),
    (["act", "ffffffffffffffffffffffffffffffff", "--seat", "1", '{"action": "pass"}'], 5, "no game"),
    (["status", "nope"], 5, "no game"),
    (["new", "chess", "--seats", "2"], 2, "unknown game"),
    (["new", "letter-of-marque", "--seats", "7"], 2, "2 to 6 seats"),
    (["new", "letter-of-marque", "--seats", "2", "--option", "x"], 2, "key=value"),
    (["chance", "{GAME}", "4"], 2, "only table-mode games"),
    (["fork", "{GAME}"], 2, "exactly one of"),
])
def test_bad_input_gives_one_line_and_exit_code_and_appends_nothing(cli, game, args, code, message):
    before = count(cli, game)
    p = cli.run(*[a.replace("{GAME}", game) for a in args])
    assert p.returncode == code, (p.stdout, p.stderr)
    assert message in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1
    assert count(cli, game) == before


def test_wrong_seat_is_refused(cli, game):
    for seat in (1, 2, 3):
        cli.ok("act", game, "--seat", seat, '{"action": "place", "armed": true}')
    st = cli.json("status", game)
    other = next(s for s in (1, 2, 3) if s not in st["to_act"])
    p = cli.run("act", game, "--seat", other, '{"action": "launch"}')
    assert p.returncode == 3 and "may not act now" in p.stderr
    assert count(cli, game) == st["version"]


def test_table_mode_chance_is_validated(cli):
    gid = cli.ok("new", "letter-of-marque", "--seats", "2", "--table").strip()
    st = cli.json("status", gid)
    assert st["awaiting_chance"]["kind"] == "card" and st["to_act"] == []
    assert st["awaiting_chance"]["choices"] == [3, 4, 5, 6, 7]
    before = st["version"]
    p = cli.run("chance", gid, "2")
    assert p.returncode == 2 and "not left in the red treasure deck" in p.stderr
    assert count(cli, gid) == before
    cli.ok("chance", gid, "4")
    cli.ok("chance", gid, "3")
    st = cli.json("status", gid)
    assert st["awaiting_chance"] is None and st["to_act"] == [1, 2]
    p = cli.run("chance", gid, "3")
    assert p.returncode == 3 and "no chance outcome is awaited" in p.stderr


def test_replay_seat_view_hides_other_bases_until_revealed(cli):
    gid = cli.ok("new", "letter-of-marque", "--seats", "2", "--table").strip()
    cli.ok("chance", gid, "3")
    cli.ok("chance", gid, "5")
    cli.ok("act", gid, "--seat", "1", '{"action": "place", "armed": true}')
    cli.ok("act", gid, "--seat", "2", '{"action": "place", "armed": false}')
    ref = cli.json("replay", gid)
    assert {s["ship"]: s["armed"] for s in ref["board"]["sea"]} == {"red-1": True, "blue-1": False}
    s1 = cli.json("replay", gid, "--seat", "1")
    assert {s["ship"]: s["armed"] for s in s1["board"]["sea"]} == {"red-1": True, "blue-1": "hidden"}
    log1 = cli.json("log", gid, "--seat", "1")
    assert not any(e["type"] == "ShipBaseChosen" and e["data"]["ship"] == "blue-1" for e in log1)
    played = json.dumps([e for e in log1 if e["type"] != "GameCreated"])  # GameCreated holds the catalog
    assert "unarmed" not in played and '"armed": false' not in played
    cli.ok("act", gid, "--seat", "1", '{"action": "attack", "ship": "blue-1"}')  # reveals blue-1
    cli.ok("act", gid, "--seat", "2", '{"action": "launch"}')
    s1 = cli.json("replay", gid, "--seat", "1", "--to-turn", "1")
    assert s1["board"]["sea"] == [{"ship": "red-1", "owner": 1, "treasure": 3, "armed": True, "revealed": False}]
    assert s1["board"]["players"]["1"]["score_pile"]["treasures"] == [5]
    before = cli.json("replay", gid, "--seat", "1", "--to-turn", "0")
    assert {s["ship"]: s["armed"] for s in before["board"]["sea"]} == {"red-1": True, "blue-1": "hidden"}
    human = cli.ok("replay", gid, "--seat", "2", "--to-turn", "0")
    assert "hidden" in human and "as seat 2 sees it" in human


def test_simulate_stores_games_that_audit_clean(cli):
    out = json.loads(cli.ok("simulate", "letter-of-marque", "--seats", "4", "--games", "3", "--seed", "7", "--json"))
    assert out["games"] == 3 and out["decisions"] > 0 and len(out["game_ids"]) == 3
    assert len(cli.json("games")) == 3
    p = cli.run("audit", "--all")
    assert p.returncode == 0 and "3 of 3 games audit clean" in p.stdout
    again = json.loads(cli.ok("simulate", "letter-of-marque", "--seats", "4", "--games", "3", "--seed", "7",
                              "--in-memory", "--json"))
    assert again["decisions"] == out["decisions"] and again["events"] == out["events"]

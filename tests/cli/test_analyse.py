"""`tools analyse`: a seat's decisions at a point of a stored game, with their
estimates from the seat's own information; the same seed, the same answer."""

from __future__ import annotations


def _game(cli):
    cli.ok("simulate", "loot", "--seats", "2", "--games", "1", "--seed", "4")
    gid = cli.json("games")[0]["game_id"]
    events = cli.json("log", gid)
    # the position just before seat 1's tenth decision: seat 1 acts there
    decided = [e["version"] for e in events if e["type"] == "Decided" and e["data"]["seat"] == 1]
    return gid, decided[9] - 1, events


def test_analyse_lists_the_seats_decisions_with_estimates_and_the_same_seed_answers_the_same(cli):
    gid, at, _ = _game(cli)
    a = cli.json("analyse", gid, "--seat", "1", "--at-event", at, "--playouts", "60", "--seed", "7")
    legal_there = a["decisions"]
    assert a["seat"] == 1 and a["playouts"] == 60 and len(legal_there) >= 1
    assert sum(d["playouts"] for d in legal_there) == 60
    for d in legal_there:
        assert d["said"] and isinstance(d["decision"], dict)
        if d["playouts"]:
            assert 0.0 <= d["win_rate"] <= 1.0 and d["mean_score"] >= 0
    assert cli.json("analyse", gid, "--seat", "1", "--at-event", at, "--playouts", "60", "--seed", "7") == a
    other = cli.json("analyse", gid, "--seat", "1", "--at-event", at, "--playouts", "60", "--seed", "8")
    assert [d["decision"] for d in other["decisions"]] == [d["decision"] for d in legal_there]

    text = cli.ok("analyse", gid, "--seat", "1", "--at-event", at, "--playouts", "30")
    assert "win rate" in text and "playouts" in text
    assert legal_there[0]["said"] in text


def test_analyse_refuses_a_seat_that_does_not_act_and_a_finished_game(cli):
    gid, at, _ = _game(cli)
    p = cli.run("analyse", gid, "--seat", "2", "--at-event", at, "--playouts", "5")
    assert p.returncode == 3 and "seat 2 does not act" in p.stderr and "to act: 1" in p.stderr
    p = cli.run("analyse", gid, "--seat", "1", "--playouts", "5")
    assert p.returncode == 3 and "the game is finished" in p.stderr
    p = cli.run("analyse", gid, "--seat", "3", "--at-event", at)
    assert p.returncode == 2 and "seat must be a number from 1 to 2" in p.stderr
    p = cli.run("analyse", gid, "--seat", "1", "--at-event", at, "--at-turn", "2")
    assert p.returncode == 2 and "not both" in p.stderr

"""Entering chance at the table as people speak: bare words, several dice in
one word list, a whole deal in one call, cards without copy marks, 0 on a d10,
named faces; every refusal in one short line; `act`/`chance` say what is next."""



def awaiting(cli, gid):
    return cli.json("status", gid)["awaiting_chance"]


def test_a_whole_loot_deal_in_one_call_with_bare_card_names(cli):
    gid = cli.ok("new", "loot", "--seats", "2", "--table").strip()
    out = cli.ok("chance", gid, "1")  # the dealer
    assert "next: the referee enters a card" in out
    before = cli.json("status", gid)["version"]
    # twelve cards as printed (no copy letters), in the order they are dealt
    names = ["blue-2", "gold-2", "green-2", "blue-3", "gold-3", "green-3",
             "blue-2", "gold-2", "green-2", "blue-3", "gold-3", "green-3"]
    out = cli.json("chance", gid, *names)
    drawn = [e["data"]["card"] for e in out["events"] if e["type"] == "CardDrawn"]
    assert len(drawn) == 12 and len(set(drawn)) == 12
    assert [d[:-1] for d in drawn] == names  # any copy of the named type
    assert out["next"]["to_act"] and not out["next"]["awaiting_chance"]
    log = cli.json("log", gid)
    assert [e for e in log if e["type"] == "Decided" and e["data"]["seat"] != 0] == []
    assert cli.json("status", gid)["version"] > before


def test_a_bad_word_in_a_deal_appends_nothing_and_says_what_is_accepted(cli):
    gid = cli.ok("new", "loot", "--seats", "2", "--table").strip()
    cli.ok("chance", gid, "1")
    before = cli.json("status", gid)["version"]
    p = cli.run("chance", gid, "blue-2", "purple-9")
    assert p.returncode == 2
    line = p.stderr.strip()
    assert "\n" not in line and "outcome 2" in line and "cards left" in line and len(line) < 600
    # what may be typed: the closest first, then every card left, copies counted (purple-2 names any of them)
    assert "closest: purple-" in line and "purple-2 x" in line.split("all: ")[1]
    assert cli.json("status", gid)["version"] == before


def test_kaisers_pirates_d10_shows_0_for_10(cli):
    from service.kernel.chance import validate

    assert validate({"kind": "dice", "sides": 10, "n": 1}, 0) == ([10], None)
    assert validate({"kind": "dice", "sides": 10, "n": 2}, ["0", "7"]) == ([10, 7], None)
    assert validate({"kind": "dice", "sides": 6, "n": 1, "faces": {"skull": 6}}, "Skull") == ([6], None)


def test_two_dice_as_two_words_and_a_named_face(tmp_path, monkeypatch):
    """A tiny game whose setup rolls 2d6 with a named face, then a d10."""
    from service.app import Privateer

    monkeypatch.setenv("PRIVATEER_GAMES", "tests.cli.dice_game")
    app = Privateer(str(tmp_path / "d.db"))
    gid = app.create("dice-test", 1, table=True)
    assert app.load(gid).machine.awaiting_chance()["n"] == 2
    events = app.enter_chances(gid, ["skull", "3", 0])
    rolled = [e.data["values"] for e in events if e.type == "DiceRolled"]
    assert rolled == [[6, 3], [10]]
    assert app.load(gid).machine.s["total"] == 19
    gid2 = app.create("dice-test", 1, table=True)
    import pytest

    from service.kernel.errors import BadInput
    with pytest.raises(BadInput, match="give 2 faces"):
        app.enter_chances(gid2, ["4"])
    with pytest.raises(BadInput, match="not a die face"):
        app.enter_chances(gid2, ["4", "sword"])
    assert app.load(gid2).version == app.load(gid2).version and app.load(gid2).machine.s["total"] == 0

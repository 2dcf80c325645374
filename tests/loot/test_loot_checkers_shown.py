"""Loot pairs: who checks captures is said on screen (issue 33: `checkers` was only in
`log --json`, and referees expected the other reading). The book: "soltanto il primo
giocatore in ogni squadra verifica la conquista di navi mercantili all'inizio del suo turno"
(only the first player of each team checks for captured merchants at the start of their
turn); the reading (RULINGS.md, "Pairs"): seats 1, 3, 5, 7, whoever deals. At a table, four
seats, seat 2 deals: the log line, the text view and the picture name seats 1 and 3."""

from __future__ import annotations


def test_the_seats_that_check_captures_are_said_in_the_log_the_text_and_the_picture(cli, tmp_path):
    gid = cli.ok("new", "loot", "--seats", "4", "--table", "--option", "pairs=true",
                 "--player", "1=Ada", "--player", "3=Cy").strip()
    out = cli.ok("chance", gid, "2")  # seat 2 deals: seat 3 plays first, yet seat 1 checks for team 1
    dealt = next(e for e in cli.json("log", gid) if e["type"] == "DealerChosen")
    assert dealt["data"]["checkers"] == [1, 3]
    assert dealt["text"].endswith("team 1 is seats 1 and 2; team 2 is seats 3 and 4; captures are checked "
                                  "only by seats 1 and 3, at the start of their turns")
    assert "captures are checked" in " ".join(out.split())
    for seat in ([], ["--seat", "2"]):  # the referee's table and a seat's
        text = " ".join(cli.ok("status", gid, "--board", *seat).split())
        assert "seat 1 (Ada) (team 1, checks captures)" in text and "seat 2 (team 1)" in text
        assert "seat 3 (Cy) (team 2, checks captures)" in text and "seat 4 (team 2)" in text
        assert "Captures are checked only by seat 1 (Ada) and seat 3 (Cy), the first player of each team" in text
    picture = tmp_path / "t.svg"
    cli.ok("replay", gid, "--svg", str(picture))
    svg = picture.read_text()
    assert svg.count("checks captures") == 2
    assert "seat 1 (Ada) · checks captures" in svg and "seat 3 (Cy) · checks captures" in svg


def test_the_individual_game_says_nothing_of_checkers(cli):
    gid = cli.ok("new", "loot", "--seats", "3", "--table").strip()
    cli.ok("chance", gid, "1")
    assert "checks captures" not in cli.ok("status", gid, "--board")
    dealt = next(e for e in cli.json("log", gid) if e["type"] == "DealerChosen")
    assert dealt["text"] == "seat 1 deals; seat 2 plays first"

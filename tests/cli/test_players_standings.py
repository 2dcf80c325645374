"""Player names recorded at creation drive tournament standings by player."""

import random

from service.app import Privateer


def test_standings_count_by_player_across_seats(cli, db):
    app = Privateer(db)
    tables = [("Ada", "Bo"), ("Bo", "Cy"), ("Cy", "Ada")]
    expected = {}
    for i, (a, b) in enumerate(tables):
        gid = app.create("letter-of-marque", 2, tournament="cup", players={"1": a, "2": b}, seed=bytes([i]) * 32)
        agg = app.load(gid)
        m, rng = agg.machine, random.Random(i)
        while not m.finished:
            seat = m.to_act()[0]
            agg.record(m.decide(seat, rng.choice(m.legal(seat)), app.chance_for(agg)))
            app.save_game(agg)
        result = m.k["result"]
        for seat, name in (("1", a), ("2", b)):
            row = expected.setdefault(name, {"played": 0, "wins": 0, "points": 0})
            row["played"] += 1
            row["points"] += result["scores"][seat]
            row["wins"] += int(int(seat) in result["winners"])
    app.create("letter-of-marque", 2, tournament="other", players={"1": "Ada", "2": "Zed"})
    rows = cli.json("standings", "--tournament", "cup")
    assert [r["rank"] for r in rows] == [1, 2, 3] and {r["tournament"] for r in rows} == {"cup"}
    got = {r["player"]: {"played": r["played"], "wins": r["wins"], "points": r["points"]} for r in rows}
    assert got == expected


def test_bad_player_flags_are_refused(cli):
    p = cli.run("new", "letter-of-marque", "--seats", "2", "--player", "3=X")
    assert p.returncode == 2 and "not a seat of this game" in p.stderr
    p = cli.run("new", "letter-of-marque", "--seats", "2", "--player", "1=A", "--player", "2=A")
    assert p.returncode == 2 and "only one seat" in p.stderr
    p = cli.run("new", "letter-of-marque", "--seats", "2", "--player", "Ada")
    assert p.returncode == 2 and "SEAT=NAME" in p.stderr
    assert cli.json("games") == []


def test_ranking_counts_named_players_by_wins_then_win_rate():
    from service.projections.model import overall_rows, rank_rows

    def row(player, played, wins, points, game="loot"):
        return {"tournament": "cup", "game": game, "player": player, "played": played, "wins": wins,
                "shared_wins": 0, "win_share": wins, "points": points, "best": points}

    rows = rank_rows([row("Ada", 3, 1, 40), row("Bo", 1, 1, 10), row("seat 2", 5, 4, 90), row("Cy", 2, 0, 30)])
    assert [(r["rank"], r["player"]) for r in rows] == [(1, "Bo"), (2, "Ada"), (3, "Cy")]  # 1 of 1 above 1 of 3
    both = overall_rows([row("Ada", 3, 1, 40), row("Ada", 2, 2, 20, game="letter-of-marque"),
                         row("Bo", 1, 1, 10), row("Bo", 1, 0, 5, game="letter-of-marque")])
    assert [(r["player"], r["game"], r["played"], r["wins"]) for r in both] == [
        ("Ada", "all games", 5, 3), ("Bo", "all games", 2, 1)]


def test_standings_show_the_whole_evening_and_the_unfinished_games(cli, db):
    app = Privateer(db)
    names = {"1": "Ada", "2": "Bo"}
    from service.simulate import simulate

    simulate("letter-of-marque", 2, 2, seed="eve-a", app=app, tournament="eve", players=names)
    simulate("loot", 2, 1, seed="eve-b", app=app, tournament="eve", players=names)
    simulate("loot", 2, 1, seed="eve-c", app=app, tournament="eve")  # nobody named: not in the standings
    open_game = app.create("loot", 2, tournament="eve", players=names, name="table 9")
    text = cli.ok("standings", "--tournament", "eve")
    assert "eve — letter-of-marque" in text and "eve — loot" in text and "eve — all games" in text
    assert "seat 1" not in text.split("columns:")[0]
    assert f"unfinished (1): {open_game.hex[:8]} loot 'table 9'" in text
    overall = cli.json("standings", "--tournament", "eve", "--overall")
    assert {r["player"]: r["played"] for r in overall} == {"Ada": 3, "Bo": 3}
    p = cli.run("new", "loot", "--seats", "2", "--player", "1=seat 2")
    assert p.returncode == 2 and "names a seat" in p.stderr

"""Player names recorded at creation drive tournament standings by player."""

import json
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
            app._save(agg)
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

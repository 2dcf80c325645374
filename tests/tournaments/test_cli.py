"""`tools tournament`: the issue's acceptance run (13 players, 3 rounds of Loot at 4), the same seed
giving the same tournament, its export verified and imported with the same standings, results
entered by hand, drops and late arrivals, and the audit catching a result that is not its game's."""

from __future__ import annotations

import json
import random
from uuid import UUID

import pytest

from service.app import Privateer
from service.records.history import import_game
from service.kernel.errors import BadInput, IllegalDecision
from service.organiser import Organiser
from tests.conftest import Cli


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    cli = Cli(str(tmp_path_factory.mktemp("cup") / "cup.db"))
    out = cli.json("tournament", "simulate", "loot", "--players", "13", "--rounds", "3", "--seats", "4",
                   "--seed", "1")
    return cli, out


def _tables(out):
    return [[sorted(t["players"]) for t in r["tables"]] for r in out["rounds"]]


def test_thirteen_players_three_rounds_of_loot_at_four(run):
    cli, out = run
    players = {f"player {i:02d}" for i in range(1, 14)}
    met_in_round_1 = {}
    for rnd in out["rounds"]:
        seated = [p for t in rnd["tables"] for p in t["players"]]
        assert sorted(seated) == sorted(players) and not rnd["byes"]  # everyone seated once a round
        assert sorted(len(t["players"]) for t in rnd["tables"]) == [3, 3, 3, 4]
        for t in rnd["tables"]:
            for p in t["players"]:
                if rnd["round"] == 1:
                    met_in_round_1[p] = set(t["players"]) - {p}
                elif rnd["round"] == 2:
                    assert not met_in_round_1[p] & set(t["players"])  # nobody meets a round-1 opponent
    assert {r["player"] for r in out["standings"]} == players
    assert [r["rank"] for r in out["standings"]] == list(range(1, 14))  # ties broken by the lot at the latest
    # every table's game finished and audited, every result its game's, the tournament's seatings recomputed
    report = json.loads(cli.run("tournament", "audit", out["tournament_id"], "--json", check=0).stdout)
    assert report["ok"] and len(report["games"]) == 12 and all(g["ok"] for g in report["games"])
    assert "chance checked against the revealed seed" in report["tournament"]["notes"]
    for rnd in out["rounds"]:
        for t in rnd["tables"]:
            status = cli.json("status", t["game_id"])
            assert status["finished"]
    # a tournament is not a game: the games list leaves it out; a whole store's audit takes it in
    assert out["tournament_id"] not in {g["game_id"] for g in cli.json("games")}
    audited = json.loads(cli.run("audit", "--all", "--json", check=0).stdout)
    assert out["tournament_id"] in {r["game_id"] for r in audited} and len(audited) == 13


def test_the_same_seed_gives_the_same_tournament(run, tmp_path):
    _, out = run
    again = Cli(str(tmp_path / "again.db")).json("tournament", "simulate", "loot", "--players", "13", "--rounds",
                                                  "3", "--seats", "4", "--seed", "1")
    assert _tables(again) == _tables(out)
    assert [(t["places"], t["points"]) for r in again["rounds"] for t in r["tables"]] == \
        [(t["places"], t["points"]) for r in out["rounds"] for t in r["tables"]]
    assert again["standings"] == out["standings"]


def test_export_verifies_and_imports_with_the_same_standings(run, tmp_path):
    cli, out = run
    tid = out["tournament_id"]
    path = str(tmp_path / "cup.pgame")
    cli.ok("tournament", "export", tid, "-o", path, "--games", str(tmp_path / "games"))
    (tmp_path / "key.json").write_text(cli.ok("key", "--json"))
    assert cli.ok("verify", path, "--key", str(tmp_path / "key.json")).startswith("ok:")
    other = Cli(str(tmp_path / "other.db"))
    assert other.ok("import", path).strip() == tid
    there = Organiser(Privateer(other.db))
    for game in sorted((tmp_path / "games").iterdir()):
        import_game(there.app, str(game))
    here = Organiser(Privateer(cli.db))
    gid = UUID(tid)
    for round_ in (1, 2, 3, None):
        assert there.standings(gid, round_) == here.standings(gid, round_)
    # (each file was audited whole before it was stored: import_game refuses what does not verify)


def test_by_hand_drops_late_arrivals_and_refusals(db, cli):
    desk = Organiser(Privateer(db))
    tid = desk.new("letter-of-marque", table=3, rounds=2, points="win", name="league")
    for p in ("Ada", "Bo", "Cy", "Dee", "Eve"):
        desk.register(tid, p)
    with pytest.raises(IllegalDecision, match="^Ada is registered already$"):
        desk.register(tid, "Ada")
    seated = desk.seat(tid, {1: "hand", 2: "hand"})
    assert [len(t["players"]) for t in seated["tables"]] == [3, 2] and all(t["mode"] == "hand" for t in seated["tables"])
    desk.register(tid, "Fay")  # late: from round 2
    table, pair = seated["tables"][0]["players"], seated["tables"][1]["players"]
    # the command line's one-line refusals, nothing appended
    t = tid.hex
    version = desk.view(tid)["version"]
    assert cli.run("tournament", "result", t, "--table", "1", *[f"--place={p}=1" for p in table], check=2).stderr \
        == "error: a result entered by hand needs --reason\n"
    assert cli.run("tournament", "result", t, "--table", "1", check=3).stderr.startswith("error: table 1 plays no game")
    assert cli.run("tournament", "close", t, check=3).stderr == "error: round 1 still awaits the result of tables 1, 2\n"
    assert desk.view(tid)["version"] == version
    cli.ok("tournament", "result", t, "--table", "1", f"--place={table[0]}=1", f"--place={table[1]}=2",
           f"--place={table[2]}=2", "--reason", "played on paper")
    desk.result_by_hand(tid, 2, {pair[0]: 2, pair[1]: 1}, "played on paper")
    desk.close(tid)
    desk.drop(tid, pair[0], "went home")
    second = desk.seat(tid)
    assert sorted(p for t in second["tables"] for p in t["players"]) == sorted({"Ada", "Bo", "Cy", "Dee", "Eve", "Fay"}
                                                                              - {pair[0]})
    assert all(t["game_id"] and t["mode"] == "service" for t in second["tables"])
    assert {r["player"]: r["points"] for r in desk.standings(tid, 1)}[table[0]] == 1
    with pytest.raises(BadInput, match=r"^round 2 is not closed \(closed: 1\)$"):
        desk.standings(tid, 2)
    game = second["tables"][0]["game_id"]
    assert cli.run("tournament", "show", game, check=5).stderr == f"error: no tournament with id {game}\n"
    assert cli.run("tournament", "new", "chess", check=2).stderr.startswith("error: unknown game 'chess'")


def test_the_audit_finds_a_result_that_is_not_its_games(db):
    desk = Organiser(Privateer(db))
    tid = desk.new("loot", table=2, rounds=1, name="forged")
    desk.register(tid, "Ada")
    desk.register(tid, "Bo")
    table = desk.seat(tid)["tables"][0]
    with pytest.raises(IllegalDecision, match="is not finished"):
        desk.result_from_game(tid, 1)
    desk.play_with_bots(table["game_id"], random.Random(1))
    truth = desk._from_game(dict(table, result=None))
    # the loser made the winner (a shared win, which an unseeded table game may end in: one of them alone)
    loser = next((p for p in table["players"] if p not in truth["winners"]), None)
    forged_winners = [loser] if loser is not None else table["players"][:1]
    forged = {**truth, "table": 1, "winners": forged_winners, "scores": {**truth["scores"], forged_winners[0]: 99}}
    desk.decide(tid, forged)  # the rules cannot read the game: the audit does
    report = desk.audit(tid)
    assert not report["ok"] and report["tournament"]["ok"]
    assert report["findings"] == [f"round 1, table 1: the result recorded is not game {table['game_id']}'s"]

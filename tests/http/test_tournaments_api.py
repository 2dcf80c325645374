"""The tournament API: the organiser's key for every change (nothing appended without it), public
reads, a tournament kept out of the games list and the games offered, table results by hand and
from a game played by bots, and one-line refusals."""

from __future__ import annotations

import time

from service.http.client import Api


def test_the_organisers_key_public_reads_and_a_round_played_by_bots(server, organiser, public):
    refused = public.post("/tournaments", {"game": "loot", "table": 2})
    assert refused.status_code == 401
    assert Api(server.url, "not-the-key").post("/tournaments", {"game": "loot"}).status_code == 403
    assert organiser.post("/tournaments", {"game": "chess"}).json()["reason"].startswith("unknown game 'chess'")
    tid = organiser.ok(organiser.post("/tournaments", {"game": "loot", "table": 2, "rounds": 1, "points": "win",
                                                       "name": "api cup"}), 201)["tournament_id"]
    for name in ("Ada", "Bo", "Cy"):
        organiser.ok(organiser.post(f"/tournaments/{tid}/players", {"player": name}), 201)
    assert public.post(f"/tournaments/{tid}/players", {"player": "Dee"}).status_code == 401
    # nothing of the tournament among the games, nor among the games a tournament could play
    assert tid not in {g["game_id"] for g in public.ok(public.get("/games"))}
    assert "tournament" not in {k["game"] for k in public.ok(public.get("/rules"))}
    bad = organiser.post(f"/tournaments/{tid}/rounds", {"tables": {"1": "dice"}})
    assert bad.status_code == 400 and bad.json()["reason"] == "table 1: a table is played by people, bots, table, hand"
    beyond = organiser.post(f"/tournaments/{tid}/rounds", {"tables": {"2": "bots"}})
    assert beyond.status_code == 400 and beyond.json()["reason"] == "round 1 would have tables 1 to 1"
    assert organiser.post(f"/tournaments/{tid}/rounds", {"tables": {"²": "bots"}}).status_code == 400
    assert public.ok(public.get(f"/tournaments/{tid}"))["version"] == 9  # nothing appended by the refusals
    seated = organiser.ok(organiser.post(f"/tournaments/{tid}/rounds", {"tables": {"1": "bots"}}), 201)
    table = seated["tables"][0]
    assert len(table["players"]) == 2 and table["how"] == "bots" and not table["links"] and seated["byes"]
    premature = organiser.post(f"/tournaments/{tid}/close")
    assert premature.status_code == 422 and premature.json()["reason"] == "round 1 still awaits the result of table 1"
    deadline = time.monotonic() + 60
    while not public.ok(public.get(f"/tournaments/{tid}"))["rounds"][0]["tables"][0]["game"]["finished"]:
        assert time.monotonic() < deadline, "the bots never finished their game"
        time.sleep(0.2)
    view = organiser.ok(organiser.post(f"/tournaments/{tid}/close"))
    result = view["rounds"][0]["tables"][0]["result"]
    assert result["game_id"] == table["game_id"] and sorted(result["places"].values()) in ([1, 1], [1, 2])
    assert [r["player"] for r in view["rounds"][0]["standings"]] and view["next"] == ["finish"]
    done = organiser.ok(organiser.post(f"/tournaments/{tid}/finish"))
    assert done["finished"]
    assert public.ok(public.get(f"/tournaments/{tid}/standings", params={"round": 1})) == done["rounds"][0]["standings"]
    # a game's id is no tournament's, and says nothing more of the game (a private fork stays unknown)
    missing = public.get(f"/tournaments/{table['game_id']}")
    assert missing.status_code == 404 and missing.json()["reason"] == f"no tournament with id {table['game_id']}"
    # the bye scored the first place's points
    bye = seated["byes"][0]
    assert {r["player"]: r["points"] for r in done["standings"]}[bye] == 1

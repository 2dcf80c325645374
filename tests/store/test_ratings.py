"""Standings' rating (openskill's Plackett-Luce): a player who beats the others
game after game rates highest, per game kind and over the tournament, and the
figure is the same from the same games (a read model rebuilt from scratch, on
SQLite and PostgreSQL alike, gives it again)."""

from __future__ import annotations

import random

from service.app import Privateer
from service.projections import catch_up, open_view, rebuild
from service.projections.model import ALL_GAMES, overall_rows, ratings
from service.simulate import simulate


def results(rng, games=8):
    """Four players; Ada wins every game, the others' places shuffled; a tie now and then."""
    rows = []
    for i in range(games):
        others = ["Bo", "Cy", "Di"]
        rng.shuffle(others)
        scores = {"Ada": 30, others[0]: 20, others[1]: 10, others[2]: 10 if i % 3 == 0 else 5}
        seats = ["Ada", *others]
        rng.shuffle(seats)
        for seat, player in enumerate(seats, 1):
            rows.append({"game_id": f"g{i:02d}", "seat": seat, "player": player, "tournament": "t",
                         "game": "loot", "score": scores[player], "winner": int(player == "Ada"),
                         "finished_at": f"2026-11-27T00:{i:02d}:00+00:00"})
    return rows


def test_a_player_who_beats_the_others_rates_highest_and_the_figure_is_deterministic():
    rows = results(random.Random(1))
    rated = ratings(rows)
    for kind in ("loot", ALL_GAMES):
        mine = {p: rated[("t", kind, p)] for p in ("Ada", "Bo", "Cy", "Di")}
        assert max(mine, key=mine.get) == "Ada" and all(mine["Ada"] > v for p, v in mine.items() if p != "Ada")
    assert ratings(rows) == rated
    assert ratings(list(reversed(rows))) == rated  # the order the games finished in, not the rows' order
    # the order of the games matters: the same results finished in another order rate otherwise
    moved = [dict(r, finished_at=f"2026-11-27T01:{99 - int(r['game_id'][1:]):02d}:00+00:00") for r in rows]
    assert ratings(moved) != rated and ratings(moved)[("t", "loot", "Ada")] > 0
    # unnamed seats are newcomers each game, never rated
    anon = [dict(r, player=f"seat {r['seat']}") if r["player"] == "Di" else r for r in rows]
    assert not any(k[2].startswith("seat ") for k in ratings(anon))


def test_standings_show_the_rating_from_the_read_model_the_same_after_a_rebuild(store):
    app = store.app()
    simulate("letter-of-marque", 3, 3, seed="rate-a", app=app, tournament="r", players={"1": "Ada", "2": "Bo", "3": "Cy"})
    simulate("loot", 3, 2, seed="rate-b", app=app, tournament="r", players={"1": "Cy", "2": "Ada", "3": "Bo"})
    view = open_view(app)
    try:
        catch_up(app, view)
        rated = view.ratings("r")
        rows = view.standings("r")
        assert {(r["game"], r["player"]) for r in rows} == {(g, p) for g in ("letter-of-marque", "loot")
                                                            for p in ("Ada", "Bo", "Cy")}
        assert all(r["rating"] == rated[(r["tournament"], r["game"], r["player"])] for r in rows)
        total = overall_rows(rows, rated)
        assert all(r["rating"] == rated[("r", ALL_GAMES, r["player"])] for r in total)
        # the player with the most wins over the tournament rates above the one with the fewest
        best = max(total, key=lambda r: (r["win_share"], -r["rank"]))
        worst = min(total, key=lambda r: r["win_share"])
        if best["win_share"] > worst["win_share"]:
            assert best["rating"] > worst["rating"]
    finally:
        view.close()
    rebuild(app)
    view = open_view(app)
    try:
        assert view.standings("r") == rows
    finally:
        view.close()


def test_the_public_log_of_the_read_model_says_decisions_in_words(tmp_path):
    from uuid import UUID

    from service.kernel.games import get_rules

    app = Privateer(str(tmp_path / "w.db"))
    [gid] = simulate("loot", 3, 1, seed="words", app=app)["game_ids"]
    view = open_view(app)
    try:
        catch_up(app, view)
        rows = [r for r in view.dump()["proj_events"] if r["game_id"] == gid and r["type"] == "Decided"]
    finally:
        view.close()
    created = app.stored_events(UUID(gid))[0].data
    said = [e for e in app.stored_events(UUID(gid)) if e.type == "Decided" and e.visible_to == "all"
            and e.data["seat"]]
    assert rows and len(rows) == len(said) + 1  # and the setup
    rules = get_rules("loot")
    assert [r["text"] for r in rows[1:]] == [f"seat {e.data['seat']} decides: "
                                              f"{rules.say_decision(created, e.data['decision'])}" for e in said]

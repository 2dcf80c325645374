"""Standings for a small recorded tournament match a hand computation from the
games' recorded final scores; rebuilding from scratch gives the same tables;
catching up twice, or with two runners at once, applies each event once."""

from __future__ import annotations

import hashlib
import json
import random
import threading
from collections import defaultdict

from service.records.history import fork
from service.kernel.local import LocalGame
from service.projections import catch_up, open_view, rebuild

from .helpers import play, play_partly


def dump(app) -> dict:
    view = open_view(app)
    try:
        return view.dump()
    finally:
        view.close()


def assert_rebuild_builds_the_same(app) -> None:
    """The read model as it stands is the one a rebuild from the first event makes."""
    before = dump(app)
    rebuild(app)
    assert dump(app) == before


def shared_victory_seed() -> str:
    """A `simulate --seed` string whose first 2-seat game ends in a shared victory."""
    for i in range(500):
        s = f"shared-{i}"
        material = hashlib.sha256(f"{s}:0".encode()).digest()
        g = LocalGame("letter-of-marque", 2, seed=material)
        g.play_out(random.Random(material))
        if len(g.machine.k["result"]["winners"]) > 1:
            return s
    raise AssertionError("no shared victory in 500 seeds")


THREE = {"1": "Ada", "2": "Bo", "3": "Cy"}
TWO = {"1": "Cy", "2": "Ada"}


def record_tournament(app) -> list:
    games = []
    games += play(app, seats=3, games=3, seed="cup-a", tournament="cup", players=THREE)
    games += play(app, seats=2, games=1, seed=shared_victory_seed(), tournament="cup", players=TWO)
    games += play(app, seats=2, games=2, seed="cup-b", tournament="cup")  # nobody named: no players
    games += play(app, seats=3, games=1, seed="other", tournament="friendly", players=THREE)
    # an unfinished game and a finished fork: neither counts
    unfinished = app.create("letter-of-marque", 2, tournament="cup")
    play_partly(app, unfinished, 4)
    child = fork(app, games[0], at_turn=3)
    while not app.fold(child)[0].finished:
        play_partly(app, child, 50)
    return games


def by_hand(app, games, tournament) -> list[dict]:
    """Standings computed straight from each finished game's recorded scores."""
    acc = defaultdict(lambda: {"played": 0, "wins": 0, "shared_wins": 0, "win_share": 0.0, "points": 0,
                               "best": None})
    for gid in games:
        m, _, _ = app.fold(gid)
        if m.config["tournament"] != tournament:
            continue
        result = m.k["result"]
        winners = result["winners"]
        names = m.config.get("players") or {}
        for seat, score in result["scores"].items():
            if seat not in names:
                continue  # a seat nobody named is not a player
            a = acc[names[seat]]
            a["played"] += 1
            a["points"] += score
            a["best"] = score if a["best"] is None else max(a["best"], score)
            if int(seat) in winners:
                a["wins"] += 1
                a["shared_wins"] += len(winners) > 1
                a["win_share"] += 1 / len(winners)
    rows = sorted(acc.items(), key=lambda kv: (-kv[1]["win_share"], -kv[1]["win_share"] / kv[1]["played"],
                                               -kv[1]["points"] / kv[1]["played"], kv[0]))
    return [{"player": p, "played": a["played"], "wins": a["wins"], "shared_wins": a["shared_wins"],
             "win_share": round(a["win_share"], 4), "points": a["points"], "best": a["best"],
             "avg_points": round(a["points"] / a["played"], 2)} for p, a in rows]


def test_standings_match_hand_computation_and_rebuild(store):
    app = store.app()
    games = record_tournament(app)
    got = json.loads(store.cli("standings", "--tournament", "cup", "--json").stdout)
    want = by_hand(app, games, "cup")
    assert any(r["shared_wins"] for r in want)  # the shared-victory rule is exercised
    assert [{k: r[k] for k in want[0]} for r in got] == want
    assert [r["rank"] for r in got] == sorted(r["rank"] for r in got) and got[0]["rank"] == 1
    assert {r["tournament"] for r in got} == {"cup"}
    everything = json.loads(store.cli("standings", "--json").stdout)
    assert {r["tournament"] for r in everything} == {"cup", "friendly"}
    # per-game scores: one row per seat of each finished game, forks not counted
    view = open_view(app)
    try:
        before = view.dump()
    finally:
        view.close()
    finished = [g for g in games]
    counted = [r for r in before["proj_scores"] if r["counted"]]
    assert {r["game_id"] for r in counted} == {g.hex for g in finished}
    assert len([r for r in before["proj_scores"] if not r["counted"]]) == 3  # the fork
    assert len(before["proj_games"]) == len(games) + 2
    # rebuild from scratch: the very same tables
    store.cli("projections", "rebuild")
    view = open_view(app)
    try:
        assert view.dump() == before
        # exactly once: catching up again changes nothing
        assert catch_up(app, view)["events"] == 0
        assert view.dump() == before
    finally:
        view.close()


def test_two_runners_at_once_apply_each_event_once(store):
    app = store.app()
    record_tournament(app)
    reference = rebuild(app)
    view = open_view(app)
    try:
        want = view.dump()
        view.drop()
    finally:
        view.close()
    errors = []

    def runner():
        a = store.app()
        try:
            catch_up(a, batch_size=50)
        except Exception as e:  # noqa: BLE001 - the thread's error, asserted on below  # pragma: no cover
            errors.append(e)

    threads = [threading.Thread(target=runner) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors
    view = open_view(app)
    try:
        assert view.dump() == want
        assert view.position("privateer") == reference["position"]
    finally:
        view.close()


def test_new_games_are_picked_up(store):
    app = store.app()
    play(app, seats=2, games=1, seed="late-1", tournament="t", players=TWO)
    first = json.loads(store.cli("standings", "--json").stdout)
    assert sum(r["played"] for r in first) == 2
    play(app, seats=2, games=2, seed="late-2", tournament="t", players=TWO)
    again = json.loads(store.cli("standings", "--tournament", "t", "--json").stdout)
    assert sum(r["played"] for r in again) == 6
    store.cli("projections", "update")
    assert "no finished games" in store.cli("standings", "--tournament", "nobody").stdout


def test_postgres_follow_live(pg_store):
    """`tools projections follow`: the library's ProjectionRunner applies new
    games as they are committed, without any catch-up call."""
    import subprocess
    import sys
    import time

    from .conftest import PG_BASE

    app = pg_store.app()
    play(app, seats=2, games=1, seed="before", tournament="live")
    p = subprocess.Popen([sys.executable, "-m", "tools", "projections", "follow", "--seconds", "60"],
                         env=pg_store.env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        schema = pg_store.url.split("schema=")[1]
        import psycopg

        def played() -> int:
            with psycopg.connect(PG_BASE, autocommit=True) as conn:
                try:
                    row = conn.execute(f'SELECT SUM(played) FROM "{schema}".proj_standings '
                                       "WHERE tournament = 'live'").fetchone()
                except psycopg.errors.UndefinedTable:
                    return 0
            return row[0] or 0

        deadline = time.monotonic() + 300  # a ceiling for a follower that hangs, not a start-up limit
        while played() < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert played() == 2
        play(app, seats=2, games=2, seed="after", tournament="live")  # while it follows
        deadline = time.monotonic() + 300
        while played() < 6 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert played() == 6
        assert p.poll() is None
    finally:
        p.terminate()
        p.wait(20)
        p.stdout.close()
        p.stderr.close()
    assert_rebuild_builds_the_same(app)  # what it built is what a rebuild from scratch builds


def test_the_public_log_and_board_are_rows_to_browse(store):
    """proj_events holds each game's public events as readable rows, numbered in
    the public's own sequence (never store versions, which would count the hidden
    events between), without the referee-only fields; proj_boards the public board."""
    from uuid import UUID

    from service.views import board, log_entries

    app = store.app()
    [gid] = play(app, game="loot", seats=3, seed="browse", players=THREE)
    catch_up(app)
    view = open_view(app)
    try:
        tables = view.dump()
    finally:
        view.close()
    rows = [r for r in tables["proj_events"] if r["game_id"] == gid.hex]
    machine, version, _ = app.fold(gid)
    public = log_entries(machine.rules, app.stored_events(gid), 0)
    assert [(r["seq"], r["turn"], r["type"]) for r in rows] == [(e["version"], e["turn"], e["type"]) for e in public]
    assert [json.loads(r["data"]) for r in rows][1:] == [e["data"] for e in public][1:]
    assert all(not ({"index", "counter", "draws"} & set(json.loads(r["data"]))) for r in rows)
    assert len(rows) < version  # the hidden events (dealt cards) are not there
    [b] = [r for r in tables["proj_boards"] if r["game_id"] == gid.hex]
    want = board(UUID(gid.hex), machine, version, 0)
    assert (b["version"], b["turn"], json.loads(b["board"])) == (want["version"], want["turn"],
                                                                json.loads(json.dumps(want["board"], default=str)))


def test_a_batch_reads_each_game_it_continues_from_the_read_model_once_and_progress_is_told(store):
    app = store.app()
    games = [app.create("letter-of-marque", 2, tournament="cup") for _ in range(2)]
    for gid in games:
        play_partly(app, gid, 2)
    calls = []
    stats = catch_up(app, batch_size=5, progress=lambda done, total: calls.append((done, total)))
    assert len(calls) > 2 and calls == sorted(calls)   # a bar that moves forward, batch by batch
    assert calls[-1] == (stats["events"], stats["events"])  # both games are in the read model now
    for gid in games:
        play_partly(app, gid, 30)      # dozens of public events each, caught up in one batch
    view = open_view(app)
    asked = []
    lookup = view.lookup
    view.lookup = lambda gid: asked.append(gid) or lookup(gid)
    try:
        assert catch_up(app, view)["events"] > 40
    finally:
        view.close()
    assert sorted(asked) == sorted(g.hex for g in games)
    assert_rebuild_builds_the_same(app)


def test_a_read_model_worded_by_an_older_build_is_rebuilt_once(store):
    """proj_events keeps each public event's text as ``tools log`` words it. When the
    wording changes (``views.LOG_TEXT_VERSION``), a read model an older build wrote is
    rebuilt on its next catch-up, once: its rows are then a rebuild's, in today's words."""
    from service.projections.runner import TEXT_STAMP
    from service.views import LOG_TEXT_VERSION

    app = store.app()
    play(app, game="loot", seats=3, seed="old-words", players=THREE)
    catch_up(app)
    today = dump(app)
    view = open_view(app)
    try:
        assert view.position(TEXT_STAMP) == LOG_TEXT_VERSION
        view.drop()                                    # an older build's read model: no stamp, other words
        catch_up(app, view)
        _unstamp(view, TEXT_STAMP)
        _reword(view)
        assert view.position(TEXT_STAMP) is None and view.dump() != today
        first = catch_up(app, view)
        assert first["rebuilt"] and first["events"] > 0
        assert view.dump() == today and view.position(TEXT_STAMP) == LOG_TEXT_VERSION
        again = catch_up(app, view)
        assert not again["rebuilt"] and again["events"] == 0
    finally:
        view.close()
    out = store.cli("projections", "update")
    assert "rebuilt" not in out.stdout


def _unstamp(view, name):
    if hasattr(view, "conn"):  # SQLite
        with view.conn:
            view.conn.execute("DELETE FROM proj_tracking WHERE application_name = ?", (name,))
        return
    from psycopg.sql import SQL, Identifier

    with view.datastore.transaction(commit=True) as curs:
        curs.execute(SQL("DELETE FROM {}.{} WHERE application_name = %s").format(
            Identifier(view.datastore.schema), Identifier(view.tracking_table_name)), (name,))


def _reword(view):
    """Every public event's text as an older build might have worded it."""
    if hasattr(view, "conn"):
        with view.conn:
            view.conn.execute("UPDATE proj_events SET text = 'old words: ' || text")
        return
    with view.datastore.transaction(commit=True) as curs:
        curs.execute(view.search_path)
        curs.execute("UPDATE proj_events SET text = 'old words: ' || text")

"""Live streams are woken by this process's commits (service/http/changes.py)
instead of polling the games index ten times a second."""

import asyncio
import time
import uuid
from uuid import UUID

from service.app import Privateer
from service.http.core import GameService

from ..needs import drop_schema, schema_url


def test_a_commit_wakes_the_streams_of_that_game_and_no_other(tmp_path):
    svc = GameService(Privateer(str(tmp_path / "w.db")), "organiser-key")
    gid = svc.games.create({"game": "letter-of-marque", "seats": 2})["game_id"]
    other = svc.games.create({"game": "letter-of-marque", "seats": 2})["game_id"]

    async def main():
        loop = asyncio.get_running_loop()
        with svc.changes.watch(gid) as mine, svc.changes.watch(other) as theirs:
            assert svc.changes.watched() == 2
            game = svc.current.working_copy(UUID(gid))
            m = game.machine
            seat = m.to_act()[0]
            game.record(m.decide(seat, m.legal(seat)[0], svc.app.chance_for(game)))
            assert not mine.is_set()
            await loop.run_in_executor(None, svc.steps.save, game)  # saved from a worker thread, as a request is
            await asyncio.sleep(0)
            assert mine.is_set() and not theirs.is_set()
        assert svc.changes.watched() == 0  # a closed stream is forgotten

    asyncio.run(main())


def _listening(*services, seconds: float = 60.0) -> None:
    """Wait until the servers' followers of the log (service/http/changes.py) follow it."""
    deadline = time.monotonic() + seconds
    while not all(s.app.recorder.heard.hearing for s in services):
        assert time.monotonic() < deadline, f"{seconds} s without every server following the log"
        time.sleep(0.02)


def test_on_postgresql_another_servers_commit_wakes_the_stream_and_another_schemas_does_not(postgresql):
    """Two servers on one PostgreSQL database (two GameServices, as two processes would
    be): a commit made through the second wakes the first one's stream of that game, by
    following the log, and a commit to the same game id in another schema wakes nothing."""
    schemas = [f"wake_{uuid.uuid4().hex[:10]}" for _ in range(2)]
    a = GameService(Privateer(schema_url(schemas[0])), "org")
    b = GameService(Privateer(schema_url(schemas[0])), "org")
    elsewhere = GameService(Privateer(schema_url(schemas[1])), "org")
    try:
        _listening(a, b)  # a's follower of the log (and b's) has started
        gid = a.games.create({"game": "letter-of-marque", "seats": 2})["game_id"]
        gid2 = elsewhere.games.create({"game": "letter-of-marque", "seats": 2})["game_id"]

        def play_one(svc, game_id):
            game = svc.current.working_copy(UUID(game_id))
            m = game.machine
            seat = m.to_act()[0]
            game.record(m.decide(seat, m.legal(seat)[0], svc.app.chance_for(game)))
            svc.steps.save(game)

        async def wakes_a(svc, game_id, wait) -> bool:
            loop = asyncio.get_running_loop()
            with a.changes.watch(game_id) as event:
                await loop.run_in_executor(None, play_one, svc, game_id)
                try:
                    await asyncio.wait_for(event.wait(), timeout=wait)
                    return True
                except asyncio.TimeoutError:
                    return False

        assert asyncio.run(wakes_a(b, gid, 60))          # b's commit, seen by a's listener
        assert not asyncio.run(wakes_a(elsewhere, gid2, 1.5))   # another schema's commit: not a's
        assert a.changes.watched() == 0
    finally:
        for s in (a, b, elsewhere):
            s.close()
        for schema in schemas:
            drop_schema(schema)

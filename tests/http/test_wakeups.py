"""Live streams are woken by this process's commits (service/http/changes.py)
instead of polling the games index ten times a second."""

import asyncio
from uuid import UUID

from service.app import Privateer
from service.http.core import GameService


def test_a_commit_wakes_the_streams_of_that_game_and_no_other(tmp_path):
    svc = GameService(Privateer(str(tmp_path / "w.db")), "organiser-key")
    gid = svc.create({"game": "letter-of-marque", "seats": 2})["game_id"]
    other = svc.create({"game": "letter-of-marque", "seats": 2})["game_id"]

    async def main():
        loop = asyncio.get_running_loop()
        with svc.changes.watch(gid) as mine, svc.changes.watch(other) as theirs:
            assert svc.changes.watched() == 2
            game = svc.working_copy(UUID(gid))
            m = game.machine
            seat = m.to_act()[0]
            game.record(m.decide(seat, m.legal(seat)[0], svc.app.chance_for(game)))
            assert not mine.is_set()
            await loop.run_in_executor(None, svc.save, game)  # saved from a worker thread, as a request is
            await asyncio.sleep(0)
            assert mine.is_set() and not theirs.is_set()
        assert svc.changes.watched() == 0  # a closed stream is forgotten

    asyncio.run(main())

"""The service's commits off the event loop (service/http/committer.py): on an
SQLite file each step goes to the commit process and is answered when it is
acknowledged; a step that fails fails alone, and the steps sent after it are
committed all the same; a process that dies fails only the steps it had not
acknowledged, and the next step starts a new one."""

import asyncio
import os
import signal
from uuid import UUID

import pytest

from service.app import Privateer
from service.http.committer import Committer
from service.http.core import GameService
from service.kernel.errors import StaleVersion


def _game(svc):
    return UUID(svc.games.create({"game": "letter-of-marque", "seats": 2})["game_id"])


def _step(svc, gid, seat=1):
    """The next decision of ``seat`` on the game as committed: a prepared step."""
    game = svc.current.working_copy(gid)
    game.record(game.machine.decide(seat, game.machine.legal(seat)[0], svc.app.chance_for(game)))
    return svc.app.prepare(game)


def _run(coroutine):
    """Run on a new loop; a commit never answered fails the test instead of hanging it."""
    return asyncio.run(asyncio.wait_for(coroutine, 60))


def _versions(app, gid):
    return [e.originator_version for e in app.stored_events(gid)]


@pytest.fixture
def svc(tmp_path):
    s = GameService(Privateer(str(tmp_path / "c.db")), "org")
    yield s
    s.close()


def test_a_stale_step_fails_alone_and_the_steps_after_it_are_committed(svc):
    a, b, c = _game(svc), _game(svc), _game(svc)
    stale = _step(svc, a)
    svc.app.commit(_step(svc, a, seat=2))  # game a moves on: the step made before is stale
    before = {g: _versions(svc.app, g) for g in (a, b, c)}
    steps = [stale, _step(svc, b), _step(svc, c)]

    async def run():
        return await asyncio.gather(*(svc.committer.commit(p) for p in steps), return_exceptions=True)

    out = _run(run())
    assert svc.committer._file is not None and svc.committer._process is not None  # the commit process did it
    assert isinstance(out[0], StaleVersion) and out[1:] == [None, None]
    assert _versions(svc.app, a) == before[a]  # nothing of the stale step
    for g, p in ((b, steps[1]), (c, steps[2])):
        assert _versions(svc.app, g) == before[g] + [r.originator_version for r in p.rows]
    # and the next step goes to a new process
    more = _step(svc, b, seat=2)
    _run(svc.committer.commit(more))
    assert _versions(svc.app, b)[-1] == more.rows[-1].originator_version


def test_a_process_that_dies_fails_what_it_had_not_acknowledged(svc):
    a = _game(svc)
    committer: Committer = svc.committer

    async def run():
        await committer.commit(_step(svc, a))  # the process is up
        os.kill(committer._process._proc.pid, signal.SIGKILL)
        committer._process._proc.wait()
        with pytest.raises(Exception) as failed:
            await committer.commit(_step(svc, a, seat=2))
        assert "commit process" in str(failed.value)
        await committer.commit(_step(svc, a, seat=2))  # a new process

    _run(run())
    assert svc.app.fold(a)[1] == _versions(svc.app, a)[-1]
    assert committer._process is None or committer._process._proc.poll() is None


def test_steps_are_answered_after_their_commit_in_the_order_sent(svc):
    games = [_game(svc) for _ in range(6)]
    steps = [_step(svc, g) for g in games]
    done = []

    async def one(i):
        await svc.committer.commit(steps[i])
        # answered only once stored: a reader sees it
        assert _versions(svc.app, games[i])[-1] == steps[i].rows[-1].originator_version
        done.append(i)

    async def run():
        await asyncio.gather(*(one(i) for i in range(len(steps))))

    _run(run())
    assert done == list(range(len(steps)))

"""A real `tools serve` process on a free port, shared by the HTTP tests
(each test uses its own games), and clients holding credentials."""

import pytest

from service.http.client import Api, ServerProcess

QUICK_BOTS = {"PRIVATEER_BOT_QUANTUM": "0"}  # bots decide at once here (their timing: test_bot_timing.py)


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("http") / "service.db")
    srv = ServerProcess(db, env=QUICK_BOTS).start()
    yield srv
    srv.stop()


@pytest.fixture
def organiser(server):
    api = Api(server.url, server.key)
    yield api
    api.close()


@pytest.fixture
def public(server):
    api = Api(server.url)
    yield api
    api.close()


class Table:
    """A game with every seat taken: ``seats[n]`` is seat n's client."""

    def __init__(self, server, organiser, game, seats, **kw):
        created = organiser.create(game, seats, **kw)
        self.gid = created["game_id"]
        self.referee_key = created["referee_key"]
        self.server = server
        self.tokens = {}
        self.seats = {}
        for n in range(1, seats + 1):
            joined = Api(server.url).join(self.gid, n, organiser.invite(self.gid, n))
            self.tokens[n] = joined["token"]
            self.seats[n] = Api(server.url, joined["token"])
        self.referee = Api(server.url, self.referee_key)

    def close(self):
        for c in self.seats.values():
            c.close()
        self.referee.close()


@pytest.fixture
def table_factory(server, organiser):
    made = []

    def make(game="letter-of-marque", seats=3, **kw):
        t = Table(server, organiser, game, seats, **kw)
        made.append(t)
        return t

    yield make
    for t in made:
        t.close()

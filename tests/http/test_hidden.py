"""Property: over random games played through the API, nothing a seat receives
(responses to its decisions, its view, its legal decisions, its log, its live
stream) holds another seat's hidden information, and spectators get public
facts only. Hidden: Letter of Marque's unrevealed ship bases and reserves;
Loot's hands and draw pile."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.http.client import read_stream

from .conftest import Table
from .helpers import play, vis_ok

GAMES = {"letter-of-marque": (2, 4), "loot": (2, 5)}


SIDE_FIELDS = {"index", "counter", "draws"}
CHANCE = {"DiceRolled", "CardDrawn", "ChanceChosen", "DeckShuffled"}


def check_events(events, seat, colours, game):
    for e in events:
        assert vis_ok(e["visible_to"], seat), (seat, e)
        if e["type"] in CHANCE:  # no rank among the cards left, no stream position
            assert not SIDE_FIELDS & set(e["data"]), (seat, e)
        if game == "letter-of-marque":
            if e["type"] == "ShipBaseChosen":
                assert seat != 0 and e["data"]["ship"].startswith(colours[seat] + "-"), (seat, e)
            if e["type"] == "Decided" and e["data"]["seat"] not in (0, seat):
                assert "armed" not in e["data"]["decision"], (seat, e)


def check_view(board, seat, game):
    b = board["board"]
    if game == "letter-of-marque":
        for ship in b["sea"]:
            if ship["owner"] != seat and not ship["revealed"]:
                assert ship["armed"] == "hidden", (seat, ship)
        for n, p in b["players"].items():
            if int(n) != seat:
                assert set(p["reserve"]) == {"ships"}, (seat, p)
            assert "deck_cards" not in p
    elif game == "loot":
        assert "draw_pile_cards" not in b
        for n, p in b["players"].items():
            if int(n) != seat and not (b["pairs"] and p["partner"] == seat):
                assert p["hand"] is None, (seat, n, p)


def get(client, path, **params):
    r = client.get(path, params=params)
    assert r.status_code == 200, r.text
    return r.json()


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_no_seat_sees_another_seats_secrets(server, organiser, public, data):
    available = public.get("/health").json()["games"]
    game = data.draw(st.sampled_from([g for g in GAMES if g in available]), label="game")
    lo, hi = GAMES[game]
    seats = data.draw(st.integers(lo, min(hi, 3)), label="seats")
    # a plain seed: the server draws its own chance, so the decisions on offer differ run to run
    rng = random.Random(data.draw(st.integers(0, 2**32), label="seed"))
    table = Table(server, organiser, game, seats)
    gid = table.gid
    colours = {}
    if game == "letter-of-marque":
        players = get(table.referee, f"/games/{gid}/view")["board"]["players"]
        colours = {int(n): p["colour"] for n, p in players.items()}
    viewers = dict(table.seats)
    viewers[0] = public

    steps = [0]

    def on_step(seat, body):
        check_events(body["events"], seat, colours, game)
        steps[0] += 1
        if steps[0] % 4 and steps[0] > 6:
            return  # every step at the start, then every 4th (the test must stay fast)
        for s, client in viewers.items():
            check_view(get(client, f"/games/{gid}/view"), s, game)
            log = get(client, f"/games/{gid}/log", limit=1000)
            check_events(log["events"], s, colours, game)
            # the seat's numbers count only what it reads: nothing hidden shows in a gap
            assert [e["version"] for e in log["events"]] == list(range(1, len(log["events"]) + 1))
            assert log["version"] == len(log["events"]) == get(client, f"/games/{gid}")["version"]
            if s:
                legal = get(client, f"/games/{gid}/legal")
                assert legal["seat"] == s

    try:
        play(table, public, rng, on_step=on_step)
        for s, client in viewers.items():
            token = table.tokens.get(s)
            msgs = read_stream(server.url, gid, token, timeout=30)
            assert msgs[-1]["event"] == "end"
            streamed = [m["data"] for m in msgs if m["event"] == "game-event"]
            check_events(streamed, s, colours, game)
            assert [e["version"] for e in streamed] == list(range(1, len(streamed) + 1))
            for turn in (0, 1, 3):
                check_view(get(client, f"/games/{gid}/replay", to_turn=turn), s, game)
            st_ = get(client, f"/games/{gid}")
            assert st_["finished"]
    finally:
        table.close()

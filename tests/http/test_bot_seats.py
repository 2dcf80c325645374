"""Bots are marked by how their seat was taken, never by a name (service/http/bots.py,
``BotSeats``): the status's ``bots`` (and the referee's /awaited) name the seats the service's
bots play; the label "(bot)" is reserved, so a person cannot join, be invited or be named at
creation under it; a person named so in a game made elsewhere (the CLI) reads as a person."""

from __future__ import annotations

from service.app import Privateer
from service.http.client import Api


def test_a_bots_seat_is_read_from_its_record(server, organiser, public):
    created = organiser.create("loot", 3, bots={"2": "random", "3": "random"}, players={"1": "Ada"},
                               wait_for_seats=True)
    gid = created["game_id"]
    st = public.status(gid)
    assert st["bots"] == {"2": "random", "3": "random"}
    assert st["players"] == {"1": "Ada", "2": "random (bot)", "3": "random (bot, seat 3)"}
    referee = Api(server.url, created["referee_key"])
    assert referee.get(f"/games/{gid}/awaited").json()["bots"] == {"2": "random", "3": "random"}
    ada = Api(server.url, Api(server.url).join(gid, 1, organiser.invite(gid, 1))["token"])
    assert ada.status(gid)["bots"] == {"2": "random", "3": "random"}  # the game started with its last seat
    assert public.status(gid)["seats_taken"] == [1, 2, 3]
    for c in (referee, ada):
        c.close()


def test_the_bot_label_is_reserved_for_the_services_bots(server, organiser, public):
    gid = organiser.create("loot", 2, wait_for_seats=True)["game_id"]
    before = public.status(gid)["version"]
    code = organiser.invite(gid, 1)
    for name in ("ismcts (bot)", "greedy (Bot)", "random (bot, seat 2) "):
        r = Api(server.url).post(f"/games/{gid}/seats/1/join", {"code": code, "player": name})
        assert r.status_code == 400 and "'(bot)'" in r.json()["reason"], r.text
        r = organiser.post(f"/games/{gid}/invitations", {"seat": 2, "player": name})
        assert r.status_code == 400, r.text
    st = public.status(gid)
    assert st["version"] == before and st["seats_taken"] == [] and st["bots"] == {}  # nothing appended
    r = organiser.post("/games", {"game": "loot", "seats": 2, "players": {"2": "ismcts (bot)"}})
    assert r.status_code == 400 and "players: seat 2" in r.json()["reason"]
    # names that only look near it are people's names
    joined = Api(server.url).join(gid, 1, code, player="Abbot (robot)")
    assert joined["player"] == "Abbot (robot)" and public.status(gid)["bots"] == {}


def test_a_person_named_like_a_bot_elsewhere_reads_as_a_person(server, public):
    app = Privateer(server.db)  # as `tools new --player 2="ismcts (bot)"` makes it, in the service's store
    try:
        gid = app.create("loot", 2, players={"1": "Ada", "2": "ismcts (bot)"}).hex
    finally:
        app.close()
    st = public.status(gid)
    assert st["players"]["2"] == "ismcts (bot)" and st["bots"] == {}

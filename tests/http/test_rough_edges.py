"""The HTTP service's rough edges, through a real server: options in JSON types
recorded as the CLI records them, a seat acting on the version it was shown,
`start` after the last join, bodies that are not UTF-8, one-line errors."""

import json
import subprocess
import sys
import uuid

import pytest

from service.http.client import Api

JSON = {"content-type": "application/json"}


def created(organiser, gid) -> dict:
    """The GameCreated event's data, as the referee (the organiser) reads it."""
    first = organiser.ok(organiser.get(f"/games/{gid}/log", params={"limit": 1}))["events"][0]
    assert first["type"] == "GameCreated"
    return first["data"]


def cli_new(server, game, seats, *options) -> str:
    argv = [sys.executable, "-m", "tools", "new", game, "--seats", str(seats), "--db", server.db]
    for o in options:
        argv += ["--option", o]
    out = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


@pytest.mark.parametrize("game,seats,given,cli", [
    ("loot", 4, {"pairs": True}, ["pairs=true"]),
    ("loot", 3, {"pairs": False}, ["pairs=false"]),
    ("merchants-and-marauders", 3, {"glory": 12}, ["glory=12"]),
    ("merchants-and-marauders", 3, {"glory": 12.0}, ["glory=12"]),
    ("kaisers-pirates", 4, {"team": True, "removed": 30}, ["team=true", "removed=30"]),
    ("letter-of-marque", 3, {"colours": ["yellow", "red", "black"]}, ["colours=yellow,red,black"]),
    ("loot", 4, {"pairs": "true"}, ["pairs=true"]),  # the CLI's text is still taken
])
def test_options_in_json_types_are_recorded_as_the_cli_records_them(server, organiser, game, seats, given, cli):
    r = organiser.post("/games", {"game": game, "seats": seats, "options": given})
    assert r.status_code == 201, r.text
    over_http = created(organiser, r.json()["game_id"])
    by_cli = created(organiser, cli_new(server, game, seats, *cli))
    assert over_http["options"] == by_cli["options"] and over_http["options"]
    assert over_http["catalog_digest"] == by_cli["catalog_digest"]
    assert r.json()["status"]["options"] == by_cli["options"]


@pytest.mark.parametrize("options,named", [
    ({"pairs": {"on": True}}, "pairs"),
    ({"pairs": None}, "pairs"),
    ({"glory": 2.5}, "glory"),
    ({"colours": [1, 2, 3]}, "colours"),
    ({"colours": ["red,blue", "green", "black"]}, "colours"),
])
def test_an_option_of_another_type_is_refused_in_one_line_and_nothing_is_created(organiser, options, named):
    game = {"pairs": "loot", "glory": "merchants-and-marauders", "colours": "letter-of-marque"}[named]
    before = len(organiser.get("/games").json())
    r = organiser.post("/games", {"game": game, "seats": 3, "options": options})
    assert r.status_code == 400, r.text
    body = r.json()
    assert body["error"] == "bad_input" and f"option {named}" in body["reason"] and "\n" not in body["reason"]
    assert len(organiser.get("/games").json()) == before


def test_a_value_the_rules_refuse_keeps_the_rules_reason(organiser):
    r = organiser.post("/games", {"game": "loot", "seats": 3, "options": {"pairs": "maybe"}})
    assert r.status_code == 400 and "pairs must be true or false" in r.json()["reason"]


def test_a_seat_acts_on_the_version_it_was_shown_with_hidden_events_between(table_factory, organiser, public):
    """Loot deals each seat cards the others do not see: a seat's count, the
    public's and the store's differ, and a seat's own count stays put while
    events hidden from it are appended."""
    t = table_factory("loot", 3)
    gid = t.gid
    steps = 0
    for _ in range(12):
        st = public.status(gid)
        seat = st["to_act"][0]
        client = t.seats[seat]
        own = client.status(gid)["version"]
        store = organiser.status(gid)["version"]
        assert st["version"] < own < store  # hidden events: its own cards, and the others'
        legal = client.legal(gid)
        assert legal["version"] == own
        stale = client.decide(gid, legal["decisions"][0], st["version"])  # the public's count: not its own
        assert stale.status_code == 409, stale.text
        reason = stale.json()["reason"]
        assert f"seat {seat}'s count" in reason and f"version {own}" in reason and "\n" not in reason
        r = client.decide(gid, legal["decisions"][0], own, key=uuid.uuid4().hex)
        assert r.status_code == 201, r.text
        assert r.json()["version"] == client.status(gid)["version"]  # the answer's version is its status's
        steps += 1
    assert steps == 12
    # events hidden from each seat lie between its numbers: its count moved less than the store's
    log = organiser.get(f"/games/{gid}/log", params={"limit": 1000}).json()["events"]
    hidden = {n: sum(1 for e in log if e["visible_to"] != "all" and (e["visible_to"] == "referee" or n not in e["visible_to"]))
              for n in t.seats}
    for n, c in t.seats.items():
        assert c.status(gid)["version"] == len(log) - hidden[n] and hidden[n] > 0


def test_while_the_referee_deals_a_seats_count_moves_only_with_what_it_may_read(server, organiser):
    """A table-mode game's deal: the referee enters every seat's cards; those
    dealt to seats 2 and 3 are hidden from seat 1, so seat 1's count moves only
    with its own and the public events (the service answers from the game it
    keeps in memory, which must count as the store does), and the first seat
    to act acts on its count."""
    gid = organiser.create("loot", 3, table=True)["game_id"]
    tokens = organiser_seat_up(server, organiser, gid, 3)
    seat1 = Api(server.url, tokens[1])
    try:
        rng_pick = 0
        while not organiser.status(gid)["to_act"]:
            before = seat1.status(gid)["version"]
            st = organiser.status(gid)
            a = st["awaiting_chance"]
            outcome = a["options"][0] if "options" in a else a["choices"][rng_pick % len(a["choices"])]
            rng_pick += 1
            r = organiser.post(f"/games/{gid}/chance", {"outcome": outcome, "expected_version": st["version"]})
            assert r.status_code == 201, r.text
            seen_by_1 = [e for e in organiser.get(f"/games/{gid}/log", params={"after": st["version"]}).json()["events"]
                         if e["visible_to"] == "all" or (isinstance(e["visible_to"], list) and 1 in e["visible_to"])]
            assert seat1.status(gid)["version"] == before + len(seen_by_1)
        seat = organiser.status(gid)["to_act"][0]
        actor = Api(server.url, tokens[seat])
        try:
            v = actor.status(gid)["version"]
            assert v < organiser.status(gid)["version"]
            r = actor.decide(gid, actor.legal(gid)["decisions"][0], v)
            assert r.status_code == 201, r.text
        finally:
            actor.close()
    finally:
        seat1.close()


def organiser_seat_up(server, organiser, gid, seats) -> dict:
    return {n: Api(server.url).join(gid, n, organiser.invite(gid, n))["token"] for n in range(1, seats + 1)}


def test_start_after_the_last_join_says_the_join_started_it(server, organiser):
    gid = organiser.create("letter-of-marque", 3, wait_for_seats=True)["game_id"]
    organiser_seat_up(server, organiser, gid, 3)
    st = organiser.status(gid)
    assert st["started"]
    r = organiser.post(f"/games/{gid}/start")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["already_started"] is True and "last seat's join" in body["note"] and "\n" not in body["note"]
    assert body["version"] == st["version"] == organiser.status(gid)["version"]  # nothing appended


def test_start_runs_a_waiting_game_once_and_says_so_after(server, organiser):
    gid = organiser.create("letter-of-marque", 3, wait_for_seats=True)["game_id"]
    organiser_seat_up(server, organiser, gid, 1)
    first = organiser.ok(organiser.post(f"/games/{gid}/start"))
    assert first["already_started"] is False and first["started"] and first["to_act"] == [1, 2, 3]
    again = organiser.ok(organiser.post(f"/games/{gid}/start"))
    assert again["already_started"] is True and "before its seats were all taken" in again["note"]
    assert again["version"] == first["version"]
    # a game that started at its creation says so too
    other = organiser.create("letter-of-marque", 2)["game_id"]
    said = organiser.ok(organiser.post(f"/games/{other}/start"))
    assert said["already_started"] is True and said["version"] == organiser.status(other)["version"]


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32"])
def test_a_body_that_is_not_utf8_is_refused_and_appends_nothing(table_factory, organiser, encoding):
    t = table_factory("letter-of-marque", 2)
    gid, s1 = t.gid, t.seats[1]
    legal = s1.legal(gid)
    body = {"decision": legal["decisions"][0], "expected_version": legal["version"]}
    before = organiser.status(gid)["version"]
    r = s1.http.post(f"/games/{gid}/decisions", headers=JSON, content=json.dumps(body).encode(encoding))
    assert r.status_code == 400, r.text
    assert r.json() == {"error": "bad_input", "reason": "the body is not JSON text in UTF-8"}
    r = organiser.http.post("/games", headers=JSON,
                            content=json.dumps({"game": "loot", "seats": 3}).encode(encoding))
    assert r.status_code == 400 and r.json()["reason"] == "the body is not JSON text in UTF-8"
    assert organiser.status(gid)["version"] == before
    # the same decision in UTF-8 is taken
    r = s1.http.post(f"/games/{gid}/decisions", headers=JSON, content=json.dumps(body).encode("utf-8"))
    assert r.status_code == 201, r.text


def test_a_reason_is_one_line_even_when_the_request_holds_a_line_break(table_factory):
    t = table_factory("letter-of-marque", 2)
    legal = t.seats[1].legal(t.gid)
    r = t.seats[1].post(f"/games/{t.gid}/decisions", {"decision": legal["decisions"][0],
                                                     "expected_version": legal["version"], "bad\nfield": 1})
    assert r.status_code == 400, r.text
    reason = r.json()["reason"]
    assert "bad field" in reason and "\n" not in reason

"""A seat's options weighed over HTTP (GET /games/{id}/analysis): the answer
`tools analyse` gives for the same seed; who may ask; the cap on playouts; and,
as an attacker, that a seat's analysis depends on nothing hidden from it and
that a refusal says nothing about the game."""

from __future__ import annotations

import asyncio
import json
import random
import threading
import uuid

import pytest

from service.analyse import analyse_stored
from service.http.analysis import WAITING, Analyses, Busy
from service.http.auth import Caller
from service.http.client import Api

from ..analysis.positions import KP_LAST_ROUND
from .helpers import play


def _to_seat_1(t, rng, steps=6):
    """A few random decisions, then on until seat 1 acts (the game unfinished)."""
    made = 0
    while True:
        st = t.referee.status(t.gid)
        assert not st["finished"]
        if made >= steps and 1 in st["to_act"]:
            return st
        seat = rng.choice(st["to_act"])
        legal = t.seats[seat].legal(t.gid)
        r = t.seats[seat].decide(t.gid, rng.choice(legal["decisions"]), legal["version"], key=uuid.uuid4().hex)
        assert r.status_code == 201, r.text
        made += 1


def test_a_seat_gets_what_tools_analyse_gives_for_the_same_seed(server, table_factory):
    t = table_factory("letter-of-marque", 2)
    _to_seat_1(t, random.Random(5))
    got = t.seats[1].ok(t.seats[1].get(f"/games/{t.gid}/analysis", params={"playouts": 40, "seed": "7"}))
    cli = json.loads(json.dumps(analyse_stored(server.db, t.gid, 1, playouts=40, seed="7")))
    assert got == cli
    assert got["seat"] == 1 and got["playouts"] == 40 and sum(d["playouts"] for d in got["decisions"]) == 40
    assert [d["decision"] for d in got["decisions"]] == t.seats[1].legal(t.gid)["decisions"]
    assert all(d["said"] and "{" not in d["said"] for d in got["decisions"])
    # the referee, for seat 1, gets the same; another seed another search
    assert t.referee.ok(t.referee.get(f"/games/{t.gid}/analysis",
                                      params={"seat": 1, "playouts": 40, "seed": "7"})) == got


def test_at_a_past_point_in_the_callers_own_count(server, table_factory):
    t = table_factory("letter-of-marque", 2)
    rng = random.Random(11)
    st = _to_seat_1(t, rng, steps=2)
    mine = t.seats[1].legal(t.gid)["version"]  # seat 1's count
    _to_seat_1(t, rng, steps=3)
    past = t.seats[1].ok(t.seats[1].get(f"/games/{t.gid}/analysis",
                                        params={"at_event": mine, "playouts": 20, "seed": "1"}))
    store = st["version"]  # the referee counts the store's versions
    assert past == json.loads(json.dumps(analyse_stored(server.db, t.gid, 1, at_event=store, playouts=20, seed="1")))
    assert past["version"] == mine


def test_who_may_ask(table_factory, public):
    t = table_factory("letter-of-marque", 2)
    _to_seat_1(t, random.Random(2), steps=1)
    url = f"/games/{t.gid}/analysis"
    for client, params in ((t.seats[2], {"seat": 1}), (t.seats[1], {"seat": 2}), (public, {"seat": 1}),
                           (public, {}), (public, {"seat": 9, "at_event": 10**6})):
        r = client.get(url, params={**params, "playouts": 5})
        assert r.status_code == 403, r.text
        assert r.json()["reason"].startswith("an analysis of an unfinished game is for its seats")
    assert t.referee.get(url, params={"playouts": 5}).status_code == 400  # which seat?
    assert t.referee.get(url, params={"seat": 1, "playouts": 5}).status_code == 200
    # a seat that does not act now: the rules' refusal, in its own count
    r = t.seats[2].get(url, params={"playouts": 5})
    if 2 not in t.referee.status(t.gid)["to_act"]:
        assert r.status_code == 422 and "does not act now" in r.json()["reason"]
    # the cap
    r = t.seats[1].get(url, params={"playouts": 2001})
    assert r.status_code == 400 and "at most 2000" in r.json()["reason"]


def test_after_the_game_a_seats_analysis_stays_its_own_where_it_saw_what_others_did_not(table_factory, public):
    """The end reveals no hand and no secret choice (the log and the views still hide Letter of
    Marque's armed or unarmed placements), so after the game neither the public nor the other
    seat may have seat 1's options weighed where seat 1 had seen them; seat 1 and the referee may."""
    t = table_factory("letter-of-marque", 2)
    rng = random.Random(3)
    store = _to_seat_1(t, rng, steps=2)["version"]
    mine, theirs, everyone = (c.status(t.gid)["version"] for c in (t.seats[1], t.seats[2], public))
    r = public.get(f"/games/{t.gid}/analysis", params={"seat": 1, "at_event": everyone, "playouts": 10})
    assert r.status_code == 403 and "unfinished" in r.json()["reason"]
    play(t, public, rng)
    asked = {"seat": 1, "playouts": 10, "seed": "4"}
    for c, v in ((public, everyone), (t.seats[2], theirs)):
        r = c.get(f"/games/{t.gid}/analysis", params={**asked, "at_event": v})
        assert r.status_code == 403 and r.json()["reason"].startswith("by then that seat had seen what you may not")
    own = t.seats[1].ok(t.seats[1].get(f"/games/{t.gid}/analysis", params={**asked, "at_event": mine}))
    assert own == t.referee.ok(t.referee.get(f"/games/{t.gid}/analysis", params={**asked, "at_event": store}))
    assert own["decisions"]
    # where seat 1 had seen nothing hidden from the public (the game's creation), the public may ask:
    # the rules' answer then (nobody acts there), not a refusal
    r = public.get(f"/games/{t.gid}/analysis", params={**asked, "at_event": 1})
    assert r.status_code == 422, r.text


def test_an_unknown_game_and_a_private_fork_are_alike(server, organiser, table_factory, public):
    t = table_factory("letter-of-marque", 2)
    _to_seat_1(t, random.Random(4), steps=1)
    fork = organiser.ok(organiser.post(f"/games/{t.gid}/fork", {"at_event": t.referee.status(t.gid)["version"]}), 201)["game_id"]
    answers = []
    for gid in (fork, "0" * 32):
        for client in (public, t.seats[1]):
            r = client.get(f"/games/{gid}/analysis", params={"seat": 1, "playouts": 5})
            answers.append((r.status_code, r.json()["error"]))
    assert set(answers) == {(404, "unknown_game")}


SEAT_1 = ["merchant-2", "merchant-3", "blue-1", "green-1", "gold-2"]
SEAT_2 = ["merchant-4", "blue-3", "green-3", "gold-3", "purple-3"]


def _dealt(server, organiser, last_of_seat_2: str, last_of_seat_1: str = "purple-2"):
    """A table-mode Loot game dealt by the referee: the last card of each hand as given."""
    created = organiser.create("loot", 2, table=True)
    gid = created["game_id"]
    referee = Api(server.url, created["referee_key"])
    seats = {n: Api(server.url, Api(server.url).join(gid, n, organiser.invite(gid, n))["token"]) for n in (1, 2)}
    hands = {1: [*SEAT_1, last_of_seat_1], 2: [*SEAT_2, last_of_seat_2]}
    words: list = [2]  # the dealer
    while True:
        awaiting = referee.ok(referee.get(f"/games/{gid}/awaited", params={"then": json.dumps(words)}))["awaiting"]
        if awaiting is None or awaiting["kind"] != "card":
            break
        words.append(hands[int(awaiting["why"].rsplit(" ", 1)[1])].pop(0))
    v = referee.status(gid)["version"]
    referee.ok(referee.post(f"/games/{gid}/chance", {"words": words, "expected_version": v}), 201)
    return gid, referee, seats


def test_a_seats_analysis_depends_on_nothing_hidden_from_it(server, organiser):
    """Two games alike but for one card of seat 2's hand: seat 1's analysis, for one seed,
    is the same in both (its choices and its table too); seat 2's, which sees that card, is not."""
    a_gid, a_ref, a = _dealt(server, organiser, "admiral")
    b_gid, b_ref, b = _dealt(server, organiser, "merchant-8")
    assert a[1].status(a_gid)["to_act"] == [1]

    def asked(client, gid, **params):
        r = client.get(f"/games/{gid}/analysis", params={"playouts": 60, "seed": "9", **params})
        body = r.json()
        body.pop("id", None)
        return r.status_code, body

    assert asked(a[1], a_gid) == asked(b[1], b_gid)
    assert asked(a[1], a_gid)[0] == 200
    for path in ("choices", "words"):
        ra, rb = (c.get(f"/games/{g}/{path}").json() for c, g in ((a[1], a_gid), (b[1], b_gid)))
        assert {k: v for k, v in ra.items() if k != "game_id"} == {k: v for k, v in rb.items() if k != "game_id"}
    # seat 2's refusals (it does not act now) alike, and so are the public's (not allowed)
    assert asked(a[2], a_gid) == asked(b[2], b_gid)
    assert asked(Api(server.url), a_gid, seat=2) == asked(Api(server.url), b_gid, seat=2)
    # the test can tell: seat 1's analysis changes with a card of its own hand
    c_gid, _, c = _dealt(server, organiser, "admiral", last_of_seat_1="merchant-7")
    assert asked(c[1], c_gid) != asked(a[1], a_gid)


def test_what_were_my_options_before_my_last_decision(server, table_factory):
    t = table_factory("letter-of-marque", 2)
    rng = random.Random(8)
    store = _to_seat_1(t, rng, steps=3)["version"]
    legal = t.seats[1].legal(t.gid)
    t.seats[1].ok(t.seats[1].decide(t.gid, legal["decisions"][0], legal["version"]), 201)
    log = t.seats[1].get(f"/games/{t.gid}/log", params={"limit": 1000}).json()["events"]
    mine = [e for e in log if e["type"] == "Decided" and e["data"]["seat"] == 1][-1]
    _to_seat_1(t, rng, steps=1)  # the game moves on
    got = t.seats[1].ok(t.seats[1].get(f"/games/{t.gid}/analysis",
                                       params={"before": mine["version"], "playouts": 20, "seed": "2"}))
    assert got == json.loads(json.dumps(analyse_stored(server.db, t.gid, 1, at_event=store, playouts=20, seed="2")))
    assert [d["decision"] for d in got["decisions"]] == legal["decisions"]
    # an event that is not one of the seat's decisions
    other = next(e for e in log if e["type"] != "Decided")
    r = t.seats[1].get(f"/games/{t.gid}/analysis", params={"before": other["version"], "playouts": 5})
    assert r.status_code == 400 and "is not a decision of seat 1" in r.json()["reason"]
    r = t.seats[1].get(f"/games/{t.gid}/analysis", params={"before": 3, "at_turn": 1, "playouts": 5})
    assert r.status_code == 400


def test_a_long_analysis_leaves_the_server_answering(table_factory, public):
    """The search runs in its own threads: while one runs, the play loop's requests are answered."""
    t = table_factory("letter-of-marque", 2)
    _to_seat_1(t, random.Random(6), steps=1)
    done = {}

    def long():
        done["r"] = t.seats[1].get(f"/games/{t.gid}/analysis", params={"playouts": 1000})

    worker = threading.Thread(target=long)
    worker.start()
    answered_meanwhile = 0
    while worker.is_alive() and answered_meanwhile < 5:
        public.status(t.gid)
        answered_meanwhile += worker.is_alive()
    worker.join()
    assert done["r"].status_code == 200 and answered_meanwhile >= 3


def test_too_many_analyses_at_once_are_refused():
    a = Analyses(None, None, 100)
    a._running = WAITING
    with pytest.raises(Busy) as refused:
        asyncio.run(a.run(None, Caller("referee"), 1, None, None, 10, "0"))
    assert refused.value.http_status == 429
    a.close()


def test_a_table_game_from_a_position_is_analysed(server, table_factory):
    """Issue 42: in a Kaiser's Pirates game at a table the cards set aside are unknown tokens
    nobody names; the search drew them into its playouts' deck and GET /analysis answered 500.
    Now it answers, as `tools analyse` does for the same seed, at each of seat 1's decisions."""
    t = table_factory("kaisers-pirates", 2, table=True, position=KP_LAST_ROUND)
    rng, asked = random.Random(12), 0
    while asked < 3:
        st = t.referee.status(t.gid)
        assert not st["finished"]
        if st["awaiting_chance"] is not None:
            awaited = t.referee.ok(t.referee.get(f"/games/{t.gid}/awaited"))["awaiting"]
            outcome = ([rng.randint(1, awaited["sides"]) for _ in range(awaited["n"])] if awaited["kind"] == "dice"
                       else rng.choice(awaited["left"])["say"] if awaited["kind"] == "card"
                       else rng.choice(awaited["options"]) if awaited["kind"] == "pick" else awaited["cards"])
            t.referee.ok(t.referee.post(f"/games/{t.gid}/chance", {"outcome": outcome, "expected_version": st["version"]}), 201)
            continue
        seat = rng.choice(st["to_act"])
        legal = t.seats[seat].legal(t.gid)
        if seat == 1:
            got = t.seats[1].ok(t.seats[1].get(f"/games/{t.gid}/analysis", params={"playouts": 12, "seed": "3"}))
            assert got == json.loads(json.dumps(analyse_stored(server.db, t.gid, 1, playouts=12, seed="3")))
            assert [d["decision"] for d in got["decisions"]] == legal["decisions"]
            assert sum(d["playouts"] for d in got["decisions"]) == 12
            asked += 1
        r = t.seats[seat].decide(t.gid, rng.choice(legal["decisions"]), legal["version"], key=uuid.uuid4().hex)
        assert r.status_code == 201, r.text

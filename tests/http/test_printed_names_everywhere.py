"""A printed-card catalog loaded by the organiser names its cards in every place a person reads
one (issue 45): the log of the referee and of each seat, the decisions in words, the seat's
table in words and its picture, what the referee's page offers to enter, the replay's text and
the record's text. Neither the card's id, nor the number it is known by without a catalog."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from service.http.client import Api

GAME = "merchants-and-marauders"
CATALOG = Path(__file__).resolve().parents[2] / "service" / "aggregates" / "merchants_and_marauders" / "data" / "catalog.json"
CAPTAIN, GLORY = "Anne Bonny", "Letter of Pardon"
CAPTAIN_TEXT, GLORY_TEXT = "Roll one die more for Influence.", "Remove a wanted flag."
# captain_06 and G19 by id, by the number the built-in catalog knows them by, or said as it is
# (any card the catalog does not name said plainly, "captain card 7", not "Captain 7 (name unknown)")
NOT_PRINTED = re.compile(r"captain_06|\bG19\b|Captain 6\b|captain card 6\b|Glory card 19\b|glory card 19\b"
                         r"|\b(?:Captain|Glory card|Mission|Rumor|Event) \d+ \((?:name )?unknown\)")


def printed_catalog() -> dict:
    cat = json.loads(CATALOG.read_text())
    for c in cat["captains"]["value"]:
        if c["id"] == "captain_06":
            c.update(name=CAPTAIN, text=CAPTAIN_TEXT, source="reference")
    for c in cat["glory_cards"]["value"]:
        if c["id"] == "G19":
            c.update(name=GLORY, text=GLORY_TEXT, source="reference")
    return cat


@pytest.fixture(scope="module")
def table(server):
    organiser = Api(server.url, server.key)
    loaded = organiser.ok(organiser.post("/catalogs", {"game": GAME, "name": "printed", "catalog": printed_catalog()}),
                          201)
    made = organiser.create(GAME, 2, table=True, catalog=loaded["digest"])
    gid = made["game_id"]
    referee = Api(server.url, made["referee_key"])
    seats = {n: Api(server.url, Api(server.url).join(gid, n, organiser.invite(gid, n))["token"]) for n in (1, 2)}
    offered: list[str] = []
    # the referee enters what the table shows: seat 1 draws captain 6 and glory card 19
    wanted = {"captains": [CAPTAIN, "Captain 7"], "glory": [GLORY, "Carpenter"], "first_player": [CAPTAIN]}
    for _ in range(200):
        st = referee.status(gid)
        if st["to_act"] and not st.get("awaiting_chance"):
            seat = st["to_act"][0]
            ch = seats[seat].ok(seats[seat].get(f"/games/{gid}/choices"))
            if any(GLORY in c["text"] for c in ch["choices"]):
                break
            c = ch["choices"][0]
            seats[seat].ok(seats[seat].post(f"/games/{gid}/decisions",
                                            {"decision": c["decision"], "expected_version": ch["version"]}), 201)
            continue
        aw = referee.ok(referee.get(f"/games/{gid}/awaited"))
        thing = aw["awaiting"]
        if thing is None:
            break
        if thing["kind"] == "card":
            offered += [e["name"] for e in thing["left"]]
            queue = wanted.get(thing.get("deck"), [])
            said = queue.pop(0) if queue else thing["left"][0]["say"]
            words: list = [said]
        elif thing["kind"] == "dice":
            words = [1] * thing["n"]
        elif thing["kind"] == "shuffle":
            words = [thing["cards"]]
        else:
            words = [thing["options"][0]]
        referee.ok(referee.post(f"/games/{gid}/chance", {"words": words, "expected_version": aw["version"]}), 201)
    yield {"gid": gid, "referee": referee, "seats": seats, "offered": offered, "organiser": organiser, "db": server.db}
    for c in (referee, organiser, *seats.values()):
        c.close()


def _clean(texts: list[str], where: str) -> str:
    text = "\n".join(texts)
    bad = sorted({m.group(0) for m in NOT_PRINTED.finditer(text)})
    assert not bad, f"{where} says {bad}"
    return text


def test_the_log_of_each_reader_names_the_cards_as_printed(table):
    gid = table["gid"]
    for who, api in (("referee", table["referee"]), *((f"seat {n}", a) for n, a in table["seats"].items())):
        text = _clean([e["text"] for e in api.ok(api.get(f"/games/{gid}/log"))["events"]], f"{who}'s log")
        assert CAPTAIN in text, who
        if who != "seat 2":     # seat 1's glory card is hidden from seat 2
            assert GLORY in text, who


def test_the_decisions_and_the_table_in_words_name_them(table):
    gid, seat1 = table["gid"], table["seats"][1]
    choices = _clean([c["text"] for c in seat1.ok(seat1.get(f"/games/{gid}/choices"))["choices"]], "seat 1's choices")
    assert f"play {GLORY}" in choices
    for who, api in (("referee", table["referee"]), ("seat 1", seat1), ("seat 2", table["seats"][2])):
        words = _clean([api.ok(api.get(f"/games/{gid}/words", params={"width": 132}))["text"]], f"{who}'s words")
        assert CAPTAIN in words, who
        if who != "seat 2":     # the captain's printed text, and seat 1's glory card with its own
            assert f"{CAPTAIN} ({CAPTAIN_TEXT})" in words and f"{GLORY} ({GLORY_TEXT})" in words, words
        else:
            assert GLORY not in words
        picture = api.get(f"/games/{gid}/picture")
        assert picture.status_code == 200
        _clean([picture.text], f"{who}'s picture")


def test_the_referee_enters_them_as_printed(table):
    offered = _clean(table["offered"], "the referee's cards to enter")
    assert CAPTAIN in offered and GLORY in offered


def _tools(db: str, *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "tools", *args, "--db", db], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_replay_and_the_record_name_them(table):
    gid, db = table["gid"], table["db"]
    replay = _clean([_tools(db, "replay", gid)], "tools replay")
    assert CAPTAIN in replay and f"{GLORY} ({GLORY_TEXT})" in replay
    log = _clean([_tools(db, "log", gid)], "tools log")
    assert CAPTAIN in log and GLORY in log
    record = _tools(db, "record", gid)
    comments = _clean([line.split("  # ", 1)[1] for line in record.splitlines() if "  # " in line], "the record's words")
    assert comments


def test_the_referees_penalties_name_cards_as_printed(server):
    """The referee's page offers a Kaiser's Pirates penalty by the card's printed name and
    the rule, not its id (``card breakout-2``)."""
    organiser = Api(server.url, server.key)
    made = organiser.create("kaisers-pirates", 2)
    gid = made["game_id"]
    referee = Api(server.url, made["referee_key"])
    seats = {n: Api(server.url, Api(server.url).join(gid, n, organiser.invite(gid, n))["token"]) for n in (1, 2)}
    try:
        offered: list[str] = []
        for _ in range(80):
            offered = [r["text"] for r in referee.ok(referee.get(f"/games/{gid}/awaited"))["referee"]]
            st = referee.status(gid)
            if offered or not st["to_act"]:
                break
            seat = seats[st["to_act"][0]]
            legal = seat.legal(gid)
            seat.ok(seat.decide(gid, legal["decisions"][0], legal["version"]), 201)
        assert offered and all(t.startswith("discard seat ") and "(3.1.5)" in t for t in offered), offered
        assert not [t for t in offered if re.search(r"\b[a-z]+(?:-[a-z0-9]+)+\b", t)], offered
    finally:
        for c in (referee, organiser, *seats.values()):
            c.close()

"""Printed-card catalogs loaded by the organiser (POST /catalogs) and games created with
one (POST /games ``catalog``): validated with the error named, kept by digest, the
game's words taken from it."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from service.http.client import Api

DATA = Path(__file__).resolve().parents[2] / "service" / "aggregates"


def builtin(game: str) -> dict:
    return json.loads((DATA / game.replace("-", "_") / "data" / "catalog.json").read_text())


@pytest.fixture(scope="module")
def printed_captains():
    cat = builtin("merchants-and-marauders")
    for c in cat["captains"]["value"]:
        c["name"] = "Capitano " + c["id"].replace("_", " ").title()
        c["source"] = "reference"
    return cat


def test_a_catalog_larger_than_a_body_loads_and_a_game_speaks_its_names(organiser, server, printed_captains):
    body = {"game": "merchants-and-marauders", "name": "my printed captains", "catalog": printed_captains}
    assert len(json.dumps(body)) > 64 * 1024          # more than any other request may carry
    loaded = organiser.ok(organiser.post("/catalogs", body), 201)
    assert loaded["game"] == "merchants-and-marauders" and loaded["name"] == "my printed captains"
    again = organiser.ok(organiser.post("/catalogs", body), 201)
    assert again["digest"] == loaded["digest"]       # the same catalog twice is one
    listed = organiser.ok(organiser.get("/catalogs"))
    assert [r["digest"] for r in listed].count(loaded["digest"]) == 1

    made = organiser.create("merchants-and-marauders", 2, catalog=loaded["digest"])
    referee = Api(server.url, made["referee_key"])
    try:
        lines = [e["text"] for e in referee.ok(referee.get(f"/games/{made['game_id']}/log"))["events"]]
    finally:
        referee.close()
    drawn = [t for t in lines if "draws a captain" in t]
    assert len(drawn) == 2 and all("Capitano " in t for t in drawn), drawn


@pytest.mark.parametrize("change, named", [
    (lambda c: c["colours"]["value"].pop(), "six distinct colours"),
    (lambda c: c["treasures"]["value"].__setitem__("red", [1, 2]), "colour 'red' needs five positive treasure values"),
    (lambda c: c.__setitem__("game", "loot"), "is a catalog of loot, not of letter-of-marque"),
    (lambda c: c["ships"].__setitem__("source", "guess"), "catalog entry 'ships' needs a value and a source"),
])
def test_a_wrong_catalog_is_refused_naming_what_is_wrong(organiser, change, named):
    cat = copy.deepcopy(builtin("letter-of-marque"))
    change(cat)
    r = organiser.post("/catalogs", {"game": "letter-of-marque", "catalog": cat})
    assert r.status_code == 400, r.text
    assert named in r.json()["reason"], r.json()


def test_only_the_organiser_loads_and_a_game_takes_only_its_own_kind(organiser, public):
    cat = builtin("loot")
    assert public.post("/catalogs", {"game": "loot", "catalog": cat}).status_code == 401
    assert public.get("/catalogs").status_code == 401
    loot = organiser.ok(organiser.post("/catalogs", {"game": "loot", "catalog": cat}), 201)
    r = organiser.post("/games", {"game": "letter-of-marque", "seats": 3, "catalog": loot["digest"]})
    assert r.status_code == 400 and "is for loot, not letter-of-marque" in r.json()["reason"]
    r = organiser.post("/games", {"game": "loot", "seats": 3, "catalog": "0" * 64})
    assert r.status_code == 400 and "no catalog" in r.json()["reason"]
    assert organiser.create("loot", 3, catalog=loot["digest"])["game_id"]

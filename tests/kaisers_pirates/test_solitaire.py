"""The solitaire game (section 5): properties over random games, the set-up of 5.2,
options, the solitaire deck as data, and a game through the CLI."""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kp_helpers import GAME, count_cards

from service.aggregates.kaisers_pirates import catalog as catalog_data
from service.aggregates.kaisers_pirates.board import ix
from service.kernel import BadInput
from service.kernel.local import LocalGame


def play(seed, bot, probe_every=0):
    g = LocalGame(GAME, 1, seed=seed.to_bytes(4, "big") * 8)
    rng = random.Random(seed)
    steps = 0
    while not g.machine.finished:
        assert g.to_act() == [1], "only the real player is ever asked (the phantom plays itself)"
        legal = g.legal(1)
        assert legal
        if probe_every and steps % probe_every == 0:
            for d in legal:
                g.machine.copy().decide(1, d, g.chance())      # every listed decision is accepted
        g.act(1, g.rules.bots[bot](g.state, 1, legal, rng))
        steps += 1
        if steps % 10 == 0:
            count_cards(g.state)
        assert steps < 5000
    count_cards(g.state)
    return g


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), bot=st.sampled_from(["random", "heuristic"]))
def test_random_solitaire_games_end_conserve_cards_and_accept_every_listed_decision(seed, bot):
    g = play(seed, bot, probe_every=5)
    res = g.rules.outcome(g.state)
    assert g.machine.k["result"]["scores"] == res["scores"]
    assert set(res["scores"]) == {"1"} and res["winners"] in ([], [1])
    assert g.state["round"] >= 3
    phantom = res["phantom"]["round_points"]
    # 2.5: the real player wins with more round points than the phantom
    if res["scores"]["1"] != phantom:
        assert (res["winners"] == [1]) == (res["scores"]["1"] > phantom)
    # the phantom's cards are never shown to the real player, nor any face-down discard
    for e in g.events:
        if e.type in ("CardDrawn", "DeckShuffled") and "phantom" in e.data["deck"]:
            assert e.vis == "referee", e
        assert e.vis in ("all", "referee", [1]), e
    v = g.rules.view(g.state, 1)
    assert isinstance(v["players"]["2"]["hand"], int) and v["discard_top_two"] == []


def test_the_solitaire_setup_52():
    g = LocalGame(GAME, 1, seed=b"s" * 32)
    s = g.state
    i = ix(s)
    # 5.2: the twelve named cards are out of play, 48 more set aside at random: a deck of 40
    types = sorted(i.tid(c) for c in s["unused"])
    assert types == sorted(["intelligence", "intelligence", "wireless-intercept", "wireless-intercept",
                            "bounding-main", "breakdown", "exchange-information", "mistaken-identity",
                            "pull-the-plug", "sail-q-ship", "searchlight", "special-cargo"])
    assert not set(s["unused"]) & set(s["pool"])
    started = [e for e in g.events if e.type == "ActionCardsSetAside"][0].data
    assert started == {"count": 48, "deck": 40}
    # 5.2.2: both sides 3 ships, 3 merchants, 6 cards; the phantom's hand set aside unseen
    for p in s["players"]:
        assert len(p["ships"]) == 3 and len(p["merchants"]) == 3
    assert len(s["players"][0]["hand"]) == 6
    assert g.machine.config["options"] == {"solitaire": True}


def test_options():
    with pytest.raises(BadInput, match="team"):
        LocalGame(GAME, 1, options={"team": "true"})
    with pytest.raises(BadInput, match="one seat"):
        LocalGame(GAME, 2, options={"solitaire": "true"})
    g = LocalGame(GAME, 1, options={"removed": "60"}, seed=b"r" * 32)
    assert [e for e in g.events if e.type == "ActionCardsSetAside"][0].data["count"] == 60


def test_the_solitaire_deck_is_data():
    cat = catalog_data.load()
    cat["solitaire"] = catalog_data.solitaire_deck()
    deck = catalog_data.validate(cat)["solitaire"]
    assert len(deck["cards"]) == 20
    # what 5.5 describes is marked rulebook, the rest provisional with a note
    first = deck["cards"][0]
    assert first["source"]["offense"] == "rulebook"
    assert [a["action"] for a in first["offense"]] == ["none", "warship-intercept", "blockade-runner",
                                                        "damage-control"]
    assert all(c["note"][k] for c in deck["cards"] for k in c["source"] if c["source"][k] == "provisional")
    bad = json.loads(json.dumps(cat))
    bad["solitaire"]["cards"][3]["offense"][2]["action"] = "teleport"
    with pytest.raises(BadInput, match="offensive action"):
        catalog_data.validate(bad)
    # a solitaire game needs the deck in its catalog
    with pytest.raises(BadInput, match="solitaire deck"):
        LocalGame(GAME, 1, catalog=catalog_data.load())


def test_a_solitaire_game_through_the_cli(cli, tmp_path):
    cat = catalog_data.load()
    cat["solitaire"] = catalog_data.solitaire_deck()
    cat["solitaire"]["cards"][0]["note"]["offense"] = "as printed on my copy"
    path = tmp_path / "printed.json"
    path.write_text(json.dumps(cat))
    gid = cli.ok("new", "kaisers-pirates", "--seats", "1", "--catalog", path, "--player", "1=Mike").strip()
    st_ = cli.json("status", gid)
    assert st_["to_act"] == [1] and st_["seats"] == 1
    first = cli.json("legal", gid, "--seat", "1")[0]
    cli.ok("act", gid, "--seat", "1", json.dumps(first))
    out = json.loads(cli.ok("simulate", "kaisers-pirates", "--seats", "1", "--games", "1", "--seed", "5", "--json"))
    done = cli.json("status", out["game_ids"][0])
    assert done["finished"] and set(done["scores"]) == {"1"}
    p = cli.run("audit", "--all", "--json")
    assert p.returncode == 0, p.stdout
    assert all(r["ok"] for r in json.loads(p.stdout))

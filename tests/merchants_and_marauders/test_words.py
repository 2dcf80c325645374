"""Merchants & Marauders in the game's words, not the engine's (issue 45): the log of the
referee and of each seat, the replay's text and every decision a seat is offered name
ports, sea zones, captains, ships, nations and cards as printed ("Port Royal",
"Basse-Terre", "captain card 9"), never by their ids (``port_royal``, ``captain_09``,
``M03``), and carry none of the engine's bookkeeping."""

from __future__ import annotations

import random
import re
from types import SimpleNamespace

import pytest

from service.kernel.local import LocalGame
from service.kernel.seating import choosers
from service.render.common import board_text
from service.render.table import to_text
from service.views import board, card_namer, log_entries

GAME = "merchants-and-marauders"
# an id: a snake_case word (port_royal, captain_09, man_o_war_england), a card's or a tile's
# code (M03, U11, C28, G21, X04), an NPC's side (npc:dutch_naval) or a target (seat:2)
ID = re.compile(r"\b[a-z]+_[a-z0-9_]+\b|\b[A-Z]\d\d\b|\b(?:npc|seat):")
# the engine's bookkeeping: its stages, kinds and indices, Python's or JSON's spelling
ENGINE = re.compile(r"\b(?:None|True|False|step:)|[{}]|\['|\[\"|\(unknown\)|\(name unknown\)|Player order: \."
                    r"|will enter|\bthe (?:spanish|english|french|dutch|pirate) [a-z]+ ship\b")
ZONE_IDS = ("havana", "nassau", "tortuga", "curacao", "caracas", "trinidad", "cartagena", "bridgetown")


def _bad(text: str) -> list[str]:
    found = [m.group(0) for m in ID.finditer(text)] + [m.group(0) for m in ENGINE.finditer(text)]
    found += [z for z in ZONE_IDS if re.search(rf"\b{z}\b", text)]   # a port's id in lower case
    return found


def _stored(g):
    return [SimpleNamespace(type=e.type, turn=e.turn, visible_to=e.vis, data=e.data, originator_version=v,
                            timestamp="2026-01-01T00:00:00+00:00")
            for v, e in enumerate(g.events, 1)]


def _replay(g, seat) -> str:
    b = board(SimpleNamespace(hex="g"), g.machine, len(g.events), seat)
    return to_text(board_text(b, g.machine.config), 100)


def _played(seed: int, bots: str, seats: int, turns: int):
    """A bot game to ``turns`` turns (or its end): the labels of every decision listed on
    the way, and the replay's text at a few points, for the referee and each seat."""
    g = LocalGame(GAME, seats, seed=bytes([seed]) * 32)
    rng = random.Random(seed)
    choose = choosers(g.rules, bots, seats)
    labels: set[str] = set()
    replays = [_replay(g, s) for s in (None, 0, *range(1, seats + 1))]
    steps = 0
    while not g.machine.finished and g.machine.turn() <= turns and steps < 3000:
        seat = g.to_act()[0]
        listed = g.legal(seat)
        labels.update(g.rules.say_decision(g.machine.config, d) for d in listed)
        g.act(seat, choose[seat](g.state, seat, listed, rng))
        steps += 1
        if steps % 150 == 0:
            replays += [_replay(g, s) for s in (None, *range(1, seats + 1))]
    replays += [_replay(g, s) for s in (None, 0, *range(1, seats + 1))]
    return g, labels, replays


GAMES = [(1, "pirate", 3, 99), (2, {1: "merchant", 2: "pirate"}, 2, 14), (3, "random", 4, 8)]


@pytest.fixture(scope="module", params=GAMES, ids=lambda p: f"seed{p[0]}")
def played(request):
    return _played(*request.param)


def test_no_log_line_of_any_reader_names_an_id_or_the_engines_bookkeeping(played):
    g, _, _ = played
    m = g.machine
    seats = m.config["seats"]
    for seat in (None, 0, *range(1, seats + 1)):
        for x in log_entries(m.rules, _stored(g), seat, names=card_namer(m)):
            assert not _bad(x["text"]), (seat, x["type"], x["text"], _bad(x["text"]))


def test_no_replay_text_names_an_id(played):
    _, _, replays = played
    for text in replays:
        assert not _bad(text), (_bad(text), text)


def test_no_decision_listed_names_an_id(played):
    _, labels, _ = played
    assert len(labels) > 20
    for label in labels:
        assert not _bad(label), (label, _bad(label))


# the new words, line by line ---------------------------------------------------------------

def _line(type_, data, seat=None):
    from service.views import describe

    g = LocalGame(GAME, 3, seed=b"w" * 32)
    ev = SimpleNamespace(type=type_, turn=3, vis="all", data=data)
    return describe(g.rules, ev, card_namer(g.machine))


def test_ports_captains_and_ships_read_as_printed():
    assert _line("Moved", {"seat": 2, "frm": "basse_terre", "to": "st_maarten", "direction": "N"}) \
        == "seat 2 sails from Basse-Terre to St. Maarten (N)"
    assert _line("CaptainsRevealed", {"seats": {"1": {"captain": "alexandre_villon", "ship": "man_o_war"},
                                                "2": {"captain": "captain_06", "ship": "flute"}}}) \
        == "captains revealed: seat 1: Alexandre Villon on a Man-o-War, seat 2: captain card 6 on a Flute"
    assert _line("CaptainDealt", {"seat": 1, "captain": "felipe"}) == "seat 1 secretly draws a captain: Felipe"


def test_an_npc_ship_is_named_as_its_card_and_one_at_sea_is_not_told_it_will_enter():
    assert _line("NpcArriving", {"npc": "man_o_war_england", "card": None, "zone": "nassau"}) \
        == "the English Man-o-War goes to Nassau at the end of the turn"
    assert _line("NpcReplaced", {"npc": "dutch_naval", "card": "E11", "frm": "st_maarten", "to": "st_john",
                                 "captain": "Dutch admiral 2 (unknown)", "beneath": ["E10"]}) \
        == "the Dutch Naval Ship: Dutch admiral 2 takes command and sails from St. Maarten to St. John"
    assert _line("NpcsScouting", {"seat": 2, "npcs": ["dutch_naval", "pirate_sloop"], "why": "is in its zone"}) \
        == "the Dutch Naval Ship and the Pirate Sloop scout for seat 2 (it is in its zone)"


def test_tiles_tokens_and_decks_read_as_what_they_are():
    assert _line("MerchantTokensPlaced", {"tokens": {"havana": "M17", "caribbean_sea": "M06"}}) \
        == "merchant tokens, face down: Havana English, Caribbean Sea Dutch"
    assert _line("UpgradeTilesPlaced", {"tiles": {"port_royal": "U08"}}) \
        == "upgrade tiles, face down: Port Royal Long Guns"
    assert _line("DeckShuffled", {"deck": "demand_tiles", "order": ["D01"], "why": "demand tiles: one face up at "
                                  "each port, the rest a face-down reserve"}) \
        == "shuffled the demand tiles (one face up at each port, the rest a face-down reserve)"
    assert _line("CardDrawn", {"deck": "captains", "card": "captain_09", "why": "secret captain for seat 2"}) \
        == "drew captain card 9 from the captain deck (secret captain for seat 2)"
    assert _line("CardDrawn", {"deck": "missions", "card": "X04", "why": "a mission for the board"}) \
        == "drew mission card 4 from the mission deck (a mission for the board)"
    assert _line("DiceRolled", {"n": 1, "sides": 6, "values": [3], "why": "seat 1: influence test (claim mission X04)"}) \
        == "rolled 1d6: [3] (seat 1: influence test (claim mission card 4))"
    assert _line("MerchantSighted", {"seat": 3, "zone": "caracas", "nation": "england", "zone_nation": "spain"}) \
        == "seat 3 sights an English merchant in Caracas (Spanish waters)"


def test_the_replay_lists_the_order_of_play_only_once_there_is_one():
    g = LocalGame(GAME, 3, seed=b"o" * 32)
    text = _replay(g, None)
    assert "Player order" not in text and "order of play" not in text
    assert "Port Royal" in text or "Havana" in text
    g.play_out(random.Random(1))
    assert "Order of play: seat " in _replay(g, None)


def test_decisions_name_what_they_act_on_as_printed():
    from service.aggregates.merchants_and_marauders.catalog import default_catalog
    from service.aggregates.merchants_and_marauders.words import say_decision

    config = {"catalog": default_catalog()}
    said = {"scout the French Man-o-War": {"action": "scout", "target": "npc", "npc": "man_o_war_france"},
            "keep the rumor Forged Documents": {"action": "keep_rumor", "card": "R01"},
            "take mission card 3": {"action": "claim_mission", "mission": "X03"},
            "play glory card 21": {"action": "play_glory", "card": "G21"},
            "place the upgrade in Basse-Terre": {"action": "place_upgrade", "port": "basse_terre"},
            "raid a Dutch merchant": {"action": "raid", "nation": "netherlands"},
            "move the Dutch Naval Ship to Bridgetown, as the printed board has it":
                {"referee": "overrule_npc", "npc": "dutch_naval", "to": "bridgetown"}}
    for words, decision in said.items():
        assert say_decision(config, decision) == words


def test_a_table_games_log_and_what_the_referee_is_asked_name_no_id():
    """At a table the referee enters chance (the cards drawn, the dice): what the log asks
    for and what it records read as printed too."""
    from .helpers import Table

    t = Table(3)
    g, rng = t.g, random.Random(5)
    for _ in range(250):
        if g.machine.finished:
            break
        seat = g.to_act()[0]
        t.act(seat, rng.choice(g.legal(seat)))
    m = g.machine
    asked = [x for x in log_entries(m.rules, _stored(g), None, names=card_namer(m)) if x["type"] == "ChanceAwaited"]
    assert asked[0]["text"].startswith("waiting for the referee to enter a card of the demand tiles (face-up demand "
                                       "tile for ")
    for seat in (None, 0, 1, 2, 3):
        for x in log_entries(m.rules, _stored(g), seat, names=card_namer(m)):
            assert not _bad(x["text"]), (seat, x["type"], x["text"], _bad(x["text"]))

"""Loot in the game's words, not the engine's (issue 45): the log as the referee, the
public and each seat read it, the table (``tools replay``'s text) and every decision a seat
is offered name cards by what is printed on them (a merchant's gold, a pirate's colour and
skulls), never by an id (``merchant-4a``, ``draw_pile``)."""

from __future__ import annotations

import re

import pytest

from service.kernel.events import Ev
from service.kernel.games import get_rules
from service.views import describe
from tests.words_check import offending, play

rules = get_rules("loot")

BANNED = ("draw_pile", "strength now", "how ", "side ")
# a card id: a copy's letter (merchant-4a, purple-2c) or a captain's (purple-captain)
IDS = re.compile(r"\b(?:merchant|blue|green|purple|gold)-(?:\d+[a-z]|captain)\b")


def _say(type_: str, **data) -> str:
    return describe(rules, Ev(type_, 5, "all", data))


@pytest.fixture(scope="module", params=[(3, {}, "loot-words-3"), (4, {"pairs": "true"}, "loot-words-pairs")],
                ids=["3-seats", "pairs"])
def read(request):
    seats, options, seed = request.param
    return play("loot", seats, seed, options)[1]


def test_no_id_nor_bookkeeping_word_in_what_a_person_reads(read):
    texts = read.log + read.tables + read.labels
    assert not offending(texts, BANNED)[:5]
    assert not [(w, t) for w, t in texts if IDS.search(t)][:5]


def test_a_merchant_put_to_sea_is_offered_once_for_each_gold(read):
    """Two merchants of one gold in a hand look the same: one decision, one label
    (service/kernel/copies.py); no label repeats among the merchants a seat may put to sea."""
    for _seat, said in read.offered:
        labels = [s for s, d in said if d.get("action") == "merchant"]
        assert len(labels) == len(set(labels)), labels


def test_the_lines_say_the_cards():
    assert _say("MerchantPlayed", seat=1, side=1, card="merchant-4a", gold=4) == "seat 1 puts merchant 4 (4 gold) to sea"
    assert _say("PiratePlayed", seat=2, side=2, card="purple-2c", merchant="merchant-4a", colour="purple", skulls=2,
                strength=5) == "seat 2 attacks merchant 4 with purple 2: the purple pirates on it now have 5 skulls"
    assert _say("CaptainPlayed", seat=2, side=2, card="purple-captain", merchant="merchant-4a", colour="purple") == \
        "seat 2 plays the purple captain on merchant 4"
    assert _say("AdmiralPlayed", seat=1, side=1, card="admiral", merchant="merchant-4a") == \
        "seat 1 defends merchant 4 with the Admiral"
    assert _say("MerchantCaptured", seat=3, side=3, merchant="merchant-5d", gold=5, owner=2, discarded=["gold-1a"],
                how="most skulls") == "seat 3 captures seat 2's merchant 5 (5 gold): the most skulls on it"
    assert _say("MerchantCaptured", seat=2, side=2, merchant="merchant-2b", gold=2, owner=2, discarded=[],
                how="unattacked") == \
        "seat 2 captures its own merchant 2 (2 gold): nobody attacked it: it comes home to its owner"
    assert _say("MerchantCaptured", seat=1, side=1, merchant="merchant-4a", gold=4, owner=2, discarded=["gold-2b"],
                how="with admiral") == "seat 1 captures seat 2's merchant 4 (4 gold): the Admiral defends it"
    assert _say("MerchantCaptured", seat=1, side=1, merchant="merchant-4a", gold=4, owner=2, discarded=["gold-2b"],
                how="with gold-captain") == "seat 1 captures seat 2's merchant 4 (4 gold): the gold captain takes it"
    assert _say("CardDrawn", deck="draw_pile", card="gold-1a", why="seat 3 draws") == "seat 3 draws: gold 1"
    assert _say("GameEnded", reason="the draw pile is empty and a player has played their last card",
                discarded=["merchant-6a", "blue-3a", "green-captain"]) == \
        ("game over: the draw pile is empty and a player has played their last card; discarded from play: "
         "merchant 6, blue 3, the green captain")


def test_attacks_on_two_merchants_of_one_value_read_apart():
    """Two merchant 5s at sea (Ada's and Bo's; Bo has two): each attack names whose merchant it
    is, and Bo's two by their place at sea; the words for a lone merchant stay as they were."""
    from service.kernel.games import get_rules

    rules = get_rules("loot")
    sea = [{"merchant": "merchant-5a", "owner": 1}, {"merchant": "merchant-5b", "owner": 2},
           {"merchant": "merchant-5c", "owner": 2}, {"merchant": "merchant-3a", "owner": 1}]
    state = {"sea": sea}
    config = {"players": {"1": "Ada"}}
    attacks = [{"action": "pirate", "card": "blue-3a", "merchant": b["merchant"]} for b in sea]
    said = rules.say_choices(state, config, attacks)
    assert said == ["attack Ada's merchant 5 with blue 3",
                    "attack seat 2's merchant 5 (the first of them at sea) with blue 3",
                    "attack seat 2's merchant 5 (the second of them at sea) with blue 3",
                    "attack merchant 3 with blue 3"]
    assert len(set(said)) == len(said)
    assert rules.say_choices(state, config, attacks[3:]) == ["attack merchant 3 with blue 3"]

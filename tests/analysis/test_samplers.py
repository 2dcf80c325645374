"""Each game's sampler: a determinization keeps what the seat sees, depends on
nothing else, and is a state the rules play to the end."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from service.aggregates.kaisers_pirates.board import ix as kp_index
from service.aggregates.merchants_and_marauders.catalog import tables as mm_tables
from service.analysis.ismcts import machine_at, seats_of
from service.kernel.chance import SeededChance
from service.kernel.games import get_sampler
from service.kernel.games import get_rules
from service.kernel.sampling import copy_state

from .positions import GAMES, TABLE_POSITIONS, other_truth, position, table_game, unknown_tokens

POINTS = [(seed, steps) for seed in (1, 2, 3) for steps in (4, 25, 80)]


def play_to_end(rules, state, rng) -> dict:
    m = machine_at(rules, state, seats_of(state))
    chance = SeededChance(rng.getrandbits(128).to_bytes(16, "big"), [], 0)
    steps = 0
    while not m.k["finished"]:
        seat = m.acting()[0]
        m.play(seat, rng.choice(m.legal(seat)), chance)
        steps += 1
        assert steps < 100_000
    return m.k["result"]


@pytest.mark.parametrize("game", GAMES)
def test_a_determinization_keeps_the_seats_view_and_plays_to_the_end(game):
    rules, determinize = get_rules(game), get_sampler(game)
    changed = 0
    for seed, steps in POINTS:
        g = position(game, seed, steps)
        for seat in range(1, GAMES[game] + 1):
            before = copy_state(g.state)
            d = determinize(g.state, seat, random.Random(seed))
            assert g.state == before  # the true state is not touched
            assert rules.view(d, seat) == rules.view(g.state, seat)
            changed += d != g.state
            result = play_to_end(rules, d, random.Random(seed * 7 + seat))
            assert set(result["winners"]) <= set(range(1, GAMES[game] + 1))
    assert changed  # something hidden was drawn again somewhere


@pytest.mark.parametrize("game", GAMES)
def test_a_determinization_depends_only_on_what_the_seat_sees(game):
    rules, determinize = get_rules(game), get_sampler(game)
    tried = 0
    for seed, steps in POINTS:
        g = position(game, seed, steps)
        for seat in range(1, GAMES[game] + 1):
            other = other_truth(game, g.state, seat)
            if other is None:
                continue
            assert other != g.state
            assert rules.view(other, seat) == rules.view(g.state, seat)  # the change is hidden from the seat
            assert determinize(other, seat, random.Random(5)) == determinize(g.state, seat, random.Random(5))
            tried += 1
    assert tried >= 3


# Table games (issue 42): the cards nobody has seen are unknown tokens (``?deck#n``). A
# determinization gives each a card it could be (one still possible, of its own kind, none
# twice), so that the rules and the bots that play it out never meet a token.
TABLE_POINTS = [(from_position, seed, steps) for from_position in (True, False)
                for seed, steps in ((1, 3), (2, 15), (3, 40))]


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


def _cards_conserved(game: str, true: dict, drawn: dict) -> bool:
    """Kaiser's Pirates: the action cards (by copy) wherever they lie, the same in both
    (at a table the pool holds the tokens' identities; drawn, the tokens' places do).
    Merchants & Marauders: drawn, every demand tile, upgrade tile and merchant token of
    the catalog lies in one place, once. The other games lay no tokens."""
    if game == "kaisers-pirates":
        ids = set(kp_index(true).action_cards)
        return Counter(c for c in _strings(true) if c in ids) == Counter(c for c in _strings(drawn) if c in ids)
    if game == "merchants-and-marauders":
        S, board = mm_tables(drawn), drawn["board"]
        ships = [t for p in drawn["players"] for t in (p["ship"] or {}).get("upgrades", []) + p["returning"]]
        return (sorted([*board["demand"].values(), *drawn["decks"]["demand_reserve"]]) == sorted(S["demand"])
                and sorted([*(t for t in board["upgrades"].values() if t), *ships]) == sorted(S["upgrade"])
                and sorted([*(t for t in board["merchants"].values() if t), *board["merchant_track"]])
                == sorted(S["merchant"]))
    return True


@pytest.mark.parametrize("game", TABLE_POSITIONS)
def test_a_table_determinization_gives_each_unknown_card_one_it_could_be(game):
    rules, determinize = get_rules(game), get_sampler(game)
    games = [table_game(game, seed, steps, from_position) for from_position, seed, steps in TABLE_POINTS]
    if game == "kaisers-pirates":  # solitaire: the phantom's hand and its discards face down, unseen
        games += [table_game(game, seed, steps, False, seats=1) for seed, steps in ((4, 3), (5, 30))]
    tokens = tried = 0
    for i, g in enumerate(games):
        if g.machine.finished:
            continue
        tokens += len(unknown_tokens(g.state))
        for seat in range(1, g.machine.config["seats"] + 1):
            before = copy_state(g.state)
            d = determinize(g.state, seat, random.Random(i))
            assert g.state == before  # the true state is not touched
            assert not unknown_tokens(d)
            assert rules.view(d, seat) == rules.view(g.state, seat)
            assert _cards_conserved(game, g.state, d)
            other = other_truth(game, g.state, seat)
            if other is not None:
                assert rules.view(other, seat) == rules.view(g.state, seat)
                assert determinize(other, seat, random.Random(5)) == determinize(g.state, seat, random.Random(5))
                tried += 1
            result = play_to_end(rules, d, random.Random(i * 7 + seat))
            assert set(result["winners"]) <= set(range(1, g.machine.config["seats"] + 1))
    if game in ("kaisers-pirates", "merchants-and-marauders"):
        assert tokens and tried  # the games held unknown cards, and hidden facts to change


def test_a_drawn_kaisers_pirates_table_sets_its_next_rounds_cards_aside():
    """At a table a round's cards are set aside face down, as tokens nobody names; a
    determinization is played with seeded chance, where they must be drawn, or the
    next round would be played with the whole deck."""
    rules, determinize = get_rules("kaisers-pirates"), get_sampler("kaisers-pirates")
    for seed in (1, 2):
        g = table_game("kaisers-pirates", seed, 10, from_position=False)
        assert g.state["round"] == 1 and unknown_tokens(g.state["set_aside"])
        m = machine_at(rules, determinize(g.state, 1, random.Random(seed)), 2)
        chance, rng = SeededChance(bytes(16), [], 0), random.Random(seed)
        while m.s["round"] == 1:
            seat = m.acting()[0]
            m.play(seat, rng.choice(m.legal(seat)), chance)
        assert m.s["round"] == 2 and len(m.s["set_aside"]) == kp_index(m.s).removed[2] > 0
        assert not unknown_tokens(m.s)

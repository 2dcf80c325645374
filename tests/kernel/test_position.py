"""A game may start from a stated position (``Rules.position``): the kernel's side."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.kernel import BadInput
from service.kernel.chance import StatedChance, TableChance
from service.kernel.errors import ChanceRejected
from service.kernel.local import LocalGame


def test_a_game_without_positions_refuses_one_naming_itself(monkeypatch):
    monkeypatch.setenv("PRIVATEER_GAMES", "tests.dice_race")     # the toy game: no positions (Rules' default)
    with pytest.raises(BadInput, match="dice-race cannot start from a position yet"):
        LocalGame("dice-race", 2, position={"hands": {}})


def test_a_position_must_be_a_json_object():
    with pytest.raises(BadInput, match="a position is a JSON object"):
        LocalGame("merchants-and-marauders", 2, position=[1, 2])  # type: ignore[arg-type]


GAMES = ("merchants-and-marauders", "letter-of-marque", "loot", "kaisers-pirates")
LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-3, 12), st.sampled_from(
    ["Felipe", "Frances Wright", "Sloop", "Port Royal", "Chain Shot", "rum", "blue-2a", "merchant-5a", "admiral",
     "armed", "red", "blue", "x", "Emden", "qqq", "Maria"]))
JSON = st.recursive(LEAVES, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                    st.dictionaries(st.sampled_from(
                                                        ["players", "to_play", "sea", "captain", "hand", "ship",
                                                         "glory_cards", "merchant", "owner", "pirates", "returned",
                                                         "plundered", "cargo", "gold", "turn", "ships", "merchants", "prizes",
                                                         "vp", "round", "round_points", "damaged", "x"]), inner,
                                                        max_size=4)), max_leaves=12)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(GAMES), position=st.dictionaries(st.sampled_from(
    ["players", "to_play", "sea", "discard", "turn", "round"]), JSON, min_size=1, max_size=3))
def test_any_json_position_is_taken_or_refused_in_words_never_crashes(game, position):
    try:
        LocalGame(game, 2, position=position)
    except BadInput as e:
        assert e.reason


def test_stated_outcomes_are_served_in_order_and_only_where_asked():
    inner = TableChance([[4]])
    chance = StatedChance(["b", 2], inner)
    assert chance.outcome({"kind": "card", "deck": "d", "choices": ["a", "b"], "stated": True})[0] == "b"
    assert chance.outcome({"kind": "dice", "sides": 6, "n": 1}) == ([4], {"index": None, "counter": None, "draws": 0})
    assert chance.outcome({"kind": "pick", "options": [1, 2, 3], "stated": True})[0] == 2
    with pytest.raises(ChanceRejected, match="the position states fewer outcomes than the setup asks"):
        chance.outcome({"kind": "pick", "options": [1], "stated": True, "why": "x"})
    with pytest.raises(ChanceRejected, match="is not left in the d deck"):
        StatedChance(["z"], inner).outcome({"kind": "card", "deck": "d", "choices": ["a"], "stated": True})

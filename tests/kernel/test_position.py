"""A game may start from a stated position (``Rules.position``): the kernel's side."""

import pytest

from service.kernel import BadInput
from service.kernel.local import LocalGame


def test_a_game_without_positions_refuses_one_naming_itself():
    with pytest.raises(BadInput, match="kaisers-pirates cannot start from a position yet"):
        LocalGame("kaisers-pirates", 2, position={"hands": {}})


def test_a_position_must_be_a_json_object():
    with pytest.raises(BadInput, match="a position is a JSON object"):
        LocalGame("merchants-and-marauders", 2, position=[1, 2])  # type: ignore[arg-type]

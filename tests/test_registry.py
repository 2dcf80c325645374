"""A registered game whose rules do not import is an error wherever the games are listed, never
left out of the list: a test parametrized by the list, the service's ``/health`` or a test that
asked whether its game was there would otherwise pass without it."""

from __future__ import annotations

import pytest

from service.kernel.errors import BadInput
from service.kernel.games import available_games, game_names


def test_a_game_whose_rules_do_not_import_is_an_error_not_left_out(tmp_path, monkeypatch):
    (tmp_path / "broken_game.py").write_text(
        "from service.kernel.games import Registration\n"
        "GAME = Registration('broken-game', rules='broken_game_rules')\n")
    (tmp_path / "broken_game_rules.py").write_text("import no_such_module_here\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PRIVATEER_GAMES", "broken_game")
    assert game_names()[-1] == "broken-game"
    with pytest.raises(BadInput, match="game 'broken-game' is not available in this build: .*no_such_module_here"):
        available_games()


def test_every_built_in_game_is_available(monkeypatch):
    monkeypatch.delenv("PRIVATEER_GAMES", raising=False)
    assert available_games() == game_names() == ["letter-of-marque", "loot", "kaisers-pirates",
                                                  "merchants-and-marauders"]

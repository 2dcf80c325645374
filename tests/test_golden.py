"""Every event, listed decision and view of the seeded games of ``bench.golden`` is as committed in
bench/golden.json: one game of every configuration of each game, played by its bots and played at
a table. A speed change must leave them all the same; a change meant to move them rewrites the file
(``python -m bench.golden --write``) and says so in its commit."""

from __future__ import annotations

import pytest

from bench import golden
from service.kernel.games import BUILT_IN

GAMES = [g.name for g in BUILT_IN]


def test_the_file_holds_every_built_in_game():
    assert {game: sorted(kinds) for game, kinds in golden.read_committed().items()} == {
        game: sorted(golden.KINDS) for game in GAMES}


@pytest.mark.parametrize("kinds", [("events", "views"), ("table",)], ids=["played", "at-a-table"])
@pytest.mark.parametrize("game", GAMES)
def test_the_digests_are_as_committed(game, kinds):
    committed = golden.read_committed()[game]
    assert golden.committed(game, kinds) == {kind: committed[kind] for kind in kinds}, (
        f"{game}: a change moved what its seeded games produce; if it is meant to, run "
        "`python -m bench.golden --write` and say why in the commit")

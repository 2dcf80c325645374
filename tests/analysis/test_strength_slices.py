"""bench.strength's duels: a game is seeded by its number alone, so a run split into
slices, or played in several processes, plays the same games as the whole run."""

import random

from bench.strength import duel, duel_game, seeing_all
from service.kernel.local import LocalGame


def test_a_duel_in_two_processes_and_in_slices_plays_the_same_games():
    whole = [duel_game("letter-of-marque", i, 8, None, "t") for i in range(3)]
    rows: list[dict] = []
    summary = duel("letter-of-marque", 2, 8, None, "t", first=1, jobs=2, each=rows.append)
    rows.sort(key=lambda r: r["i"])
    assert [(r["i"], r["ismcts_seat"], r["winners"], r["scores"]) for r in rows] == \
        [(r["i"], r["ismcts_seat"], r["winners"], r["scores"]) for r in whole[1:]]
    assert [r["ismcts_seat"] for r in whole] == [1, 2, 1]
    assert summary["win_share"] == sum(r["share"] for r in whole[1:]) / 2


def test_the_oracle_searches_copies_of_the_true_state_and_plays_the_same_game_again():
    g = LocalGame("letter-of-marque", 2, seed=b"oracle".ljust(32, b"."))
    seen = seeing_all(g.state, 1, random.Random(0))
    assert seen == g.state and seen is not g.state and seen["players"][1] is not g.state["players"][1]
    a, b = (duel_game("letter-of-marque", 0, 8, None, "t", oracle=True) for _ in range(2))
    assert (a["winners"], a["scores"]) == (b["winners"], b["scores"])

"""Who leads before the end (standing.py): taken just before each round ends, the
standing's victory points and round points are those the round's end then
scores, and before the last round ends its leader is the game's winner."""

from __future__ import annotations

import random

import pytest
from kp_helpers import GAME

from service.aggregates.kaisers_pirates.standing import round_vp_now, standing
from service.kernel.local import LocalGame
from service.kernel.machine import Machine


def _rounds(seats: int, n: int):
    """Each round's end in a heuristic game: (the standing just before it, the round's
    RoundScored data, the seats whose warships over the limit were discarded, the
    per-seat round VP the standing counted, the GameOver data when the game ended there)."""
    g = LocalGame(GAME, seats, seed=f"standing-{seats}-{n}".encode().ljust(32, b"."))
    g.play_out(random.Random(n), bot="heuristic", keep=True)
    m = Machine(g.rules, g.events[0])
    out = []
    for i, e in enumerate(g.events):
        if e.type == "RoundEnded":
            before = (standing(m.state), {s: round_vp_now(m.state, s) for s in range(1, seats + 1)})
            ends = g.events[i:]
            scored = next(x for x in ends if x.type == "RoundScored").data
            upto = ends[:[x.type for x in ends].index("RoundScored")]
            dropped = {x.data["seat"] for x in upto if x.type == "VictoryCardsDiscarded"}
            over = next((x.data for x in ends[:[x.type for x in ends].index("RoundCleared") + 2]
                         if x.type == "GameOver"), None)
            out.append((before[0], scored, dropped, before[1], over))
        m.apply(e)
    assert m.kernel_state["finished"]
    return out, g


@pytest.mark.parametrize("seats,n", [(2, 0), (2, 1), (3, 2), (4, 3)])
def test_the_standing_scores_the_round_as_its_end_does(seats, n):
    rounds, g = _rounds(seats, n)
    assert len(rounds) >= 3
    played: dict[str, int] = {str(s): 0 for s in range(1, seats + 1)}
    for lead, scored, dropped, vp_now, over in rounds:
        for s in range(1, seats + 1):
            if s in dropped:   # the book discards the cards over the limit at random; the standing keeps the best
                assert vp_now[s] >= scored["vp"][str(s)]
            else:
                assert vp_now[s] == scored["vp"][str(s)]
        if not dropped:
            assert lead["scores"] == {s: played[s] + scored["points"][s] for s in played}
        for s in played:
            played[s] += scored["points"][s]
        if over is not None and not dropped and len(rounds) == 3:
            assert lead["winners"] == over["winners"]


def test_no_standing_in_the_solitaire():
    g = LocalGame(GAME, 1, seed=b"standing-solo".ljust(32, b"."))
    assert g.rules.outcome(g.state) is None and standing(g.state) is None


def test_a_finished_game_gives_its_result_not_a_standing():
    g = LocalGame(GAME, 2, seed=b"standing-end".ljust(32, b"."))
    g.play_out(random.Random(5), bot="heuristic", keep=True)
    assert g.rules.outcome(g.state) == g.state["result"]

"""A playout's value to the seat (ismcts.playout_value): the win share first, the
score margin beside it, so the search can tell a near win from a rout."""

from __future__ import annotations

import random

from service.analysis.ismcts import Node, _select, playout_value


def _result(winners, scores):
    return {"winners": winners, "scores": {str(s): v for s, v in scores.items()}}


def test_any_win_is_worth_more_than_any_loss_and_a_wider_margin_more_than_a_narrow_one():
    narrow_win = playout_value(_result([1], {1: 11, 2: 10}), 1)
    wide_win = playout_value(_result([1], {1: 30, 2: 2}), 1)
    narrow_loss = playout_value(_result([2], {1: 10, 2: 11}), 1)
    rout = playout_value(_result([2], {1: 0, 2: 40}), 1)
    shared = playout_value(_result([1, 2], {1: 10, 2: 10}), 1)
    assert rout < narrow_loss < shared < narrow_win < wide_win
    assert 0.0 <= rout and wide_win <= 1.0


def test_without_the_margin_a_playout_is_worth_its_win_share():
    assert playout_value(_result([1, 2], {1: 3, 2: 3}), 2, margin=0) == 0.5
    assert playout_value(_result([2], {1: 30, 2: 3}), 1, margin=0) == 0.0


def test_a_long_list_is_widened_slowly_from_the_heuristics_pick():
    root = Node()
    keys = [f"d{i}" for i in range(30)]
    options = [{"i": i} for i in range(30)]
    rng = random.Random(1)
    picked = []
    for _ in range(15):
        child, decision = _select(root, keys, options, rng, 0.7, hint="d7", bias=1.0, widen=1.0)
        root.visits += 1
        child.visits += 1
        child.value += 0.5
        picked.append(decision["i"])
    assert picked[0] == 7
    assert len(set(picked)) <= 4  # sqrt(15 + 1): not each of the 30 tried once
    assert max(set(picked), key=picked.count) == 7  # the bias keeps it the most played among equals

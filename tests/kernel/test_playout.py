"""A playout that keeps no history (``LocalGame.play_out(keep=False)``, what
the benchmark and a bot's look-ahead run) plays exactly the game that a kept
playout plays: same state, same kernel counters, same result, and it counts
the same decisions and chance outcomes that the kept events hold."""

from __future__ import annotations

import random

import msgpack
import pytest

from service.kernel.local import LocalGame
from service.kernel.machine import CHANCE_TYPES

GAMES = [("letter-of-marque", 3), ("loot", 3), ("kaisers-pirates", 2), ("merchants-and-marauders", 3)]


def _played(game: str, seats: int, keep: bool) -> LocalGame:
    g = LocalGame(game, seats, seed=b"playout-keeps-nothing".ljust(32, b"."))
    g.play_out(random.Random(7), keep=keep)
    return g


@pytest.mark.parametrize("game,seats", GAMES)
def test_an_unkept_playout_plays_the_same_game(game, seats):
    kept, unkept = _played(game, seats, True), _played(game, seats, False)
    pack = msgpack.Packer(use_bin_type=True).pack
    assert unkept.machine.k["finished"] and kept.machine.k["finished"]
    assert pack(unkept.machine.k) == pack(kept.machine.k)
    assert pack(unkept.machine.s) == pack(kept.machine.s)
    setup = len(unkept.events)  # the setup's events are kept: the playout's are not
    assert setup < len(kept.events)
    counted = sum(1 for e in kept.events[setup:] if e.type == "Decided" or e.type in CHANCE_TYPES)
    assert unkept.actions == counted > 0
    assert kept.actions == 0


def test_an_unkept_playout_cut_short_leaves_the_game_freezing_its_events_again():
    g = LocalGame("loot", 3, seed=b"cut-short".ljust(32, b"."))
    with pytest.raises(RuntimeError, match="did not end"):
        g.play_out(random.Random(1), keep=False, max_steps=5)
    assert g.machine.keep_events
    seat = g.to_act()[0]
    evs = g.act(seat, g.legal(seat)[0])
    assert evs and all(e.packed is not None for e in evs)


@pytest.mark.parametrize("game,seats", [("kaisers-pirates", 3), ("merchants-and-marauders", 3)])
def test_games_share_their_default_catalog_and_none_changes_it(game, seats):
    """Rules that declare ``shared_catalog`` give every game the one catalog
    object: after whole games it must still hold what its digest (recorded
    in each game's creation) says."""
    from service.kernel.rules import catalog_digest

    first = LocalGame(game, seats, seed=b"shared-catalog".ljust(32, b"."))
    assert first.rules.shared_catalog
    for i in range(2):
        g = LocalGame(game, seats, seed=f"shared-catalog-{i}".encode().ljust(32, b"."))
        assert g.machine.config["catalog"] is first.machine.config["catalog"]
        g.play_out(random.Random(i))
        assert g.machine.finished
    cat = first.machine.config["catalog"]
    assert catalog_digest(cat) == first.machine.config["catalog_digest"]

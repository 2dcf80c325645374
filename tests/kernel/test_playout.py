"""A playout that keeps no history (``LocalGame.play_out(keep=False)``, what
the benchmark and a bot's look-ahead run) plays exactly the game that a kept
playout plays: same state, same kernel counters, same result, and it counts
the same decisions and chance outcomes that the kept events hold. The one thing
it leaves out is what readers read: the labels public events gave to copies of
one face (``kernel_state["shown"]``, service/kernel/copies.py), which the kept
playout holds as the fold of its stored events would."""

from __future__ import annotations

import random

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.golden import configs
from service.kernel.games import game_names
from service.kernel.local import LocalGame
from service.kernel.machine import CHANCE_TYPES, Ev, Machine

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
    shown = kept.machine.k.get("shown")
    assert pack(_played_part(unkept.machine.k)) == pack(_played_part(kept.machine.k))
    assert pack(unkept.machine.s) == pack(kept.machine.s)
    if game != "letter-of-marque":  # (the others' cards come in copies of one face)
        assert shown
        folded = Machine(kept.rules, kept.events[0])
        for e in kept.events:
            folded.apply(e)
        assert folded.k["shown"] == shown  # the stored history folded gives the same labels
    setup = len(unkept.events)  # the setup's events are kept: the playout's are not
    assert setup < len(kept.events)
    counted = sum(1 for e in kept.events[setup:] if e.type == "Decided" or e.type in CHANCE_TYPES)
    assert unkept.actions == counted > 0
    assert kept.actions == 0


def _played_part(kernel_state: dict) -> dict:
    """The kernel state but the labels public events gave to copies (what readers read:
    a playout that keeps no events gives none)."""
    return {k: v for k, v in kernel_state.items() if k != "shown"}


@pytest.mark.parametrize("game", game_names())
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.binary(min_size=1, max_size=8), bot_seed=st.integers(0, 2**32), data=st.data())
def test_the_fold_path_plays_the_game_the_recorded_path_plays(game, seed, bot_seed, data):
    """Over seeds: a playout on the fold path (no event objects) ends in the very state,
    kernel state and outcome of the same playout with its events kept; and folding the
    kept events into a new machine (``Machine.apply``, the fold path too) gets there too."""
    seats, options, bot = data.draw(st.sampled_from(configs(game)))  # bench.golden's: seats, options, bots
    pack = msgpack.Packer(use_bin_type=True).pack
    games = []
    for keep in (True, False):
        g = LocalGame(game, seats, options, seed=seed.ljust(32, b"."))
        g.play_out(random.Random(bot_seed), bot=bot, keep=keep)
        games.append(g)
    kept, folded = games
    assert kept.machine.finished and folded.machine.finished
    assert kept.machine.kernel_state["result"] == folded.machine.kernel_state["result"]
    assert pack(_played_part(kept.machine.kernel_state)) == pack(_played_part(folded.machine.kernel_state))
    assert pack(kept.machine.state) == pack(folded.machine.state)
    assert folded.actions == sum(1 for e in kept.events if e.type == "Decided" or e.type in CHANCE_TYPES) - sum(
        1 for e in folded.events if e.type == "Decided" or e.type in CHANCE_TYPES)
    replayed = Machine(kept.rules, kept.events[0])
    for e in kept.events:
        replayed.apply(e)
    assert pack(replayed.kernel_state) == pack(kept.machine.kernel_state)
    assert pack(replayed.state) == pack(kept.machine.state)


def test_a_step_on_the_fold_path_makes_one_event_object_and_keeps_its_last_event():
    """The fold path writes every event of a step into the step's one object: ``events``
    holds it alone, and it is the last event emitted (what a rule may read back)."""
    g = LocalGame("merchants-and-marauders", 3, seed=b"fold-path".ljust(32, b"."))
    kept = LocalGame("merchants-and-marauders", 3, seed=b"fold-path".ljust(32, b"."))
    m = g.machine
    m.keep_events = False
    try:
        for _ in range(30):
            seat = m.to_act()[0]
            decision = m.legal(seat)[0]
            evs = m.decide(seat, decision, g.chance())
            want = kept.act(seat, kept.legal(seat)[0])
            assert len(evs) == 1 and type(evs[0]) is Ev
            assert (evs[0].type, evs[0].turn, evs[0].vis) == (want[-1].type, want[-1].turn, want[-1].vis)
            assert evs[0].data == want[-1].data
    finally:
        m.keep_events = True


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


def test_the_steps_run_through_one_step_object_each_return_their_own_events():
    """A machine runs its live steps through one step object (``Machine._step``): the
    events a kept step returned stay its own when the next step runs, and a step after
    the playout changed from unkept to kept keeps its events again."""
    g = LocalGame("letter-of-marque", 3, seed=b"one-step-object".ljust(32, b"."))
    returned = []
    for _ in range(6):
        seat = g.to_act()[0]
        evs = g.act(seat, g.legal(seat)[0])
        returned.append((evs, [e.as_tuple() for e in evs]))
    assert all([e.as_tuple() for e in evs] == tuples for evs, tuples in returned)
    assert len({id(evs) for evs, _ in returned}) == len(returned)
    m = g.machine
    m.keep_events = False
    try:
        seat = g.to_act()[0]
        unkept = m.decide(seat, g.legal(seat)[0], g.chance())
        assert len(unkept) == 1 and type(unkept[0]) is Ev  # (the fold path: the step's one object)
    finally:
        m.keep_events = True
    seat = g.to_act()[0]
    evs = g.act(seat, g.legal(seat)[0])
    assert evs and all(e.packed is not None for e in evs) and evs[0].type == "Decided"

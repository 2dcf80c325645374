"""Every stored step re-runs to the same events (what ``tools audit`` checks),
and a state restored without ``initial_state`` still finds its tables."""

import random

from service.aggregates.merchants_and_marauders import catalog as catalog_mod
from service.aggregates.merchants_and_marauders.state import initial_state
from service.kernel.chance import ReplayChance
from service.kernel.local import LocalGame
from service.kernel.machine import CHANCE_TYPES, Machine, same_events

from .helpers import GAME


def rerun(events, rules):
    m = Machine(rules, events[0])
    m.apply(events[0])
    revealed = next((e.data.get("seed") for e in events if e.type == "GameFinished"), None)
    i = 1
    while i < len(events):
        e = events[i]
        assert e.type == "Decided"
        j = i + 1
        while j < len(events) and events[j].type != "Decided":
            j += 1
        recorded = events[i:j]
        chance = ReplayChance([dict(r.data) for r in recorded if r.type in CHANCE_TYPES], revealed)
        seat, decision = e.data["seat"], e.data["decision"]
        got = m.setup(chance) if seat == 0 else m.decide(seat, decision, chance)
        assert same_events(recorded, got), (i, e)
        i = j


def test_bot_games_re_run_identically():
    for seats, bot in ((2, "merchant"), (3, "random"), (4, "merchant")):
        g = LocalGame(GAME, seats, seed=bytes([seats]) * 32)
        g.play_out(random.Random(seats), bot=bot)
        rerun(g.events, g.rules)


def test_tables_survive_a_fresh_process():
    g = LocalGame(GAME, 2, seed=b"\x02" * 32)
    state = g.state
    catalog_mod._TABLES.clear()
    catalog_mod._DEFAULT.clear()
    assert g.rules.legal(state, g.to_act()[0])          # reloads the default catalog's tables


def test_another_catalog_carries_its_tables():
    cat = catalog_mod.read()
    cat["rules"]["value"]["start_gold"] = 12
    state = initial_state({"catalog": cat, "seats": 2, "options": {}})
    assert state["tables"]["rules"]["start_gold"] == 12
    catalog_mod._TABLES.pop(state["cat"])
    assert catalog_mod.tables(state)["rules"]["start_gold"] == 12


def test_a_snapshot_on_older_tables_is_refused_and_the_game_folds_from_its_events(tmp_path):
    """A state whose catalog key is not today's (a snapshot of an older build) is refused
    by ``restored`` with a ValueError (what every reader of snapshots treats as unusable),
    and the application loads the game from its events all the same."""
    import pytest

    from service.snapshots import SNAPSHOT_FORMAT, machine_from

    g = LocalGame(GAME, 2, seed=b"\x05" * 32)
    config = {"catalog": catalog_mod.default_catalog()}
    with pytest.raises(ValueError, match="catalog tables changed"):
        g.rules.restored(config, dict(g.state, cat="0123456789abcdef"))
    g.rules.restored(config, g.state)                   # today's tables: accepted
    snap = {"format": SNAPSHOT_FORMAT, "k": {"seen": {}}, "s": dict(g.state, cat="0123456789abcdef"),
            "config": {"game": GAME, "catalog": config["catalog"]}}
    with pytest.raises(ValueError):
        machine_from(snap)

"""A table-mode machine that entered chance outcomes (each entry re-runs the
paused step from the state before it) counts its readers' events and its steps
as a fresh fold of the same events does: a seat's version is the same whether
the service answers from the machine it kept or from the store."""

import random

import pytest

from service.app import Privateer
from service.kernel.chance import TableChance


def outcome_for(awaiting: dict, rng: random.Random):
    if "options" in awaiting:
        return rng.choice(awaiting["options"])
    if "choices" in awaiting:
        return rng.choice(awaiting["choices"])
    if awaiting["kind"] == "dice":
        faces = [rng.randint(1, awaiting["sides"]) for _ in range(awaiting["n"])]
        return faces if awaiting["n"] > 1 else faces[0]
    pytest.fail(f"no outcome chosen here for {awaiting['kind']}")


@pytest.mark.parametrize("game,seats", [("loot", 3), ("letter-of-marque", 3)])
def test_a_machine_kept_across_chance_entries_counts_as_a_fresh_fold(game, seats, tmp_path):
    app = Privateer(str(tmp_path / "t.db"))
    gid = app.create(game, seats, table=True)
    live = app.load(gid)  # kept, as the HTTP service keeps the game it last committed
    rng = random.Random(5)
    entries = 0
    for _ in range(150):
        m = live.machine
        if m.finished:
            break
        if m.k["awaiting"] is not None:
            events = m.enter_chance(outcome_for(m.k["awaiting"], rng))
            entries += 1
        else:
            seat = m.to_act()[0]
            events = m.decide(seat, rng.choice(m.legal(seat)), TableChance([]))
        live.record(events)
        app.save(live)
        fresh = app.load(gid).machine
        assert fresh is not m
        assert (m.k["seen"], m.k["steps"]) == (fresh.k["seen"], fresh.k["steps"])
        for seat in range(0, seats + 1):
            assert m.seen(seat, live.version) == fresh.seen(seat, live.version)
    assert entries > 10

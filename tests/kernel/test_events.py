"""Emitted events are immutable: nothing the rules do after ``emit`` changes
them, however the state shares their data; copies carry the emitted data."""

from __future__ import annotations

import copy
import pickle

from service.kernel.machine import Ev, Machine, Step
from service.kernel.rules import Rules


class KeepingRules(Rules):
    """A game whose state keeps (and later changes) the list an event carried."""

    name = "keeping"

    def initial_state(self, config):
        return {"turn": 0, "hand": None}

    def turn(self, state):
        return state["turn"]

    def evolve(self, state, ev):
        if ev.type == "Dealt":
            state["hand"] = ev.data["cards"]   # the state keeps the event's own list
        elif ev.type == "Played":
            state["hand"].remove(ev.data["card"])


def machine() -> Machine:
    created = Ev("GameCreated", 0, "all", {"seats": 2, "table": False})
    m = Machine(KeepingRules(), created)
    m.apply(created)
    return m


def test_a_list_the_state_kept_and_changed_does_not_change_the_event():
    m = machine()
    step = Step(m, None, 1)
    dealt = step.emit("Dealt", {"cards": ["a", "b", "c"]}, [1])
    step.emit("Played", {"card": "b"}, "all")
    assert m.s["hand"] == ["a", "c"]
    assert dealt.data == {"cards": ["a", "b", "c"]}
    assert dealt.frozen() == {"cards": ["a", "b", "c"]}
    assert dealt.data is dealt.data  # read back once, then kept


def test_copied_and_pickled_events_carry_the_emitted_data():
    m = machine()
    step = Step(m, None, 1)
    dealt = step.emit("Dealt", {"cards": ["x", "y"]}, [2])
    step.emit("Played", {"card": "x"}, "all")
    for other in (copy.deepcopy(dealt), pickle.loads(pickle.dumps(dealt)), copy.copy(dealt)):
        assert (other.type, other.turn, other.vis, other.data, other.packed) == \
            ("Dealt", 0, [2], {"cards": ["x", "y"]}, dealt.packed)
    assert m.s["hand"] == ["y"]


def test_a_seat_list_given_to_emit_is_not_shared_with_the_event():
    m = machine()
    seats = [2]
    ev = Step(m, None, 1).emit("Dealt", {"cards": []}, seats)
    seats.append(1)
    assert ev.vis == [2]


def _dealt(state, d, ev):
    state["hand"] = d["cards"]


def _played(state, d, ev):
    state["hand"].remove(d["card"])


class TableRules(KeepingRules):
    """The same game with ``evolve`` given as a table (``Rules.handlers``)."""

    evolve = Rules.evolve
    handlers = {"Dealt": _dealt, "Played": _played}


class BothRules(TableRules):
    """A table and an ``evolve`` of its own: the game's ``evolve`` is what folds."""

    def evolve(self, state, ev):
        state.setdefault("seen", []).append(ev.type)


def _fold(rules) -> Machine:
    created = Ev("GameCreated", 0, "all", {"seats": 2, "table": False})
    m = Machine(rules, created)
    m.apply(created)
    step = Step(m, None, 1)
    step.emit("Decided", {"seat": 1, "decision": {"x": 1}}, [1])
    step.emit("Dealt", {"cards": ["a", "b", "c"]}, [1])
    m.apply(Ev("Played", 0, "all", {"card": "b"}))  # folded from a log, as a replay folds
    return m


def test_a_game_given_as_a_table_of_handlers_folds_as_its_evolve_would():
    assert TableRules().fold is TableRules.handlers  # each handler called straight
    assert _fold(TableRules()).s == _fold(KeepingRules()).s == {"turn": 0, "hand": ["a", "c"]}
    state = {"turn": 0, "hand": ["q"]}
    TableRules().evolve(state, Ev("Played", 0, "all", {"card": "q"}))  # evolve itself reads the table
    assert state["hand"] == []


def test_a_game_with_an_evolve_of_its_own_is_folded_through_it_for_every_event():
    assert _fold(BothRules()).s == {"turn": 0, "hand": None,
                                     "seen": ["GameCreated", "Decided", "Dealt", "Played"]}

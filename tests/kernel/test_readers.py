"""Who may read an event is one rule (service/kernel/events.py): ``may_read`` says it of one
reader, ``count_readers`` counts an event for its readers. ``Step.emit`` writes the count out
where every event passes; these tests hold it, a retracted event's count and ``Machine.seen``
to the rule. An event's data may carry any field, ``vis`` and ``turn`` included."""

from __future__ import annotations

from service.kernel.events import count_readers, may_read
from service.kernel.machine import Ev, Machine, Step
from service.kernel.rules import Rules

SEATS = 3
VISES = ["all", "referee", [1], [2], [3], [1, 3], [3, 1, 3], (2,), [1, 2, 3]]


class Plain(Rules):
    name = "plain"
    handlers: dict = {}  # no event changes its state

    def initial_state(self, config):
        return {"turn": 4}

    def turn(self, state):
        return state["turn"]


def machine() -> Machine:
    created = Ev("GameCreated", 0, "all", {"seats": SEATS, "table": False})
    m = Machine(Plain(), created)
    m.apply(created)
    return m


def test_emit_counts_each_event_for_those_who_may_read_it():
    for vis in VISES:
        m = machine()
        before = list(m.kernel_state["seen"])
        ev = Step(m, None, 1).emit("Shown", {}, vis)
        expected = list(before)
        count_readers(expected, ev.vis)
        assert m.kernel_state["seen"] == expected, vis
        for seat in range(1, SEATS + 1):  # a seat's version moves by one when it may read the event
            assert m.seen(seat, 0) - (before[0] + before[seat]) == may_read(ev.vis, seat), (vis, seat)
        assert m.seen(0, 0) - before[0] == may_read(ev.vis, 0)
        assert may_read(ev.vis, None)  # the referee reads every event


def test_a_retracted_event_stays_counted_for_its_readers():
    for vis in VISES:
        m, folded = machine(), machine()
        ev = Step(m, None, 1).emit("Shown", {}, vis)
        folded.apply_retracted(ev)
        assert folded.kernel_state["seen"] == m.kernel_state["seen"], vis


def test_count_readers_takes_an_event_back():
    seen = [0] * (SEATS + 1)
    for vis in VISES:
        count_readers(seen, vis)
        count_readers(seen, vis, -1)
    assert seen == [0] * (SEATS + 1)


def test_an_event_may_carry_fields_named_vis_and_turn():
    m = machine()
    ev = Step(m, None, 1).emit("Noted", {"vis": "all", "turn": 9, "type": "x"}, [2])
    assert (ev.type, ev.turn, ev.vis, ev.data) == ("Noted", 4, [2], {"vis": "all", "turn": 9, "type": "x"})
    assert not ev.visible_to(1) and ev.visible_to(2) and ev.visible_to(None)
    at = Step(m, None, 1).emit("Noted", {"turn": 9}, "referee", 7)
    assert (at.turn, at.vis, at.data) == (7, "referee", {"turn": 9})

"""At a real table nobody sees the face-down upgrade tiles, merchant tokens or
the demand reserve: the referee is never asked to name them when they are
laid; a tile is named when the rules turn it over, among the identities
still possible, and the game audits clean."""

import pytest

from service.records.audit import AuditReport, rerun
from service.kernel.errors import ChanceRejected
from service.kernel.machine import is_unknown

from .helpers import S, Table


class Env:
    """A LocalGame event as the audit reads a stored one."""

    def __init__(self, version, ev):
        self.version, self.type, self.turn, self.vis, self.data = version, ev.type, ev.turn, ev.vis, ev.frozen()

    def ev(self):
        from service.kernel.machine import Ev

        return Ev(self.type, self.turn, self.vis, self.data)


def audit(g):
    report = AuditReport(game_id="t")
    rerun([Env(i + 1, e) for i, e in enumerate(g.events)], report)
    return report


def started():
    t = Table(2, {"pick": [1]})
    for seat in (1, 2):
        t.act(seat, {"action": "choose_ship", "ship": "sloop"})
    return t


def test_tiles_and_tokens_are_laid_unseen_and_named_when_turned_over():
    t = started()
    board = t.state["board"]
    asked = {e.data.get("deck") for e in t.g.events if e.type == "ChanceAwaited"}
    assert not asked & {"upgrades", "merchant_tokens"}      # nobody was asked to name them
    assert all(is_unknown(x) for x in board["upgrades"].values() if x is not None)
    assert all(is_unknown(x) for x in board["merchants"].values() if x is not None)
    assert all(is_unknown(x) for x in t.state["decks"]["demand_reserve"])
    here = t.p(1)["zone"]
    # the tile at the first captain's home port is turned over on its port action: the referee names it
    g = t.g
    g.act(1, {"action": "port"})
    awaited = g.machine.awaiting_chance()
    assert awaited["deck"] == "upgrades" and len(awaited["choices"]) == len(S["upgrade"])
    with pytest.raises(ChanceRejected):
        g.enter("Z99")                                        # no such tile
    g.enter(sorted(S["upgrade"])[3])
    t.feed()
    board = t.state["board"]
    assert board["upgrades"][here] == sorted(S["upgrade"])[3] and board["revealed"][here]
    assert audit(g).ok


def test_a_tile_already_seen_cannot_be_named_again():
    t = started()
    g = t.g
    g.act(1, {"action": "port"})
    first = sorted(S["upgrade"])[0]
    g.enter(first)
    t.feed()
    # the other captain's port: the tile named there must be another one
    seat2_port = t.p(2)["zone"]
    assert seat2_port != t.p(1)["zone"], "both captains start in the same port"
    while 2 not in g.to_act():
        d = next(x for x in g.legal(g.to_act()[0]) if x["action"] in ("end_port", "end_turn", "leave_port"))
        g.act(g.to_act()[0], d)
        t.feed()
    g.act(2, {"action": "port"})
    assert g.machine.awaiting_chance() is not None, "no face-down tile at the second port"
    assert first not in g.machine.awaiting_chance()["choices"]
    with pytest.raises(ChanceRejected):
        g.enter(first)
    g.enter(sorted(S["upgrade"])[1])
    assert audit(g).ok


def test_cards_and_tiles_are_named_as_printed():
    """The referee names a demand tile by its good and a captain by name; the
    ids stay aliases; a refusal lists what is printed, counted."""
    from service.kernel.local import LocalGame

    g = LocalGame("merchants-and-marauders", 2, table=True)
    a = g.machine.awaiting_chance()
    assert a["deck"] == "demand_tiles" and a["names"]
    with pytest.raises(ChanceRejected) as refused:
        g.enter("gunpowder")
    line = str(refused.value)
    assert "\n" not in line and " x" in line and "D01" not in line   # goods with counts, not ids
    good = S["demand"][sorted(S["demand"])[0]]
    g.enter(good)                                           # a tile showing that good
    drawn = [e for e in g.events if e.type == "CardDrawn"][-1].data["card"]
    assert S["demand"][drawn] == good
    while g.machine.awaiting_chance()["deck"] != "captains":
        a = g.machine.awaiting_chance()
        g.enter(sorted(a["choices"])[0] if a["kind"] == "card" else a.get("options", [1])[0])
    name = S["captains"][sorted(S["captains"])[0]]["name"]
    g.enter(name.upper())
    dealt = [e for e in g.events if e.type == "CaptainDealt"][-1].data["captain"]
    assert S["captains"][dealt]["name"] == name

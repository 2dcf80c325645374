"""A whole round of The Kaiser's Pirates for 3 players recorded at a table:
the 40 action cards set aside face down are never named, a card the referee
would once have had to "guess" into that pile is drawn later, and the history
audits clean."""

import random

from service.records.audit import AuditReport, rerun
from service.kernel.machine import Ev, is_unknown

from kp_helpers import Table, count_cards


class Env:
    def __init__(self, version, ev):
        self.version, self.type, self.turn, self.vis, self.data = version, ev.type, ev.turn, ev.vis, ev.frozen()

    def ev(self):
        return Ev(self.type, self.turn, self.vis, self.data)


def test_a_round_at_a_table_never_names_the_cards_set_aside():
    every = sorted(__import__("service.aggregates.kaisers_pirates.board", fromlist=["ix"]).ix(
        Table(3).state).action_cards)
    # the first card in the box's order: a referee guessing the set-aside pile would have put it there
    guessed = every[0]
    t = Table(3, hands={1: [guessed]})
    g = t.g
    assert not any(e.type == "ChanceAwaited" and e.data.get("deck") == "action:set-aside" for e in g.events)
    aside = g.state["set_aside"]
    assert len(aside) == 40 and all(is_unknown(c) for c in aside)
    assert guessed in g.state["players"][0]["hand"]        # drawn, although "set aside" by a guess
    assert g.rules.view(g.state, 1)["action_deck"] == 100 - 40 - 3 * 6
    rng = random.Random(5)
    steps = 0
    while g.state["round"] == 1 and not g.machine.finished:
        if g.machine.k["awaiting"] is not None:
            a = g.machine.k["awaiting"]
            g.enter(rng.randint(1, a["sides"]) if a["kind"] == "dice" else
                    (a["options"][0] if a["kind"] == "pick" else sorted(a["choices"])[0]))
            continue
        seat = g.to_act()[0]
        t.act(seat, rng.choice(g.legal(seat)))
        count_cards(g.state)
        steps += 1
        assert steps < 3000
    assert g.state["round"] == 2 or g.machine.finished      # the whole first round was recorded
    assert not any(e.type == "ChanceAwaited" and e.data.get("deck") == "action:set-aside" for e in g.events)
    report = AuditReport(game_id="t")
    rerun([Env(i + 1, e) for i, e in enumerate(g.events)], report)
    assert report.ok, report.first_bad

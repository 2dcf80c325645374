"""The choices a seat reads (Machine.said_choices): a cargo card offered in port says its price,
and two cargo cards of one good and raid value are told apart by their icons (issue 45)."""

from __future__ import annotations

import random

from service.kernel.local import LocalGame


def test_cards_offered_in_port_say_their_price_and_read_apart():
    seen = 0
    for seed in range(6):
        g = LocalGame("merchants-and-marauders", 3, seed=bytes([seed]) * 32)
        rng = random.Random(seed)
        for _ in range(300):
            m = g.machine
            if m.finished:
                break
            seat = m.to_act()[0]
            offered = m.offered(seat)
            said = m.said_choices(offered)
            assert len(set(said)) == len(said), said           # no two choices read alike
            offer = (m.state.get("port") or {}).get("offer") or {}
            for d, text in zip(offered, said):
                if d.get("action") == "buy":
                    assert text.endswith(f" for {offer[d['card']]} gold"), text
                    seen += 1
            g.act(seat, rng.choice(m.legal(seat)))
    assert seen > 10

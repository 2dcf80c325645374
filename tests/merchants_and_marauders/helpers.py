"""Shared helpers: a table-mode driver that answers each awaited chance from a
script (by deck / kind), with plain defaults for the rest."""

from __future__ import annotations

import json

from service.kernel.local import LocalGame

GAME = "merchants-and-marauders"


def cat_static():
    from service.aggregates.merchants_and_marauders.catalog import static
    from service.aggregates.merchants_and_marauders.catalog_checks import load
    return static(load())


S = cat_static()


def cards_of(good, exclude=()):
    return sorted(c for c, g in S["good"].items() if g == good and c not in exclude)


def tile_of(good, exclude=()):
    return sorted(t for t, g in S["demand"].items() if g == good and t not in exclude)


class Table:
    """A table-mode game; ``script`` maps a deck name (cards, shuffles) or
    "dice"/"pick" to a list of outcomes consumed in order. The first player may be
    scripted by seat under "pick" (as before rules version 5 drew it as a seat): that
    seat's captain card is named."""

    def __init__(self, seats, script=None, options=None, catalog=None, position=None):
        self.script = {k: [list(x) if isinstance(x, list) else x for x in v] for k, v in (script or {}).items()}
        self.g = LocalGame(GAME, seats, options=options, table=True, catalog=catalog, position=position)
        self.feed()

    def add(self, key, *values):
        self.script.setdefault(key, []).extend(values)

    def _value(self, spec):
        kind = spec["kind"]
        key = spec.get("deck") or kind
        if kind == "dice":
            key = "dice"
        if key == "first_player" and self.script.get("pick") and key not in self.script:
            # the first player scripted by seat ("pick": [2]): that seat's captain card is drawn
            seat = self.script["pick"].pop(0)
            return self.g.state["players"][seat - 1]["captain"]
        queue = self.script.get(key)
        if queue and kind == "card" and isinstance(queue[0], list):
            # an order scripted for a deck that is now named card by card (the face-up demand tiles)
            order = queue[0]
            card = next(c for c in order if c in spec["choices"])
            order.remove(card)
            if not order or not any(c in spec["choices"] for c in order):
                queue.pop(0)
            return card
        if queue:
            return queue.pop(0)
        if kind == "dice":
            return [1] * spec["n"]
        if kind == "pick":
            return spec["options"][0]
        if kind == "shuffle":
            return sorted(spec["cards"], key=lambda c: json.dumps(c))
        return sorted(spec["choices"], key=lambda c: json.dumps(c))[0]

    def feed(self):
        evs = []
        while self.g.machine.k["awaiting"] is not None:
            evs += self.g.enter(self._value(self.g.machine.k["awaiting"]))
        return evs

    def act(self, seat, decision):
        evs = self.g.act(seat, decision)
        return evs + self.feed()

    @property
    def state(self):
        return self.g.state

    def p(self, seat):
        return self.g.state["players"][seat - 1]


def demand_order(wants: dict):
    """A shuffle of the 24 demand tiles giving port -> good as asked (others
    get the remaining tiles in order)."""
    ports = S["ports"]
    used, order = set(), []
    for port in ports:
        if port in wants:
            t = next(t for t in tile_of(wants[port]) if t not in used)
        else:
            t = next(t for t in sorted(S["demand"]) if t not in used and S["demand"][t] not in wants.values())
        used.add(t)
        order.append(t)
    return order + [t for t in sorted(S["demand"]) if t not in used]


def types(evs):
    return [e.type for e in evs]


def give_gold(t, seat, amount):
    """Test set-up: move coins from the bank to a seat (conserves coins)."""
    t.state["bank"] -= amount
    t.p(seat)["gold"] += amount


def end_turn_if_due(t, seat):
    """After a seat's last action its turn goes on while it may still play a glory card
    or take gold from its stash (rules version 3): it ends it."""
    if t.g.to_act() == [seat] and t.state["actions"] <= 0:
        t.act(seat, {"action": "end_turn"})


def no_glory_cards(t):
    """Test set-up: the glory cards dealt go back to the deck, so the fights of a test
    that is not about them open no glory window (a window asks every side holding one)."""
    for p in t.state["players"]:
        t.state["decks"]["glory"] += p["hand"]
        p["hand"] = []

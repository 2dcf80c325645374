"""Helpers for The Kaiser's Pirates tests: a table-mode game with a chosen
deal, and the card-conservation and visibility checks."""

from __future__ import annotations

import random

from service.aggregates.kaisers_pirates.board import ix
from service.kernel.local import LocalGame

GAME = "kaisers-pirates"


class Table:
    """A table-mode game whose chance outcomes come from a plan: the cards of
    each hand and force are named; every other card drawn is any card nobody
    reserved; dice are entered by the test."""

    def __init__(self, seats, hands=None, ships=None, merchants=None, first=1, draws=None, solo=None, picks=None,
                 options=None, position=None):
        self.hands = {s: list(v) for s, v in (hands or {}).items()}
        self.ships = {s: list(v) for s, v in (ships or {}).items()}
        self.merchants = {s: list(v) for s, v in (merchants or {}).items()}
        self.draws = {s: list(v) for s, v in (draws or {}).items()}   # later action draws
        self.peeks: list[str] = []
        self.picks: list = list(picks or [])
        self.solo: list[str] = list(solo or [])    # solitaire: the solitaire cards turned, in order
        self.reserved = {c for v in list(self.hands.values()) + list(self.draws.values()) for c in v}
        self.reserved_ships = {c for v in list(self.ships.values()) + list(self.merchants.values()) for c in v}
        self.seats = seats
        self.first = first
        self.g = LocalGame(GAME, seats, options=options, table=True, position=position)
        # the first-turn roll-off: the chosen seat rolls 10, the others 1
        # (solitaire: the phantom, seat 2, rolls too)
        self.dice = [] if position else [10 if s == first else 1 for s in range(1, max(seats, 2) + 1)]
        self.auto()

    @property
    def state(self):
        return self.g.state

    def _free(self, choices, reserved):
        for c in sorted(choices):
            if c not in reserved:
                return c
        raise AssertionError("no free card left")

    def auto(self):
        """Answer every awaited card draw and pick from the plan; stop at dice."""
        while True:
            a = self.g.machine.k["awaiting"]
            if a is None:
                return
            if a["kind"] == "dice":
                if not self.dice:
                    return
                self.g.enter(self.dice.pop(0))
                continue
            if a["kind"] == "card" and a["deck"] == "solitaire":
                self.g.enter(self.solo.pop(0))
                continue
            if a["kind"] == "pick":
                self.g.enter(self.picks.pop(0) if self.picks else a["options"][0])
                continue
            deck, _, dest = a["deck"].partition(":")
            choices = a["choices"]
            if deck.startswith("hand-of-"):  # a random card of a hand (Deception, Recon Aircraft): named
                self.g.enter(self.picks.pop(0) if self.picks else sorted(choices)[0])
                continue
            if deck == "action":
                if dest.startswith("hand-"):
                    s = int(dest[5:])
                    src = self.hands.get(s) if self.g.state["phase"] == "dealing" else self.draws.get(s)
                    card = src.pop(0) if src else self._free(choices, self.reserved)
                elif dest == "peek" and self.peeks:
                    card = self.peeks.pop(0)
                else:
                    card = self._free(choices, self.reserved)
            else:
                s = int(dest.split("-")[1])
                src = (self.ships if deck == "ships" else self.merchants).get(s)
                card = src.pop(0) if src else self._free(choices, self.reserved_ships)
            self.g.enter(card)

    manual_discards = False

    def act(self, seat, decision):
        evs = self.g.act(seat, decision)
        self.auto()
        self.discards()
        return evs

    auto_proceed = True

    def discards(self):
        """3.1.5 discard order: unless a test orders them itself, cards go down sorted.
        An assist window with nothing to reveal (only "proceed") is answered too."""
        while True:
            w = self.g.state["window"]
            if not w or self.g.machine.k["awaiting"] is not None:
                return
            legal = self.g.legal(w["seat"])
            if w["kind"] == "discard" and not self.manual_discards:
                self.g.act(w["seat"], legal[0])
            elif w["kind"] == "assist" and self.auto_proceed and legal == [{"action": "proceed"}]:
                self.g.act(w["seat"], legal[0])
            else:
                return
            self.auto()

    def roll(self, *values):
        """Enter die faces, one die at a time, in the order the rules roll them."""
        for v in values:
            a = self.g.machine.k["awaiting"]
            assert a is not None and a["kind"] == "dice", f"no die awaited (awaiting {a})"
            self.g.enter(v)
            self.auto()
            self.discards()

    def awaiting(self):
        return self.g.machine.k["awaiting"]

    def legal(self, seat):
        return self.g.legal(seat)

    def p(self, seat):
        return self.state["players"][seat - 1]

    def st(self, ship):
        return self.state["status"][ship]

    def commit(self, seat, *items):
        """Commit cards face down: (card, use) or (card, use, ship); an intercept
        card without a ship is placed before the force (British forces)."""
        for item in items:
            d = {"action": "commit", "card": item[0], "use": item[1]}
            if len(item) == 3:
                d["ship"] = item[2]
            elif item[1] == "intercept":
                d["ship"] = None
            self.act(seat, d)
        self.act(seat, {"action": "done"})

    def events(self, type_):
        return [e for e in self.g.events if e.type == type_]


def count_cards(state):
    """Every card in exactly one place: 100 action cards, 20 ships, 60 merchants."""
    i = ix(state)
    tt = state["tt"] or {"committed": [], "played": [], "reactions": []}
    from service.kernel.machine import is_unknown

    # at a table the cards set aside (and, solitaire, the phantom's) are unseen tokens: their
    # identities are still among the pool; solitaire leaves the cards 5.2 names unused
    action = (list(state["pool"]) + state["top"] + state["peek"] + state["set_aside"] + state["discard"]
              + [c["card"] for c in tt["committed"]] + tt["played"] + tt["reactions"] + state.get("unused", []))
    # 6.5: the ships and merchants an option leaves out of the game
    ships = list(state["ship_pool"]) + state["ship_used"] + state.get("unused_ships", [])
    merchants = list(state["merchant_pool"]) + state["merchant_used"] + state.get("unused_merchants", [])
    for p in state["players"]:
        action += p["hand"]
        if p["pending"]:
            action.append(p["pending"]["card"])
        ships += p["ships"]
        merchants += p["merchants"] + p["prizes"]
        for e in p["vp"]:
            if e["deck"] != "solitaire":     # the phantom's submarine or reaction: no card of the three decks
                {"action": action, "ship": ships, "merchant": merchants}[e["deck"]].append(e["card"])
    for stt in state["status"].values():
        if stt.get("refuge"):
            action.append(stt["refuge"])
    action = [c for c in action if not is_unknown(c) and not c.startswith("solo:")]   # solo: the phantom's
    assert sorted(action) == sorted(i.action_cards), "action cards not conserved"
    assert sorted(ships) == sorted(i.ships), f"warship/raider cards not conserved: {sorted(ships)}"
    assert sorted(merchants) == sorted(i.merchants), "merchant cards not conserved"


def state_of(game):
    return game.state


def check_visibility(game, seats):
    """Hidden cards only in events the seats allowed to see them can see."""
    for e in game.events:
        d = e.data
        if e.type == "CardDrawn" and d["deck"].startswith("action:"):
            dest = d["deck"].split(":")[1]
            if dest.startswith("hand-"):
                assert e.vis == [int(dest[5:])], e
            elif dest == "set-aside":
                assert e.vis == "referee", e
            else:
                assert e.vis != "all", e
        if e.type in ("CardCommitted", "KnownCardDrawn", "KnownCardsPeeked", "DeckTopOrdered", "HandSeen"):
            assert e.vis == [d["seat"]], e
        if e.type == "ChanceChosen":
            assert not (set(map(str, d["options"])) & set(ix(state_of(game)).action_cards)), e
        if e.type == "CardsTaken":
            assert e.vis == sorted([d["seat"], d["from"]]), e
        if e.type == "Decided" and e.vis != "all":
            assert e.vis == [d["seat"]], e
    state = game.state
    rules = game.rules
    for s in range(1, seats + 1):
        v = rules.view(state, s)
        for o, pv in v["players"].items():
            if int(o) != s:
                assert isinstance(pv["hand"], int)
        if state["tt"] is not None and state["current"] != s:
            assert all("card" not in c for c in v["committed"])
        for k in ("pool", "set_aside", "top", "peek"):
            assert k not in v


def play(seats, seed, bot="random", options=None, check_every=25, probe_every=0, bots=None):
    """A seeded game played to the end by bots (``bots``: a list to choose from at
    every decision); every ``probe_every`` steps each listed decision is tried on a
    copy (it must be accepted); the cards are counted every ``check_every`` steps."""
    g = LocalGame(GAME, seats, options=options, seed=seed.to_bytes(4, "big") * 8)
    rng = random.Random(seed)
    steps = 0
    while not g.machine.finished:
        acting = g.to_act()
        assert acting, "nobody to act in an unfinished game"
        seat = acting[0]
        legal = g.legal(seat)
        assert legal, "a seat to act has no legal decision"
        if probe_every and steps % probe_every == 0:
            for d in legal:
                g.machine.copy().decide(seat, d, g.chance())     # must not raise
        name = rng.choice(bots) if bots else bot
        g.act(seat, g.rules.bots[name](g.state, seat, legal, rng))
        steps += 1
        if check_every and steps % check_every == 0:
            count_cards(g.state)
        assert steps < 20000
    count_cards(g.state)
    return g, steps

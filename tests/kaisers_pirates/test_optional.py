"""The optional rules of section 6, each driven in table mode with chosen dice:
the same dice with the rule off show what the rule changes."""

import pytest
from kp_helpers import Table, count_cards

from service.kernel import BadInput

SHIPS = {1: ["emden", "prinz-eitel-friedrich", "wolf"], 2: ["dresden", "seeadler", "leopard"]}
MERCH = {1: ["appam", "kaipara", "hyades"], 2: ["matheran", "lovat", "invercoe"]}


def mk(options=None, h1=(), h2=(), ships=None, merch=None, **kw):
    opts = {k: "true" for k in options or ()} if not isinstance(options, dict) else options
    return Table(2, {1: list(h1), 2: list(h2)}, ships or SHIPS, merch or MERCH, first=1, options=opts, **kw)


def pass_turn(t, seat):
    t.act(seat, {"action": "done"})
    t.act(seat, {"action": "end_turn"})


def intercept(t, seat, card, ship, target, *more):
    t.commit(seat, (card, "intercept", ship), *more)
    t.act(seat, {"action": "intercept", "card": card, "ship": ship, "target": target})


def last(t, type_):
    return t.events(type_)[-1].data


# 6.1 coal, 6.2 sails -------------------------------------------------------------------
@pytest.mark.parametrize("opts", [(), ("coal", "sails")])
def test_rendezvous_missed_against_coal_and_sails(opts):
    t = mk(opts, ["rendezvous-missed-1"])
    t.commit(1, ("rendezvous-missed-1", "action"))
    t.act(1, {"action": "play", "card": "rendezvous-missed-1", "opponent": 2})
    t.roll(6, 1, 7)            # Dresden (coal): 6 (+2) against 7
    t.roll(8, 1, 7)            # Seeadler (sails): 8 (-2) against 7
    t.roll(8, 1, 7)            # Leopard: 8 against 7
    short = {s: t.st(s)["supply"] for s in ("dresden", "seeadler", "leopard")}
    if opts:
        assert short == {"dresden": True, "seeadler": False, "leopard": True}
        mods = [e.data["challenge"]["mods"] for e in t.events("ChallengeRolled")]
        assert mods == [["coal +2 (6.1)"], ["sails -2 (6.2)"], []]
    else:
        assert short == {"dresden": False, "seeadler": True, "leopard": True}


@pytest.mark.parametrize("opts", [(), ("coal", "sails")])
def test_blockade_runner_with_coal_and_sails(opts):
    t = mk(opts, ["rendezvous-missed-1"], ["blockade-runner-1"])
    t.commit(1, ("rendezvous-missed-1", "action"))
    t.act(1, {"action": "play", "card": "rendezvous-missed-1", "opponent": 2})
    t.roll(10, 1, 1, 10, 1, 1, 1, 1, 10)        # Dresden and Seeadler short of supply, whatever the modifiers
    t.act(1, {"action": "end_turn"})
    t.commit(2, ("blockade-runner-1", "action"))
    t.act(2, {"action": "play", "card": "blockade-runner-1"})
    t.roll(8, 1, 7)            # Dresden: 8 (-1) against 7
    t.roll(7, 1, 7)            # Seeadler: 7 (+1) against 7
    assert t.st("dresden")["supply"] is bool(opts)
    assert t.st("seeadler")["supply"] is not bool(opts)
    if opts:
        assert [e.data["challenge"]["mods"] for e in t.events("ChallengeRolled")][-2:] == \
            [["coal -1 (6.1)"], ["sails +1 (6.2)"]]


def test_refuge_supply_modifiers():
    t = mk(("coal", "sails"), ["rendezvous-missed-1", "breakout-1"], ["island-refuge-1", "island-refuge-2"])
    t.commit(1, ("rendezvous-missed-1", "action"))
    t.act(1, {"action": "play", "card": "rendezvous-missed-1", "opponent": 2})
    t.roll(10, 1, 1, 10, 1, 1, 1, 1, 10)        # Dresden and Seeadler short of supply
    t.act(1, {"action": "end_turn"})
    t.commit(2, ("island-refuge-1", "action"), ("island-refuge-2", "action"))
    t.act(2, {"action": "play", "card": "island-refuge-1", "ship": "dresden"})
    t.act(2, {"action": "play", "card": "island-refuge-2", "ship": "seeadler"})
    t.act(2, {"action": "end_turn"})
    pass_turn(t, 1)
    t.act(2, {"action": "done"})
    t.act(2, {"action": "refuge", "ship": "dresden", "try": "supply"})
    t.roll(8, 1, 7)            # 8 - 1 = 7 against 7: still short (6.1.3)
    t.act(2, {"action": "refuge", "ship": "seeadler", "try": "supply"})
    t.roll(7, 1, 7)            # 7 + 1 = 8 against 7: resupplied (6.2.3)
    assert t.st("dresden")["supply"] and not t.st("seeadler")["supply"]


# 6.2.5, 6.2.6 the Seeadler as interceptor; 6.11 sailing merchants ---------------------------
SEEADLER_1 = {1: ["seeadler", "emden", "wolf"], 2: ["dresden", "prinz-eitel-friedrich", "leopard"]}


@pytest.mark.parametrize("opts", [(), ("sails",)])
def test_fast_ship_against_the_seeadler(opts):
    t = mk(opts, ["breakout-1"], ["fast-ship-1"], ships=SEEADLER_1)
    intercept(t, 1, "breakout-1", "seeadler", "matheran")
    t.act(2, {"action": "react", "card": "fast-ship-1"})
    t.roll(8, 1, 3)            # Seeadler 8 - 2 (-2 more under sail, 6.2.6) against 3
    cmp = last(t, "DiceCompared")
    assert cmp["attack"]["result"] == (4 if opts else 6)
    assert cmp["outcome"] == ("damaged" if opts else "sunk")


@pytest.mark.parametrize("opts", [(), ("sails",)])
def test_break_contact_against_the_seeadler(opts):
    t = mk(opts, ["breakout-1"], ["break-contact-1"], ships=SEEADLER_1)
    intercept(t, 1, "breakout-1", "seeadler", "matheran")
    t.act(2, {"action": "react", "card": "break-contact-1"})
    t.roll(5, 1, 6)            # 5 (+2: a slow interceptor) against 6
    assert bool(t.events("InterceptCancelled")) is bool(opts)


@pytest.mark.parametrize("opts", [(), ("sailing_merchants",)])
def test_sailing_merchants(opts):
    t = mk(opts, ["breakout-1"], ["hms-alcantara", "fast-ship-1", "break-contact-1"])
    intercept(t, 1, "breakout-1", "prinz-eitel-friedrich", "invercoe")
    cards = {d.get("card") for d in t.legal(2)}
    if opts:
        assert cards == {"break-contact-1", None}            # 6.11.1: no AMC, no Fast Ship
    else:
        assert {"hms-alcantara", "fast-ship-1", "break-contact-1"} <= cards
    t.act(2, {"action": "react", "card": "break-contact-1"})
    t.roll(7, 1, 6)            # 7 (-2 under sail) against 6
    assert bool(t.events("InterceptCancelled")) is not bool(opts)


# 6.3 the Wolf ---------------------------------------------------------------------------
@pytest.mark.parametrize("opts", [(), ("wolf",)])
def test_wolf_surprise_attack_and_slim_pickings(opts):
    t = mk(opts, ["breakout-1", "surprise-attack-1"], ["slim-pickings-1", "hms-alcantara"])
    t.auto_proceed = False
    intercept(t, 1, "breakout-1", "wolf", "matheran", ("surprise-attack-1", "action"))
    t.act(1, {"action": "assist", "card": "surprise-attack-1"})
    assert ({"action": "react", "card": "slim-pickings-1"} in t.legal(2)) is not bool(opts)   # 6.3.2
    t.act(2, {"action": "decline"})
    t.roll(2, 1, 4)            # Wolf 2 + 2 (+2 more, 6.3.1) against 4
    cmp = last(t, "DiceCompared")
    assert cmp["attack"]["result"] == (6 if opts else 4)
    assert cmp["outcome"] == ("damaged" if opts else "none")


@pytest.mark.parametrize("opts,ship,roll,cancelled", [((), "wolf", 6, False), (("wolf",), "wolf", 6, True),
                                                      ((), "seeadler", 7, True), (("sails",), "seeadler", 7, False)])
def test_a_raiders_own_break_contact(opts, ship, roll, cancelled):
    """6.2.4 / 6.3.3: the raider revealed (by QQQ) is intercepted by British forces and answers."""
    ships = {1: [ship, "emden", "leopard"], 2: ["dresden", "prinz-eitel-friedrich", "meteor"]}
    t = mk(opts, ["breakout-1", "break-contact-1"], ["qqq-1", "breakout-2"], ships=ships)
    intercept(t, 1, "breakout-1", ship, "matheran")
    t.act(2, {"action": "react", "card": "qqq-1"})
    t.roll(8, 1, 3)            # sunk; QQQ reveals the raider at the end of the intercept
    if t.state["window"] and t.state["window"]["kind"] == "reflag":
        t.act(1, {"action": "decline"})
    assert t.st(ship)["revealed"]
    t.act(1, {"action": "end_turn"})
    t.commit(2, ("breakout-2", "intercept"))
    t.act(2, {"action": "intercept", "card": "breakout-2", "target": ship})
    t.act(1, {"action": "react", "card": "break-contact-1"})
    t.roll(roll, 1, 6)         # 6 (+2 Wolfchen) or 7 (-2 under sail) against 6
    assert bool([e for e in t.events("InterceptCancelled") if e.data["target"] == ship]) is cancelled


# 6.4 the tournament deal ------------------------------------------------------------------
def test_tournament_deal_is_balanced():
    from service.aggregates.kaisers_pirates.board import ix
    from service.kernel.local import LocalGame
    for seats in (2, 3, 4):
        for seed in range(4):
            g = LocalGame("kaisers-pirates", seats, options={"tournament": "true"}, seed=bytes([seed]) * 32)
            i = ix(g.state)
            cruisers = []
            for e in g.events:
                if e.type == "RoundStarted" and e.data["round"] == 2:
                    break
            for s in range(1, seats + 1):
                deal = [e.data["card"] for e in g.events if e.type == "CardDrawn"
                        and e.data["deck"] == f"ships:force-{s}"][:3]
                assert deal[0] in ("dresden", "emden", "konigsberg", "nurnberg")
                cruisers.append(deal[0])
                assert all(i.ships[x]["kind"] == "raider" and x not in ("geier", "iltis", "meteor", "seeadler")
                           for x in deal[1:])
                merch = [e.data["card"] for e in g.events if e.type == "CardDrawn"
                         and e.data["deck"] == f"merchants:force-{s}"][:3]
                assert sorted(i.merchants[m]["vp"] for m in merch) == [5, 7, 9]
                assert "william-p-frye" not in merch
            assert len(set(cruisers)) == seats


def test_tournament_deal_at_a_table_refuses_other_cards_and_ends_with_the_deal():
    from service.kernel.errors import ChanceRejected
    from service.kernel.local import LocalGame
    g = LocalGame("kaisers-pirates", 2, options={"tournament": "true"}, table=True)
    a = g.machine.k["awaiting"]
    while not a["deck"].startswith("ships"):
        g.enter(sorted(a["choices"])[0])
        a = g.machine.k["awaiting"]
    assert sorted(a["choices"]) == ["dresden", "emden", "konigsberg", "nurnberg"]
    with pytest.raises(ChanceRejected):
        g.enter("leipzig")
    # after the deal the set-aside ships are back: Breakout may bring the Leipzig
    t = Table(2, {1: ["breakout-1"]}, first=1, options={"tournament": "true"})
    assert "leipzig" in t.state["ship_pool"]
    t.commit(1, ("breakout-1", "action"))
    t.act(1, {"action": "play", "card": "breakout-1"})
    t.g.enter(9)
    t.g.enter(1)
    t.g.enter(3)                # 9 > 3: one ship
    assert "leipzig" in t.awaiting()["choices"]


# 6.5 beyond 1914 --------------------------------------------------------------------------
def test_beyond_1914_decks():
    from service.aggregates.kaisers_pirates.board import ix
    t = Table(4, {}, {}, {}, first=1, options={"beyond_1914": "historical+no-breakout"})
    i = ix(t.state)
    gone = {"emden", "leipzig", "karlsruhe", "nurnberg", "berlin", "cap-trafalgar", "kaiser-wilhelm-der-grosse",
            "cormoran"}
    dealt = {s for p in t.state["players"] for s in p["ships"]}
    assert len(dealt) == 12 and not dealt & gone and not t.state["ship_pool"]
    merchants = {m for p in t.state["players"] for m in p["merchants"]} | set(t.state["merchant_pool"])
    assert not merchants & {"kaipara", "lovat", "maria", "anne-de-bretagne"} and len(merchants) == 60 - 19
    assert not [c for c in t.state["pool"] if i.tid(c) == "breakout"]
    assert not [c for p in t.state["players"] for c in p["hand"] if i.tid(c) == "breakout"]
    count_cards(t.state)


def test_beyond_1914_ships_removed_in_the_round_are_not_reshuffled():
    """6.5.2: with 4 players every ship is at sea; a ship lost to Heavy Weather stays out
    for the round, so Breakout brings nothing."""
    t = Table(4, {1: ["heavy-weather-1", "breakout-1"]}, first=1, options={"beyond_1914": "true"})
    t.commit(1, ("heavy-weather-1", "action"), ("breakout-1", "action"))
    t.act(1, {"action": "play", "card": "heavy-weather-1", "opponent": 2})
    t.roll(10, 1, 1, *([1, 1, 10] * 5))       # the first ship of seat 2 founders; nothing else
    lost = t.events("ShipRemoved")[-1].data["ship"]
    assert lost in t.state["ship_used"]
    t.act(1, {"action": "play", "card": "breakout-1"})
    t.roll(10, 1, 2)                           # 10 >= 2 x 2: two ships, if any
    assert t.events("DeckExhausted") and not t.events("DeckReshuffledFromBottom")
    assert len(t.p(1)["ships"]) == 3 and lost in t.state["ship_used"]


@pytest.mark.parametrize("seats", [2, 3])
def test_no_breakout_needs_four_players(seats):
    from service.kernel.local import LocalGame
    with pytest.raises(BadInput, match="4 players"):
        LocalGame("kaisers-pirates", seats, options={"beyond_1914": "no-breakout"})


# 6.6 fast raiders ---------------------------------------------------------------------------
def test_fast_raider_chases_a_fast_ship_and_may_run_short():
    t = mk(("fast_raiders",), ["breakout-1"], ["fast-ship-1"])
    intercept(t, 1, "breakout-1", "prinz-eitel-friedrich", "matheran")
    t.act(2, {"action": "react", "card": "fast-ship-1"})
    assert t.state["window"]["kind"] == "pursue" and t.g.to_act() == [1]
    t.act(1, {"action": "pursue", "pursue": True})
    t.roll(5, 1, 4)            # 5, no Fast Ship modifier, against 4: damaged
    assert last(t, "DiceCompared")["outcome"] == "damaged"
    t.roll(7, 1, 5)            # the chase: challenge 10/4 = 7 against 5: short of supply
    assert t.st("prinz-eitel-friedrich")["supply"]


def test_fast_raider_may_let_it_go():
    t = mk(("fast_raiders",), ["breakout-1"], ["fast-ship-1"])
    intercept(t, 1, "breakout-1", "prinz-eitel-friedrich", "matheran")
    t.act(2, {"action": "react", "card": "fast-ship-1"})
    t.act(1, {"action": "pursue", "pursue": False})
    t.roll(5, 1, 4)            # 5 - 2 against 4: no effect, no supply check
    assert last(t, "DiceCompared")["outcome"] == "none" and not t.st("prinz-eitel-friedrich")["supply"]
    assert len(t.events("ChallengeRolled")) == 0


def test_a_fast_raider_short_of_supply_cannot_chase():
    t = mk(("fast_raiders",), ["rendezvous-missed-1", "fast-ship-1"], ["breakout-1"],
           ships={1: ["dresden", "seeadler", "leopard"], 2: ["emden", "berlin", "wolf"]})
    t.commit(1, ("rendezvous-missed-1", "action"))
    t.act(1, {"action": "play", "card": "rendezvous-missed-1", "opponent": 2})
    t.roll(1, 1, 10, 10, 1, 1, 1, 1, 10)      # Berlin short of supply
    assert t.st("berlin")["supply"]
    t.act(1, {"action": "end_turn"})
    intercept(t, 2, "breakout-1", "berlin", "appam")
    t.act(1, {"action": "react", "card": "fast-ship-1"})
    assert t.state["window"] is None and t.awaiting()["kind"] == "dice"      # no chase offered
    t.roll(8, 1, 2)
    assert last(t, "DiceCompared")["attack"]["mods"] == ["limited supply -2", "Fast Ship -2"]


# 6.7 keep three -------------------------------------------------------------------------------
def test_keep_up_to_three_ships_costs_action_cards():
    t = Table(2, {1: ["breakout-1"]}, SHIPS, MERCH, first=1, options={"removed": "87", "keep_three": "true"})
    assert t.state["round"] == 1
    pass_turn(t, 1)              # the last card is drawn: the round ends
    assert t.state["window"]["kind"] == "keep"
    legal = t.legal(1)
    assert {"action": "keep", "ships": ["emden", "prinz-eitel-friedrich", "wolf"]} in legal
    assert {"action": "keep", "ships": []} in legal and len(legal) == 8
    t.act(1, {"action": "keep", "ships": ["emden", "wolf"]})
    t.act(2, {"action": "keep", "ships": ["dresden", "leopard", "seeadler"]})
    assert t.state["round"] == 2
    assert sorted(t.p(1)["ships"][:2]) == ["emden", "wolf"] and len(t.p(1)["ships"]) == 3
    assert len(t.p(1)["hand"]) == 4 and len(t.p(2)["hand"]) == 3      # 6.7.1, 6.7.2


# 6.8 extra damage --------------------------------------------------------------------------------
@pytest.mark.parametrize("opts", [(), ("extra_damage",)])
def test_extra_damage_markers(opts):
    t = mk(opts, ["breakout-1", "breakout-2", "breakout-3"], ["damage-control-1"])
    intercept(t, 1, "breakout-1", "emden", "matheran")
    t.act(2, {"action": "decline"})
    t.roll(5, 1, 1, 3)         # 5 against 3: damaged
    t.act(1, {"action": "end_turn"})
    pass_turn(t, 2)
    intercept(t, 1, "breakout-2", "emden", "matheran")
    t.act(2, {"action": "decline"})
    t.roll(5, 1, 1, 5)         # 5 against 5 - 2 = 3: damaged again
    assert t.st("matheran").get("hits") == (2 if opts else None)
    assert bool(t.events("FurtherDamageIgnored")) is not bool(opts)
    t.act(1, {"action": "end_turn"})
    t.commit(2, ("damage-control-1", "action"))
    t.act(2, {"action": "play", "card": "damage-control-1", "ship": "matheran"})
    assert t.st("matheran")["damaged"] is bool(opts)             # 6.8.3: one marker only
    t.act(2, {"action": "end_turn"})
    if opts:
        intercept(t, 1, "breakout-3", "emden", "matheran")
        t.act(2, {"action": "decline"})
        t.roll(5, 1, 1, 7)     # 5 against 7 - 2: no effect
        assert last(t, "DiceCompared")["defence"]["mods"] == ["damaged -2"]


def test_two_markers_cost_four():
    t = mk(("extra_damage",), ["breakout-1", "breakout-2", "breakout-3"])
    for card, dice in (("breakout-1", (5, 1, 1, 3)), ("breakout-2", (5, 1, 1, 5))):
        intercept(t, 1, card, "emden", "matheran")
        t.act(2, {"action": "decline"})
        t.roll(*dice)
        t.act(1, {"action": "end_turn"})
        pass_turn(t, 2)
    intercept(t, 1, "breakout-3", "emden", "matheran")
    t.act(2, {"action": "decline"})
    t.roll(5, 1, 1, 8)         # 5 against 8 - 4 = 4: damaged (a third marker)
    d = last(t, "DiceCompared")["defence"]
    assert d["result"] == 4 and d["mods"] == ["damaged -4 (2 markers)"]
    assert t.st("matheran")["hits"] == 3


# 6.9 torpedoes on prizes -------------------------------------------------------------------------------
def _seat2_captures_appam(t):
    pass_turn(t, 1)
    intercept(t, 2, "breakout-2", "dresden", "appam", ("boarding-party-1", "action"))
    t.act(2, {"action": "assist", "card": "boarding-party-1"})
    if t.state["window"] and t.state["window"]["kind"] == "react":
        t.act(1, {"action": "decline"})
    t.roll(10, 1, 2)           # 10 against 2: captured
    assert "appam" in t.p(2)["prizes"]
    t.act(2, {"action": "end_turn"})


@pytest.mark.parametrize("found", [True, False])
def test_torpedo_on_a_hidden_prize(found):
    t = mk(("torpedo_prizes",), ["u-27"], ["breakout-2", "boarding-party-1", "q-7-penhurst",
                                                               "razzle-dazzle-1"])
    _seat2_captures_appam(t)
    t.commit(1, ("u-27", "action"))
    assert {"action": "torpedo", "card": "u-27", "target": "appam"} in t.legal(1)
    t.act(1, {"action": "torpedo", "card": "u-27", "target": "appam"})
    if not found:
        t.roll(4, 1, 6)        # challenge 10/8 = 4 against 6: the prize is not found
        assert t.events("AttackCancelled") and "appam" in t.p(2)["prizes"]
        assert not [d for d in t.legal(1) if d["action"] == "torpedo"]     # the card is spent
        return
    t.roll(9, 1, 6)            # found
    react = [d.get("card") for d in t.legal(2)]
    assert "razzle-dazzle-1" in react and "q-7-penhurst" not in react          # 6.9.2
    t.act(2, {"action": "decline"})
    t.roll(9, 1, 1, 4)         # torpedoes 9 against 4: sunk
    assert {"card": "appam", "deck": "merchant", "double": False} in t.p(1)["vp"]


def test_no_torpedo_on_prizes_without_the_option():
    t = mk((), ["u-27"], ["breakout-2", "boarding-party-1"])
    _seat2_captures_appam(t)
    t.commit(1, ("u-27", "action"))
    assert not [d for d in t.legal(1) if d.get("target") == "appam"]


# 6.10 shallow-run pursuit ----------------------------------------------------------------------------------
def test_pursuit_over_the_shoals():
    t = mk(("shallow_pursuit",), ["breakout-1"], ["shallow-run-1"])
    intercept(t, 1, "breakout-1", "emden", "matheran")
    t.act(2, {"action": "react", "card": "shallow-run-1"})
    t.act(1, {"action": "pursue", "pursue": True})
    t.roll(2, 1, 5)            # the merchant fails its crossing: damaged
    t.roll(9, 1, 3)            # Emden crosses
    assert t.st("matheran")["damaged"]
    t.roll(4, 1, 1, 4)         # Emden 4 against 4 - 2 = 2: sunk
    assert last(t, "DiceCompared")["outcome"] == "sunk"
    assert any(e["card"] == "matheran" for e in t.p(1)["vp"])


def test_a_damaged_pursuer_that_fails_is_wrecked():
    t = mk(("shallow_pursuit", "fast_raiders"), ["breakout-1"], ["shallow-run-1", "breakdown-1"])
    pass_turn(t, 1)
    t.commit(2, ("breakdown-1", "action"))
    t.act(2, {"action": "play", "card": "breakdown-1", "target": "prinz-eitel-friedrich"})
    t.roll(10, 1, 1)
    assert t.st("prinz-eitel-friedrich")["damaged"]
    t.act(2, {"action": "end_turn"})
    intercept(t, 1, "breakout-1", "prinz-eitel-friedrich", "matheran")
    t.act(2, {"action": "react", "card": "shallow-run-1"})
    t.act(1, {"action": "pursue", "pursue": True})
    t.roll(9, 1, 3)            # the merchant crosses
    t.roll(7, 1, 4)            # PEF: 7 - 2 (damaged) - 2 (deep draught, 6.10.4) = 3 against 4: wrecked
    ch = last(t, "ChallengeRolled")
    assert ch["challenge"]["mods"] == ["already damaged -2", "deep draught -2 (6.6.2)"]
    assert {"card": "prinz-eitel-friedrich", "deck": "ship", "double": False} in t.p(2)["vp"]
    assert not [e for e in t.events("DiceCompared") if "intercepts matheran" in e.data["what"]]


def test_british_forces_never_pursue_and_without_the_option_nobody_does():
    t = mk((), ["breakout-1"], ["shallow-run-1"])
    intercept(t, 1, "breakout-1", "emden", "matheran")
    t.act(2, {"action": "react", "card": "shallow-run-1"})
    assert t.state["window"] is None or t.state["window"]["kind"] != "pursue"
    t2 = mk(("shallow_pursuit",), ["breakout-1"], ["shallow-run-1"])
    t2.commit(1, ("breakout-1", "intercept"))
    t2.act(1, {"action": "intercept", "card": "breakout-1", "target": "dresden"})
    t2.act(2, {"action": "react", "card": "shallow-run-1"})
    assert t2.state["window"] is None or t2.state["window"]["kind"] != "pursue"


# 6.12 prize resupply ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("exhausted", [True, False])
def test_prize_resupplies_a_ship(exhausted):
    t = mk(("prize_resupply",), ["rendezvous-missed-1"], ["breakout-2", "boarding-party-1"])
    t.commit(1, ("rendezvous-missed-1", "action"))
    t.act(1, {"action": "play", "card": "rendezvous-missed-1", "opponent": 2})
    t.roll(10, 1, 1, 1, 1, 10, 1, 1, 10)     # Dresden short of supply
    t.act(1, {"action": "end_turn"})
    intercept(t, 2, "breakout-2", "dresden", "appam", ("boarding-party-1", "action"))
    t.act(2, {"action": "assist", "card": "boarding-party-1"})
    if t.state["window"] and t.state["window"]["kind"] == "react":
        t.act(1, {"action": "decline"})
    t.roll(10, 1, 2)           # captured; 6.12.3: no automatic resupply
    assert "appam" in t.p(2)["prizes"] and t.st("dresden")["supply"]
    d = {"action": "resupply", "ship": "dresden", "prize": "appam"}
    assert d in t.legal(2)
    t.act(2, d)
    assert not t.st("dresden")["supply"]
    t.roll(*((9, 1, 3) if exhausted else (2, 1, 3)))      # are the stores exhausted?
    if exhausted:
        assert "appam" not in t.p(2)["prizes"]
        assert {"card": "appam", "deck": "merchant", "double": False} in t.p(2)["vp"]
    else:
        assert "appam" in t.p(2)["prizes"]
    assert d not in t.legal(2)
    count_cards(t.state)


# the options themselves --------------------------------------------------------------------------------
def test_options_are_recorded_in_game_created():
    t = mk({"coal": "true", "beyond_1914": "false", "wolf": "false", "extra_damage": "true"})
    created = t.g.events[0].data
    assert created["options"] == {"coal": True, "extra_damage": True}


def test_a_fast_raider_pursuing_pays_for_its_water_even_without_the_fast_raider_rule():
    t = mk(("shallow_pursuit",), ["breakout-1"], ["shallow-run-1"])
    intercept(t, 1, "breakout-1", "prinz-eitel-friedrich", "matheran")
    t.act(2, {"action": "react", "card": "shallow-run-1"})
    t.act(1, {"action": "pursue", "pursue": True})
    t.roll(9, 1, 3)            # the merchant crosses
    t.roll(5, 1, 4)            # PEF 5 - 2 (6.10.4) = 3 against 4: damaged on the shoals
    assert last(t, "ChallengeRolled")["challenge"]["mods"] == ["water consumption -2 (6.10.4)"]
    assert t.st("prinz-eitel-friedrich")["damaged"]
    t.roll(8, 1, 4)            # the intercept goes on: PEF 8 - 2 (damaged) against 4: damaged
    assert last(t, "DiceCompared")["attack"]["mods"] == ["damaged -2"]

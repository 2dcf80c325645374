"""Issue 33, The Kaiser's Pirates: what the referees found at a table. Each test plays
the book's situation in table mode with the book's dice where it gives them, and failed
before its fix: the log says who fires a torpedo and that a boarding captures (3.2.9,
5.5.1); a card with named copies is named by its type; the solitaire phantom plays every
term of the glossary (British forces on the Leopard of 5.5.2, Recalled, submarine mines
and guns, Lay Mines, Second Chance) and a printed deck with them loads; 5.4.3 steps 9
and 10 follow the phantom's own Deception and Recon Aircraft; every optional rule in
solitaire, keep_three with the team game; windows whose only answer is to pass are
skipped when the table can rule out any card that could answer them, and only then."""

import pytest
from kp_helpers import Table, count_cards
from test_cards_a import mk
from test_example_55 import _phantom_turn
from test_example_329 import _turn_1, _turn_2
from test_example_329 import t as t329  # noqa: F401 (the 3.2.9 example's table, a fixture)


def _lines(t, start=0, types=None):
    return [t.g.rules.describe(e) for e in t.g.events[start:] if types is None or e.type in types]


# 3.2.9 turn 2: the Prinz Eitel Friedrich's Boarding Party, then the U-27 ------------
def test_the_u27s_torpedo_is_logged_as_the_u27s_and_the_boarding_as_a_capture(t329):  # noqa: F811 (the fixture)
    t = t329
    _turn_1(t)
    n = len(t.g.events)
    _turn_2(t)
    lines = _lines(t, n, ("AttackAnnounced", "DiceCompared", "ShipCaptured", "ShipSunk"))
    assert "seat 2: U-27 torpedoes seat 1's Maria" in lines
    assert not [x for x in lines if "British forces" in x]
    # "il Lovat viene catturato": the dice read as a capture, nothing is sunk before it
    i = next(k for k, x in enumerate(lines) if "captures Lovat" in x)
    assert lines[i - 1] == "Prinz Eitel Friedrich tries to capture Lovat: 8 (Fast Ship -2): 6 against 2, at least double: captured"
    assert not [x for x in lines if "Lovat" in x and "sunk" in x]


# 5.5.1: the phantom's U-boat torpedoes the Appam -----------------------------------
SOLO_HAND = ["break-contact-1", "lay-mines-1", "interned-1", "collier-1", "fair-seas-1", "scuttle-1"]
SOLO_SHIPS = {1: ["leopard", "emden", "dresden"], 2: ["leipzig", "geier", "cormoran"]}
SOLO_MERCHANTS = {1: ["matheran", "lundy-island", "appam"], 2: ["kaipara", "lovat", "maria"]}


def solo_table(cards, hand=SOLO_HAND, ships=SOLO_SHIPS, picks=(), first=2, **kw):
    return Table(1, {1: list(hand)}, ships, SOLO_MERCHANTS, first=first, solo=list(cards), picks=list(picks), **kw)


def test_the_phantoms_torpedo_and_capture_are_logged_as_the_phantoms():
    t = solo_table(["solo-1", "solo-2", "solo-3", "solo-4", "solo-5", "solo-6"],
                   picks=["lundy-island", "appam", "collier-1", "fair-seas-1"])
    t.roll(2)
    t.act(1, {"action": "decline"})
    t.roll(5, 7, 2, 4)                     # 9 against 4: the Lundy Island captured
    t.roll(3)                              # solo-5, red 3: the U-boat's torpedoes
    t.act(1, {"action": "decline"})
    t.roll(3, 2, 4, 3)
    lines = _lines(t, 0, ("AttackAnnounced", "DiceCompared", "ShipCaptured"))
    assert "seat 2: the phantom's U-boat torpedoes seat 1's Appam" in lines
    assert "Leipzig tries to capture Lundy Island: 7 (Surprise Attack +2): 9 against 4, at least double: captured" in lines
    assert not [x for x in lines if "British forces" in x]
    count_cards(t.state)


# at a table: a card named by its type as printed --------------------------------------
def test_a_card_with_named_copies_is_named_by_its_type_at_the_table():
    t = Table(2, {1: ["submarines-u-27-u-41", "amc", "submarines-u-27-u-41", "q-ship", "sail-q-ship",
                      "submarines-uc-16-uc-29"]}, {}, {}, first=1)
    hand = t.p(1)["hand"]
    assert {"u-27", "u-41", "hms-alcantara", "q-21-prize", "uc-16"} <= set(hand)      # any copy left will do
    assert {"q-7-penhurst", "q-19-privet"} & set(hand)
    # the copy's own name still works, and the log says both
    t2 = Table(2, {1: ["u-41"]}, {}, {}, first=1)
    assert "u-41" in t2.p(1)["hand"] and "u-27" not in t2.p(1)["hand"]
    count_cards(t.state)


# the glossary's "INTERCEPT WARSHIP, RAIDER OR PRIZE" and the other missing actions ----------
def _to_552_end(t, next_cards):
    """5.5.1 and 5.5.2 as the book plays them (test_example_55), then the phantom's next turn
    turns ``next_cards``: the Leopard was revealed by the phantom's QQQ."""
    _phantom_turn(t)
    t.commit(1, ("lay-mines-1", "intercept", "leopard"), ("interned-1", "action"))
    t.act(1, {"action": "intercept", "card": "lay-mines-1", "ship": "leopard", "target": "kaipara"})
    t.roll(2)                              # solo-7, red 2: QQQ
    t.roll(6, 1, 3, 4)                     # (no Reflag window: Mike holds none)
    t.act(1, {"action": "play", "card": "interned-1", "target": "leipzig"})
    t.roll(8, 4, 5)
    t.solo += next_cards
    t.act(1, {"action": "end_turn"})
    assert t.st("leopard")["revealed"] and t.state["current"] == 2


def test_the_phantom_intercepts_the_revealed_leopard_with_british_forces():
    t = solo_table(["solo-1", "solo-2", "solo-3", "solo-4", "solo-5", "solo-6", "solo-7"],
                   picks=["lundy-island", "appam", "collier-1", "fair-seas-1"])
    _to_552_end(t, ["solo-1"])
    t.roll(1)                              # step 10 (its Recon Aircraft in 5.5.1): defence 1/3, No Action
    assert t.events("PhantomTurnBegun")[-1].data["mode"] == "recon" and t.state["current"] == 1
    t.solo += ["solo-13", "solo-4", "solo-1"]
    t.commit(1)
    t.act(1, {"action": "end_turn"})
    t.picks.append("leopard")              # "Scegliete il bersaglio ... casualmente": the Leopard
    t.roll(2)                              # solo-13, red 2: INTERCEPT WARSHIP, RAIDER OR PRIZE
    chosen = t.events("PhantomActionChosen")[-1].data
    assert chosen["card"] == "solo-13" and chosen["action"] == "british-intercept" and chosen["possible"]
    assert t.events("PhantomSpecialTurned")[-1].data == {"card": "solo-4", "special": None, "applies": False}
    att = t.events("AttackAnnounced")[-1].data
    assert att["kind"] == "british" and att["seat"] == 2 and att["targets"] == ["leopard"] and att["ship"] is None
    assert "seat 2: the phantom's British forces intercept seat 1's Leopard" in _lines(t, 0, ("AttackAnnounced",))
    # Mike may answer British forces with Break Contact (3.2.3), as against any player
    assert {"action": "react", "card": "break-contact-1"} in t.legal(1)
    t.act(1, {"action": "decline"})
    t.roll(9, 1, 4)                        # British forces d10 9, d6 1 against the Leopard's d8 4: sunk
    cmp = t.events("DiceCompared")[-1].data
    assert cmp["attack"]["dice"] == [10, 6] and cmp["outcome"] == "sunk"
    assert "leopard" not in t.p(1)["ships"] and {"card": "leopard", "deck": "ship", "double": False} in t.p(2)["vp"]
    count_cards(t.state)


def _leopard_intercepts_kaipara_against_solo_13():
    """Solitaire with the phantom's defence table solo-13: after the phantom's turn,
    the Leopard intercepts the Kaipara (the phantom's defence is rolled next)."""
    t = solo_table(["solo-1", "solo-2", "solo-3", "solo-4", "solo-5", "solo-6", "solo-13"],
                   picks=["lundy-island", "appam", "collier-1", "fair-seas-1"])
    _phantom_turn(t)
    t.commit(1, ("lay-mines-1", "intercept", "leopard"))
    t.act(1, {"action": "intercept", "card": "lay-mines-1", "ship": "leopard", "target": "kaipara"})
    return t


def test_the_phantoms_recalled_defence_recalls_the_ship_that_sank_its_merchant():
    t = _leopard_intercepts_kaipara_against_solo_13()
    t.roll(2)                              # solo-13, red 2: Recalled
    d = t.events("PhantomDefence")[-1].data
    assert d["reaction"] == "recalled" and d["fits"]
    t.roll(9, 1, 1, 2)                     # Leopard 9 against Kaipara 2: sunk
    assert {"card": "kaipara", "deck": "merchant", "double": False} in t.p(1)["vp"]
    t.roll(8, 4, 5)                        # Recalled: challenge 8 against response 5
    assert t.events("ChallengeRolled")[-1].data["what"] == "Recalled"
    assert "leopard" not in t.p(1)["ships"] and t.state["ship_used"][-1] == "leopard"
    assert t.events("ShipRemoved")[-1].data["why"].startswith("recalled")
    count_cards(t.state)


def test_a_recalled_drawn_against_an_intercept_that_sinks_nothing_does_nothing():
    t = _leopard_intercepts_kaipara_against_solo_13()
    t.roll(2)                              # Recalled drawn
    t.roll(5, 1, 1, 4)                     # 5 against 4: damaged
    assert t.st("kaipara")["damaged"] and "leopard" in t.p(1)["ships"]
    assert t.state["window"] is None and t.awaiting() is None and t.g.to_act() == [1]


def test_the_phantoms_submarine_mines_and_gun_attack():
    # the phantom plays first: solo-19 red 3 (submarine mines), solo-20 red 4 (gun attack)
    t = solo_table(["solo-19", "solo-20", "solo-1"], picks=["appam"])
    t.roll(3)
    att = t.events("AttackAnnounced")[-1].data
    assert att["kind"] == "mines" and att["card"] == "solo:submarines-uc-16-uc-29" and att["by"] == "the phantom's U-boat"
    assert sorted(att["targets"]) == ["appam", "lundy-island", "matheran"]
    t.act(1, {"action": "decline"})        # no Minesweeper
    t.roll(1, 1, 8)                        # UC mines d8 1 d4 1 against the Matheran's 8: no effect
    t.roll(1, 1, 6)                        # the Lundy Island's d6
    t.roll(1, 1, 8)                        # the Appam's d8
    assert [e.data["attack"]["dice"] for e in t.events("DiceCompared")] == [[8, 4]] * 3
    t.roll(4)                              # solo-20, red 4: the U-boat's gun attack
    att = t.events("AttackAnnounced")[-1].data
    assert att["kind"] == "torpedo" and att.get("guns") and att["targets"] == ["appam"]
    assert "seat 2: the phantom's U-boat fires its guns on seat 1's Appam" in _lines(t, 0, ("AttackAnnounced",))
    t.act(1, {"action": "decline"})
    t.roll(3, 2)                           # guns d6 3 against Appam d8 2: damaged
    cmp = t.events("DiceCompared")[-1].data
    assert cmp["attack"]["dice"] == [6] and cmp["outcome"] == "damaged" and t.st("appam")["damaged"]
    count_cards(t.state)


def test_a_printed_deck_with_every_glossary_term_loads():
    """The glossary's terms, each on a card where it prints them (Monitor and Collier in
    column 4, the (ET) terms with their ET), load through the catalog's check."""
    import copy

    from service.aggregates.kaisers_pirates import catalog
    from service.kernel import BadInput
    cat = catalog.load()
    deck = copy.deepcopy(catalog.solitaire_deck())
    terms = ["interrogate", "blockade-runner", "breakout", "second-chance", "submarine-mines", "torpedo",
             "submarine-guns", "heavy-weather", "scuttle", "rendezvous-missed", "transfer-command", "lay-mines",
             "island-refuge", "deception", "fog-bank", "interned", "fair-seas", "damage-control", "recon-aircraft"]
    et = set(catalog.ALWAYS_ET)
    for n, c in enumerate(deck["cards"]):
        c["offense"][1] = {"action": ("warship-intercept", "raider-intercept", "british-intercept")[n % 3],
                           "et": False, "night": False}
        c["offense"][2] = {"action": terms[n % len(terms)], "et": terms[n % len(terms)] in et}
        c["offense"][3] = {"action": ("monitor", "collier")[n % 2], "et": False}
        c["defense"] = ["recalled", "reflag"] if n == 0 else c["defense"]
    catalog.validate(dict(cat, solitaire=deck))
    bad = copy.deepcopy(deck)
    bad["cards"][0]["offense"][2] = {"action": "monitor", "et": False}
    with pytest.raises(BadInput, match="column 4"):
        catalog.validate(dict(cat, solitaire=bad))


# 6.0 "Molte di queste regole possono essere applicate anche al gioco in solitario" -----------
SIX = ["coal", "sails", "wolf", "tournament", "fast_raiders", "keep_three", "extra_damage", "torpedo_prizes",
       "shallow_pursuit", "sailing_merchants", "prize_resupply"]


def test_every_optional_rule_is_accepted_in_solitaire_and_with_the_team_game():
    from service.aggregates.kaisers_pirates.rules import RULES
    out = RULES.parse_options(1, {k: "true" for k in SIX})
    assert all(out[k] is True for k in SIX) and out["solitaire"]
    assert RULES.parse_options(4, {"keep_three": "true", "team": "true"}) == {"keep_three": True, "team": True}


def test_the_phantom_follows_a_fast_ship_with_a_fast_raider():
    # the phantom plays first: solo-2 red 2, a raider intercepts; solo-1's special part is blank
    t = solo_table(["solo-2", "solo-1", "solo-7", "solo-1"], hand=["fast-ship-1"] + SOLO_HAND[1:],
                   ships={1: SOLO_SHIPS[1], 2: ["prinz-eitel-friedrich", "leipzig", "karlsruhe"]},
                   picks=["appam"], options={"fast_raiders": "true"})
    t.roll(2)
    att = t.events("AttackAnnounced")[-1].data
    assert att["ship"] == "prinz-eitel-friedrich" and att["targets"] == ["appam"]
    t.act(1, {"action": "react", "card": "fast-ship-1"})
    chase = t.events("PursuitChosen")[-1].data
    assert chase["seat"] == 2 and chase["pursue"] and chase["against"] == "fast-ship"
    t.roll(5, 1, 4)                        # no -2 for the Fast Ship: 5 against 4: damaged
    cmp = t.events("DiceCompared")[-1].data
    assert cmp["attack"]["result"] == 5 and "Fast Ship chased" in " ".join(cmp["attack"]["mods"])
    t.roll(9, 1, 3)                        # 6.6.1: the chase's supply check, 10/4 against 10
    assert t.events("ChallengeRolled")[-1].data["what"].startswith("prinz-eitel-friedrich after the chase")
    count_cards(t.state)


@pytest.mark.parametrize("seed", [1, 2])
def test_solitaire_games_with_every_optional_rule_end(seed):
    from kp_helpers import play
    g, _ = play(1, seed, options={k: "true" for k in SIX}, bots=["random", "heuristic"])
    assert g.machine.k["result"] is not None
    kept = [e.data for e in g.events if e.type == "ShipKept" and e.data["seat"] == 2]
    assert kept and all("ships" in d and len(d["ships"]) <= 3 for d in kept)


def test_team_games_keep_up_to_three_ships_from_the_pool():
    from kp_helpers import play
    g, _ = play(4, 3, options={"team": "true", "keep_three": "true"}, bots=["random", "heuristic"])
    claims = [e.data for e in g.events if e.type == "ShipClaimed"]
    assert claims and all("ships" in d and len(d["ships"]) <= 3 for d in claims)
    assert any(len(d["ships"]) > 1 for d in claims)


# 5.4.3 steps 9 and 10: "Se viene giocata una carta ... dal giocatore fantasma" --------------
def test_step_10_follows_the_phantoms_recon_aircraft_of_551_and_its_amc_intercepts():
    t = solo_table(["solo-1", "solo-2", "solo-3", "solo-4", "solo-5", "solo-6", "solo-7"],
                   picks=["lundy-island", "appam", "collier-1", "fair-seas-1"])
    assert t.events("PhantomTurnShortened") == []
    _to_552_end(t, ["solo-15"])            # the phantom's Recon Aircraft (ET) ended 5.5.1
    assert t.events("PhantomTurnShortened")[-1].data["mode"] == "recon"
    assert t.events("PhantomTurnBegun")[-1].data["mode"] == "recon"
    t.picks.append("leopard")
    t.roll(2)                              # solo-15, red 2: its defensive side's 2/4, AMC
    chosen = t.events("PhantomActionChosen")[-1].data
    assert chosen["side"] == "defense" and chosen["action"] == "amc" and chosen["possible"]
    att = t.events("AttackAnnounced")[-1].data
    assert att["kind"] == "british" and att["card"] == "solo:amc" and att["targets"] == ["leopard"]
    t.act(1, {"action": "decline"})        # Break Contact not played
    t.roll(2, 1, 4)                        # AMC 2 against the Leopard's 4: no effect
    assert t.events("DiceCompared")[-1].data["outcome"] == "none"
    # "Il turno del giocatore fantasma termina"
    assert t.state["current"] == 1 and t.events("TurnEnded")[-1].data["seat"] == 2


def test_the_real_players_recon_aircraft_does_not_shorten_the_phantoms_turn():
    t = solo_table(["solo-1"], hand=["recon-aircraft-1"] + SOLO_HAND[1:], first=1)
    t.commit(1, ("recon-aircraft-1", "action"))
    t.act(1, {"action": "play", "card": "recon-aircraft-1", "opponent": 2})
    t.solo += ["solo-5"]
    t.act(1, {"action": "end_turn"})
    assert t.events("PhantomTurnBegun")[-1].data["mode"] == "normal"        # 5.3.2: its only effect


def test_step_9_follows_the_phantoms_deception():
    # the phantom plays first: solo-11, red 3: Deception (ET) on the real player
    t = solo_table(["solo-11"], picks=["break-contact-1"])
    t.roll(3)
    assert t.events("PhantomActionChosen")[-1].data["action"] == "deception"
    assert t.events("PhantomTurnShortened")[-1].data["mode"] == "deception"
    assert t.p(1)["pending"]["type"] == "deception" and t.state["current"] == 1
    # the real player's turn under Deception (3.3.10): its forced card, Break Contact, is ignored
    assert t.events("DeceptionForcedCard")[-1].data["card"] == "break-contact-1"
    assert t.legal(1) == [{"action": "end_turn"}]
    t.solo.append("solo-1")
    t.act(1, {"action": "end_turn"})
    # the phantom's next turn: one card, red 1/3 the action of 3 (solo-1: Blockade Runner), then it ends
    assert t.events("PhantomTurnBegun")[-1].data["mode"] == "deception"
    t.roll(1)
    chosen = t.events("PhantomActionChosen")[-1].data
    assert chosen["card"] == "solo-1" and chosen["action"] == "blockade-runner" and chosen["then"] == "end"
    assert t.state["current"] == 1


# windows whose only answer is to pass, skipped when skipping reveals nothing ----------------
def _torpedo_with_face_down(other, penalty):
    """Seat 1 torpedoes the Matheran with the U-27, another card face down on its action
    side; ``penalty``: Special Cargo (the only assist a torpedo takes, one copy) was first
    discarded face up by the referee's penalty (3.1.5), where every seat saw it."""
    t = mk(["u-27", other, "special-cargo-1"], ["reflag-1"])
    t.auto_proceed = False
    if penalty:
        t.g.referee({"referee": "penalty", "seat": 1, "card": "special-cargo-1"})
    t.commit(1, ("u-27", "action"), (other, "action"))
    t.act(1, {"action": "torpedo", "card": "u-27", "target": "matheran"})
    return t


def test_no_assist_window_when_every_fitting_assist_lies_face_up():
    for other in ("boarding-party-1", "collier-1"):
        t = _torpedo_with_face_down(other, penalty=True)
        assert t.state["window"] is None or t.state["window"]["kind"] != "assist"
        assert not [e for e in t.events("WindowOpened") if e.data["kind"] == "assist"]


def test_the_assist_window_does_not_tell_the_face_down_card():
    # an attacker's view: with Special Cargo still unseen, the window opens whatever lies face
    # down (Boarding Party cannot join a torpedo, Collier is no assist): the same events
    seen = []
    for other in ("boarding-party-1", "collier-1"):
        t = _torpedo_with_face_down(other, penalty=False)
        assert t.state["window"]["kind"] == "assist" and t.legal(1) == [{"action": "proceed"}]
        seen.append([e.type for e in t.g.events if e.vis == "all" or (isinstance(e.vis, list) and 2 in e.vis)])
    assert seen[0] == seen[1]


def test_no_reflag_window_when_every_reflag_lies_face_up():
    """The Leopard, revealed by QQQ at the end of its intercept, may be hidden with Reflag
    (3.3.32) only while a Reflag may be in seat 2's hand: all five lie face up on the
    discard pile (the referee's penalties, 3.1.5), so no window opens for seat 2."""
    t = mk(["qqq-1", "reflag-5"], ["breakout-1", "trap-1", "reflag-1", "reflag-2", "reflag-3", "reflag-4"])
    for seat, c in [(2, "reflag-1"), (2, "reflag-2"), (2, "reflag-3"), (2, "reflag-4"), (1, "reflag-5")]:
        t.g.referee({"referee": "penalty", "seat": seat, "card": c})
    t.commit(1)
    t.act(1, {"action": "end_turn"})
    t.commit(2, ("breakout-1", "intercept", "leopard"))
    t.act(2, {"action": "intercept", "card": "breakout-1", "ship": "leopard", "target": "appam"})
    t.act(1, {"action": "react", "card": "qqq-1"})
    t.roll(1, 1, 1, 8)                     # Leopard 1 against Appam 8: no effect
    t.act(1, {"action": "passage", "attempt": False})
    assert t.st("leopard")["revealed"] and t.p(2)["hand"] == ["trap-1"]
    assert t.state["window"] is None and t.g.to_act() == [2]
    assert not [e for e in t.events("WindowOpened") if e.data["kind"] == "reflag"]


def test_the_assist_window_stays_open_alike_after_an_assist_is_revealed():
    # Surprise Attack revealed: whether Special Cargo lies face down too must not show in who
    # is asked next (before, the window closed at once when no other assist could join)
    for other, listed in (("special-cargo-1", 2), ("collier-1", 1)):
        t = mk(["breakout-1", "surprise-attack-1", other], ["trap-1"])
        t.auto_proceed = False
        t.commit(1, ("breakout-1", "intercept", "emden"), ("surprise-attack-1", "action"), (other, "action"))
        t.act(1, {"action": "intercept", "card": "breakout-1", "ship": "emden", "target": "matheran"})
        t.act(1, {"action": "assist", "card": "surprise-attack-1"})
        assert t.state["window"]["kind"] == "assist" and t.g.to_act() == [1]
        assert len(t.legal(1)) == listed and t.legal(1)[-1] == {"action": "proceed"}


def test_the_phantom_lays_mines_with_the_wolf_then_takes_a_second_chance():
    t = solo_table(["solo-13", "solo-18", "solo-1"], ships={1: SOLO_SHIPS[1], 2: ["wolf", "leipzig", "karlsruhe"]})
    t.roll(3)                              # solo-13, red 3: Lay Mines
    att = t.events("AttackAnnounced")[-1].data
    assert att["kind"] == "mines" and att["ship"] == "wolf" and att["card"] == "solo:lay-mines"
    t.act(1, {"action": "decline"})        # no Minesweeper
    t.roll(1, 1, 8)                        # Lay Mines d10 1 d4 1 against the Matheran's 8
    t.roll(1, 1, 6)
    t.roll(1, 1, 8)
    assert [e.data["attack"]["dice"] for e in t.events("DiceCompared")] == [[10, 4]] * 3
    t.roll(4)                              # solo-18, red 4: SECOND CHANCE (ET)
    assert t.events("PhantomActionChosen")[-1].data["action"] == "second-chance"
    assert t.events("SecondChanceEarned")[-1].data["seat"] == 2
    started = t.events("TurnStarted")[-1].data
    assert started["seat"] == 2 and started.get("extra")          # its extra turn
    t.solo.append("solo-2")
    t.roll(4)                              # solo-1, red 4: Damage Control, nothing damaged: ignored, another card
    assert t.events("PhantomActionChosen")[-1].data["possible"] is False
    assert t.state["current"] == 2 and "red die" in t.awaiting()["why"]

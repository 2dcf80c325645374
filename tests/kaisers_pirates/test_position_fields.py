"""The Kaiser's Pirates from a stated position, issue 45: the fields a position can now
state (limited supply, an island refuge, damage markers, a Deception or Fog Bank waiting
on a player), each driven into play and checked against what the book says it does; the
solitaire game (the phantom's part) and the team game (the teams) from a position, played
on; the refusals, each naming the field and the book's paragraph; hidden hands still
hidden from every other seat (position.py, docs/positions.md)."""

import json
import random
from pathlib import Path

import pytest
from kp_helpers import Table, count_cards
from test_example_55 import HAND, _phantom_turn
from test_shapes import _check

from service.app import Privateer
from service.kernel import BadInput
from service.kernel.local import LocalGame
from service.views import describe
from tests.cli.test_record import played_out_audited_and_reimported

GAME = "kaisers-pirates"
DOCS = Path(__file__).resolve().parents[2] / "docs"


def last(t, type_):
    return t.events(type_)[-1].data


def intercept(t, seat, card, ship, target):
    """``card`` committed on ``ship``, then its intercept of ``target`` announced."""
    t.commit(seat, (card, "intercept", ship))
    t.act(seat, {"action": "intercept", "card": card, "ship": ship, "target": target})


# limited supply (1.3.2, 3.2.7) ------------------------------------------------------------
def test_a_ship_stated_short_of_supply_intercepts_at_minus_2():
    """3.2.7 "Rifornimento limitato": -2 to the attack of an intercepting ship short of supply."""
    t = Table(2, position={"players": [
        {"ships": [{"ship": "Emden", "supply": True}, "Dresden", "Leipzig"], "hand": ["damage-control-1"]},
        {"merchants": ["Matheran", "Lovat", "Maria"], "hand": []}]})
    assert t.st("emden")["supply"] and not t.st("dresden")["supply"]
    intercept(t, 1, "damage-control-1", "emden", "matheran")
    t.roll(7, 5, 3, 2)                      # Emden d10 d8 d6: 7 - 2; Matheran d8: 2
    cmp = last(t, "DiceCompared")
    assert cmp["attack"]["mods"] == ["limited supply -2"] and cmp["attack"]["result"] == 5
    count_cards(t.state)
    _check(t.state)


def test_a_ship_short_of_supply_is_resupplied_in_its_refuge():
    """3.3.20: in the refuge, a ship may try to resupply (and repair) each turn, one roll each."""
    t = Table(2, position={"to_play": 2, "players": [{}, {"ships": [
        {"ship": "Emden", "supply": True, "damaged": True, "refuge": True}, "Dresden", "Leipzig"]}]})
    t.act(2, {"action": "done"})
    legal = t.legal(2)
    for d in ({"action": "refuge", "ship": "emden", "try": "supply"},
              {"action": "refuge", "ship": "emden", "try": "repair"},
              {"action": "leave_refuge", "ship": "emden"}):       # it entered in an earlier turn: it may leave
        assert d in legal
    t.act(2, {"action": "refuge", "ship": "emden", "try": "supply"})
    t.roll(9, 2, 5)                         # challenge d10 d8: 9 against response d10: 5
    assert last(t, "ChallengeRolled")["success"] and not t.st("emden")["supply"]
    t.act(2, {"action": "refuge", "ship": "emden", "try": "repair"})
    t.roll(3, 4, 8)                         # 4 against 8: still damaged
    assert not last(t, "ChallengeRolled")["success"] and t.st("emden")["damaged"]
    assert {"action": "refuge", "ship": "emden", "try": "repair"} not in t.legal(2)     # one attempt a turn
    count_cards(t.state)


@pytest.mark.parametrize("pos,said", [
    ({"merchants": [{"merchant": "Maria", "supply": True}]},
     "seat 1's merchants: 'Maria': supply: limited supply marks warships and raiders only (1.3.2)"),
    ({"prizes": [{"merchant": "Lovat", "supply": True}]},
     "seat 1's prizes: 'Lovat': supply: limited supply marks warships and raiders only (1.3.2)"),
    ({"ships": [{"ship": "Emden", "supply": "yes"}]}, "seat 1's ships: Emden's supply is true or false, not 'yes'"),
])
def test_limited_supply_is_refused_where_the_book_puts_no_marker(pos, said):
    with pytest.raises(BadInput) as refused:
        LocalGame(GAME, 2, position={"players": [pos, {}]})
    assert said in refused.value.reason


# an island refuge (3.3.20) ---------------------------------------------------------------
def test_a_ship_stated_in_a_refuge_cannot_be_intercepted_but_by_a_monitor():
    """3.3.20: in an island refuge a ship is intercepted only by a Monitor (3.3.24, +2);
    the Island Refuge card lies on it (a card of the deck: counted)."""
    t = Table(2, position={"players": [
        {"hand": ["damage-control-1", "monitor-1"]},
        {"ships": [{"ship": "Emden", "refuge": "island-refuge-2"}, "Dresden", {"ship": "Leopard", "revealed": True}]}]})
    assert t.st("emden")["refuge"] == "island-refuge-2" and "island-refuge-2" not in t.state["pool"]
    t.commit(1, ("damage-control-1", "intercept"), ("monitor-1", "action"))
    legal = t.legal(1)
    british = sorted(d["target"] for d in legal if d["action"] == "intercept")
    assert british == ["dresden", "leopard"]                  # not the Emden in its refuge
    assert [d["target"] for d in legal if d["action"] == "monitor"] == ["emden"]
    t.act(1, {"action": "monitor", "card": "monitor-1", "target": "emden"})
    t.discards()
    if t.g.to_act() == [2]:
        t.act(2, {"action": "decline"})
    t.roll(4, 3, 5)                         # Monitor d10 d8: 4 + 2 (static target); Emden d8: 5
    cmp = last(t, "DiceCompared")
    assert cmp["attack"]["result"] == 6 and any("+2" in m for m in cmp["attack"]["mods"])
    count_cards(t.state)


def test_two_refuges_by_type_and_a_third_refused():
    g = LocalGame(GAME, 2, seed=b"r" * 32, position={"players": [
        {"ships": [{"ship": "Emden", "refuge": True}, {"ship": "Wolf", "refuge": "Island Refuge"}]}, {}]})
    assert {g.state["status"][s]["refuge"] for s in ("emden", "wolf")} == {"island-refuge-1", "island-refuge-2"}
    with pytest.raises(BadInput) as refused:
        LocalGame(GAME, 2, position={"players": [
            {"ships": [{"ship": "Emden", "refuge": True}, {"ship": "Wolf", "refuge": True}]},
            {"hand": ["Island Refuge"]}]})
    assert "seat 1's ships: Wolf's refuge: no 'island-refuge' left" in refused.value.reason


@pytest.mark.parametrize("pos,said", [
    ({"merchants": [{"merchant": "Maria", "refuge": True}]},
     "seat 1's merchants: 'Maria': refuge: an island refuge shelters a warship or raider only (3.3.20)"),
    ({"ships": [{"ship": "Leopard", "refuge": True, "revealed": True}]},
     "seat 1's ships: Leopard is stated revealed and in an island refuge: a raider there is hidden and cannot be "
     "revealed (3.3.20)"),
    ({"ships": [{"ship": "Emden", "refuge": "Fog Bank"}]},
     "seat 1's ships: Emden's refuge: 'Fog Bank' is not an Island Refuge card (3.3.20)"),
    ({"ships": [{"ship": "Emden", "refuge": 1}]}, "seat 1's ships: Emden's refuge: true, or an Island Refuge card"),
])
def test_a_refuge_is_refused_where_the_book_allows_none(pos, said):
    with pytest.raises(BadInput) as refused:
        LocalGame(GAME, 2, position={"players": [pos, {}]})
    assert said in refused.value.reason


# damage markers (3.2.7, 6.8) -------------------------------------------------------------------
def test_damage_markers_count_in_the_next_combat_with_extra_damage():
    """6.8.2: -2 a marker on the attack; 6.8.3: a repair takes one marker off."""
    t = Table(2, options={"extra_damage": "true"}, position={"players": [
        {"ships": [{"ship": "Emden", "markers": 2}], "hand": ["damage-control-1"]},
        {"merchants": [{"merchant": "Matheran", "markers": 1}, "Lovat", "Maria"], "hand": []}]})
    assert t.st("emden")["hits"] == 2 and t.st("emden")["damaged"]
    intercept(t, 1, "damage-control-1", "emden", "matheran")
    t.roll(9, 1, 1, 6)
    cmp = last(t, "DiceCompared")
    assert cmp["attack"]["mods"] == ["damaged -4 (2 markers)"] and cmp["attack"]["result"] == 5
    assert cmp["defence"]["mods"] == ["damaged -2"] and cmp["defence"]["result"] == 4
    _check(t.state)


def test_a_damaged_merchant_defends_at_minus_2():
    """3.2.7: a damaged ship rolls at -2, in attack and in defence."""
    t = Table(2, position={"players": [
        {"ships": ["Emden"], "hand": ["damage-control-1"]},
        {"merchants": [{"merchant": "Matheran", "damaged": True, "markers": 1}], "hand": []}]})
    intercept(t, 1, "damage-control-1", "emden", "matheran")
    t.roll(3, 2, 1, 4)
    cmp = last(t, "DiceCompared")
    assert cmp["defence"]["mods"] == ["damaged -2"] and (cmp["attack"]["result"], cmp["defence"]["result"]) == (3, 2)
    # 3 against 2: damaged again, which changes nothing (3.2.7: no other marker)
    assert last(t, "FurtherDamageIgnored")["ship"] == "matheran" and not t.events("ShipDamaged")


@pytest.mark.parametrize("pos,options,said", [
    ({"ships": [{"ship": "Emden", "markers": 2}]}, {},
     "seat 1's ships: Emden's markers: 2 damage markers, but a damaged ship damaged again takes no other marker "
     "(3.2.7) unless the optional rule 6.8 is on (option extra_damage=true)"),
    ({"ships": [{"ship": "Emden", "markers": 2, "damaged": False}]}, {"extra_damage": "true"},
     "seat 1's ships: Emden is stated undamaged with 2 damage markers"),
    ({"ships": [{"ship": "Emden", "markers": 0}]}, {},
     "seat 1's ships: Emden's markers (damage markers) must be a whole number from 1 to 99"),
])
def test_damage_markers_are_refused_beyond_the_book(pos, options, said):
    with pytest.raises(BadInput) as refused:
        LocalGame(GAME, 2, options, position={"players": [pos, {}]})
    assert said in refused.value.reason


# a Deception or Fog Bank waiting (3.3.10, 3.3.14) ------------------------------------------
def test_a_pending_fog_bank_shields_its_player_from_the_next_engagement_then_fogs_its_turn():
    """3.3.14: until it is discarded its player cannot be intercepted or attacked (only Heavy
    Weather may be played against it); in its next turn no card is played and none drawn."""
    t = Table(2, position={"players": [
        {"ships": ["Emden", "Dresden", "Leipzig"], "hand": ["damage-control-1", "heavy-weather-1"]},
        {"pending": "Fog Bank"}]})
    assert t.p(2)["pending"] == {"card": "fog-bank-1", "type": "fog-bank"}
    t.commit(1, ("damage-control-1", "intercept", "emden"), ("heavy-weather-1", "action"))
    legal = t.legal(1)
    assert not [d for d in legal if d["action"] == "intercept"]        # seat 2 is in the fog
    assert {"action": "play", "card": "heavy-weather-1", "opponent": 2} in legal
    hand = len(t.p(2)["hand"])
    t.act(1, {"action": "end_turn"})
    # seat 2's turn in the fog: no card played, none drawn, the Fog Bank discarded; with no
    # island refuge to try, the turn is over at once
    assert [e.data["seat"] for e in t.events("TurnInFog")] == [2]
    assert last(t, "PendingCardCleared")["card"] == "fog-bank-1" and "fog-bank-1" in t.state["discard"]
    assert t.events("TurnEnded")[-1].data == {"seat": 2, "drew": False} and len(t.p(2)["hand"]) == hand
    assert t.state["current"] == 1 and t.p(2)["pending"] is None
    count_cards(t.state)


def test_a_pending_fog_bank_on_the_seat_to_play_leaves_it_no_card():
    t = Table(2, position={"players": [{"pending": "fog-bank-2", "hand": ["damage-control-1"]}, {}]})
    assert last(t, "TurnInFog") == {"seat": 1} and t.events("TurnEnded")[0].data == {"seat": 1, "drew": False}
    assert t.p(1)["hand"] == ["damage-control-1"] and t.state["current"] == 2


def test_a_pending_deception_forces_one_card_at_random():
    """3.3.10: the player plays one card only, drawn at random from its hand, its action side."""
    t = Table(2, picks=["damage-control-1"], position={"players": [
        {"pending": "Deception", "hand": ["damage-control-1", "qqq-1"],
         "merchants": [{"merchant": "Matheran", "damaged": True}]}, {}]})
    assert last(t, "DeceptionForcedCard")["card"] == "damage-control-1" and t.state["phase"] == "resolve"
    assert {"action": "play", "card": "damage-control-1", "ship": "matheran"} in t.legal(1)
    assert not [d for d in t.legal(1) if d["action"] == "commit"]
    t.act(1, {"action": "play", "card": "damage-control-1", "ship": "matheran"})
    assert not t.st("matheran")["damaged"]
    t.act(1, {"action": "end_turn"})
    assert {"deception-1", "damage-control-1"} <= set(t.state["discard"])
    count_cards(t.state)


@pytest.mark.parametrize("pending,said", [
    ("Interned", "seat 2's pending: 'Interned' is neither a Deception nor a Fog Bank (the cards placed on a "
                 "player, 3.3.10, 3.3.14)"),
    (["Deception", "Fog Bank"], "seat 2's pending: one card: a player never has a Deception and a Fog Bank waiting "
                                "at once (3.3.10, 3.3.14)"),
    ("deception-3", "seat 2's pending: there is no action card 'deception-3'"),
])
def test_a_pending_card_is_refused_unless_the_book_places_it(pending, said):
    with pytest.raises(BadInput) as refused:
        LocalGame(GAME, 2, position={"players": [{}, {"pending": pending}]})
    assert said in refused.value.reason


def test_a_pending_card_counts_against_the_deck():
    with pytest.raises(BadInput, match="seat 3's pending: no 'Fog Bank' left"):
        LocalGame(GAME, 3, position={"players": [{"pending": "Fog Bank"}, {"hand": ["fog-bank-2"]},
                                                 {"pending": "Fog Bank"}]})


# the solitaire game (section 5) --------------------------------------------------------------
def test_the_phantoms_turn_of_551_from_a_position_of_the_ship_that_matters():
    """5.5.1 again, with no deal typed: the phantom's Leipzig (its only warship), Mike's hand
    and merchants; everything else dealt. The phantom plays at once (to_play 2), then Mike."""
    t = Table(1, solo=["solo-1", "solo-2", "solo-3", "solo-4", "solo-5", "solo-6"],
              picks=["lundy-island", "appam", "collier-1", "fair-seas-1"],
              position={"to_play": 2, "players": [{"hand": HAND, "merchants": ["Matheran", "Lundy Island", "Appam"]}],
                        "phantom": {"ships": ["Leipzig"]}})
    assert t.p(2)["ships"] == ["leipzig"] and len(t.p(1)["ships"]) == 3 and len(t.p(2)["merchants"]) == 3
    _phantom_turn(t)
    assert sorted(t.p(1)["hand"]) == ["break-contact-1", "interned-1", "lay-mines-1", "scuttle-1"]
    assert t.g.to_act() == [1] and t.state["current"] == 1 and len(t.state["solo"]["pile"]) == 20
    t.commit(1, ("interned-1", "action"))               # Mike's turn: Interned against the Leipzig (3.3.18)
    assert {"action": "play", "card": "interned-1", "target": "leipzig"} in t.legal(1)
    count_cards(t.state)
    _check(t.state)


def test_a_phantom_check_states_only_the_ships_it_reads():
    """The phantom's Monitor (5.4.3, 3.3.24) on the player's ship in a refuge, then its
    Interrogate "High VP" (step 11) on the hidden raider of most VP: three ships stated."""
    t = Table(1, solo=["solo-10", "solo-16", "solo-1"], position={"to_play": 2, "players": [
        {"ships": [{"ship": "Emden", "refuge": True}, "Leopard", "Wolf"], "hand": []}]})
    t.roll(4)                               # solo-10, red 4: Monitor
    att = last(t, "AttackAnnounced")
    assert (att["kind"], att["targets"]) == ("monitor", ["emden"])
    t.roll(3, 4, 8)                         # Monitor d10 d8: 4 + 2 against the Emden's 8: no effect
    assert last(t, "DiceCompared")["attack"]["result"] == 6 and last(t, "DiceCompared")["outcome"] == "none"
    t.roll(4)                               # solo-16, red 4: Interrogate, High VP: the Wolf (6) before the Leopard (3)
    assert last(t, "AttackAnnounced")["kind"] == "interrogate" and last(t, "AttackAnnounced")["targets"] == ["wolf"]
    while t.awaiting():
        t.roll(1)                           # the challenge fails; solo-1, red 1: no action (ET)
    assert t.state["current"] == 1 and not t.st("wolf")["revealed"]
    count_cards(t.state)


def test_the_phantoms_short_turn_and_the_solitaire_cards_turned():
    """5.4.3 step 9: after its Deception the phantom's next turn is one card, the action of 3
    or 4; the solitaire cards turned since the reshuffle are out of its deck (5.4.1)."""
    g = LocalGame(GAME, 1, seed=b"d" * 32, position={"to_play": 2, "players": [{}], "phantom": {
        "short_turn": "Deception", "solitaire_turned": ["solo-3", "Solitaire 7"]}})
    assert g.events[[e.type for e in g.events].index("PhantomTurnBegun")].data == {"mode": "deception"}
    chosen = [e.data for e in g.events if e.type == "PhantomActionChosen"]
    assert len(chosen) == 1 and chosen[0]["then"] == "end" and chosen[0]["roll"] in (1, 2, 3, 4)
    g = LocalGame(GAME, 1, seed=b"d" * 32, position={"players": [{}], "phantom": {
        "short_turn": "Recon Aircraft", "solitaire_turned": ["solo-3", "Solitaire 7"]}})
    assert g.state["solo"]["short"] == "recon" and len(g.state["solo"]["pile"]) == 18
    assert g.rules.view(g.state, 1)["solitaire_deck"] == 18


def test_the_phantoms_fog_bank_on_the_real_player_is_no_card():
    """5.4.3 step 6: the phantom's Deception or Fog Bank is not placed: it is remembered."""
    g = LocalGame(GAME, 1, seed=b"f" * 32, position={"players": [{"pending": "Fog Bank"}], "phantom": {
        "pending": "Fog Bank", "ships": [{"ship": "Wolf", "refuge": True, "supply": True}]}})
    laid = next(e.data for e in g.events if e.type == "PositionLaid")
    assert laid["players"][0]["pending"] == {"card": "solo:fog-bank", "type": "fog-bank"}
    assert laid["players"][1]["pending"] == {"card": "fog-bank-1", "type": "fog-bank"}   # the real player's card
    assert laid["players"][1]["ships"][0]["refuge"] == "solo:island-refuge"
    # seat 1's turn in the fog ends at once; the phantom's too, once its Wolf has tried to resupply (step 7)
    assert [e.data["seat"] for e in g.events if e.type == "TurnInFog"] == [1, 2]
    assert any(e.type == "RefugeAttempted" and e.data == {"ship": "wolf", "what": "supply"} for e in g.events)
    assert g.to_act() == [1] and "fog-bank-1" in g.state["discard"]
    assert [p["pending"] for p in g.state["players"]] == [None, None]
    count_cards(g.state)


def test_the_solitaire_discards_are_a_number_face_down():
    g = LocalGame(GAME, 1, seed=b"x" * 32, position={"players": [{}], "discard": 7})
    v = g.rules.view(g.state, 1)
    assert v["discard"] == 7 and v["discard_top_two"] == [] and v["action_deck"] == 40 - 48 + 48 - 12 - 7
    assert all(e.vis == "referee" for e in g.events if e.type == "CardDrawn" and "phantom-discard" in e.data["deck"])
    count_cards(g.state)


@pytest.mark.parametrize("pos,said", [
    ({"players": [{"hand": ["Intelligence"]}]}, "seat 1's hand: 'Intelligence' is not used in the solitaire game (5.2)"),
    ({"players": [{}], "phantom": {"hand": ["qqq"]}},
     "the phantom's hand: a number of cards (dealt face down and never looked at, 5.2.2), not a list"),
    ({"players": [{}], "phantom": {"short_turn": "Fog Bank"}},
     "the phantom's short_turn: 'Deception' (5.4.3 step 9) or 'Recon Aircraft' (step 10), not 'Fog Bank'"),
    ({"players": [{}], "phantom": {"solitaire_turned": ["solo-1", "solo-1"]}},
     "the phantom's solitaire_turned: 'solo-1' is stated twice (turned once until the reshuffle, 5.4.1)"),
    ({"players": [{}], "phantom": {"solitaire_turned": ["solo-21"]}},
     "the phantom's solitaire_turned: there is no solitaire card 'solo-21'"),
    ({"players": [{}], "phantom": {"ships": ["Emden"]}, "to_play": 3},
     "to_play (1 the player, 2 the phantom) must be a whole number from 1 to 2"),
    ({"players": [{"ships": ["Emden"]}], "phantom": {"ships": ["emden"]}}, "the phantom's ships: Emden is stated twice"),
    ({"players": [{}], "discard": ["amc"]}, "discard: the solitaire game's discards are face down (5.3.1)"),
    ({"players": [{}], "phantom": {"sea": 1}}, "the phantom: unknown 'sea'"),
    ({"players": [{}, {}]}, "the position describes 2 players"),
])
def test_an_impossible_solitaire_position_is_refused(pos, said):
    with pytest.raises(BadInput) as refused:
        LocalGame(GAME, 1, position=pos)
    assert said in refused.value.reason


def test_the_real_players_hand_is_seen_by_it_alone_in_the_solitaire_game():
    games = [LocalGame(GAME, 1, seed=b"h" * 32, position={"players": [{"hand": hand}], "phantom": {"ships": ["Emden"]}})
             for hand in (["qqq-1", "recalled-1"], ["u-27", "surprise-attack-1"])]
    a, b = games
    seen = [[e.as_tuple() for e in g.events if e.visible_to(0)] for g in games]
    assert seen[0] == seen[1] and a.rules.view(a.state, 0) == b.rules.view(b.state, 0)
    assert a.rules.view(a.state, 0)["players"]["1"]["hand"] == 2
    assert sorted(a.rules.view(a.state, 1)["players"]["1"]["hand"]) == ["qqq-1", "recalled-1"]
    assert a.rules.view(a.state, 1)["players"]["2"]["hand"] == 6           # the phantom's: a number, to all


def test_a_solitaire_position_played_on_audited_recorded_and_imported(tmp_path):
    app = Privateer(str(tmp_path / "s.db"))
    gid = app.create(GAME, 1, position=json.loads((DOCS / "positions" / "kaisers-pirates-solitaire.json").read_text()))
    played_out_audited_and_reimported(app, gid, random.Random(5))


# the team game (section 4) -----------------------------------------------------------------
def test_a_team_game_from_a_position_skips_a_turn_and_keeps_partners_apart():
    """3.3.4: Bounding Main skips seat 2's turn, its Deception waits for its next; 4.2: seat 3
    never intercepts its partner's merchants; 4.0: partners do not see each other's hands."""
    t = Table(4, options={"team": "true"}, position={"teams": [[1, 3], [2, 4]], "to_play": 2, "players": [
        {"hand": ["qqq-1", "recalled-1"], "merchants": ["Matheran", "Lovat", "Maria"]},
        {"skip": True, "pending": "Deception"},
        {"ships": ["Emden"], "hand": ["damage-control-1"]}, {}]})
    assert last(t, "TurnSkipped")["seat"] == 2 and t.g.to_act() == [3]
    assert t.p(2)["pending"]["type"] == "deception" and not t.p(2).get("skip")
    t.commit(3, ("damage-control-1", "intercept", "emden"))
    targets = {d["target"] for d in t.legal(3) if d["action"] == "intercept"}
    assert targets and not targets & {"matheran", "lovat", "maria"}
    assert targets <= set(t.p(2)["merchants"] + t.p(4)["merchants"])
    for seat in (2, 3, 4):
        assert t.g.rules.view(t.state, seat)["players"]["1"]["hand"] == 2
    assert not [e for e in t.g.events if e.type == "CardDrawn" and e.data.get("card") == "qqq-1" and e.visible_to(3)]
    t.act(3, {"action": "end_turn"})
    assert t.state["current"] == 4
    count_cards(t.state)
    _check(t.state)


@pytest.mark.parametrize("pos,options,said", [
    ({"teams": [[1, 2], [3, 4]], "players": [{}, {}, {}, {}]}, {"team": "true"},
     "teams: partners sit alternately (4.1): [[1, 3], [2, 4]], not [[1, 2], [3, 4]]"),
    ({"teams": [[1, 3]], "players": [{}, {}, {}, {}]}, {"team": "true"}, "teams: partners sit alternately (4.1)"),
    ({"players": [{}, {"skip": True}, {}, {}]}, {"team": "true"},
     "seat 2's skip: Bounding Main skips the turn of the next player (3.3.4): only the seat whose turn begins "
     "(to_play 1) can be skipped"),
    ({"players": [{}, {"skip": True}, {}, {}]}, {},
     "seat 2's skip: Bounding Main skips a turn in the team game only (3.3.4, section 4)"),
    ({"teams": [[1, 3], [2, 4]], "players": [{}, {}, {}, {}]}, {},
     "teams: only the team game has teams (section 4, option team=true)"),
    ({"phantom": {}, "players": [{}, {}, {}, {}]}, {"team": "true"},
     "phantom: only the solitaire game has a phantom player (section 5, --seats 1)"),
])
def test_an_impossible_team_position_is_refused(pos, options, said):
    with pytest.raises(BadInput) as refused:
        LocalGame(GAME, 4, options, position=pos)
    assert said in refused.value.reason


def test_a_team_position_played_on_audited_recorded_and_imported(tmp_path):
    app = Privateer(str(tmp_path / "t.db"))
    gid = app.create(GAME, 4, options={"team": "true"},
                     position=json.loads((DOCS / "positions" / "kaisers-pirates-team.json").read_text()))
    played_out_audited_and_reimported(app, gid, random.Random(6))


# every field at once: the shapes, the counts, the log -----------------------------------------
def test_every_field_at_once_keeps_the_states_shape_and_every_card_once():
    g = LocalGame(GAME, 3, {"extra_damage": "true"}, seed=b"a" * 32, position={"to_play": 2, "players": [
        {"ships": [{"ship": "Emden", "markers": 3, "supply": True}, {"ship": "Wolf", "refuge": True}],
         "prizes": [{"merchant": "Lovat", "markers": 2, "revealed": True}], "pending": "Deception"},
        {"ships": [{"ship": "Dresden", "supply": True, "refuge": "island-refuge-1"}], "pending": "fog-bank-1"},
        {}]})
    st = g.state["status"]
    assert (st["emden"]["hits"], st["emden"]["supply"], st["lovat"]["hits"]) == (3, True, 2)
    assert st["wolf"]["refuge"] == "island-refuge-2" and st["dresden"]["refuge"] == "island-refuge-1"
    count_cards(g.state)
    _check(g.state)
    rng = random.Random(1)
    for _ in range(60):
        if g.machine.finished:
            break
        seat = g.to_act()[0]
        g.act(seat, rng.choice(g.legal(seat)))
        count_cards(g.state)
        _check(g.state)
    laid = next(e for e in g.events if e.type == "PositionLaid")
    text = describe(g.rules, laid)
    assert "Emden (damaged, 3 damage markers, short of supply)" in text
    assert "Wolf (in an island refuge)" in text and "Deception waiting on it" in text


def test_the_example_files_are_the_ones_the_page_shows():
    page = (DOCS / "positions.md").read_text()
    for name in ("kaisers-pirates-solitaire.json", "kaisers-pirates-team.json", "kaisers-pirates-marks.json"):
        assert (DOCS / "positions" / name).read_text().rstrip() in page


def test_the_marks_example_file_starts_a_game():
    g = LocalGame(GAME, 3, {"extra_damage": "true"}, seed=b"m" * 32,
                  position=json.loads((DOCS / "positions" / "kaisers-pirates-marks.json").read_text()))
    count_cards(g.state)
    _check(g.state)

"""The Kaiser's Pirates in the game's words, not the engine's (issue 45): the log as the
referee, the public and each seat read it, the table (``tools replay``'s text) and every
decision a seat is offered say ships and cards by their printed names, rolls as the book
says them, and no id, stage, kind or index."""

from __future__ import annotations

import re

import pytest

from service.aggregates.kaisers_pirates.catalog import index, load, solitaire_deck
from service.kernel.events import Ev
from service.kernel.games import get_rules
from service.views import describe
from tests.words_check import offending, play

rules = get_rules("kaisers-pirates")

# what the log used to say: an engagement's stage and index, an attack's kind, "N = N",
# the solitaire pseudo-card's "(solitaire)", a face-up discard the event does not know of
BANNED = ("engagement advanced", "stage ", ", i 0", "kind ", "window closed", "= ", "(solitaire)",
          "discarded face up", "committing done", "ctype")
# a ship, merchant or card id (kronprinz-wilhelm, reflag-2, u-41, solo:amc, solo-7): the printed name instead
_ix = index(load(), "default")
IDS = set(_ix.ships) | set(_ix.merchants) | set(_ix.card_name) | {c["id"] for c in solitaire_deck()["cards"]}
TOKEN = re.compile(r"(?<![\w:-])(?:solo:)?[a-z0-9][a-z0-9-]*[a-z0-9](?![\w-])")


def _ids(text: str) -> list:
    return [t for t in TOKEN.findall(text) if t in IDS or t.startswith("solo:")]


def _say(type_: str, **data) -> str:
    return describe(rules, Ev(type_, 5, "all", data))


GAMES = [(3, {}, "kp-words-3"), (1, {}, "kp-words-solo"), (4, {"team": "true"}, "kp-words-team")]


@pytest.fixture(scope="module", params=GAMES, ids=lambda g: f"{g[0]}-seats{'-team' if g[1] else ''}")
def read(request):
    seats, options, seed = request.param
    return play("kaisers-pirates", seats, seed, options)[1]


def test_no_id_nor_bookkeeping_word_in_what_a_person_reads(read):
    texts = read.log + read.tables + read.labels
    assert not offending(texts, BANNED)[:5]
    assert not [(w, t) for w, t in texts if _ids(t)][:5]


def test_the_solitaire_discards_are_said_face_down():
    """The solitaire game's discard pile is face down (5.3.1): its cards go down at once, unordered,
    and the log says so; elsewhere each card goes down face up (3.1.7), in the order its holder
    chooses, each a decision that says so."""
    _, read = play("kaisers-pirates", 1, "kp-words-solo")
    many = [t for _, t in read.log if re.match(r"seat \d discards .* and ", t)]
    assert many and all(t.endswith(" face down (the solitaire game, 5.3.1)") for t in many)
    assert not [t for _, t in read.labels if "on the discard pile" in t]       # nothing to order
    _, read = play("kaisers-pirates", 3, "kp-words-3")
    discards = [t for _, t in read.labels if "on the discard pile" in t]
    assert discards and all(t.endswith("face up on the discard pile") for t in discards)
    assert not [t for _, t in read.log if "face down (the solitaire game" in t]
    from service.aggregates.kaisers_pirates.words import say_decision
    cfg = {"catalog": rules.catalog({}), "options": {"solitaire": True}}
    assert say_decision(cfg, {"action": "discard", "card": "trap-1"}) == "put Trap face down on the discard pile"


def test_the_lines_the_issue_names():
    # an engagement's steps: no "stage next, i 0"
    assert _say("EngagementAdvanced", stage="next", i=0) == "done with the first target"
    assert _say("EngagementAdvanced", stage="react", i=0) == "the defender may react"
    assert _say("EngagementAdvanced", stage="resolve", i=1) == "the dice are rolled"
    # an attack's end: no "kind british"; a gun attack is a submarine's attack, not "kind torpedo"
    assert _say("EngagementEnded", kind="british", seat=3) == "seat 3's British intercept is over"
    assert _say("EngagementEnded", kind="torpedo", seat=2) == "seat 2's submarine attack is over"
    # the dice as the book says them (3.2.7): the highest die, each modifier, the result
    assert _say("DiceCompared", what="kronprinz-wilhelm intercepts charles-gounod",
                attack={"dice": [10, 6], "high": 9, "mods": [], "result": 9},
                defence={"dice": [8], "high": 4, "mods": [], "result": 4}, outcome="sunk") == \
        "Kronprinz Wilhelm intercepts Charles Gounod: 9 against 4, at least double: sunk"
    assert _say("DiceCompared", what="cap-trafalgar intercepts cornish-city",
                attack={"dice": [8, 6], "high": 7, "mods": ["night action -1"], "result": 6},
                defence={"dice": [6, 4], "high": 2, "mods": [], "result": 2}, outcome="sunk") == \
        "Cap Trafalgar intercepts Cornish City: 7 (night action -1): 6 against 2, at least double: sunk"
    assert _say("DiceCompared", what="iltis intercepts buresk",
                attack={"dice": [6], "high": 5, "mods": [], "result": 5},
                defence={"dice": [4], "high": 4, "mods": [], "result": 4}, outcome="damaged") == \
        "Iltis intercepts Buresk: 5 against 4, higher, not double: damaged"
    # discards: the cards by name, and face down only where the event says so
    assert _say("CardsDiscarded", seat=3, cards=["u-41"]) == "seat 3 discards U-41"
    assert _say("CardsDiscarded", seat=1, cards=["u-41", "transfer-command-1"]) == \
        "seat 1 discards U-41 and Transfer Command face down (the solitaire game, 5.3.1)"
    assert _say("CardsDiscardedFaceDown", seat=1, cards=["trap-2", "fog-bank-2"],
                why="the phantom's Recon Aircraft (5.4.3 step 8)") == \
        "seat 1 discards Trap and Fog Bank face down (the phantom's Recon Aircraft (5.4.3 step 8))"
    # the phantom's gun attack, and its British intercept (not "AMC (solitaire)")
    assert _say("AttackAnnounced", kind="torpedo", seat=2, card="solo:submarines-u-27-u-41", ship=None, opp=1,
                targets=["maria"], night=False, guns=True) == \
        "seat 2: the phantom's U-boat fires its guns on seat 1's Maria"
    assert _say("AttackAnnounced", kind="british", seat=2, card="solo:amc", ship=None, opp=1,
                targets=["emden"], night=False) == "seat 2: the phantom's British forces intercept seat 1's Emden"
    assert _say("DiceCompared", what="British forces (AMC (solitaire)) intercept emden",
                attack={"dice": [10, 6], "high": 3, "mods": [], "result": 3},
                defence={"dice": [8], "high": 5, "mods": [], "result": 5}, outcome="none") == \
        "the phantom's British forces intercept Emden: 3 against 5, not higher: no effect"
    assert _say("PhantomReacted", seat=2, card="solo:amc", ctype="amc", name="AMC (solitaire)", target="maria") == \
        "the phantom reacts with its AMC for Maria"
    # a player's British intercept and an intercept by a ship
    assert _say("AttackAnnounced", kind="british", seat=3, card="trap-1", ship=None, opp=1,
                targets=["leipzig"], night=False) == "seat 3: British forces intercept seat 1's Leipzig"
    assert _say("AttackAnnounced", kind="intercept", seat=1, card="reflag-1", ship="kronprinz-wilhelm", opp=3,
                targets=["trabboch"], night=True) == \
        "seat 1: Kronprinz Wilhelm intercepts seat 3's Trabboch (a night action)"


def test_windows_and_referee_steps_say_what_happens():
    assert _say("WindowOpened", kind="react", seat=1, target="leipzig", attack="british") == \
        "seat 1 may react to the attack (on Leipzig)"
    assert _say("WindowOpened", kind="passage", seat=3, ship="trabboch") == "seat 3 may try for passage with Trabboch"
    assert _say("WindowClosed", seat=3, kind="discard") == "seat 3 is done discarding"
    assert _say("ReactionDeclined", seat=1, kind="after", target="foyle") == "seat 1 does not answer the sinking"
    assert _say("PenaltyApplied", seat=1, card="special-cargo-1", name="Special Cargo", where="hand", rule="3.1.5",
                why="a card committed or played irregularly is discarded") == \
        "penalty (3.1.5): seat 1 discards Special Cargo from its hand, face up"
    assert _say("CommittingDone", seat=3, cards=6) == "seat 3 is done committing: 6 cards committed"


def test_a_stated_position_names_the_forces():
    from service.kernel.local import LocalGame
    g = LocalGame("kaisers-pirates", 2, seed=b"p" * 32, position={"round": 2, "players": [
        {"prizes": ["Lovat"], "vp": ["Leopard", "Maria"], "round_points": [4]}, {"merchants": ["Matheran"]}]})
    laid = next(e for e in g.events if e.type == "PositionLaid")
    assert describe(rules, laid) == ("the game starts from a stated position: seat 1: prizes Lovat; victory points "
                                     "Leopard and Maria; seat 2: merchants Matheran; seat 1 holds 6 cards; "
                                     "seat 2 holds 6 cards")


def test_draws_and_rolls_say_the_cards_and_dice():
    assert _say("CardDrawn", deck="ships:force-1", card="kronprinz-wilhelm", why="a warship or raider for seat 1") == \
        "a warship or raider for seat 1: Kronprinz Wilhelm"
    assert _say("DiceRolled", n=1, sides=10, values=[7], why="seat 1 attack (kronprinz-wilhelm): blue d10") == \
        "seat 1 attack (Kronprinz Wilhelm): blue d10: rolls 7"


def test_copies_of_one_card_read_alike_in_a_label():
    """Two copies of Reflag in a hand: each label says Reflag, never which copy."""
    from service.aggregates.kaisers_pirates.words import say_decision
    cfg = {"catalog": rules.catalog({}), "options": {}}
    a = say_decision(cfg, {"action": "commit", "card": "reflag-1", "use": "intercept", "ship": "greif"})
    b = say_decision(cfg, {"action": "commit", "card": "reflag-2", "use": "intercept", "ship": "greif"})
    assert a == b == "commit Reflag to intercept with Greif"

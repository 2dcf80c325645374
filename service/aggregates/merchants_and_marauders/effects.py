"""Card effects as data: the small vocabulary in which an event or glory card's
printed text is written in its catalog entry (``"effect"``).

An effect is ``"none"`` (the card does nothing beyond being drawn or played: the
default catalog's cards whose text is not known say so in their ``note``) or::

    {"timing": "immediate" | "each_turn" | "end_of_turn", "steps": [STEP, ...]}

``immediate``: when the event card is drawn (a glory card: when played);
``each_turn``: an event card that stays in play until the next one is drawn, its
steps run at the start of each player's turn for that player; ``end_of_turn``: its
steps run once, when every player has had the turn. A STEP is an object with ``do``
(a word below) and the word's arguments:

====================  ==========================================================
``gain_gold``         ``amount`` coins from the bank to each player named by ``who``
``lose_gold``         ``amount`` coins aboard (at most what is aboard) to the bank
``place_flag``        a wanted flag of ``nation`` (up to 5)
``remove_flag``       one wanted flag of ``nation`` (gone at 0)
``damage``            one hit on the ship's ``location`` (hull, masts, cargo, crew, cannons)
``repair``            one point of the ship's ``location`` back (up to its value)
``draw_glory``        a glory card
``discard_cargo``     ``count`` cargo cards aboard, chosen at random
``skill_test``        a ``skill`` test (seamanship, scouting, leadership, influence):
                      ``then`` steps on a success, ``else`` steps on a failure
``draw_cargo``        ``count`` cargo cards from the deck (face down, to the player
                      only; the number is public); at sea only while the hold has room
``war``               (no ``who``) ``nations`` (two) go to war: the At War space, a
                      Man-o-War of each entering at the end of the turn at ``zones``
                      (nation -> zone) with ``captain`` (name, seamanship, scouting,
                      leadership); war.py
``peace``             (no ``who``) the war ends; its Man-o-Wars leave the sea
``reroll_dice``       (a combat timing) ``whose`` dice (``own``, ``foe``, ``any``) the
                      card's player chooses are rolled again (the book's "Crew Combat
                      Rerolls"); the last step of its card
``copy_card``         (timing ``copy``) the text of the glory card played last, as if
                      it were this card's (the book's "Fast Learner"); the only step
====================  ==========================================================

Rumor cards carry an ``immediate`` effect (what a true rumor gives) and missions a
``complete`` (where, what is needed, the steps of their "Earn"): see tasks.py.

Glory cards for combat take a combat timing instead: ``naval_roll`` (after the
Seamanship dice of a naval round) or ``crew_roll`` (after the Leadership dice of a
crew-combat round); a glory card played in other players' turns takes ``turn_start``
(at the start of each player's turn); ``glory.py`` opens the book's
announce-and-resolve window there.

``who`` (every word but ``skill_test``, whose steps inherit it): ``"active"`` (the
player whose turn it is; for a glory card its player), ``"current"`` (the player
whose turn it is, also for a glory card played in another player's turn), ``"each"``
(every player with a captain, in turn order), ``"wanted:<nation>"`` (every player
that nation wants). An unknown word is refused when the catalog is loaded, naming
the card and the word.
"""

from __future__ import annotations

from service.kernel import BadInput

from .catalog import SKILLS
from .catalog import tables as T
from .flow import bank_pays, deal_glory, draw_cargo, skill_test
from .raid import die
from .state import LOCATIONS, capacity, player, ship_max
from .wanted import gain_flag, lose_flag

TIMINGS = ("immediate", "each_turn", "end_of_turn", "naval_roll", "crew_roll", "turn_start", "copy")
COMBAT_TIMINGS = ("naval_roll", "crew_roll")
WORDS = {
    "gain_gold": {"amount": int},
    "lose_gold": {"amount": int},
    "place_flag": {"nation": str},
    "remove_flag": {"nation": str},
    "damage": {"location": str},
    "repair": {"location": str},
    "draw_glory": {},
    "discard_cargo": {"count": int},
    "skill_test": {"skill": str},
    "war": {"nations": list, "zones": dict, "captain": dict},
    "peace": {},
    "draw_cargo": {"count": int},
    "reroll_dice": {"whose": str},
    "copy_card": {},
}
GLOBAL = ("war", "peace")          # words that act on the board, not on players (no ``who``)


def _bad(card, msg):
    raise BadInput(f"merchants-and-marauders catalog: card {card!r}: {msg}")


def validate(card: str, effect, nations) -> None:
    """``nations``: the catalog's nations (a flag names one of them)."""
    if effect == "none":
        return
    if not isinstance(effect, dict) or effect.get("timing") not in TIMINGS or not isinstance(effect.get("steps"), list):
        _bad(card, f'an effect is "none" or {{"timing": one of {", ".join(TIMINGS)}, "steps": [...]}}')
    steps = effect["steps"]
    _steps(card, steps, nations)
    words = [s["do"] for s in steps]
    if ("copy_card" in words or effect["timing"] == "copy") and (words != ["copy_card"] or effect["timing"] != "copy"):
        _bad(card, 'copy_card is the only step of its card, with the timing "copy"')
    if effect["timing"] in COMBAT_TIMINGS and {"war", "peace"} & set(words):
        _bad(card, "war and peace are not played in a fight (a Man-o-War could leave the sea in its own fight)")
    if "reroll_dice" in words and (effect["timing"] not in COMBAT_TIMINGS or words[-1] != "reroll_dice"
                                   or words.count("reroll_dice") > 1):
        _bad(card, f"reroll_dice is the last step of a card with a combat timing ({', '.join(COMBAT_TIMINGS)})")


def _steps(card, steps, nations):
    for s in steps:
        if not isinstance(s, dict) or "do" not in s:
            _bad(card, 'every step is an object with "do"')
        word = s["do"]
        if word not in WORDS:
            _bad(card, f"unknown effect word {word!r} (known: {', '.join(WORDS)})")
        for arg, kind in WORDS[word].items():
            if not isinstance(s.get(arg), kind) or isinstance(s.get(arg), bool):
                _bad(card, f"{word} needs {arg} ({kind.__name__})")
        if word in ("place_flag", "remove_flag") and s["nation"] not in nations:
            _bad(card, f"{word}: no nation {s['nation']!r}")
        if word == "reroll_dice" and s["whose"] not in ("own", "foe", "any"):
            _bad(card, f"reroll_dice: whose is 'own', 'foe' or 'any', not {s['whose']!r}")
        if word in ("damage", "repair") and s["location"] not in LOCATIONS:
            _bad(card, f"{word}: no location {s['location']!r}")
        if word == "war":
            ns = s["nations"]
            if len(ns) != 2 or len(set(ns)) != 2 or any(n not in nations for n in ns):
                _bad(card, f"war: two different nations of {', '.join(nations)}, not {ns!r}")
            if sorted(s["zones"]) != sorted(ns) or any(not isinstance(z, str) for z in s["zones"].values()):
                _bad(card, "war: zones names the entry zone of each nation's Man-o-War")
            cap = s["captain"]
            if not isinstance(cap.get("name"), str) or not all(
                    isinstance(cap.get(k), int) and 1 <= cap[k] <= 5 for k in ("seamanship", "scouting", "leadership")):
                _bad(card, "war: the Man-o-Wars' captain needs a name, seamanship, scouting and leadership (1..5)")
            continue
        if word == "peace":
            continue
        if word in ("gain_gold", "lose_gold", "discard_cargo", "draw_cargo") and not 0 < s.get("amount", s.get("count", 1)) <= 50:
            _bad(card, f"{word}: a number from 1 to 50")
        if word == "skill_test":
            if s["skill"] not in SKILLS:
                _bad(card, f"skill_test: no skill {s['skill']!r}")
            _steps(card, s.get("then", []), nations)
            _steps(card, s.get("else", []), nations)
        who = s.get("who", "active")
        if not (who in ("active", "each", "current") or (who.startswith("wanted:") and who[7:] in nations)):
            _bad(card, f"{word}: who is 'active', 'each', 'current' or 'wanted:<nation>', not {who!r}")


# running an effect -----------------------------------------------------------------
def targets(state, who, active):
    players = [player(state, s) for s in state["order"]] if state["order"] else state["players"]
    alive = [p for p in players if p["captain"] is not None and p["ship"] is not None]
    if who == "active":
        return [p for p in alive if p["seat"] == active]
    if who == "each":
        return alive
    if who == "current":
        seat = state["order"][state["cur"]]
        return [p for p in alive if p["seat"] == seat]
    return [p for p in alive if p["flags"].get(who[7:])]


def run(step, steps, active, card, inherited=None):
    """Apply ``steps`` of ``card``; ``active`` is the seat ``"active"`` names."""
    state = step.state
    for s in steps:
        word = s["do"]
        if word in GLOBAL:
            from . import war
            if word == "war":
                war.declare(step, s, card)
            else:
                war.end(step, f"card {card}")
            continue
        who = s.get("who", inherited or "active")
        for p in targets(state, who, active):
            seat = p["seat"]
            why = f"card {card}"
            if word == "gain_gold":
                step.emit("GoldReceived", seat=seat, amount=bank_pays(state, s["amount"]), why=why)
            elif word == "lose_gold":
                step.emit("GoldLost", vis=[seat], seat=seat, amount=min(p["gold"], s["amount"]), why=why)
                step.emit("GoldLostByCard", seat=seat, card=card)
            elif word == "place_flag":
                gain_flag(step, seat, s["nation"], why)
            elif word == "remove_flag":
                lose_flag(step, seat, s["nation"], why)
            elif word == "damage":
                loc = s["location"] if p["ship"][s["location"]] > 0 else "hull"
                step.emit("ShipHit", seat=seat, location=loc, aimed=s["location"], why=why)
            elif word == "repair":
                if p["ship"][s["location"]] < ship_max(state, p["ship"], s["location"]):
                    step.emit("ShipRepairedByCard", seat=seat, location=s["location"], why=why)
            elif word == "draw_cargo":       # at sea only while the hold has room; in port any number
                n = s["count"] if p["in_port"] else min(s["count"], max(0, capacity(state, p) - len(p["cargo"])))
                for _ in range(n):
                    got = draw_cargo(step, seat, why)
                    if got is None:
                        break
                    step.emit("CargoGainedByCard", vis=[seat], seat=seat, card=got, why=why)
                    step.emit("CargoCountGained", seat=seat, why=why)
            elif word == "draw_glory":
                deal_glory(step, seat, why)
            elif word == "discard_cargo":
                for _ in range(min(s["count"], len(p["cargo"]))):
                    lost = step.pick(sorted(p["cargo"]), vis=[seat], why=f"{why}: a cargo card lost at random")
                    step.emit("CargoLost", seat=seat, card=lost, good=T(state)["good"][lost], why=why)
            elif word == "skill_test":
                ok = skill_test(step, seat, s["skill"], why)
                run(step, s.get("then" if ok else "else", []), seat, card, inherited="active")
        if word == "damage":
            _sunk_by_card(step, card)


def _sunk_by_card(step, card):
    """A hull lost to a card's damage: the ship sinks and the captain dies."""
    state = step.state
    for p in state["players"]:
        if p["ship"] is not None and p["captain"] is not None and p["ship"]["hull"] <= 0:
            die(step, p["seat"], f"the hull was destroyed (card {card})")

"""Card effects as data (the book: "Pescare una carta Evento", p. 7; "Giocare carte
Gloria", p. 12): the small vocabulary in which an event or glory card's printed text
is written in its catalog entry (``"effect"``), one table from each word to its
arguments and its function (``WORDS``).

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

from collections import namedtuple

from service.kernel import BadInput

from . import war
from .captains import dies
from .catalog import SKILLS
from .catalog import tables
from .mechanics import bank_pays, deal_glory, draw_cargo, skill_test
from .state import LOCATIONS, capacity, glory_window, player, ship_max
from .wanted import gain_flag, lose_flag

TYPE_CHECKING = False   # (the imports below are the type checker's: none at run time)
if TYPE_CHECKING:
    from collections.abc import Collection
    from service.kernel.events import Ev
    from service.kernel.machine import Step
    from typing import Any, NoReturn
    from .shapes import Location, Outcome, Player, State

TIMINGS = ("immediate", "each_turn", "end_of_turn", "naval_roll", "crew_roll", "turn_start", "copy")
COMBAT_TIMINGS = ("naval_roll", "crew_roll")
WHO = ("active", "each", "current")


class Word(namedtuple("Word", ("args", "run", "once", "aimed", "check", "after"), defaults=(False, True, None, None))):
    """One word of the vocabulary: its arguments (name -> type), what it does and what
    else it asks of its arguments when the catalog loads.

    ``run(step, s, p, card)``: once for each player ``who`` names (``p``: the player);
    a word that acts ``once`` (on the board, or in a glory window for the card's player)
    is ``run(step, s, active, card)`` (``active``: the seat ``"active"`` names);
    ``aimed``: the step may name ``who``. ``check(s, nations)``: the reason the step is
    refused, or None. ``after(step, card)``: once the word has acted on every player."""
    __slots__ = ()  # a namedtuple, not a dataclass: dataclasses imports inspect and typing (a replay's start)


# what each word does ---------------------------------------------------------------
def _gain_gold(step: Step, s: dict[str, Any], p: Player, card: str) -> None:
    step.emit("GoldReceived", {"seat": p["seat"], "amount": bank_pays(step.state, s["amount"]), "why": f"card {card}"})


def _lose_gold(step: Step, s: dict[str, Any], p: Player, card: str) -> None:
    seat = p["seat"]
    amount = min(p["gold"], s["amount"])
    if step.state.get("table_seen"):    # what the table sees first, then the amount for the seat: said once
        step.emit("GoldLostByCard", {"seat": seat, "card": card, "amount_secret": True})
        step.emit("GoldLost", {"seat": seat, "amount": amount, "why": f"card {card}", "card_said": True}, vis=[seat])
        return
    step.emit("GoldLost", {"seat": seat, "amount": amount, "why": f"card {card}"}, vis=[seat])
    step.emit("GoldLostByCard", {"seat": seat, "card": card})


def _place_flag(step: Step, s: dict[str, Any], p: Player, card: str) -> None:
    gain_flag(step, p["seat"], s["nation"], f"card {card}")


def _remove_flag(step: Step, s: dict[str, Any], p: Player, card: str) -> None:
    lose_flag(step, p["seat"], s["nation"], f"card {card}")


def _damage(step: Step, s: dict[str, Any], p: Player, card: str) -> None:
    aimed: Location = s["location"]
    loc = aimed if p["ship"][aimed] > 0 else "hull"
    step.emit("ShipHit", {"seat": p["seat"], "location": loc, "aimed": s["location"], "why": f"card {card}"})


def _sunk_by_card(step: Step, card: str) -> Outcome:
    """A hull lost to a card's damage: the ship sinks and the captain dies (``END_TURN``
    when it is the current player's)."""
    out = None
    for p in step.state["players"]:
        if p["ship"] is not None and p["captain"] is not None and p["ship"]["hull"] <= 0:
            out = dies(step, p["seat"], f"the hull was destroyed (card {card})") or out
    return out


def _repair(step: Step, s: dict[str, Any], p: Player, card: str) -> None:
    loc: Location = s["location"]
    if p["ship"][loc] < ship_max(step.state, p["ship"], loc):
        step.emit("ShipRepairedByCard", {"seat": p["seat"], "location": s["location"], "why": f"card {card}"})


def _draw_cargo(step: Step, s: dict[str, Any], p: Player, card: str) -> None:
    """At sea only while the hold has room; in port any number."""
    seat, why = p["seat"], f"card {card}"
    n = s["count"] if p["in_port"] else min(s["count"], max(0, capacity(step.state, p) - len(p["cargo"])))
    for _ in range(n):
        got = draw_cargo(step, seat, why)
        if got is None:
            break
        step.emit("CargoGainedByCard", {"seat": seat, "card": got, "why": why}, vis=[seat])
        step.emit("CargoCountGained", {"seat": seat, "why": why})


def _draw_glory(step: Step, s: dict[str, Any], p: Player, card: str) -> None:
    deal_glory(step, p["seat"], f"card {card}")


def _discard_cargo(step: Step, s: dict[str, Any], p: Player, card: str) -> None:
    seat, why = p["seat"], f"card {card}"
    for _ in range(min(s["count"], len(p["cargo"]))):
        lost = step.pick(sorted(p["cargo"]), vis=[seat], why=f"{why}: a cargo card lost at random")
        step.emit("CargoLost", {"seat": seat, "card": lost, "good": tables(step.state)["good"][lost], "why": why})


def _skill_test(step: Step, s: dict[str, Any], p: Player, card: str) -> Outcome:
    seat = p["seat"]
    ok = skill_test(step, seat, s["skill"], f"card {card}")
    return run(step, s.get("then" if ok else "else", []), seat, card, inherited="active")


def _war(step: Step, s: dict[str, Any], active: int, card: str) -> None:
    war.declare(step, s, card)


def _peace(step: Step, s: dict[str, Any], active: int, card: str) -> None:
    war.end(step, f"card {card}")


def _reroll_dice(step: Step, s: dict[str, Any], active: int, card: str) -> None:
    """In a fight's glory window (glory.py asks for the dice): the sides whose dice the
    card's player picks to roll again. Played outside a fight it does nothing."""
    state = step.state
    c = state.get("combat")
    if c is None or c.get("window") is None:
        return
    own, foe = active, (c["d"] if active == c["a"] else c["a"])
    step.emit("GloryRerollBegun", {"seat": active, "sides": {"own": [own], "foe": [foe], "any": [own, foe]}[s["whose"]]})


def _copy_card(step: Step, s: dict[str, Any], active: int, card: str) -> Outcome:
    """In a glory window: the steps of the glory card played last, as this card's.
    Played outside a window it does nothing."""
    state = step.state
    last = state.get("last_glory")
    if glory_window(state) is None or last is None:
        return None
    effect = tables(state)["glory"][last].get("effect", "none")
    return run(step, effect["steps"], active, card) if effect != "none" else None


# what each word asks of its arguments beyond their types ------------------------------
def _a_number(s: dict[str, Any], nations: Collection[str]) -> str | None:
    if not 0 < s.get("amount", s.get("count", 1)) <= 50:
        return f"{s['do']}: a number from 1 to 50"
    return None


def _a_nation(s: dict[str, Any], nations: Collection[str]) -> str | None:
    return f"{s['do']}: no nation {s['nation']!r}" if s["nation"] not in nations else None


def _a_location(s: dict[str, Any], nations: Collection[str]) -> str | None:
    return f"{s['do']}: no location {s['location']!r}" if s["location"] not in LOCATIONS else None


def _whose(s: dict[str, Any], nations: Collection[str]) -> str | None:
    if s["whose"] not in ("own", "foe", "any"):
        return f"reroll_dice: whose is 'own', 'foe' or 'any', not {s['whose']!r}"
    return None


def _a_test(s: dict[str, Any], nations: Collection[str]) -> str | None:
    if s["skill"] not in SKILLS:
        return f"skill_test: no skill {s['skill']!r}"
    return None


def _two_nations(s: dict[str, Any], nations: Collection[str]) -> str | None:
    ns = s["nations"]
    if len(ns) != 2 or len(set(ns)) != 2 or any(n not in nations for n in ns):
        return f"war: two different nations of {', '.join(nations)}, not {ns!r}"
    if sorted(s["zones"]) != sorted(ns) or any(not isinstance(z, str) for z in s["zones"].values()):
        return "war: zones names the entry zone of each nation's Man-o-War"
    cap = s["captain"]
    if not isinstance(cap.get("name"), str) or not all(
            isinstance(cap.get(k), int) and 1 <= cap[k] <= 5 for k in ("seamanship", "scouting", "leadership")):
        return "war: the Man-o-Wars' captain needs a name, seamanship, scouting and leadership (1..5)"
    return None


# the vocabulary: each word, its arguments and its function, in one table -------------
WORDS = {
    "gain_gold": Word({"amount": int}, _gain_gold, check=_a_number),
    "lose_gold": Word({"amount": int}, _lose_gold, check=_a_number),
    "place_flag": Word({"nation": str}, _place_flag, check=_a_nation),
    "remove_flag": Word({"nation": str}, _remove_flag, check=_a_nation),
    "damage": Word({"location": str}, _damage, check=_a_location, after=_sunk_by_card),
    "repair": Word({"location": str}, _repair, check=_a_location),
    "draw_glory": Word({}, _draw_glory),
    "discard_cargo": Word({"count": int}, _discard_cargo, check=_a_number),
    "skill_test": Word({"skill": str}, _skill_test, check=_a_test),
    "war": Word({"nations": list, "zones": dict, "captain": dict}, _war, once=True, aimed=False, check=_two_nations),
    "peace": Word({}, _peace, once=True, aimed=False),
    "draw_cargo": Word({"count": int}, _draw_cargo, check=_a_number),
    "reroll_dice": Word({"whose": str}, _reroll_dice, once=True, check=_whose),
    "copy_card": Word({}, _copy_card, once=True),
}


def _bad(card: str, msg: str) -> NoReturn:
    raise BadInput(f"merchants-and-marauders catalog: card {card!r}: {msg}")


def validate(card: str, effect: Any, nations: Collection[str]) -> None:
    """``nations``: the catalog's nations (a flag names one of them)."""
    if effect == "none":
        return
    if not isinstance(effect, dict) or effect.get("timing") not in TIMINGS or not isinstance(effect.get("steps"), list):
        _bad(card, f'an effect is "none" or {{"timing": one of {", ".join(TIMINGS)}, "steps": [...]}}')
    steps = effect["steps"]
    validate_steps(card, steps, nations)
    words = [s["do"] for s in steps]
    if ("copy_card" in words or effect["timing"] == "copy") and (words != ["copy_card"] or effect["timing"] != "copy"):
        _bad(card, 'copy_card is the only step of its card, with the timing "copy"')
    if effect["timing"] in COMBAT_TIMINGS and {"war", "peace"} & set(words):
        _bad(card, "war and peace are not played in a fight (a Man-o-War could leave the sea in its own fight)")
    if "reroll_dice" in words and (effect["timing"] not in COMBAT_TIMINGS or words[-1] != "reroll_dice"
                                   or words.count("reroll_dice") > 1):
        _bad(card, f"reroll_dice is the last step of a card with a combat timing ({', '.join(COMBAT_TIMINGS)})")


def validate_steps(card: str, steps: Any, nations: Collection[str]) -> None:
    """Every step names a word of ``WORDS`` with its arguments (a word the table does not
    hold has no function: it is refused here, when the catalog loads)."""
    for s in steps:
        if not isinstance(s, dict) or "do" not in s:
            _bad(card, 'every step is an object with "do"')
        name = s["do"]
        word = WORDS.get(name)
        if word is None:
            _bad(card, f"unknown effect word {name!r} (known: {', '.join(WORDS)})")
        for arg, kind in word.args.items():
            if not isinstance(s.get(arg), kind) or isinstance(s.get(arg), bool):
                _bad(card, f"{name} needs {arg} ({kind.__name__})")
        wrong = word.check(s, nations) if word.check is not None else None
        if wrong:
            _bad(card, wrong)
        if not word.aimed:
            continue                        # war and peace: no ``who``
        if name == "skill_test":
            validate_steps(card, s.get("then", []), nations)
            validate_steps(card, s.get("else", []), nations)
        who = s.get("who", "active")
        if not (who in WHO or (who.startswith("wanted:") and who[7:] in nations)):
            _bad(card, f"{name}: who is 'active', 'each', 'current' or 'wanted:<nation>', not {who!r}")


# running an effect -----------------------------------------------------------------
def targets(state: State, who: str, active: int) -> list[Player]:
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


def run(step: Step, steps: list[dict[str, Any]], active: int, card: str, inherited: str | None = None) -> Outcome:
    """Apply ``steps`` of ``card``; ``active`` is the seat ``"active"`` names. Every step
    runs; ``END_TURN`` when the current player's captain died of it (the flow ends his
    turn once the card is done), else None."""
    out = None
    for s in steps:
        word = WORDS[s["do"]]
        if word.once:
            out = word.run(step, s, active, card) or out
            continue
        for p in targets(step.state, s.get("who", inherited or "active"), active):
            out = word.run(step, s, p, card) or out
        if word.after is not None:
            out = word.after(step, card) or out
    return out


# the events ---------------------------------------------------------------------------

def _cargo_gained_by_card(state: State, d: dict[str, Any], ev: Ev) -> None:
    player(state, d["seat"])["cargo"].append(d["card"])


def _repaired_by_card(state: State, d: dict[str, Any], ev: Ev) -> None:
    loc: Location = d["location"]
    player(state, d["seat"])["ship"][loc] += 1


APPLY = {"CargoGainedByCard": _cargo_gained_by_card, "ShipRepairedByCard": _repaired_by_card}

"""Captains' special abilities as data: the small vocabulary in which a captain
card's ability is written in its catalog entry (``"abilities"``, a list).

The book: "the special ability is a unique ability the captain has; captains with
more than one special ability have lower values in the other skills". Three are
known (the rulebook's Felipe, the reference's Pepijn van Avezaath and Alexandre
Villon); the others' texts are not, so the default catalog gives each of them a
provisional ability in this vocabulary and says so in its note. An organiser
loads the printed captains with ``--catalog``; an unknown word is refused at load,
naming the captain and the word.

An ability is a word, or an object with ``"ability"`` (the word) and its
arguments; ``WORDS`` holds each word once, with its arguments, their checks and what it
adds to a card's summary (the book: "I capitani", Panoramica p. 3; "Specialisti", p. 12):

==================  ===============================================================
``reallocate_hit``  once a battle, after the hit locations on his ship are known,
                    move one of those hits to another location (Felipe; combat.py)
``extra_cargo``     one cargo card more than the ship's Cargo (Pepijn; state.py)
``enter_any_port``  enter any port, wanted or not; a port action where he is
                    wanted needs an Influence test (Villon; wanted.py, port.py)
``extra_die``       ``skill``: one die more whenever that skill is rolled (tests,
                    raids, combat)
``discount``        ``on`` (``repair``, ``upgrade``, ``weapon``, ``recruit``) and
                    ``amount``: that shipyard or tavern price is lower, never below 1
==================  ===============================================================

A hired **specialist** (a glory card played face up) carries its abilities in the
same vocabulary (``"abilities"`` on the glory card) and its player has them while
it is hired. What a specialist needs to be hired is ``hire_cost`` (gold) and
``requires``, a list of: ``in_port`` (hired in a port), ``at_home`` (in the
captain's home port), ``not_wanted`` (no wanted flag).
"""

from __future__ import annotations

from collections import namedtuple

from service.kernel import BadInput

from .catalog import SKILLS
from .catalog import tables

TYPE_CHECKING = False   # (the imports below are the type checker's: none at run time)
if TYPE_CHECKING:
    from typing import Any, NoReturn
    from .shapes import Player, Side, State, Summary

DISCOUNTS = ("repair", "upgrade", "weapon", "recruit")
REQUIREMENTS = ("in_port", "at_home", "not_wanted")


class Ability(namedtuple("Ability", ("args", "check", "adds"), defaults=(None, None))):
    """One word of the vocabulary: its arguments (name -> type); ``check(a)``: the reason
    its arguments are refused, or None; ``adds(a, summary)``: what it adds to a card's
    summary (the words alone are asked with ``has``: see the table above for where)."""
    __slots__ = ()  # a namedtuple, not a dataclass: dataclasses imports inspect and typing (a replay's start)


def _a_skill(a: dict[str, Any]) -> str | None:
    return f"extra_die: no skill {a['skill']!r}" if a["skill"] not in SKILLS else None


def _one_more_die(a: dict[str, Any], summary: Summary) -> None:
    summary["extra_die"][a["skill"]] = summary["extra_die"].get(a["skill"], 0) + 1


def _a_discount(a: dict[str, Any]) -> str | None:
    if a["on"] not in DISCOUNTS or not 1 <= a["amount"] <= 5:
        return f"discount: on one of {', '.join(DISCOUNTS)}, an amount from 1 to 5"
    return None


def _cheaper(a: dict[str, Any], summary: Summary) -> None:
    summary["discount"][a["on"]] = summary["discount"].get(a["on"], 0) + a["amount"]


# the vocabulary: each word, its arguments, its checks and what it adds, in one table
WORDS = {
    "reallocate_hit": Ability({}),
    "extra_cargo": Ability({}),
    "enter_any_port": Ability({}),
    "extra_die": Ability({"skill": str}, check=_a_skill, adds=_one_more_die),
    "discount": Ability({"on": str, "amount": int}, check=_a_discount, adds=_cheaper),
}


def validate(captain: str, abilities: Any, what: str = "captain") -> None:
    def bad(msg: str) -> NoReturn:
        raise BadInput(f"merchants-and-marauders catalog: {what} {captain!r}: {msg}")
    if not isinstance(abilities, list):
        bad("abilities is a list")
    for a in abilities:
        word = a if isinstance(a, str) else a.get("ability") if isinstance(a, dict) else None
        if not isinstance(word, str) or word not in WORDS:
            bad(f"unknown ability {word!r} (known: {', '.join(WORDS)})")
        for arg, kind in WORDS[word].args.items():
            if not isinstance(a, dict) or not isinstance(a.get(arg), kind) or isinstance(a.get(arg), bool):
                bad(f"{word} needs {arg} ({kind.__name__})")
        wrong = WORDS[word].check(a) if WORDS[word].check is not None else None
        if wrong:
            bad(wrong)


def validate_requirements(card: str, requires: Any) -> None:
    if not isinstance(requires, list) or any(r not in REQUIREMENTS for r in requires):
        raise BadInput(f"merchants-and-marauders catalog: card {card!r}: requires lists some of "
                       f"{', '.join(REQUIREMENTS)}, not {requires!r}")


def summary(abilities: list[Any]) -> Summary:
    """A card's abilities as lookups: the words it has, its extra dice by skill and its
    discounts by price."""
    words: set[str] = set()
    out: Summary = {"words": frozenset(), "extra_die": {}, "discount": {}}
    for a in abilities:
        word = a if isinstance(a, str) else a["ability"]
        words.add(word)
        if WORDS[word].adds is not None:
            WORDS[word].adds(a, out)
    out["words"] = frozenset(words)
    return out


_SUMMARIES: dict[str, dict[str, dict[str, Summary]]] = {}      # by catalog tables' key (``state["cat"]``)


def summaries(state: State) -> dict[str, dict[str, Summary]]:
    """Every captain's and specialist's summary, derived once per catalog."""
    try:
        return _SUMMARIES[state["cat"]]
    except KeyError:
        S = tables(state)
        return _SUMMARIES.setdefault(state["cat"], {
            "captains": {c: summary(x["abilities"]) for c, x in S["captains"].items()},
            "glory": {g: summary(x.get("abilities") or []) for g, x in S["glory"].items()}})


def _summaries(state: State, p: Side) -> tuple[Summary, ...]:
    """What the captain's abilities and those of his hired specialists add up to, card
    by card (``summaries``); none for an NPC or a player without a captain."""
    if p.get("npc") or p["captain"] is None:
        return ()
    A = summaries(state)
    own = A["captains"][p["captain"]]
    if not p["specialists"]:
        return (own,)
    return (own, *[A["glory"][c] for c in p["specialists"]])


def may_hire(state: State, p: Player, g: dict[str, Any]) -> bool:
    """The specialist's requirements are met (its cost is checked with the gold)."""
    for r in g.get("requires", []):
        if r == "in_port" and not p["in_port"]:
            return False
        if r == "at_home" and not (p["in_port"] and p["zone"] == tables(state)["captains"][p["captain"]]["home"]):
            return False
        if r == "not_wanted" and any(p["flags"].values()):
            return False
    return True


def has(state: State, p: Side, word: str) -> bool:
    for a in _summaries(state, p):
        if word in a["words"]:
            return True
    return False


def dice(state: State, p: Side, skill: str) -> int:
    """How many dice the captain rolls for ``skill``: the skill, and any extra die."""
    if "npc" in p:
        return p["npc_captain"][skill]
    n = tables(state)["captains"][p["captain"]][skill]
    for a in _summaries(state, p):
        n += a["extra_die"].get(skill, 0)
    return n


def price(state: State, p: Player, on: str, base: int) -> int:
    """A price after the captain's discounts on ``on``."""
    off = 0
    for a in _summaries(state, p):
        off += a["discount"].get(on, 0)
    return max(1, base - off) if off else base

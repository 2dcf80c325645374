"""Loot's decisions in words, as players say them at the table: "attack
merchant 5 with purple 3", "defend merchant 6 with your admiral". Cards by
what is printed on them (a merchant's gold, a pirate's colour and skulls);
the letter that tells copies apart is the rules' own and never said."""

from __future__ import annotations

from collections import Counter

TYPE_CHECKING = False  # mypy takes the name as true; typing is not imported at run time
if TYPE_CHECKING:
    from typing import Any


def card(c: str) -> str:
    """``purple-3a`` -> ``purple 3``; ``merchant-5a`` -> ``merchant 5``;
    ``purple-captain`` -> ``the purple captain``; ``admiral`` -> ``the admiral``."""
    c = str(c)
    if c == "admiral":
        return "the admiral"
    head, _, tail = c.rpartition("-")
    if tail == "captain":
        return f"the {head} captain"
    if not head:
        return c
    return f"{head} {tail.rstrip('abcdefghijklmnopqrstuvwxyz')}"


def say_decision(config: dict, decision: dict) -> str:
    d = decision
    action = d.get("action")
    if action == "draw":
        return "draw a card"
    if action == "merchant":
        return f"put {card(d['card'])} to sea"
    if action == "pirate":
        return f"attack {card(d['merchant'])} with {card(d['card'])}"
    if action == "captain":
        return f"attack {card(d['merchant'])} with {card(d['card'])}"
    if action == "admiral":
        return f"defend {card(d['merchant'])} with your admiral"
    if action == "discard":
        return f"discard {card(d['card'])}"
    rest = " ".join(f"{k} {card(v) if isinstance(v, str) else v}" for k, v in d.items() if k != "action")
    return f"{action or ''} {rest}".strip()


def say_choices(state: Any, config: dict, decisions: list[dict]) -> list[str]:
    """``say_decision`` for each, and where two read alike (attacks on two merchants of one
    value at sea) the merchant named by whose it is, then by its place at sea: "attack
    Ada's merchant 5 with blue 3", "... (the second of Ada's at sea)"."""
    said = [say_decision(config, d) for d in decisions]
    twice = {text for text, n in Counter(said).items() if n > 1}
    if not twice:
        return said
    sea = state["sea"]
    players = config.get("players") or {}
    owners = {b["merchant"]: b["owner"] for b in sea}
    for i, d in enumerate(decisions):
        if said[i] in twice and d.get("merchant") in owners:
            owner = owners[d["merchant"]]
            whose = players.get(str(owner)) or f"seat {owner}"
            same = [b["merchant"] for b in sea if b["owner"] == owner and card(b["merchant"]) == card(d["merchant"])]
            place = "" if len(same) < 2 else f" (the {_ORDINAL[min(same.index(d['merchant']), 4)]} of them at sea)"
            said[i] = said[i].replace(card(d["merchant"]), f"{whose}'s {card(d['merchant'])}{place}", 1)
    return said


_ORDINAL = ("first", "second", "third", "fourth", "later")

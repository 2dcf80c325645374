"""Loot's decisions in words, as players say them at the table: "attack
merchant 5 with purple 3", "defend merchant 6 with your admiral". Cards by
what is printed on them (a merchant's gold, a pirate's colour and skulls);
the letter that tells copies apart is the rules' own and never said."""

from __future__ import annotations


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

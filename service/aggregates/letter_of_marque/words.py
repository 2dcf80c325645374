"""Letter of Marque's decisions in words: "place an armed ship", "launch a
ship", "bring red ship 2 home", "attack blue ship 1 with a cannon card".
A ship at sea is named by its colour and the order it was launched in
(``red-2``: red's second ship)."""

from __future__ import annotations


def ship(s: str) -> str:
    """``red-2`` -> ``red ship 2``."""
    colour, _, n = str(s).rpartition("-")
    return f"{colour} ship {n}" if colour and n.isdigit() else str(s)


def say_decision(config: dict, decision: dict) -> str:
    d = decision
    action = d.get("action")
    if action == "place":
        return f"place an {'armed' if d.get('armed') else 'unarmed'} ship on the treasure"
    if action == "launch":
        return "launch a ship: draw your next treasure"
    if action == "return":
        return f"bring {ship(d['ship'])} home"
    if action == "attack":
        return f"attack {ship(d['ship'])} with a cannon card"
    if action == "pass":
        return "pass"
    rest = " ".join(f"{k} {v}" for k, v in d.items() if k != "action")
    return f"{action or ''} {rest}".strip()


def deck_said(deck: str) -> str:
    """A colour's treasure deck (``treasure:blue``) as the table calls it: "the blue treasure deck"."""
    kind, _, colour = deck.partition(":")
    return f"the {colour} {kind} deck" if colour else f"the {deck} deck"

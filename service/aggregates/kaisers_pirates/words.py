"""The Kaiser's Pirates' decisions in words, with ships, merchants and action
cards by their printed names: "commit Fog Bank to intercept with Dresden",
"intercept Staut with Prinz Eitel Friedrich", "torpedo La Correntina with UC 29",
"react with Reflag on Karlsruhe". Reads only the catalog the game travels with."""

from __future__ import annotations

import re
from functools import lru_cache

from .catalog import index, load, solitaire_deck

TYPE_CHECKING = False  # mypy takes the name as true; typing is not imported at run time
if TYPE_CHECKING:
    from typing import Any

    from collections.abc import Callable


def _names(config: dict[str, Any]) -> dict[str, str]:
    """Card, ship and merchant ids -> printed names (the catalog's index, cached by digest)."""
    ix = index(config["catalog"], config.get("catalog_digest") or "default")
    names = ix.printed
    if names is None:
        names = dict(ix.card_name)
        names.update({s: v["name"] for s, v in ix.ships.items()})
        names.update({m: v["name"] for m, v in ix.merchants.items()})
        ix.printed = names
    return names


def say_decision(config: dict[str, Any], decision: dict[str, Any]) -> str:
    names = _names(config)

    def n(x: object) -> str:
        if isinstance(x, list):
            return _listed([n(v) for v in x])
        return names.get(x, str(x).replace("-", " ").replace("_", " ")) if isinstance(x, str) else str(x)

    d = decision
    a = d.get("action")
    card = n(d["card"]) if "card" in d else ""
    if d.get("referee") == "penalty":       # the referee's (penalty.py)
        return f"discard seat {d.get('seat')}'s {card}: a card committed or played irregularly (3.1.5)"
    say = _SAY.get(a) if isinstance(a, str) else None
    if say is not None:
        return say(d, n, card, config)
    rest = " ".join(f"{k.replace('_', ' ')} {n(v)}" for k, v in d.items() if k != "action")
    return f"{str(a or '').replace('_', ' ')} {rest}".strip()


# each decision in words, by its action: ``say(d, n, card, config)``, where ``n`` gives an id
# (or a list of ids) as the game's catalog prints it and ``card`` is the decision's card so given
def _say_commit(d: dict[str, Any], n: Callable[[object], str], card: str, config: dict[str, Any]) -> str:
    if d.get("use") == "intercept":
        return f"commit {card} for a British intercept" if d.get("ship") is None else \
            f"commit {card} to intercept with {n(d['ship'])}"
    return f"commit {card} for its action" + (f" with {n(d['ship'])}" if d.get("ship") else "")


def _say_intercept(d: dict[str, Any], n: Callable[[object], str], card: str, config: dict[str, Any]) -> str:
    if d.get("ship"):
        return f"intercept {n(d['target'])} with {n(d['ship'])} ({card})"
    return f"intercept {n(d['target'])} with {card}"


def _say_play(d: dict[str, Any], n: Callable[[object], str], card: str, config: dict[str, Any]) -> str:
    if "opponent" in d:
        return f"play {card} against seat {d['opponent']}"
    for key in ("target", "ship"):
        if d.get(key):
            return f"play {card} on {n(d[key])}"
    if d.get("deck"):
        return f"play {card} on the deck"
    return f"play {card}"


def _say_react(d: dict[str, Any], n: Callable[[object], str], card: str, config: dict[str, Any]) -> str:
    if d.get("give"):
        return f"react with {card}, giving {n(d['give'])}"
    if d.get("ship"):
        return f"react with {card} on {n(d['ship'])}"
    return f"react with {card}"


def _say_discard(d: dict[str, Any], n: Callable[[object], str], card: str, config: dict[str, Any]) -> str:
    """Face up (3.1.7); in the solitaire game the pile stays face down (5.3.1)."""
    face = "face down" if (config.get("options") or {}).get("solitaire") else "face up"
    return f"put {card} {face} on the discard pile"


def _say_keep(d: dict[str, Any], n: Callable[[object], str], card: str, config: dict[str, Any]) -> str:
    if "ships" in d:
        return f"keep {n(d['ships'])}" if d["ships"] else "keep no ship"
    return f"keep {n(d['ship'])}" if d.get("ship") else "keep no ship"


_SAY: dict[str, Callable[[dict[str, Any], Callable[[object], str], str, dict[str, Any]], str]] = {
    # the active player's turn
    "commit": _say_commit,
    "done": lambda d, n, card, config: "done committing cards",
    "intercept": _say_intercept,
    "lay_mines": lambda d, n, card, config: f"lay mines with {n(d['ship'])} against seat {d['opponent']} ({card})",
    "torpedo": lambda d, n, card, config: f"torpedo {n(d['target'])} with {card}",
    "sub_mines": lambda d, n, card, config: f"lay mines with {card} against seat {d['opponent']}",
    "interrogate": lambda d, n, card, config: f"play {card} on {n(d['target'])}",
    "monitor": lambda d, n, card, config: f"play {card} on {n(d['target'])}",
    "play": _say_play,
    "refuge": lambda d, n, card, config: f"try to {d.get('try')} {n(d['ship'])} in its island refuge",
    "leave_refuge": lambda d, n, card, config:
        f"leave the island refuge with {n(d['ship'])}" + (f" to seat {d['to']}" if d.get("to") else ""),
    "resupply": lambda d, n, card, config: f"resupply {n(d['ship'])} from the prize {n(d['prize'])}",
    "end_turn": lambda d, n, card, config: "end your turn",
    # the windows
    "assist": lambda d, n, card, config: f"assist with {card}" + (f" on {n(d['target'])}" if d.get("target") else ""),
    "proceed": lambda d, n, card, config: "proceed without an assist",
    "react": _say_react,
    "decline": lambda d, n, card, config: "decline to react",
    "mine_target": lambda d, n, card, config: f"mine {n(d['target'])}",
    "stack": lambda d, n, card, config: f"put the cards back in this order, top first: {n(d['order'])}",
    "passage": lambda d, n, card, config: "attempt passage" if d.get("attempt") else "do not attempt passage",
    "pursue": lambda d, n, card, config: "pursue" if d.get("pursue") else "break off the pursuit",
    "discard": _say_discard,
    "keep": _say_keep,
    # the team game
    "give": lambda d, n, card, config: f"give {card} to your partner",
    "give_done": lambda d, n, card, config: "done giving cards",
    "transfer": lambda d, n, card, config:
        f"transfer {n(d['ships'])} to your partner" if d.get("ships") else "transfer no ship",
}


def _listed(items: list[str]) -> str:
    if not items:
        return "nothing"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


# --- the log's words (``view.describe``): an event carries ids, and free text built from
# them ("kronprinz-wilhelm intercepts trabboch"); a person reads the printed names. The
# event alone says nothing of the game's catalog: the names are the packaged catalog's
# (an organiser's catalog keeps the ids; a name it changes reads as the packaged one).

_ID = re.compile(r"(?<![\w:-])(?:solo:)?[a-z0-9]+(?:-[a-z0-9]+)*(?![\w-])")


@lru_cache(maxsize=1)
def _default_names() -> dict[str, str]:
    cat = load()
    ix = index(cat, "default")
    names = dict(ix.card_name)
    names.update({s: v["name"] for s, v in ix.ships.items()})
    names.update({m: v["name"] for m, v in ix.merchants.items()})
    try:
        solo = solitaire_deck()
    except Exception:       # noqa: BLE001 (no deck file: its cards read by their number)
        solo = {"cards": []}
    names.update({c["id"]: c["name"] for c in solo.get("cards", [])})
    for t, c in ix.types.items():       # the phantom's pseudo-cards (section 5): its own action
        names["solo:" + t] = "the phantom's " + ("U-boat" if t.startswith("submarines") else c["name"])
    return names


@lru_cache(maxsize=1)
def _type_names() -> dict[str, str]:
    """A card type (``ctype``, the phantom's ``specials``) -> its printed name."""
    return {t: c["name"] for t, c in index(load(), "default").types.items()}


def printed(x: object) -> str:
    """A ship, merchant or card id (or a list of them) as printed: ``kronprinz-wilhelm`` ->
    ``Kronprinz Wilhelm``; ``solo:amc`` -> ``the phantom's AMC``; an unknown id in words."""
    if isinstance(x, list | tuple):
        return _listed([printed(v) for v in x])
    if not isinstance(x, str):
        return str(x)
    name = _default_names().get(x) or _type_names().get(x)
    if name is not None:
        return name
    if x.startswith("solo:"):
        return "the phantom's " + x[5:].replace("-", " ").title()
    return x.replace("_", " ").replace("-", " ")


def in_words(text: str) -> str:
    """Free text an event carries (its ``why``, ``what``), every id in it printed:
    ``British forces (AMC (solitaire)) intercept maria`` -> ``the phantom's British forces
    intercept Maria``."""
    names = _default_names()
    text = re.sub(r"British forces \(([^()]*) \(solitaire\)\)", "the phantom's British forces", text)
    text = re.sub(r"Submarines [^()]* \(solitaire\)", "the phantom's U-boat", text)
    text = re.sub(r"([A-Z][^()]*?) \(solitaire\)", r"the phantom's \1", text)
    return _ID.sub(lambda m: names.get(m.group(0), m.group(0)) if m.group(0) in names or
                   m.group(0).startswith("solo:") else m.group(0), text).replace("_", " ")


_FORCE = re.compile(r"^(ship|merchant)s:force-(\d+)$")
_HAND = re.compile(r"^(?:action:hand-|hand-of-)(\d+)$")


def deck_said(deck: str) -> str:
    """A pile chance draws from, as the book calls it: "seat 2's ship deck", "the action
    deck", "seat 1's hand", "the solitaire deck" (never ``ships:force-2``)."""
    force = _FORCE.match(deck)
    if force:
        return f"seat {force.group(2)}'s {force.group(1)} deck"
    if deck.startswith("hand-of-"):
        return f"seat {deck[len('hand-of-'):]}'s hand"
    if deck.startswith("action:") or deck == "action":
        hand = _HAND.match(deck)
        return "the action deck" + (f" (a card for seat {hand.group(1)})" if hand else "")
    return "the " + deck.replace("_", " ").replace(":", " ").replace("-", " ") + " deck"

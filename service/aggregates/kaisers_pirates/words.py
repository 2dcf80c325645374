"""The Kaiser's Pirates' decisions in words, with ships, merchants and action
cards by their printed names: "commit Fog Bank to intercept with Dresden",
"intercept Staut with Prinz Eitel Friedrich", "torpedo La Correntina with UC 29",
"react with Reflag on Karlsruhe". Reads only the catalog the game travels with."""

from __future__ import annotations

from .catalog import index


def _names(config: dict) -> dict:
    """Card, ship and merchant ids -> printed names (the catalog's index, cached by digest)."""
    ix = index(config["catalog"], config.get("catalog_digest") or "default")
    names = getattr(ix, "printed", None)
    if names is None:
        names = dict(ix.card_name)
        names.update({s: v["name"] for s, v in ix.ships.items()})
        names.update({m: v["name"] for m, v in ix.merchants.items()})
        ix.printed = names
    return names


def say_decision(config: dict, decision: dict) -> str:
    names = _names(config)

    def n(x) -> str:
        if isinstance(x, list):
            return _listed([n(v) for v in x])
        return names.get(x, str(x).replace("-", " ").replace("_", " ")) if isinstance(x, str) else str(x)

    d = decision
    a = d.get("action")
    card = n(d["card"]) if "card" in d else ""
    if a == "commit":
        if d.get("use") == "intercept":
            return f"commit {card} for a British intercept" if d.get("ship") is None else \
                f"commit {card} to intercept with {n(d['ship'])}"
        return f"commit {card} for its action" + (f" with {n(d['ship'])}" if d.get("ship") else "")
    if a == "done":
        return "done committing cards"
    if a == "intercept":
        if d.get("ship"):
            return f"intercept {n(d['target'])} with {n(d['ship'])} ({card})"
        return f"intercept {n(d['target'])} with {card}"
    if a == "lay_mines":
        return f"lay mines with {n(d['ship'])} against seat {d['opponent']} ({card})"
    if a == "torpedo":
        return f"torpedo {n(d['target'])} with {card}"
    if a == "sub_mines":
        return f"lay mines with {card} against seat {d['opponent']}"
    if a in ("interrogate", "monitor"):
        return f"play {card} on {n(d['target'])}"
    if a == "play":
        if "opponent" in d:
            return f"play {card} against seat {d['opponent']}"
        for key in ("target", "ship"):
            if d.get(key):
                return f"play {card} on {n(d[key])}"
        if d.get("deck"):
            return f"play {card} on the deck"
        return f"play {card}"
    if a == "refuge":
        return f"try to {d.get('try')} {n(d['ship'])} in its island refuge"
    if a == "leave_refuge":
        return f"leave the island refuge with {n(d['ship'])}" + (f" to seat {d['to']}" if d.get("to") else "")
    if a == "end_turn":
        return "end your turn"
    if a == "assist":
        return f"assist with {card}" + (f" on {n(d['target'])}" if d.get("target") else "")
    if a == "proceed":
        return "proceed without an assist"
    if a == "react":
        if d.get("give"):
            return f"react with {card}, giving {n(d['give'])}"
        if d.get("ship"):
            return f"react with {card} on {n(d['ship'])}"
        return f"react with {card}"
    if a == "decline":
        return "decline to react"
    if a == "mine_target":
        return f"mine {n(d['target'])}"
    if a == "stack":
        return f"put the cards back in this order, top first: {n(d['order'])}"
    if a == "passage":
        return "attempt passage" if d.get("attempt") else "do not attempt passage"
    if a == "discard":
        return f"put {card} face up on the discard pile"
    if a == "keep":
        if "ships" in d:
            return f"keep {n(d['ships'])}" if d["ships"] else "keep no ship"
        return f"keep {n(d['ship'])}" if d.get("ship") else "keep no ship"
    if a == "pursue":
        return "pursue" if d.get("pursue") else "break off the pursuit"
    if a == "resupply":
        return f"resupply {n(d['ship'])} from the prize {n(d['prize'])}"
    if a == "give":
        return f"give {card} to your partner"
    if a == "give_done":
        return "done giving cards"
    if a == "transfer":
        return f"transfer {n(d['ships'])} to your partner" if d.get("ships") else "transfer no ship"
    rest = " ".join(f"{k.replace('_', ' ')} {n(v)}" for k, v in d.items() if k != "action")
    return f"{str(a or '').replace('_', ' ')} {rest}".strip()


def _listed(items: list) -> str:
    if not items:
        return "nothing"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]

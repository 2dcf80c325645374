"""Loot: the merchants at sea with the pirates on them, each player's hand and haul."""

from __future__ import annotations

from .table import Table

from .common import who


def side(view: dict, n: int, names: dict) -> str:
    """A side of a battle as players say it: a seat, or in the pairs game a team of two seats."""
    if view.get("pairs"):
        return f"team {n} ({who(str(2 * n - 1), names)} and {who(str(2 * n), names)})"
    return who(str(n), names)


def card(c: str) -> str:
    """``blue-3a`` -> ``blue 3``; ``merchant-5a`` -> ``merchant 5``; captains and the Admiral by name."""
    if c == "admiral":
        return "Admiral"
    if c.endswith("-captain"):
        return f"{c.split('-')[0]} captain"
    head, _, n = c.rpartition("-")
    return f"{head} {n.rstrip('abcdefghij')}"


def render(view: dict, config: dict, names: dict[str, str], seat: int | None) -> list[str | Table]:
    sea = Table("merchant", "owner", "attacks", "lead", title="At sea")
    sea.columns[0].no_wrap = True
    for b in view["sea"]:
        attacks = "; ".join(f"{a['colour']} {a['skulls']} ({side(view, a['side'], names)})"
                            for a in b["attacks"]) or "-"
        if b.get("captains_and_admiral"):
            attacks += "; " + ", ".join(card(c) if isinstance(c, str) else card(c.get("card", "?"))
                                        for c in b["captains_and_admiral"])
        lead = b.get("status") or "-"
        if b.get("leading") is not None:
            lead = side(view, b["leading"], names)
        sea.add_row(f"{b['gold']} gold", who(b["owner"], names), attacks, lead)
    players = Table("player", "hand", "captured", title="Players")
    players.columns[0].no_wrap = True
    for s, p in view["players"].items():
        hand = p["hand"]
        shown = ", ".join(card(c) for c in hand) if isinstance(hand, list) else f"{p['hand_count']} card{'s' if p['hand_count'] != 1 else ''}"
        if isinstance(hand, list) and not hand:
            shown = "empty"
        team = f" (team {p['side']}{checks(view, s)})" if view.get("pairs") else ""
        players.add_row(who(s, names) + team, shown, f"{p['captured_gold']} gold ({len(p['captured'])} merchants)")
    info = f"Draw pile: {view['draw_pile']} cards. Discard pile: {len(view['discard_pile'])} cards."
    if view.get("pairs") and view.get("capture_checkers"):
        info += (" Captures are checked only by " + " and ".join(who(str(c), names) for c in view["capture_checkers"])
                 + ", the first player of each team, at the start of their turns.")
    return [sea if view["sea"] else "At sea: no merchant.", players, info]


def checks(view: dict, seat: str) -> str:
    """``", checks captures"`` for a seat that checks captures in the pairs game (the first
    player of its team: RULINGS.md, "Pairs")."""
    return ", checks captures" if int(seat) in (view.get("capture_checkers") or []) else ""

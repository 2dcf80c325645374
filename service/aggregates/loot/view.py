"""What each seat may see of a Loot table, and readable log lines.

Hidden: the cards in a hand (seen by its holder and, in the pairs game, by the
holder's partner) and the draw pile. Everything else was played face up: the
merchants at sea and the attacks on them, the discard pile, and the captured
merchants (their pile is face down, but every one of them was seen in play and
named in a public ``MerchantCaptured`` event, so the view shows them).
"""

from __future__ import annotations

from .cards import gold
from .words import card
from .state import leader, partner, side_of

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

    from service.kernel.events import Ev

    from .state import State


def _sees_hand(state: State, viewer: int | None, seat: int) -> bool:
    return viewer is None or viewer == seat or partner(state, viewer) == seat


def view(state: State, seat: int | None) -> dict[str, Any]:
    sea = []
    for b in state["sea"]:
        sea.append({
            "merchant": b["merchant"], "gold": b["gold"], "owner": b["owner"],
            "attacks": [{"colour": a["colour"], "side": a["side"], "skulls": a["skulls"],
                         "cards": list(a["cards"])} for a in b["attacks"]],
            "captains_and_admiral": list(b["specials"]),
            "leading": leader(b),
            "status": ("unattacked" if not b["attacks"] and b["top"] is None
                       else "tied" if leader(b) is None else "led"),
        })
    players = {}
    for s in range(1, state["seats"] + 1):
        hand = state["hands"][s - 1]
        caught = state["captured"][s - 1]
        players[str(s)] = {
            "side": side_of(state, s),
            "partner": partner(state, s),
            "hand": sorted(hand) if _sees_hand(state, seat, s) else None,
            "hand_count": len(hand),
            "captured": sorted(caught),
            "captured_gold": sum(gold(c) for c in caught),
        }
    out = {
        "turn": state["turn"], "phase": state["phase"], "current": state["current"],
        "dealer": state["dealer"], "first": state["first"], "pairs": state["pairs"],
        "capture_checkers": list(state["checkers"]),
        "draw_pile": len(state["pile"]), "discard_pile": list(state["discard"]),
        "sea": sea, "players": players,
    }
    if seat is None:
        out["draw_pile_cards"] = sorted(state["pile"])
    if state["ended"]:
        out["ended"] = state["ended"]
    return out


_HOW = {"unattacked": "nobody attacked it: it comes home to its owner",
        "most skulls": "the most skulls on it"}


def _how(how: str) -> str:
    """Why a merchant is captured (MerchantCaptured's ``how``), as the rules say it."""
    if how.startswith("with "):
        c = how[5:]
        return "the Admiral defends it" if c == "admiral" else f"{card(c)} takes it"
    return _HOW.get(how, how)


def _cards(cards: Iterable[str]) -> str:
    return ", ".join(card(c) for c in cards) or "nothing"


def describe(ev: Ev) -> str:
    """One line of the log: cards as printed (a merchant's gold, a pirate's colour and skulls)."""
    d = ev.data
    t = ev.type
    if t == "DealerChosen":
        text = f"seat {d['dealer']} deals; seat {d['first']} plays first"
        if d.get("teams"):  # the pairs game: who checks captures is the book's "primo giocatore in ogni squadra"
            teams = "; ".join(f"team {i} is seats {a} and {b}" for i, (a, b) in enumerate(d["teams"], 1))
            text += f"; {teams}; captures are checked only by {_seats(d['checkers'])}, at the start of their turns"
        return text
    if t == "CardTaken":
        return f"seat {d['seat']} takes a card from the draw pile"
    if t == "TurnStarted":
        return f"turn {ev.turn}: seat {d['seat']} to play"
    if t == "MerchantPlayed":
        return f"seat {d['seat']} puts {card(d['card'])} ({d['gold']} gold) to sea"
    if t == "PiratePlayed":
        return (f"seat {d['seat']} attacks {card(d['merchant'])} with {card(d['card'])}: the {d['colour']} "
                f"pirates on it now have {d['strength']} skull{'s' if d['strength'] != 1 else ''}")
    if t == "CaptainPlayed":
        return f"seat {d['seat']} plays {card(d['card'])} on {card(d['merchant'])}"
    if t == "AdmiralPlayed":
        return f"seat {d['seat']} defends {card(d['merchant'])} with the Admiral"
    if t == "CardDiscarded":
        return f"seat {d['seat']} discards {card(d['card'])}"
    if t == "MerchantCaptured":
        whose = "its own " if d.get("owner") == d["seat"] else f"seat {d['owner']}'s " if d.get("owner") else ""
        return f"seat {d['seat']} captures {whose}{card(d['merchant'])} ({d['gold']} gold): {_how(d['how'])}"
    if t == "PositionLaid":
        ships = "; ".join(f"{card(b['merchant'])} of seat {b['owner']}"
                          + (f" attacked by {_cards(c for a in b['attacks'] for c in a['cards'])}" if b["attacks"] else "")
                          + (f", then {_cards(b['specials'])}" if b["specials"] else "") for b in d["sea"])
        return ("the game starts from a stated position: "
                + ", ".join(f"seat {s} holds {n} cards" for s, n in d["hands"].items())
                + (f"; at sea {ships}" if ships else "")
                + "".join(f"; seat {s} has won {_cards(w)}" for s, w in d["scored"].items() if w))
    if t == "TurnSkipped":
        return f"seat {d['seat']} has no cards left: turn passes"
    if t == "GameEnded":
        return f"game over: {d['reason']}; discarded from play: {_cards(d['discarded'])}"
    return ""


def _seats(seats: list) -> str:
    """``[1, 3]`` -> ``seats 1 and 3``; ``[1, 3, 5]`` -> ``seats 1, 3 and 5``."""
    said = [str(s) for s in seats]
    if len(said) == 1:
        return f"seat {said[0]}"
    return "seats " + ", ".join(said[:-1]) + " and " + said[-1]


def say_event(config: dict | None, ev: Ev) -> str | None:
    """A card drawn, said by what is printed on it (``views.describe`` asks first)."""
    d = ev.data
    if ev.type == "CardDrawn":
        return f"{d.get('why') or 'drawn'}: {card(d['card'])}"
    return None

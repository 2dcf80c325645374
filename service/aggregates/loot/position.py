"""A Loot game from a stated position (docs/positions.md): hands, merchant ships at sea
with the pirates, captains and Admiral played on them, merchants won, the discards,
whose turn.

``normalise(config, position)`` (``Rules.position``) checks every card once and the
book's limits on the battles (one colour a side on a merchant, a colour used by one
side, a captain on its side's colour, the Admiral on its own side's merchant) and
returns ``{"public": ..., "stated": [...]}``: the cards of a hand are hidden, stated
for the seats that see that hand. ``lay(step)`` is the setup: the named hands drawn
``stated`` first, ``PositionLaid`` (public), the hands only counted dealt by chance,
the dealer; the rules then start the turn (and its capture check).
"""

from __future__ import annotations

from service.kernel import BadInput, positions
from service.kernel.chance import is_copy_of

from .cards import ADMIRAL, CAPTAIN, MERCHANT, PIRATE, build_deck, gold, info
from .state import DRAW_PILE, attack_of, hand_vis, side_of

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    from typing import Any

    from service.kernel.events import Ev
    from service.kernel.machine import Step

    from .state import Battle, State

PLAYER_KEYS = ("hand", "scored")
SHIP_KEYS = ("merchant", "owner", "pirates", "specials")


def _card(what: str, text: object, free: list) -> str:
    """A free card named by its id (``blue-2a``) or as printed without the copy mark
    (``blue-2``, ``Blue 2``: any copy left)."""
    if not isinstance(text, str) or not text.strip():
        raise BadInput(f"{what}: give a card, not {text!r}")
    key = "-".join(text.strip().lower().split())
    if key in free:
        free.remove(key)
        return key
    for c in free:
        if is_copy_of(c, key):
            free.remove(c)
            return c
    raise BadInput(f"{what}: no {text!r} left (every card once: it is not in the game, or stated twice)")


def _list(what: str, value: object) -> list:
    if not isinstance(value, list):
        raise BadInput(f"{what} must be a JSON list, not {value!r}"[:200])
    return value


def _seat(what: str, value: object, seats: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= seats:
        raise BadInput(f"{what}: a seat from 1 to {seats}, not {value!r}")
    return value


def normalise(config: dict, position: dict) -> dict:
    seats = config["seats"]
    state_like = {"pairs": bool(config["options"].get("pairs", False))}
    free = build_deck(config["catalog"])
    positions.keys("the position", position, ("players", "sea", "discard", "to_play", "turn"))
    people = positions.players(position, seats)
    sea = []
    for i, b in enumerate(_list("sea", position.get("sea", [])), 1):
        what = f"merchant ship {i} at sea"
        if not isinstance(b, dict) or "merchant" not in b or "owner" not in b:
            raise BadInput(f"{what}: {{\"merchant\": card, \"owner\": seat, \"pirates\": [[seat, card], ...]}}")
        positions.keys(what, b, SHIP_KEYS)
        merchant = _card(what, b["merchant"], free)
        if info(merchant)[0] != MERCHANT:
            raise BadInput(f"{what}: {merchant} is not a merchant ship")
        owner = _seat(f"{what}'s owner", b["owner"], seats)
        battle: Battle = {"merchant": merchant, "gold": gold(merchant), "owner": owner, "side": side_of(state_like, owner),
                  "attacks": [], "specials": [], "top": None}
        for pair in _list(f"{what}'s pirates", b.get("pirates", [])):
            seat, card = _pair(f"{what}'s pirate", pair, seats, free)
            kind, colour, skulls = info(card)
            side = side_of(state_like, seat)
            if kind != PIRATE:
                raise BadInput(f"{what}: {card} is not a pirate ship (captains and the Admiral go in 'specials')")
            if side == battle["side"]:
                raise BadInput(f"{what}: seat {seat} attacks its own side's merchant")
            mine = attack_of(battle, side)
            if mine is None and any(a["colour"] == colour for a in battle["attacks"]):
                raise BadInput(f"{what}: {colour} is used by another side (a further attacker needs an unused colour)")
            if mine is not None and mine["colour"] != colour:
                raise BadInput(f"{what}: seat {seat}'s side attacks in {mine['colour']}, not {colour}")
            if mine is None:
                battle["attacks"].append({"colour": colour, "side": side, "skulls": skulls, "cards": [card]})
            else:
                mine["skulls"] += skulls
                mine["cards"].append(card)
        for pair in _list(f"{what}'s specials", b.get("specials", [])):
            seat, card = _pair(f"{what}'s captain or Admiral", pair, seats, free)
            kind, colour, _ = info(card)
            side = side_of(state_like, seat)
            if kind == CAPTAIN:
                mine = attack_of(battle, side)
                if mine is None or mine["colour"] != colour:
                    raise BadInput(f"{what}: the {colour} captain of seat {seat} needs its side's {colour} pirate there")
            elif kind == ADMIRAL:
                if side != battle["side"]:
                    raise BadInput(f"{what}: the Admiral defends only its own side's merchant")
            else:
                raise BadInput(f"{what}: {card} is not a captain or the Admiral")
            battle["specials"].append(card)
            battle["top"] = {"card": card, "side": side}
        sea.append(battle)
    out: list[dict[str, Any]] = []
    stated: list[Any] = []
    for seat, q in enumerate(people, 1):
        who = f"seat {seat}"
        positions.keys(who, q, PLAYER_KEYS)
        scored = [_card(f"{who}'s merchants won", c, free) for c in _list(f"{who}'s scored", q.get("scored", []))]
        if any(info(c)[0] != MERCHANT for c in scored):
            raise BadInput(f"{who}: only merchant ships are won")
        hand = q.get("hand", 0)
        if isinstance(hand, list):
            cards = [_card(f"{who}'s hand", c, free) for c in hand]
            stated += cards
            out.append({"seat": seat, "hand": len(cards), "hand_stated": True, "scored": scored})
        elif isinstance(hand, int) and not isinstance(hand, bool) and hand >= 0:
            out.append({"seat": seat, "hand": hand, "hand_stated": False, "scored": scored})
        else:
            raise BadInput(f"{who}: 'hand' is a list of cards or a number of cards dealt by chance")
    discard = [_card("the discards", c, free) for c in _list("discard", position.get("discard", []))]
    if any(info(c)[0] == MERCHANT for c in discard):
        raise BadInput("the discards: a merchant ship is never discarded")
    dealt = sum(q["hand"] for q in out if not q["hand_stated"])
    if dealt > len(free):
        raise BadInput(f"counts not conserved: {dealt} cards to deal, {len(free)} left in the draw pile")
    to_play = _seat("to_play", position.get("to_play", 1), seats)
    turn = position.get("turn", 1)
    if not isinstance(turn, int) or isinstance(turn, bool) or turn < 1:
        raise BadInput(f"turn must be a whole number from 1, not {turn!r}")
    return {"public": {"players": out, "sea": sea, "discard": discard, "to_play": to_play, "turn": turn},
            "stated": stated}


def _pair(what: str, pair: object, seats: int, free: list) -> tuple[int, str]:
    if not isinstance(pair, list) or len(pair) != 2:
        raise BadInput(f"{what}: [seat, card], not {pair!r}")
    return _seat(what, pair[0], seats), _card(what, pair[1], free)


def lay(step: Step) -> tuple[int, int]:
    """The setup of a game from a stated position; returns the seat to play and the turn
    (the rules start it, with its capture check)."""
    state = step.state
    pos = state["position"]
    for q in pos["players"]:                     # the named hands first, seen by who sees the hand
        if q["hand_stated"]:
            for _ in range(q["hand"]):
                step.emit("CardTaken", {"seat": q["seat"]})
                step.draw(DRAW_PILE, state["pile"], vis=hand_vis(state, q["seat"]), stated=True,
                          why=f"a card in seat {q['seat']}'s hand (the position)")
    step.emit("PositionLaid", {"sea": pos["sea"], "discard": pos["discard"],
              "scored": {str(q["seat"]): q["scored"] for q in pos["players"]},
              "hands": {str(q["seat"]): q["hand"] for q in pos["players"]}})
    for q in pos["players"]:                     # the hands only counted: dealt by chance
        if not q["hand_stated"]:
            for _ in range(q["hand"]):
                step.emit("CardTaken", {"seat": q["seat"]})
                step.draw(DRAW_PILE, state["pile"], vis=hand_vis(state, q["seat"]),
                          why=f"a card in seat {q['seat']}'s hand (the position)")
    n = state["seats"]
    first = pos["to_play"]
    checkers = list(range(1, n, 2)) if state["pairs"] else list(range(1, n + 1))
    step.emit("DealerChosen", {"dealer": (first - 2) % n + 1, "first": first, "checkers": checkers,
              "teams": [[s, s + 1] for s in range(1, n, 2)] if state["pairs"] else None})
    return first, pos["turn"]


# the events ---------------------------------------------------------------------------

def _laid(state: State, d: dict[str, Any], ev: Ev) -> None:
    gone = set(d["discard"])
    for b in d["sea"]:
        battle = {**b, "attacks": [{**a, "cards": list(a["cards"])} for a in b["attacks"]],
                  "specials": list(b["specials"]), "top": dict(b["top"]) if b["top"] else None}
        state["sea"].append(battle)  # type: ignore[arg-type]  # (a battle of the position, copied)
        gone |= {b["merchant"], *b["specials"], *(c for a in b["attacks"] for c in a["cards"])}
    for seat, won in d["scored"].items():
        state["captured"][int(seat) - 1] = list(won)
        gone |= set(won)
    state["discard"] = list(d["discard"])
    state["pile"] = [c for c in state["pile"] if c not in gone]
    state.pop("position", None)


HANDLERS = {"PositionLaid": _laid}

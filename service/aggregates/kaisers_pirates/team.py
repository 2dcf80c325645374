"""The team game (rulebook section 4): four players in two teams of two.

Option ``team=true`` (four seats only). Partners sit alternately (4.1): seats 1
and 3 against seats 2 and 4. The rest of the engine asks this module through
small hooks:

* who is an opponent (4.2, 4.3): a partner is never a target of an attack nor
  of an action played "against an opponent" (``board.opponents``); friendly
  actions stay the acting player's own (4.4, nothing to change);
* reactions (4.5): reaction windows open only for the owner of the ship or
  hand attacked, who is always an opponent of the active player, so a partner
  never reacts;
* the team cards' action sides: Bounding Main (3.3.4) skips the next player's
  turn (an opponent); Exchange Information (3.3.11) lets partners swap any
  number of cards, each choosing what it gives without seeing the other's
  hand (4.0): chosen gifts are visible only to the giver until the exchange;
* ship transfers to a partner: leaving an island refuge (4.6), the second ship
  of a double Breakout (4.7), and between rounds (4.9: partners pool their
  surviving warships and raiders and each claims one of the pool: ``claim``
  returns True once all have claimed, and the turn's flow starts the round);
* scoring (4.8, 4.10): each player scores round points on its own; the team's
  total decides; ties as 2.5 (team VP, then another round).

Partner hands stay hidden (2.2 "compagni inclusi", 4.0); what a seat sees of the
team game (the teams, its own gifts) is in ``view.py``.
"""

from __future__ import annotations

import itertools

from service.kernel import BadInput

from . import optional
from .board import TEAMS, ix, other_ok, partner, team_game
from .state import player

TYPE_CHECKING = False  # mypy takes the name as true; typing is not imported at run time
if TYPE_CHECKING:
    from typing import Any

    from service.kernel.events import Ev
    from service.kernel.machine import Step

    from .shapes import State

CARDS = ("bounding-main", "exchange-information")
WINDOWS = ("exchange", "breakout_split", "team_keep")


def team_of(seat: int) -> int:
    return 1 if seat % 2 else 2


def parse(seats: int, value: str) -> bool:
    v = str(value).strip().lower()
    if v not in ("true", "false"):
        raise BadInput("option team must be 'true' or 'false'")
    if v == "true" and seats != 4:
        raise BadInput("the team game (section 4) is for 4 players")
    return v == "true"


# the team cards' action sides -------------------------------------------------
def play_options(state: State, seat: int, card: str) -> list[dict[str, Any]]:
    if not team_game(state):
        return []
    t = ix(state).tid(card)
    base = {"action": "play", "card": card}
    if t == "bounding-main":
        nxt = seat % state["seats"] + 1          # "il giocatore seguente (avversario)"
        if other_ok(state, seat, nxt) and not player(state, nxt).get("skip"):
            return [dict(base, opponent=nxt)]
        return []
    if t == "exchange-information":
        return [base]
    return []


def play(step: Step, seat: int, d: dict[str, Any]) -> None:
    state = step.state
    t = ix(state).tid(d["card"])
    if t == "bounding-main":
        step.emit("TurnWillBeSkipped", {"seat": d["opponent"], "by": seat, "why": "Bounding Main (3.3.4)"})
    elif t == "exchange-information":
        mate = partner(state, seat)
        step.emit("ExchangeStarted", {"seat": seat, "partner": mate})
        step.emit("WindowOpened", {"kind": "exchange", "seat": seat, "partner": mate})


def skip_turn(step: Step, seat: int) -> bool:
    """3.3.4: a player whose turn Bounding Main skips does not play; a Deception or
    Fog Bank before it waits for its next turn. Returns True when skipped."""
    if not player(step.state, seat).get("skip"):
        return False
    step.emit("TurnSkipped", {"seat": seat, "why": "Bounding Main"})
    return True


# windows ----------------------------------------------------------------------
def options(state: State, seat: int) -> list[dict[str, Any]]:
    w = state["window"]
    k = w["kind"]  # type: ignore[index]  # (open: one of WINDOWS)
    if k == "exchange":
        chosen = state["exchange"]["give"][str(seat)]  # type: ignore[index]  # (under way)
        return ([{"action": "give", "card": c} for c in sorted(player(state, seat)["hand"]) if c not in chosen]
                + [{"action": "give_done"}])
    if k == "breakout_split":
        ships = w["ships"]  # type: ignore[index]
        out = []
        for n in range(len(ships) + 1):
            out += [{"action": "transfer", "ships": list(c)} for c in itertools.combinations(ships, n)]
        return out
    if k == "team_keep":
        return keep_options(state, seat)
    return []


def decide(step: Step, seat: int, d: dict[str, Any]) -> None:
    state = step.state
    w = state["window"]
    k = w["kind"]
    if k == "exchange":
        if d["action"] == "give":
            step.emit("GiftChosen", {"seat": seat, "card": d["card"]}, vis=[seat])
            return
        step.emit("WindowClosed", {"seat": seat, "kind": "exchange"})
        ex = state["exchange"]
        first, mate = ex["seats"]
        if seat == first:
            step.emit("WindowOpened", {"kind": "exchange", "seat": mate, "partner": first})
            return
        gives = {str(s): [c for c in ex["give"][str(s)] if c in player(state, s)["hand"]] for s in (first, mate)}
        step.emit("CardsExchanged", {"seats": [first, mate], "gives": gives}, vis=[first, mate])
        step.emit("CardsExchangedCount", {"seats": [first, mate], "counts": {s: len(v) for s, v in gives.items()}})
    elif k == "breakout_split":
        step.emit("WindowClosed", {"seat": seat, "kind": "breakout_split"})
        mate = partner(state, seat)
        for s in d["ships"]:
            step.emit("ShipTransferred", {"ship": s, "to": mate, "from_seat": seat, "why": "Breakout (4.7)"})


def after_breakout(step: Step, seat: int, before: list[str]) -> None:
    """4.7: two new ships: one or both may join the partner's force (one: the player's)."""
    state = step.state
    new = [s for s in player(state, seat)["ships"] if s not in before]
    if team_game(state) and len(new) == 2:
        step.emit("WindowOpened", {"kind": "breakout_split", "seat": seat, "ships": new})


def refuge_exits(state: State, seat: int, ship: str) -> list[dict[str, Any]]:
    """4.6: a ship leaving an island refuge may pass to the partner."""
    if not team_game(state):
        return []
    return [{"action": "leave_refuge", "ship": ship, "to": partner(state, seat)}]


# between rounds (4.9) -----------------------------------------------------------
def pool(state: State, seat: int) -> list[str]:
    return player(state, seat)["ships"] + player(state, partner(state, seat))["ships"]  # type: ignore[arg-type]


def open_keep(step: Step) -> bool:
    state = step.state
    queue = [s for s in range(1, 5) if pool(state, s)]
    if not queue:
        return False
    step.emit("WindowOpened", {"kind": "team_keep", "seat": queue[0], "queue": queue[1:]})
    return True


def _claimed(state: State) -> set[str]:
    out = set()
    for v in state.get("claims", {}).values():
        out.update(v if isinstance(v, list) else [v])
    return out


def keep_options(state: State, seat: int) -> list[dict[str, Any]]:
    """4.9: one ship of the pool the partner has not claimed, or none; with 6.7 any set of
    up to three of them (6.7 "ne possono trattenere sino a 3": 4.9 pools the ships kept)."""
    claimed = _claimed(state)
    free = [s for s in pool(state, seat) if s not in claimed]
    if optional.on(state, "keep_three"):
        most = ix(state).optional_rules["keep_most"]["value"]
        return [{"action": "keep", "ships": list(c)} for n in range(min(most, len(free)), -1, -1)
                for c in itertools.combinations(sorted(free), n)]
    return [{"action": "keep", "ship": s} for s in free] + [{"action": "keep", "ship": None}]


def claim(step: Step, seat: int, d: dict[str, Any]) -> bool:
    """One partner claims a ship of the pool (4.9); once every seat has claimed, the
    ships change hands and are kept: True, and the next round may start."""
    state = step.state
    queue = list(state["window"]["queue"])
    step.emit("WindowClosed", {"seat": seat, "kind": "team_keep"})
    if "ships" in d:        # 6.7: up to three
        step.emit("ShipClaimed", {"seat": seat, "ship": d["ships"][0] if d["ships"] else None, "ships": list(d["ships"])})
    else:
        step.emit("ShipClaimed", {"seat": seat, "ship": d["ship"]})
    if queue:
        step.emit("WindowOpened", {"kind": "team_keep", "seat": queue[0], "queue": queue[1:]})
        return False
    claims = dict(state.get("claims", {}))
    three = optional.on(state, "keep_three")
    for s in range(1, 5):
        claim = claims.get(str(s))
        for ship in (claim or []) if three else [claim]:
            if ship is not None and ship not in player(state, s)["ships"]:
                step.emit("ShipTransferred", {"ship": ship, "to": s, "from_seat": partner(state, s),
                          "why": "kept by the partner (4.9)"})
    for s in range(1, 5):
        if player(state, s)["ships"]:
            if three:
                kept = list(claims.get(str(s)) or [])
                step.emit("ShipKept", {"seat": s, "ship": kept[0] if kept else None, "ships": kept})
            else:
                step.emit("ShipKept", {"seat": s, "ship": claims.get(str(s))})
    step.emit("ClaimsCleared", {})
    return True


# scoring (4.8, 4.10) ----------------------------------------------------------------
def _team_sums(state: State, rounds: int | None = None) -> dict[int, tuple[int, int]]:
    out: dict[int, tuple[int, int]] = {}
    for n, seats in enumerate(TEAMS, 1):
        rp = sum(sum(player(state, s)["round_points"][:rounds]) for s in seats)
        vp = sum(sum(player(state, s)["round_vp"][:rounds]) for s in seats)
        out[n] = (rp, vp)
    return out


def still_tied(state: State) -> list[int]:
    """The seats of the teams still in contention: most team round points, then team VP;
    after an extra round only the teams tied before it (2.5 applied to teams)."""
    sums = _team_sums(state)
    teams = sorted({team_of(s) for s in state.get("tied") or range(1, 5)})
    best = max(sums[t][0] for t in teams)
    teams = [t for t in teams if sums[t][0] == best]
    bv = max(sums[t][1] for t in teams)
    teams = [t for t in teams if sums[t][1] == bv]
    return [s for t in teams for s in TEAMS[t - 1]]


def result(state: State) -> dict[str, Any] | None:
    tied = still_tied(state)
    if len(tied) > 2:
        return None
    sums3 = _team_sums(state, 3)
    scores = {str(s): sums3[team_of(s)][0] for s in range(1, 5)}
    out: dict[str, Any] = {"scores": scores, "winners": sorted(tied),
           "teams": {str(t): list(TEAMS[t - 1]) for t in (1, 2)},
           "team_points": {str(t): sums3[t][0] for t in (1, 2)},
           "round_points": {str(s): sum(player(state, s)["round_points"][:3]) for s in range(1, 5)},
           "victory_points": {str(s): sum(player(state, s)["round_vp"][:3]) for s in range(1, 5)}}
    if state.get("extra_rounds"):
        out["extra_rounds"] = {str(s): {"round_points": player(state, s)["round_points"][3:],
                                        "victory_points": player(state, s)["round_vp"][3:]}
                               for s in range(1, 5)}
    return out


# events ---------------------------------------------------------------------------
def _turn_will_be_skipped(state: State, d: dict[str, Any], ev: Ev) -> None:
    player(state, d["seat"])["skip"] = True


def _turn_skipped(state: State, d: dict[str, Any], ev: Ev) -> None:
    player(state, d["seat"])["skip"] = False


def _exchange_started(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["exchange"] = {"seats": [d["seat"], d["partner"]], "give": {str(d["seat"]): [], str(d["partner"]): []}}


def _gift_chosen(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["exchange"]["give"][str(d["seat"])].append(d["card"])  # type: ignore[index]  # (under way)


def _cards_exchanged(state: State, d: dict[str, Any], ev: Ev) -> None:
    a, b = d["seats"]
    pa, pb = player(state, a), player(state, b)
    for c in d["gives"][str(a)]:
        pa["hand"].remove(c)
        pb["hand"].append(c)
    for c in d["gives"][str(b)]:
        pb["hand"].remove(c)
        pa["hand"].append(c)
    state["exchange"] = None


def _ship_claimed(state: State, d: dict[str, Any], ev: Ev) -> None:
    state.setdefault("claims", {})
    if "ships" in d:        # 6.7
        if d["ships"]:
            state["claims"][str(d["seat"])] = list(d["ships"])
    elif d["ship"] is not None:
        state["claims"][str(d["seat"])] = d["ship"]


def _claims_cleared(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["claims"] = {}


HANDLERS = {
    "TurnWillBeSkipped": _turn_will_be_skipped,
    "TurnSkipped": _turn_skipped,
    "ExchangeStarted": _exchange_started,
    "GiftChosen": _gift_chosen,
    "CardsExchanged": _cards_exchanged,
    "ShipClaimed": _ship_claimed,
    "ClaimsCleared": _claims_cleared,
}

"""Who leads a game of The Kaiser's Pirates before it ends: the game's outcome
taken as if the round ended now (``Rules.outcome`` of an unfinished game; a
search values a playout it cut short by it).

Each player's victory points this round are those of its victory pile so far,
with the warship and raider limit of 2.3.1 kept by its highest cards (at the
round's end the cards over the limit are discarded at random); the round points
they would earn (2.3.3) are added to those of the rounds played. The leader has
the most round points, then the most victory points (2.5); the scores are the
round points, as at the end. The solitaire and the team game have no standing
(None): their ends are scored otherwise."""

from __future__ import annotations

from .board import vp_of
from .flow import round_points, round_vp, totals

TYPE_CHECKING = False  # mypy takes the name as true; typing is not imported at run time
if TYPE_CHECKING:
    from typing import Any

    from .shapes import State


def round_vp_now(state: State, seat: int) -> int:
    """The victory points ``seat``'s pile would score if the round ended now."""
    entries = round_vp(state, seat)
    merchants = sum(1 for e in entries if e["deck"] == "merchant")
    ships = sorted((vp_of(state, e) for e in entries if e["deck"] == "ship"), reverse=True)
    rest = sum(vp_of(state, e) for e in entries if e["deck"] != "ship")
    return rest + sum(ships[:merchants])


def standing(state: State) -> dict[str, Any] | None:
    if state.get("solo") is not None or (state.get("options") or {}).get("team"):
        return None
    seats = range(1, state["seats"] + 1)
    now = {str(s): round_vp_now(state, s) for s in seats}
    points = round_points(now)
    played_rp, played_vp = totals(state)
    rp = {s: played_rp[s] + points[s] for s in now}
    vp = {s: played_vp[s] + now[s] for s in now}
    best = max((rp[s], vp[s]) for s in rp)
    return {"scores": rp, "winners": [s for s in seats if (rp[str(s)], vp[str(s)]) == best], "victory_points": vp}

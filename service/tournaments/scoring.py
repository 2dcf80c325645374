"""A tournament's points and standings (pure: no I/O).

**Places at a table**: a game's winners first, then by final score; players equal on both
share the place (a shared victory is a shared first place). A table entered by hand gives
its places directly. Places are numbered as in sport (1, 1, 3: two share the first place,
the next is third).

**Points**: by place, from the tournament's scale (``4,2,1,0``; ``win``: 1 for first place,
else 0): place k earns the scale's k-th figure (0 beyond it); players sharing a place each
earn that place's figure. A bye earns the tournament's bye points.

**Standings**: by points, then by the tie-breaks the organiser chose, in the order chosen:

* ``opponents``: the sum, over the tables a player sat at, of the points each opponent there
  holds now (the strength of the opposition, as Buchholz's in chess);
* ``score``: the player's victory points, the sum of their final scores (0 for a table entered
  by hand without scores);
* ``openskill``: a rating from the tables so far, in order (round, then table), openskill's
  Plackett-Luce model ranking each table by its places, as ``mu - 3 sigma`` (0 for a newcomer),
  in hundredths (a whole number: an event holds no floats, event_store/chain.py);
* then a lot, drawn from the tournament's committed seed when a round is closed, for players
  equal on everything else (``lots``: a player's place in the draw, lower first).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from openskill.models import PlackettLuce

TIEBREAKS = {"opponents": "opponents' points", "score": "victory points", "openskill": "openskill rating"}
SCALES = {"win": [1]}


def parse_scale(text: str) -> list[int]:
    """``4,2,1,0`` or ``win``: points by place, first place first (ValueError names the problem)."""
    text = text.strip()
    if text in SCALES:
        return list(SCALES[text])
    try:
        points = [int(x) for x in text.split(",")]
    except ValueError:
        raise ValueError(f"points by place are whole numbers, first place first (4,2,1,0), or win; "
                         f"got {text!r}") from None
    if not points or any(p < 0 for p in points) or points != sorted(points, reverse=True):
        raise ValueError(f"points by place never rise from one place to the next and are not below 0; "
                         f"got {text!r}")
    return points


def places_of(keys: dict[str, tuple]) -> dict[str, int]:
    """Places from a sort key per player (lower first): equal keys share a place, numbered as in sport."""
    return {p: 1 + sum(1 for q in keys if keys[q] < k) for p, k in keys.items()}


def game_places(scores: Mapping[str, float], winners: list[str]) -> dict[str, int]:
    """A finished game's places: winners first, then by final score."""
    return places_of({p: (0 if p in winners else 1, -float(s)) for p, s in scores.items()})


def hand_places(given: dict[str, int]) -> dict[str, int]:
    """Places entered by hand, numbered as in sport (``{Ada: 1, Bo: 1, Cy: 2}`` -> 1, 1, 3)."""
    return places_of({p: (int(v),) for p, v in given.items()})


def points_for(places: dict[str, int], scale: list[int]) -> dict[str, int]:
    return {p: scale[k - 1] if k - 1 < len(scale) else 0 for p, k in places.items()}


def standings(players: list[str], rounds: list[dict], tiebreaks: list[str], bye_points: int,
              lots: dict[str, int] | None = None, dropped: set[str] | frozenset = frozenset()) -> list[dict]:
    """The standings after ``rounds`` (each ``{"round", "tables": [{"players", "result"}], "byes"}``;
    a table without a result counts nothing yet), ranked as the module's text says. ``lots``:
    each player's place in the last draw (players without one rank after those with one,
    then by registration order, ``players``' order)."""
    lots = lots or {}
    rows: dict[str, dict[str, Any]] = {p: {"player": p, "points": 0, "played": 0, "wins": 0, "byes": 0, "score": 0, "opponents": 0,
                "openskill": 0, "dropped": p in dropped} for p in players}
    faced: dict[str, list[str]] = {p: [] for p in players}
    model = PlackettLuce()
    rated: dict = {}
    for rnd in rounds:
        for p in rnd.get("byes", ()):
            if p in rows:
                rows[p]["points"] += bye_points
                rows[p]["byes"] += 1
        for table in rnd["tables"]:
            result = table.get("result")
            if not result:
                continue
            seated = [p for p in table["players"] if p in rows]
            for p in seated:
                row = rows[p]
                row["points"] += result["points"][p]
                row["played"] += 1
                row["wins"] += result["places"][p] == 1
                row["score"] += (result.get("scores") or {}).get(p, 0)
                faced[p] += [q for q in seated if q != p]
            if len(seated) > 1:
                teams = [[rated.get(p) or model.rating(name=p)] for p in seated]
                for p, [r] in zip(seated, model.rate(teams, ranks=[result["places"][p] for p in seated])):
                    rated[p] = r
    for p, row in rows.items():
        row["opponents"] = sum(rows[q]["points"] for q in faced[p])
        row["openskill"] = round(rated[p].ordinal() * 100) if p in rated else 0
    order = {p: i for i, p in enumerate(players)}

    def key(p: str) -> tuple[int, ...]:
        row = rows[p]
        return (-row["points"], *(-row[t] for t in tiebreaks), lots.get(p, len(players)), order[p])

    ranked = sorted(rows, key=key)
    out: list[dict[str, Any]] = []
    prev: tuple[Any, ...] | None = None
    rank = 0
    for n, p in enumerate(ranked, 1):
        row = rows[p]
        this = (row["points"], *(row[t] for t in tiebreaks), lots.get(p))
        if this != prev:
            rank = n
        prev = this
        out.append({"rank": rank, **row, "lot": lots.get(p)})
    return out


def tied_groups(rows: list[dict], tiebreaks: list[str]) -> list[list[str]]:
    """Players equal on points and every tie-break (a lot is drawn among each group), in standing order."""
    groups: dict[tuple, list[str]] = {}
    for r in rows:
        groups.setdefault((r["points"], *(r[t] for t in tiebreaks)), []).append(r["player"])
    return [g for g in groups.values() if len(g) > 1]

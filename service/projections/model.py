"""What the read models make of the events: pure functions, no I/O.

Only two event types matter: ``GameCreated`` (version 1 of every game: which
game, its name, tournament, seats, players, fork parent) and ``GameFinished``
(final scores and winners). Every other event only moves the tracking
position.

Who is a *player*? ``GameCreated`` may record names for the seats
(``players``: a list, seat 1 first, or a ``{seat: name}`` mapping); a
``SeatNamed`` event (the name a seat was taken under: at creation, on an
invitation or on joining) with ``{"seat": n, "player": name}`` names a seat too
(as the older ``SeatJoined`` did).
A seat with no name is the player ``seat N``, which suits fixed-seat events
(and is what a game created without names can offer).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from openskill.models import PlackettLuce, PlackettLuceRating

from service.kernel.errors import BadInput
from service.kernel.games import HISTORIES
from service.logs import logger

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

log = logger(__name__)

TRACKED_TYPES = ("GameCreated", "GameFinished", "SeatNamed", "SeatJoined")


def seat_names(config: dict) -> dict[str, str]:
    players = config.get("players") or (config.get("options") or {}).get("players")
    names: dict[str, str] = {}
    if isinstance(players, (list, tuple)):
        names = {str(i + 1): str(p) for i, p in enumerate(players) if p}
    elif isinstance(players, dict):
        names = {str(k): str(v) for k, v in players.items() if v}
    return names


def player_of(names: dict, seat: int | str) -> str:
    return names.get(str(seat)) or f"seat {seat}"


@dataclass
class Batch:
    """Changes to the read model from a run of events, applied in one
    transaction together with the tracking position."""

    games: dict[str, dict] = field(default_factory=dict)        # new proj_games rows
    names: dict[str, dict] = field(default_factory=dict)        # game_id -> {seat: name} joined
    finished: dict[str, dict] = field(default_factory=dict)     # game_id -> proj_games updates
    scores: list[dict] = field(default_factory=list)            # new proj_scores rows
    touched: set[tuple[str, str]] = field(default_factory=set)  # (tournament, game) to recount
    events: list[dict] = field(default_factory=list)            # new proj_events rows (the public log)
    seq: dict[str, int] = field(default_factory=dict)           # game_id -> public events counted so far
    boards: dict[str, dict] = field(default_factory=dict)       # game_id -> proj_boards row (public board)
    looked_up: dict[str, dict | None] = field(default_factory=dict)  # game_id -> its row in the read model

    def game(self, gid: str, lookup: Callable[[str], dict | None]) -> dict | None:
        """The game's proj_games row: made in this batch, or read from the read model once
        per batch (what the read model holds does not change before the batch's commit)."""
        row = self.games.get(gid)
        if row is not None:
            return row
        try:
            return self.looked_up[gid]
        except KeyError:
            row = self.looked_up[gid] = lookup(gid)
            return row

    def empty(self) -> bool:
        return not (self.games or self.names or self.finished or self.scores or self.events or self.boards)


def game_row(game_id: str, e: Any) -> dict:
    d = e.data
    fork = d.get("fork") or {}
    return {
        "game_id": game_id, "game": d["game"], "name": d.get("name") or "",
        "tournament": d.get("tournament") or "", "seats": d["seats"],
        "table_mode": int(bool(d.get("table"))), "created": e.timestamp.isoformat(),
        "parent": fork.get("parent"), "players": seat_names(d),
        "finished": 0, "finished_at": None, "events": None, "winners": None, "shared": 0,
    }


def add_event(batch: Batch, e: Any, lookup: Callable[[str], dict | None], public_count: Callable[[str], int] | None = None,
              config_of: Callable[[str], dict | None] | None = None) -> None:
    """Fold one decoded stored event into ``batch``. ``lookup(game_id)`` gives a
    game's proj_games row already in the read model (or None); ``public_count(game_id)``
    how many of its public events ``proj_events`` holds already; ``config_of(game_id)``
    its ``GameCreated`` data (for a public decision's words), or None."""
    t = getattr(e, "type", None)
    if t == "GameCreated" and e.data.get("game") in HISTORIES:
        return  # not a game (a tournament): no row, so none of its events is read here either
    if t is not None and getattr(e, "visible_to", None) == "all":
        add_public(batch, e, lookup, public_count, config_of)
    if t not in TRACKED_TYPES:
        return
    gid = e.originator_id.hex
    if t == "GameCreated":
        batch.games[gid] = game_row(gid, e)
        return
    game = batch.game(gid, lookup)
    if game is None:  # a game whose creation is not in the log: nothing to attach to
        return
    if t in ("SeatNamed", "SeatJoined"):
        seat, name = e.data.get("seat"), e.data.get("player")
        if seat is not None and name:
            batch.names.setdefault(gid, dict(game.get("players") or {}))[str(seat)] = str(name)
        return
    # GameFinished
    names = {**(game.get("players") or {}), **batch.names.get(gid, {})}
    scores = e.data.get("scores") or {}
    winners = [int(w) for w in (e.data.get("winners") or [])]
    shared = len(winners) > 1
    counted = int(not game.get("parent"))  # a fork is a what-if, not a tournament result
    batch.finished[gid] = {"finished": 1, "finished_at": e.timestamp.isoformat(),
                           "events": e.originator_version, "winners": winners, "shared": int(shared)}
    for seat, score in sorted(scores.items(), key=lambda kv: int(kv[0])):
        won = int(int(seat) in winners)
        batch.scores.append({
            "game_id": gid, "seat": int(seat), "player": player_of(names, seat),
            "tournament": game["tournament"], "game": game["game"], "score": score,
            "winner": won, "shared": int(won and shared),
            "win_share": (1.0 / len(winners)) if won else 0.0, "counted": counted,
        })
    if counted:
        batch.touched.add((game["tournament"], game["game"]))


def add_public(batch: Batch, e: Any, lookup: Callable[[str], dict | None], public_count: Callable[[str], int] | None = None,
               config_of: Callable[[str], dict | None] | None = None) -> None:
    """A public event as a readable row of ``proj_events``, numbered in the
    public's own sequence (``seq``: 1, 2, ... over the events everyone may
    read), never by store version, which would count the hidden events between.
    A public decision reads in the game's words where its config is known (``config_of``)."""
    from service.kernel.games import get_rules
    from service.views import REFEREE_ONLY_FIELDS, decision_namer, describe
    from service.kernel.machine import Ev

    gid = e.originator_id.hex
    if e.type == "GameCreated":
        game = e.data["game"]
        batch.seq[gid] = 0
    else:
        row = batch.game(gid, lookup)
        if row is None:
            return
        game = row["game"]
        if gid not in batch.seq:
            batch.seq[gid] = public_count(gid) if public_count is not None else 0
    batch.seq[gid] += 1
    data = {k: v for k, v in e.data.items() if k not in REFEREE_ONLY_FIELDS}
    try:
        rules = get_rules(game)
    except BadInput:  # a game this build does not know: the row keeps its type and data
        rules = None
    text = e.type
    if rules is not None:
        try:
            config = config_of(gid) if config_of is not None and e.type == "Decided" else None
            text = describe(rules, Ev(e.type, e.turn, "all", data),
                            decision_namer(rules, config) if config else None)
        except Exception:  # the rules cannot word it: the row keeps its type and data, the log says why
            log.warning("event %d (%s) could not be described", e.originator_version, e.type, exc_info=True,
                        extra={"game_id": gid})
    batch.events.append({"game_id": gid, "seq": batch.seq[gid], "turn": e.turn, "type": e.type, "text": text,
                         "data": json.dumps(data, default=_json_default, sort_keys=True)})


def _json_default(o: object) -> Any:
    if isinstance(o, (bytes, bytearray)):
        return bytes(o).hex()
    return str(o)


ALL_GAMES = "all games"
_UNNAMED = re.compile(r"^seat \d+$")


def named(rows: list[dict]) -> list[dict]:
    """Only players: a seat nobody named (``seat 3``) is not one, so the seat 3
    of one game is never counted with the seat 3 of another."""
    return [r for r in rows if r.get("player") and not _UNNAMED.match(r["player"])]


def ratings(results: list[dict]) -> dict[tuple[str, str, str], float]:
    """Each named player's rating, by ``(tournament, game, player)`` and, over every game
    kind of a tournament, ``(tournament, ALL_GAMES, player)``: openskill's Plackett-Luce
    model (made for games of many players), played through the games in the order they
    finished (then by game id), each game ranking its seats by the result: its winners
    first, then by final score, equal on both a tie. The figure is the conservative
    estimate ``mu - 3 sigma`` (0 for a newcomer; it grows as the games show the skill),
    the same from the same games. A seat nobody named plays as a newcomer each time.

    ``results``: score rows (``game_id, seat, player, tournament, game, score, winner,
    finished_at``) of the counted games (forks never count)."""
    model = PlackettLuce()
    games: dict[str, list[dict]] = {}
    for r in results:
        games.setdefault(r["game_id"], []).append(r)
    held: dict[tuple, PlackettLuceRating] = {}
    for gid in sorted(games, key=lambda g: (str(games[g][0].get("finished_at") or ""), g)):
        rows = sorted(games[gid], key=lambda r: int(r["seat"]))
        if len(rows) < 2:
            continue
        places = sorted({(-int(r["winner"]), -float(r["score"])) for r in rows})
        ranks: list[float] = [places.index((-int(r["winner"]), -float(r["score"]))) + 1 for r in rows]
        first = rows[0]
        for kind in (first["game"], ALL_GAMES):
            keys = [(first["tournament"], kind, r["player"]) if named([r]) else None for r in rows]
            teams = [[held.get(k) or model.rating()] if k else [model.rating()] for k in keys]
            for k, [rated] in zip(keys, model.rate(teams, ranks=ranks)):
                if k is not None:
                    held[k] = rated
    return {k: round(r.ordinal(), 2) for k, r in held.items()}


def rank_rows(rows: list[dict], rated: dict | None = None) -> list[dict]:
    """Order and number standings rows within each (tournament, game).

    The order: most wins (a victory shared by k players counts 1/k), then the
    better win rate (wins per game played: 1 win in 1 game ranks above 1 win in
    3), then the higher average score, then the name. Equal on all three is an
    equal rank. ``rated``: the players' ratings (``ratings``), shown beside."""
    out = []
    rated = rated or {}

    def key(r: dict) -> tuple:
        played = int(r["played"]) or 1
        return (-float(r["win_share"]), -float(r["win_share"]) / played, -float(r["points"]) / played)

    rows = sorted(named(rows), key=lambda r: (r["tournament"], r["game"], key(r), r["player"]))
    rank, prev, group_key = 0, None, None
    for r in rows:
        group = (r["tournament"], r["game"])
        if group != group_key:
            group_key, n, prev = group, 0, None
        n += 1
        this = tuple(round(x, 6) for x in key(r))
        if this != prev:
            rank = n
        prev = this
        played = int(r["played"])
        out.append({
            "rank": rank, "tournament": r["tournament"], "game": r["game"], "player": r["player"],
            "played": played, "wins": int(r["wins"]), "shared_wins": int(r["shared_wins"]),
            "win_share": round(float(r["win_share"]), 4), "points": _num(r["points"]),
            "avg_points": round(float(r["points"]) / played, 2) if played else 0.0,
            "best": _num(r["best"]),
            "rating": rated.get((r["tournament"], r["game"], r["player"]), 0.0),
        })
    return out


def overall_rows(rows: list[dict], rated: dict | None = None) -> list[dict]:
    """One table per tournament over every game kind played in it (``game`` is
    ``all games``): the sums of each player's rows, ranked the same way, with the
    rating over all of them (``rated``: ``ratings``)."""
    acc: dict = {}
    for r in named(rows):
        a = acc.setdefault((r["tournament"], r["player"]), {
            "tournament": r["tournament"], "game": ALL_GAMES, "player": r["player"], "played": 0, "wins": 0,
            "shared_wins": 0, "win_share": 0.0, "points": 0.0, "best": None})
        for k in ("played", "wins", "shared_wins"):
            a[k] += int(r[k])
        a["win_share"] += float(r["win_share"])
        a["points"] += float(r["points"])
        a["best"] = float(r["best"]) if a["best"] is None else max(a["best"], float(r["best"]))
    return rank_rows(list(acc.values()), rated)


def win_rate(row: dict) -> str:
    """A row's win rate for a person: its win share per game played, as a percentage."""
    return f"{100 * float(row['win_share']) / int(row['played']):.0f}%" if int(row["played"]) else "-"


def _num(x: Any) -> float:
    f = float(x)
    return int(f) if f.is_integer() else round(f, 4)

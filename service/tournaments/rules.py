"""A tournament as a kernel history: the organiser's decisions, the events they cause, its view.

A tournament is stored like a game (``GameCreated`` with ``game: "tournament"``, one seat that
never acts, the organiser's decisions as the referee's steps, seat 0): so its hash chain, the
service's signatures, ``tools export``/``import``/``verify``/``audit`` and its committed seed
apply unchanged. It is not a game: the registry of games does not list it
(service/kernel/games.py names it among ``HISTORIES``), nor do the pages and standings of games.

The organiser's decisions (``{"referee": KIND, ...}``):

* ``register {player}``: a player joins (after round 1 is seated: a late arrival, from the next round);
* ``drop {player, reason}``: a player leaves (not seated again; their results stand);
* ``seat``: the next round's tables (service/tournaments/seating.py); round 1's order is a
  shuffle drawn from the tournament's seed, so anyone can recompute it once the seed is revealed;
* ``link {tables: {table: {game_id, mode}}}``: each table's game (``mode``: ``service``, played
  through the service, or ``table``, a table-mode game refereed at a physical table);
* ``result {table, game_id, scores, winners}``: a table's result read from its finished game
  (the service's command fills it; ``tools tournament audit`` checks it against the game), or
  ``result {table, places, reason[, scores]}``: entered by the organiser, for a table played
  without the service or whose game did not finish, with the reason on the record;
* ``close``: every table has its result; the standings are fixed, a lot drawn from the seed
  between players equal on everything (service/tournaments/scoring.py);
* ``finish``: no round open; the kernel then reveals the seed (``GameFinished``).
"""

from __future__ import annotations

import re
from collections.abc import Set
from typing import TYPE_CHECKING, Any

from service.kernel.errors import BadInput, IllegalDecision
from service.kernel.games import get_rules
from service.kernel.rules import Rules

from . import scoring
from .seating import Past, first_round, later_round, table_sizes
from .state import HANDLERS, active, current_round, initial_state, last_standings, round_open

if TYPE_CHECKING:
    from service.kernel.events import Ev
    from service.kernel.machine import Step

    from .state import State

    Options = dict[str, Any]   # the tournament's parsed options (``parse_options``)
    Decision = dict[str, Any]  # an organiser's decision, as given

NAME = "tournament"
KINDS = ("register", "drop", "seat", "link", "result", "close", "finish")
MODES = ("service", "table")
DEFAULTS = {"table": "4", "rounds": "3", "points": "4,2,1,0", "tiebreaks": "opponents,score,openskill"}
_HEX = re.compile(r"^[0-9a-f]{32}$")
_SEAT_NAME = re.compile(r"^seat \d+$")


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


class TournamentRules(Rules):
    name = NAME
    title = "Tournament"
    min_seats = 1  # the organiser's history: one seat, which never acts (the organiser is the referee)
    max_seats = 1
    options_said = {
        "game": "the game every table plays (a registered game)",
        "table": "the most players at a table, 2 to 6 (default 4)",
        "rounds": "how many rounds (default 3)",
        "points": "points by place at a table, first place first: 4,2,1,0 (default), or win (1 for a win)",
        "tiebreaks": "after points, in order: opponents, score (victory points), openskill; none for only a lot",
        "bye": "the points of a bye (default: a first place's)",
        "game.KEY": "an option of the tables' games (game.pairs=true)",
    }
    handlers = HANDLERS

    # configuration ---------------------------------------------------------------------------
    def parse_options(self, seats: int, options: dict[str, str]) -> Options:
        given = {**DEFAULTS, **options}
        game = given.pop("game", "")
        if not game:
            raise BadInput("a tournament needs the game its tables play (game=loot)")
        if game == NAME:
            raise BadInput("a tournament's tables play a game, not a tournament")
        rules = get_rules(game)
        game_options = {k[5:]: v for k, v in given.items() if k.startswith("game.")}
        unknown = [k for k in given if not k.startswith("game.") and k not in DEFAULTS and k != "bye"]
        if unknown:
            raise BadInput(f"a tournament takes no option {', '.join(unknown)} "
                           f"(options: {', '.join(self.options_said)})")
        table = _whole(given["table"], "table", 2, 6)
        rounds = _whole(given["rounds"], "rounds", 1, 50)
        try:
            points = scoring.parse_scale(given["points"])
        except ValueError as e:
            raise BadInput(str(e)) from None
        tiebreaks = [t.strip() for t in given["tiebreaks"].split(",") if t.strip() and t.strip() != "none"]
        bad = [t for t in tiebreaks if t not in scoring.TIEBREAKS]
        if bad or len(set(tiebreaks)) != len(tiebreaks):
            raise BadInput(f"tie-breaks are some of {', '.join(scoring.TIEBREAKS)}, each once, in order "
                           f"(or none); got {given['tiebreaks']!r}")
        bye = _whole(given["bye"], "bye", 0, 1000) if "bye" in given else points[0]
        sizes: list[int] = []
        refusals: list[str] = []
        for n in range(2, table + 1):
            if not rules.min_seats <= n <= rules.max_seats:
                continue
            try:
                rules.parse_options(n, dict(game_options))
            except BadInput as e:
                refusals.append(f"{n}: {e.reason}")
                continue
            sizes.append(n)
        if not sizes:
            raise BadInput(f"{game} cannot be played at tables of 2 to {table} with these options"
                           + (f" ({'; '.join(refusals)})" if refusals else ""))
        return {"game": game, "table": table, "sizes": sizes, "rounds": rounds, "points": points,
                "tiebreaks": tiebreaks, "bye": bye, "game_options": game_options,
                "game_rules_version": rules.rules_version}

    def initial_state(self, config: dict[str, Any]) -> State:
        return initial_state(config)

    def setup(self, step: Step) -> None:
        o = step.machine.config["options"]
        step.emit("TournamentOpened", {"game": o["game"], "table": o["table"], "sizes": o["sizes"],
                  "rounds": o["rounds"], "points": o["points"], "tiebreaks": o["tiebreaks"], "bye": o["bye"]}, "all")

    # the organiser's decisions ----------------------------------------------------------------
    def referee(self, step: Step, decision: Decision) -> None:
        kind = decision.get("referee")
        if kind not in KINDS:
            raise BadInput(f"a tournament's decisions are {', '.join(KINDS)} (got {kind!r})")
        state = step.state
        if state["finished"]:
            raise IllegalDecision("the tournament is finished")
        getattr(self, "_" + kind)(step, state, step.machine.config["options"], decision)

    def _register(self, step: Step, state: State, options: Options, decision: Decision) -> None:
        _keys(decision, {"player"})
        player = _player_name(decision.get("player"))
        if player in state["joined"]:
            raise IllegalDecision(f"{player} is registered already")
        step.emit("PlayerRegistered", {"player": player, "from_round": state["turn"] + 1,
                  "late": bool(state["rounds"])}, "all", state["turn"])

    def _drop(self, step: Step, state: State, options: Options, decision: Decision) -> None:
        _keys(decision, {"player"}, {"reason"})
        player = decision.get("player")
        if player not in state["joined"]:
            raise IllegalDecision(f"{player!r} is not a registered player")
        if player in state["dropped"]:
            raise IllegalDecision(f"{player} has dropped already")
        reason = decision.get("reason", "")
        if not isinstance(reason, str) or len(reason) > 500:
            raise BadInput("a drop's reason is a line of text")
        step.emit("PlayerDropped", {"player": player, "reason": reason.strip()}, "all", state["turn"])

    def _seat(self, step: Step, state: State, options: Options, decision: Decision) -> None:
        _keys(decision, set())
        if round_open(state):
            raise IllegalDecision(f"round {state['turn']} is still open: close it first")
        if len(state["rounds"]) >= options["rounds"]:
            raise IllegalDecision(f"all {options['rounds']} rounds have been played: finish the tournament")
        players = active(state)
        sizes, byes = table_sizes(len(players), options["sizes"], options["table"])
        if not sizes:
            raise IllegalDecision(f"{len(players)} players cannot fill a table (tables of "
                                  f"{', '.join(map(str, options['sizes']))})")
        number = state["turn"] + 1
        if not state["rounds"]:
            order = step.shuffle("players", players, "all", why="round 1's seating")
            tables, out = first_round(order, sizes, byes)
        else:
            tables, out = later_round(ranked(state, players), sizes, byes, Past.of(state["rounds"]))
        step.emit("RoundSeated", {"round": number, "tables": tables, "byes": out}, "all", number)

    def _link(self, step: Step, state: State, options: Options, decision: Decision) -> None:
        _keys(decision, {"tables"})
        rnd = _open_round(state)
        given = decision["tables"]
        if not isinstance(given, dict) or not given:
            raise BadInput('link takes {"tables": {"1": {"game_id": ..., "mode": "service"}, ...}}')
        linked: dict[str, dict[str, str]] = {}
        for number, table in given.items():
            t = _table_of(rnd, number)
            if not isinstance(table, dict) or set(table) != {"game_id", "mode"}:
                raise BadInput(f"table {number}: give its game_id and mode ({' or '.join(MODES)})")
            if not isinstance(table["game_id"], str) or not _HEX.match(table["game_id"]):
                raise BadInput(f"table {number}: a game id is 32 hexadecimal characters")
            if table["mode"] not in MODES:
                raise BadInput(f"table {number}: mode is {' or '.join(MODES)}")
            if t["result"] is not None:
                raise IllegalDecision(f"table {number} has its result already")
            linked[str(t["table"])] = {"game_id": table["game_id"], "mode": table["mode"]}
        step.emit("TableGamesLinked", {"round": rnd["round"], "tables": linked}, "all", rnd["round"])

    def _result(self, step: Step, state: State, options: Options, decision: Decision) -> None:
        rnd = _open_round(state)
        t = _table_of(rnd, decision.get("table"))
        if t["result"] is not None:
            raise IllegalDecision(f"table {t['table']} of round {rnd['round']} has its result already")
        players = t["players"]
        scores: dict[str, int] | None
        if "game_id" in decision:
            _keys(decision, {"table", "game_id", "scores", "winners"})
            if decision["game_id"] != t["game_id"]:
                raise IllegalDecision(f"table {t['table']} plays game {t['game_id'] or '(none)'}, not "
                                      f"{decision['game_id']}")
            scores = _by_player(decision["scores"], players, "scores")
            winners = decision["winners"]
            if not isinstance(winners, list) or not set(winners) <= set(players):
                raise BadInput("winners are players of the table")
            places = scoring.game_places(scores, winners)
            extra = {"game_id": t["game_id"]}
        else:
            _keys(decision, {"table", "places", "reason"}, {"scores"})
            reason = decision["reason"]
            if not isinstance(reason, str) or not reason.strip() or len(reason) > 500:
                raise BadInput("a result entered by hand says why (reason: played without the service, ...)")
            given = _by_player(decision["places"], players, "places")
            if any(not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= len(players)
                   for v in given.values()):
                raise BadInput(f"places are whole numbers from 1 to {len(players)}")
            places = scoring.hand_places(given)
            scores = _by_player(decision["scores"], players, "scores") if "scores" in decision else None
            extra = {"reason": reason.strip()}
        points = scoring.points_for(places, options["points"])
        step.emit("TableResult", {"round": rnd["round"], "table": t["table"], "places": places,
                  "points": points, "scores": scores, **extra}, "all", rnd["round"])

    def _close(self, step: Step, state: State, options: Options, decision: Decision) -> None:
        _keys(decision, set())
        rnd = _open_round(state)
        missing = [str(t["table"]) for t in rnd["tables"] if t["result"] is None]
        if missing:
            raise IllegalDecision(f"round {rnd['round']} still awaits the result of table"
                                  f"{'s' if len(missing) > 1 else ''} {', '.join(missing)}")
        rows = self.standings(state, options)
        lots: dict[str, int] = {}
        for group in scoring.tied_groups(rows, options["tiebreaks"]):
            drawn = step.shuffle("lot", group, "all", why="a lot between " + ", ".join(group))
            lots.update({p: i for i, p in enumerate(drawn, 1)})
        rows = self.standings(state, options, lots)
        step.emit("RoundClosed", {"round": rnd["round"], "standings": rows}, "all", rnd["round"])

    def _finish(self, step: Step, state: State, options: Options, decision: Decision) -> None:
        _keys(decision, set())
        if round_open(state):
            raise IllegalDecision(f"round {state['turn']} is still open: close it first")
        if not state["rounds"]:
            raise IllegalDecision("no round has been played")
        final = last_standings(state) or []
        step.emit("TournamentFinished", {"rounds": len(state["rounds"]),
                  "winner": final[0]["player"] if final else None}, "all", state["turn"])

    # reading it --------------------------------------------------------------------------------
    def standings(self, state: State, options: Options, lots: dict[str, int] | None = None) -> list[dict[str, Any]]:
        """The standings from every result so far (``lots``: a draw's places; else the last round's)."""
        if lots is None:
            last = last_standings(state) or []
            lots = {r["player"]: r["lot"] for r in last if r.get("lot") is not None}
        return scoring.standings(state["players"], state["rounds"], options["tiebreaks"], options["bye"],
                                 lots, set(state["dropped"]))

    def referee_legal(self, state: State) -> list[dict[str, Any]]:
        if state["finished"]:
            return []
        rnd = current_round(state)
        if rnd is not None and not rnd["closed"]:
            return [{"referee": "close"}] if all(t["result"] for t in rnd["tables"]) else []
        seat = [{"referee": "seat"}] if len(state["rounds"]) < state["planned"] else []
        return seat + ([{"referee": "finish"}] if state["rounds"] else [])

    def legal(self, state: State, seat: int) -> list[dict[str, Any]]:
        return []

    def to_act(self, state: State) -> list[int]:
        return []

    def finished(self, state: State) -> bool:
        return state["finished"]

    def outcome(self, state: State) -> dict[str, Any]:
        return {"scores": {}, "winners": []}

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Everything (a tournament hides nothing), with the standings as they stand now."""
        return {"round": state["turn"], "open": round_open(state), "finished": state["finished"],
                "players": [{"player": p, "from_round": state["joined"][p], "dropped": p in state["dropped"],
                             "reason": state["dropped"].get(p)} for p in state["players"]],
                "rounds": state["rounds"], "next": [d["referee"] for d in self.referee_legal(state)]}

    def say_decision(self, config: dict[str, Any], decision: Decision) -> str:
        kind = decision.get("referee")
        if kind == "register":
            return f"register {decision.get('player')}"
        if kind == "drop":
            return f"drop {decision.get('player')}"
        if kind == "result":
            return f"enter table {decision.get('table')}'s result"
        return {"seat": "seat the next round", "close": "close the round", "finish": "finish the tournament",
                "link": "link the tables' games"}.get(str(kind), str(kind))

    def describe(self, ev: Ev) -> str:
        d = ev.data
        t = ev.type
        if t == "TournamentOpened":
            return (f"a tournament of {d['game']} at tables of up to {d['table']}, {d['rounds']} rounds, points "
                    f"{'-'.join(map(str, d['points']))} by place, tie-breaks: {', '.join(d['tiebreaks']) or 'a lot'}")
        if t == "PlayerRegistered":
            return f"{d['player']} registered" + (f" (late: plays from round {d['from_round']})" if d["late"] else "")
        if t == "PlayerDropped":
            return f"{d['player']} dropped" + (f" ({d['reason']})" if d.get("reason") else "")
        if t == "RoundSeated":
            tables = "; ".join(f"table {i}: {', '.join(p)}" for i, p in enumerate(d["tables"], 1))
            return f"round {d['round']} seated: {tables}" + (f"; bye: {', '.join(d['byes'])}" if d["byes"] else "")
        if t == "TableGamesLinked":
            return f"round {d['round']}: " + "; ".join(
                f"table {n} plays game {x['game_id'][:8]}" + (" at a table" if x["mode"] == "table" else "")
                for n, x in d["tables"].items())
        if t == "TableResult":
            order = sorted(d["places"], key=lambda p: d["places"][p])
            said = ", ".join(f"{ordinal(d['places'][p])} {p} ({d['points'][p]})" for p in order)
            how = f"from game {d['game_id'][:8]}" if d.get("game_id") else f"entered by hand: {d.get('reason')}"
            return f"round {d['round']}, table {d['table']}: {said} ({how})"
        if t == "RoundClosed":
            top = ", ".join(f"{r['rank']}. {r['player']} {r['points']}" for r in d["standings"][:8])
            return f"round {d['round']} closed: {top}" + (" ..." if len(d["standings"]) > 8 else "")
        if t == "TournamentFinished":
            return f"the tournament is finished after {d['rounds']} rounds" + (
                f": {d['winner']} wins" if d.get("winner") else "")
        if t == "DeckShuffled" and d.get("deck") == "players":
            return "round 1's order drawn: " + ", ".join(d["order"])
        if t == "DeckShuffled" and d.get("deck") == "lot":
            return "a lot drawn: " + ", ".join(d["order"])
        if t == "GameFinished":
            return "the tournament's seed revealed"
        return super().describe(ev)


def ranked(state: State, players: list[str]) -> list[str]:
    """``players`` in standing order (the last closed round's), late arrivals last in the order registered."""
    last = last_standings(state) or []
    place = {r["player"]: i for i, r in enumerate(last)}
    order = {p: i for i, p in enumerate(state["players"])}
    return sorted(players, key=lambda p: (place.get(p, len(place)), order[p]))


def _keys(decision: Decision, needed: Set[str], optional: Set[str] = frozenset()) -> None:
    given = set(decision) - {"referee"}
    if not needed <= given or not given <= needed | optional:
        kind = decision.get("referee")
        need = ", ".join(sorted(needed)) or "nothing more"
        more = f" (and optionally {', '.join(sorted(optional))})" if optional else ""
        raise BadInput(f"{kind} takes {need}{more}; got {', '.join(sorted(given)) or 'nothing'}")


def _player_name(name: object) -> str:
    if not isinstance(name, str) or not name.strip():
        raise BadInput("a player needs a name")
    name = name.strip()
    if not name.isprintable() or len(name) > 100:
        raise BadInput("a player's name is one line of at most 100 characters")
    if _SEAT_NAME.match(name):
        raise BadInput(f"{name!r} names a seat, not a player: give the player's name")
    return name


def _open_round(state: State) -> dict[str, Any]:
    rnd = current_round(state)
    if rnd is None or rnd["closed"]:  # ``round_open``
        raise IllegalDecision("no round is open: seat the next round first")
    return rnd


def _table_of(rnd: dict[str, Any], number: Any) -> dict[str, Any]:
    try:
        n = int(number)
    except (TypeError, ValueError):
        n = 0
    if isinstance(number, bool) or not 1 <= n <= len(rnd["tables"]):
        raise BadInput(f"round {rnd['round']} has tables 1 to {len(rnd['tables'])}, not {number!r}")
    return rnd["tables"][n - 1]


def _by_player(given: object, players: list[str], what: str) -> dict[str, int]:
    if not isinstance(given, dict) or set(given) != set(players):
        raise BadInput(f"{what} name every player of the table ({', '.join(players)}), and nobody else")
    for v in given.values():
        if not isinstance(v, int) or isinstance(v, bool):
            raise BadInput(f"{what} are whole numbers")
    return {p: given[p] for p in players}


def _whole(text: str, what: str, lo: int, hi: int) -> int:
    try:
        n = int(str(text).strip())
    except ValueError:
        raise BadInput(f"{what} is a whole number from {lo} to {hi}, not {text!r}") from None
    if not lo <= n <= hi:
        raise BadInput(f"{what} is a whole number from {lo} to {hi}, not {n}")
    return n


RULES = TournamentRules()

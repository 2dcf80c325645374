"""The organiser's desk: a tournament's commands against the store (service/tournaments holds
its pure rules).

A tournament is a kernel history (``game: "tournament"``), so its decisions go through
``Privateer.referee`` like a referee's step, its chain is signed, and ``tools export``,
``import``, ``verify`` and ``audit`` read it as they read a game. What the rules cannot do,
being pure, is done here:

* **seating a round** makes each table's game (``Privateer.create``: a seeded game played
  through the service, its seats named for the table's players, or a table-mode game for a
  physical table; or none, for a table whose result will be entered by hand) and records which
  game each table plays (``link``), right after the round's ``seat`` step;
* **results** of a table's game flow into the tournament by the organiser's command: ``result``
  for one table, and ``close``, which first records the result of every finished game of the
  round not recorded yet. Nothing is written into the tournament from a game's own steps;
* **the audit** audits the tournament's history and every table's game, and checks that each
  result read from a game is that game's ``GameFinished``, seat by seat.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from uuid import UUID

from service.records.audit import audit_game
from service.kernel.errors import BadInput, IllegalDecision, UnknownGame
from service.kernel.machine import Machine
from service.kernel.games import get_rules
from service.kernel.seating import choosers
from service.simulate import bot_steps
from service.tournaments.rules import NAME, RULES
from service.tournaments.scoring import game_places
from service.tournaments.seating import table_sizes
from service.tournaments.state import active

if TYPE_CHECKING:
    from service.app import Privateer
    from service.kernel.events import Ev

# makes one table's game: (table, game, players by seat, table mode, name, tag, options) -> (its id, hex;
# anything the caller wants back for it)
TableMaker = Callable[[int, str, dict[str, str], bool, str, str, dict[str, str]], tuple[str, dict[str, Any]]]
Progress = Callable[[int, int], object]  # (done, total)

MODES = ("service", "table", "hand")  # how a table is played: through the service, refereed at a table, or by hand


class Organiser:
    def __init__(self, app: Privateer):
        self.app = app

    # making one ----------------------------------------------------------------------------------
    def new(self, game: str, *, table: int = 4, rounds: int = 3, points: str = "4,2,1,0",
            tiebreaks: str = "opponents,score,openskill", bye: int | None = None,
            game_options: dict[str, Any] | None = None, name: str = "", seed: bytes | None = None) -> UUID:
        options = {"game": game, "table": str(table), "rounds": str(rounds), "points": points,
                   "tiebreaks": tiebreaks or "none"}
        if bye is not None:
            options["bye"] = str(bye)
        options.update({f"game.{k}": str(v) for k, v in (game_options or {}).items()})
        return self.app.create(NAME, 1, options=options, name=name, seed=seed)

    # reading one ---------------------------------------------------------------------------------
    def machine(self, tid: UUID) -> tuple[Machine, int]:
        try:
            game = self.app.load(tid)
        except UnknownGame:
            game = None
        if game is None or game.machine.config["game"] != NAME:
            # (a game's id is not told apart from no history at all: a private fork stays unknown)
            raise UnknownGame(f"no tournament with id {tid.hex}")
        return game.machine, game.version

    def resolve(self, text: str) -> UUID:
        """A tournament's id, or a unique prefix of 6 or more characters of one (only
        tournaments are looked among: a prefix says nothing of the games)."""
        key = (text or "").strip().lower().replace("-", "")
        if len(key) < 6 or not all(ch in "0123456789abcdef" for ch in key):
            raise BadInput(f"a tournament id is 32 hexadecimal characters (a unique prefix of 6 or more will do; "
                           f"`tools tournament list` lists them), not {text!r}")
        found = [r["game_id"] for r in self.app.recorder.select_games(prefix=key) if r["game"] == NAME]
        if len(found) > 1:
            raise BadInput(f"tournament id prefix {text!r} is ambiguous ({len(found)} tournaments)")
        if not found:
            raise UnknownGame(f"no tournament with id {text}")
        tid = UUID(found[0])
        self.machine(tid)
        return tid

    def view(self, tid: UUID) -> dict[str, Any]:
        """The tournament as everyone may see it: its settings, players, rounds (each table's
        game and result), each closed round's standings and the standings as they stand now."""
        m, version = self.machine(tid)
        cfg = m.config
        state = m.state
        out = RULES.view(state, None)
        out.update({"tournament_id": tid.hex, "name": cfg.get("name", ""), "version": version,
                    "settings": cfg["options"], "standings": RULES.standings(state, cfg["options"]),
                    "tag": tag_of(tid, cfg), "next_round": None})
        if "seat" in out["next"]:  # the tables the next round would have
            sizes, byes = table_sizes(len(active(state)), cfg["options"]["sizes"], cfg["options"]["table"])
            out["next_round"] = {"round": state["turn"] + 1, "tables": sizes, "byes": byes}
        return out

    def tournaments(self) -> list[dict[str, Any]]:
        return [r for r in self.app.recorder.select_games() if r["game"] == NAME]

    # the organiser's decisions -------------------------------------------------------------------
    def decide(self, tid: UUID, decision: dict[str, Any], expect_version: int | None = None) -> list[Ev]:
        self.machine(tid)
        return self.app.referee(tid, decision, expect_version)

    def register(self, tid: UUID, player: str) -> list[Ev]:
        return self.decide(tid, {"referee": "register", "player": player})

    def drop(self, tid: UUID, player: str, reason: str = "") -> list[Ev]:
        return self.decide(tid, {"referee": "drop", "player": player, "reason": reason})

    def seat(self, tid: UUID, modes: dict[int, str] | None = None, make: TableMaker | None = None) -> dict[str, Any]:
        """Seat the next round and make its tables' games. ``modes``: by table number, ``service``
        (the default), ``table`` or ``hand``. ``make(table, game, players_by_seat, table_mode, name,
        tag, options)``: makes one table's game and returns its id (hex) and anything the caller
        wants back for it (the HTTP service's referee key and seat links); by default
        ``Privateer.create``."""
        modes = {int(k): v for k, v in (modes or {}).items()}
        bad = [v for v in modes.values() if v not in MODES]
        if bad:
            raise BadInput(f"a table is played {', '.join(MODES)}; not {bad[0]!r}")
        m, _ = self.machine(tid)
        o = m.config["options"]
        tables = len(table_sizes(len(active(m.state)), o["sizes"], o["table"])[0])
        if any(n < 1 or n > tables for n in modes):  # (refused before the round is seated)
            raise BadInput(f"round {m.state['turn'] + 1} would have tables 1 to {tables}")
        self.decide(tid, {"referee": "seat"})
        m, _ = self.machine(tid)
        cfg = m.config
        rnd = m.state["rounds"][-1]
        made: dict[int, dict[str, Any]] = {}
        linked: dict[str, dict[str, str]] = {}
        for t in rnd["tables"]:
            mode = modes.get(t["table"], "service")
            if mode == "hand":
                continue
            players = {str(i): p for i, p in enumerate(t["players"], 1)}
            name = f"{cfg.get('name') or 'tournament ' + tid.hex[:8]}: round {rnd['round']}, table {t['table']}"
            gid, extra = (make or self._make)(t["table"], o["game"], players, mode == "table", name,
                                              tag_of(tid, cfg), o["game_options"])
            linked[str(t["table"])] = {"game_id": gid, "mode": mode}
            made[t["table"]] = {"table": t["table"], "game_id": gid, "mode": mode, "players": t["players"], **extra}
        if linked:
            self.decide(tid, {"referee": "link", "tables": linked})
        for t in rnd["tables"]:
            made.setdefault(t["table"], {"table": t["table"], "game_id": None, "mode": "hand",
                                         "players": t["players"]})
        return {"round": rnd["round"], "tables": [made[n] for n in sorted(made)], "byes": rnd["byes"]}

    def _make(self, table: int, game: str, players: dict[str, str], table_mode: bool, name: str, tag: str,
              options: dict[str, str]) -> tuple[str, dict[str, Any]]:
        gid = self.app.create(game, len(players), table=table_mode, options=options, name=name, tournament=tag,
                              players=players)
        return gid.hex, {}

    def result_by_hand(self, tid: UUID, table: int, places: dict[str, int], reason: str,
                       scores: dict[str, int] | None = None) -> list[Ev]:
        decision: dict[str, Any] = {"referee": "result", "table": table, "places": places, "reason": reason}
        if scores is not None:
            decision["scores"] = scores
        return self.decide(tid, decision)

    def result_from_game(self, tid: UUID, table: int) -> list[Ev]:
        """Record table ``table``'s result from its finished game (of the open round)."""
        m, _ = self.machine(tid)
        rnd = m.state["rounds"][-1] if m.state["rounds"] else None
        if rnd is None or rnd["closed"]:
            raise IllegalDecision("no round is open: seat the next round first")
        if not isinstance(table, int) or not 1 <= table <= len(rnd["tables"]):
            raise BadInput(f"round {rnd['round']} has tables 1 to {len(rnd['tables'])}")
        t = rnd["tables"][table - 1]
        if not t["game_id"]:
            raise IllegalDecision(f"table {table} plays no game of the service: enter its result by hand, "
                                  "with the reason")
        decision = self._from_game(t)
        if decision is None:
            raise IllegalDecision(f"table {table}'s game {t['game_id']} is not finished")
        decision["table"] = table
        return self.decide(tid, decision)

    def _from_game(self, t: dict[str, Any]) -> dict[str, Any] | None:
        game = self.app.load(UUID(t["game_id"]))
        k = game.machine.kernel_state
        if not k["finished"]:
            return None
        names = game.machine.config.get("players") or {}
        by_seat = {str(i): p for i, p in enumerate(t["players"], 1)}
        if {s: names.get(s) for s in by_seat} != by_seat:
            raise IllegalDecision(f"game {t['game_id']}'s seats are not table {t['table']}'s players")
        result = k["result"]
        return {"referee": "result", "game_id": t["game_id"],
                "scores": {by_seat[s]: v for s, v in result["scores"].items()},
                "winners": [by_seat[str(w)] for w in result["winners"]]}

    def collect(self, tid: UUID) -> list[int]:
        """Record the result of every finished game of the open round not recorded yet; returns their tables."""
        m, _ = self.machine(tid)
        rnd = m.state["rounds"][-1] if m.state["rounds"] else None
        done: list[int] = []
        if rnd is None or rnd["closed"]:
            return done
        for t in rnd["tables"]:
            if t["result"] is None and t["game_id"]:
                decision = self._from_game(t)
                if decision is not None:
                    decision["table"] = t["table"]
                    self.decide(tid, decision)
                    done.append(t["table"])
        return done

    def close(self, tid: UUID) -> list[Ev]:
        self.collect(tid)
        return self.decide(tid, {"referee": "close"})

    def finish(self, tid: UUID) -> list[Ev]:
        return self.decide(tid, {"referee": "finish"})

    def standings(self, tid: UUID, round_: int | None = None) -> list[dict[str, Any]]:
        """The standings now (live: every result so far), or as round ``round_`` closed them."""
        m, _ = self.machine(tid)
        if round_ is None:
            return RULES.standings(m.state, m.config["options"])
        rounds = m.state["rounds"]
        if not 1 <= round_ <= len(rounds) or not rounds[round_ - 1]["closed"]:
            closed = [str(r["round"]) for r in rounds if r["closed"]]
            raise BadInput(f"round {round_} is not closed (closed: {', '.join(closed) or 'none'})")
        return rounds[round_ - 1]["standings"]

    # evidence ------------------------------------------------------------------------------------
    def audit(self, tid: UUID, progress: Progress | None = None) -> dict[str, Any]:
        """The tournament's own audit (chain, chance, every step re-run: the seating recomputed),
        each table's game's, and each result read from a game checked against that game."""
        m, _ = self.machine(tid)
        own = audit_game(self.app, tid)
        games: list[dict[str, Any]] = []
        findings: list[str] = []
        tables = [(r["round"], t) for r in m.state["rounds"] for t in r["tables"]]
        for n, (number, t) in enumerate(tables):
            where = f"round {number}, table {t['table']}"
            if t["game_id"]:
                try:
                    report = audit_game(self.app, UUID(t["game_id"])).as_dict()
                except UnknownGame:
                    report = {"game_id": t["game_id"], "ok": False,
                              "first_bad": {"reason": "the game is not in this store"}}
                games.append({"round": number, "table": t["table"], **report})
                if not report["ok"]:
                    findings.append(f"{where}: game {t['game_id']}: {report['first_bad']['reason']}")
                elif t["result"] and t["result"].get("game_id"):
                    expected = self._from_game(t)
                    if expected is None:
                        findings.append(f"{where}: a result from game {t['game_id']}, which is not finished")
                    elif t["result"]["places"] != game_places(expected["scores"], expected["winners"]) or \
                            t["result"]["scores"] != expected["scores"]:
                        findings.append(f"{where}: the result recorded is not game {t['game_id']}'s")
            if progress is not None:
                progress(n + 1, len(tables))
        bad = own.first_bad
        if not own.ok and bad is not None:
            findings.insert(0, f"tournament: event {bad['version']} ({bad['type']}): {bad['reason']}")
        return {"tournament_id": tid.hex, "ok": own.ok and not findings, "tournament": own.as_dict(),
                "games": games, "findings": findings}

    # bots ----------------------------------------------------------------------------------------
    def play_with_bots(self, gid: str, rng: random.Random, bot: str | list[str] = "random") -> int:
        """Play a stored game of the service to its end, every seat a bot; returns its decisions.
        Each step is recorded and its head signed as it is made, as through ``tools act``; the
        steps are written together, in one transaction, when the game ends (a bot's evening
        need not wait for the disk at each move)."""
        game = self.app.load(UUID(gid))
        m = game.machine
        choose = choosers(get_rules(m.config["game"]), bot, m.kernel_state["seats"])
        signer = self.app.signer
        signed: list[tuple[Any, ...]] = []
        for _ in bot_steps(game, self.app.chance_for(game), choose, rng):
            signed.append(signer.head_row(game.id, game.version, game.head))
        if signed:
            self.app.save_game(game, signatures=signed[:-1])  # (the last step's head: signed by the save)
        return len(signed)


def tag_of(tid: UUID, cfg: dict[str, Any]) -> str:
    """The tournament tag its tables' games carry (``tools standings --tournament``): its name, else its id."""
    return cfg.get("name") or tid.hex


def derived_seed(seed: str, *parts: object) -> bytes:
    return hashlib.sha256(":".join(map(str, (seed, *parts))).encode()).digest()


def simulate(app: Privateer, game: str, players: int, rounds: int, seats: int, seed: str, *,
             bot: str | list[str] = "random",
             points: str = "4,2,1,0", tiebreaks: str = "opponents,score,openskill", name: str = "",
             game_options: dict[str, Any] | None = None, progress: Progress | None = None) -> dict[str, Any]:
    """A whole tournament played by bots, stored: ``players`` registered (``player 01``, ...),
    each round seated, every table's game played through the service by bots and its result
    collected, the round closed; then finished. The same ``seed``, the same tournament (tables,
    results, standings; only the games' ids differ). ``progress(done, total)``: after each game."""
    if players < 2:
        raise BadInput("a tournament needs at least 2 players")
    desk = Organiser(app)
    tid = desk.new(game, table=seats, rounds=rounds, points=points, tiebreaks=tiebreaks, name=name,
                   game_options=game_options, seed=derived_seed(seed, "tournament"))
    width = len(str(players))
    for i in range(1, players + 1):
        desk.register(tid, f"player {i:0{width}d}")
    out: list[dict[str, Any]] = []
    total = done = 0
    for number in range(1, rounds + 1):
        seated = desk.seat(tid, make=_seeded_maker(app, seed, number))
        if number == 1:
            total = len(seated["tables"]) * rounds  # (the tables of later rounds are as many)
        for t in seated["tables"]:
            desk.play_with_bots(t["game_id"], random.Random(derived_seed(seed, "bots", number, t["table"])), bot)
            done += 1
            if progress is not None:
                progress(done, max(total, done))
        desk.close(tid)
        view = desk.view(tid)
        rnd = view["rounds"][-1]
        out.append({"round": number, "byes": rnd["byes"],
                    "tables": [{"table": t["table"], "game_id": t["game_id"], "players": t["players"],
                                "places": t["result"]["places"], "points": t["result"]["points"]}
                               for t in rnd["tables"]]})
    desk.finish(tid)
    return {"tournament_id": tid.hex, "game": game, "players": players, "seats": seats, "rounds": out,
            "standings": desk.standings(tid, rounds)}


def _seeded_maker(app: Privateer, seed: str, number: int) -> TableMaker:
    """Makes a table's game with a seed derived from the run's (the same run, the same games)."""
    def make(table: int, game: str, players: dict[str, str], table_mode: bool, name: str, tag: str,
             options: dict[str, str]) -> tuple[str, dict[str, Any]]:
        gid = app.create(game, len(players), table=table_mode, options=options, name=name, tournament=tag,
                         players=players, seed=derived_seed(seed, "game", number, table))
        return gid.hex, {}
    return make

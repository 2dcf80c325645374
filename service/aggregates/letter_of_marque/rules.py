"""Letter of Marque (Bruno Faidutti): the decider.

Decisions (JSON objects, exactly as ``legal`` lists them):

* ``{"action": "place", "armed": true|false}`` put a ship from your reserve on
  the treasure you have just drawn (the preliminary turn, all seats at once, in
  secret; and the second half of a launch);
* ``{"action": "launch"}`` draw your top treasure card and reveal it; you
  then ``place`` a ship on it;
* ``{"action": "return", "ship": "red-2"}`` bring one of your ships home;
* ``{"action": "attack", "ship": "blue-1"}`` spend a cannon card on an
  opponent's ship at sea;
* ``{"action": "pass"}`` only with an empty treasure deck and no ship at sea.

Ships at sea are named ``<colour>-<n>``: the n-th ship that colour launched.
"""

from __future__ import annotations

from operator import itemgetter

from service.kernel import BadInput, IllegalDecision, Rules

from . import catalog as catalog_data
from . import position as stated_position
from .state import HANDLERS, deck_name, game_over, initial_state
from .view import describe, view
from .words import deck_said

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    from typing import Any

    from service.kernel.machine import Step

    from .state import Ship, State


def _place_options(state: State, seat: int) -> list[dict[str, Any]]:
    reserve = state["players"][seat - 1]["reserve"]
    out = []
    if reserve["armed"] > 0:
        out.append({"action": "place", "armed": True})
    if reserve["unarmed"] > 0:
        out.append({"action": "place", "armed": False})
    return out


class LetterOfMarque(Rules):
    name = "letter-of-marque"
    title = "Letter of Marque"
    options_said = {"colours": "the colour each seat chose, seat 1 first: red,blue,green"}
    rules_version = "2"  # 2: the tie-break counts the score pile's cannon cards and is recorded; colours chosen
    min_seats = 2
    max_seats = 6

    def parse_options(self, seats: int, options: dict[str, str]) -> dict[str, Any]:
        """``colours=yellow,red,...``: the colour each seat chose, seat 1 first
        (the book: "ogni giocatore sceglie un colore"); default red, blue, green,
        yellow, black, white in seat order."""
        options = dict(options)
        raw = options.pop("colours", None)
        if options:
            raise BadInput(f"letter-of-marque takes only the option colours=... (got {', '.join(options)})")
        if raw is None:
            return {}
        chosen = [c.strip().lower() for c in str(raw).split(",") if c.strip()]
        known = catalog_data.load()["colours"]["value"]
        if len(chosen) != seats:
            raise BadInput(f"colours takes one colour per seat ({seats}), seat 1 first, got {len(chosen)}")
        unknown = [c for c in chosen if c not in known]
        if unknown:
            raise BadInput(f"no colour {unknown[0]!r} (colours: {', '.join(known)})")
        if len(set(chosen)) != len(chosen):
            raise BadInput("each seat takes a different colour")
        return {"colours": chosen}

    def catalog(self, options: dict[str, Any]) -> dict[str, Any]:
        return catalog_data.load()

    def validate_catalog(self, cat: dict[str, Any]) -> dict[str, Any]:
        return catalog_data.validate(cat)

    initial_state = staticmethod(initial_state)

    # evolve as a table: the kernel calls each event's handler straight
    handlers = {**HANDLERS, **stated_position.HANDLERS}

    # who acts -------------------------------------------------------------
    turn = staticmethod(itemgetter("turn"))  # the state's own count, read for every event

    def say_deck(self, config: dict[str, Any] | None, deck: str) -> str:
        return deck_said(deck)

    def to_act(self, state: State) -> list[int]:
        phase = state["phase"]
        if phase == "preliminary":
            return sorted(state["placing"])
        if phase == "play" and (state["sea"] or not game_over(state)):  # (a ship at sea: the game goes on)
            return [state["current"]]  # type: ignore[list-item]  # (set from the first turn on)
        return []

    def legal(self, state: State, seat: int) -> list[dict[str, Any]]:
        phase = state["phase"]
        if phase == "preliminary":
            return _place_options(state, seat) if seat in state["placing"] else []
        if phase != "play" or seat != state["current"]:
            return []
        if seat in state["placing"]:  # the second half of a launch
            return _place_options(state, seat)
        p = state["players"][seat - 1]
        out = [{"action": "launch"}] if p["deck"] else []
        sea = state["sea"]
        own = False
        for s in sea:  # the seat's own ships may return to port
            if s["owner"] == seat:
                out.append({"action": "return", "ship": s["id"]})
                own = True
        if p["cannons"] > 0:
            for s in sea:
                if s["owner"] != seat:
                    out.append({"action": "attack", "ship": s["id"]})
        # an empty deck and no ship at sea: a pass, unless the game is over (then nothing)
        if not own and not p["deck"] and not game_over(state):
            out.append({"action": "pass"})
        return out

    # the steps ------------------------------------------------------------
    def position(self, config: dict[str, Any], position: dict[str, Any]) -> dict[str, Any]:
        """A stated position checked and normalised (position.py, docs/positions.md)."""
        return stated_position.normalise(config, position)

    def setup(self, step: Step) -> None:
        state = step.state
        if state.get("position") is not None:   # a game from a stated position
            stated_position.lay(step)
            return
        step.emit("PlayersSeated", {"colours": {str(i + 1): p["colour"] for i, p in enumerate(state["players"])}})
        for i, p in enumerate(state["players"]):
            step.emit("TreasureDeckShuffled", {"seat": i + 1, "cards": len(p["deck"])})
        step.emit("PreliminaryTurnStarted", {})
        # Simultaneously, every player draws the top card of their treasure deck, face up.
        for i, p in enumerate(state["players"]):
            step.draw(deck_name(p["colour"]), p["deck"], vis="all", why=f"seat {i + 1}'s first treasure")

    def decide(self, step: Step, seat: int, decision: dict[str, Any]) -> None:
        state = step.state
        action = decision.get("action")
        if seat in state["placing"]:
            if action != "place":
                raise IllegalDecision("you have drawn a treasure: place a ship on it ({\"action\": \"place\", \"armed\": ...})")
            self._place(step, seat, decision)
            return
        handler = self.ACTIONS.get(action)  # type: ignore[arg-type]  # (any value: None for another)
        if handler is None:
            raise IllegalDecision(f"unknown action {action!r}: launch, return, attack or pass")
        handler(self, step, seat, decision)

    def _place(self, step: Step, seat: int, decision: dict[str, Any]) -> None:
        state = step.state
        armed = decision.get("armed")
        if not isinstance(armed, bool) or len(decision) != 2:  # (its "action" is "place": ``decide``)
            raise IllegalDecision('place takes {"action": "place", "armed": true|false}')
        p = state["players"][seat - 1]
        if p["reserve"]["armed" if armed else "unarmed"] == 0:
            raise IllegalDecision(f"you have no {'armed' if armed else 'unarmed'} ship left in your reserve")
        ship = f"{p['colour']}-{p['launched'] + 1}"
        step.emit("ShipLaunched", {"seat": seat, "ship": ship, "treasure": p["drawn"]})
        step.emit("ShipBaseChosen", {"ship": ship, "armed": armed}, vis=[seat])
        if state["phase"] == "preliminary":
            if not state["placing"]:
                self._first_turn(step)
        else:
            self._end_turn(step, seat)

    def _first_turn(self, step: Step) -> None:
        state = step.state
        step.emit("PreliminaryTurnEnded", {})
        lowest = min(s["treasure"] for s in state["sea"])
        tied = sorted(s["owner"] for s in state["sea"] if s["treasure"] == lowest)
        if len(tied) > 1:
            first = step.pick(tied, why=f"first player among seats tied on the lowest treasure ({lowest})")
        else:
            first = tied[0]
        step.emit("TurnStarted", {"seat": first}, turn=1)

    def _launch(self, step: Step, seat: int, decision: dict[str, Any]) -> None:
        state = step.state
        p = state["players"][seat - 1]
        if len(decision) != 1:  # (its "action" is "launch": ``decide``)
            raise IllegalDecision('launch takes no arguments: {"action": "launch"}')
        if not p["deck"]:
            raise IllegalDecision("your treasure deck is empty: no ship can leave")
        step.draw(deck_name(p["colour"]), p["deck"], vis="all", why=f"seat {seat} launches a ship")

    def _own_ship(self, state: State, seat: int, decision: dict[str, Any], verb: str) -> Ship:
        ship_id = decision.get("ship")
        if not isinstance(ship_id, str) or len(decision) != 2:  # (its "action" is the verb: ``decide``)
            raise IllegalDecision(f'{verb} takes {{"action": "{verb}", "ship": "<ship id>"}}')
        for s in state["sea"]:
            if s["id"] == ship_id:
                return s
        raise IllegalDecision(f"there is no ship {ship_id!r} at sea")

    def _return(self, step: Step, seat: int, decision: dict[str, Any]) -> None:
        ship = self._own_ship(step.state, seat, decision, "return")
        if ship["owner"] != seat:
            raise IllegalDecision(f"ship {ship['id']} is not yours")
        step.emit("ShipReturned", {"seat": seat, "ship": ship["id"], "treasure": ship["treasure"]})
        self._end_turn(step, seat)

    def _attack(self, step: Step, seat: int, decision: dict[str, Any]) -> None:
        state = step.state
        ship = self._own_ship(state, seat, decision, "attack")
        if ship["owner"] == seat:
            raise IllegalDecision("you may only attack an opponent's ship")
        attacker = state["players"][seat - 1]
        if attacker["cannons"] == 0:
            raise IllegalDecision("a player without cannon cards cannot attack")
        defender = ship["owner"]
        step.emit("ShipAttacked", {"attacker": seat, "defender": defender, "ship": ship["id"]})
        armed = ship["armed"]
        step.emit("ShipRevealed", {"ship": ship["id"], "armed": armed})
        if armed:
            step.emit("AttackRepelled", {"attacker": seat, "defender": defender, "ship": ship["id"],
                      "cannon": attacker["colour"]})
        else:
            step.emit("TreasurePlundered", {"attacker": seat, "defender": defender, "ship": ship["id"],
                      "treasure": ship["treasure"]})
        self._end_turn(step, seat)

    def _pass(self, step: Step, seat: int, decision: dict[str, Any]) -> None:
        state = step.state
        p = state["players"][seat - 1]
        if len(decision) != 1:  # (its "action" is "pass": ``decide``)
            raise IllegalDecision('pass takes no arguments: {"action": "pass"}')
        if p["deck"] or any(s["owner"] == seat for s in state["sea"]):
            raise IllegalDecision("you may pass only with an empty treasure deck and no ship at sea")
        step.emit("Passed", {"seat": seat})
        self._end_turn(step, seat)

    ACTIONS = {"launch": _launch, "return": _return, "attack": _attack, "pass": _pass}  # the play turn's

    def _end_turn(self, step: Step, seat: int) -> None:
        state = step.state
        step.emit("TurnEnded", {"seat": seat})
        if state["sea"] or not game_over(state):  # (a ship at sea: the game goes on)
            seats = len(state["players"])
            step.emit("TurnStarted", {"seat": seat % seats + 1}, turn=state["turn"] + 1)

    # end ------------------------------------------------------------------
    finished = staticmethod(game_over)

    def outcome(self, state: State) -> dict[str, Any]:
        """Most points wins; a tie goes to the most cannon cards, then the
        victory is shared (RULINGS.md: which cannon cards count)."""
        scores: dict[int, int] = {}
        cannons: dict[int, int] = {}
        v1 = state.get("rules_version", "1") == "1"
        for i, p in enumerate(state["players"]):
            scores[i + 1] = sum(p["treasures"]) + len(p["captured"])
            # version 1 also counted the unused cards in hand
            cannons[i + 1] = (p["cannons"] if v1 else 0) + len(p["captured"])
        best = max(scores.values())
        tied = [s for s in scores if scores[s] == best]
        most = max(cannons[s] for s in tied)
        winners = [s for s in tied if cannons[s] == most]
        out = {"scores": {str(s): v for s, v in scores.items()}, "winners": winners,
               "cannon_cards": {str(s): v for s, v in cannons.items()}}
        if not v1 and len(tied) > 1:
            out["tiebreak"] = {
                "tied": tied, "rule": "most cannon cards in the score pile, then a shared victory",
                "cannon_cards": {str(s): cannons[s] for s in tied},
                "shared": len(winners) > 1,
            }

        return out

    view = staticmethod(view)
    describe = staticmethod(describe)


RULES = LetterOfMarque()

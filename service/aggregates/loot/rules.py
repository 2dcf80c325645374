"""Loot (Reiner Knizia): the decider.

One action per turn, each a decision (JSON object, exactly as ``legal`` lists it):

* ``{"action": "draw"}`` take a card from the draw pile;
* ``{"action": "merchant", "card": "merchant-5a"}`` put a merchant ship to sea;
* ``{"action": "pirate", "card": "blue-4a", "merchant": "merchant-5a"}`` attack a
  merchant in play, or strengthen your attack on it;
* ``{"action": "captain", "card": "blue-captain", "merchant": "merchant-5a"}`` play a
  captain on a merchant where your side played that colour's pirate in an earlier turn;
* ``{"action": "admiral", "merchant": "merchant-5a"}`` defend your own (pairs: or your
  partner's) merchant;
* ``{"action": "discard", "card": "blue-1a"}`` only once the draw pile is empty; never
  a merchant.

Before each turn's action the rules check captures for the seat whose turn starts
(pairs: only for the team's first player); that happens as the tail of the previous
step, so the log reads: action, ``TurnStarted``, ``MerchantCaptured``...
"""

from __future__ import annotations

from operator import itemgetter

from service.kernel import BadInput, IllegalDecision, Rules

from . import catalog as catalog_data
from . import position as stated_position
from .cards import ADMIRAL, CAPTAIN, MERCHANT, PIRATE, copies, gold, info
from .state import (DRAW_PILE, HANDLERS, attack_of, battle, captures, game_over, hand_vis,
                    initial_state, side_of)
from .view import describe, view

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    from typing import Any

    from service.kernel.machine import Step

    from .state import Battle, State

TRUE, FALSE = {"true", "yes", "1", "on"}, {"false", "no", "0", "off"}


def _args(decision: dict, keys: tuple, form: str) -> None:
    if set(decision) != {"action", *keys}:
        raise IllegalDecision(f"{decision.get('action')} takes {form}")
    for k in keys:
        if not isinstance(decision[k], str):
            raise IllegalDecision(f"{decision.get('action')} takes {form}")


def _in_hand(state: State, seat: int, card: str, what: str) -> None:
    if card not in state["hands"][seat - 1]:
        raise IllegalDecision(f"you have no {card!r} in your hand")
    if info(card)[0] != what:
        raise IllegalDecision(f"{card!r} is not a {what} card")


def _battle(state: State, merchant: str) -> Battle:
    b = battle(state, merchant)
    if b is None:
        raise IllegalDecision(f"there is no merchant ship {merchant!r} in play")
    return b


def pirate_allowed(state: State, side: int, b: Battle, colour: str) -> str | None:
    """Why ``side`` may not add a ``colour`` pirate to battle ``b`` (None: it may)."""
    mine = attack_of(b, side)
    if mine is not None:
        if mine["colour"] != colour:
            return (f"your side attacks {b['merchant']} in {mine['colour']}: you may only "
                    f"strengthen that colour")
        return None
    for a in b["attacks"]:
        if a["colour"] == colour:
            return f"{colour} is already used on {b['merchant']}: a further attacker needs an unused colour"
    return None


def _fronts(sea: list[Battle], side: int) -> list[tuple[str, str | None, set[str]]]:
    """Each merchant at sea as ``side`` may attack it: ``(merchant, the colour
    side attacks it in or None, the colours on it)``; a pirate may go where it
    is side's colour, or, where side has no attack yet, an unused colour
    (``pirate_allowed``)."""
    out = []
    for b in sea:
        mine, used = None, set()
        for a in b["attacks"]:
            used.add(a["colour"])
            if a["side"] == side:
                mine = a["colour"]
        out.append((b["merchant"], mine, used))
    return out


class Loot(Rules):
    name = "loot"
    title = "Loot"
    options_said = {"pairs": "true: the pairs game for 4, 6 or 8 players (teams of two)"}
    rules_version = "2"  # 2: in pairs the first seat of each pair checks captures, whoever deals
    min_seats = 2
    max_seats = 8

    # configuration --------------------------------------------------------
    def parse_options(self, seats: int, options: dict[str, str]) -> dict[str, Any]:
        options = dict(options)
        raw = options.pop("pairs", "false")
        if options:
            raise BadInput(f"loot takes only the option pairs=true|false (got {', '.join(options)})")
        text = str(raw).strip().lower()
        if text not in TRUE | FALSE:
            raise BadInput(f"pairs must be true or false, not {raw!r}")
        pairs = text in TRUE
        if pairs and seats not in (4, 6, 8):
            raise BadInput(f"the pairs game is for 4, 6 or 8 players, not {seats}")
        if not pairs and not 2 <= seats <= 5:
            raise BadInput(f"the individual game is for 2 to 5 players, not {seats} "
                           "(use --option pairs=true for 4, 6 or 8)")
        return {"pairs": pairs}

    def catalog(self, options: dict[str, Any]) -> dict[str, Any]:
        return catalog_data.load()

    def validate_catalog(self, cat: dict[str, Any]) -> dict[str, Any]:
        """An organiser's catalog file (``tools new --catalog``)."""
        return catalog_data.validate(cat)

    def copies(self, config: dict[str, Any]) -> dict[str, Any]:
        """The merchant ships of one gold and the pirate ships of one colour and skulls:
        ``merchant-5a`` and ``merchant-5b`` look the same (cards.py, ``copies``)."""
        cat = config.get("catalog")  # (none in a search's playout machine, which nobody reads)
        return copies(cat, config.get("catalog_digest")) if cat else {}

    initial_state = staticmethod(initial_state)

    # evolve as a table: the kernel calls each event's handler straight
    handlers = {**HANDLERS, **stated_position.HANDLERS}

    def decision_visibility(self, state: State, seat: int, decision: dict[str, Any]) -> str:
        return "all"  # every action is played face up; drawn cards are hidden in CardDrawn

    # who acts -------------------------------------------------------------
    turn = staticmethod(itemgetter("turn"))  # the state's own count, read for every event

    def to_act(self, state: State) -> list[int]:
        if state["phase"] == "play":
            return [state["current"]]  # type: ignore[list-item]  # (set from the first turn on)
        return []

    def legal(self, state: State, seat: int) -> list[dict[str, Any]]:
        if state["phase"] != "play" or seat != state["current"]:
            return []
        side = side_of(state, seat)
        pile = state["pile"]
        out = [{"action": "draw"}] if pile else []
        sea = state["sea"]
        fronts = _fronts(sea, side)
        for card in state["hands"][seat - 1]:
            k, colour, _ = info(card)
            if k == MERCHANT:
                out.append({"action": "merchant", "card": card})
                continue
            if k == PIRATE:
                for m, mine, used in fronts:
                    if colour == mine if mine else colour not in used:
                        out.append({"action": "pirate", "card": card, "merchant": m})
            elif k == CAPTAIN:
                for m, mine, _ in fronts:
                    if mine == colour:
                        out.append({"action": "captain", "card": card, "merchant": m})
            else:  # the Admiral: on a merchant of the seat's own side
                for b in sea:
                    if b["side"] == side:
                        out.append({"action": "admiral", "merchant": b["merchant"]})
            if not pile:
                out.append({"action": "discard", "card": card})
        return out

    # the steps ------------------------------------------------------------
    def position(self, config: dict[str, Any], position: dict[str, Any]) -> dict[str, Any]:
        """A stated position checked and normalised (position.py, docs/positions.md)."""
        return stated_position.normalise(config, position)

    def setup(self, step: Step) -> None:
        state = step.state
        if state.get("position") is not None:   # a game from a stated position
            self._start_turn(step, *stated_position.lay(step))
            return
        n = state["seats"]
        dealer = step.pick(list(range(1, n + 1)), why="the dealer")
        first = dealer % n + 1
        order = [(first - 1 + i) % n + 1 for i in range(n)]
        if state["pairs"] and state.get("fixed_checkers"):
            checkers = list(range(1, n, 2))  # 1, 3, 5, 7: the first player of each pair, whoever deals
        elif state["pairs"]:  # rules version 1: the partner who took the team's first turn
            checkers, seen = [], set()
            for s in order:
                if side_of(state, s) not in seen:
                    seen.add(side_of(state, s))
                    checkers.append(s)
        else:
            checkers = order
        step.emit("DealerChosen", {"dealer": dealer, "first": first, "checkers": sorted(checkers),
                  "teams": [[s, s + 1] for s in range(1, n, 2)] if state["pairs"] else None})
        for _ in range(state["hand_size"]):
            for s in order:
                self._take(step, s, f"deal to seat {s}")
        self._start_turn(step, first, 1)

    def decide(self, step: Step, seat: int, decision: dict[str, Any]) -> None:
        handler = self.ACTIONS.get(decision.get("action"))  # type: ignore[arg-type]  # (any value: None for another)
        if handler is None:
            raise IllegalDecision(f"unknown action {decision.get('action')!r}: "
                                  "draw, merchant, pirate, captain, admiral or discard")
        handler(self, step, seat, decision)
        self._end_turn(step, seat)

    def _take(self, step: Step, seat: int, why: str) -> None:
        step.emit("CardTaken", {"seat": seat})
        step.draw(DRAW_PILE, step.state["pile"], vis=hand_vis(step.state, seat), why=why)

    # each action: its checks run only for a decision the kernel has not
    # already found among the listed ones (``step.checked``), then its event
    def _draw(self, step: Step, seat: int, d: dict[str, Any]) -> None:
        if not step.checked:
            _args(d, (), '{"action": "draw"}')
            if not step.state["pile"]:
                raise IllegalDecision("the draw pile is empty: play or discard a card")
        self._take(step, seat, f"seat {seat} draws")

    def _merchant(self, step: Step, seat: int, d: dict[str, Any]) -> None:
        state = step.state
        if not step.checked:
            _args(d, ("card",), '{"action": "merchant", "card": "<merchant card>"}')
            _in_hand(state, seat, d["card"], MERCHANT)
        card = d["card"]
        step.emit("MerchantPlayed", {"seat": seat, "side": side_of(state, seat), "card": card,
                  "gold": gold(card)})

    def _pirate(self, step: Step, seat: int, d: dict[str, Any]) -> None:
        state = step.state
        side = side_of(state, seat)
        if not step.checked:
            _args(d, ("card", "merchant"), '{"action": "pirate", "card": "<pirate card>", "merchant": "<merchant>"}')
            _in_hand(state, seat, d["card"], PIRATE)
            why = pirate_allowed(state, side, _battle(state, d["merchant"]), info(d["card"])[1])
            if why:
                raise IllegalDecision(why)
        card, merchant = d["card"], d["merchant"]
        _, colour, skulls = info(card)
        a = attack_of(_battle(state, merchant), side)
        step.emit("PiratePlayed", {"seat": seat, "side": side, "card": card, "merchant": merchant,
                  "colour": colour, "skulls": skulls, "strength": skulls + (a["skulls"] if a else 0)})

    def _captain(self, step: Step, seat: int, d: dict[str, Any]) -> None:
        state = step.state
        side = side_of(state, seat)
        if not step.checked:
            _args(d, ("card", "merchant"), '{"action": "captain", "card": "<captain>", "merchant": "<merchant>"}')
            _in_hand(state, seat, d["card"], CAPTAIN)
            colour = info(d["card"])[1]
            a = attack_of(_battle(state, d["merchant"]), side)
            if a is None or a["colour"] != colour:
                who = "your team" if state["pairs"] else "you"
                raise IllegalDecision(f"the {colour} captain may only go on a merchant where {who} "
                                      f"played a {colour} pirate in an earlier turn")
        card = d["card"]
        step.emit("CaptainPlayed", {"seat": seat, "side": side, "card": card, "merchant": d["merchant"], "colour": info(card)[1]})

    def _admiral(self, step: Step, seat: int, d: dict[str, Any]) -> None:
        state = step.state
        side = side_of(state, seat)
        if not step.checked:
            _args(d, ("merchant",), '{"action": "admiral", "merchant": "<merchant>"}')
            if ADMIRAL not in state["hands"][seat - 1]:
                raise IllegalDecision("you do not hold the Admiral")
            if _battle(state, d["merchant"])["side"] != side:
                whose = "your own or your partner's" if state["pairs"] else "your own"
                raise IllegalDecision(f"the Admiral may only defend {whose} merchant ship")
        step.emit("AdmiralPlayed", {"seat": seat, "side": side, "card": ADMIRAL, "merchant": d["merchant"]})

    def _discard(self, step: Step, seat: int, d: dict[str, Any]) -> None:
        state = step.state
        if not step.checked:
            _args(d, ("card",), '{"action": "discard", "card": "<card>"}')
            card = d["card"]
            if card not in state["hands"][seat - 1]:
                raise IllegalDecision(f"you have no {card!r} in your hand")
            if info(card)[0] == MERCHANT:
                raise IllegalDecision("a merchant ship may never be discarded")
            if state["pile"]:
                raise IllegalDecision("you may discard only once the draw pile is empty")
        step.emit("CardDiscarded", {"seat": seat, "card": d["card"]})

    ACTIONS = {"draw": _draw, "merchant": _merchant, "pirate": _pirate, "captain": _captain,
               "admiral": _admiral, "discard": _discard}

    # turns ----------------------------------------------------------------
    def _end_turn(self, step: Step, seat: int) -> None:
        state = step.state
        if game_over(state):
            left = []
            for b in state["sea"]:
                left += [b["merchant"]] + [c for a in b["attacks"] for c in a["cards"]] + b["specials"]
            step.emit("GameEnded", {"reason": "the draw pile is empty and a player has played their last card"
                      if not state["pairs"] else
                      "the draw pile is empty and both partners of a team have played their last card",
                      "discarded": left})
            return
        n = state["seats"]
        nxt = seat
        for _ in range(n):
            nxt = nxt % n + 1
            self._start_turn(step, nxt, state["turn"] + 1)
            if state["hands"][nxt - 1] or state["pile"]:
                return
            step.emit("TurnSkipped", {"seat": nxt, "reason": "no cards left and the draw pile is empty"})
        raise AssertionError("no seat can act, but the game did not end")

    def _start_turn(self, step: Step, seat: int, turn: int) -> None:
        state = step.state
        step.emit("TurnStarted", {"seat": seat}, turn=turn)
        if seat not in state["checkers"]:
            return
        side = side_of(state, seat)
        for b in captures(state["sea"], side):
            cards = [c for a in b["attacks"] for c in a["cards"]] + b["specials"]
            step.emit("MerchantCaptured", {"seat": seat, "side": side, "merchant": b["merchant"], "gold": b["gold"],
                      "owner": b["owner"], "discarded": cards,
                      "how": "unattacked" if not cards else ("with " + b["top"]["card"] if b["top"] else "most skulls")})

    # end ------------------------------------------------------------------
    def finished(self, state: State) -> bool:
        return state["phase"] == "over"

    def outcome(self, state: State) -> dict[str, Any]:
        n = state["seats"]
        own = {}
        for s in range(1, n + 1):
            won = sum(gold(c) for c in state["captured"][s - 1])
            held = sum(gold(c) for c in state["hands"][s - 1])
            own[s] = {"captured": won, "in_hand": held, "score": won - held}
        if state["pairs"]:
            teams = {t: sum(own[s]["score"] for s in (2 * t - 1, 2 * t)) for t in range(1, n // 2 + 1)}
            best = max(teams.values())
            scores = {str(s): teams[side_of(state, s)] for s in own}
            winners = [s for s in own if teams[side_of(state, s)] == best]
            return {"scores": scores, "winners": winners, "players": {str(s): v for s, v in own.items()},
                    "teams": {str(t): {"seats": [2 * t - 1, 2 * t], "score": v} for t, v in teams.items()}}
        best = max(v["score"] for v in own.values())
        return {"scores": {str(s): v["score"] for s, v in own.items()},
                "winners": [s for s, v in own.items() if v["score"] == best],
                "players": {str(s): v for s, v in own.items()}}

    view = staticmethod(view)
    describe = staticmethod(describe)


RULES = Loot()

__all__ = ["RULES", "Loot"]

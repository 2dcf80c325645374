"""Dice Race: seat 1 or 2 (chosen by chance at the setup) rolls first; on its
turn a seat rolls one die and moves that far, or two dice and moves their sum
unless either shows a 1 (then it stays). The first to reach 20 wins."""

from __future__ import annotations

from service.kernel.errors import IllegalDecision
from service.kernel.rules import Rules, by_seat, winners_said

GOAL = 20
DECISIONS = [{"action": "roll", "dice": 1}, {"action": "roll", "dice": 2}]


def turn_started(state, data, ev):
    state["next"] = data["seat"]
    state["turn"] = ev.turn


def moved(state, data, ev):
    state["at"][str(data["seat"])] = data["at"]
    state["last"] = data["dice"]
    state["next"] = None


def random_bot(state, seat, legal, rng):
    return rng.choice(legal)


class DiceRaceRules(Rules):
    name = "dice-race"
    title = "Dice Race"
    min_seats = 2
    max_seats = 2
    bots = {"random": random_bot}
    handlers = {"TurnStarted": turn_started, "Moved": moved}

    def initial_state(self, config):
        return {"turn": 0, "at": {"1": 0, "2": 0}, "next": None, "last": []}

    def setup(self, step):
        seat = step.pick([1, 2], why="who rolls first")
        step.emit("TurnStarted", {"seat": seat}, "all", 1)

    def decide(self, step, seat, decision):
        if decision not in DECISIONS:
            raise IllegalDecision('roll 1 or 2 dice: {"action": "roll", "dice": 1}')
        dice = step.roll(6, decision["dice"], why=f"seat {seat} rolls")
        at = step.state["at"][str(seat)]
        by = 0 if len(dice) == 2 and 1 in dice else sum(dice)
        step.emit("Moved", {"seat": seat, "dice": dice, "by": by, "at": min(GOAL, at + by)})
        if not self.finished(step.state):
            step.emit("TurnStarted", {"seat": 3 - seat}, "all", step.state["turn"] + 1)

    def legal(self, state, seat):
        return [dict(d) for d in DECISIONS] if seat in self.to_act(state) else []

    def to_act(self, state):
        return [] if self.finished(state) or state["next"] is None else [state["next"]]

    def finished(self, state):
        return GOAL in state["at"].values()

    def outcome(self, state):
        return {"scores": dict(state["at"]), "winners": [int(s) for s, at in state["at"].items() if at == GOAL]}

    def view(self, state, seat):
        return {"at": dict(state["at"]), "goal": GOAL, "last": list(state["last"])}

    def describe(self, ev):
        d = ev.data
        if ev.type == "Moved":
            return f"seat {d['seat']} rolls {d['dice']} and moves {d['by']} to {d['at']}"
        if ev.type == "GameFinished":
            return f"{winners_said(d['winners'])} ({by_seat(d['scores'])})"
        return super().describe(ev)


RULES = DiceRaceRules()

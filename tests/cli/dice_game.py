"""A tiny game for kernel tests: the setup rolls 2d6 (6 is a skull) and a d10."""

from service.kernel.games import Registration
from service.kernel.rules import Rules


class DiceRules(Rules):
    name = "dice-test"
    min_seats = 1
    max_seats = 1

    def initial_state(self, config):
        return {"turn": 0, "total": 0, "done": False}

    def setup(self, step):
        a = step.roll(6, 2, why="two dice", faces={"skull": 6})
        b = step.roll(10, 1, why="a d10")
        step.emit("Totalled", {"total": sum(a) + sum(b)})

    def evolve(self, state, ev):
        if ev.type == "Totalled":
            state["total"] = ev.data["total"]
            state["done"] = True

    def legal(self, state, seat):
        return []

    def to_act(self, state):
        return []

    def finished(self, state):
        return False

    def view(self, state, seat):
        return dict(state)


RULES = DiceRules()

# registered through PRIVATEER_GAMES=tests.cli.dice_game (no drawing of its table)
GAME = Registration("dice-test", __name__, text="", svg="", help="1 seat")

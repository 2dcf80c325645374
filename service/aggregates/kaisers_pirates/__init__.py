"""The Kaiser's Pirates: decisions (``rules.py``), rounds and turns (``flow.py``),
attacks with their assist and reaction windows (``combat.py``), the dice and each
reaction's effect (``resolve.py``), the other action cards (``actions.py``), state
and events (``state.py``), table questions and dice rules (``board.py``), seat
views (``view.py``), card data (``data/catalog.json``, ``catalog.py``), the team
game (``team.py``), the referee's 3.1.5 penalty (``penalty.py``), type-strict
decisions (``strict.py``), readings of the book (``RULINGS.md``)."""

from .bots import BOTS
from .rules import RULES
from .words import say_decision

RULES.bots = BOTS
RULES.say_decision = say_decision

__all__ = ["RULES"]

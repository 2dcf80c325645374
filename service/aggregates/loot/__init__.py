"""Loot: rules (``rules.py``), state and events (``state.py``), cards
(``cards.py``), seat views (``view.py``), card data (``data/catalog.json``),
bots (``bots.py``), readings of the book (``RULINGS.md``)."""

from .rules import RULES
from .view import say_event
from .words import say_choices, say_decision

RULES.bots_module = __name__ + ".bots"  # imported when a bot is first asked for
RULES.say_decision = say_decision
RULES.say_choices = say_choices  # a function of its own, as say_decision
RULES.say_event = say_event

__all__ = ["RULES"]

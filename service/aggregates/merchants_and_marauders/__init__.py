"""Merchants & Marauders, part 1 (the Caribbean, captains, ships and trade):
rules (``rules.py``, ``port.py``, ``flow.py``), state and events (``state.py``),
seat views (``view.py``), card data (``catalog.py`` + ``data/catalog.json``),
bots (``bots.py``), readings of the book (``RULINGS.md``)."""

from .bots import BOTS
from .rules import RULES
from .words import say_decision

RULES.bots = BOTS
RULES.say_decision = say_decision

__all__ = ["RULES"]

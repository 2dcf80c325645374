"""Loot: rules (``rules.py``), state and events (``state.py``), cards
(``cards.py``), seat views (``view.py``), card data (``data/catalog.json``),
bots (``bots.py``), readings of the book (``RULINGS.md``)."""

from .bots import BOTS
from .rules import RULES

RULES.bots = BOTS

__all__ = ["RULES"]

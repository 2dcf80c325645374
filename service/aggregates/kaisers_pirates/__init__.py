"""The Kaiser's Pirates: rules (``rules.py``: decisions; ``flow.py``: rounds and
turns; ``combat.py``: attacks, reactions, dice; ``actions.py``: the other
action cards), state and events (``state.py``), table questions and dice
rules (``board.py``), seat views (``view.py``), card data
(``data/catalog.json``, ``catalog.py``), readings of the book (``RULINGS.md``)."""

from .bots import BOTS
from .rules import RULES

RULES.bots = BOTS

__all__ = ["RULES"]

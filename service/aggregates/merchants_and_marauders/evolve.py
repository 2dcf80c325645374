"""Merchants & Marauders ``evolve``, as the table of handlers the kernel folds
each event through (``Rules.handlers``): one event applied to the table. The handlers
live beside what they change: ``state.py`` (set-up, the turn, ports and trade, the
sea, NPCs, war, rumors and missions) and ``evolve_combat.py`` (fights and glory
windows)."""

from __future__ import annotations

from .evolve_combat import HANDLERS as _FIGHTS
from .state import HANDLERS as _TABLE

HANDLERS = {**_TABLE, **_FIGHTS}


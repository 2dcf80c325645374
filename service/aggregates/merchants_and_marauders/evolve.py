"""Merchants & Marauders ``evolve``, as the table of handlers the kernel folds each event
through (``Rules.handlers``): one event applied to the table. Each module applies the
events it decides (its ``APPLY``); this gathers them, refusing an event two modules
claim."""

from __future__ import annotations

from . import (boarding, captains, combat, effects, flow, glory, mechanics, npc, port, position, raid, referee, sailing,
               scout, setup, shipyard, tasks, wanted, war)

MODULES = (mechanics, setup, captains, flow, sailing, wanted, war, effects, tasks, port, shipyard, raid, scout, npc,
           glory, combat, boarding, position, referee)


def _gathered() -> dict:
    out: dict = {}
    for module in MODULES:
        twice = out.keys() & module.APPLY.keys()
        if twice:
            raise RuntimeError(f"merchants-and-marauders: events applied twice: {sorted(twice)}")
        out.update(module.APPLY)
    return out


HANDLERS = _gathered()

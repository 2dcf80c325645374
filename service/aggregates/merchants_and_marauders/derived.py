"""Tables derived once from a catalog's tables (``catalog.tables``) for the hot
paths of ``legal`` and the steps: what the rules would otherwise sort or search
again at every step. They are keyed like the tables (``state["cat"]``) and built
from the tables a game reads, never from a catalog, so they always agree with them.
"""

from __future__ import annotations

from .catalog import tables
from .war import man_o_war

_DERIVED: dict[str, dict] = {}


def derived(state: dict) -> dict:
    try:
        return _DERIVED[state["cat"]]
    except KeyError:
        return _DERIVED.setdefault(state["cat"], build(tables(state)))


def build(S: dict) -> dict:
    mow = {}
    for e in S["events"].values():      # an NPC icon moves its nation's Man-o-War too (the first card naming it)
        if e.get("npc") and e.get("nation") and e["npc"] not in mow:
            mow[e["npc"]] = man_o_war(e["nation"])
    return {
        "neighbours": {z: sorted(adj) for z, adj in S["adj"].items()},   # a zone's neighbours, sorted
        "man_o_war_of_icon": mow,
    }

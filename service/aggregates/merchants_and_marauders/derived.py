"""Tables derived once from a catalog's tables (``catalog.tables``) for the hot
paths of ``legal`` and the steps: what the rules would otherwise sort or search
again at every step. They are keyed like the tables (``state["cat"]``) and built
from the tables a game reads, never from a catalog, so they always agree with them.
"""

from __future__ import annotations


from .catalog import tables

TYPE_CHECKING = False   # (the imports below are the type checker's: none at run time)
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

MAN_O_WAR = "man_o_war_"   # a war's Man-o-War at sea is the NPC ``man_o_war_<nation>`` (war.py)

_DERIVED: dict[str, dict] = {}

SHIP_STATS = ("hull", "masts", "toughness", "cargo", "crew", "cannons", "maneuver")


def man_o_war(nation: str) -> str:
    return MAN_O_WAR + nation


def is_man_o_war(npc: str) -> bool:
    return npc.startswith(MAN_O_WAR)


def derived(state: Mapping[str, Any]) -> dict[str, Any]:
    try:
        return _DERIVED[state["cat"]]
    except KeyError:
        return _DERIVED.setdefault(state["cat"], build(tables(state)))


def build(S: dict) -> dict:
    """The derived tables of the catalog tables ``S``."""
    stat_max = S["rules"]["stat_max"]
    mow = {}
    for e in S["events"].values():      # an NPC icon moves its nation's Man-o-War too (the first card naming it)
        if e.get("npc") and e.get("nation") and e["npc"] not in mow:
            mow[e["npc"]] = man_o_war(e["nation"])
    return {
        "neighbours": {z: sorted(adj) for z, adj in S["adj"].items()},   # a zone's neighbours, sorted
        # where an NPC icon's letter leads from each zone (npc._by_letter): {zone: {letter: (zone, letter used)}}
        "by_letter": {z: {letter: _by_letter(S, z, letter) for letter in S["compass"]} for z in S["adj"]},
        "man_o_war_of_icon": mow,
        "weapon_kinds": sorted(S["weapons"]),     # the special weapons, in the order the shipyard offers them
        # a ship type's value for every stat, before upgrades (hull and masts: its toughness)
        "ship_maxima": {t: {stat: min(ship["toughness" if stat in ("hull", "masts") else stat], stat_max)
                            for stat in SHIP_STATS} for t, ship in S["ships"].items()},
    }


def _by_letter(S: dict, zone: str, letter: str) -> tuple:
    """The zone across the border with ``letter``, else the next letter clockwise (the
    zone itself and None when it has no border at all)."""
    compass = S["compass"]
    start = compass.index(letter)
    for k in range(len(compass)):
        d = compass[(start + k) % len(compass)]
        for z, dd in sorted(S["adj"][zone].items()):
            if dd == d:
                return z, d
    return zone, None

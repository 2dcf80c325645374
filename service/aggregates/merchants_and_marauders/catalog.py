"""Merchants & Marauders card data, read from ``data/catalog.json`` (or an organiser's
file; catalog_checks.py checks it), and the tables derived from it.

Every top-level entry is ``{"value": ..., "source": "rulebook"|"reference"|"provisional",
"note": ...}``; list entries (zones, captains, cards) may carry their own
``source``. ``static(cat)`` derives the compact tables the rules keep in the
state (so a state restored on its own still has what ``legal`` needs).
"""

from __future__ import annotations

import json
from pathlib import Path

import msgpack

from service.kernel.copies import kinds_of
from service.kernel.errors import BadInput
from service.kernel.sha import sha256

TYPE_CHECKING = False   # (the imports below are the type checker's: none at run time)
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

PATH = Path(__file__).with_name("data") / "catalog.json"
SOURCES = {"rulebook", "reference", "provisional"}
KEYS = ("dice", "rules", "nations", "compass", "zones", "borders", "hit_die", "ships", "captains",
        "goods", "cargo_cards", "demand_tiles", "upgrades", "special_weapons", "merchant_tokens",
        "events", "glory_cards", "rumors", "missions")
SKILLS = ("seamanship", "scouting", "leadership", "influence")
STATS = ("toughness", "cargo", "crew", "cannons", "maneuver")
UPGRADE_KINDS = {"extra_hammocks", "better_rigging", "reinforced_hull", "extended_hold", "bow_cannon",
                 "extra_cannons", "swivel_gun", "long_range"}
ZONE_KINDS = ("none", "buy_price", "pirate_entry", "transfer_upgrades")   # read by port.py, shipyard.py, wanted.py
SHIP_TYPES = ("sloop", "flute", "frigate", "galleon", "man_o_war")
COUNTS = {"zones": 17, "captains": 16, "cargo_cards": 64, "demand_tiles": 24, "upgrades": 16,
          "merchant_tokens": 17, "events": 34, "glory_cards": 70, "rumors": 25, "missions": 25}


class TablesChanged(ValueError):
    """A state derived from other tables than this catalog's (a snapshot of an older
    build): it cannot be used; fold the game from its events."""


def read(path: Path | None = None) -> dict:
    """The catalog file as it is (the default one without ``path``); catalog_checks.py
    checks it (``load``, ``validate``)."""
    try:
        return json.loads((path or PATH).read_text())
    except (OSError, ValueError) as e:
        raise BadInput(f"merchants-and-marauders catalog unreadable: {e}") from None


def _reverse(compass: list[str], d: str) -> str:
    return compass[(compass.index(d) + len(compass) // 2) % len(compass)]


def static(cat: dict[str, Any]) -> dict[str, Any]:
    """The compact tables the rules need, derived from the catalog."""
    v = {k: cat[k]["value"] for k in KEYS}
    compass = v["compass"]
    adj: dict[str, dict[str, str]] = {z["id"]: {} for z in v["zones"]}
    for a, b, d in v["borders"]:
        adj[a][b] = d
        adj[b][a] = _reverse(compass, d)
    return {
        "rules": dict(v["rules"]),
        "success_from": v["dice"]["success_from"], "die_sides": v["dice"]["sides"],
        "zones": {z["id"]: {"name": z["name"], "port": bool(z["port"]), "nation": z["nation"],
                            "special": z["special"]} for z in v["zones"]},
        "zone_order": [z["id"] for z in v["zones"]],
        "ports": [z["id"] for z in v["zones"] if z["port"]],
        "adj": adj,
        "ships": {t: {k: s[k] for k in (*STATS, "buy", "sell", "for_sale", "glory_on_buy", "starting", "name")}
                  for t, s in v["ships"].items()},
        "captains": {c["id"]: {"name": c["name"], "home": c["home"], "abilities": list(c.get("abilities", [])),
                               **{sk: c[sk] for sk in SKILLS}} for c in v["captains"]},
        "good": {c["id"]: c["good"] for c in v["cargo_cards"]},
        "cargo": {c["id"]: {"good": c["good"], "raid": c["raid"], "icon": c["icon"]} for c in v["cargo_cards"]},
        "goods": list(v["goods"]),
        "demand": {t["id"]: t["good"] for t in v["demand_tiles"]},
        "upgrade": {u["id"]: u["kind"] for u in v["upgrades"]},
        # the tiles' names as printed (the book's list of "Modificações"); the kind's words otherwise
        "upgrade_name": {u["id"]: u.get("name") or u["kind"].replace("_", " ").capitalize() for u in v["upgrades"]},
        "weapons": dict(v["special_weapons"]),
        "merchant": {m["id"]: m["nation"] for m in v["merchant_tokens"]},
        "hit_die": dict(v["hit_die"]),
        "compass": list(compass),
        "events": {e["id"]: {"name": e["name"], "kind": e["kind"], "npc_icons": e.get("npc_icons", []),
                             "effect": e.get("effect", "none"),
                             **{k: e[k] for k in ("npc", "zone", "ship", "captain", "nation") if k in e}}
                   for e in v["events"]},
        "glory": {g["id"]: {"name": g["name"], "kind": g["kind"], "timing": g.get("timing", "own_turn"),
                            "specialist": g.get("specialist"), "hire_cost": g.get("hire_cost", 0),
                            "requires": list(g.get("requires", [])), "abilities": list(g.get("abilities", [])),
                            "effect": g.get("effect", "none")}
                  for g in v["glory_cards"]},
        # the timings of the glory cards that do something: a phase no card names opens no window
        "glory_phases": sorted({g["effect"]["timing"] for g in v["glory_cards"] if g.get("effect", "none") != "none"}),
        "rumors": {r["id"]: {"name": r["name"], "keep": bool(r.get("keep")), "skill": r.get("skill"),
                             "location": r.get("location"), "effect": r.get("effect", "none")} for r in v["rumors"]},
        "missions": {m["id"]: {"name": m["name"], "location": m["location"], "complete": m.get("complete")}
                     for m in v["missions"]},
        # by deck, the cards whose printed name other cards share though they differ: what tells them apart
        "marks": {deck: marks(v[key], {z["id"]: z["name"] for z in v["zones"]}, name)
                  for deck, key, name in (("events", "events", "name"), ("glory", "glory_cards", "name"),
                                          ("cargo", "cargo_cards", "good"), ("rumors", "rumors", "name"),
                                          ("missions", "missions", "name"), ("captains", "captains", "name"))},
    }


# what a card's face says beyond its name, field by field, in a referee's words
_NOT_ON_THE_FACE = ("id", "name", "source", "note")


# ``json.dumps(obj, sort_keys=True)``, its encoder made once (``dumps`` makes one a call
# when given any option)
_sorted_json = json.JSONEncoder(sort_keys=True).encode


def _face(card: dict, name_key: str) -> dict:
    return {k: v for k, v in card.items() if k != name_key and k not in _NOT_ON_THE_FACE
            and not k.endswith(("_source", "_note"))}


_FIRST = ("captain", "raid", "icon", "effect", "zone", "npc_icons")   # the words' order: the most telling first
_NATIONS = {"spanish", "english", "french", "dutch"}


def _npc(npc: str) -> str:
    first, _, rest = npc.partition("_")
    return " ".join([first.capitalize() if first in _NATIONS else first, *rest.split("_")]).strip()


def _said(key: str, value: Any, zones: dict[str, str]) -> str:
    if key == "captain" and isinstance(value, dict):
        return value.get("name", "a captain")
    if key == "zone":
        return f"enters at {zones.get(value, value)}"
    if key == "npc_icons":
        return ("NPC icons " + ", ".join(f"{_npc(i['npc'])} {i['dir']}" for i in value)) if value \
            else "no NPC icons"
    if key == "raid":
        return f"raid {value}"
    if key == "icon":
        return value.replace("hit:", "hit on the ") if value != "escape" else "escape"
    if key == "effect" and isinstance(value, dict):
        wars = [s for s in value.get("steps", []) if s.get("do") == "war"]
        if wars:
            return "war between " + " and ".join(n.capitalize() for n in wars[0].get("nations", []))
        return f"its text ({value.get('timing', '')})"
    return f"{key.replace('_', ' ')} {json.dumps(value) if not isinstance(value, (str, int)) else value}"


def _differ(values: list) -> bool:
    """Whether ``values`` are not all one as JSON says them (``_sorted_json``); text, whole
    numbers and nulls compared as they are (JSON says two of them alike only when they are
    of one type and equal)."""
    first = values[0]
    t = type(first)
    if t is str or t is int or first is None:
        for v in values:
            if type(v) is not t or v != first:
                return True
        return False
    return len({_sorted_json(v) for v in values}) > 1


def marks(cards: list, zones: dict, name_key: str) -> dict:
    """For each card that shares its printed name with cards that differ from it, what tells
    it apart, from the fields that differ in its name's group (card id -> words): the
    admiral and entry zone of a Dutch Naval Ship, the raid value and icon of a rum card.
    Cards identical but for their id get the same words (or none): they are interchangeable."""
    groups: dict = {}
    for c in cards:
        groups.setdefault(c[name_key], []).append(c)
    out = {}
    for group in groups.values():
        if len(group) < 2:  # a name no other card prints: nothing to tell apart (its face is not read)
            continue
        faces = [_face(c, name_key) for c in group]
        if all(f == faces[0] for f in faces):
            continue
        every = dict.fromkeys([*_FIRST, *(k for f in faces for k in f)])
        keys = [k for k in every if _differ([f.get(k) for f in faces])]
        said = {c["id"]: "; ".join(_said(k, f.get(k), zones) for k in keys) for c, f in zip(group, faces)}
        seen: dict = {}
        for c, f in zip(group, faces):
            seen.setdefault(said[c["id"]], set()).add(_sorted_json(f))
        for c in group:             # words that would not tell two different faces apart: the id too
            out[c["id"]] = said[c["id"]] if len(seen[said[c["id"]]]) == 1 else f"{said[c['id']]}; {c['id']}"
    return out


# the tables of the catalog whose cards (tiles, tokens) come in copies, each with the key of its printed name
_IN_COPIES = (("cargo_cards", "good"), ("demand_tiles", "good"), ("merchant_tokens", "nation"), ("upgrades", "kind"),
              ("events", "name"), ("glory_cards", "name"), ("rumors", "name"), ("missions", "name"),
              ("captains", "name"))
_COPIES: dict = {}


def copies(cat: dict, digest: str | None) -> dict:
    """The catalog's cards and tiles that come in copies with one face (two Carpenters, three
    cocoa demand tiles, five Spanish merchant tokens), as ``service.kernel.copies.kinds_of``
    gives them; ``digest``: the catalog's, what they are kept by."""
    found = _COPIES.get(digest)
    if found is None:
        v = {k: cat[k]["value"] for k, _ in _IN_COPIES}
        found = {}
        for key, name in _IN_COPIES:
            # a copy prints its name: only cards whose name another card prints can be copies (the
            # others are kinds of one, which ``kinds_of`` leaves out), so only their faces are made
            named: dict = {}
            for c in v[key]:
                named[c[name]] = named.get(c[name], 0) + 1
            faces = {c["id"]: _sorted_json({name: c[name], **_face(c, name)}) for c in v[key] if named[c[name]] > 1}
            found.update(kinds_of(faces, faces.get))
        if digest is not None and len(_COPIES) < 64:
            _COPIES[digest] = found
    return found


# the derived tables, shared by every game built on the same catalog -------------------
_TABLES: dict[str, dict] = {}


_REGISTERED: dict[bytes, str] = {}
# the catalog objects registered lately, by id, each kept (so its id is not reused) with its
# key: a game's config holds its catalog for the game's life, and its log's every line names
# through it (names.for_config): packing it again each time cost a millisecond a line
_OBJECTS: dict[int, tuple[dict, str]] = {}
MAX_OBJECTS = 256


def register(cat: dict) -> str:
    """Derive and cache the tables of ``cat``; the state keeps only the key.
    A catalog seen before (the same content, packed to the same bytes: every
    game on the default catalog) is derived once per process; the default
    catalog itself (``default_catalog``, the very object), and a catalog object
    registered lately (a game's, which nobody changes), are not even packed."""
    if _DEFAULT and cat is _DEFAULT[0][0] and _DEFAULT[0][1] in _TABLES:
        return _DEFAULT[0][1]
    seen = _OBJECTS.get(id(cat))
    if seen is not None and seen[0] is cat and seen[1] in _TABLES:
        return seen[1]
    key = _registered(cat)
    if len(_OBJECTS) >= MAX_OBJECTS:
        _OBJECTS.clear()
    _OBJECTS[id(cat)] = (cat, key)
    return key


# The default catalog's key, with the SHA-256 of data/catalog.json and of its content packed
# (``_registered``): a game on it (nearly every game) then needs neither the file parsed to
# compare keys (``default_key``) nor its tables hashed for a key, a tenth of what a replay
# (bench/replay_work.py) does beyond its imports. A changed file or ``static`` is derived as
# before; tests/merchants_and_marauders/test_catalog.py checks these against the derivation.
DEFAULT_FILE_SHA256 = "978043a0ec038ee7299af91bc4e92bf66202d00157ddb46a2c72f643e47d1794"
DEFAULT_CONTENT_SHA256 = "4a0994dd05c30ec1da75b7e914814cc177e8a25ef70c6292a1ea12c890b3dbe4"
DEFAULT_KEY = "605869b9780b62e9"


def _registered(cat: dict) -> str:
    content = msgpack.packb(cat, use_bin_type=True)
    key = _REGISTERED.get(content)
    if key is not None and key in _TABLES:
        return key
    S = static(cat)
    if sha256(content).hexdigest() == DEFAULT_CONTENT_SHA256:
        key = DEFAULT_KEY
    else:
        key = tables_key(S)
    _TABLES.setdefault(key, S)
    if len(_REGISTERED) < 64:
        _REGISTERED[content] = key
    return key


def tables_key(S: dict) -> str:
    """The key of the tables ``S`` (``static``): in the tables' own order (not sorted keys), so two
    catalogs that differ only in the order of a table (the ships, offered in that order) are two
    keys, never one game's tables for both."""
    return sha256(json.dumps(S, separators=(",", ":")).encode()).hexdigest()[:16]


_DEFAULT: list[tuple[dict, str]] = []   # the default catalog read once per process, and its key
_FILE_KNOWN: list[bool] = []   # whether data/catalog.json is the file DEFAULT_FILE_SHA256 names (read once)


def default_catalog() -> dict:
    """The default catalog, one object for the process that nobody changes: the
    rules' ``catalog`` (``Rules.shared_catalog``: every game is given it as it is;
    ``catalog_checks.default_catalog`` checks it once). Read as it is here: the tables
    of a state restored in a fresh process come from the same file."""
    if not _DEFAULT:
        cat = read()
        _DEFAULT.append((cat, register(cat)))
    return _DEFAULT[0][0]


def default_key() -> str:
    """The default catalog's key: ``DEFAULT_KEY`` when the file is the one it is known for,
    else the file read as a catalog (``default_catalog``)."""
    if not _DEFAULT:
        if not _FILE_KNOWN:
            try:
                _FILE_KNOWN.append(sha256(PATH.read_bytes()).hexdigest() == DEFAULT_FILE_SHA256)
            except OSError:   # said as the catalog unreadable (``read``)
                _FILE_KNOWN.append(False)
        if _FILE_KNOWN[0]:
            return DEFAULT_KEY
    default_catalog()
    return _DEFAULT[0][1]


def tables(state: Mapping[str, Any]) -> dict[str, Any]:
    """The tables of the state's catalog. A state restored without
    ``initial_state`` (a snapshot in a fresh process) finds the default
    catalog's tables by reloading it; a game on another catalog carries its
    tables in the state itself (``state["tables"]``)."""
    try:
        return _TABLES[state["cat"]]    # the hot path: called many times a step
    except KeyError:
        return _tables_missing(state)


def _tables_missing(state: Mapping[str, Any]) -> dict[str, Any]:
    if "tables" in state:
        return _TABLES.setdefault(state["cat"], state["tables"])
    if default_key() == state["cat"]:
        default_catalog()   # its tables (``default_key`` may know the key without them)
        return _TABLES[state["cat"]]
    raise RuntimeError("this game's catalog tables are not loaded: rebuild its state from GameCreated")

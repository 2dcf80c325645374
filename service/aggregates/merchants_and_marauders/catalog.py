"""Merchants & Marauders card data, loaded and validated from ``data/catalog.json``.

Every top-level entry is ``{"value": ..., "source": "rulebook"|"reference"|"provisional",
"note": ...}``; list entries (zones, captains, cards) may carry their own
``source``. ``static(cat)`` derives the compact tables the rules keep in the
state (so a state restored on its own still has what ``legal`` needs).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import msgpack

from service.kernel.errors import BadInput

PATH = Path(__file__).with_name("data") / "catalog.json"
SOURCES = {"rulebook", "reference", "provisional"}
KEYS = ("dice", "rules", "nations", "compass", "zones", "borders", "hit_die", "ships", "captains",
        "goods", "cargo_cards", "demand_tiles", "upgrades", "special_weapons", "merchant_tokens",
        "events", "glory_cards", "rumors", "missions")
SKILLS = ("seamanship", "scouting", "leadership", "influence")
STATS = ("toughness", "cargo", "crew", "cannons", "maneuver")
UPGRADE_KINDS = {"extra_hammocks", "better_rigging", "reinforced_hull", "extended_hold", "bow_cannon",
                 "extra_cannons", "swivel_gun", "long_range"}
ZONE_KINDS = ("none", "buy_price", "pirate_entry", "transfer_upgrades")   # read by port.py and wanted.py
SHIP_TYPES = ("sloop", "flute", "frigate", "galleon", "man_o_war")
COUNTS = {"zones": 17, "captains": 16, "cargo_cards": 64, "demand_tiles": 24, "upgrades": 16,
          "merchant_tokens": 17, "events": 34, "glory_cards": 70, "rumors": 25, "missions": 25}


class TablesChanged(ValueError):
    """A state derived from other tables than this catalog's (a snapshot of an older
    build): it cannot be used; fold the game from its events."""


def _fail(msg):
    raise BadInput(f"merchants-and-marauders catalog: {msg}")


def _ids(items, what):
    ids = [i.get("id") for i in items]
    if not all(isinstance(i, str) and i for i in ids) or len(set(ids)) != len(ids):
        _fail(f"every {what} needs a distinct string id")
    for i in items:
        if "source" in i and i["source"] not in SOURCES:
            _fail(f"{what} {i['id']!r} has a bad source {i['source']!r}")
    return ids


def validate(cat: dict) -> dict:
    if not isinstance(cat, dict):
        _fail("the file must hold a JSON object")
    for key in KEYS:
        entry = cat.get(key)
        if not isinstance(entry, dict) or "value" not in entry or entry.get("source") not in SOURCES:
            _fail(f"entry {key!r} needs a value and a source ({', '.join(sorted(SOURCES))})")
    v = {k: cat[k]["value"] for k in KEYS}
    for key, n in COUNTS.items():
        if not isinstance(v[key], list) or len(v[key]) != n:
            _fail(f"{key} must list {n} items (the rulebook's count)")
    nations = v["nations"]
    if sorted(nations) != ["england", "france", "netherlands", "spain"]:
        _fail("the four nations are spain, england, france, netherlands")
    zones = v["zones"]
    zids = _ids(zones, "zone")
    ports = [z for z in zones if z.get("port")]
    if len(ports) != 16:
        _fail("16 of the 17 zones have a port")
    for z in zones:
        if z.get("port") and z.get("nation") not in nations:
            _fail(f"port {z['id']!r} needs one of the four nations")
        if not isinstance(z.get("special"), dict) or "kind" not in z["special"]:
            _fail(f"zone {z['id']!r} needs a special rule (kind 'none' when unknown)")
        if z["special"]["kind"] not in ZONE_KINDS:
            _fail(f"zone {z['id']!r}: unknown special rule {z['special']['kind']!r} "
                  f"(known: {', '.join(ZONE_KINDS)})")
        if z["special"]["kind"] == "buy_price" and not isinstance(z["special"].get("pair_price"), int):
            _fail(f"zone {z['id']!r}: a buy_price rule needs its pair_price in coins")
        if z["special"]["kind"] == "pirate_entry" and not isinstance(z["special"].get("fee"), int):
            _fail(f"zone {z['id']!r}: a pirate entry needs its fee in coins")
    compass = v["compass"]
    if len(compass) not in (4, 8) or len(set(compass)) != len(compass):
        _fail("compass must list 4 or 8 distinct points, clockwise")
    seen = set()
    for b in v["borders"]:
        if not (isinstance(b, list) and len(b) == 3 and b[0] in zids and b[1] in zids and b[2] in compass
                and b[0] != b[1]):
            _fail(f"bad border {b!r}: [zone, zone, compass point]")
        pair = frozenset(b[:2])
        if pair in seen:
            _fail(f"border {b[0]}-{b[1]} listed twice")
        seen.add(pair)
    adj = {z: set() for z in zids}
    for a, b, _ in v["borders"]:
        adj[a].add(b)
        adj[b].add(a)
    reach, todo = {zids[0]}, [zids[0]]
    while todo:
        for n in adj[todo.pop()]:
            if n not in reach:
                reach.add(n)
                todo.append(n)
    if len(reach) != len(zids):
        _fail("the sea zones must all be connected")
    ships = v["ships"]
    if sorted(ships) != sorted(SHIP_TYPES):
        _fail(f"ships must be exactly {', '.join(SHIP_TYPES)}")
    for t, s in ships.items():
        for stat in STATS:
            if not isinstance(s.get(stat), int) or not 1 <= s[stat] <= 5:
                _fail(f"ship {t} needs {stat} from 1 to 5")
        if s.get("for_sale") and not (isinstance(s.get("buy"), int) and isinstance(s.get("sell"), int)):
            _fail(f"ship {t} is for sale: it needs buy and sell prices")
    if ships["man_o_war"].get("for_sale"):
        _fail("the Man-o-War is not for sale (rulebook)")
    if not any(s.get("starting") for s in ships.values()):
        _fail("at least one ship must be a starting choice")
    pids = {z["id"] for z in ports}
    _ids(v["captains"], "captain")
    for c in v["captains"]:
        if c.get("home") not in pids:
            _fail(f"captain {c['id']!r} needs a home port")
        for sk in SKILLS:
            if not isinstance(c.get(sk), int) or not 1 <= c[sk] <= 4:
                _fail(f"captain {c['id']!r} needs {sk} from 1 to 4")
        from .abilities import validate as valid_abilities
        valid_abilities(c["id"], c.get("abilities", []))
    goods = v["goods"]
    if len(goods) != 8 or len(set(goods)) != 8:
        _fail("there are 8 different goods")
    _ids(v["cargo_cards"], "cargo card")
    for c in v["cargo_cards"]:
        if c.get("good") not in goods or not isinstance(c.get("raid"), int) or not 1 <= c["raid"] <= 5:
            _fail(f"cargo card {c['id']!r} needs a good and a raid value 1..5")
    icons = {"escape"} | {f"hit:{k}" for k in ("hull", "masts", "cargo", "crew", "cannons")}
    for c in v["cargo_cards"]:
        if c.get("icon") not in icons:
            _fail(f"cargo card {c['id']!r}: icon must be one of {sorted(icons)}")
    if sum(1 for c in v["cargo_cards"] if c.get("icon") == "escape") != 32:
        _fail("half the cargo cards carry an escape icon (rulebook)")
    for e in v["events"]:
        if "npc" in e:          # an NPC card: where its ship enters, which ship, its captain
            cap = e.get("captain")
            if e.get("zone") not in zids or e.get("ship") not in v["ships"] or not isinstance(cap, dict) or \
                    not all(isinstance(cap.get(k), int) for k in ("seamanship", "scouting", "leadership")):
                _fail(f"event card {e['id']!r}: an NPC card needs a zone, a ship and its captain's "
                      "seamanship, scouting and leadership")
    npcs = {e["npc"] for e in v["events"] if "npc" in e}
    for e in v["events"]:       # the book's movement icons: an NPC and a letter N, S, E or W
        for icon in e.get("npc_icons", []):
            if not isinstance(icon, dict) or icon.get("npc") not in npcs or icon.get("dir") not in ("N", "E", "S", "W") \
                    or icon["dir"] not in compass:
                _fail(f"event card {e['id']!r}: a movement icon names an NPC of the event cards and a letter "
                      f"N, S, E or W of the compass, not {icon!r}")
    from .effects import validate as valid_effect
    for deck in ("events", "glory_cards"):
        for c in v[deck]:
            valid_effect(c["id"], c.get("effect", "none"), nations)
            for st in (c.get("effect") or {}).get("steps", []) if isinstance(c.get("effect"), dict) else []:
                if isinstance(st, dict) and st.get("do") == "war" and any(z not in zids for z in st["zones"].values()):
                    _fail(f"card {c['id']!r}: war: a Man-o-War's zone is not a sea zone")
    from .abilities import validate as valid_abilities, validate_requirements
    for g in v["glory_cards"]:          # a specialist: what it needs, what it gives while hired
        valid_abilities(g["id"], g.get("abilities", []), what="glory card")
        validate_requirements(g["id"], g.get("requires", []))
    _ids(v["demand_tiles"], "demand tile")
    if any(t.get("good") not in goods for t in v["demand_tiles"]):
        _fail("every demand tile shows one of the goods")
    _ids(v["upgrades"], "upgrade tile")
    if any(u.get("kind") not in UPGRADE_KINDS for u in v["upgrades"]):
        _fail(f"upgrade kinds are {', '.join(sorted(UPGRADE_KINDS))}")
    w = v["special_weapons"]
    if sorted(w) != ["chain_shot", "grape_shot", "grappling_hooks"] or sum(w.values()) != 12:
        _fail("12 special weapon tokens of the three kinds")
    _ids(v["merchant_tokens"], "merchant token")
    mcount = {}
    for m in v["merchant_tokens"]:
        mcount[m.get("nation")] = mcount.get(m.get("nation"), 0) + 1
    if mcount != {"spain": 5, "netherlands": 4, "france": 4, "england": 4}:
        _fail("merchant tokens: 5 Spanish, 4 Dutch, 4 French, 4 English (rulebook)")
    for key in ("events", "glory_cards", "rumors", "missions"):
        _ids(v[key], key)
        if any(not isinstance(c.get("name"), str) for c in v[key]):
            _fail(f"every card of {key} needs a name")
    for m in v["missions"]:
        if m.get("location") not in pids:
            _fail(f"mission {m['id']!r} needs a port location")
    from .tasks import validate_mission, validate_rumor
    for r in v["rumors"]:
        validate_rumor(r, set(zids), pids, nations)
    for m in v["missions"]:
        validate_mission(m, set(zids), pids, goods, nations)
    r = v["rules"]
    for k in ("glory_target", "start_gold", "glory_hand_limit", "actions", "buy_draw", "buy_draw_repeat",
              "sell_price", "sell_demand_price", "repair_price", "upgrade_price", "weapon_price",
              "recruit_price", "coins_total"):
        if not isinstance(r.get(k), int) or r[k] < 0:
            _fail(f"rules.{k} must be a whole number")
    for k in ("stash_gold_per_glory", "stash_glory_fraction"):     # divisors (state.stash_glory)
        if not isinstance(r.get(k), int) or isinstance(r[k], bool) or r[k] < 1:
            _fail(f"rules.{k} must be a whole number of at least 1 (the stash's glory divides by it), "
                  f"not {r.get(k)!r}")
    return cat


def load(path: Path | None = None) -> dict:
    try:
        data = json.loads((path or PATH).read_text())
    except (OSError, ValueError) as e:
        raise BadInput(f"merchants-and-marauders catalog unreadable: {e}") from None
    return validate(data)


def _reverse(compass, d):
    return compass[(compass.index(d) + len(compass) // 2) % len(compass)]


def static(cat: dict) -> dict:
    """The compact tables the rules need, derived from the catalog."""
    v = {k: cat[k]["value"] for k in KEYS}
    compass = v["compass"]
    adj = {z["id"]: {} for z in v["zones"]}
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
    }


# the derived tables, shared by every game built on the same catalog -------------------
_TABLES: dict[str, dict] = {}


_REGISTERED: dict[bytes, str] = {}


def register(cat: dict) -> str:
    """Derive and cache the tables of ``cat``; the state keeps only the key.
    A catalog seen before (the same content, packed to the same bytes: every
    game on the default catalog) is derived once per process; the default
    catalog itself (``default_catalog``, the very object) is not even packed."""
    if _DEFAULT and cat is _DEFAULT[0][0] and _DEFAULT[0][1] in _TABLES:
        return _DEFAULT[0][1]
    content = msgpack.packb(cat, use_bin_type=True)
    key = _REGISTERED.get(content)
    if key is not None and key in _TABLES:
        return key
    S = static(cat)
    # in the tables' own order (not sorted keys): two catalogs that differ only in the order
    # of a table (the ships, offered in that order) are two keys, never one game's tables for both
    key = hashlib.sha256(json.dumps(S, separators=(",", ":")).encode()).hexdigest()[:16]
    _TABLES.setdefault(key, S)
    if len(_REGISTERED) < 64:
        _REGISTERED[content] = key
    return key


_DEFAULT: list[tuple[dict, str]] = []   # the default catalog read once per process, and its key


def default_catalog() -> dict:
    """The default catalog, one object for the process that nobody changes: the
    rules' ``catalog`` (``Rules.shared_catalog``: every game is given it as it is)."""
    if not _DEFAULT:
        cat = load()
        _DEFAULT.append((cat, register(cat)))
    return _DEFAULT[0][0]


def default_key() -> str:
    default_catalog()
    return _DEFAULT[0][1]


def tables(state: dict) -> dict:
    """The tables of the state's catalog. A state restored without
    ``initial_state`` (a snapshot in a fresh process) finds the default
    catalog's tables by reloading it; a game on another catalog carries its
    tables in the state itself (``state["tables"]``)."""
    try:
        return _TABLES[state["cat"]]    # the hot path: called many times a step
    except KeyError:
        return _tables_missing(state)


def _tables_missing(state: dict) -> dict:
    if "tables" in state:
        return _TABLES.setdefault(state["cat"], state["tables"])
    if default_key() == state["cat"]:
        return _TABLES[state["cat"]]
    raise RuntimeError("this game's catalog tables are not loaded: rebuild its state from GameCreated")

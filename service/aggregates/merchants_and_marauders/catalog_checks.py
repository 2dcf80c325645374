# mypy: disable-error-code="valid-type"
# (the schema's field types are built at run time from the catalog's constants,
# ``Literal[ZONE_KINDS]``, ``_entry(Dice)``: pydantic reads them, a type checker cannot)
"""The checks a Merchants & Marauders catalog passes when it is loaded (the default one,
or an organiser's ``--catalog`` file): first its shape, as a schema (pydantic: every
entry with its value and source, the fields each item needs, their types and ranges,
the rulebook's counts), then the checks a schema does not express, each a small named
function (ids that refer to each other, the map, the rulebook's totals), and the
vocabularies: the card effects (effects.py), captains' and specialists' abilities
(abilities.py), rumors and missions (tasks.py). An unknown word, a bad value or a
broken reference is refused with a message naming the entry and what is wrong.

It sits above the phases whose vocabularies it checks; ``catalog.py`` (below
everything) only reads the file and derives the tables.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal, NoReturn

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from service.kernel.errors import BadInput

from . import catalog
from .abilities import validate as valid_abilities, validate_requirements
from .catalog import COUNTS, KEYS, SHIP_TYPES, SOURCES, UPGRADE_KINDS, ZONE_KINDS
from .effects import validate as valid_effect
from .tasks import validate_mission, validate_rumor


def _fail(msg: str) -> NoReturn:
    raise BadInput(f"merchants-and-marauders catalog: {msg}")


# the schema -------------------------------------------------------------------------------
Source = Literal["rulebook", "reference", "provisional"]
Id = Annotated[str, Field(min_length=1, description="a string id")]
Count = Annotated[int, Field(ge=0, description="a whole number")]
Divisor = Annotated[int, Field(ge=1, description="a whole number of at least 1 (the stash's glory divides by it)")]
Stat = Annotated[int, Field(ge=1, le=5, description="a whole number from 1 to 5")]
Skill = Annotated[int, Field(ge=1, le=4, description="a whole number from 1 to 4")]
ICONS = ("escape", "hit:hull", "hit:masts", "hit:cargo", "hit:crew", "hit:cannons")


class _Open(BaseModel):
    """An item: the fields below, checked strictly (``true`` is not 1), and any other
    (a note, a source, what a later rule reads)."""
    model_config = ConfigDict(extra="allow", strict=True)


class _Item(_Open):
    id: Id
    source: Source | None = None


class Dice(_Open):
    sides: Annotated[int, Field(ge=2)]
    success_from: Annotated[int, Field(ge=1)]


class RulesTable(_Open):
    glory_target: Count
    start_gold: Count
    glory_hand_limit: Count
    actions: Count
    buy_draw: Count
    buy_draw_repeat: Count
    sell_price: Count
    sell_demand_price: Count
    repair_price: Count
    upgrade_price: Count
    weapon_price: Count
    recruit_price: Count
    coins_total: Count
    stash_gold_per_glory: Divisor
    stash_glory_fraction: Divisor


class Special(_Open):
    kind: Literal[ZONE_KINDS]


class Zone(_Item):
    name: str
    port: bool
    nation: str | None = None
    special: Special


class Ship(_Open):
    toughness: Stat
    cargo: Stat
    crew: Stat
    cannons: Stat
    maneuver: Stat
    for_sale: bool = False
    starting: bool = False
    buy: int | None = None
    sell: int | None = None


class Captain(_Item):
    name: str
    home: str
    seamanship: Skill
    scouting: Skill
    leadership: Skill
    influence: Skill


class CargoCard(_Item):
    good: str
    raid: Stat
    icon: Literal[ICONS]


class DemandTile(_Item):
    good: str


class Upgrade(_Item):
    kind: Literal[tuple(sorted(UPGRADE_KINDS))]
    name: str | None = None     # as printed on the tile


class MerchantToken(_Item):
    nation: str


class Card(_Item):
    name: str


def _listed(model: type, key: str) -> Any:
    n = COUNTS[key]
    return Annotated[list[model], Field(min_length=n, max_length=n,
                                        description=f"a list of {n} items (the rulebook's count)")]


def _entry(value_type: Any) -> type:
    """A top-level entry: ``{"value": ..., "source": ..., "note": ...}``."""
    return type("Entry", (_Open,), {"__annotations__": {"value": value_type, "source": Source}})


class Catalog(BaseModel):
    model_config = ConfigDict(extra="allow", strict=True)
    dice: _entry(Dice)
    rules: _entry(RulesTable)
    nations: _entry(list[str])
    compass: _entry(list[str])
    zones: _entry(_listed(Zone, "zones"))
    borders: _entry(list[Any])
    hit_die: _entry(dict[str, str])
    ships: _entry(dict[str, Ship])
    captains: _entry(_listed(Captain, "captains"))
    goods: _entry(list[str])
    cargo_cards: _entry(_listed(CargoCard, "cargo_cards"))
    demand_tiles: _entry(_listed(DemandTile, "demand_tiles"))
    upgrades: _entry(_listed(Upgrade, "upgrades"))
    special_weapons: _entry(dict[str, int])
    merchant_tokens: _entry(_listed(MerchantToken, "merchant_tokens"))
    events: _entry(_listed(Card, "events"))
    glory_cards: _entry(_listed(Card, "glory_cards"))
    rumors: _entry(_listed(Card, "rumors"))
    missions: _entry(_listed(Card, "missions"))


def _where(cat: Any, loc: tuple[int | str, ...]) -> str:
    """A readable place for a schema error: ``rules.stash_glory_fraction``,
    ``captains[felipe].home``, ``ships.sloop.cargo`` (the entry's ``value`` left out)."""
    out, node = "", cat
    for i, part in enumerate(loc):
        if i == 1 and part == "value":
            node = node.get("value") if isinstance(node, dict) else None
            continue
        if isinstance(part, int):
            item = node[part] if isinstance(node, list) and part < len(node) else None
            name = item.get("id") if isinstance(item, dict) else None
            out += f"[{name if name else part}]"
            node = item
        else:
            out += ("." if out else "") + str(part)
            node = node.get(part) if isinstance(node, dict) else None
    return out


def _described(model: Any, loc: tuple[int | str, ...]) -> str | None:
    """The description of the field at ``loc`` in the schema ``model``, if it has one."""
    description = None
    for part in loc:
        fields = getattr(model, "model_fields", None)
        if fields is None or part not in fields:        # a list's index or a dict's key: its items
            model = next((a for a in getattr(model, "__args__", ()) if hasattr(a, "model_fields")), model)
            description = None
            continue
        info = fields[part]
        description, model = info.description, info.annotation
    return description


def schema(cat: dict) -> None:
    """The catalog's shape (``Catalog``); the first error, said plainly."""
    try:
        Catalog.model_validate(cat)
    except ValidationError as e:
        err = e.errors()[0]
        loc, given = err["loc"], err.get("input")
        if len(loc) == 1 or (len(loc) == 2 and (loc[1] == "source" or err["type"] == "missing")):
            _fail(f"entry {loc[0]!r} needs a value and a source ({', '.join(sorted(SOURCES))})")
        where = _where(cat, loc)
        if isinstance(given, (list, dict)):
            given = f"{len(given)} items"
        else:
            given = repr(given)
        wanted = _described(Catalog, loc)
        if wanted:
            _fail(f"{where} must be {wanted}, not {given}")
        said = err["msg"][0].lower() + err["msg"][1:]
        _fail(f"{where}: {said}" + (f" (not {given})" if err["type"] != "missing" else ""))


# what a schema does not say: small named checks ---------------------------------------------
def distinct_ids(v: dict[str, Any]) -> None:
    for key in ("zones", "captains", "cargo_cards", "demand_tiles", "upgrades", "merchant_tokens", "events",
                "glory_cards", "rumors", "missions"):
        ids = [i["id"] for i in v[key]]
        if len(set(ids)) != len(ids):
            _fail(f"every item of {key} needs a distinct string id")


def four_nations(v: dict[str, Any]) -> None:
    if sorted(v["nations"]) != ["england", "france", "netherlands", "spain"]:
        _fail("the four nations are spain, england, france, netherlands")


def ports(v: dict[str, Any]) -> None:
    ports = [z for z in v["zones"] if z["port"]]
    if len(ports) != 16:
        _fail("16 of the 17 zones have a port")
    for z in ports:
        if z.get("nation") not in v["nations"]:
            _fail(f"port {z['id']!r} needs one of the four nations")


def zone_rules(v: dict[str, Any]) -> None:
    """The special rule of a zone names what it needs (ZONE_KINDS, read by port.py and wanted.py)."""
    for z in v["zones"]:
        special = z["special"]
        if special["kind"] == "buy_price" and not isinstance(special.get("pair_price"), int):
            _fail(f"zone {z['id']!r}: a buy_price rule needs its pair_price in coins")
        if special["kind"] == "pirate_entry" and not isinstance(special.get("fee"), int):
            _fail(f"zone {z['id']!r}: a pirate entry needs its fee in coins")


def compass(v: dict[str, Any]) -> None:
    points = v["compass"]
    if len(points) not in (4, 8) or len(set(points)) != len(points):
        _fail("compass must list 4 or 8 distinct points, clockwise")


def borders(v: dict[str, Any]) -> None:
    """Each border once, between two zones, with a point of the compass; every zone reached."""
    zids = [z["id"] for z in v["zones"]]
    seen = set()
    for b in v["borders"]:
        if not (isinstance(b, list) and len(b) == 3 and b[0] in zids and b[1] in zids and b[2] in v["compass"]
                and b[0] != b[1]):
            _fail(f"bad border {b!r}: [zone, zone, compass point]")
        pair = frozenset(b[:2])
        if pair in seen:
            _fail(f"border {b[0]}-{b[1]} listed twice")
        seen.add(pair)
    adj: dict[str, set[str]] = {z: set() for z in zids}
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


def ships(v: dict[str, Any]) -> None:
    ships = v["ships"]
    if sorted(ships) != sorted(SHIP_TYPES):
        _fail(f"ships must be exactly {', '.join(SHIP_TYPES)}")
    for t, s in ships.items():
        if s.get("for_sale") and not (isinstance(s.get("buy"), int) and isinstance(s.get("sell"), int)):
            _fail(f"ship {t} is for sale: it needs buy and sell prices")
    if ships["man_o_war"].get("for_sale"):
        _fail("the Man-o-War is not for sale (rulebook)")
    if not any(s.get("starting") for s in ships.values()):
        _fail("at least one ship must be a starting choice")


def captains(v: dict[str, Any]) -> None:
    """A captain's home is a port; his abilities are words of abilities.py."""
    pids = {z["id"] for z in v["zones"] if z["port"]}
    for c in v["captains"]:
        if c["home"] not in pids:
            _fail(f"captain {c['id']!r} needs a home port")
        valid_abilities(c["id"], c.get("abilities", []))


def goods(v: dict[str, Any]) -> None:
    if len(v["goods"]) != 8 or len(set(v["goods"])) != 8:
        _fail("there are 8 different goods")
    for c in v["cargo_cards"]:
        if c["good"] not in v["goods"]:
            _fail(f"cargo card {c['id']!r} needs a good and a raid value 1..5")
    if sum(1 for c in v["cargo_cards"] if c["icon"] == "escape") != 32:
        _fail("half the cargo cards carry an escape icon (rulebook)")
    if any(t["good"] not in v["goods"] for t in v["demand_tiles"]):
        _fail("every demand tile shows one of the goods")


def npc_cards(v: dict[str, Any]) -> None:
    """An NPC card: where its ship enters, which ship, its captain; the book's movement
    icons name an NPC of the cards and a letter N, S, E or W of the compass."""
    zids = {z["id"] for z in v["zones"]}
    for e in v["events"]:
        if "npc" in e:
            cap = e.get("captain")
            if e.get("zone") not in zids or e.get("ship") not in v["ships"] or not isinstance(cap, dict) or \
                    not all(isinstance(cap.get(k), int) for k in ("seamanship", "scouting", "leadership")):
                _fail(f"event card {e['id']!r}: an NPC card needs a zone, a ship and its captain's "
                      "seamanship, scouting and leadership")
    npcs = {e["npc"] for e in v["events"] if "npc" in e}
    for e in v["events"]:
        for icon in e.get("npc_icons", []):
            if not isinstance(icon, dict) or icon.get("npc") not in npcs \
                    or icon.get("dir") not in ("N", "E", "S", "W") or icon["dir"] not in v["compass"]:
                _fail(f"event card {e['id']!r}: a movement icon names an NPC of the event cards and a letter "
                      f"N, S, E or W of the compass, not {icon!r}")


def card_effects(v: dict[str, Any]) -> None:
    """Event and glory cards' effects in the vocabulary of effects.py; a War card's
    Man-o-Wars enter at sea zones."""
    zids = {z["id"] for z in v["zones"]}
    for deck in ("events", "glory_cards"):
        for c in v[deck]:
            effect = c.get("effect", "none")
            valid_effect(c["id"], effect, v["nations"])
            for st in effect.get("steps", []) if isinstance(effect, dict) else []:
                if isinstance(st, dict) and st.get("do") == "war" and any(z not in zids for z in st["zones"].values()):
                    _fail(f"card {c['id']!r}: war: a Man-o-War's zone is not a sea zone")


def specialists(v: dict[str, Any]) -> None:
    """A specialist (a glory card): what it needs to be hired, what it gives while hired."""
    for g in v["glory_cards"]:
        valid_abilities(g["id"], g.get("abilities", []), what="glory card")
        validate_requirements(g["id"], g.get("requires", []))


def weapons(v: dict[str, Any]) -> None:
    w = v["special_weapons"]
    if sorted(w) != ["chain_shot", "grape_shot", "grappling_hooks"] or sum(w.values()) != 12:
        _fail("12 special weapon tokens of the three kinds")


def merchant_tokens(v: dict[str, Any]) -> None:
    count: dict[str, int] = {}
    for m in v["merchant_tokens"]:
        count[m["nation"]] = count.get(m["nation"], 0) + 1
    if count != {"spain": 5, "netherlands": 4, "france": 4, "england": 4}:
        _fail("merchant tokens: 5 Spanish, 4 Dutch, 4 French, 4 English (rulebook)")


def rumors_and_missions(v: dict[str, Any]) -> None:
    """A mission lies at a port; rumors and missions in the vocabulary of tasks.py."""
    zids = {z["id"] for z in v["zones"]}
    pids = {z["id"] for z in v["zones"] if z["port"]}
    for m in v["missions"]:
        if m.get("location") not in pids:
            _fail(f"mission {m['id']!r} needs a port location")
    for r in v["rumors"]:
        validate_rumor(r, zids, pids, v["nations"])
    for m in v["missions"]:
        validate_mission(m, zids, pids, v["goods"], v["nations"])


CHECKS = (distinct_ids, four_nations, ports, zone_rules, compass, borders, ships, captains, goods, npc_cards,
          card_effects, specialists, weapons, merchant_tokens, rumors_and_missions)


def validate(cat: dict) -> dict:
    """``cat`` when it passes every check, else BadInput naming the first thing wrong."""
    if not isinstance(cat, dict):
        _fail("the file must hold a JSON object")
    schema(cat)
    values = {k: cat[k]["value"] for k in KEYS}
    for check in CHECKS:
        check(values)
    return cat


def load(path: Path | None = None) -> dict:
    """A catalog file read and checked (the default catalog without ``path``)."""
    return validate(catalog.read(path))


_CHECKED: list[bool] = []


def default_catalog() -> dict:
    """The default catalog (``catalog.default_catalog``, one object for the process),
    checked once."""
    cat = catalog.default_catalog()
    if not _CHECKED:
        validate(cat)
        _CHECKED.append(True)
    return cat


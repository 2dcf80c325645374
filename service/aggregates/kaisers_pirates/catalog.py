"""The Kaiser's Pirates data, each file read by one function here:

* ``load``: the card catalog (``data/catalog.json``, checked by ``validate``):
  three decks, 20 warships and raiders, 60 merchantmen, 100 action cards of 47
  types (1.1). Every card carries ``source`` (``rulebook``/``reference``/
  ``provisional`` for each of its values) and ``note`` (how a provisional value
  was chosen). It travels in ``GameCreated``.
* ``solitaire_deck``: the solitaire deck (``data/solitaire.json``, 1.1.3, 5.2;
  checked by ``validate_solitaire``, in the words ``SPECIALS``, ``DEFENCES``,
  ``OFFENCES``): a solitaire game's catalog holds it as its ``solitaire`` key, so
  it travels in ``GameCreated`` too.
* ``optional_rules_table``: the facts section 6 prints (``data/optional.json``).

``index(cat)`` builds the lookup tables the rules use (``Index``; the rules reach
it through ``board.ix(state)``); it is cached per catalog (the catalog itself is
not kept in the game state, so the state stays small and cheap to copy).
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

from service.kernel.copies import kinds_of
from service.kernel.errors import BadInput

TYPE_CHECKING = False  # mypy takes the name as true; typing is not imported at run time
if TYPE_CHECKING:
    from typing import Any

PATH = Path(__file__).with_name("data") / "catalog.json"
SOLO_PATH = Path(__file__).with_name("data") / "solitaire.json"
OPTIONAL_PATH = Path(__file__).with_name("data") / "optional.json"
# The table as it stood when games did not carry it (created before 2026-11-27): what those
# games read, whatever optional.json says later. Never edited.
OPTIONAL_BEFORE_PATH = Path(__file__).with_name("data") / "optional-before-2026-11-27.json"
SOURCES = {"rulebook", "reference", "provisional"}
KINDS = {"normal", "reaction", "assist", "team"}
SIDES = (4, 6, 8, 10)
SHIP_FIELDS = {"attack": "dice", "defense": "dice", "vp": "int", "mines": "bool", "coal": "bool",
               "sails": "bool", "aircraft": "bool", "fast": "bool"}
MERCHANT_FIELDS = {"defense": "dice", "challenge": "dice", "response": "dice", "vp": "int", "sail": "bool"}
ACTION_FIELDS = {"challenge": "dice", "response": "dice", "attack": "dice", "defense": "dice",
                 "torpedo": "dice", "mines": "dice", "guns": "dice", "dc": "dice", "lure_challenge": "dice",
                 "lure_response": "dice", "vp": "int"}
# the action side each card type needs (the rules read these keys)
NEEDS = {
    "amc": ("attack", "defense", "vp"), "blockade-runner": ("challenge", "response"),
    "break-contact": ("challenge", "response"), "breakdown": ("challenge", "response"),
    "breakout": ("challenge", "response"), "heavy-weather": ("challenge", "response"),
    "interned": ("challenge", "response"), "interrogate": ("challenge", "response", "attack"),
    "island-refuge": ("challenge", "response"), "lay-mines": ("attack",),
    "mistaken-identity": ("challenge", "response"), "monitor": ("attack",),
    "q-ship": ("lure_challenge", "lure_response", "guns", "dc", "defense", "vp"),
    "razzle-dazzle": ("challenge", "response"), "recalled": ("challenge", "response"),
    "rendezvous-missed": ("challenge", "response"),
    "sail-q-ship": ("lure_challenge", "lure_response", "guns", "defense", "vp"),
    "shallow-run": ("challenge", "response"), "submarines-u-27-u-41": ("torpedo", "guns", "defense", "vp"),
    "submarines-uc-16-uc-29": ("torpedo", "mines", "guns", "defense", "vp"),
    "transfer-command": ("challenge", "response"), "trap": ("attack",),
}
# the words of the solitaire deck's cards (5.3.3, 5.4.3): special, defensive and offensive actions
SPECIALS = ("surprise-attack", "boarding-party", "shipping-lanes", "good-hunting", "reflag")
# (the glossary "TRADUZIONE DEI TERMINI PRESENTI SULLE CARTE SOLITARIO": every term it lists)
DEFENCES = ("none", "amc", "break-contact", "fast-ship", "minesweeper", "non-combatant", "qqq", "q-ship",
            "razzle-dazzle", "recalled", "reflag", "shallow-run", "slim-pickings", "trap")
PLAYS = ("blockade-runner", "breakout", "collier", "damage-control", "deception", "fair-seas", "fog-bank",
         "heavy-weather", "interned", "island-refuge", "rendezvous-missed", "scuttle", "second-chance",
         "transfer-command")
# column 2 (the intercepts: a warship or raider on a merchant; British forces on a warship,
# raider or prize) and columns 3-4; "submarine-guns" is the glossary's "Gun attack"
OFFENCES = ("none", "warship-intercept", "raider-intercept", "british-intercept", "torpedo", "submarine-guns",
            "submarine-mines", "lay-mines", "monitor", "interrogate", "recon-aircraft") + PLAYS
# the terms the glossary prints with "(ET)": the phantom's turn always ends with them
ALWAYS_ET = ("second-chance", "rendezvous-missed", "deception", "fog-bank", "recon-aircraft")
# the deck's keys naming the action card whose dice an offensive action rolls, and the actions needing each
SOLO_DICE = {"torpedo": ("torpedo", "submarine-guns"), "mines": ("submarine-mines",),
             "british": ("british-intercept",)}


def _check(cond: object, msg: str) -> None:
    if not cond:
        raise BadInput(f"kaisers-pirates catalog: {msg}")


def _value(kind: str, v: Any, where: str) -> None:
    if kind == "dice":
        _check(isinstance(v, list) and 1 <= len(v) <= 4 and all(d in SIDES for d in v),
               f"{where} must be a list of 1-4 dice among d4, d6, d8, d10 (got {v!r})")
    elif kind == "int":
        _check(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 20, f"{where} must be 0..20")
    else:
        _check(isinstance(v, bool), f"{where} must be true or false")


def _sources(card: dict[str, Any], keys: list[str], where: str) -> None:
    src: Any = card.get("source")      # (checked next)
    _check(isinstance(src, dict), f"{where} needs a 'source' map")
    for k in keys:
        _check(src.get(k) in SOURCES, f"{where}: value {k!r} needs a source ({', '.join(sorted(SOURCES))})")
        if src[k] == "provisional" and k != "name":
            _check(isinstance(card.get("note", {}).get(k), str), f"{where}: provisional {k!r} needs a note")


def validate(cat: dict[str, Any], glossary: bool = True) -> dict[str, Any]:
    """``glossary``: the solitaire deck's cards are checked against the glossary's columns
    and (ET) marks (rules version 3); a game recorded before (its deck travels in its
    creation) is checked as it was then."""
    _check(isinstance(cat, dict), "must be a JSON object")
    for key in ("dice", "action_cards_removed", "hand_size", "force"):
        e = cat.get(key)
        _check(isinstance(e, dict) and "value" in e and e.get("source") in SOURCES, f"entry {key!r} needs value and source")
    removed = cat["action_cards_removed"]["value"]
    _check(set(removed) == {"2", "3", "4"} and all(isinstance(v, int) and 0 <= v < 100 for v in removed.values()),
           "action_cards_removed needs counts for 2, 3 and 4 players")
    # (JSON values, checked here: Any)
    ships: Any = cat.get("ships")
    merchants: Any = cat.get("merchants")
    cards: Any = cat.get("action_cards")
    _check(isinstance(ships, list) and len(ships) == 20, "needs 20 warships and raiders (1.1)")
    _check(isinstance(merchants, list) and len(merchants) == 60, "needs 60 merchantmen (1.1)")
    _check(isinstance(cards, list) and len(cards) == 47, "needs 47 action card types (1.1.2)")
    ids: set[str] = set()
    for s in ships:
        _check_ship(s, ids)
    _check(sum(s["kind"] == "raider" for s in ships) == 14, "needs 14 raiders and 6 warships (1.1.4)")
    for m in merchants:
        _check_merchant(m, ids)
    total = sum(_check_action_card(c, ids) for c in cards)
    _check(total == 100, f"the action deck must hold 100 cards (got {total})")
    if "solitaire" in cat:
        validate_solitaire(cat["solitaire"], cat, glossary)
    if "optional_rules" in cat:  # section 6's table, as a game created with one of its rules carries it
        need = set(optional_rules_table(OPTIONAL_BEFORE_PATH))
        have = cat["optional_rules"]
        _check(isinstance(have, dict) and need <= set(have),
               f"optional_rules must hold section 6's table ({', '.join(sorted(need))})")
    return cat


def _new_id(card: dict[str, Any], ids: set[str], w: str) -> None:
    _check(isinstance(card.get("id"), str) and card["id"] not in ids, f"{w}: missing or duplicate id")
    ids.add(card["id"])


def _check_ship(s: dict[str, Any], ids: set[str]) -> None:
    w = f"ship {s.get('id')!r}"
    _new_id(s, ids, w)
    _check(s.get("kind") in ("warship", "raider"), f"{w}: kind must be warship or raider")
    for f, k in SHIP_FIELDS.items():
        _value(k, s.get(f), f"{w}.{f}")
    _sources(s, ["name", "kind", *SHIP_FIELDS], w)


def _check_merchant(m: dict[str, Any], ids: set[str]) -> None:
    w = f"merchant {m.get('id')!r}"
    _new_id(m, ids, w)
    for f, k in MERCHANT_FIELDS.items():
        _value(k, m.get(f), f"{w}.{f}")
    _sources(m, ["name", *MERCHANT_FIELDS], w)


def _check_action_card(c: dict[str, Any], ids: set[str]) -> int:
    """One action card type (1.1.2, 3.3): its two sides and its sources; its count."""
    w = f"action card {c.get('id')!r}"
    _new_id(c, ids, w)
    _check(c.get("kind") in KINDS, f"{w}: kind must be one of {sorted(KINDS)}")
    _check(isinstance(c.get("count"), int) and c["count"] >= 1, f"{w}: count must be >= 1")
    icpt: Any = c.get("intercept")     # (JSON values, checked next)
    _check(isinstance(icpt, dict), f"{w}: needs an intercept side")
    _value("dice", icpt.get("attack"), f"{w}.intercept.attack")
    _value("bool", icpt.get("night"), f"{w}.intercept.night")
    act: Any = c.get("action")
    _check(isinstance(act, dict), f"{w}: needs an action side")
    for f, v in act.items():
        _check(f in ACTION_FIELDS, f"{w}: unknown action value {f!r}")
        _value(ACTION_FIELDS[f], v, f"{w}.action.{f}")
    for f in NEEDS.get(c["id"], ()):
        _check(f in act, f"{w}: its action side needs {f!r}")
    if "copies" in c:
        _check(isinstance(c["copies"], list) and len(c["copies"]) == c["count"], f"{w}: one copy name per card")
    _sources(c, ["name", "count", "kind", "intercept.attack", "intercept.night", *("action." + f for f in act)], w)
    return c["count"]


def validate_solitaire(deck: dict[str, Any], cat: dict[str, Any], glossary: bool = True) -> dict[str, Any]:
    """The solitaire deck (1.1, 5.2): 20 cards, each with four offensive actions
    (``offense``, red die 1-4), two defensive ones (``defense``: 1/3 and 2/4) and a
    special action (or null); plus the action cards not used (5.2)."""
    _check(isinstance(deck, dict), "solitaire must be an object")
    for key in ("removed", "removed_at_random", "torpedo"):
        e = deck.get(key)
        _check(isinstance(e, dict) and "value" in e and e.get("source") in SOURCES,
               f"solitaire.{key} needs value and source")
    types = {c["id"]: c["count"] for c in cat["action_cards"]}
    removed = deck["removed"]["value"]
    _check(isinstance(removed, list) and all(t in types for t in removed)
           and all(removed.count(t) <= types[t] for t in removed), "solitaire.removed lists action card types")
    n = deck["removed_at_random"]["value"]
    _check(isinstance(n, int) and 0 <= n <= 100 - len(removed) - 13, "solitaire.removed_at_random is too large")
    acts = {c["id"]: c for c in cat["action_cards"]}
    _check(deck["torpedo"]["value"] in types and "torpedo" in acts[deck["torpedo"]["value"]]["action"],
           "solitaire.torpedo names the submarine card whose dice the phantom rolls")
    for key, part in (("mines", "mines"), ("british", None)):
        e = deck.get(key)
        if e is not None:
            _check(isinstance(e, dict) and e.get("source") in SOURCES and e.get("value") in types
                   and (part is None or part in acts[e["value"]]["action"]),
                   f"solitaire.{key} names the action card whose dice the phantom rolls"
                   + (" (a submarine that lays mines)" if part else " (its intercept side)"))
    cards: Any = deck.get("cards")
    _check(isinstance(cards, list) and len(cards) == 20, "the solitaire deck needs 20 cards (1.1)")
    ids: set[str] = set()
    for c in cards:
        w = f"solitaire card {c.get('id')!r}"
        _check(isinstance(c.get("id"), str) and c["id"] not in ids, f"{w}: missing or duplicate id")
        ids.add(c["id"])
        off = c.get("offense")
        _check(isinstance(off, list) and len(off) == 4, f"{w}: four offensive actions")
        for col, a in enumerate(off, 1):
            _check(isinstance(a, dict) and a.get("action") in OFFENCES and isinstance(a.get("et"), bool),
                   f"{w}: offensive action {a!r}: action one of {OFFENCES}, et true/false")
            _check(a.get("target", "random") in ("low", "high", "random"), f"{w}: interrogate target low/high/random")
            _check(isinstance(a.get("night", False), bool), f"{w}: night true/false")
            if not glossary:
                continue
            _check(a["action"] not in ALWAYS_ET or a["et"], f"{w}: {a['action']} is printed with (ET) (glossary)")
            _check(a["action"] not in ("monitor", "collier") or col == 4, f"{w}: {a['action']} is in column 4 only (glossary)")
            _check((col == 2) == a["action"].endswith("-intercept") and (col != 1 or a["action"] == "none"),
                   f"{w}: column 1 is No Action, column 2 an intercept, columns 3-4 the other actions (glossary)")
            for key, uses in SOLO_DICE.items():
                _check(a["action"] not in uses or key in deck,
                       f"{w}: {a['action']} needs solitaire.{key} (the action card whose dice it rolls)")
        dfn = c.get("defense")
        _check(isinstance(dfn, list) and len(dfn) == 2 and all(d in DEFENCES for d in dfn),
               f"{w}: two defensive actions among {DEFENCES}")
        _check(c.get("special") is None or c["special"] in SPECIALS, f"{w}: special among {SPECIALS} or null")
        _sources(c, ["offense", "defense", "special"], w)
    return deck


def solitaire_deck(path: Path | None = None) -> dict[str, Any]:
    """The solitaire deck's file (``data/solitaire.json``; checked by ``validate`` with the catalog it joins)."""
    try:
        return json.loads((path or SOLO_PATH).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise BadInput(f"kaisers-pirates solitaire deck: cannot read {path or SOLO_PATH}: {e}") from None


@lru_cache(maxsize=2)
def optional_rules_table(path: Path = OPTIONAL_PATH) -> dict[str, Any]:
    """The facts section 6 prints for its optional rules (``data/optional.json``: the
    ships and merchants 6.4 and 6.5 name, the dice of 6.6.1, 6.9.1 and 6.12.2, 6.7's
    three ships), read once a process. A game created with a section 6 rule carries
    it in its catalog (``optional_rules``, recorded in ``GameCreated``); the rules read
    it through the game's index (``Index.optional_rules``)."""
    return json.loads(path.read_text(encoding="utf-8"))


_DEFAULT: dict[str, dict[str, Any]] = {}


def load(path: Path | None = None) -> dict[str, Any]:
    """The catalog file (the packaged one, read and checked once a process: each call
    gets its own top-level dict, so a game may add its solitaire deck to it)."""
    if path is None and "cat" in _DEFAULT:
        return dict(_DEFAULT["cat"])
    try:
        data = json.loads((path or PATH).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise BadInput(f"kaisers-pirates catalog: cannot read {path or PATH}: {e}") from None
    data = validate(data)
    if path is None:
        _DEFAULT["cat"] = data
        return dict(data)
    return data


def _slug(s: str) -> str:
    return re.sub("-+", "-", "".join(ch if ch.isalnum() else "-" for ch in s.lower())).strip("-")


class Index:
    """Lookup tables over one catalog."""

    def __init__(self, cat: dict[str, Any]) -> None:
        self.ships = {s["id"]: s for s in cat["ships"]}
        self.warships = frozenset(s["id"] for s in cat["ships"] if s["kind"] == "warship")
        self.raiders = frozenset(s["id"] for s in cat["ships"] if s["kind"] == "raider")
        self.merchants = {m["id"]: m for m in cat["merchants"]}
        self.types = {c["id"]: c for c in cat["action_cards"]}
        self.card_type: dict[str, str] = {}
        self.card_kind: dict[str, str] = {}     # card id -> its type's kind (normal, reaction, assist, team)
        self.card_name: dict[str, str] = {}
        self.action_cards: list[str] = []
        # the cards whose id is a copy's name (u-27, hms-alcantara) -> their type as printed
        # (submarines-u-27-u-41, amc): a referee may name such a card by its type (rules.card_names)
        self.copy_types: dict[str, str] = {}
        for c in cat["action_cards"]:
            for n in range(c["count"]):
                if "copies" in c:
                    cid = _slug(c["copies"][n])
                    name = c["copies"][n]
                else:
                    cid = f"{c['id']}-{n + 1}"
                    name = c["name"]
                if "copies" in c:
                    self.copy_types[cid] = c["id"]
                self.card_type[cid] = c["id"]
                self.card_kind[cid] = c["kind"]
                self.card_name[cid] = name
                self.action_cards.append(cid)
        # the copies of one type (reflag-1 to reflag-4; the named HMS Alcantara and HMS Carmania too,
        # which the rules treat alike): a reader reads them by what the public has seen
        # (service/kernel/copies.py), as a referee may name one by its type whichever is left
        self.copies = kinds_of(self.action_cards, self.card_type.get)
        # the solitaire game (section 5): its deck, and the pseudo-cards of the phantom's actions
        self.solo: dict[str, Any] | None = cat.get("solitaire")
        self.solo_cards = {c["id"]: c for c in self.solo["cards"]} if self.solo else {}
        if self.solo:
            for t, c in self.types.items():
                self.card_type["solo:" + t] = t
                self.card_kind["solo:" + t] = c["kind"]
                self.card_name["solo:" + t] = f"{c['name']} (solitaire)"
        # what a card's action side may be committed as (``board.commit_options``), worked out
        # once: "mines" (Lay Mines, on a minelaying raider), "action" (normal and assist cards),
        # "reflag" and "team" (when the turn or the game allows), None (its intercept side only)
        self.commit_side: dict[str, str | None] = {
            cid: "mines" if t == "lay-mines" else "action" if self.card_kind[cid] in ("normal", "assist")
            else "reflag" if t == "reflag" else "team" if self.card_kind[cid] == "team" else None
            for cid, t in self.card_type.items()}
        self.minelayers = frozenset(s["id"] for s in cat["ships"] if s["mines"])
        self.removed = {int(k): v for k, v in cat["action_cards_removed"]["value"].items()}
        self.hand_size = cat["hand_size"]["value"]
        self.force = cat["force"]["value"]
        # the table the game carries (games created before it travelled: the table as it stood then)
        self.optional_rules = cat.get("optional_rules") or optional_rules_table(OPTIONAL_BEFORE_PATH)
        # card, ship and merchant ids -> printed names (``words._names``, made on first use)
        self.printed: dict[str, str] | None = None

    def ctype(self, card: str) -> dict[str, Any]:
        return self.types[self.card_type[card]]

    def kind(self, card: str) -> str:
        return self.card_kind[card]

    def tid(self, card: str) -> str:
        return self.card_type[card]

    def vessel(self, ship: str) -> dict[str, Any]:
        return self.ships.get(ship) or self.merchants[ship]


INDEXES: dict[str, Index] = {}     # catalog key (its digest) -> its Index


def index(cat: dict[str, Any], key: str | None = None) -> Index:
    key = key or json.dumps(cat, sort_keys=True)
    ix = INDEXES.get(key)
    if ix is None:
        ix = INDEXES[key] = Index(cat)
    return ix

"""What Merchants & Marauders prints: ports and sea zones, ships, captains, nations, NPC
ships and cards by the names the catalog gives them ("Port Royal", "Basse-Terre",
"St. Maarten", "Frances Wright", "the Dutch Naval Ship"), and where a card's printed
name is not known, what it is in words ("captain card 9", not ``captain_09``).

``for_config(config)``: the names of a game's catalog (the default catalog's without
one); ``Names.text(line)``: a line with every id in it said as printed."""

from __future__ import annotations

import re

from service.kernel.patterns import pattern

from .catalog import default_catalog, register, tables

TYPE_CHECKING = False  # mypy takes the name as true; typing is not imported at run time
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

PEOPLE = {"spain": "Spanish", "england": "English", "france": "French", "netherlands": "Dutch"}
COUNTRY = {"spain": "Spain", "england": "England", "france": "France", "netherlands": "the Netherlands"}
MAN_O_WAR = "man_o_war_"

# a name the catalog marks as not printed: "Captain 9 (name unknown)" -> "captain card 9"
# (each pattern of this module is compiled at its first use: a replay's start-up does without those it does not use)
_unknown = pattern(r"\s*\((?:name |surname )?unknown\)$")
_numbered = pattern(r"^(Captain|Mission|Rumor|Event|Glory card) (\d+)$")

# the decks (CardDrawn, DeckShuffled), in words: (the deck, one of its cards)
DECKS = {
    "captains": ("the captain deck", "captain"), "first_player": ("the players' captain cards", "captain"),
    "hunt_tie": ("the tied players' captain cards", "captain"),
    "glory": ("the glory deck", "glory card"), "events": ("the event deck", "event card"),
    "rumors": ("the rumor deck", "rumor"), "missions": ("the mission deck", "mission"),
    "cargo": ("the cargo deck", "cargo card"), "demand_tiles": ("the demand tiles", "demand tile"),
    "demand_reserve": ("the demand tiles' reserve", "demand tile"), "upgrades": ("the upgrade tiles", "upgrade tile"),
    "merchant_tokens": ("the merchant tokens", "merchant token"),
    "merchant_track": ("the merchant tokens of the track", "merchant token"),
}


# what the Italian and the Portuguese books call what the catalog names in English, where they
# differ (merchants_and_marauders.it.txt / .pt.txt): a referee may type either book's word
BOOK_NAMES = {
    "grape_shot": ["Grapeshot", "Grape shots", "Palle a Grappolo", "Palla a Grappolo"],
    "chain_shot": ["Chain shots", "Palle a Catena", "Palla a Catena"],
    "grappling_hooks": ["Grappling Hook", "Ramponi uncinati", "Rampone uncinato"],
    "sloop": ["Brigantino"], "flute": ["Corvetta"], "frigate": ["Fregata"], "galleon": ["Galeone"],
    "man_o_war": ["Vascello", "Navio de guerra"],
}


def printed(name: str) -> str:
    """A catalog's name as it may be read: its "(unknown)" marks left out, a card known
    only by its number said as one ("Glory card 21 (unknown)" -> "glory card 21")."""
    bare = _unknown().sub("", name)
    m = _numbered().match(bare)
    if m:
        kind = m.group(1).lower()
        return f"{kind if kind.endswith('card') else kind + ' card'} {m.group(2)}"
    return bare


class Names:
    def __init__(self, S: dict, catalog: dict | None = None):
        self.S = S
        # a card's printed text, where the catalog holds it (an entry's optional ``text``)
        self.texts = {e["id"]: e["text"] for table in _TEXTED for e in ((catalog or {}).get(table) or {}).get("value", [])
                      if isinstance(e, dict) and isinstance(e.get("text"), str) and e["text"].strip()}
        self.zones = {z: v["name"] for z, v in S["zones"].items()}
        self.ships = {t: v["name"] for t, v in S["ships"].items()}
        self.captains = {c: printed(v["name"]) for c, v in S["captains"].items()}
        self.npcs: dict[str, str] = {}
        for e in S["events"].values():
            if e.get("npc"):
                self.npcs.setdefault(e["npc"], e["name"])
        for n, people in PEOPLE.items():
            self.npcs[MAN_O_WAR + n] = f"{people} {S['ships'].get('man_o_war', {}).get('name', 'Man-o-War')}"
        cards = {}
        for table in ("glory", "events", "rumors", "missions"):
            cards.update({k: printed(v["name"]) for k, v in S[table].items() if v.get("name")})
        cards.update({k: f"{v['good']} (raid {v['raid']})" for k, v in S["cargo"].items()})
        cards.update({k: f"{g} demand tile" for k, g in S["demand"].items()})
        cards.update({k: f"{S['upgrade_name'][k]} tile" for k in S["upgrade"]})
        cards.update({k: f"{PEOPLE.get(n, n)} merchant token" for k, n in S["merchant"].items()})
        self.cards = cards
        ids = {**{k: v for k, v in cards.items()}, **self.captains, **self.zones,
               **{n: "the " + v for n, v in self.npcs.items()}, **COUNTRY}
        ids.update({k: v.replace("_", " ") for k, v in S["upgrade"].items()})
        self.ids = ids
        # what a decision's fields name (words.py): cards, captains, zones, ships, upgrade kinds, NPCs
        said = {**cards, **self.captains, **self.zones, **self.ships}
        said.update({k: v.replace("_", " ") for k, v in S["upgrade"].items()})
        said.update(self.npcs)
        self.said = said
        # an NPC side as older words name it (state.side_name: "the dutch naval ship"), in a recorded "why"
        self._sides = {f"the {n.replace('_', ' ')} ship": "the " + v for n, v in self.npcs.items()}
        self._side = re.compile("|".join(re.escape(k) for k in sorted(self._sides, key=len, reverse=True)))

    # one thing by its id -------------------------------------------------------------
    def zone(self, z: str | None) -> str:
        return self.zones.get(z) or words(z)

    def ship(self, t: str) -> str:
        return self.ships.get(t) or words(t)

    def captain(self, c: str) -> str:
        return self.captains.get(c) or words(c)

    def npc(self, n: str) -> str:
        """``dutch_naval`` -> ``the Dutch Naval Ship``, ``man_o_war_england`` -> ``the English Man-o-War``."""
        return "the " + (self.npcs.get(n) or words(n))

    def npc_captain(self, card: str) -> str:
        """The captain an NPC ship card names: "French admiral 1", "Philips van Almonde"."""
        captain = self.S["events"].get(card, {}).get("captain")
        return printed(captain["name"]) if isinstance(captain, dict) and captain.get("name") else self.card(card)

    def nation(self, n: str) -> str:
        return COUNTRY.get(n) or words(n)

    def people(self, n: str) -> str:
        return PEOPLE.get(n) or words(n)

    def card(self, c: str) -> str:
        return self.cards.get(c) or self.captains.get(c) or words(c)

    def with_text(self, c: str) -> str:
        """A card (or a captain) by its printed name, with its printed text where the catalog
        holds it: "Letter of Pardon (Remove a wanted flag.)"."""
        text = self.texts.get(c)
        return f"{self.card(c)} ({text})" if text else self.card(c)

    def drawn(self, deck: str, card: str) -> str:
        """A card drawn from ``deck``, as a noun: "captain card 9", "the glory card Carpenter"."""
        if not isinstance(card, str):
            return words(card)
        if deck in ("captains", "first_player", "hunt_tie"):
            return self.captain(card)
        if deck in ("demand_tiles", "demand_reserve"):
            return f"a {self.S['demand'].get(card, words(card))} demand tile"
        if deck in ("merchant_tokens", "merchant_track"):
            n = self.S["merchant"].get(card)
            return f"{article(self.people(n))} {self.people(n)} merchant token" if n else "a merchant token"
        if deck == "upgrades":
            name = self.S["upgrade_name"].get(card)
            return f"the {name} tile" if name else "an upgrade tile"
        if deck == "cargo":
            c = self.S["cargo"].get(card)
            return f"a {c['good']} cargo card (raid {c['raid']})" if c else "a cargo card"
        name = self.cards.get(card)
        if name is None:
            return f"a {DECKS.get(deck, (deck, words(deck)))[1]}"
        kind = DECKS.get(deck, ("", ""))[1]
        return name if name.lower().startswith(kind) else f"the {kind} {name}" if kind else name

    def coded(self, card: str) -> str:
        """A card by its code, said with what it is: "the event card War", "glory card 21"."""
        if isinstance(card, str) and card in self.cards and card[:1] in _DECK_OF:
            return self.drawn(_DECK_OF[card[0]], card)
        return self.card(card)

    def deck(self, deck: str) -> str:
        return DECKS.get(deck, (words(deck),))[0]

    # a whole line ----------------------------------------------------------------------
    def text(self, line: str) -> str:
        """``line`` with each id in it as printed (a port, a captain, an NPC, a card), and
        any other ``snake_case`` word as words."""
        def one(m: re.Match[str]) -> str:
            w = m.group(0)
            said = self.ids.get(w)
            if said is not None:
                return said
            return w.replace("_", " ") if "_" in w else w
        line = self._side.sub(lambda m: self._sides[m.group(0)], line)
        line = _coded().sub(lambda m: self.coded(m.group(1)) if m.group(1) in self.cards else m.group(0), line)
        return _word().sub(one, line)


# the catalog's tables whose entries may carry their printed ``text``
_TEXTED = ("captains", "glory_cards", "events", "rumors", "missions")
# a card named by its code after a word that says what it is ("card E20", "mission X04"): the word goes
_coded = pattern(r"\b(?:card|mission|rumor|tile|token) ([A-Z]\d\d)\b")
_DECK_OF = {"X": "missions", "R": "rumors", "G": "glory", "E": "events", "C": "cargo", "U": "upgrades",
            "M": "merchant_tokens", "D": "demand_tiles"}
_word = pattern(r"\b[A-Za-z][A-Za-z0-9_]*\b")


def words(x: object) -> str:
    return str(x).replace("_", " ")


def article(word: str) -> str:
    return "an" if word[:1].upper() in "AEIOU" else "a"


_BY_KEY: dict[str, Names] = {}


def for_config(config: dict | None) -> Names:
    """The names of the game's catalog (``config["catalog"]``), the default catalog's without."""
    cat = (config or {}).get("catalog") or default_catalog()
    key = register(cat)
    found = _BY_KEY.get(key)
    if found is None:
        found = Names(tables({"cat": key}), cat)
        if len(_BY_KEY) < 64:
            _BY_KEY[key] = found
    return found


def for_state(state: Mapping[str, Any]) -> Names:
    """The names of the catalog a state was built on (a refusal's words, where the config is
    not at hand): the game's own where its names were read before, else from its tables."""
    return _BY_KEY.get(state.get("cat", "")) or Names(tables(state))

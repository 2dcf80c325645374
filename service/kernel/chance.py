"""Randomness anyone can check.

A game's secret seed (32 random bytes) is committed at creation as
``commitment = SHA-256(seed)``. Seats may later mix in entropy:
``key = seed``; for each entropy ``e`` (bytes, in log order):
``key = SHA-256(key || e)``. Before any entropy, ``key = seed``.

Block ``c`` of the stream is ``HMAC-SHA256(key, c as 8 bytes big-endian)``.
The counter starts at 0 and every block is used once, in order, across the
whole game.

``uniform(n)`` (an integer in ``[0, n)``): take the next block, read its first
8 bytes as a big-endian unsigned integer ``x``; if ``x < 2**64 - (2**64 % n)``
return ``x % n``, otherwise discard the block and take the next one
(rejection sampling, so every value is exactly equally likely).

Outcomes, each recorded with ``counter`` (first block used) and ``draws``
(blocks used):

* dice: ``n`` dice of ``s`` sides, each ``1 + uniform(s)``, in order;
* card from a deck: the remaining cards sorted by their canonical JSON text
  (``json.dumps(card, sort_keys=True, separators=(",", ":"))``), then
  ``index = uniform(len(remaining))``; the card is ``sorted[index]``;
* pick among options: ``index = uniform(len(options))`` over the options in
  the order the event lists them;
* shuffle: the cards sorted canonically, then Fisher-Yates: for ``i`` from
  ``n-1`` down to ``1``: ``j = uniform(i + 1)``, swap ``a[i]`` and ``a[j]``.
"""

from __future__ import annotations

import json
import os
import re
import struct
from functools import lru_cache

from .errors import ChanceRejected, NeedChance
from .patterns import pattern
from .sha import sha256

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    from typing import Any, Protocol

    class Chance(Protocol):
        """Where a step's outcomes come from: the seed's stream, the table, a stated position, a record."""

        def outcome(self, spec: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
            """The outcome ``spec`` asks for, and its ``index``, ``counter`` and ``draws``."""

        def reveal(self) -> str | None:
            """The seed, in hex, once the game is over (None: no seed)."""

# the chance events, each with the field that holds its outcome
CHANCE_VALUE_FIELD = {"DiceRolled": "values", "CardDrawn": "card", "ChanceChosen": "value",
                      "DeckShuffled": "order", "CardIdentified": "card"}
CHANCE_TYPES = frozenset(CHANCE_VALUE_FIELD)

TWO64 = 1 << 64
_IPAD = bytes(b ^ 0x36 for b in range(256))  # byte translation tables: key ^ ipad, key ^ opad
_OPAD = bytes(b ^ 0x5C for b in range(256))


def new_seed() -> bytes:
    return os.urandom(32)  # what secrets.token_bytes gives, without importing random


def commitment(seed: bytes) -> str:
    return sha256(seed).hexdigest()


def derive_key(seed: bytes, entropies: list[bytes]) -> bytes:
    key = seed
    for e in entropies:
        key = sha256(key + e).digest()
    return key


def canon(card: Any) -> str:
    if isinstance(card, (str, int)):
        return _canon_scalar(card)
    return json.dumps(card, sort_keys=True, separators=(",", ":"))


@lru_cache(maxsize=65536, typed=True)
def _canon_scalar(card: Any) -> str:
    return json.dumps(card)


# Text whose JSON form is itself in quotes (printable ASCII from '#' on, no backslash) sorts by
# its JSON form exactly as it sorts as text: a proper prefix is followed by a character above
# the closing quote. Card ids are such text, so the common deck sorts without a key.
_PLAIN = re.compile(r"[#-\[\]-~]*")
_PLAIN_SEEN: set = set()


_INTS = {int}


def canonical_order(cards: list) -> list:
    """The cards in canonical order: sorted by their JSON text (``canon``)."""
    if cards and cards[0].__class__ is int and set(map(type, cards)) == _INTS:
        # whole numbers (no bools): the JSON text of one is its str, and the digits 0-9 sort
        # as numbers do (a deck of treasure values); asked first, as no text is a number
        if min(cards) >= 0 and max(cards) <= 9:
            return sorted(cards)
        return sorted(cards, key=str)
    try:
        if _PLAIN_SEEN.issuperset(cards):
            return sorted(cards)
    except TypeError:  # unhashable cards (dicts, lists): by their JSON text
        return sorted(cards, key=canon)
    if all(type(c) is str and _PLAIN.fullmatch(c) for c in cards):
        if len(_PLAIN_SEEN) < 100_000:
            _PLAIN_SEEN.update(cards)
        return sorted(cards)
    return sorted(cards, key=canon)


class Stream:
    """The HMAC-SHA256 counter stream of one game.

    HMAC is computed as RFC 2104 defines it, from the key's inner and outer
    pads hashed once per stream: ``SHA-256(key ^ opad || SHA-256(key ^ ipad || c))``
    (the same bytes as ``hmac.digest(key, c, "sha256")``, which looks the
    digest up and pads the key again at every call, at ~3 times the cost)."""

    __slots__ = ("key", "counter", "_inner", "_outer")

    def __init__(self, key: bytes, counter: int = 0) -> None:
        self.key = key
        self.counter = counter
        padded = (sha256(key).digest() if len(key) > 64 else key).ljust(64, b"\0")
        self._inner = sha256(padded.translate(_IPAD))
        self._outer = sha256(padded.translate(_OPAD))

    def _hmac(self, c: int) -> bytes:
        inner = self._inner.copy()
        inner.update(c.to_bytes(8, "big"))
        outer = self._outer.copy()
        outer.update(inner.digest())
        return outer.digest()

    def block(self) -> bytes:
        b = self._hmac(self.counter)
        self.counter += 1
        return b

    def uniform(self, n: int) -> int:
        limit = _LIMITS.get(n)
        if limit is None:
            if n < 1:
                raise ValueError("uniform(n) needs n >= 1")
            limit = TWO64 - (TWO64 % n)
            if len(_LIMITS) < 4096:  # the few sizes dice and decks have
                _LIMITS[n] = limit
        inner, outer = self._inner, self._outer
        while True:
            c = self.counter
            self.counter = c + 1
            h = inner.copy()
            h.update(_pack_u64(c))  # c as 8 bytes, big-endian
            o = outer.copy()
            o.update(h.digest())
            x = _unpack_u64(o.digest())[0]  # the block's first 8 bytes, big-endian
            if x < limit:
                return x % n


# ``uniform``'s rejection limit per n (it depends on n alone), and the block
# counter's and the sample's 8-byte big-endian forms, packed in one call each
_LIMITS: dict[int, int] = {}
_U64 = struct.Struct(">Q")
_pack_u64 = _U64.pack
_unpack_u64 = _U64.unpack_from


def roll_dice(stream: Stream, sides: int, n: int) -> list[int]:
    """``n`` dice of ``sides`` faces: one ``uniform(sides)`` each, plus one."""
    if n == 1:  # one die, as most rolls are
        return [1 + stream.uniform(sides)]
    return [1 + stream.uniform(sides) for _ in range(n)]


def draw_card(stream: Stream, choices: list) -> tuple[Any, int]:
    """A card from ``choices`` (any order): ``(card, index)``, its index in the canonical order."""
    ordered = canonical_order(choices)
    i = stream.uniform(len(ordered))
    return ordered[i], i


def compute(stream: Stream, spec: dict) -> tuple[Any, int | None]:
    """Draw the outcome ``spec`` asks for from ``stream``.

    Returns ``(value, index)``; ``index`` is None for dice and shuffles."""
    kind = spec["kind"]
    if kind == "dice":
        return roll_dice(stream, spec["sides"], spec["n"]), None
    if kind == "card":
        return draw_card(stream, spec["choices"])
    if kind == "pick":
        i = stream.uniform(len(spec["options"]))
        return spec["options"][i], i
    if kind == "shuffle":
        a = canonical_order(spec["cards"])
        for i in range(len(a) - 1, 0, -1):
            j = stream.uniform(i + 1)
            a[i], a[j] = a[j], a[i]
        return a, None
    raise ValueError(f"unknown chance kind {kind!r}")


def validate(spec: dict, value: Any) -> tuple[Any, int | None]:
    """Check a chance outcome entered at the table; return it normalised
    (and its index in the canonical order where that applies)."""
    kind = spec["kind"]
    if kind == "dice":
        n, sides = spec["n"], spec["sides"]
        if n == 1 and not isinstance(value, list):
            value = [value]
        if isinstance(value, list):
            value = [read_face(spec, v) for v in value]
        if (not isinstance(value, list) or len(value) != n
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
            raise ChanceRejected(f"expected {n} die value(s) for {n}d{sides}, got {json.dumps(value)}")
        for v in value:
            if not 1 <= v <= sides:
                raise ChanceRejected(f"die face {v} is out of range 1..{sides}")
        return value, None
    if kind == "card":
        ordered = canonical_order(spec["choices"])
        key = canon(value)
        for i, c in enumerate(ordered):
            if canon(c) == key:
                return c, i
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            number = int(value)  # "3" typed for the card 3
            for i, c in enumerate(ordered):
                if c == number and not isinstance(c, bool):
                    return c, i
        names = spec.get("names") or {}
        if isinstance(value, str) and names:
            named = by_name(spec, ordered, value)
            if named is not None:
                return named
        if isinstance(value, str) and value:
            # a card named as printed, without the copy mark its id carries
            # (blue-4 for blue-4a, reflag for reflag-4): any copy left will do
            for i, c in enumerate(ordered):
                if isinstance(c, str) and is_copy_of(c, value.strip().lower()):
                    return c, i
        raise ChanceRejected(f"card {json.dumps(value)} is not left in {deck_said(spec)} "
                             f"({len(ordered)} cards left{what_may_be_typed(spec, ordered, value)})")
    if kind == "pick":
        key = canon(value)
        for i, o in enumerate(spec["options"]):
            if canon(o) == key:
                return o, i
        raise ChanceRejected(f"{json.dumps(value)} is not one of {json.dumps(spec['options'])}")
    if kind == "shuffle":
        if not isinstance(value, list) or sorted(map(canon, value)) != sorted(map(canon, spec["cards"])):
            raise ChanceRejected(f"a shuffle of {deck_said(spec)} must list exactly its cards")
        return value, None
    raise ChanceRejected(f"unknown chance kind {kind!r}")


def deck_said(spec: dict) -> str:
    """The deck of a request as the game says it (``Machine.said_request``), else its id in words."""
    if spec.get("deck_said"):
        return spec["deck_said"]
    deck = re.sub(r"[_:-]+", " ", str(spec.get("deck", ""))).strip()
    return f"the {deck}" + ("" if deck.endswith(("deck", "pile", "tiles", "tokens", "cards")) else " deck")


def what_may_be_typed(spec: dict, ordered: list, value: Any) -> str:
    """The cards left, as a referee may type them (printed names, counted), the closest
    to ``value`` first: ``; closest: Captain 6, Captain 16; all: Alexandre Villon, ...``."""
    from difflib import SequenceMatcher

    order, left = typed_names(spec, ordered)
    typed = said_key(value) if isinstance(value, str) else canon(value)

    def likeness(name: str) -> float:   # to the name, or to its part before a bracket ("Captain 6")
        return max(SequenceMatcher(None, typed, said_key(form)).ratio() for form in (name, name.split("(")[0]))
    scored = sorted(((likeness(n), i) for i, n in enumerate(order)), key=lambda si: -si[0])
    close = [left[i] for score, i in scored[:3] if score >= 0.6] if typed else []
    return (f"; closest: {', '.join(close)}" if close else "") + f"; all: {', '.join(left)}"


def typed_names(spec: dict, cards: list) -> tuple[list[str], list[str]]:
    """The names ``cards`` (of a card request ``spec``) may be typed by, in order, and the
    same counted: ``(["blue-2", ...], ["blue-2 x3", ...])`` (a name takes any copy of it)."""
    from collections import Counter

    names = spec.get("names") or {}
    counts = Counter(said_as(c, spec) if c in names else _copy_mark().sub("", canon(c).strip('"')) for c in cards)
    order = sorted(counts, key=_natural)
    return order, [f"{n} x{counts[n]}" if counts[n] > 1 else n for n in order]


# blue-4a, blue-4b: copies of blue-4, which names any of them
_copy_mark = pattern(r"(?<=\d)[a-z]$")


def _natural(name: str) -> list:
    """A name's sort key: its words, a number as a number (Captain 6 before Captain 16)."""
    return [(0, int(w), "") if w.isdigit() else (1, 0, w) for w in said_key(name).split()]


def said_key(text: str) -> str:
    """A name as typed, compared: lower case, any run of spaces and punctuation one space
    (``Dutch Naval Ship (Philips van Almonde)`` = ``dutch naval ship philips van almonde``),
    a number without its leading zeros (``captain_06`` = ``Captain 6``)."""
    return " ".join(w.lstrip("0") or "0" if w.isdigit() else w for w in _words().findall(text.lower()))


_words = pattern(r"[^\W_]+")


def said_as(card: Any, spec: dict) -> str:
    """How a referee names ``card`` of a card request: as printed (``spec["names"]``),
    with what tells it apart from the other copies of that name where they differ
    (``spec["marks"]``): ``Dutch Naval Ship (Philips van Almonde)``; else its id."""
    names = spec.get("names") or {}
    if not isinstance(card, str) or card not in names:
        return str(card)
    mark = (spec.get("marks") or {}).get(card)
    return f"{names[card]} ({mark})" if mark else names[card]


def by_name(spec: dict, ordered: list, value: str) -> tuple[Any, int] | None:
    """The card ``value`` names among ``ordered`` (``(card, index)``), or None.

    A card is named by its id (any case), by what is printed on it (``spec["names"]``),
    by another name the game accepts (``spec["aliases"]``: a list each), or, where copies
    of one printed name differ (``spec["marks"]``: what tells them apart), by its name and
    mark, or its name and words of its mark in their order (``rum 3 masts`` for ``rum
    (raid 3; hit on the masts)``). Copies of one name that do not differ are
    interchangeable: any one left will do. Copies that differ are not: a name (or words)
    that more than one of them answers is refused, listing them."""
    names = spec.get("names") or {}
    marks = spec.get("marks") or {}
    aliases = spec.get("aliases") or {}
    key = said_key(value)
    if not key:
        return None
    found = []
    for i, c in enumerate(ordered):
        if not isinstance(c, str):
            continue
        if said_key(c) == key or (c in marks and said_key(said_as(c, spec)) == key):
            return c, i                  # its id, or its name and mark: this very card
        if said_key(names.get(c, "")) == key or any(said_key(a) == key for a in aliases.get(c, ())):
            found.append((c, i))
    if not found:       # its printed name before a bracket, the word "card" aside: "Captain 6" or
        bare = _uncarded(key)   # "captain card 6" (as a log says it) for "Captain 6 (name unknown)"
        for i, c in enumerate(ordered):
            name = names.get(c, "")
            if _uncarded(said_key(name.split("(")[0])) == bare:
                found.append((c, i))
    if not found:       # its name, then words of its mark in their order, enough to tell it apart: "rum 3 masts"
        for i, c in enumerate(ordered):
            name = said_key(names.get(c, "")) if c in marks else ""
            if name and key.startswith(name + " ") and _in_order(key[len(name) + 1:].split(), said_key(marks[c]).split()):
                found.append((c, i))
    if not found:
        return None
    which: dict = {}
    for c, _ in found:
        which.setdefault(marks.get(c), []).append(c)
    if len(which) > 1:
        listed = "; ".join(f"{'/'.join(ids)}: {said_as(ids[0], spec)}" for ids in sorted(which.values()))
        raise ChanceRejected(f"{json.dumps(value)} names {len(which)} different cards left in "
                             f"{deck_said(spec)}: say which, by its id or by its name with what tells it apart "
                             f"({listed})")
    return found[0]


def _uncarded(key: str) -> str:
    return " ".join(w for w in key.split() if w != "card")


def _in_order(words: list, among: list) -> bool:
    """Every word of ``words`` in ``among``, in that order (others may lie between)."""
    rest = iter(among)
    return all(w in rest for w in words)


def is_copy_of(card_id: str, name: str) -> bool:
    """``blue-4a`` and ``blue-4b`` are copies of ``blue-4``; ``reflag-1`` of ``reflag``."""
    if not card_id.startswith(name) or len(card_id) == len(name):
        return False
    rest = card_id[len(name):]
    return (len(rest) == 1 and rest.isalpha()) or (rest[0] == "-" and rest[1:].isdigit())


def read_face(spec: dict, v: Any) -> int:
    """A die face as the referee reads it: a number, a face the game names
    (``spec["faces"]``, e.g. ``{"skull": 6}``), or 0 on a d10 (printed for 10)."""
    if isinstance(v, str):
        text = v.strip().lower()
        faces = spec.get("faces") or {}
        if text in faces:
            return faces[text]
        if text.lstrip("-").isdigit():
            v = int(text)
        else:
            named = ", ".join(sorted(faces))
            raise ChanceRejected(f"{v!r} is not a die face: give a number 1..{spec['sides']}"
                                 + (f" or {named}" if named else ""))
    if spec["sides"] == 10 and v == 0 and not isinstance(v, bool):
        return 10
    return v


class SeededChance:
    """Outcomes from the committed seed's stream."""

    source = "stream"

    def __init__(self, seed: bytes, entropies: list[bytes], counter: int) -> None:
        self.seed = seed
        self.stream = Stream(derive_key(seed, entropies), counter)

    def outcome(self, spec: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        start = self.stream.counter
        value, index = compute(self.stream, spec)
        return value, {"index": index, "counter": start, "draws": self.stream.counter - start}

    def reveal(self) -> str | None:
        return self.seed.hex()


class TableChance:
    """Outcomes typed in by the referee, in order; pauses when they run out."""

    source = "table"

    def __init__(self, outcomes: list) -> None:
        self.outcomes = list(outcomes)
        self.used = 0

    def outcome(self, spec: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        if self.used >= len(self.outcomes):
            raise NeedChance(spec)
        value, index = validate(spec, self.outcomes[self.used])
        self.used += 1
        return value, {"index": index, "counter": None, "draws": 0}

    def reveal(self) -> str | None:
        return None


class StatedChance:
    """A game started from a stated position (``Rules.position``): its setup's outcomes
    asked ``stated`` (the hidden part of the position, e.g. the cards of a hand) are the
    position's, in order, checked like an outcome entered at a table; the others come
    from ``inner`` (the seed's stream, or the table)."""

    def __init__(self, stated: list, inner: Chance) -> None:
        self.stated = list(stated)
        self.used = 0
        self.inner = inner
        self.source = inner.source  # type: ignore[attr-defined]  # (the seed's stream or the table: both say theirs)

    def outcome(self, spec: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        if not spec.get("stated"):
            return self.inner.outcome(spec)
        if self.used >= len(self.stated):
            raise ChanceRejected(f"the position states fewer outcomes than the setup asks ({spec.get('why', '')})")
        value, index = validate(spec, self.stated[self.used])
        self.used += 1
        return value, {"index": index, "counter": None, "draws": 0}

    def reveal(self) -> str | None:
        return self.inner.reveal()


class ReplayChance:
    """Outcomes as recorded in the log (for the audit's re-run of a step).

    It returns what was recorded and checks each recorded value fits what
    the rules ask for now; the audit then compares the re-derived events with
    the stored ones, so a recorded outcome that does not match its request
    (another deck, another die size, another index) is caught there."""

    def __init__(self, recorded: list[dict], seed_hex: str | None, seeded: bool = False) -> None:
        self.recorded = recorded
        self.used = 0
        self.seed_hex = seed_hex
        self.seeded = seeded  # a seeded game: only a stated position's outcomes were not drawn from the stream

    def outcome(self, spec: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        if self.used >= len(self.recorded):
            raise NeedChance(spec)
        rec = self.recorded[self.used]
        self.used += 1
        kind = spec["kind"]
        if bool(rec.get("stated")) != bool(spec.get("stated")):
            raise ChanceRejected("a stated position's outcome where the rules ask for chance"
                                 if rec.get("stated") else "chance where the rules ask for a stated position's outcome")
        if self.seeded and (rec.get("counter") is None) != bool(spec.get("stated")):
            raise ChanceRejected("an outcome the position states, recorded as drawn from the seed's stream"
                                 if spec.get("stated") else
                                 "an outcome of a seeded game recorded without its place in the seed's stream "
                                 "(only a stated position's outcomes are)")
        field = {"dice": "values", "card": "card", "pick": "value", "shuffle": "order"}[kind]
        value, index = validate(spec, rec.get(field))
        recorded_index = rec.get("index")
        if kind in ("card", "pick") and recorded_index is not None:
            pool = canonical_order(spec["choices"]) if kind == "card" else spec["options"]
            if not (isinstance(recorded_index, int) and 0 <= recorded_index < len(pool)
                    and canon(pool[recorded_index]) == canon(value)):
                raise ChanceRejected(f"recorded index {recorded_index} does not point at {canon(value)}")
            index = recorded_index
        return value, {"index": index, "counter": rec.get("counter"), "draws": rec.get("draws", 0)}

    def reveal(self) -> str | None:
        return self.seed_hex


def recompute(key: bytes, kind: str, data: dict) -> Any:
    """Recompute a recorded chance event from the key alone.

    Returns a list of problems (empty when the event matches the stream)."""
    counter, draws = data.get("counter"), data.get("draws")
    if counter is None:
        return []
    s = Stream(key, counter)
    if kind == "DiceRolled":
        got, _ = compute(s, {"kind": "dice", "sides": data["sides"], "n": data["n"]})
        ok = got == data["values"]
    elif kind == "CardDrawn":
        got = s.uniform(data["of"])
        ok = got == data["index"]
    elif kind == "ChanceChosen":
        got = s.uniform(len(data["options"]))
        ok = got == data["index"] and data["options"][got] == data["value"]
    elif kind == "DeckShuffled":
        got, _ = compute(s, {"kind": "shuffle", "cards": data["order"], "deck": data["deck"]})
        ok = got == data["order"]
    else:
        return [f"unknown chance event {kind}"]
    problems = []
    if not ok:
        problems.append(f"{kind} outcome does not match the seed's stream at counter {counter}")
    if s.counter - counter != draws:
        problems.append(f"{kind} used {draws} stream blocks, the stream needs {s.counter - counter}")
    return problems

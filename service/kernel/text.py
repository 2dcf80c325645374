"""Text that people type: player names, game and tournament names, referee notes,
correction reasons. One check for every way in (HTTP bodies and queries, the CLI,
positions, invitations and joins, imported records and exports), pure, no I/O.

A text as typed is NFC-normalised and stripped, then refused, in one line naming the
field, when it holds

* a control character: C0 (NUL, line breaks, tab, ESC, ...), DEL or C1;
* a bidirectional override or isolate (U+202A-U+202E, U+2066-U+2069), which make a
  text read in another order than it is stored;
* a line or paragraph separator (U+2028, U+2029), which split a line as a line break does;
* half of a surrogate pair, which is no character (it cannot be written as UTF-8);

or when it is empty where a text is required, or longer than its kind allows.

A text read back from an import (``kept``) must pass the same refusals, and is not
changed: its events must equal the original's one for one. ``shown`` writes any text
(an old game's, stored before these checks) for a terminal, its forbidden characters
escaped.

It lives in the kernel because the kernel checks a game's names at its creation
(``service.kernel.local.created_event``); everything above imports it from here.
"""

from __future__ import annotations

import re

from .errors import BadInput
from .patterns import pattern

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    from typing import Any

_forbidden = pattern("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff]")
_seat = pattern(r"^seat \d+$")


class Kind:
    """A kind of typed text (a plain class, not a dataclass: ``dataclasses`` imports ``inspect``,
    a tenth of a quick ``tools replay``'s start, which reaches this module through tools/plain.py)."""

    __slots__ = ("field", "limit", "required")

    def __init__(self, field: str, limit: int, required: bool) -> None:
        self.field = field        # how a refusal names it, unless the caller names it more closely
        self.limit = limit        # characters, after normalising
        self.required = required  # an empty text is refused

    def __repr__(self) -> str:
        return f"Kind({self.field!r}, {self.limit}, {self.required})"


PLAYER = Kind("player name", 200, True)
GAME_NAME = Kind("game name", 200, False)
TOURNAMENT = Kind("tournament", 200, False)
NOTE = Kind("referee note", 1000, True)
REASON = Kind("reason", 500, True)


def what_is_wrong(c: str) -> str:
    """What a forbidden character is, in words, with its code point."""
    n = ord(c)
    if 0x202A <= n <= 0x202E or 0x2066 <= n <= 0x2069:
        kind = "a bidirectional control"
    elif n in (0x2028, 0x2029):
        kind = "a line separator"
    elif 0xDC80 <= n <= 0xDCFF:  # how Python reads a byte of a command line that is not UTF-8
        return f"a byte that is not UTF-8 (0x{n - 0xDC00:02X})"
    elif 0xD800 <= n <= 0xDFFF:
        kind = "half of a surrogate pair"
    else:
        kind = "a control character"
    return f"{kind} (U+{n:04X})"


def _refused(kind: Kind, text: object, field: str | None) -> str:
    """The text, checked (not changed); else BadInput naming ``field``."""
    field = field or kind.field
    if not isinstance(text, str):
        raise BadInput(f"{field} must be text, not {type(text).__name__}")
    bad = _forbidden().search(text)
    if bad:
        raise BadInput(f"{field} holds {what_is_wrong(bad.group())}")
    if kind.required and not text.strip():
        raise BadInput(f"{field} is empty")
    if len(text) > kind.limit:
        raise BadInput(f"{field} is longer than {kind.limit} characters ({len(text)})")
    return text


def typed(kind: Kind, text: object, field: str | None = None) -> str:
    """``text`` as typed: NFC-normalised and stripped, then checked."""
    if isinstance(text, str):
        text = _nfc(text).strip()
    return _refused(kind, text, field)


def kept(kind: Kind, text: object, field: str | None = None) -> str:
    """``text`` read back from an import: checked as typed text is, and kept as it is."""
    return _refused(kind, text, field)


def player_name(text: object, field: str = "player name") -> str:
    """A player's name as typed (a seat is taken under it); ``seat 2`` names a seat, not a player."""
    name = typed(PLAYER, text, field)
    if _seat().match(name):
        raise BadInput(f"{name!r} names a seat, not a player: give the player's name")
    return name


def game_name(text: object) -> str:
    return typed(GAME_NAME, text)


def tournament(text: object) -> str:
    return typed(TOURNAMENT, text)


def note(text: object) -> str:
    return typed(NOTE, text)


def reason(text: object) -> str:
    return typed(REASON, text)


def kept_in_event(kind: str, data: dict[str, Any]) -> None:
    """The texts people typed that an imported event holds (a game's name, tournament and
    players, a seat's name, a referee's note, a correction's reason), each checked as kept."""
    if not isinstance(data, dict):
        return
    if kind == "GameCreated":
        kept(GAME_NAME, data.get("name") or "")
        kept(TOURNAMENT, data.get("tournament") or "")
        for seat, name in (data.get("players") or {}).items():
            kept(PLAYER, name, f"seat {seat}'s player name")
    elif kind == "SeatNamed":
        kept(PLAYER, data.get("player"), f"seat {data.get('seat')}'s player name")
    elif kind == "RefereeNoted":
        kept(NOTE, data.get("text"))
    elif kind == "Corrected":
        kept(REASON, data.get("reason"))


def referee_decision(decision: Any) -> Any:
    """A referee's decision with a note's text checked as typed (``{"referee": "note",
    "text": ...}``); any other decision as it is (the rules check it)."""
    if isinstance(decision, dict) and decision.get("referee") == "note" and isinstance(decision.get("text"), str):
        return dict(decision, text=note(decision["text"]))
    return decision


def typed_strings(value: Any, where: str) -> Any:
    """Every string of a JSON value (a stated position: names of cards, ships, places), keys
    included, NFC-normalised and checked for forbidden characters; ``where`` names the value."""
    if isinstance(value, str):
        text = _nfc(value)
        bad = _forbidden().search(text)
        if bad:
            raise BadInput(f"{where} holds {what_is_wrong(bad.group())}")
        return text
    if isinstance(value, list):
        return [typed_strings(v, f"{where}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, dict):
        return {typed_strings(k, f"{where}: a key"): typed_strings(v, f"{where}.{k}") for k, v in value.items()}
    return value


def json_kept(json_text: str) -> str:
    """JSON text (written with its characters as themselves: ``ensure_ascii=False``) with
    every forbidden character escaped (``\\u202e``), so that it stays on one line and
    reads in the order it is stored: a forbidden character of JSON text is inside a string,
    where ``\\uXXXX`` stands for it."""
    return _forbidden().sub(_json_escaped, json_text) if _forbidden().search(json_text) else json_text


def _json_escaped(m: re.Match) -> str:
    return f"\\u{ord(m.group()):04x}"


def _nfc(text: str) -> str:
    """``text`` NFC-normalised (unicodedata is loaded the first time a text is typed: a
    quick answer of the command line that reads a game needs none of its tables)."""
    if text.isascii():  # already NFC
        return text
    import unicodedata

    return unicodedata.normalize("NFC", text)


def shown(text: str) -> str:
    """``text`` for a terminal: each forbidden character escaped (``\\x1b``, ``\\u202e``)."""
    return _forbidden().sub(_escaped, text) if _forbidden().search(text) else text


def _escaped(m: re.Match) -> str:
    n = ord(m.group())
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}"


def words(text: object) -> str:
    """An id as words: ``prinz-eitel-friedrich`` -> ``prinz eitel friedrich``."""
    return str(text).replace("_", " ").replace("-", " ")

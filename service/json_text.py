"""JSON that people and scripts send: HTTP bodies, a decision or an outcome typed at the
command line, a position or catalog file. Read strictly, and when it cannot be read,
said what is wrong in one line:

* a key given twice in one object is refused, naming it (Python's reader would keep the
  last silently, and a decision read by another reader might keep the first);
* nesting deeper than the reader goes (about a thousand levels) is "nested too deeply";
* an integer of more than 4300 digits (Python's limit for reading one) is said so;
* a file is UTF-8 text (a byte order mark is allowed), or UTF-16 or UTF-32 with one.

A syntax error stays ``json.JSONDecodeError``: each caller says where, as it always has.
"""

from __future__ import annotations

import codecs
import json
import sys

from service.kernel.errors import BadInput

TYPE_CHECKING = False  # typing is not imported at run time: a quick call's start-up does without it
if TYPE_CHECKING:
    from typing import Any

MAX_DIGITS = sys.get_int_max_str_digits() or 4300


class _Twice(Exception):
    def __init__(self, key: str):
        self.key = key


def _once(pairs: list) -> dict:
    d = dict(pairs)
    if len(d) != len(pairs):
        seen: set = set()
        for k, _ in pairs:
            if k in seen:
                raise _Twice(k)
            seen.add(k)
    return d


def loads(text: str | bytes, what: str) -> Any:
    """``text`` as JSON, strictly; ``what`` names it in a refusal (``the body``)."""
    try:
        return json.loads(text, object_pairs_hook=_once)
    except _Twice as e:
        key = repr(e.key) if len(e.key) <= 60 else repr(e.key[:60]) + "..."
        raise BadInput(f"{what} has the key {key} twice") from None
    except RecursionError:
        raise BadInput(f"{what} is nested too deeply") from None
    except UnicodeDecodeError:
        raise BadInput(f"{what} is not UTF-8 text") from None
    except json.JSONDecodeError:
        raise
    except ValueError as e:  # int(): "Exceeds the limit (4300 digits) for integer string conversion"
        if "digits" in str(e):
            raise BadInput(f"{what} holds an integer of more than {MAX_DIGITS} digits") from None
        raise


_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF8, "utf-8-sig"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


def file_text(raw: bytes, what: str) -> str:
    """A file's bytes as text: UTF-8, or UTF-8, UTF-16 or UTF-32 with a byte order mark."""
    encoding = next((enc for bom, enc in _BOMS if raw.startswith(bom)), "utf-8")
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError as e:
        said = "UTF-8" if encoding == "utf-8" else encoding.upper().replace("-SIG", "")
        raise BadInput(f"{what} is not {said} text (byte {e.start + 1} is 0x{raw[e.start]:02X}): save it as "
                       "UTF-8") from None


def read_file(path: str, what: str) -> Any:
    """The JSON a file holds; ``what`` names it in a refusal (``position battle.json``)."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise BadInput(f"cannot read {what}: {e.strerror}") from None
    try:
        return loads(file_text(raw, what), what)
    except json.JSONDecodeError as e:
        raise BadInput(f"{what} is not valid JSON: {e.msg} (line {e.lineno}, column {e.colno})") from None

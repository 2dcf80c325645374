"""The service's and the CLI's logging: one format, on stderr.

Every module logs to ``logging.getLogger(__name__)``; ``configure()`` (called
by ``tools`` and ``tools serve``) gives the packages one handler:

- ``PRIVATEER_LOG_FORMAT=json`` (or ``tools serve --log-json``): one JSON
  object a line (``time``, ``level``, ``logger``, ``message``, the fields
  below when set, ``exc`` with the traceback);
- otherwise a text line: ``time level logger: message key=value ...``.

``PRIVATEER_LOG_LEVEL`` sets the level (default INFO for ``tools serve``,
WARNING for the other commands). A record carries the game it is about as
``extra={"game_id": ...}``; the request log carries ``method``, ``path``,
``status``, ``ms`` and, for a refusal, ``error`` and ``reason``. Nothing logged
holds a token: the request log has the path without its query string and no
header, and ``scrub`` blanks anything shaped like a key in a reason.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sys
import time

TYPE_CHECKING = False  # typing is not imported at run time (a quick command's start-up: tests/store/test_direct_reads.py)
if TYPE_CHECKING:
    from typing import IO

FORMAT_ENV = "PRIVATEER_LOG_FORMAT"
LEVEL_ENV = "PRIVATEER_LOG_LEVEL"
PACKAGES = ("service", "tools", "event_store", "bench")
FIELDS = ("game_id", "method", "path", "status", "ms", "error", "reason")

# a key or token as service/http/auth.py makes them (prefix_ and 43 url-safe characters), or a bearer credential
_SECRET = re.compile(r"\b[a-z]+_[A-Za-z0-9_-]{40,}|(?i:bearer)\s+\S+")


def scrub(text: str) -> str:
    """``text`` with anything shaped like a key or a bearer credential blanked."""
    return _SECRET.sub("[withheld]", text)


def _fields(record: logging.LogRecord) -> dict:
    out = {}
    for name in FIELDS:
        value = getattr(record, name, None)
        if value is not None:
            out[name] = value.hex if hasattr(value, "hex") and not isinstance(value, (str, bytes, int, float)) \
                else value
    return out


class TextFormatter(logging.Formatter):
    """``2026-01-02T03:04:05Z INFO service.app: message game_id=... status=...``"""

    def format(self, record: logging.LogRecord) -> str:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(record.created))
        line = f"{stamp} {record.levelname} {record.name}: {record.getMessage()}"
        fields = _fields(record)
        if fields:
            line += " " + " ".join(f"{k}={v}" for k, v in fields.items())
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


class JsonFormatter(logging.Formatter):
    """One JSON object a line."""

    def format(self, record: logging.LogRecord) -> str:
        out = {"time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
                       + f".{int(record.msecs):03d}Z",
               "level": record.levelname, "logger": record.name, "message": record.getMessage()}
        out.update(_fields(record))
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str)


class _Handler(logging.StreamHandler):
    """Ours, so that configuring again replaces it rather than adding another.
    Without a stream of its own it writes to ``sys.stderr`` as it is at each
    record (a test's capture, or a redirection made later, is followed)."""

    def __init__(self, stream: IO[str] | None = None):
        super().__init__(stream if stream is not None else sys.stderr)
        self._follow = stream is None

    def emit(self, record: logging.LogRecord) -> None:
        if self._follow:
            self.stream = sys.stderr
        super().emit(record)


def formatter(json_lines: bool) -> logging.Formatter:
    return JsonFormatter() if json_lines else TextFormatter()


def configure(json_lines: bool | None = None, level: str | int | None = None, default_level: str = "WARNING",
              stream: IO[str] | None = None) -> None:
    """One handler (on stderr unless ``stream``) for the packages' loggers.
    ``json_lines`` and ``level`` default to $PRIVATEER_LOG_FORMAT and
    $PRIVATEER_LOG_LEVEL; an unknown level is an error."""
    if json_lines is None:
        json_lines = os.environ.get(FORMAT_ENV, "").strip().lower() == "json"
    if level is None:
        level = os.environ.get(LEVEL_ENV, "").strip() or default_level
    if isinstance(level, str):
        named = logging.getLevelName(level.upper())
        if not isinstance(named, int):
            raise ValueError(f"unknown log level {level!r} (DEBUG, INFO, WARNING, ERROR or CRITICAL)")
        level = named
    handler = _Handler(stream)
    handler.setFormatter(formatter(json_lines))
    for name in PACKAGES:
        logger = logging.getLogger(name)
        for old in [h for h in logger.handlers if isinstance(h, _Handler)]:
            logger.removeHandler(old)
        logger.addHandler(handler)
        logger.setLevel(level)

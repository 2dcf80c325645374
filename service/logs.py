"""The service's and the CLI's logging: one format, on stderr.

Every module logs to ``logger(__name__)``; ``configure()`` (called by ``tools``
and ``tools serve``) gives the packages one handler (service/log_lines.py):

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

``logging`` itself (with its ``threading``, ``traceback``, ``string``...) is
imported when something is first logged: a quick command (tools/quick.py)
that logs nothing starts without it. Until then ``configure`` checks its
settings and keeps them; the first record logged through ``logger`` installs
them. Where ``logging`` is already imported (a server, a test), ``configure``
installs them at once.
"""

from __future__ import annotations

import os
import sys

from service.kernel.patterns import pattern

TYPE_CHECKING = False  # typing is not imported at run time (a quick command's start-up: tests/store/test_direct_reads.py)
if TYPE_CHECKING:
    import logging
    from typing import IO, Any

FORMAT_ENV = "PRIVATEER_LOG_FORMAT"
LEVEL_ENV = "PRIVATEER_LOG_LEVEL"
PACKAGES = ("service", "tools", "event_store", "bench")
# the level names ``logging`` knows (its ``getLevelName``), without importing it
_LEVELS = {"CRITICAL": 50, "FATAL": 50, "ERROR": 40, "WARN": 30, "WARNING": 30, "INFO": 20, "DEBUG": 10,
           "NOTSET": 0}


# a key or token as service/http/auth.py makes them (prefix_ and 43 url-safe characters), or a bearer credential
_secret = pattern(r"\b[a-z]+_[A-Za-z0-9_-]{40,}|(?i:bearer)\s+\S+")


def scrub(text: str) -> str:
    """``text`` with anything shaped like a key or a bearer credential blanked."""
    return _secret().sub("[withheld]", text)


# configure's settings (json lines, level, stream) while logging is not imported; installed at the first record
_pending: tuple[bool, int, IO[str] | None] | None = None


def configure(json_lines: bool | None = None, level: str | int | None = None, default_level: str = "WARNING",
              stream: IO[str] | None = None) -> None:
    """One handler (on stderr unless ``stream``) for the packages' loggers.
    ``json_lines`` and ``level`` default to $PRIVATEER_LOG_FORMAT and
    $PRIVATEER_LOG_LEVEL; an unknown level is an error."""
    global _pending
    if json_lines is None:
        json_lines = os.environ.get(FORMAT_ENV, "").strip().lower() == "json"
    if level is None:
        level = os.environ.get(LEVEL_ENV, "").strip() or default_level
    if isinstance(level, str):
        if level.upper() not in _LEVELS:
            raise ValueError(f"unknown log level {level!r} (DEBUG, INFO, WARNING, ERROR or CRITICAL)")
        level = _LEVELS[level.upper()]
    _pending = (json_lines, level, stream)
    if "logging" in sys.modules:
        _install()


def _install() -> None:
    global _pending
    if _pending is not None:
        from service.log_lines import install

        settings, _pending = _pending, None
        install(PACKAGES, *settings)


class Logger:
    """``logging.getLogger(name)``, got when it is first used (its ``debug``,
    ``warning``, ``exception``...): ``logging`` is imported then, and the
    settings ``configure`` kept are installed first."""

    __slots__ = ("name", "_logger")

    def __init__(self, name: str):
        self.name = name
        self._logger: logging.Logger | None = None

    def __getattr__(self, attr: str) -> Any:
        if self._logger is None:
            import logging

            _install()
            self._logger = logging.getLogger(self.name)
        return getattr(self._logger, attr)


def logger(name: str) -> Logger:
    """The logger a module of the packages logs to: ``logger(__name__)``."""
    return Logger(name)

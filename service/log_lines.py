"""What a log line of the service and the CLI looks like (service/logs.py says when
they are used): ``TextFormatter``'s line or ``JsonFormatter``'s object, written by
``install``'s one handler for the packages' loggers. Imported only when something
is logged or the log is configured where ``logging`` is already imported, so that a
quick command's start-up does without ``logging`` (and its ``threading``, ``traceback``).
"""

from __future__ import annotations

import json
import logging
import sys
import time

TYPE_CHECKING = False  # typing is not imported at run time
if TYPE_CHECKING:
    from typing import IO

FIELDS = ("game_id", "method", "path", "status", "ms", "error", "reason")


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


def install(packages: tuple[str, ...], json_lines: bool, level: int, stream: IO[str] | None = None) -> None:
    """One handler (on stderr unless ``stream``) for the ``packages``' loggers, at ``level``,
    in place of one installed before."""
    handler = _Handler(stream)
    handler.setFormatter(formatter(json_lines))
    for name in packages:
        logger = logging.getLogger(name)
        for old in [h for h in logger.handlers if isinstance(h, _Handler)]:
            logger.removeHandler(old)
        logger.addHandler(handler)
        logger.setLevel(level)

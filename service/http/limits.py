"""Limits on what one request may cost the service.

* ``PRIVATEER_MAX_BODY`` (bytes, default 65536): a larger request body is
  refused with 413 before anything reads it: at once when its Content-Length
  says so, else (chunked) as soon as the bytes received pass the limit
  (service/http/bodies.py).
* ``PRIVATEER_MAX_CATALOG`` (bytes, default 1048576): the body of ``POST /catalogs``
  (an organiser's printed-card catalog: the built-in ones are up to 100 KB), in
  place of ``PRIVATEER_MAX_BODY`` for that path alone.
* ``PRIVATEER_STREAM_MAX_SECONDS`` (default 600) and
  ``PRIVATEER_STREAM_MAX_EVENTS`` (default 10000): a live stream ends with
  ``event: end`` when either is reached (the client resumes with ``?after=``).
* ``PRIVATEER_ANALYSIS_MAX_PLAYOUTS`` (default 2000): the most playouts one
  ``GET /games/{id}/analysis`` may ask for (400 beyond; ``tools analyse`` has no cap).
* ``PRIVATEER_BOT_QUANTUM`` (seconds; 0: none; default each game's own, 0.2, Merchants &
  Marauders' 0.1, The Kaiser's Pirates' 0.15: service/http/bot_pacing.py ``QUANTA``): a run of a bot's decisions
  is appended at slots that depend only on their count, the first a quantum after the run
  began, each next ``PACE`` (0.7) quanta later, so the moment a decision shows in the log
  does not tell how long its search took (service/http/bots.py; the tradeoff:
  service/http/README.md).

``tools serve --max-body/--stream-max-seconds/--stream-max-events/--bot-quantum`` set them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass


def _env_int(name: str, default: int) -> int:
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    value = int(text)
    if value < 1:
        raise ValueError(f"{name} must be at least 1")
    return value


def _env_seconds(name: str, default: float | None) -> float | None:
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    value = float(text)
    if not 0 <= value <= 60:
        raise ValueError(f"{name} must be from 0 to 60 seconds")
    return value


@dataclass(frozen=True)
class Limits:
    max_body: int = 64 * 1024
    max_catalog: int = 1024 * 1024
    stream_seconds: int = 600
    stream_events: int = 10_000
    analysis_playouts: int = 2000
    bot_quantum: float | None = None  # None: each game's (bot_pacing.quantum_for), above its slowest search: README.md

    @classmethod
    def from_env(cls) -> "Limits":
        return cls(max_body=_env_int("PRIVATEER_MAX_BODY", cls.max_body),
                   max_catalog=_env_int("PRIVATEER_MAX_CATALOG", cls.max_catalog),
                   stream_seconds=_env_int("PRIVATEER_STREAM_MAX_SECONDS", cls.stream_seconds),
                   stream_events=_env_int("PRIVATEER_STREAM_MAX_EVENTS", cls.stream_events),
                   analysis_playouts=_env_int("PRIVATEER_ANALYSIS_MAX_PLAYOUTS", cls.analysis_playouts),
                   bot_quantum=_env_seconds("PRIVATEER_BOT_QUANTUM", cls.bot_quantum))

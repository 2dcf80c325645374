"""service/logs.py: one format for the service and the CLI, JSON lines on request, the game's id
in the line, the level from the environment, nothing shaped like a key in a reason."""

from __future__ import annotations

import io
import json
import logging
import subprocess
import sys

import pytest

from service.logs import PACKAGES, configure, scrub


@pytest.fixture
def restored():
    saved = {name: (logging.getLogger(name).level, list(logging.getLogger(name).handlers)) for name in PACKAGES}
    yield
    for name, (level, handlers) in saved.items():
        logger = logging.getLogger(name)
        logger.setLevel(level)
        logger.handlers[:] = handlers


def test_text_lines_carry_the_game_and_a_traceback(restored):
    out = io.StringIO()
    configure(json_lines=False, level="INFO", stream=out)
    log = logging.getLogger("service.somewhere")
    log.info("folded", extra={"game_id": "ab" * 16})
    log.debug("not at INFO")
    try:
        raise KeyError("x")
    except KeyError:
        log.exception("failed")
    lines = out.getvalue().splitlines()
    assert lines[0].endswith("INFO service.somewhere: folded game_id=" + "ab" * 16)
    assert "not at INFO" not in out.getvalue()
    assert "ERROR service.somewhere: failed" in lines[1] and "KeyError: 'x'" in out.getvalue()


def test_json_lines_from_the_environment_and_configuring_again_replaces_the_handler(restored, monkeypatch):
    monkeypatch.setenv("PRIVATEER_LOG_FORMAT", "json")
    monkeypatch.setenv("PRIVATEER_LOG_LEVEL", "warning")
    out = io.StringIO()
    configure(stream=out)
    configure(stream=out)  # once only, still
    logging.getLogger("tools.x").info("below the level")
    logging.getLogger("event_store.y").warning("kept %d", 3, extra={"game_id": "cd" * 16, "status": 409})
    [line] = out.getvalue().splitlines()
    doc = json.loads(line)
    assert (doc["level"], doc["logger"], doc["message"], doc["game_id"], doc["status"]) == \
        ("WARNING", "event_store.y", "kept 3", "cd" * 16, 409)


def test_an_unknown_level_is_refused(restored):
    with pytest.raises(ValueError, match="unknown log level"):
        configure(level="loud")


def test_keys_and_bearer_credentials_are_blanked():
    token = "seat_" + "A" * 43
    assert token not in scrub(f"no seat holds {token}")
    assert "secret" not in scrub("Authorization: Bearer secret")
    assert scrub("expected version 3, the game is at version 4") == "expected version 3, the game is at version 4"


def test_a_process_that_logs_nothing_does_without_logging_and_the_first_record_has_the_format():
    """Configured before ``logging`` is imported (a quick command), the settings are kept, checked,
    and installed by the first record logged."""
    script = ("import sys\n"
              "from service.logs import configure, logger\n"
              "configure(json_lines=True, level='info')\n"
              "print('logging' in sys.modules)\n"
              "log = logger('service.somewhere')\n"
              "print('logging' in sys.modules)\n"
              "log.debug('below the level')\n"
              "log.info('folded', extra={'game_id': 'ab' * 16})\n")
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert p.stdout.split() == ["False", "False"]
    [line] = p.stderr.splitlines()
    doc = json.loads(line)
    assert (doc["level"], doc["logger"], doc["message"], doc["game_id"]) == \
        ("INFO", "service.somewhere", "folded", "ab" * 16)

"""``tools --help`` (tools/help_page.py): the page Typer drew, kept for the same terminal and
printed again without Typer; another terminal, or a folder that cannot be written, draws it anew."""

from __future__ import annotations

import os
import subprocess
import sys


def helped(tmp_path, **env) -> subprocess.CompletedProcess:
    """``tools --help`` with Python's import log on standard error (``-X importtime``)."""
    environment = dict(os.environ, PRIVATEER_CACHE_DIR=str(tmp_path / "cache"), COLUMNS="80")
    environment.update(env)
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    return subprocess.run([sys.executable, "-X", "importtime", "-m", "tools", "--help"],
                          capture_output=True, text=True, env=environment, check=True)


def drew_with_typer(p: subprocess.CompletedProcess) -> bool:
    return any(line.split("|")[-1].strip() == "typer" for line in p.stderr.splitlines())


def test_the_second_help_is_the_first_page_printed_without_typer(tmp_path):
    first = helped(tmp_path)
    assert drew_with_typer(first) and "Commands" in first.stdout and " replay " in first.stdout
    assert len(os.listdir(tmp_path / "cache")) == 1
    second = helped(tmp_path)
    assert not drew_with_typer(second)
    assert second.stdout == first.stdout


def test_another_width_is_drawn_again_for_that_width(tmp_path):
    narrow = helped(tmp_path, COLUMNS="60")
    wide = helped(tmp_path, COLUMNS="120")
    assert drew_with_typer(narrow) and drew_with_typer(wide)
    assert max(map(len, narrow.stdout.splitlines())) <= 60 < max(map(len, wide.stdout.splitlines()))
    again = helped(tmp_path, COLUMNS="120")   # the newest page is kept, the older one removed
    assert not drew_with_typer(again) and again.stdout == wide.stdout
    assert len(os.listdir(tmp_path / "cache")) == 1


def test_a_folder_that_cannot_be_written_costs_only_the_speed(tmp_path):
    kept = helped(tmp_path)
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    for _ in range(2):
        p = helped(tmp_path, PRIVATEER_CACHE_DIR=str(blocked / "cache"))
        assert drew_with_typer(p) and p.stdout == kept.stdout and "Traceback" not in p.stderr

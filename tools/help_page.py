"""``tools --help``: the page as the command drew it last, for the same terminal.

Typer derives every command's options from its signature and rich draws the panels:
a quarter of a second of processor time, eight times a bare ``python -c pass``, for a
page that changes only when the tools change. So the first ``tools --help`` is drawn
by Typer as always, and what it printed, byte for byte, is kept under a key made of
everything the drawing depends on: the command modules' files and Typer's, click's
and rich's (name, size, time of change), the program's name, whether the output is a
terminal, its size and encoding, and the environment variables Typer, click and rich
read. A later ``tools --help`` with the same key prints the kept page; anything else
(another terminal width, a changed command) is drawn by Typer again. One drawing, one
code path: the kept page is only ever what Typer printed.

Where: ``$PRIVATEER_CACHE_DIR``, else ``$XDG_CACHE_HOME/privateer``, else
``~/.cache/privateer``; one page at a time (a new one replaces the others). A
folder that cannot be written costs only the speed: the page is drawn each time.
"""

from __future__ import annotations

import hashlib
import io
import os
import sys

TYPE_CHECKING = False  # typing is not imported at run time: `tools --help` starts without it
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TextIO

# what Typer, click and rich read from the environment to draw the page
ENVIRONMENT = ("COLUMNS", "LINES", "TERM", "COLORTERM", "NO_COLOR", "FORCE_COLOR", "PY_COLORS",
               "TTY_COMPATIBLE", "TTY_INTERACTIVE", "TERMINAL_WIDTH", "GITHUB_ACTIONS", "TYPER_USE_RICH",
               "_TYPER_FORCE_DISABLE_TERMINAL", "JUPYTER_COLUMNS", "JUPYTER_LINES", "PYTHONIOENCODING",
               "LANG", "LC_ALL", "LC_CTYPE")
DRAWN_BY = ("typer", "click", "rich")
PREFIX = "help-"


def show(draw: Callable[[], object]) -> None:
    """Print the kept page for this terminal, or call ``draw`` (Typer's ``app()``, which
    prints the page and exits 0) and keep what it printed."""
    path = _kept_path()
    try:
        with open(path, encoding="utf-8", newline="") as f:
            page = f.read()
    except OSError:  # none kept yet, or a folder that cannot be read: drawn
        page = None
    if page is not None:
        sys.stdout.write(page)
        sys.stdout.flush()
        return
    kept = _Kept(sys.stdout)
    sys.stdout = kept
    try:
        draw()
    except SystemExit as e:
        if e.code in (0, None):
            _keep(path, "".join(kept.parts))
        raise
    finally:
        sys.stdout = kept.real
    _keep(path, "".join(kept.parts))


def folder() -> str:
    if os.environ.get("PRIVATEER_CACHE_DIR"):
        return os.environ["PRIVATEER_CACHE_DIR"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "privateer")


def _kept_path() -> str:
    return os.path.join(folder(), PREFIX + _key() + ".txt")


def _key() -> str:
    h = hashlib.sha256()
    h.update(repr((sys.version, sys.executable, os.path.basename(sys.argv[0]) if sys.argv else "",
                   [os.environ.get(name) for name in ENVIRONMENT], _terminal())).encode())
    tools = os.path.dirname(os.path.abspath(__file__))
    for directory in [tools] + [_installed(name) for name in DRAWN_BY]:
        if directory is None:
            continue
        for entry in sorted(os.scandir(directory), key=lambda e: e.name):
            if entry.name.endswith(".py"):
                st = entry.stat()
                h.update(f"{entry.path}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()[:32]


def _installed(name: str) -> str | None:
    """The folder of an installed package, found without importing it."""
    from importlib.util import find_spec

    spec = find_spec(name)
    return os.path.dirname(spec.origin) if spec is not None and spec.origin else None


def _terminal() -> tuple:
    """What the page's drawing sees of the output: a terminal or not, its encoding, and the
    size rich takes (the first of standard input, output and error that is a terminal)."""
    out = sys.stdout
    size = None
    for fd in (0, 1, 2):
        try:
            size = tuple(os.get_terminal_size(fd))
            break
        except OSError:
            continue
    return (out.isatty(), getattr(out, "encoding", None), size)


def _keep(path: str, page: str) -> None:
    """Keep ``page`` at ``path`` (written whole, then put in place), the older pages removed."""
    if not page:
        return
    directory = os.path.dirname(path)
    try:
        os.makedirs(directory, exist_ok=True)
        for entry in os.scandir(directory):
            if entry.name.startswith(PREFIX) and entry.path != path:
                os.remove(entry.path)
        part = f"{path}.{os.getpid()}"
        with open(part, "w", encoding="utf-8", newline="") as f:
            f.write(page)
        os.replace(part, path)
    except OSError as e:  # a folder that cannot be written: the page is drawn again next time
        from service.logs import logger

        logger(__name__).debug("tools --help: the page is not kept in %s (%s)", directory, e)


class _Kept(io.TextIOBase):
    """Standard output as the drawing sees it (a terminal or not, its descriptor and encoding),
    keeping a copy of what is written."""

    def __init__(self, real: TextIO):
        self.real = real
        self.parts: list[str] = []

    def write(self, s: str) -> int:
        if not isinstance(s, str):  # as a text stream answers click's probe for a binary one
            raise TypeError(f"write() argument must be str, not {type(s).__name__}")
        self.parts.append(s)
        return self.real.write(s)

    def flush(self) -> None:
        self.real.flush()

    def isatty(self) -> bool:
        return self.real.isatty()

    def fileno(self) -> int:
        return self.real.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]  # read-only: the real stream's
        return self.real.encoding

    @property
    def errors(self) -> str | None:  # type: ignore[override]  # read-only: the real stream's
        return self.real.errors

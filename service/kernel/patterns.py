"""Regular expressions compiled at their first use (``pattern``): a module that holds one
does not compile it at import, so a command that never uses it starts without that cost
(issue 45: ``tools replay``'s start-up, tools/quick.py)."""

from __future__ import annotations

import functools
import re

TYPE_CHECKING = False  # typing is not imported at run time: a quick command's start-up does without it
if TYPE_CHECKING:
    from collections.abc import Callable


def pattern(expr: str, flags: int = 0) -> Callable[[], re.Pattern[str]]:
    """A getter of ``re.compile(expr, flags)``: compiled at its first call, then kept."""
    return functools.cache(lambda: re.compile(expr, flags))

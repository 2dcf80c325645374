"""Card catalogs an organiser loads from a file (printed values)."""

from __future__ import annotations

import json

from service.kernel.errors import BadInput
from service.kernel.rules import get_rules


def load_catalog_file(game: str, path: str) -> dict:
    rules = get_rules(game)
    try:
        with open(path) as f:
            cat = json.load(f)
    except OSError as e:
        raise BadInput(f"cannot read catalog {path}: {e.strerror}") from None
    except json.JSONDecodeError as e:
        raise BadInput(f"catalog {path} is not valid JSON: {e.msg} (line {e.lineno})") from None
    validate = getattr(rules, "validate_catalog", None)
    if validate is None:
        raise BadInput(f"{game} does not take a catalog file")
    return validate(cat)

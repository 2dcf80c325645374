"""Card catalogs an organiser loads from a file (printed values)."""

from __future__ import annotations

from service.json_text import read_file
from service.kernel.errors import BadInput
from service.kernel.rules import get_rules


def load_catalog_file(game: str, path: str) -> dict:
    rules = get_rules(game)
    cat = read_file(path, f"catalog {path}")
    validate = getattr(rules, "validate_catalog", None)
    if validate is None:
        raise BadInput(f"{game} does not take a catalog file")
    return validate(cat)

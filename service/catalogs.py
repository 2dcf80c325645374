"""Card catalogs an organiser loads (printed values): from a file (``tools new
--catalog FILE``) or from the organiser's page (``POST /catalogs``), both through
``check_catalog``: the game's rules validate it (the error named), every text in
it is checked as typed text is. A loaded catalog is kept by its digest
(``privateer_catalogs``) and a game is created with it by that digest."""

from __future__ import annotations

import json
from typing import Any

from service.json_text import read_file
from service.kernel.errors import BadInput
from service.kernel.rules import catalog_digest
from service.kernel.games import get_rules
from service.kernel.text import typed_strings


def check_catalog(game: str, catalog: Any, where: str) -> dict:
    """The catalog as the game will use it: validated by the game's rules; ``where`` names it in a refusal."""
    rules = get_rules(game)
    validate = getattr(rules, "validate_catalog", None)
    if validate is None:
        raise BadInput(f"{game} does not take a catalog")
    if not isinstance(catalog, dict):
        raise BadInput(f"{where} is not a catalog: a JSON object is expected, as the game's built-in one "
                       f"(service/aggregates/<game>/data/catalog.json)")
    catalog = typed_strings(catalog, where)
    if catalog.get("game", game) != game:
        raise BadInput(f"{where} is a catalog of {catalog['game']}, not of {game}")
    try:
        return validate(catalog)
    except BadInput as e:
        raise BadInput(f"{where}: {e.reason}") from None
    except (KeyError, TypeError, ValueError, AttributeError) as e:  # a shape the rules' check did not expect
        raise BadInput(f"{where} cannot be read as a catalog of {game} ({type(e).__name__}: {e})") from None


def load_catalog_file(game: str, path: str) -> dict:
    return check_catalog(game, read_file(path, f"catalog {path}"), f"catalog {path}")


def loaded_catalog(recorder: Any, digest: str, game: str) -> dict:
    """A catalog the organiser loaded, by its digest, for a game of ``game``."""
    row = recorder.select_catalog(digest)
    if row is None:
        raise BadInput(f"no catalog {digest[:16]!r} was loaded (POST /catalogs lists them with GET)")
    if row["game"] != game:
        raise BadInput(f"catalog {digest[:16]} ({row['name'] or 'unnamed'}) is for {row['game']}, not {game}")
    return json.loads(row["catalog"])


def catalog_row(game: str, name: str, catalog: dict, created: str) -> tuple[str, str, str, str, str]:
    """A checked catalog as stored (``privateer_catalogs``): digest, game, name, JSON text, created."""
    return (catalog_digest(catalog), game, name, json.dumps(catalog, ensure_ascii=False, sort_keys=True), created)

"""The card data file is validated at load, with a clear error."""

from __future__ import annotations

import copy
import json

import pytest

from service.kernel import BadInput
from service.aggregates.loot import catalog


def test_builtin_catalog_is_all_rulebook():
    cat = catalog.load()
    assert all(cat[k]["source"] == "rulebook" for k in catalog.KEYS)
    merchants = cat["merchants"]["value"]
    assert sum(int(g) * n for g, n in merchants.items()) == 100 and sum(merchants.values()) == 25


@pytest.mark.parametrize("mutate,reason", [
    (lambda c: c.pop("admirals"), "admirals"),
    (lambda c: c["merchants"].update(source="guess"), "source"),
    (lambda c: c["merchants"]["value"].update({"x": 1}), "not a positive number"),
    # "05" would deal a second merchant-5a beside "5"'s; "²" passes str.isdigit but is no number
    (lambda c: c["merchants"]["value"].update({"05": 1}), "'05' is not a positive number"),
    (lambda c: c["pirates_per_colour"]["value"].update({"\u00b2": 1}), "is not a positive number"),
    (lambda c: c["merchants"]["value"].update({"0": 1}), "'0' is not a positive number"),
    (lambda c: c["pirates_per_colour"]["value"].update({"2": -1}), "count"),
    (lambda c: c["colours"].update(value=["blue", "blue"]), "distinct"),
    (lambda c: c["colours"].update(value=["merchant"]), "distinct"),
    (lambda c: c["hand_size"].update(value=0), "hand_size"),
    (lambda c: c["hand_size"].update(value=10), "deck of 78 cards"),
])
def test_bad_catalog_is_refused(mutate, reason, tmp_path):
    cat = copy.deepcopy(catalog.load())
    mutate(cat)
    with pytest.raises(BadInput, match=reason):
        catalog.validate(cat)
    path = tmp_path / "c.json"
    path.write_text(json.dumps(cat))
    with pytest.raises(BadInput, match=reason):
        catalog.load(path)


def test_unreadable_catalog(tmp_path):
    path = tmp_path / "c.json"
    path.write_text("{not json")
    with pytest.raises(BadInput, match="cannot read"):
        catalog.load(path)

"""The catalog is data, validated at load; options are validated too."""

import copy
import json

import pytest

from service.aggregates.merchants_and_marauders import RULES
from service.aggregates.merchants_and_marauders.catalog import COUNTS, KEYS, SOURCES
from service.aggregates.merchants_and_marauders.catalog_checks import load, validate
from service.kernel import BadInput


def test_catalog_loads_with_the_rulebook_counts_and_sources():
    cat = load()
    for key in KEYS:
        assert cat[key]["source"] in SOURCES
    for key, n in COUNTS.items():
        assert len(cat[key]["value"]) == n
    zones = cat["zones"]["value"]
    assert sum(1 for z in zones if z["port"]) == 16
    assert {z["nation"] for z in zones if z["port"]} == {"spain", "england", "france", "netherlands"}
    assert cat["ships"]["value"]["man_o_war"]["for_sale"] is False
    assert cat["ships"]["value"]["frigate"]["buy"] == 35 and cat["ships"]["value"]["sloop"]["sell"] == 5
    # every card list entry says where its values come from
    for key in ("captains", "events", "glory_cards", "rumors", "missions", "zones"):
        assert all(item["source"] in SOURCES for item in cat[key]["value"])


def test_unknown_values_are_marked_provisional():
    cat = load()
    assert cat["cargo_cards"]["source"] == "provisional"
    assert cat["ships"]["value"]["galleon"]["source"] == "provisional"
    unknown = [e for e in cat["events"]["value"] if e["kind"] == "unknown"]
    assert unknown and all(e["source"] == "provisional" for e in unknown)
    zones = {z["id"]: z for z in cat["zones"]["value"]}
    assert zones["nassau"]["special"]["kind"] == "buy_price"
    assert zones["bridgetown"]["special"]["kind"] == "none" and zones["bridgetown"]["special_source"] == "provisional"


@pytest.mark.parametrize("breakage", [
    lambda c: c["captains"]["value"].pop(),
    lambda c: c["borders"]["value"].append(["havana", "trinidad", "X"]),
    lambda c: c["borders"]["value"].append(["havana", "nassau", "N"]),
    lambda c: c["ships"]["value"]["man_o_war"].update(for_sale=True),
    lambda c: c["ships"]["value"]["sloop"].update(cargo=6),
    lambda c: c["cargo_cards"]["value"][0].update(good="gold"),
    lambda c: c["rules"].pop("source"),
    lambda c: c["merchant_tokens"]["value"][0].update(nation="england"),
    lambda c: c["zones"]["value"][0].update(nation=None),
    lambda c: c["special_weapons"]["value"].update(chain_shot=5),
    lambda c: c["missions"]["value"][0].update(location="atlantis"),
])
def test_a_bad_catalog_is_refused_with_a_reason(breakage):
    cat = copy.deepcopy(load())
    breakage(cat)
    with pytest.raises(BadInput, match="catalog"):
        validate(cat)


def test_unreadable_catalog_file(tmp_path):
    bad = tmp_path / "c.json"
    bad.write_text("{not json")
    with pytest.raises(BadInput):
        load(bad)
    bad.write_text(json.dumps([1, 2]))
    with pytest.raises(BadInput):
        load(bad)


def test_options():
    assert RULES.parse_options(3, {}) == {}
    assert RULES.parse_options(3, {"glory": "12"}) == {"glory": 12}
    for bad in ({"glory": "x"}, {"glory": "1"}, {"speed": "1"}):
        with pytest.raises(BadInput):
            RULES.parse_options(3, bad)


@pytest.mark.parametrize("field, value", [
    ("stash_gold_per_glory", 0), ("stash_glory_fraction", 0), ("stash_glory_fraction", -2),
    ("stash_glory_fraction", None), ("stash_glory_fraction", 1.5), ("stash_gold_per_glory", True),
])
def test_a_stash_divisor_below_one_is_refused_at_load(tmp_path, field, value):
    """The stash's glory divides by both (gold per glory point, the target's fraction):
    zero or a non-number is refused when the catalog is loaded, naming the field, not
    left to fail in the middle of a game."""
    cat = load()
    if value is None:
        del cat["rules"]["value"][field]
    else:
        cat["rules"]["value"][field] = value
    path = tmp_path / "catalog.json"
    path.write_text(json.dumps(cat))
    with pytest.raises(BadInput, match=rf"rules\.{field} must be a whole number of at least 1"):
        load(path)
    with pytest.raises(BadInput, match=rf"rules\.{field}"):
        RULES.validate_catalog(cat)


def test_catalogs_differing_only_in_order_keep_their_own_tables():
    """The tables of a catalog are cached by content, order included: a catalog listing
    the ships in another order offers them in its order, whatever game the process ran
    before, and the default catalog's games keep the default order afterwards."""
    from service.kernel.local import LocalGame

    def ship_choices(catalog=None):
        g = LocalGame("merchants-and-marauders", 2, seed=b"\x05" * 32, catalog=catalog)
        return [d["ship"] for d in g.legal(g.to_act()[0]) if d["action"] == "choose_ship"]

    default = ship_choices()
    cat = load()
    cat["ships"]["value"] = dict(reversed(list(cat["ships"]["value"].items())))
    assert ship_choices(cat) == default[::-1]
    assert ship_choices() == default


@pytest.mark.parametrize("breakage, said", [
    (lambda c: c["captains"]["value"].pop(), "captains must be a list of 16 items (the rulebook's count), not 15 items"),
    (lambda c: c["ships"]["value"]["sloop"].update(cargo=6), "ships.sloop.cargo must be a whole number from 1 to 5, not 6"),
    (lambda c: c["captains"]["value"][0].update(influence=True),
     "captains[frances_wright].influence must be a whole number from 1 to 4, not True"),
    (lambda c: c["cargo_cards"]["value"][0].update(raid=9), "cargo_cards[C01].raid must be a whole number from 1 to 5"),
    (lambda c: c["upgrades"]["value"][2].update(kind="sails"), "upgrades[U03].kind: input should be 'better_rigging'"),
    (lambda c: c["events"]["value"][2].pop("name"), "events[E03].name: field required"),
    (lambda c: c["rules"]["value"].update(actions=-1), "rules.actions must be a whole number, not -1"),
])
def test_the_schema_names_the_item_and_what_it_must_be(breakage, said):
    """The catalog's shape is a schema (catalog_checks.Catalog): a bad item is refused
    naming it by its id and saying what the field must be."""
    cat = copy.deepcopy(load())
    breakage(cat)
    with pytest.raises(BadInput) as e:
        validate(cat)
    assert said in str(e.value)


def test_the_default_catalogs_known_key_is_its_derived_one():
    """catalog.py's DEFAULT_* figures (what spares a game on the default catalog the file
    parsed and its tables hashed) are those of data/catalog.json as derived."""
    import hashlib

    import msgpack

    from service.aggregates.merchants_and_marauders import catalog

    cat = catalog.read()
    derived = {"DEFAULT_FILE_SHA256": hashlib.sha256(catalog.PATH.read_bytes()).hexdigest(),
               "DEFAULT_CONTENT_SHA256": hashlib.sha256(msgpack.packb(cat, use_bin_type=True)).hexdigest(),
               "DEFAULT_KEY": catalog.tables_key(catalog.static(cat))}
    assert {k: getattr(catalog, k) for k in derived} == derived, "set catalog.py's figures to these"


def test_a_fresh_process_finds_the_default_tables_from_the_key_alone():
    """A state restored in a fresh process (a snapshot) whose key is the default's finds
    the default tables, though nothing read the file yet; another catalog's key does not."""
    import subprocess
    import sys

    code = ("from service.aggregates.merchants_and_marauders import catalog\n"
            "k = catalog.default_key()\nassert not catalog._DEFAULT and k == catalog.DEFAULT_KEY\n"
            "t = catalog.tables({'cat': k})\nassert t is catalog._TABLES[k] and catalog._DEFAULT\n"
            "try:\n    catalog.tables({'cat': 'f' * 16})\nexcept RuntimeError:\n    print('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "ok"

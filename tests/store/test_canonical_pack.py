"""The chain's canonical MessagePack (event_store/chain.py ``canon``) is the
README's definition, whatever shortcut it takes for maps already in order:
every map's keys sorted by their UTF-8 bytes at every depth, bytes as bin."""

from __future__ import annotations

import copy

import msgpack
from hypothesis import given, settings
from hypothesis import strategies as st

from event_store.chain import canon


def _reference(obj):
    """The definition, with no shortcut: a sorted copy of every map."""
    if isinstance(obj, dict):
        return {k: _reference(obj[k]) for k in sorted(obj, key=lambda k: k.encode())}
    if isinstance(obj, (list, tuple)):
        return [_reference(v) for v in obj]
    return obj


scalars = st.one_of(st.none(), st.booleans(), st.integers(-2**63, 2**64 - 1), st.text(max_size=5),
                    st.binary(max_size=5))
data = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.text(max_size=4), inner, max_size=5),
    # maps already in order (the shortcut's case), nested or not
    st.dictionaries(st.text(max_size=4), inner, max_size=5).map(lambda d: dict(sorted(d.items())))),
    max_leaves=20)


@settings(max_examples=400, deadline=None)
@given(data)
def test_canon_is_the_sorted_copy_packed(obj):
    assert canon(obj) == msgpack.packb(_reference(obj), use_bin_type=True)


def test_a_map_in_order_holding_a_map_out_of_order_is_sorted_inside():
    inner = {"b": 1, "a": 2}
    assert canon({"x": inner}) == msgpack.packb({"x": {"a": 2, "b": 1}}, use_bin_type=True)
    assert list(inner) == ["b", "a"]  # the event's own data is not reordered


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(max_size=4), data, max_size=6), st.data())
def test_a_seal_with_values_packed_beforehand_is_the_same_seal(obj, draw):
    """``seal(..., known=)`` splices canonical bytes made before (a catalog's)
    into the map: the seal is the one of the whole map packed at once."""
    from event_store.chain import seal

    keys = draw.draw(st.lists(st.sampled_from(sorted(obj)), unique=True) if obj else st.just([]))
    known = {k: canon(obj[k]) for k in keys}
    salt = b"s" * 32
    assert seal(salt, "GameCreated", obj, known) == seal(salt, "GameCreated", obj)


def test_a_new_games_creation_is_chained_as_without_the_packed_catalog():
    """Every game's ``GameCreated`` (its catalog packed once a process) links
    as the link made from scratch says, first time and from the kept bytes;
    an organiser's catalog too, and one changed after it was packed."""
    from uuid import uuid4

    from event_store.chain import link
    from service.aggregate import Game, catalog_canon
    from service.kernel.local import created_event
    from service.kernel.games import get_rules

    for name in ("letter-of-marque", "loot", "kaisers-pirates", "merchants-and-marauders"):
        rules = get_rules(name)
        for catalog in (None, rules.catalog(rules.parse_options(3, {}))):
            for _ in range(2):  # packed, then taken from what was kept
                created, _seed = created_event(rules, 3, {}, False, b"x" * 32, catalog=catalog)
                assert catalog_canon(created.data) == {"catalog": canon(created.data["catalog"])}
                gid = uuid4()
                game = Game.start(gid, created)
                e = game.collect_events()[0]
                assert game.head == link(gid, 1, e.timestamp, e.type, e.turn, e.visible_to, e.data, e.prev, e.salt)
    # the same dict changed after its bytes were kept: packed anew, not taken from what was kept
    # (a copy: the rules hand every caller their one shared catalog, which nobody may change)
    catalog = copy.deepcopy(rules.catalog(rules.parse_options(3, {})))
    catalog["extra"] = {"b": 1, "a": [True, 1]}
    created, _seed = created_event(rules, 3, {}, False, b"x" * 32, catalog=catalog)
    assert catalog_canon(created.data) == {"catalog": canon(catalog)}

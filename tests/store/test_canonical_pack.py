"""The chain's canonical MessagePack (event_store/chain.py ``canon``) is the
README's definition, whatever shortcut it takes for maps already in order:
every map's keys sorted by their UTF-8 bytes at every depth, bytes as bin."""

from __future__ import annotations

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

"""The randomness algorithm, checked against an independent re-implementation
written from the README's description (not by calling the code under test)."""

import hashlib
import hmac
import json
from collections import Counter

import pytest

from service.kernel.chance import (SeededChance, Stream, TableChance, commitment, compute,
                                   derive_key, recompute, validate)
from service.kernel.errors import ChanceRejected, NeedChance


def independent_uniform(key, counter, n):
    while True:
        block = hmac.new(key, counter.to_bytes(8, "big"), hashlib.sha256).digest()
        counter += 1
        x = int.from_bytes(block[:8], "big")
        if x < 2**64 - (2**64 % n):
            return x % n, counter


def test_stream_matches_the_documented_algorithm():
    key = bytes(range(32))
    s = Stream(key)
    counter = 0
    for n in (6, 10, 3, 52, 7, 2, 1, 20, 1000):
        want, counter = independent_uniform(key, counter, n)
        assert s.uniform(n) == want
        assert s.counter == counter


@pytest.mark.parametrize("key", [bytes(32), bytes(range(32)), b"\xff" * 64, b"short", bytes(range(100))])
def test_stream_blocks_are_hmac_sha256_of_the_counter(key):
    """The stream's own HMAC (pads hashed once per stream) is the standard one,
    for keys of every length (longer than a SHA-256 block: hashed first)."""
    s = Stream(key, 7)
    for counter in (7, 8, 9, 2**40):
        s.counter = counter
        assert s.block() == hmac.new(key, counter.to_bytes(8, "big"), hashlib.sha256).digest()
        assert s.counter == counter + 1


def test_dice_cards_and_shuffle_follow_the_documented_mapping():
    key = hashlib.sha256(b"k").digest()
    value, _ = compute(Stream(key), {"kind": "dice", "sides": 6, "n": 3})
    c, faces = 0, []
    for _ in range(3):
        u, c = independent_uniform(key, c, 6)
        faces.append(1 + u)
    assert value == faces

    cards = [10, 2, "b", {"x": 1}, "a"]
    card, index = compute(Stream(key), {"kind": "card", "deck": "d", "choices": cards})
    ordered = sorted(cards, key=lambda v: json.dumps(v, sort_keys=True, separators=(",", ":")))
    u, _ = independent_uniform(key, 0, len(cards))
    assert (card, index) == (ordered[u], u)

    order, _ = compute(Stream(key), {"kind": "shuffle", "deck": "d", "cards": cards})
    a, c = list(ordered), 0
    for i in range(len(a) - 1, 0, -1):
        j, c = independent_uniform(key, c, i + 1)
        a[i], a[j] = a[j], a[i]
    assert order == a


def test_rejection_sampling_discards_blocks_in_the_biased_tail():
    # n = 2**63 + 1: the accept limit is exactly n, so about half the blocks are rejected.
    n = 2**63 + 1
    s = Stream(b"\x01" * 32)
    for _ in range(20):
        start = s.counter
        v = s.uniform(n)
        assert 0 <= v < n
        assert s.counter - start >= 1
    assert s.counter > 20  # some blocks were rejected


def test_dice_are_fair_enough():
    s = Stream(b"\x02" * 32)
    counts = Counter(1 + s.uniform(6) for _ in range(60000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    for face in counts:
        assert 9400 < counts[face] < 10600


def test_entropy_changes_the_key_in_order():
    seed = b"\x03" * 32
    assert derive_key(seed, []) == seed
    k1 = hashlib.sha256(seed + b"a").digest()
    assert derive_key(seed, [b"a"]) == k1
    assert derive_key(seed, [b"a", b"b"]) == hashlib.sha256(k1 + b"b").digest()
    assert commitment(seed) == hashlib.sha256(seed).hexdigest()


def test_recompute_catches_a_changed_outcome():
    chance = SeededChance(b"\x04" * 32, [], 0)
    values, meta = chance.outcome({"kind": "dice", "sides": 6, "n": 2})
    data = {"sides": 6, "n": 2, "values": values, "counter": meta["counter"], "draws": meta["draws"]}
    assert recompute(b"\x04" * 32, "DiceRolled", data) == []
    data["values"] = [values[0] % 6 + 1, values[1]]
    assert recompute(b"\x04" * 32, "DiceRolled", data)


def test_table_outcomes_are_validated():
    with pytest.raises(ChanceRejected, match="out of range 1..6"):
        validate({"kind": "dice", "sides": 6, "n": 1}, 7)
    with pytest.raises(ChanceRejected, match="expected 2 die"):
        validate({"kind": "dice", "sides": 6, "n": 2}, [1])
    with pytest.raises(ChanceRejected, match="not left in the treasure red deck"):
        validate({"kind": "card", "deck": "treasure:red", "choices": [2, 3]}, 9)
    assert validate({"kind": "dice", "sides": 6, "n": 1}, 6) == ([6], None)
    t = TableChance([])
    with pytest.raises(NeedChance):
        t.outcome({"kind": "dice", "sides": 6, "n": 1})


def test_the_quick_canonical_order_is_the_canonical_order():
    """Card ids sort without a key only where that gives the JSON-text order exactly."""
    import json

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from service.kernel.chance import canonical_order

    plain = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=127), max_size=6)
    anything = st.one_of(plain, st.text(max_size=4), st.integers(-5, 300), st.booleans())

    @settings(max_examples=300, deadline=None)
    @given(st.lists(anything, max_size=12))
    def check(cards):
        want = sorted(cards, key=lambda c: json.dumps(c, sort_keys=True, separators=(",", ":")))
        assert canonical_order(cards) == want

    @settings(max_examples=200, deadline=None)
    @given(st.lists(st.integers(), max_size=12))  # a deck of numbers (Letter of Marque's treasures)
    def check_numbers(cards):
        assert canonical_order(cards) == sorted(cards, key=json.dumps)

    @settings(max_examples=200, deadline=None)
    @given(st.lists(st.one_of(st.integers(-2, 12), st.booleans()), max_size=8))  # digits sort as numbers
    def check_digits(cards):
        got, want = canonical_order(cards), sorted(cards, key=json.dumps)
        assert [json.dumps(c) for c in got] == [json.dumps(c) for c in want]  # (True == 1: by their texts)

    check()
    check_numbers()
    check_digits()
    assert canonical_order(["ab", "ab!", "a b", "b"]) == sorted(["ab", "ab!", "a b", "b"], key=json.dumps)
    assert canonical_order([10, 9, 100, -1]) == [-1, 10, 100, 9]  # by text, not by value
    assert canonical_order([1, True, 0]) == [0, 1, True]  # a bool is no number here: "true" sorts after digits
    assert [type(c) for c in canonical_order([1, True, 0])] == [int, int, bool]
    assert [type(c) for c in canonical_order([True, 7, 3])] == [int, int, bool]

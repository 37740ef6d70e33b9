"""The decoder's short map-key cache (_ext_decode.c): a skewed two-way cache
of str objects for ASCII text keys of up to 32 bytes. Its counters
(_key_cache_stats) count lookups: a text map key that is ASCII and short
enough is either a hit or a miss; anything else is not looked up."""

import os
import sys

import pytest

from support import CORPUS_FILES, require_corpus

import cbor_fast
from cbor_fast import _ext, dumps, loads

MAX_LEN = 32


def stats():
    s = _ext._key_cache_stats()
    return s["hits"], s["misses"]


@pytest.fixture(autouse=True)
def empty_cache():
    _ext._clear_key_cache()
    yield
    _ext._clear_key_cache()


def test_limits_reported():
    s = _ext._key_cache_stats()
    assert (s["slots"], s["max_length"], s["held"], s["hits"], s["misses"]) == (4096, 32, 0, 0, 0)


def test_same_keys_twice():
    data = dumps([{"id": 1, "name": "a"}, {"id": 2, "name": "b"}, {"id": 3, "name": "c"}])
    first = loads(data)
    assert stats() == (4, 2)  # 6 lookups, 2 distinct keys
    second = loads(data)
    assert stats() == (10, 2)  # all 6 hit
    assert second == first == [{"id": 1, "name": "a"}, {"id": 2, "name": "b"},
                               {"id": 3, "name": "c"}]
    # one object per key, across items and across calls
    keys = [k for d in first + second for k in d]
    assert len({id(k) for k in keys}) == 2
    assert _ext._key_cache_stats()["held"] == 2


def test_values_are_not_looked_up():
    assert loads(dumps({"a": "a", "b": ["a", "b"]})) == {"a": "a", "b": ["a", "b"]}
    assert stats() == (0, 2)


def test_boundary_lengths_and_non_ascii_keys():
    at_limit = "k" * MAX_LEN
    beyond = "k" * (MAX_LEN + 1)
    value = {"": 0, at_limit: 1, beyond: 2, "\u00e9": 3, "a\u20acb": 4}
    assert len("\u00e9".encode()) == 2
    for rounds in (1, 2):
        assert loads(dumps(value)) == value
        # looked up: "" and the 32-byte key; not: 33 bytes, non-ASCII
        assert stats() == (2 * (rounds - 1), 2)
    r = loads(dumps(value))
    assert [type(k) for k in r] == [str] * 5
    assert list(r) == ["", at_limit, beyond, "\u00e9", "a\u20acb"]


def test_non_text_keys_are_not_looked_up():
    value = {b"id": 1, "id": 2, 7: 3, -1: 4, 1.5: 5, (1, "id"): 6, None: 7}
    for _ in range(2):
        r = loads(dumps(value))
        assert r == value
        assert [type(k) for k in r] == [bytes, str, int, int, float, tuple, type(None)]
    # "id" as a key twice (the "id" inside the tuple key is an array item, not a key)
    assert stats() == (1, 1)


def test_text_key_inside_a_map_key_is_a_key():
    # {{"x": 1}: 2}: the inner map's key is a map key too (decoded into a FrozenDict)
    data = bytes.fromhex("a1 a1 6178 01 02".replace(" ", ""))
    for _ in range(2):
        r = loads(data)
        (k, v), = r.items()
        assert dict(k) == {"x": 1} and v == 2
    assert stats() == (1, 1)


def test_invalid_utf8_key_still_raises_at_its_byte():
    # a1 62 c3 28 01: the key's second byte is not a continuation byte
    with pytest.raises(cbor_fast.CBORDecodeError) as e:
        loads(bytes.fromhex("a162c32801"))
    assert (e.value.status, e.value.offset) == ("invalid_utf8", 2)
    assert stats() == (0, 0)


def slots(key):
    return _ext._key_cache_slots(key.encode())


def find(pred, prefix, exclude=()):
    for i in range(1 << 20):
        k = "%s%d" % (prefix, i)
        if k not in exclude and pred(slots(k)):
            return k
    raise AssertionError("no key found")


def test_slots_of_keys_never_cached():
    assert slots("k" * (MAX_LEN + 1)) is None
    assert _ext._key_cache_slots("\u00e9".encode()) is None
    a, b = slots("k" * MAX_LEN)
    assert 0 <= a < 2048 and 0 <= b < 2048


def test_three_keys_in_one_way0_slot_all_stay():
    k1 = "first"
    a, _ = slots(k1)
    k2 = find(lambda s: s[0] == a, "x")
    k3 = find(lambda s: s[0] == a and s[1] != slots(k2)[1], "y")
    value = {k1: 1, k2: 2, k3: 3}
    data = dumps(value)
    assert loads(data) == value
    # k1 in way 0; k2 and k3 in way 1 at their own slots
    assert stats() == (0, 3)
    assert loads(data) == value
    assert stats() == (3, 3)


def test_conflict_in_both_ways_evicts_the_way1_entry():
    k1 = "first"
    a, _ = slots(k1)
    k2 = find(lambda s: s[0] == a, "x")
    b = slots(k2)[1]
    k3 = find(lambda s: s[1] == b and s[0] != a, "y")
    c = slots(k3)[0]
    k4 = find(lambda s: s[0] == c and s[1] != b, "z")
    # k1 -> way 0 [a]; k2 -> way 1 [b]; k4 -> way 0 [c]; k3: both taken, replaces k2
    value = {k1: 1, k2: 2, k4: 4, k3: 3}
    assert loads(dumps(value)) == value
    assert stats() == (0, 4)
    assert _ext._key_cache_stats()["held"] == 3
    assert loads(dumps({k3: 3, k1: 1, k4: 4})) == {k3: 3, k1: 1, k4: 4}
    assert stats() == (3, 4)
    # k2 is gone: a miss, and it replaces k3
    r = loads(dumps({k2: "again"}))
    assert r == {k2: "again"} and type(next(iter(r))) is str
    assert stats() == (3, 5)
    assert loads(dumps({k3: 3})) == {k3: 3}
    assert stats() == (3, 6)


def short_keys(value):
    """Occurrences and distinct values of the map keys the cache looks up."""
    found = []
    stack = [value]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            for k, v in x.items():
                if isinstance(k, str) and k.isascii() and len(k) <= MAX_LEN:
                    found.append(k)
                stack.append(v)
        elif isinstance(x, list):
            stack.extend(x)
    return len(found), len(set(found))


def corpus():
    path = require_corpus()
    out = {}
    for name in CORPUS_FILES:
        with open(os.path.join(path, name), "rb") as f:
            out[name] = f.read()
    return out


# (occurrences, distinct) of the keys looked up in each document
CORPUS_KEYS = {"twitter.cbor": (13172, 93), "citm_catalog.cbor": (25869, 321),
               "canada.cbor": (8, 6)}


@pytest.mark.parametrize("name", CORPUS_FILES)
def test_corpus_decoded_a_second_time_misses_nothing(name):
    data = corpus()[name]
    first = loads(data)
    lookups, distinct = short_keys(first)
    assert (lookups, distinct) == CORPUS_KEYS[name]
    assert stats() == (lookups - distinct, distinct)
    assert loads(data) == first
    assert stats() == (2 * lookups - distinct, distinct)


def test_corpus_three_documents_in_turn_and_again_miss_nothing():
    docs = corpus()
    for data in docs.values():
        loads(data)
    misses = stats()[1]
    assert misses == len(set().union(*(
        {k for k in _walk_keys(loads(d))} for d in docs.values())))
    for data in docs.values():
        loads(data)
    assert stats()[1] == misses


def _walk_keys(value):
    stack = [value]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            for k, v in x.items():
                if isinstance(k, str) and k.isascii() and len(k) <= MAX_LEN:
                    yield k
                stack.append(v)
        elif isinstance(x, list):
            stack.extend(x)


def test_reference_counts_of_cached_keys():
    data = dumps({"cachedkey": 1})
    kept = loads(data)
    key = next(iter(kept))
    before = sys.getrefcount(key)
    for _ in range(100):
        loads(data)  # hits, results dropped
    after = sys.getrefcount(key)
    assert after == before
    again = loads(data)
    assert next(iter(again)) is key
    after = sys.getrefcount(key)
    assert after == before + 1  # held by `again` too
    _ext._clear_key_cache()
    after = sys.getrefcount(key)
    assert after == before  # the cache's reference went, `again`'s came


def test_evictions_hold_no_references():
    # 6 rounds of 5000 distinct keys each: every round replaces cache entries
    rounds = [dumps({"r%dk%d" % (r, i): i for i in range(5000)}) for r in range(6)]
    loads(rounds[0])
    held = _ext._key_cache_stats()["held"]
    assert 3000 < held <= 4096
    start = sys.getallocatedblocks()
    for data in rounds[1:]:
        loads(data)
    # a leaked key per miss would be 25,000 blocks; the cache holds at most 4096
    assert sys.getallocatedblocks() - start < 1000
    assert _ext._key_cache_stats()["held"] <= 4096
    assert stats()[1] == 30000


def test_every_length_hashes_alike_wherever_the_key_sits():
    # A key's last 1..7 bytes are read as one word forward, backward (near the
    # end of the input) or byte by byte (a short input): all must agree, so
    # the key decoded at the end of one input hits the entry another made.
    for n in range(0, MAX_LEN + 1):
        key = "".join(chr(ord("a") + i % 26) for i in range(n))
        middle = dumps([{key: 0}, b"x" * 16])          # 16 bytes after the key
        end_long = dumps([b"x" * 16, {key: 0}])        # 1 byte after, 16+ before
        end_short = dumps({key: 0})                    # 1 byte after, 1-2 before
        _ext._clear_key_cache()
        assert loads(middle) == [{key: 0}, b"x" * 16]
        assert loads(end_long) == [b"x" * 16, {key: 0}]
        assert loads(end_short) == {key: 0}
        assert stats() == (2, 1), n
        # a non-ASCII last byte is seen on every path: never looked up
        odd = key[:-1] + "\u00e9" if n else "\u00e9"
        for data in (dumps([{odd: 0}, b"x" * 16]), dumps([b"x" * 16, {odd: 0}]),
                     dumps({odd: 0})):
            r = loads(data)
            assert odd in (r if isinstance(r, dict) else [k for x in r if isinstance(x, dict)
                                                          for k in x])
        assert stats() == (2, 1), n

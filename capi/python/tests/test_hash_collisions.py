"""Map keys and set members that share one hash value.

Python seeds the hashes of str and bytes only. An int hashes to itself modulo
2**61 - 1, so bignums k * (2**61 - 1) all hash to 0, and arrays (tuples) of
64-bit integers n + k * (2**61 - 1) share a hash too: each insert compares the
new key with every earlier one of its hash. 20,000 such bignum keys (259 KB)
took 1.8 s to decode, and the time grows with the square of the count. The
decoder refuses more than MAX_KEYS_PER_HASH (64) distinct keys of one map or
members of one set sharing a hash, at the key (a set: at its tag).
"""

import pytest

from support import h

from cbor_fast import CBORDecodeError, _ext, loads

P = 2**61 - 1
K = 64


def bignum(n):
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    assert len(b) < 24
    return bytes([0xC2, 0x40 + len(b)]) + b


def head(major, n):
    assert n < 65536
    return bytes([major << 5 | 25]) + n.to_bytes(2, "big")


def colliding_map(keys, base=0):
    """A map of keys -> 0 and the offset of each key (from `base`)."""
    out, offsets = bytearray(head(5, len(keys))), []
    for k in keys:
        offsets.append(base + len(out))
        out += k + b"\x00"
    return bytes(out), offsets


def hash0(count):
    """`count` distinct bignums of hash 0 (from 2**70 on)."""
    keys = [(2**9 + i) * P for i in range(count)]
    assert {hash(k) for k in keys} == {0}
    return keys


def test_the_bound_is_the_extensions():
    assert _ext.MAX_KEYS_PER_HASH == K


def test_keys_sharing_a_hash_up_to_the_bound():
    data, _ = colliding_map([bignum(k) for k in hash0(K)])
    assert loads(data) == dict.fromkeys(hash0(K), 0)


@pytest.mark.parametrize("count", [K + 1, 20000])
def test_one_key_over_the_bound_is_refused_at_that_key(count):
    # 20,000 keys: refused at the 65th, so this is fast (1.8 s before).
    data, offsets = colliding_map([bignum(k) for k in hash0(count)])
    with pytest.raises(CBORDecodeError) as e:
        loads(data)
    assert e.value.offset == offsets[K]
    assert "more than 64 distinct keys of one container share a hash" in str(e.value)


def test_an_inner_map_reports_its_own_key():
    inner, offsets = colliding_map([bignum(k) for k in hash0(K + 1)], base=2)
    with pytest.raises(CBORDecodeError) as e:
        loads(h("a1 00") + inner)
    assert e.value.offset == offsets[K]


def test_repeated_keys_count_once():
    # 64 distinct keys, then the first one again 100 times (the last value wins)
    keys = [bignum(k) for k in hash0(K)] + [bignum(hash0(1)[0])] * 100
    data, _ = colliding_map(keys)
    got = loads(data)
    assert len(got) == K
    with pytest.raises(CBORDecodeError) as e:
        loads(data, allow_duplicate_keys=False)
    assert e.value.offset == colliding_map(keys)[1][K]  # the library's duplicate check


def test_each_map_has_its_own_count():
    one, _ = colliding_map([bignum(k) for k in hash0(K)])
    assert loads(h("82") + one + one) == [dict.fromkeys(hash0(K), 0)] * 2


def test_64_bit_integers_share_a_hash_at_most_nine_at_a_time():
    keys = [5 + k * P for k in range(9)]  # 5 + 8P < 2**64
    assert {hash(k) for k in keys} == {5}
    data, _ = colliding_map([b"\x1b" + k.to_bytes(8, "big") for k in keys])
    assert loads(data) == dict.fromkeys(keys, 0)


def test_arrays_of_64_bit_integers_over_the_bound():
    # [a, b] with a, b each one of 9 integers of one hash: 81 tuples of one hash
    ints = [b"\x1b" + (5 + k * P).to_bytes(8, "big") for k in range(9)]
    keys = [b"\x82" + a + b for a in ints for b in ints]
    assert len({hash((5 + i * P, 5 + j * P)) for i in range(9) for j in range(9)}) == 1
    data, offsets = colliding_map(keys)
    with pytest.raises(CBORDecodeError) as e:
        loads(data)
    assert e.value.offset == offsets[K]
    data, _ = colliding_map(keys[:K])
    assert len(loads(data)) == K


def set_of(members):
    return h("d90102") + head(4, len(members)) + b"".join(members)


def test_set_members_sharing_a_hash():
    members = [bignum(k) for k in hash0(K + 1)]
    assert loads(set_of(members[:K])) == set(hash0(K))
    assert loads(set_of(members[:K]), immutable=True) == frozenset(hash0(K))
    for data, offset in ((set_of(members), 0), (h("82 00") + set_of(members), 2)):
        with pytest.raises(CBORDecodeError) as e:
            loads(data)
        assert e.value.offset == offset
        assert "share a hash" in str(e.value)


def test_unhashable_set_member_is_still_a_decode_error():
    with pytest.raises(CBORDecodeError) as e:  # a tag_hook's list as a member
        loads(h("82 00 d90102 81 d903e8 00"), tag_hook=lambda tag, immutable: [tag.value])
    assert e.value.offset == 2
    assert "unhashable" in str(e.value)


def test_strict_hashable_error_is_at_the_key_not_inside_it():
    # {[{"a": 1}]: 2}: the key starts at 1 (the inner map's key "a" at 3)
    with pytest.raises(CBORDecodeError) as e:
        loads(h("a1 81 a1 6161 01 02"), strict_hashable_types=True)
    assert e.value.offset == 1

#!/usr/bin/env python3
"""Generates tests/vectors/canonical.json with cbor2 (pip install cbor2; this table: cbor2 6.3.0).

Each row: {"name", "input": hex of cbor2.dumps(value) (insertion order,
doubles), "length_first": hex of cbor2.dumps(value, canonical=True) (RFC 7049
canonical / RFC 8949 4.2.3), "core": hex of the RFC 8949 4.2.1 form: the same
items, maps ordered by the bytewise order of their keys' canonical encodings}.
Python keys cannot hold maps, so a key's canonical bytes are the same in both
orders and the core form is built from cbor2's own encodings of keys and leaves.

Run: python3 tests/vectors/gen_canonical.py > tests/vectors/canonical.json

With --corpus DIR it prints tests/vectors/canonical_corpus.json instead: for
each corpus file, the size and FNV-1a 64 hash of
cbor2.dumps(cbor2.loads(file), canonical=True), which the C++ test compares
with the library's encode_length_first output of the same file.
"""
import json
import math
import struct
import sys

import cbor2


def head(major, n):
    if n < 24:
        return bytes([major << 5 | n])
    for ai, fmt in ((24, ">B"), (25, ">H"), (26, ">I"), (27, ">Q")):
        if n < 1 << (8 * struct.calcsize(fmt)):
            return bytes([major << 5 | ai]) + struct.pack(fmt, n)
    raise ValueError(n)


def core(v):
    if isinstance(v, dict):
        pairs = sorted((cbor2.dumps(k, canonical=True), core(x)) for k, x in v.items())
        return head(5, len(v)) + b"".join(k + x for k, x in pairs)
    if isinstance(v, list):
        return head(4, len(v)) + b"".join(core(x) for x in v)
    return cbor2.dumps(v, canonical=True)


ROWS = [
    ("uint_23", 23), ("uint_24", 24), ("uint_255", 255), ("uint_256", 256),
    ("uint_65535", 65535), ("uint_65536", 65536), ("uint_2p32m1", 2**32 - 1),
    ("uint_2p32", 2**32), ("uint_2p64m1", 2**64 - 1), ("bignum_2p64", 2**64),
    ("neg_2p64", -(2**64)), ("bignum_neg_2p64m1", -(2**64) - 1),
    ("float_0", 0.0), ("float_neg0", -0.0), ("float_1_5", 1.5),
    ("float_65504", 65504.0), ("float_100000", 100000.0),
    ("float_single_max", 3.4028234663852886e38), ("float_1e300", 1.0e300),
    ("float_inf", math.inf), ("float_neginf", -math.inf), ("float_nan", math.nan),
    ("float_half_subnormal", 5.960464477539063e-8), ("float_0_1", 0.1),
    ("text", "hello"), ("bytes", b"\x00\x01\x02"), ("empty_map", {}),
    ("map_int_keys", {10: 1, 2: 2, -1: 3, 100: 4, -100: 5, 0: 6}),
    ("map_text_keys", {"bb": 1, "a": 2, "aaa": 3, "b": 4, "": 5}),
    ("map_mixed_keys", {"a": 1, 100: 2, -1: 3, b"\x00": 4, "": 5, 1000: 6, False: 7,
                        None: 8, (1, 2): 9, 1.5: 10}),
    ("map_length_vs_bytes", {"aa": 1, 24: 2, 23: 3, b"": 4, -25: 5, 256: 6}),
    ("nested", {"z": {"b": [1, {"y": 2, "x": 3}], "a": None}, "a": [{"d": 1, "c": 2}]}),
    ("map_float_values", {"f": [0.0, -0.0, 1.0, 1.1, math.inf, math.nan, 65536.0]}),
    ("map_100_keys", {("k%d" % ((i * 37) % 100)): i for i in range(100)}),
    ("map_300_int_keys", {(i * 7919) % 1000 - 500: i for i in range(300)}),
    ("map_bignum_keys", {2**64: 1, 2**70: 2, -(2**64) - 1: 3, 5: 4}),
    ("array_of_maps", [{"b": 1, "a": 2}, {}, {3: 4, 1: 2}]),
]

def fnv1a64(data):
    h = 0xcbf29ce484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001b3) & 0xffffffffffffffff
    return h


if len(sys.argv) == 3 and sys.argv[1] == "--corpus":
    rows = []
    for name in ["twitter", "citm_catalog", "canada"]:
        with open("%s/%s.cbor" % (sys.argv[2], name), "rb") as f:
            canon = cbor2.dumps(cbor2.loads(f.read()), canonical=True)
        rows.append({"name": name, "size": len(canon), "fnv1a64": "%016x" % fnv1a64(canon)})
    print(json.dumps(rows, indent=1))
    sys.exit(0)

out = []
for name, value in ROWS:
    out.append({
        "name": name,
        "input": cbor2.dumps(value).hex(),
        "length_first": cbor2.dumps(value, canonical=True).hex(),
        "core": core(value).hex(),
    })
print(json.dumps(out, indent=1))

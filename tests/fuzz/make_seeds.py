#!/usr/bin/env python3
"""Writes the seed corpus of the fuzz targets: tests/fuzz/corpus/<target>/seed-*.

Seeds are RFC 8949 Appendix A vectors (tests/vectors/appendix_a.json, like the
not-well-formed and strict cases of tests/vectors/), strict-check cases (duplicate keys,
deterministic encoding) for reader and capi_limits, not-well-formed examples grouped as in
Appendix F, UTF-8 cases, a few slices of the benchmark corpus (complete items
of a few KB and one cut-off prefix per file), and writer programs. Every CBOR
target reads a configuration byte first (tests/fuzz/fuzz_util.hpp), so each
vector is written behind a few configuration bytes; writer_fuzz reads a mode
byte and a program (tests/fuzz/writer_fuzz.cpp); capi_limits_fuzz a flags
byte, a limit mask and limit bytes (tests/fuzz/capi_limits_fuzz.cpp).

Files named crash-* (regression inputs from fuzzing) are never touched.

  make_seeds.py            rewrite the seed-* files
  make_seeds.py --check    exit 1 if the committed seeds differ from what this writes
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")
DEFAULT_SHARED = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "corpus"))
CBOR_TARGETS = ["reader", "diag", "document", "sequence", "differential", "mapping", "chunked",
                "canonical", "stream"]

# ---- the shared vectors (tests/vectors/*.json) ---------------------------------

VECTORS = os.path.normpath(os.path.join(HERE, "..", "vectors"))


def load_vectors(name):
    with open(os.path.join(VECTORS, name), encoding="utf-8") as f:
        return json.load(f)


def seed_name(name):
    """A vector name as part of a file name: "break_in_definite/array_1" -> "break-in-definite-array-1"."""
    return "".join(c if c.isalnum() or c == "." else "-" for c in name.replace("_", "-")).strip("-")


# RFC 8949 Appendix A, in the RFC's order.
APPENDIX_A = [(seed_name(r["name"]), r["hex"]) for r in load_vectors("appendix_a.json")]

# Beyond Appendix A: non-shortest heads, more nesting, bignum tags over
# indefinite strings, empty indefinite strings, repeated map keys.
EXTRA = [
    ("long-head-uint", "1b0000000000000001"), ("long-head-text", "790003616263"),
    ("long-head-array", "9a00000002f4f5"), ("long-head-tag", "da00000002410a"),
    ("indef-bytes-empty", "5fff"), ("indef-text-empty", "7fff"),
    ("indef-text-chunks-empty", "7f6060ff"), ("bignum-indef", "c25f41014102ff"),
    ("map-repeated-keys", "a3616101616102016103"), ("map-int-keys", "a3200a0b01200c"),
    ("tag-tag", "c6c7c8f6"), ("deep-array", "818181818181818180"),
    ("deep-indef", "9f9f9f9f9fffffffffff"), ("deep-tags", "d9ffffc0c1c2c3c4c5f6"),
    ("simple-32", "f820"), ("double-snan", "fb7ff0000000000001"), ("single-snan", "fa7f800001"),
    ("half-snan", "f97c01"), ("half-nan-payload", "f97e55"), ("single-subnormal", "fa00000001"),
    ("map-nested", "a2a10102810304a0"),
]

# Cases for the strict checks (duplicate keys, core deterministic encoding):
# keys equal by value in different encodings, order by encoded bytes.
STRICT = [
    ("dup-int-long-head", "a2010018010a"), ("dup-half-double", "a2f93c0000fb3ff000000000000001"),
    ("dup-def-indef-text", "a262616200" "7f61616162ff01"), ("dup-array-key", "a28201020082010201"),
    ("dup-map-key", "a2a1010200a1010201"), ("dup-nan", "a2f97e0000f97e0001"),
    ("zero-signs", "a2f9000000f9800001"), ("dup-far", "a3010002000100"),
    ("dup-nested", "a101a20100010a"), ("dup-tag-key", "a2c1010ac10114"),
    ("sorted-length", "a217001818006161016162f6"), ("unsorted-bytewise", "a26161001801f6"),
    ("unsorted-pair", "a2020001f6"), ("sorted-nested", "a201a1010002a0"),
    ("not-preferred-float", "a1fa3fc0000000"), ("not-preferred-len", "5801ff"),
    ("indef-key", "a17f6161ff00"), ("big-map", "b8200000010002000300040005000600070008000900"
     "0a000b000c000d000e000f00100011001200130014001500160017001818001819001900181a00181b00"
     "181c00181d00181e00181f00"),
]

# ---- not well-formed, grouped by cause (tests/vectors/malformed.json, whose names are
# "<cause>/<case>"), plus a few inputs the shared file does not hold ------------

def malformed_groups():
    groups = {}
    for r in load_vectors("malformed.json"):
        cause = seed_name(r["name"].split("/")[0])
        groups.setdefault(cause, []).append(r["hex"])
    groups.setdefault("missing-items", []).extend(["9bffffffffffffffff00", "bb7fffffffffffffff00"])
    groups.setdefault("tag-without-content", []).append("d8ffc0")
    return list(groups.items())


MALFORMED = malformed_groups()

# Text strings that are well-formed but not valid UTF-8 (strict mode rejects them):
# the "utf8/..." rows of tests/vectors/strict.json, plus a few more.
STRICT_VECTORS = load_vectors("strict.json")
BAD_UTF8 = [(seed_name(r["name"][len("utf8/"):]), r["hex"]) for r in STRICT_VECTORS
            if r["checks"] == ["utf8"]] + [
    ("in-chunk", "7f616161ffff"), ("late", "6c68656c6c6f20776f726c64e2"), ("in-map-key", "a162c328f6"),
]


def h(s):
    return bytes.fromhex(s.replace(" ", ""))


def config_byte(utf8=False, a=False, b=False, depth_code=0):
    return bytes([(1 if utf8 else 0) | (2 if a else 0) | (4 if b else 0) | depth_code << 3])


# ---- slices of the benchmark corpus ----------------------------------------------

def item_end(data, pos):
    """Offset just past the well-formed item at pos (no checks: the files are valid)."""
    ib = data[pos]
    major, ai = ib >> 5, ib & 31
    pos += 1
    if ai < 24:
        arg = ai
    elif ai <= 27:
        n = 1 << (ai - 24)
        arg = int.from_bytes(data[pos:pos + n], "big")
        pos += n
    else:  # indefinite
        if major in (2, 3, 4, 5):
            while data[pos] != 0xff:
                pos = item_end(data, pos)
            return pos + 1
        return pos
    if major in (2, 3):
        return pos + arg
    if major == 4:
        for _ in range(arg):
            pos = item_end(data, pos)
        return pos
    if major == 5:
        for _ in range(2 * arg):
            pos = item_end(data, pos)
        return pos
    if major == 6:
        return item_end(data, pos)
    return pos


def sub_items(data, lo, hi, limit):
    """Up to `limit` complete items of lo..hi bytes found inside data, in file order."""
    found = []
    pos = 0
    stack_end = len(data)
    # Visit heads in order; record items of the wanted size, skip their insides.
    while pos < stack_end and len(found) < limit:
        end = item_end(data, pos)
        size = end - pos
        if lo <= size <= hi:
            found.append(data[pos:end])
            pos = end
            continue
        ib = data[pos]
        major, ai = ib >> 5, ib & 31
        # Step into containers and tags; step over everything else.
        if major in (4, 5, 6):
            pos += 1 if ai < 24 or ai == 31 else 1 + (1 << (ai - 24))
        elif ib == 0xff:
            pos += 1
        else:
            pos = end
    return found


def corpus_slices(shared_dir):
    """(name, bytes) slices of the benchmark files; [] if they are not there."""
    out = []
    for name in ["twitter", "citm_catalog", "canada"]:
        path = os.path.join(shared_dir, name + ".cbor")
        if not os.path.exists(path):
            return []
        with open(path, "rb") as f:
            data = f.read()
        for i, item in enumerate(sub_items(data, 600, 3000, 2)):
            out.append((f"{name}-item{i}", item))
        out.append((f"{name}-prefix", data[:1500]))
    return out


# ---- writer programs (see writer_fuzz.cpp) ---------------------------------------

def u64(v):
    n = (v.bit_length() + 7) // 8
    return bytes([n]) + v.to_bytes(n, "big") if n else b"\x00"


class Program:
    def __init__(self):
        self.code = bytearray()

    def op(self, *parts):
        for p in parts:
            self.code += bytes([p]) if isinstance(p, int) else p
        return self

    def uint(self, v): return self.op(0, u64(v))
    def int(self, v): return self.op(1, u64(v & (2**64 - 1)))
    def neg(self, n): return self.op(2, u64(n))
    def bignum(self, mag, negative=False): return self.op(3, len(mag) | (16 if negative else 0), mag)
    def bytes(self, s): return self.op(4, len(s), s)
    def text(self, s): return self.op(5, len(s.encode()), s.encode())
    def tag(self, n): return self.op(6, u64(n))
    def bool(self, b): return self.op(7, 1 if b else 0)
    def null(self): return self.op(8)
    def undefined(self): return self.op(9)
    def simple(self, v): return self.op(10, v)
    def double(self, bits, width=0): return self.op(11, bits.to_bytes(8, "big"), width)
    def half(self, bits, width=0): return self.op(12, bits.to_bytes(2, "big"), width)
    def single(self, bits, width=0): return self.op(13, bits.to_bytes(4, "big"), width)
    def array(self, n): return self.op(14, n)
    def array_indef(self): return self.op(15)
    def map(self, n): return self.op(16, n)
    def map_indef(self): return self.op(17)
    def bytes_indef(self): return self.op(18)
    def text_indef(self): return self.op(19)
    def end(self): return self.op(20)


def writer_programs():
    P = Program
    progs = {
        "scalars": P().array(12).uint(0).uint(23).uint(24).uint(2**32).uint(2**64 - 1)
        .int(-1).int(-(2**63)).neg(2**64 - 1).bool(True).null().undefined().simple(16).end(),
        "strings": P().array(4).bytes(b"\x01\x02").text("IETF").text("\u6c34")
        .bytes(b"x" * 40).end(),
        "map": P().map(2).text("a").uint(1).text("b").array(2).uint(2).uint(3).end().end(),
        "indefinite": P().array_indef().uint(1).array(2).uint(2).uint(3).end()
        .array_indef().uint(4).uint(5).end().end(),
        "indef-strings": P().array(2).bytes_indef().bytes(b"\x01\x02").bytes(b"\x03").end()
        .text_indef().text("strea").text("ming").end().end(),
        "indef-map": P().map_indef().text("Fun").bool(True).text("Amt").int(-2).end(),
        "tags": P().tag(1).uint(1363896240).tag(32).text("http://www.example.com")
        .tag(55799).tag(24).array(0).end(),
        "bignums": P().array(4).bignum(b"\x01" + b"\x00" * 8).bignum(b"\x01" + b"\x00" * 8, True)
        .bignum(b"\x00\x00\xff").bignum(b"", True).end(),
        "floats-shortest": P().array(10).half(0x3e00).half(0x7bff).single(0x47c35000)
        .double(0x3ff199999999999a).half(0x8000).half(0x7c00).half(0x7e00).half(0x0001)
        .single(0x7f800001).double(0x7ff0000000000001).end(),
        "floats-forced": P().array(6).double(0x3ff199999999999a, 1).double(0x3ff199999999999a, 2)
        .half(0x3c00, 3).double(0x40effc0000000000, 1).double(0x3e70000000000000, 1)
        .double(0x7ff8000000000001, 2).end(),
        "deep": P().array(1).array(1).array(1).array_indef().map(1).uint(0).tag(0).array(0)
        .end().end().end().end().end().end(),
        "sequence": P().uint(1).text("a").array(0).end().map_indef().end().null(),
        # Each of these breaks one rule; the model names the status.
        "err-count": P().array(2).uint(1).end(),
        "err-extra-item": P().array(1).uint(1).uint(2).end(),
        "err-bad-chunk": P().bytes_indef().text("x").end(),
        "err-nested-chunk": P().text_indef().text_indef().end().end(),
        "err-odd-map": P().map_indef().uint(1).end(),
        "err-no-container": P().uint(1).end(),
        "err-unclosed": P().array(1).tag(5),
        "err-tag-end": P().array_indef().tag(5).end(),
        "err-bad-simple": P().simple(24).simple(31).simple(32),
    }
    modes = [("owned", 0x00), ("buffer16", 0x01 | 4 << 2), ("sink4", 0x02 | 3 << 2),
             ("sink-fails", 0x02 | 33 << 2), ("detach", 0x03)]
    out = []
    for name, prog in progs.items():
        for mode_name, mode in modes:
            if name.startswith("err-") and mode_name != "owned":
                continue
            out.append((f"{name}-{mode_name}", bytes([mode]) + bytes(prog.code)))
    return out


# ---- mapping_fuzz: records of its nested struct ------------------------------------

def enc(v):
    """A minimal CBOR encoder (shortest heads) for the mapping seeds."""
    def head(major, n):
        if n < 24:
            return bytes([major << 5 | n])
        for ai, size in ((24, 1), (25, 2), (26, 4), (27, 8)):
            if n < 1 << (8 * size):
                return bytes([major << 5 | ai]) + n.to_bytes(size, "big")
        raise ValueError(n)
    if isinstance(v, bool):
        return b"\xf5" if v else b"\xf4"
    if v is None:
        return b"\xf6"
    if isinstance(v, int):
        return head(0, v) if v >= 0 else head(1, -1 - v)
    if isinstance(v, float):
        import struct
        return b"\xfb" + struct.pack(">d", v)
    if isinstance(v, bytes):
        return head(2, len(v)) + v
    if isinstance(v, str):
        b = v.encode()
        return head(3, len(b)) + b
    if isinstance(v, list):
        return head(4, len(v)) + b"".join(enc(x) for x in v)
    if isinstance(v, dict):
        return head(5, len(v)) + b"".join(enc(k) + enc(x) for k, x in v.items())
    raise TypeError(v)


def mapping_records():
    leaf = {"name": "n", "n": -3, "w": 0.5, "raw": b"\x01\x02"}
    full = {"id": 2**64 - 1, "title": "t", "leaves": [leaf, {"name": "", "n": 7, "raw": b""}],
            "ns": [0, -1, 2**63 - 1, -2**63], "xs": [1.5, -0.0, 3], "counts": {"a": 1, "b": 2**32 - 1},
            "p": [255, -7], "ks": [{1: 1}, {1: 65535, -1: "k"}], "v": [1, 2], "flag": True,
            "f": 0.25, "blob": b"\xff", "by_id": {-1: leaf}, "grid": [[1, -128], [], [127]]}
    out = [("full", enc(full)), ("leaf", enc(leaf)), ("pair", enc([1, 2]))]
    text_variant = dict(full, v="text")
    out.append(("variant-text", enc(text_variant)))
    out.append(("variant-int", enc(dict(full, v=-5))))
    missing = dict(full)
    del missing["title"]
    out.append(("missing-title", enc(missing)))
    out.append(("unknown-key", enc(dict(full, extra=[{"x": 1}]))))
    out.append(("out-of-range", enc(dict(full, p=[256, 0]))))
    out.append(("typed-xs", enc(full).replace(enc([1.5, -0.0, 3]),
                                            h("d85658" "18") + h("000000000000f83f" "0000000000000080"
                                                                 "0000000000000840"))))
    out.append(("bulk-ints", enc([0, 23, 24, 255, 256, 2**32, 2**63 - 1, -2**63, -1])))
    out.append(("bulk-bad", enc([1, "x", 2])))
    return out


# JSON texts for the json target.
JSON_SEEDS = [
    ("ints", "[0,23,24,255,256,65535,65536,4294967295,4294967296,18446744073709551615]"),
    ("negatives", "[-1,-24,-25,-256,-257,-9223372036854775808,-18446744073709551616]"),
    ("bignums", "[18446744073709551616,-18446744073709551617,123456789012345678901234567890]"),
    ("minus-zero", "[-0,-0.0,0.0]"),
    ("floats", "[1.5,65504.0,100000.0,1.1,3.4028234663852886e+38,5e-324,1e300,1E2,-4.1e-7]"),
    ("out-of-range", "[1e400]"),
    ("strings", '["","a","\\u00fc\\ud83d\\ude00","\\"\\\\\\/\\b\\f\\n\\r\\t\\u0001"]'),
    ("utf8", '["\u00fc\u6c34\U00010151"]'),
    ("object", '{"a":1,"b":[2,3],"c":{"d":null,"e":true,"f":false}}'),
    ("duplicates", '{"a":1,"a":2}'),
    ("empty", "[[],{},[[]],{\"\":{}}]"),
    ("scalar-root", "  42  "),
    ("string-root", '"root"'),
    ("trailing-comma", "[1,2,]"),
    ("missing-colon", '{"a" 1}'),
    ("unclosed", '[1,{"a":[2'),
    ("leading-zero", "[01]"),
    ("two-values", "1 2"),
    ("bad-literal", "[tru]"),
    ("bad-escape", '["\\x"]'),
    ("lone-surrogate", '["\\ud800"]'),
    ("control-char", '["a\tb"]'),
    ("deep", "[" * 40 + "]" * 40),
]

# Diagnostic texts for the edn target.
EDN_SEEDS = [
    ("ints", "[0, 23, 24_0, 1_3, -1_2, 0xff, 0o17, 0b101, 18446744073709551616, -18446744073709551617]"),
    ("floats", "[1.5, 1.5_3, 1.5_2, 1.1_1, NaN, NaN_3, Infinity, -Infinity_2, 0x1.8p1, 1e3]"),
    ("strings", "[\"a\"_0, 'b', h'01 02 /c/ 03', b64'AQID', b64'-_8', b32'MFRGG', h32'C5H66']"),
    ("concat", "[\"a\" + \"b\", 'Hello ' h'776f726c64']"),
    ("indefinite", "[_ (_ h'01', h'02'), (_ \"a\"), ''_, \"\"_, {_ 1: [_ ]}]"),
    ("indicators", "[_1 1, {_0 \"k\": 2}, 23_1(24_0(0))]"),
    ("embedded", "<<1, [2, <<3>>]>>"),
    ("simple", "[false, true, null, undefined, simple(0), simple(32), simple(255)]"),
    ("comments", "# lead\n[1, /x/ 2] # tail\n3, 4"),
    ("errors", "[1, 2,]"),
    ("bad-indicator", "256_0"),
    ("bad-chunks", "(_ 1)"),
]

# ---- the corpus -------------------------------------------------------------------

def seeds(shared_dir):
    """{target: {file name: bytes}}"""
    valid = [(n, h(x)) for n, x in APPENDIX_A + EXTRA]
    malformed = [(f"{cause}-{i}", h(x)) for cause, cases in MALFORMED for i, x in enumerate(cases)]
    bad_utf8 = [(n, h(x)) for n, x in BAD_UTF8]
    slices = corpus_slices(shared_dir)
    out = {t: {} for t in CBOR_TARGETS + ["writer", "capi_limits"]}

    for t in CBOR_TARGETS:
        files = out[t]
        for n, x in valid:
            files[f"seed-a-{n}"] = config_byte() + x
        for n, x in malformed:
            files[f"seed-f-{n}"] = config_byte() + x
        for n, x in bad_utf8:
            files[f"seed-utf8-{n}"] = config_byte(utf8=True) + x
        for n, x in slices:
            files[f"seed-corpus-{n}"] = config_byte(utf8=True) + x
        # Limits: depth 2 and 1 on nested vectors.
        for n in ["array-nested", "indef-array-nested-indef", "deep-tags", "map-nested"]:
            x = dict(APPENDIX_A + EXTRA)[n]
            files[f"seed-depth2-{n}"] = config_byte(depth_code=2) + h(x)
            files[f"seed-depth1-{n}"] = config_byte(depth_code=1) + h(x)
        # The target switches on, for each target's own meaning.
        for n in ["map-5", "indef-map", "indef-text", "tag1-epoch-int"]:
            x = h(dict(APPENDIX_A + EXTRA)[n])
            files[f"seed-switch-a-{n}"] = config_byte(a=True) + (b"\x23" if t == "reader" else b"") + x
            files[f"seed-switch-b-{n}"] = config_byte(b=True) + (b"\x05" if t == "reader" else b"") + x

    # reader: max_depth 0 (depth code 31: the default, 512), limits on strings,
    # containers and items (0 in each: its default).
    r = out["reader"]
    r["seed-depth0-array"] = config_byte(depth_code=31) + h("8101")
    r["seed-limit-string"] = config_byte(a=True) + bytes([0x04 | 7 << 5]) + h("6568656c6c6f")
    r["seed-limit-joined"] = config_byte(a=True) + bytes([0x04 | 7 << 5]) + h("007f63616263636465ff")
    r["seed-limit-array"] = config_byte(a=True) + bytes([31 | 2 << 5]) + h("83010203")
    r["seed-limit-indef-map"] = config_byte(a=True) + bytes([31 | 1 << 5]) + h("bf01020304ff")
    r["seed-limit-items"] = config_byte(b=True) + bytes([3]) + h("8301820203")

    # reader: the strict marker 0x1c and byte S (1 duplicate keys, 2 deterministic).
    strict_vectors = [(n, h(x)) for n, x in STRICT] + [
        (n, h(dict(APPENDIX_A + EXTRA)[n])) for n in [
            "map-int", "map-text-keys", "map-5", "map-repeated-keys", "map-int-keys", "map-nested",
            "indef-map", "array-with-map", "double-1-1", "half-one", "single-100000", "long-head-uint",
            "long-head-array", "tag1-epoch-float"]]
    for n, x in strict_vectors:
        for flag, label in [(1, "dup"), (2, "det"), (3, "both")]:
            r[f"seed-strict-{label}-{n}"] = config_byte() + bytes([0x1c, flag]) + x
    # The shared strict rows, each with its own check.
    for v in STRICT_VECTORS:
        flag = {"duplicate_keys": 1, "deterministic": 2}.get(v["checks"][0]) if len(v["checks"]) == 1 else None
        if flag is not None:
            r[f"seed-shared-{seed_name(v['name'])}"] = config_byte() + bytes([0x1c, flag]) + h(v["hex"])
    r["seed-strict-utf8-dup"] = config_byte(utf8=True) + bytes([0x1c, 1]) + h("a262c32800" "62c32801")
    r["seed-strict-limits"] = config_byte(a=True) + bytes([31 | 2 << 5]) + bytes([0x1c, 3]) + h(
        "a3010002000300")
    r["seed-strict-lone-marker"] = config_byte() + h("1c")

    # capi_limits: flags F, limit mask M, limit bytes, CBOR (capi_limits_fuzz.cpp).
    c = out["capi_limits"]
    U, D, T, C, E, SEQ = 1, 2, 4, 8, 16, 32
    cases = [
        ("plain-map", U, 0, [], "a26161016162820203"),
        ("dup", D, 0, [], "a2010018010a"),
        ("dup-indef-text", D | C, 0, [], "a262616200" "7f61616162ff01"),
        ("det-ok", T, 0, [], "a3010002000300"),
        ("det-unsorted", T, 0, [], "a2020001f6"),
        ("det-float", T, 0, [], "fb3ff8000000000000"),
        ("det-indef", T | E, 0, [], "9f01ff"),
        ("all-flags", U | D | T | C | E, 0, [], "a2616100616201"),
        ("depth-2", 0, 1, [2], "8301820203820405"),
        ("depth-1-tags", 0, 1, [1], "c1c2f6"),
        ("string-4", 0, 2, [4], "6568656c6c6f"),
        ("joined-4", 0, 2, [4], "7f63616263636465ff"),
        ("container-2", 0, 4, [2], "83010203"),
        ("container-indef-1", 0, 4, [1], "bf01020304ff"),
        ("items-3", 0, 8, [3], "8301820203"),
        ("items-chunks", 0, 8, [3], "5f41014102ff"),
        ("memory-tiny", 0, 16, [1], "83010203"),
        ("memory-small", C, 16, [6], "8463616263646566676841424344"),
        ("memory-dup-map", D, 16, [12], "a4010002000300040005"),
        ("old-layout", 0, 32 | 2 | 1, [4, 1], "6568656c6c6f"),
        ("exact-trailing", E, 0, [], "0102"),
        ("seq-docs", SEQ, 8, [2], "01820203a10102f6"),
        ("seq-strict", D | T | SEQ, 0, [], "a10102a2010002000a"),
        ("seq-limits", U, 2 | 4, [3, 2], "6161636162638201028301020361ff"),
        ("seq-memory", SEQ, 16, [5], "0183170000180006a2a0a0a001f5"),
        ("everything", U | D | C, 31, [3, 4, 2, 6, 9], "a2616101616282a0a0"),
    ]
    for n, f, m, limits, x in cases:
        c[f"seed-{n}"] = bytes([f, m] + limits) + h(x)
    for n, x in [("map-5", "map-5"), ("indef-map", "indef-map"), ("floats", "half-max")]:
        c[f"seed-a-{n}"] = bytes([0, 0]) + h(dict(APPENDIX_A + EXTRA)[x])

    # sequences: several items in a row, then garbage at the end of some.
    seq = out["sequence"]
    for i in range(0, len(valid), 8):
        group = b"".join(x for _, x in valid[i:i + 8])
        seq[f"seed-seq-a{i // 8:02d}"] = config_byte() + group
    for cause, cases in MALFORMED:
        seq[f"seed-seq-then-{cause}"] = config_byte() + h("0102a0") + h(cases[0])
    if slices:
        seq["seed-seq-corpus"] = config_byte() + b"".join(x for _, x in slices[:3])

    for n, x in writer_programs():
        out["writer"][f"seed-{n}"] = x
    for n, x in mapping_records():
        out["mapping"][f"seed-record-{n}"] = config_byte() + x
        out["mapping"][f"seed-record-strict-{n}"] = config_byte(utf8=True, a=True) + x


    # json: JSON texts (boundary numbers, escapes, nesting, errors); switch a
    # rejects duplicate member names.
    out["json"] = {}
    for n, text in JSON_SEEDS:
        out["json"][f"seed-{n}"] = config_byte() + text.encode()
    out["json"]["seed-dup-strict"] = config_byte(a=True) + b'{"a":1,"b":{"a":2},"a":3}'
    out["json"]["seed-depth2"] = config_byte(depth_code=2) + b"[[1],[[2]]]"

    # edn: CBOR items (printed and parsed back) and diagnostic texts (parsed,
    # then printed and parsed again); switch a parses the text as a sequence.
    out["edn"] = {}
    for n, x in valid:
        out["edn"][f"seed-a-{n}"] = config_byte() + x
    for n, text in EDN_SEEDS:
        out["edn"][f"seed-text-{n}"] = config_byte(a=True) + text.encode()
    out["edn"]["seed-depth2-text"] = config_byte(depth_code=2) + b"[[1], <<[2]>>]"

    # canonical: the strict cases (duplicate keys, orders) and the inputs of
    # the shared canonical vectors (tests/vectors/canonical.json).
    cn = out["canonical"]
    for n, x in STRICT:
        cn[f"seed-strict-{n}"] = config_byte() + h(x)
    for row in load_vectors("canonical.json"):
        cn[f"seed-vector-{seed_name(row['name'])}"] = config_byte() + h(row["input"])
    cn["seed-mutable-map-5"] = config_byte(b=True) + h(dict(APPENDIX_A + EXTRA)["map-5"])

    # stream: a small buffer exactly as large as the input (switch a: 16 +
    # the last byte % 64 = 21 bytes), which fills before the end is seen.
    out["stream"]["seed-buffer-equals-input"] = config_byte(a=True) + h(
        "a5 6161 6141 6162 6142 6163 6143 6164 60 44 6165 6145")

    # stream: a sequence of 16 texts of 8 bytes, so that next_document()'s
    # documents outlive several refills of the stream's buffer (a document
    # that kept pointers into it instead of its own strings reads changed
    # text at the end of the loop).
    out["stream"]["seed-documents-outlive-the-buffer"] = config_byte() + b"".join(
        b"\x68" + bytes([c]) * 8 for c in b"abcdefghijklmnop")

    # mdoc: programs of calls.
    out["mdoc"] = {f"seed-{n}": config_byte() + prog for n, prog in MDOC_PROGRAMS}

    # tags: tagged items (switch b: the document copies its strings) and RFC
    # 3339 texts (switch a).
    out["tags"] = {}
    for n, x in TAG_ITEMS:
        out["tags"][f"seed-{n}"] = config_byte() + x
    out["tags"]["seed-copied-time-text"] = config_byte(b=True) + TAG_ITEMS[0][1]
    out["tags"]["seed-depth1-time-text"] = config_byte(depth_code=1) + TAG_ITEMS[0][1]
    for n, text in TAG_TEXTS:
        out["tags"][f"seed-text-{n}"] = config_byte(a=True) + text.encode()
    return out


# ---- tags_fuzz: tags as values ---------------------------------------------------

def tagged(tag, content):
    """Tag `tag` over the encoded `content` (shortest head)."""
    if tag < 24:
        head = bytes([0xc0 | tag])
    elif tag < 256:
        head = bytes([0xd8, tag])
    elif tag < 65536:
        head = bytes([0xd9]) + tag.to_bytes(2, "big")
    else:
        head = bytes([0xda]) + tag.to_bytes(4, "big")
    return head + content


# CBOR items: each tag with valid content, content at its boundaries, and
# content of the wrong type or out of range.
TAG_ITEMS = [
    ("time-text", tagged(0, enc("1985-04-12T23:20:50.52Z"))),
    ("time-text-offset", tagged(0, enc("1996-12-19T16:39:57-08:00"))),
    ("time-text-leap-second", tagged(0, enc("1990-12-31T23:59:60Z"))),
    ("time-text-nanos", tagged(0, enc("0000-01-01T00:00:00.000000001+23:59"))),
    ("time-text-last", tagged(0, enc("9999-12-31T23:59:59.999999999-23:59"))),
    ("time-text-feb29", tagged(0, enc("1900-02-29T00:00:00Z"))),
    ("time-text-long-head", tagged(0, b"\x78\x14" + b"2013-03-21T20:04:00Z")),
    ("time-text-bytes", tagged(0, enc(b"2013-03-21T20:04:00Z"))),
    ("epoch-int", tagged(1, enc(1363896240))),
    ("epoch-negative", tagged(1, enc(-1))),
    ("epoch-int64-min", tagged(1, h("3b7fffffffffffffff"))),
    ("epoch-beyond-int64", tagged(1, h("1b8000000000000000"))),
    ("epoch-half", tagged(1, h("f93800"))),
    ("epoch-float", tagged(1, h("fb41d452d9ec200000"))),
    ("epoch-minus-half", tagged(1, h("f9b800"))),
    ("epoch-2p63", tagged(1, h("fb43e0000000000000"))),
    ("epoch-minus-2p63", tagged(1, h("fbc3e0000000000000"))),
    ("epoch-nearly-next-second", tagged(1, h("fb3feffffffffffffe"))),
    ("epoch-nan", tagged(1, h("f97e00"))),
    ("epoch-inf", tagged(1, h("f97c00"))),
    ("epoch-bignum", tagged(1, tagged(2, enc(b"\x01")))),
    ("days", tagged(100, enc(-719528))),
    ("days-huge", tagged(100, h("3b7fffffffffffffff"))),
    ("full-date", tagged(1004, enc("2024-02-29"))),
    ("full-date-bad-day", tagged(1004, enc("2023-02-29"))),
    ("decimal", tagged(4, enc([-2, 27315]))),
    ("bigfloat", tagged(5, enc([1, 3]))),
    ("decimal-bignum", tagged(4, enc([-1, 1]) [:-1] + tagged(3, enc(b"\x01" + b"\x00" * 8)))),
    ("decimal-exponent-beyond-int64", tagged(4, h("82" "1b8000000000000000" "01"))),
    ("decimal-three", tagged(4, enc([1, 2, 3]))),
    ("uuid", tagged(37, enc(bytes(range(16))))),
    ("uuid-short", tagged(37, enc(bytes(15)))),
    ("embedded", tagged(24, enc(h("83010203")))),
    ("self-described", tagged(55799, tagged(55799, tagged(0, enc("2013-03-21T20:04:00Z"))))),
    ("nested", enc([0, {"t": 0}]).replace(b"\x00", tagged(1, enc(0)), 1)),
]

# RFC 3339 texts: valid ones at their boundaries and one bad character each.
TAG_TEXTS = [
    ("date-time", "1985-04-12T23:20:50.52Z"), ("lowercase", "1985-04-12t23:20:50z"),
    ("offset-minus-zero", "1985-04-12T23:20:50-00:00"), ("nine-digits", "2000-01-01T00:00:00.123456789Z"),
    ("ten-digits", "2000-01-01T00:00:00.1234567891Z"), ("no-digits", "2000-01-01T00:00:00.Z"),
    ("hour-24", "2000-01-01T24:00:00Z"), ("month-13", "2000-13-01T00:00:00Z"),
    ("leap-day-2000", "2000-02-29T00:00:00Z"), ("leap-day-2100", "2100-02-29T00:00:00Z"),
    ("offset-hour-24", "2000-01-01T00:00:00+24:00"), ("trailing", "2000-01-01T00:00:00Zx"),
    ("cut", "2000-01-01T00:00"), ("full-date", "2000-01-01"), ("full-date-short", "2000-1-01"),
    ("empty", ""),
]

# ---- mdoc_fuzz: programs of mutable-document calls (opcodes: mdoc_fuzz.cpp run()) --

def mdoc_program(*ops):
    """Opcode names and operands to program bytes; node operands are indexes
    in creation order (the fuzzer reads two bytes per node, modulo count + 1)."""
    codes = {"uint": 0, "int": 1, "negative": 2, "text": 3, "bytes": 4, "array": 5, "map": 6,
             "tag": 7, "float": 8, "simple": 9, "bignum": 10, "append": 11, "array_set": 12,
             "map_put": 13, "map_set": 14, "indefinite": 15, "array_remove": 16,
             "map_remove": 17, "set_root": 20, "check": 21}
    out = b""
    for op in ops:
        name, args = op[0], op[1:]
        out += bytes([codes[name]])
        for a in args:
            if isinstance(a, tuple) and a[0] == "node":
                out += bytes([a[1] & 0xff, a[1] >> 8])
            elif isinstance(a, bytes):
                out += a
            else:
                out += bytes([a])
    return out


def node(i):
    return ("node", i)


MDOC_PROGRAMS = [
    ("array-root", mdoc_program(("array",), ("uint", 1, 7), ("append", node(0), node(1)),
                                ("set_root", node(0)), ("check",))),
    ("map-set-remove", mdoc_program(
        ("map",), ("text", 1, b"a"), ("uint", 1, 5), ("map_put", node(0), node(1), node(2)),
        ("uint", 1, 6), ("map_set", node(0), node(3), 1, b"b"), ("set_root", node(0)), ("check",),
        ("map_remove", 1, node(0), 1, b"a"), ("check",), ("indefinite", node(0), 1), ("check",),
        ("map_remove", 2, node(0), 0), ("map_remove", 0, node(0), 0), ("check",))),
    ("cycles", mdoc_program(
        ("array",), ("array",), ("append", node(0), node(1)), ("append", node(1), node(0)),
        ("tag", 1, 5, node(0)), ("append", node(1), node(2)), ("append", node(0), node(0)),
        ("set_root", node(2)), ("check",))),
    ("replace-and-reuse", mdoc_program(
        ("array",), ("uint", 0), ("negative", 2, 1, 0), ("append", node(0), node(1)),
        ("array_set", node(0), node(2), 0), ("append", node(0), node(1)), ("array_set", node(0), node(2), 5),
        ("array_remove", node(0), 0), ("set_root", node(0)), ("check",), ("set_root", node(1)),
        ("set_root", node(0)), ("check",))),
    # A negative bignum of magnitude h'' is written as the integer -1.
    ("bignum-tag-over-empty-bytes", mdoc_program(
        ("bytes", 0), ("tag", 1, 3, node(0)), ("set_root", node(1)), ("check",))),
    ("scalars", mdoc_program(
        ("array",), ("float", bytes.fromhex("3ff8000000000000"), 1), ("float", bytes.fromhex("7ff8000000000001"), 1),
        ("float", bytes.fromhex("3ff8000000000000"), 0), ("simple", 24), ("simple", 255), ("simple", 22),
        ("bignum", 1, 10, bytes.fromhex("00010203040506070809")), ("bignum", 0, 9, bytes.fromhex("000102030405060708")),
        ("int", bytes.fromhex("8000000000000000")), ("bytes", 3, b"xyz"),
        ("append", node(0), node(1)), ("append", node(0), node(2)), ("append", node(0), node(3)),
        ("append", node(0), node(4)), ("append", node(0), node(5)), ("append", node(0), node(6)),
        ("append", node(0), node(7)), ("append", node(0), node(8)), ("append", node(0), node(9)),
        ("set_root", node(0)), ("check",))),
]

def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="compare with the files on disk instead of writing")
    parser.add_argument("--corpus-dir", default=DEFAULT_SHARED,
                        help="benchmark corpus (twitter.cbor, ...) to slice")
    args = parser.parse_args()

    have_slices = bool(corpus_slices(args.corpus_dir))
    if not have_slices:
        print(f"make_seeds: no benchmark corpus in {args.corpus_dir}: slices not "
              f"{'checked' if args.check else 'written'}", file=sys.stderr)
    wanted = seeds(args.corpus_dir)
    problems = []
    total = 0
    for target, files in wanted.items():
        d = os.path.join(CORPUS, target)
        if not args.check:
            os.makedirs(d, exist_ok=True)
        on_disk = set(os.listdir(d)) if os.path.isdir(d) else set()
        for name, data in sorted(files.items()):
            total += len(data)
            path = os.path.join(d, name)
            if args.check:
                if name not in on_disk:
                    problems.append(f"missing: {target}/{name}")
                else:
                    with open(path, "rb") as f:
                        if f.read() != data:
                            problems.append(f"differs: {target}/{name}")
            else:
                with open(path, "wb") as f:
                    f.write(data)
        for name in sorted(on_disk):
            stale = name.startswith("seed-") and name not in files
            # Without the benchmark files the slices are neither made nor judged.
            if not have_slices and (name.startswith("seed-corpus-") or name == "seed-seq-corpus"):
                stale = False
            if stale:
                if args.check:
                    problems.append(f"stale: {target}/{name}")
                else:
                    os.remove(os.path.join(d, name))
    if args.check:
        if problems:
            print("make_seeds: the committed corpus is not what make_seeds.py writes "
                  "(run tests/fuzz/make_seeds.py):", file=sys.stderr)
            for p in problems:
                print("  " + p, file=sys.stderr)
            return 1
        print(f"make_seeds: corpus up to date ({sum(map(len, wanted.values()))} seed files)")
        return 0
    print(f"make_seeds: wrote {sum(map(len, wanted.values()))} seed files, {total} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())

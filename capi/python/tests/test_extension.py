"""The compiled extension itself: the status table against the C header,
reference counts and leaks, no recursion either way, hostile input (bounded
mutation fuzzing), the memory budget, cbor2 compatibility of the semantic
tags and of canonical mode (byte for byte), value sharing and string
references, load/dump on files."""

import datetime
import decimal
import fractions
import gc
import importlib.util
import io
import ipaddress
import os
import random
import re
import sys
import threading
import uuid

import struct

import pytest

from support import CORPUS_FILES, h, require, require_corpus

import cbor_fast
from cbor_fast import (STATUS_CODES, CBORDecodeError, CBOREncodeValueError, CBORSimpleValue,
                       CBORTag, dumps, iter_sequence, loads, undefined)

try:
    import cbor2
except ImportError:
    cbor2 = None


def corpus():
    d = require_corpus()
    out = {}
    for name in CORPUS_FILES:
        with open(os.path.join(d, name), "rb") as f:
            out[name] = f.read()
    return out


# ---- the status table ------------------------------------------------------------

def header_enum():
    path = os.environ.get("CBOR_FAST_HEADER") or os.path.join(
        os.path.dirname(__file__), "..", "..", "include", "cbor_fast.h")
    require(os.path.isfile(path), "capi/include/cbor_fast.h (CBOR_FAST_HEADER)")
    with open(path) as f:
        text = f.read()
    body = text[text.index("typedef enum cbor_fast_status {"):]
    body = body[:body.index("} cbor_fast_status;")]
    return {m.group(1): int(m.group(2))
            for m in re.finditer(r"\b(CBOR_FAST_[A-Z0-9_]+)\s*=\s*(\d+)", body)}


def test_status_table_matches_the_header():
    enum = header_enum()
    assert len(enum) >= 30
    assert sorted(STATUS_CODES.values()) == sorted(enum.values())
    for name, code in STATUS_CODES.items():
        # the binding's name is the library's name for that code
        assert cbor_fast._ext.status_name(code) == name
    assert STATUS_CODES["truncated"] == enum["CBOR_FAST_ERR_TRUNCATED"] == 100
    assert STATUS_CODES["memory_budget_exceeded"] == enum["CBOR_FAST_ERR_MEMORY_BUDGET"] == 305


# ---- reference counts and leaks --------------------------------------------------

def test_refcounts_of_inputs_and_shared_objects():
    data = dumps({"key": [1, "text", b"bytes", 2.5, None]})
    before = sys.getrefcount(data)
    for _ in range(100):
        loads(data)
    after = sys.getrefcount(data)  # outside assert: pytest's rewriting holds operands
    assert after == before
    obj = ["x" * 50, {"a": 1}]
    before = [sys.getrefcount(o) for o in (obj, obj[0], obj[1])]
    for _ in range(100):
        dumps(obj)
        dumps(obj, canonical=True)
        dumps(obj, value_sharing=True)
    after = [sys.getrefcount(o) for o in (obj, obj[0], obj[1])]
    assert after == before
    # errors release what they hold
    bad = [1, object()]
    before = sys.getrefcount(bad[1])
    for _ in range(100):
        try:
            dumps(bad)
        except cbor_fast.CBOREncodeTypeError:
            pass
    after = sys.getrefcount(bad[1])
    assert after == before
    # the decoded values hold one reference each (the caller's)
    v = loads(h("82 6161 a0"))
    counts = sys.getrefcount(v), sys.getrefcount(v[1])
    assert counts == (2, 2)


def _blocks_after(fn, rounds):
    gc.collect()
    fn()
    gc.collect()
    start = sys.getallocatedblocks()
    for _ in range(rounds):
        fn()
    gc.collect()
    return sys.getallocatedblocks() - start


def test_no_leak_over_many_iterations():
    values = [
        {"a": [1, 2.5, "x" * 40, b"y" * 10, None, True, 2**70, -2**70, undefined],
         (1, 2): CBORTag(99, [CBORSimpleValue(5)])},
        [datetime.datetime(2020, 1, 2, tzinfo=datetime.timezone.utc), decimal.Decimal("1.5"),
         {1, 2}, uuid.UUID(int=7), fractions.Fraction(1, 3)],
    ]
    data = [dumps(v) for v in values]
    bad = [h("9f 01 02"), h("a1 01"), h("62 c328"), h("d8 19 05"), h("c2 01"), h("1c")]

    def work():
        for v, d in zip(values, data):
            loads(d)
            dumps(v)
            dumps(v, canonical=True)
            list(iter_sequence(d + d))
        for b in bad:
            try:
                loads(b)
            except CBORDecodeError:
                pass
        try:
            a = []
            a.append(a)
            dumps(a)
        except CBOREncodeValueError:
            pass

    # work() makes 20 calls: a leak of one block per call would be 80,000
    # blocks; allocator free lists and caches account for a few hundred
    assert _blocks_after(work, 4000) < 4000


def test_no_leak_on_the_corpus():
    files = corpus()

    def work():
        for d in files.values():
            dumps(loads(d))
    assert _blocks_after(work, 5) < 200


# ---- no recursion ----------------------------------------------------------------

DEEP = 100000


def test_deep_input_decodes_with_a_raised_max_depth():
    for opener in (b"\x81", b"\xa1\x00", b"\xc6", b"\x9f"):
        closer = b"\xff" if opener == b"\x9f" else b""
        data = opener * DEEP + b"\x00" + closer * DEEP
        value = loads(data, max_depth=DEEP + 1)
        depth = 0
        while not isinstance(value, int):
            value = value.value if isinstance(value, CBORTag) else \
                value[0] if isinstance(value, list) else value[0]
            depth += 1
        assert depth == DEEP
        with pytest.raises(CBORDecodeError) as e:
            loads(data)  # the default limit, 512
        assert (e.value.status, e.value.depth) == ("depth_exceeded", 512)


def test_deep_objects_encode_without_recursion():
    root = cur = []
    for _ in range(DEEP):
        nxt = []
        cur.append(nxt)
        cur = nxt
    data = dumps(root)
    assert data == b"\x81" * DEEP + b"\x80"
    assert len(loads(data, max_depth=DEEP + 1)) == 1
    d = cur = {}
    for _ in range(DEEP):
        cur["k"] = {}
        cur = cur["k"]
    assert dumps(d, canonical=True) == b"\xa1\x61k" * DEEP + b"\xa0"


class _Chain:
    inner = None


def _make_chain(n):
    """n objects, each holding the next in .inner (the last None)."""
    objs = [_Chain() for _ in range(n)]
    for a, b in zip(objs, objs[1:]):
        a.inner = b
    return objs[0]


def test_nested_encode_calls_from_default_are_bounded():
    # `default` calling encoder.encode() (or dumps()) again nests C calls:
    # 500 levels at most (dumps itself the first), an error beyond, not a
    # stack overflow however high the recursion limit (8000 levels crashed).
    def default(encoder, obj):
        encoder.encode([obj.inner] if obj.inner is not None else 1)

    def default_dumps(encoder, obj):
        inner = 1 if obj.inner is None else CBORTag(24, dumps(obj.inner, default=default_dumps))
        encoder.encode(inner)

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(200000)
    try:
        assert dumps(_make_chain(499), default=default) == b"\x81" * 498 + b"\x01"
        with pytest.raises(CBOREncodeValueError, match=r"maximum encoding depth \(500\)"):
            dumps(_make_chain(500), default=default)
        with pytest.raises(CBOREncodeValueError, match=r"maximum encoding depth \(500\)"):
            dumps(_make_chain(100000), default=default)
        # the count is back to 0 after the error
        assert dumps(_make_chain(499), default=default) == b"\x81" * 498 + b"\x01"
        # dumps() called from default counts too
        out = dumps(_make_chain(3), default=default_dumps)
        assert out == h("d818 44 d818 41 01")
        with pytest.raises(CBOREncodeValueError, match=r"maximum encoding depth \(500\)"):
            dumps(_make_chain(100000), default=default_dumps)
        assert len(dumps(_make_chain(499), default=default_dumps)) > 499
    finally:
        sys.setrecursionlimit(limit)


def _in_small_thread(fn, stack=128 * 1024):
    """fn() on a thread with a `stack`-byte stack: its value or its exception."""
    out = {}

    def run():
        try:
            out["value"] = fn()
        except Exception as e:  # noqa: BLE001 (handed to the caller)
            out["error"] = e

    old = threading.stack_size(stack)
    try:
        t = threading.Thread(target=run)
        t.start()
        t.join()
    finally:
        threading.stack_size(old)
    return out


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the stack check is Linux's")
def test_nested_encodes_stop_before_a_small_thread_stack_ends():
    # Canonical keys holding maps encode each key apart, a C call a level: on
    # a 128 KiB thread 400 levels overflowed the stack (a crash). Now a level
    # needs 64 KiB of the stack left, else the encoder's error.
    def keys_in_keys(n):
        k = 0
        for _ in range(n):
            k = cbor_fast.FrozenDict({k: 1})
        return {k: 1}

    # 30 levels fit the 64 KiB above the floor in every build: about 130 do
    # with the plain extension, 50 (2026-12-07) with ASan's larger frames,
    # where 50 here had no margin left and a change of the encoder's frame
    # by a few bytes a level failed this test.
    out = _in_small_thread(lambda: dumps(keys_in_keys(30), canonical=True))
    assert out == {"value": b"\xa1" * 31 + b"\x00" + b"\x01" * 31}
    for n in (400, 499, 100000):
        out = _in_small_thread(lambda: dumps(keys_in_keys(n), canonical=True))
        assert isinstance(out.get("error"), CBOREncodeValueError), (n, out)
        assert "of this thread's stack left" in str(out["error"])
    # The same for default hooks calling encode() again.
    def default(encoder, obj):
        encoder.encode([obj.inner] if obj.inner is not None else 1)

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(200000)
    try:
        out = _in_small_thread(lambda: dumps(_make_chain(499), default=default))
    finally:
        sys.setrecursionlimit(limit)
    assert isinstance(out.get("error"), CBOREncodeValueError), out
    # A thread's first and later encodes both take the check's cached floor.
    assert _in_small_thread(lambda: (dumps([1]), dumps([2]))) == {"value": (b"\x81\x01",
                                                                            b"\x81\x02")}


def test_cycles():
    a = [1]
    a.append(a)
    with pytest.raises(CBOREncodeValueError):
        dumps(a)
    d = {}
    d["self"] = [d]
    with pytest.raises(CBOREncodeValueError):
        dumps(d)
    out = dumps(a, value_sharing=True)
    assert out == h("d81c 82 01 d81d 00")
    back = loads(out)
    assert back[1] is back
    # the same object twice is not a cycle
    x = [1]
    assert loads(dumps([x, x])) == [[1], [1]]
    shared = loads(dumps([x, x], value_sharing=True))
    assert shared[0] is shared[1]


# ---- hostile input ---------------------------------------------------------------

def test_mutation_fuzz_never_crashes():
    """Bounded mutation fuzzing: every result is a value or CBORDecodeError."""
    rnd = random.Random(1414)
    seeds = [dumps(v) for v in (
        {"a": [1, 2, {"b": b"xyz"}], "c": "text", 3: -4.5},
        [CBORTag(258, [1, 2]), CBORTag(28, [CBORTag(29, 0)]), CBORTag(256, ["abc", CBORTag(25, 0)])],
        [datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc), 2**80, undefined],
    )] + [h("9f 5f 4161 ff 7f 6161 ff a1 01 02 ff")]
    ok = failed = 0
    for _ in range(20000):
        data = bytearray(rnd.choice(seeds))
        for _ in range(rnd.randint(1, 4)):
            op = rnd.randrange(3)
            pos = rnd.randrange(len(data) + 1)
            if op == 0 and data:
                data[min(pos, len(data) - 1)] = rnd.randrange(256)
            elif op == 1:
                data[pos:pos] = bytes([rnd.randrange(256)])
            elif data:
                del data[min(pos, len(data) - 1)]
        try:
            loads(bytes(data), max_depth=64)
            ok += 1
        except CBORDecodeError as e:
            assert e.offset is None or 0 <= e.offset <= len(data)
            failed += 1
        except (MemoryError, RecursionError):
            raise
    assert ok > 100 and failed > 1000


def test_huge_counts_do_not_allocate():
    # an array head promising 2**63 items over 1 byte of input: over the
    # default container limit at the head; lifted, the input cannot hold it
    lifted = {"max_container_items": 2**64 - 1}
    for head, status in (("9b7fffffffffffffff00", "container_too_large"),
                         ("bb7fffffffffffffff0000", "container_too_large"),
                         ("5b7fffffffffffffff", "truncated")):
        with pytest.raises(CBORDecodeError) as e:
            loads(h(head))
        assert (e.value.status, e.value.offset) == (status, 0)
        with pytest.raises(CBORDecodeError) as e:
            loads(h(head), **lifted)
        assert (e.value.status, e.value.offset) == ("truncated", 0)


def test_max_memory_bounds_what_the_decoder_holds():
    data = dumps(["x" * 100] * 1000)
    assert len(loads(data, max_memory=10**6)) == 1000
    with pytest.raises(CBORDecodeError) as e:
        loads(data, max_memory=20000)
    assert e.value.status == "memory_budget_exceeded"
    assert 0 < e.value.offset < len(data)
    deep = b"\x81" * 5000 + b"\x00"
    with pytest.raises(CBORDecodeError) as e:
        loads(deep, max_depth=10000, max_memory=4096)
    assert e.value.status == "memory_budget_exceeded"


def _smallest_budget(data):
    """The least max_memory that decodes data (bisection)."""
    lo, hi = 1, 1 << 24
    assert loads(data, max_memory=hi) is not None
    while lo < hi:
        mid = (lo + hi) // 2
        try:
            loads(data, max_memory=mid)
            hi = mid
        except CBORDecodeError as e:
            assert e.status == "memory_budget_exceeded"
            lo = mid + 1
    return lo


def test_max_memory_counts_the_table_of_keys_sharing_a_hash():
    # Float keys get their hashes counted per map past 64 keys (a table of
    # 16-byte slots, at least two per distinct hash, doubling); int keys
    # below the hash modulus do not. Both maps encode each key in 9 bytes and
    # cost the decoder the same per item, so their budgets differ by the
    # table alone: 1000 keys need 2048 slots, 16 + 2048 * 16 bytes, held
    # until the map's end, which gives it back and then counts 32 bytes for
    # the map itself (the int map's peak).
    floats = b"\xb9\x03\xe8" + b"".join(b"\xfb" + struct.pack(">d", 1.5 + i) + b"\x00"
                                        for i in range(1000))
    ints = b"\xb9\x03\xe8" + b"".join(b"\x1b" + (2**40 + i).to_bytes(8, "big") + b"\x00"
                                      for i in range(1000))
    assert loads(floats) == {1.5 + i: 0 for i in range(1000)}
    assert loads(ints) == {2**40 + i: 0 for i in range(1000)}
    assert _smallest_budget(floats) - _smallest_budget(ints) == 16 + 2048 * 16 - 32


# ---- cbor2 compatibility ---------------------------------------------------------

UTC = datetime.timezone.utc
SEMANTIC = [
    datetime.datetime(2020, 1, 2, 3, 4, 5, tzinfo=UTC),
    datetime.datetime(2020, 1, 2, 3, 4, 5, 123, tzinfo=UTC),
    datetime.datetime(2020, 1, 2, tzinfo=datetime.timezone(datetime.timedelta(hours=2))),
    datetime.date(2020, 1, 2),
    decimal.Decimal("1.25"), decimal.Decimal("-0.001"), decimal.Decimal("1E+3"),
    fractions.Fraction(1, 3), uuid.UUID(int=5), re.compile("a+b"),
    {1, 2, 3}, frozenset(["a"]), ipaddress.ip_address("1.2.3.4"), ipaddress.ip_address("::1"),
    ipaddress.ip_network("10.0.0.0/8"),
    2**64, -2**64 - 1, 2**200, CBORSimpleValue(7), undefined, float("inf"), float("nan"),
    {"nested": [decimal.Decimal("2.5"), {frozenset([1])}]},
]


def to_cbor2(v):
    if v is undefined:
        return cbor2.undefined
    if isinstance(v, CBORSimpleValue):
        return cbor2.CBORSimpleValue(v.value)
    if isinstance(v, CBORTag):
        return cbor2.CBORTag(v.tag, to_cbor2(v.value))
    if isinstance(v, list):
        return [to_cbor2(x) for x in v]
    if isinstance(v, dict):
        return {k: to_cbor2(x) for k, x in v.items()}
    return v


def same(a, b):
    if isinstance(a, float) and a != a:
        return isinstance(b, float) and b != b
    if isinstance(a, re.Pattern):
        return a.pattern == b.pattern
    if type(a).__name__ in ("CBORSimpleValue", "UndefinedType"):
        return type(b).__name__ == type(a).__name__ and repr(a) == repr(b)
    return a == b


@pytest.fixture(scope="module")
def ref():
    require(cbor2 is not None, "cbor2 (the differential reference)")
    return cbor2


def test_semantic_tags_both_ways(ref):
    for v in SEMANTIC:
        theirs = ref.dumps(to_cbor2(v))
        ours = dumps(v)
        assert same(loads(theirs), v), v
        assert same(ref.loads(ours), to_cbor2(v)), v
        assert dumps(v, canonical=True) == ref.dumps(to_cbor2(v), canonical=True), v
        if not isinstance(v, float):
            assert ours == theirs, v  # floats: cbor2 writes doubles unless canonical


def test_mime_message_the_email_package_cannot_write_is_an_encode_error():
    import email.errors
    import email.message
    # Tag 36 over a header whose value holds a form feed (the atheris finding
    # of 2026-12-02): the email package parses it, and where it checks the
    # headers it writes (CPython's fix for CVE-2024-6923: Debian's 3.11.2,
    # 3.12.5+) it refuses to write it again: HeaderWriteError, no ValueError.
    data = h("d824 67") + b"a: b\x0cc\n"
    msg = loads(data)
    assert isinstance(msg, email.message.Message)
    assert msg["a"] == "b\x0cc"
    if hasattr(email.errors, "HeaderWriteError"):
        with pytest.raises(CBOREncodeValueError, match="cannot write MIME message"):
            dumps(msg)
        with pytest.raises(CBOREncodeValueError):
            dumps([1, {"m": msg}])
    else:
        # Older Pythons (3.11.7, for one) write the form feed as a line break
        # ("a: b\nc\n\n"): the message is the email package's text in tag 36.
        assert dumps(msg) == dumps(CBORTag(36, msg.as_string()))
        assert dumps(msg)[:2] == h("d824")

    # The same on every Python: a message whose writer fails with the email
    # package's own error.
    class Unwritable(email.message.Message):
        def as_string(self, *args, **kwargs):
            raise email.errors.HeaderParseError("header cannot be written")

    with pytest.raises(CBOREncodeValueError, match="header cannot be written") as info:
        dumps(Unwritable())
    assert isinstance(info.value.__cause__, email.errors.MessageError)


def nested_keys(depth):
    """{k: 0} where k is a frozendict key holding a frozenset holding the next
    level's key, `depth` levels deep: each level's key sorts by its bytes."""
    key = 0
    for i in range(depth):
        key = cbor_fast.FrozenDict({frozenset([key, i]): i})
    return {key: 0, "a": 1}


def test_canonical_keys_nested_in_keys_cost_once_per_level(ref):
    # Small depths: byte-identical to cbor2's canonical mode, also with
    # value_sharing (whose path still encodes each key twice).
    for depth in (1, 2, 5):
        value = nested_keys(depth)
        ours = dumps(value, canonical=True)
        assert ours == ref.dumps(value, canonical=True), depth
        assert dumps(value, canonical=True, value_sharing=True) == \
            ref.dumps(value, canonical=True, value_sharing=True), depth
        assert dumps(value, canonical=True, indefinite_containers=True) == \
            ref.dumps(value, canonical=True, indefinite_containers=True), depth
    # 200 levels: a key encoded twice per level (for the sort and for the
    # output) is 2^200 work; once per level it is a moment.
    deep = dumps(nested_keys(200), canonical=True)
    assert loads(deep, immutable=True, max_depth=2000) == nested_keys(200)


def test_interface_bytes_match_cbor2(ref):
    # cbor2 6.3 decodes its own interface encoding as an address; the bytes agree
    iface = ipaddress.ip_interface("10.0.0.1/8")
    assert dumps(iface) == ref.dumps(iface) == h("d834 82 440a000001 08")
    assert loads(dumps(iface)) == iface


def test_encoder_options_match_cbor2(ref):
    naive = datetime.datetime(2020, 1, 2, 3, 4, 5)
    for v, opts in [
        (SEMANTIC[0], {"datetime_as_timestamp": True}),
        (SEMANTIC[1], {"datetime_as_timestamp": True}),
        (datetime.date(2020, 1, 2), {"datetime_as_timestamp": True}),
        (datetime.date(2020, 1, 2), {"date_as_datetime": True, "timezone": UTC}),
        (naive, {"timezone": UTC}),
        ([1, [2, {"a": 3}]], {"indefinite_containers": True}),
    ]:
        assert dumps(v, **opts) == ref.dumps(v, **opts), (v, opts)
    with pytest.raises(CBOREncodeValueError):
        dumps(naive)

    class Point:
        def __init__(self, x, y):
            self.x, self.y = x, y

    def default(encoder, p):
        encoder.encode(CBORTag(4000, [p.x, p.y]) if encoder is not None and
                       type(encoder).__module__.startswith("cbor_fast") else
                       ref.CBORTag(4000, [p.x, p.y]))

    assert dumps([Point(1, 2)], default=default) == ref.dumps([Point(1, 2)], default=default)


def test_decoder_hooks_match_cbor2(ref):
    data = h("a2 6161 d8ff 01 6162 a1 01 02")
    seen = []

    def tag_hook(tag, immutable):
        seen.append((tag.tag, tag.value, immutable))
        return "hooked"

    assert loads(data, tag_hook=tag_hook) == {"a": "hooked", "b": {1: 2}}
    assert seen == [(255, 1, False)]
    theirs = []
    ref.loads(data, tag_hook=lambda t, i: theirs.append((t.tag, t.value, i)) or "hooked")
    assert theirs == seen
    ours_maps, their_maps = [], []
    loads(data, object_hook=lambda d, i: ours_maps.append(dict(d)) or d)
    ref.loads(data, object_hook=lambda d, i: their_maps.append(dict(d)) or d)
    assert repr(ours_maps) == repr(their_maps)
    assert loads(h("d9d9f7 01")) == 1  # self-describe stripped
    assert loads(h("d9d9f7 01")) == ref.loads(h("d9d9f7 01"))
    # immutable containers where hashing needs them
    assert loads(h("a1 820102 03")) == {(1, 2): 3}
    assert isinstance(loads(h("d90102 81 820102")), set)


def test_canonical_is_byte_identical_to_cbor2(ref):
    rnd = random.Random(5)
    keys = ["", "a", "b", "aa", "ab", "abc", 0, 1, -1, 23, 24, 255, 256, -24, -25, 2**32,
            b"", b"a", b"ab", 1.5, 100000.0, (1, 2), False, True, None]
    for _ in range(500):
        d = {}
        for _ in range(rnd.randint(0, 8)):
            d[rnd.choice(keys)] = rnd.choice([1, "x", [1, {"z": 2, "a": 1}], 2.5, None])
        assert dumps(d, canonical=True) == ref.dumps(d, canonical=True), d
    for name, data in corpus().items():
        v = loads(data)
        assert dumps(v, canonical=True) == ref.dumps(ref.loads(data), canonical=True), name


def test_corpus_differential_both_ways(ref):
    for name, data in corpus().items():
        ours = loads(data)
        theirs = ref.loads(data)
        assert ours == theirs, name
        assert ref.loads(dumps(ours)) == theirs, name
        assert loads(ref.dumps(theirs)) == ours, name


def test_string_references_and_shared_values_decode(ref):
    # 256([ "abc", "abc"(as ref 0), 25(0) ]) as cbor2 writes it
    data = ref.dumps(["abcd", "abcd", b"xyz", b"xyz"], string_referencing=True)
    assert loads(data) == ref.loads(data) == ["abcd", "abcd", b"xyz", b"xyz"]
    assert loads(h("d90100 83 63616263 d81900 d81900")) == ["abc", "abc", "abc"]
    with pytest.raises(CBORDecodeError) as e:
        loads(h("82 00 d81900"))
    assert (e.value.status, e.value.offset) == (None, 2)
    with pytest.raises(CBORDecodeError):
        loads(h("d81d 05"))  # shared reference to nothing
    obj = {"a": [1]}
    data = ref.dumps([obj, obj], value_sharing=True)
    back = loads(data)
    assert back[0] is back[1] and back[0] == obj


def test_load_and_dump_files():
    buf = io.BytesIO()
    cbor_fast.dump({"a": 1}, buf)
    cbor_fast.dump([2], buf)
    buf.seek(0)
    assert cbor_fast.load(buf) == {"a": 1}
    assert cbor_fast.load(buf) == [2]
    with pytest.raises(CBORDecodeError) as e:
        cbor_fast.load(buf)
    assert e.value.status == "truncated"
    assert isinstance(e.value, EOFError)


def test_trailing_bytes_rejected_and_float16():
    with pytest.raises(CBORDecodeError) as e:
        loads(h("00 00"))
    assert (e.value.status, e.value.offset) == ("trailing_bytes", 1)
    assert loads(h("f9 3c00")) == 1.0
    assert loads(h("f9 7bff")) == 65504.0
    assert loads(h("f9 0001")) == 2.0 ** -24


def test_hashable_values_stay_shallow_and_strict_hashable_types():
    # a map key nested 1000 deep decodes; 1001 is refused (hashing recurses in C)
    for n, ok in ((1000, True), (1001, False)):
        data = b"\xa1" + b"\x81" * n + b"\x00" + b"\x00"
        if ok:
            key, = loads(data, max_depth=5000)
            assert isinstance(key, tuple)
        else:
            with pytest.raises(CBORDecodeError) as e:
                loads(data, max_depth=5000)
            assert (e.value.status, e.value.offset) == ("depth_exceeded", 1001)
    # a shared container referenced from inside a key could nest without bound
    with pytest.raises(CBORDecodeError) as e:
        loads(h("82 d81c 81 01 a1 d81d 00 02"))
    assert (e.value.status, e.value.offset) == (None, 6)
    assert loads(h("82 d81c 6161 a1 d81d 00 02")) == ["a", {"a": 2}]
    # strict_hashable_types: only text and byte strings as keys and set members
    assert loads(h("a2 6161 01 4162 02"), strict_hashable_types=True) == {"a": 1, b"b": 2}
    with pytest.raises(CBORDecodeError) as e:
        loads(h("a2 6161 01 02 03"), strict_hashable_types=True)
    assert e.value.offset == 4
    with pytest.raises(CBORDecodeError):
        loads(h("d90102 82 6161 01"), strict_hashable_types=True)
    assert loads(h("d90102 82 6161 4162"), strict_hashable_types=True) == {"a", b"b"}


_DEEP_KEY_TAG = b"\xd9\x9c\x40"  # tag 40000, a CBORTag
# (name, input, offset of the key's first level, one level's bytes, thread KiB)
_DEEP_KEY_MAPS = b"\xa1" * 100 + b"\x00" + b"\x00" * 100  # {{{...{0: 0}...: 0}: 0}: 0}
_DEEP_KEY_ROWS = [
    ("390 arrays as a key", b"\xa1" + b"\x81" * 390 + b"\x00\x01", 1, b"\x81", 32),
    ("390 arrays in a set", b"\xd9\x01\x02\x81" + b"\x81" * 390 + b"\x00", 4, b"\x81", 32),
    ("200 tags as a key", b"\xa1" + _DEEP_KEY_TAG * 200 + b"\x00\x01", 1, _DEEP_KEY_TAG, 64),
    ("100 maps as values in a key", b"\xa1" + b"\xa1\x00" * 100 + b"\x00\x01", 1, b"\xa1\x00",
     64),
    # each map is hashed as it becomes a key and keeps its hash, but a repeated
    # key is compared with the first level by level (FrozenDict.__eq__)
    ("100 maps as keys in a key, repeated",
     b"\xa2" + _DEEP_KEY_MAPS + b"\x01" + _DEEP_KEY_MAPS + b"\x02", 1, b"\xa1", 64),
]
# Each row on a thread of its own with that stack, in a fresh process and in
# that order: glibc hands a thread a cached stack up to 4 times the size asked.
_DEEP_KEY_SCRIPT = """
import sys, threading, cbor_fast
from cbor_fast import CBORTag
rows = eval(sys.stdin.read())
small = b"\\xa2" + b"\\x81" * 20 + b"\\x00\\x01" + b"\\xd9\\x9c\\x40" * 3 + b"\\x00\\x02"
out = []
def run(data):
    try:
        cbor_fast.loads(data, max_depth=1000)
        out.append(("value",))
    except cbor_fast.CBORDecodeError as e:
        out.append(("error", e.status, e.offset))
    out.append(("small", cbor_fast.loads(small)))
for _, data, _, _, kib in rows:
    threading.stack_size(kib * 1024)
    t = threading.Thread(target=run, args=(data,))
    t.start()
    t.join()
print(repr(out))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the stack check is Linux's")
def test_deep_keys_stop_before_a_small_thread_stack_ends():
    # Hashing a key recurses in C, a level of it at a time: in a 32 KiB thread
    # 390 nested arrays as a key crashed the process, in a 64 KiB one 200
    # nested tags (CBORTag.__hash__ is Python code). Now a level of a key or
    # set member needs room for hashing it down to there, else depth_exceeded
    # at the head of that level (which one depends on the thread's stack).
    import subprocess
    rows = _DEEP_KEY_ROWS
    done = subprocess.run([sys.executable, "-c", _DEEP_KEY_SCRIPT], input=repr(rows), text=True,
                          capture_output=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    out = eval(done.stdout)
    assert len(out) == 2 * len(rows)
    deep_tuple = 0
    for _ in range(20):
        deep_tuple = (deep_tuple,)
    small = {deep_tuple: 1, CBORTag(40000, CBORTag(40000, CBORTag(40000, 0))): 2}
    for i, (name, data, first, level, _) in enumerate(rows):
        # shallow keys decode on that thread
        assert out[2 * i + 1] == ("small", small), name
        # and on the main thread (8 MiB) the deep one does too
        assert len(loads(data, max_depth=1000)) == 1, name
        assert out[2 * i][:2] == ("error", "depth_exceeded"), (name, out[2 * i])
        offset = out[2 * i][2]
        # the head of a level of the key, not of its first few levels
        at = offset - first
        assert at % len(level) == 0 and at // len(level) >= 4, (name, offset)
        assert data[offset:offset + len(level)] == level, (name, offset)
    # the main thread's values, exactly
    key = loads(b"\xa1" + b"\x81" * 390 + b"\x00\x01", max_depth=1000)
    k, = key
    for _ in range(390):
        assert type(k) is tuple and len(k) == 1
        k, = k
    assert k == 0 and key[next(iter(key))] == 1
    member, = loads(b"\xd9\x01\x02\x81" + b"\x81" * 390 + b"\x00", max_depth=1000)
    for _ in range(390):
        member, = member
    assert member == 0
    t, = loads(b"\xa1" + _DEEP_KEY_TAG * 200 + b"\x00\x01", max_depth=1000)
    for _ in range(200):
        assert isinstance(t, CBORTag) and t.tag == 40000
        t = t.value
    assert t == 0
    # Deeper than Python's recursion limit (each tag's __hash__ a Python
    # call): the depth error at the key (a set member: at the set's tag), not
    # a RecursionError.
    limit = sys.getrecursionlimit()
    for name, data in (("a key", b"\xa1" + _DEEP_KEY_TAG * 990 + b"\x00\x01"),
                       ("a set member", b"\x81\xd9\x01\x02\x81" + _DEEP_KEY_TAG * 990 + b"\x00")):
        sys.setrecursionlimit(1000)
        try:
            with pytest.raises(CBORDecodeError) as e:
                loads(data, max_depth=1000)
        finally:
            sys.setrecursionlimit(limit)
        assert (e.value.status, e.value.offset) == ("depth_exceeded", 1), name
        assert isinstance(e.value.__cause__, RecursionError), name

def test_allow_indefinite_and_immutable():
    assert loads(h("9f 01 ff")) == [1]
    for data, offset in ((h("9f 01 ff"), 0), (h("81 5f 41 61 ff"), 1), (h("a1 01 bf ff"), 2)):
        with pytest.raises(CBORDecodeError) as e:
            loads(data, allow_indefinite=False)
        assert (e.value.status, e.value.offset) == ("indefinite_length", offset)
    v = loads(h("a1 01 82 02 a0"), immutable=True)
    assert isinstance(v, cbor_fast.FrozenDict) and v[1] == (2, cbor_fast.FrozenDict())
    hash(v)


def test_value_sharing_output_always_decodes():
    # the same tuple as a key and as a value: shared references are written
    # for lists and dicts only, so the key holds no reference
    t = (1, 2)
    lst = [3]
    value = {t: [t, lst, lst]}
    out = dumps(value, value_sharing=True)
    back = loads(out)
    assert back == {(1, 2): [[1, 2], [3], [3]]}  # a tuple outside a key comes back a list
    inner = back[(1, 2)]
    assert inner[1] is inner[2]
    # a cycle through a tuple is broken at its list
    a = []
    b = (a,)
    a.append(b)
    back = loads(dumps(a, value_sharing=True))
    assert back[0][0] is back


_SUBINTERPRETER_SCRIPT = r"""
import sys
try:
    import _interpreters as interpreters
except ImportError:
    import _xxsubinterpreters as interpreters
MAIN_FIRST = sys.argv[1] == "main-first"
if MAIN_FIRST:
    import cbor_fast
SUB = '''
import os
try:
    import cbor_fast
    r = "imported"
except ImportError as e:
    r = "ImportError: " + str(e)
os.write(1, (r + "\\n").encode())
'''
iid = interpreters.create()
interpreters.run_string(iid, SUB)
interpreters.destroy(iid)
import cbor_fast
try:
    cbor_fast.loads(b"\x82\x01")
except cbor_fast.CBORDecodeError as e:
    print("main:", e.status, e.offset)
print("main:", type(cbor_fast.loads(b"\xd9\x9c\x40\x01")) is cbor_fast.CBORTag)
"""


@pytest.mark.parametrize("order", ["main-first", "sub-first"])
def test_a_subinterpreter_cannot_import_it(order):
    # The extension's state (the value classes, the key cache) is the
    # process's. Imported in a subinterpreter after the main interpreter, the
    # subinterpreter's classes replaced the main interpreter's, and once it
    # was destroyed the main interpreter's next decode error raised
    # NameError. Now the import fails there, whichever interpreter comes
    # first, and the main interpreter is untouched.
    import subprocess
    if not any(importlib.util.find_spec(m) for m in ("_interpreters", "_xxsubinterpreters")):
        pytest.skip("no subinterpreter module in this Python")
    r = subprocess.run([sys.executable, "-c", _SUBINTERPRETER_SCRIPT, order],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout == (
        "ImportError: cbor_fast cannot be imported in a subinterpreter: its state is the "
        "process's, kept for the main interpreter\n"
        "main: truncated 0\n"
        "main: True\n")

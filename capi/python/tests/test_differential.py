"""Differential test against cbor2 (Debian's python3-cbor2) on generated values.

For each of a few thousand values from a fixed seed: cbor2 decodes what dumps()
writes to the same value, loads() decodes what cbor2 writes to the same value,
and the bytes agree with cbor2's wherever both promise the same encoding (cbor2
writes every float as a float64 unless canonical=True, which also sorts map
keys: so bytes are compared for float-free values, and for lone floats against
canonical=True).
"""

import math
import random
import struct
import unittest

from support import canon, require

from cbor_fast import Simple, Tag, dumps, loads, undefined

try:
    import cbor2
except ImportError:  # pragma: no cover - reported as a skip by ctest
    cbor2 = None

SEED = 20240611
COUNT = 3000
# Tag numbers cbor2 6.3 gives no meaning to (it would turn 0, 1, 2, 3, 4, 5,
# 25, 28-30, 35-37, 256, 258, 260, 261, 55799 ... into Python objects).
PLAIN_TAGS = (6, 7, 15, 40, 99, 1000, 65535, 65536, 2**32, 2**64 - 1)
INT_EDGES = (0, 1, 23, 24, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**63, 2**64 - 1,
             2**64, 2**64 + 1, 2**100)


class Generator:
    def __init__(self, seed):
        self.rng = random.Random(seed)

    def integer(self):
        r = self.rng
        choice = r.random()
        if choice < 0.4:
            v = r.choice(INT_EDGES) + r.randint(-1, 1)
        elif choice < 0.8:
            v = r.getrandbits(r.choice((5, 8, 16, 32, 64)))
        else:
            v = r.getrandbits(r.randint(65, 200))
        return v if r.random() < 0.5 else -1 - v

    def floating(self):
        r = self.rng
        choice = r.random()
        if choice < 0.2:
            return r.choice((0.0, -0.0, 1.0, -1.5, 65504.0, 65520.0, 5.960464477539063e-8,
                             float("inf"), float("-inf"), float("nan"), 1e300, 1.1))
        if choice < 0.4:  # exactly a half
            return struct.unpack("<e", struct.pack("<H", r.getrandbits(16) & 0x7bff))[0]
        if choice < 0.6:  # exactly a single
            return struct.unpack("<f", struct.pack("<I", r.getrandbits(32) & 0x7f7fffff))[0]
        v = struct.unpack("<d", struct.pack("<Q", r.getrandbits(64)))[0]
        return 0.5 if math.isnan(v) else v  # NaN payloads: not compared here

    def text(self):
        r = self.rng
        n = r.choice((0, 1, 5, 23, 24, 40, 300))
        chars = []
        for _ in range(n):
            kind = r.random()
            if kind < 0.6:
                chars.append(chr(r.randint(0x20, 0x7e)))
            elif kind < 0.8:
                chars.append(chr(r.randint(0x80, 0x7ff)))
            elif kind < 0.95:
                c = r.randint(0x800, 0xfffd)
                chars.append(chr(c if not 0xd800 <= c <= 0xdfff else 0x41))
            else:
                chars.append(chr(r.randint(0x10000, 0x10ffff)))
        return "".join(chars)

    def scalar(self, with_floats):
        r = self.rng
        kind = r.randrange(9 if with_floats else 8)
        if kind == 0:
            return self.integer()
        if kind == 1:
            return self.text()
        if kind == 2:
            return r.randbytes(r.choice((0, 1, 24, 256)))
        if kind == 3:
            return r.random() < 0.5
        if kind == 4:
            return None
        if kind == 5:
            return undefined
        if kind == 6:
            return Simple(r.choice((0, 16, 19, 32, 100, 255)))
        if kind == 7:
            return self.integer() if r.random() < 0.5 else self.text()
        return self.floating()

    def key(self):
        r = self.rng
        kind = r.randrange(4)
        if kind == 0:
            return self.text()
        if kind == 1:
            return self.integer()
        if kind == 2:
            return r.randbytes(r.randint(0, 8))
        return tuple(self.integer() for _ in range(r.randint(0, 3)))

    def value(self, depth=0, with_floats=True):
        r = self.rng
        kind = r.random()
        if depth >= 4 or kind < 0.5:
            return self.scalar(with_floats)
        # 24 (the first one-byte count) only at the top keeps the values small.
        lengths = (0, 1, 3, 24) if depth == 0 else (0, 1, 2, 3)
        if kind < 0.7:
            return [self.value(depth + 1, with_floats) for _ in range(r.choice(lengths))]
        if kind < 0.9:
            return {self.key(): self.value(depth + 1, with_floats)
                    for _ in range(r.choice(lengths))}
        return Tag(r.choice(PLAIN_TAGS), self.value(depth + 1, with_floats))


def shortest_float(f):
    """Preferred serialization of a float, computed with struct alone."""
    if math.isnan(f):
        return b"\xf9\x7e\x00"
    bits = struct.pack(">d", f)
    for initial, fmt in ((0xf9, ">e"), (0xfa, ">f")):
        try:
            packed = struct.pack(fmt, f)
        except OverflowError:
            continue
        if struct.pack(">d", struct.unpack(fmt, packed)[0]) == bits:
            return bytes([initial]) + packed
    return b"\xfb" + bits


def to_cbor2(value):
    """The same value in cbor2's types."""
    t = type(value)
    if value is undefined:
        return cbor2.undefined
    if t is Simple:
        return cbor2.CBORSimpleValue(value.value)
    if t is Tag:
        return cbor2.CBORTag(value.number, to_cbor2(value.value))
    if t is list:
        return [to_cbor2(v) for v in value]
    if t is dict:
        return {k: to_cbor2(v) for k, v in value.items()}
    return value


def has_float(value):
    t = type(value)
    if t is float:
        return True
    if t is list or t is tuple:
        return any(has_float(v) for v in value)
    if t is dict:
        return any(has_float(k) or has_float(v) for k, v in value.items())
    if t is Tag:
        return has_float(value.value)
    return False


class AgainstCbor2(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        require(cbor2 is not None, "cbor2 (the differential reference)")
        gen = Generator(SEED)
        cls.values = [gen.value(with_floats=(i % 3 != 0)) for i in range(COUNT)]

    def test_generator_covers_the_model(self):
        kinds = set()
        stack = list(self.values)
        while stack:
            v = stack.pop()
            kinds.add(type(v).__name__)
            if type(v) in (list, tuple):
                stack.extend(v)
            elif type(v) is dict:
                stack.extend(v)
                stack.extend(v.values())
            elif type(v) is Tag:
                stack.append(v.value)
        for name in ("int", "float", "str", "bytes", "bool", "NoneType", "UndefinedType",
                     "CBORSimpleValue", "list", "dict", "tuple", "CBORTag"):
            self.assertIn(name, kinds)
        self.assertTrue(any(type(v) is int and not -2**64 <= v < 2**64 for v in self.values))

    def test_cbor2_decodes_what_we_encode(self):
        for i, value in enumerate(self.values):
            ours = dumps(value)
            with self.subTest(i=i):
                self.assertEqual(canon(cbor2.loads(ours)), canon(value))

    def test_we_decode_what_cbor2_encodes(self):
        for i, value in enumerate(self.values):
            theirs = cbor2.dumps(to_cbor2(value))
            with self.subTest(i=i):
                self.assertEqual(canon(loads(theirs)), canon(value))

    def test_same_bytes_without_floats(self):
        compared = 0
        for i, value in enumerate(self.values):
            if has_float(value):
                continue
            compared += 1
            with self.subTest(i=i):
                self.assertEqual(dumps(value).hex(), cbor2.dumps(to_cbor2(value)).hex())
        self.assertGreater(compared, COUNT // 3)

    def test_float_bytes(self):
        # Expected bytes from the struct module: the first of half, single,
        # double that gives the value back bit for bit (NaN: the half f97e00).
        # cbor2 6.3's canonical=True writes exactly those bytes (RFC 8949
        # Appendix A has 65504.0 as f97bff).
        gen = Generator(SEED + 1)
        for i in range(COUNT):
            f = gen.floating()
            with self.subTest(i=i, value=f):
                expected = shortest_float(f)
                self.assertEqual(dumps(f).hex(), expected.hex())
                self.assertEqual(dumps(f, canonical=True).hex(), expected.hex())
                self.assertEqual(cbor2.dumps(f, canonical=True).hex(), expected.hex())

    def test_round_trip(self):
        for i, value in enumerate(self.values):
            with self.subTest(i=i):
                self.assertEqual(canon(loads(dumps(value))), canon(value))


if __name__ == "__main__":
    unittest.main()

"""Bulk number arrays and RFC 8746 typed arrays: loads_array(), loads(typed_arrays=True),
dumps() of array.array and memoryviews."""

import array
import ctypes
import math
import struct
import sys
import unittest

from support import h

import cbor2

from cbor_fast import CBORDecodeEOF, CBORDecodeError, Tag, dumps, loads, loads_array

LITTLE = sys.byteorder == "little"


def decode_error(test, data, status, offset, **kw):
    with test.assertRaises(CBORDecodeError) as cm:
        loads(h(data), **kw)
    test.assertEqual((cm.exception.status, cm.exception.offset), (status, offset))


class LoadsArray(unittest.TestCase):
    def test_values(self):
        rows = [
            # (name, hex, typecode, expected)
            ("empty definite", "80", "d", []),
            ("empty indefinite", "9fff", "q", []),
            ("empty typed", "d85640", "d", []),
            ("every head width", "85 00 1818 190100 1a00010000 1b0000000100000000", "Q", None),
            ("2^32 and 2^64-1", "821b00000001000000001bffffffffffffffff", "Q", [2**32, 2**64 - 1]),
            ("-2^63 and 2^63-1", "823b7fffffffffffffff1b7fffffffffffffff", "q", [-2**63, 2**63 - 1]),
            ("indefinite", "9f0102f93e00ff", "d", [1.0, 2.0, 1.5]),
            ("half, single, double", "83f93c00fa3fc00000fb3ff8000000000000", "d", [1.0, 1.5, 1.5]),
            ("integers as doubles", "82201b0020000000000000", "d", [-1.0, 2.0**53]),
            ("typed uint16 LE", "d84544010000ff", "Q", [1, 0xff00]),
            ("typed uint32 BE", "d8424400000102", "Q", [0x102]),
            ("typed sint64 LE", "d84f48feffffffffffffff", "q", [-2]),
            ("typed float32 LE", "d8554400c0ff7f", "d", None),  # NaN below
            ("typed float64 BE", "d852483ff8000000000000", "d", [1.5]),
            ("typed float16 LE", "d85442003c", "d", [1.0]),
        ]
        for name, data, typecode, expected in rows:
            with self.subTest(name):
                got = loads_array(h(data), typecode)
                self.assertIsInstance(got, array.array)
                self.assertEqual(got.typecode, typecode)
                if expected is None and typecode == "Q":
                    expected = [0, 0x18, 0x100, 0x10000, 2**32]
                if expected is None:
                    self.assertEqual(len(got), 1)
                    self.assertTrue(math.isnan(got[0]))
                else:
                    self.assertEqual(got.tolist(), expected)
        # tag 41 (homogeneous array) in front of a plain array
        self.assertEqual(loads_array(h("d829820102"), "Q").tolist(), [1, 2])

    def test_default_typecode_and_large(self):
        n = 65536
        data = dumps(list(range(n)))
        got = loads_array(data, "Q")
        self.assertEqual(len(got), n)
        self.assertEqual(got[0], 0)
        self.assertEqual(got[n - 1], n - 1)
        self.assertEqual(loads_array(dumps([0.5] * n)).tolist(), [0.5] * n)
        self.assertEqual(loads_array(dumps(array.array("d", [2.5] * n), typed_arrays=True)).tolist(),
                         [2.5] * n)
        # an indefinite array: the capacity is bounded by the input, then trimmed
        indef = b"\x9f" + b"\x01" * n + b"\xff"
        got = loads_array(indef, "q")
        self.assertEqual(len(got), n)
        self.assertEqual(got.buffer_info()[1], n)

    def test_errors(self):
        rows = [
            # (name, hex, typecode, exception, status, offset)
            ("empty input", "", "d", CBORDecodeEOF, "truncated", 0),
            ("not an array", "61", "Q", CBORDecodeError, "type_mismatch", 0),
            ("text element", "83016161", "Q", CBORDecodeError, "type_mismatch", 2),
            ("negative into Q", "9f0120ff", "Q", CBORDecodeError, "out_of_range", 2),
            ("2^63 into q", "82011b8000000000000000", "q", CBORDecodeError, "out_of_range", 2),
            ("-2^64 into q", "823bffffffffffffffff01", "q", CBORDecodeError, "out_of_range", 1),
            ("2^53+1 into d", "811b0020000000000001", "d", CBORDecodeError, "out_of_range", 1),
            ("float into Q", "8201f93c00", "Q", CBORDecodeError, "type_mismatch", 2),
            ("typed float into Q", "d85648000000000000f03f", "Q", CBORDecodeError, "type_mismatch", 0),
            ("typed odd length", "d8464301", "Q", CBORDecodeEOF, "truncated", 2),
            ("indefinite truncated", "9f01", "Q", CBORDecodeEOF, "truncated", 2),
            ("trailing bytes", "8301020300", "Q", CBORDecodeError, "trailing_bytes", 4),
        ]
        for name, data, typecode, exc, status, offset in rows:
            with self.subTest(name):
                with self.assertRaises(exc) as cm:
                    loads_array(h(data), typecode)
                self.assertEqual((cm.exception.status, cm.exception.offset), (status, offset))

    def test_typed_odd_length_is_type_mismatch_when_complete(self):
        # tag 70 (uint32 LE) over 3 bytes that are all there
        with self.assertRaises(CBORDecodeError) as cm:
            loads_array(h("d84643010203"), "Q")
        self.assertEqual((cm.exception.status, cm.exception.offset), ("type_mismatch", 2))

    def test_length_bomb_allocates_nothing_big(self):
        # 2^60 elements promised over 9 bytes: over the default container
        # limit (2**24, since 0.5); lifted, the bytes left refuse it
        with self.assertRaises(CBORDecodeError) as cm:
            loads_array(h("9b1000000000000000"), "d")
        self.assertEqual((cm.exception.status, cm.exception.offset), ("container_too_large", 0))

    def test_bad_typecode(self):
        for typecode in ("f", "i", "B", "u"):
            with self.subTest(typecode):
                with self.assertRaises(ValueError):
                    loads_array(h("80"), typecode)
        with self.assertRaises(TypeError):
            loads_array("80")


class LoadsTypedArrays(unittest.TestCase):
    ROWS = [
        # (name, hex, typecode, values)
        ("uint8", "d840430102ff", "B", [1, 2, 255]),
        ("uint8 clamped", "d844420100", "B", [1, 0]),
        ("sint8", "d84842ff80", "b", [-1, -128]),
        ("uint16 BE", "d84144ff000001", "H", [0xff00, 1]),
        ("uint16 LE", "d84544ff000001", "H", [0xff, 0x100]),
        ("sint16 BE", "d84942fffe", "h", [-2]),
        ("sint16 LE", "d84d42feff", "h", [-2]),
        ("uint32 BE", "d842440000000a", "I", [10]),
        ("uint32 LE", "d846440a000000", "I", [10]),
        ("sint32 BE", "d84a44fffffffe", "i", [-2]),
        ("sint32 LE", "d84e44feffffff", "i", [-2]),
        ("uint64 BE", "d84348ffffffffffffffff", "Q", [2**64 - 1]),
        ("sint64 BE", "d84b488000000000000000", "q", [-2**63]),
        ("sint64 LE", "d84f480000000000000080", "q", [-2**63]),
        ("float16 BE", "d850443c00c000", "d", [1.0, -2.0]),
        ("float16 LE", "d85444003c00c0", "d", [1.0, -2.0]),
        ("float32 BE", "d851443fc00000", "f", [1.5]),
        ("float32 LE", "d8554400 00c03f", "f", [1.5]),
        ("float64 BE", "d852483ff8000000000000", "d", [1.5]),
        ("float64 LE", "d85648000000000000f83f", "d", [1.5]),
        ("empty", "d85640", "d", []),
    ]

    def test_each_element_type(self):
        for name, data, typecode, values in self.ROWS:
            with self.subTest(name):
                got = loads(h(data), typed_arrays=True)
                self.assertIsInstance(got, array.array)
                # 'I'/'i' and 'l'/'L' are chosen by item size on this platform
                self.assertEqual(got.itemsize, array.array(typecode).itemsize)
                self.assertEqual(got.tolist(), values)
        got = loads(h("d8474800000000 01000000"), typed_arrays=True)
        self.assertEqual(got.tolist(), [2**32])

    def test_default_is_cbor2s_tag(self):
        for name, data, _, _ in self.ROWS:
            with self.subTest(name):
                ours, theirs = loads(h(data)), cbor2.loads(h(data))
                self.assertIsInstance(ours, Tag)
                self.assertEqual((ours.tag, ours.value), (theirs.tag, theirs.value))

    def test_nan_and_half_subnormal(self):
        got = loads(h("d85444007e0100"), typed_arrays=True)  # float16 LE: NaN, 2^-24
        self.assertTrue(math.isnan(got[0]))
        self.assertEqual(got[1], 2.0**-24)

    def test_float128_and_reserved_stay_tags(self):
        f128 = "d85750" + "00" * 14 + "ff3f"  # float128 LE 1.0
        got = loads(h(f128), typed_arrays=True)
        self.assertIsInstance(got, Tag)
        self.assertEqual(got.tag, 87)
        got = loads(h("d84c420102"), typed_arrays=True)  # tag 76 is reserved
        self.assertEqual((got.tag, got.value), (76, b"\x01\x02"))

    def test_nested_and_in_keys(self):
        got = loads(h("a2616183d8454201026162616261 62d8404103"), typed_arrays=True)
        self.assertEqual(got["a"][0].tolist(), [0x201])
        self.assertEqual(got["a"][1:], ["b", "b"])
        self.assertEqual(got["b"].tolist(), [3])
        # a map key must be hashable: the tag stays a CBORTag there
        got = loads(h("a1d840410100"), typed_arrays=True)
        (key, value), = got.items()
        self.assertEqual((key.tag, key.value, value), (64, b"\x01", 0))
        # after a typed array, decoding goes on at the right item
        big = dumps([array.array("d", [1.0] * 1000), "tail"], typed_arrays=True)
        got = loads(big, typed_arrays=True)
        self.assertEqual((len(got[0]), got[1]), (1000, "tail"))

    def test_errors(self):
        rows = [
            ("length not a multiple", "d84643010203", "type_mismatch", 2),
            ("indefinite byte string", "d8465f4401000000ff", "type_mismatch", 2),
            ("not a byte string", "d84601", "type_mismatch", 2),
            ("truncated content", "d85648000000", "truncated", 2),
            ("truncated inside an array", "81d8464301", "truncated", 3),
        ]
        for name, data, status, offset in rows:
            with self.subTest(name):
                decode_error(self, data, status, offset, typed_arrays=True)

    def test_memory_budget_counts_the_array(self):
        data = dumps(array.array("d", [0.0] * 10000), typed_arrays=True)
        self.assertEqual(len(loads(data, typed_arrays=True, max_memory=1 << 20)), 10000)
        with self.assertRaises(CBORDecodeError) as cm:
            loads(data, typed_arrays=True, max_memory=40000)
        self.assertEqual(cm.exception.status, "memory_budget_exceeded")


class DumpsArrays(unittest.TestCase):
    def test_default_is_cbor2s_plain_array(self):
        rows = [
            (array.array("B", [1, 255]), "820118ff"),
            (array.array("b", [-1, -128]), "8220387f"),
            (array.array("q", [-2**63, 2**63 - 1]), "823b7fffffffffffffff1b7fffffffffffffff"),
            (array.array("Q", [2**32, 2**64 - 1]), "821b00000001000000001bffffffffffffffff"),
            (array.array("d", []), "80"),
            (array.array("d", [1.0, 1.5, 1e300]), "83f93c00f93e00fb7e37e43c8800759c"),
            (array.array("f", [0.5]), "81f93800"),
            (array.array("u", "ab"), "8261616162"),
        ]
        self.assertEqual(dumps(array.array("d", [math.nan])).hex(), "81f97e00")
        for value, expected in rows:
            with self.subTest(value):
                self.assertEqual(dumps(value).hex(), expected)
                # the same numbers as cbor2 (which writes every float as a double)
                self.assertEqual(loads(dumps(value)), cbor2.loads(cbor2.dumps(value)))

    def test_typed(self):
        if not LITTLE:
            self.skipTest("the rows are for a little-endian host")
        rows = [
            (array.array("B", [1, 255]), "d8404201ff"),
            (array.array("b", [-1]), "d84841ff"),
            (array.array("H", [1]), "d845420100"),
            (array.array("h", [-2]), "d84d42feff"),
            (array.array("i", [-2]), "d84e44feffffff"),
            (array.array("I", [10]), "d846440a000000"),
            (array.array("q", [-2**63]), "d84f480000000000000080"),
            (array.array("Q", [2**64 - 1]), "d84748ffffffffffffffff"),
            (array.array("f", [1.5]), "d855440000c03f"),
            (array.array("d", [1.5]), "d85648000000000000f83f"),
            (array.array("d", []), "d85640"),
        ]
        for value, expected in rows:
            with self.subTest(value):
                self.assertEqual(dumps(value, typed_arrays=True).hex(), expected)
                back = loads(h(expected), typed_arrays=True)
                self.assertEqual((back.typecode, back.tolist()), (value.typecode, value.tolist()))

    def test_memoryviews(self):
        # struct-style formats with an explicit byte order (ctypes, numpy): the
        # tag says that order and the bytes are written as they are
        be = (ctypes.c_double.__ctype_be__ * 2)(1.5, -1.0)
        self.assertEqual(memoryview(be).format, ">d")
        self.assertEqual(dumps(memoryview(be), typed_arrays=True).hex(),
                         "d85250" + "3ff8000000000000" + "bff0000000000000")
        le = (ctypes.c_uint16.__ctype_le__ * 2)(1, 0x203)
        self.assertEqual(dumps(memoryview(le), typed_arrays=True).hex(), "d84544" + "01000302")
        # bytes stay bytes; so does any memoryview without typed_arrays
        self.assertEqual(dumps(memoryview(b"ab"), typed_arrays=True).hex(), "426162")
        self.assertEqual(dumps(memoryview(array.array("H", [1]))).hex(), "420100")
        if LITTLE:
            self.assertEqual(dumps(memoryview(array.array("H", [1])), typed_arrays=True).hex(),
                             "d845420100")
            # two dimensions: RFC 8746 tag 40, [[rows, columns], elements in row-major order]
            m = memoryview(array.array("h", [1, -2, 3, 4])).cast("B").cast("h", (2, 2))
            self.assertEqual(dumps(m, typed_arrays=True).hex(),
                             "d82882820202d84d480100feff03000400")
            back = loads(dumps(m, typed_arrays=True), typed_arrays=True)
            self.assertEqual((back.tag, back.value[0], back.value[1].tolist()),
                             (40, [2, 2], [1, -2, 3, 4]))
        # not C-contiguous: an error, with typed_arrays or without
        strided = memoryview(array.array("d", [1.0, 2.0, 3.0]))[::2]
        with self.assertRaises((BufferError, ValueError, TypeError)):
            dumps(strided, typed_arrays=True)

    def test_float16_memoryviews(self):
        # a buffer of IEEE 754 halves (format 'e', as numpy's float16 arrays
        # export it; memoryview.cast cannot make one, so CPython's own test
        # exporter does): RFC 8746 tag 80 (float16 big endian) or 84 (little
        # endian) for the buffer's order, the bytes as they are; NaN, -0.0, the
        # largest half, infinity and the smallest subnormal included
        try:
            from _testbuffer import ndarray
        except ImportError:
            self.skipTest("no _testbuffer in this Python")
        values = [1.0, -2.0, 65504.0, math.nan, -0.0, math.inf, 2.0**-24]
        be = "3c00" "c000" "7bff" "7e00" "8000" "7c00" "0001"
        le = "003c" "00c0" "ff7b" "007e" "0080" "007c" "0100"
        rows = [(">e", "d850" "4e" + be), ("<e", "d854" "4e" + le),
                ("e", ("d854" "4e" + le) if LITTLE else ("d850" "4e" + be))]
        for fmt, expected in rows:
            with self.subTest(fmt):
                m = memoryview(ndarray(values, shape=[7], format=fmt))
                self.assertEqual((m.format, m.itemsize), (fmt, 2))
                data = dumps(m, typed_arrays=True)
                self.assertEqual(data.hex(), expected)
                # decoded as array('d') (array.array has no half typecode): the same values
                back = loads(data, typed_arrays=True)
                self.assertEqual(back.typecode, "d")
                self.assertEqual(back[:3].tolist(), [1.0, -2.0, 65504.0])
                self.assertTrue(math.isnan(back[3]))
                self.assertEqual(math.copysign(1.0, back[4]), -1.0)
                self.assertEqual(back[4:].tolist(), [0.0, math.inf, 2.0**-24])
                self.assertEqual(loads_array(data)[:3].tolist(), [1.0, -2.0, 65504.0])
                # without typed_arrays a memoryview stays its bytes, as before
                self.assertEqual(dumps(m).hex(), "4e" + expected[6:])
        # empty, and two dimensions (tag 40 with the shape)
        empty = memoryview(ndarray(values, shape=[7], format="<e"))[:0]
        self.assertEqual((empty.format, len(empty)), ("<e", 0))
        self.assertEqual(dumps(empty, typed_arrays=True).hex(), "d85440")
        m2 = memoryview(ndarray([1.0, -2.0, 0.5, 3.0], shape=[2, 2], format=">e"))
        self.assertEqual(dumps(m2, typed_arrays=True).hex(),
                         "d82882820202" "d850" "48" "3c00" "c000" "3800" "4200")
        back2 = loads(dumps(m2, typed_arrays=True), typed_arrays=True)
        self.assertEqual((back2.tag, back2.value[0], back2.value[1].tolist()),
                         (40, [2, 2], [1.0, -2.0, 0.5, 3.0]))

    def test_round_trip_65536(self):
        value = array.array("d", [i * 0.25 for i in range(65536)])
        data = dumps(value, typed_arrays=True)
        self.assertEqual(len(data), 7 + 8 * 65536)
        self.assertEqual(data[:7].hex(), "d8565a00080000")
        self.assertEqual(loads(data, typed_arrays=True), value)
        self.assertEqual(loads_array(data), value)


if __name__ == "__main__":
    unittest.main()

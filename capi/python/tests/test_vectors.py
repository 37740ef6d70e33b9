"""RFC 8949 Appendix A: every example decodes to its value, and every example
in preferred serialization is what dumps() writes for that value."""

import datetime
import math
import unittest

from support import canon, h

from cbor_fast import CBORDecodeError, Simple, Tag, dumps, loads, undefined

INF = float("inf")
NAN = float("nan")

# (name, value, hex, preferred): preferred rows are also encoding expectations.
VECTORS = [
    ("uint 0", 0, "00", True),
    ("uint 1", 1, "01", True),
    ("uint 10", 10, "0a", True),
    ("uint 23, last immediate", 23, "17", True),
    ("uint 24, first one-byte", 24, "1818", True),
    ("uint 25", 25, "1819", True),
    ("uint 100", 100, "1864", True),
    ("uint 1000", 1000, "1903e8", True),
    ("uint 1000000", 1000000, "1a000f4240", True),
    ("uint 1000000000000", 1000000000000, "1b000000e8d4a51000", True),
    ("uint 2^64-1", 18446744073709551615, "1bffffffffffffffff", True),
    ("bignum 2^64", 18446744073709551616, "c249010000000000000000", True),
    ("negative -2^64", -18446744073709551616, "3bffffffffffffffff", True),
    ("bignum -2^64-1", -18446744073709551617, "c349010000000000000000", True),
    ("negative -1", -1, "20", True),
    ("negative -10", -10, "29", True),
    ("negative -100", -100, "3863", True),
    ("negative -1000", -1000, "3903e7", True),
    ("half 0.0", 0.0, "f90000", True),
    ("half -0.0", -0.0, "f98000", True),
    ("half 1.0", 1.0, "f93c00", True),
    ("double 1.1", 1.1, "fb3ff199999999999a", True),
    ("half 1.5", 1.5, "f93e00", True),
    ("half 65504.0, largest half", 65504.0, "f97bff", True),
    ("single 100000.0", 100000.0, "fa47c35000", True),
    ("single 3.4028234663852886e+38, largest single", 3.4028234663852886e+38, "fa7f7fffff", True),
    ("double 1.0e+300", 1.0e+300, "fb7e37e43c8800759c", True),
    ("half 5.960464477539063e-8, smallest subnormal", 5.960464477539063e-8, "f90001", True),
    ("half 0.00006103515625, smallest normal", 0.00006103515625, "f90400", True),
    ("half -4.0", -4.0, "f9c400", True),
    ("double -4.1", -4.1, "fbc010666666666666", True),
    ("half Infinity", INF, "f97c00", True),
    ("half NaN", NAN, "f97e00", True),
    ("half -Infinity", -INF, "f9fc00", True),
    ("single Infinity", INF, "fa7f800000", False),
    ("single NaN", NAN, "fa7fc00000", False),
    ("single -Infinity", -INF, "faff800000", False),
    ("double Infinity", INF, "fb7ff0000000000000", False),
    ("double NaN", NAN, "fb7ff8000000000000", False),
    ("double -Infinity", -INF, "fbfff0000000000000", False),
    ("false", False, "f4", True),
    ("true", True, "f5", True),
    ("null", None, "f6", True),
    ("undefined", undefined, "f7", True),
    ("simple(16)", Simple(16), "f0", True),
    ("simple(255)", Simple(255), "f8ff", True),
    ("tag 0 date string", Tag(0, "2013-03-21T20:04:00Z"),
     "c074323031332d30332d32315432303a30343a30305a", True),
    ("tag 1 epoch int", Tag(1, 1363896240), "c11a514b67b0", True),
    ("tag 1 epoch float", Tag(1, 1363896240.5), "c1fb41d452d9ec200000", True),
    ("tag 23 base16", Tag(23, b"\x01\x02\x03\x04"), "d74401020304", True),
    ("tag 24 embedded CBOR", Tag(24, b"dIETF"), "d818456449455446", True),
    ("tag 32 URI", Tag(32, "http://www.example.com"),
     "d82076687474703a2f2f7777772e6578616d706c652e636f6d", True),
    ("bytes empty", b"", "40", True),
    ("bytes 4", b"\x01\x02\x03\x04", "4401020304", True),
    ("text empty", "", "60", True),
    ("text a", "a", "6161", True),
    ("text IETF", "IETF", "6449455446", True),
    ("text quote backslash", "\"\\", "62225c", True),
    ("text u+00fc", "\u00fc", "62c3bc", True),
    ("text u+6c34", "\u6c34", "63e6b0b4", True),
    ("text u+10151, 4-byte UTF-8", "\U00010151", "64f0908591", True),
    ("array empty", [], "80", True),
    ("array 1 2 3", [1, 2, 3], "83010203", True),
    ("array nested", [1, [2, 3], [4, 5]], "8301820203820405", True),
    ("array of 25, one-byte count", list(range(1, 26)),
     "98190102030405060708090a0b0c0d0e0f101112131415161718181819", True),
    ("map empty", {}, "a0", True),
    ("map int keys", {1: 2, 3: 4}, "a201020304", True),
    ("map text keys", {"a": 1, "b": [2, 3]}, "a26161016162820203", True),
    ("array with map", ["a", {"b": "c"}], "826161a161626163", True),
    ("map of 5", {"a": "A", "b": "B", "c": "C", "d": "D", "e": "E"},
     "a56161614161626142616361436164614461656145", True),
    ("indefinite bytes", b"\x01\x02\x03\x04\x05", "5f42010243030405ff", False),
    ("indefinite text", "streaming", "7f657374726561646d696e67ff", False),
    ("indefinite array empty", [], "9fff", False),
    ("indefinite arrays mixed 1", [1, [2, 3], [4, 5]], "9f018202039f0405ffff", False),
    ("indefinite arrays mixed 2", [1, [2, 3], [4, 5]], "9f01820203820405ff", False),
    ("indefinite arrays mixed 3", [1, [2, 3], [4, 5]], "83018202039f0405ff", False),
    ("indefinite arrays mixed 4", [1, [2, 3], [4, 5]], "83019f0203ff820405", False),
    ("indefinite array of 25", list(range(1, 26)),
     "9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff", False),
    ("indefinite map", {"a": 1, "b": [2, 3]}, "bf61610161629f0203ffff", False),
    ("array with indefinite map", ["a", {"b": "c"}], "826161bf61626163ff", False),
    ("indefinite map Fun Amt", {"Fun": True, "Amt": -2}, "bf6346756ef563416d7421ff", False),
]


class AppendixA(unittest.TestCase):
    def test_table_is_complete(self):
        # Table 6 of RFC 8949 Appendix A has 81 rows: 18 integers, 22 floats, 6 simple
        # values, 6 tags, 9 strings, 9 arrays/maps, 11 indefinite-length items.
        self.assertEqual(len(VECTORS), 81)
        self.assertEqual(len({name for name, *_ in VECTORS}), len(VECTORS))

    def test_decode(self):
        # Tags 0 and 1 decode to datetime by default (below); the table keeps
        # them as tags, so they are passed through here.
        raw = {0: lambda v, immutable: Tag(0, v), 1: lambda v, immutable: Tag(1, v)}
        for name, value, hexa, _ in VECTORS:
            with self.subTest(name):
                got = loads(h(hexa), semantic_decoders=raw)
                self.assertEqual(canon(got), canon(value))
                if type(value) is float and math.isnan(value):
                    self.assertTrue(math.isnan(got))

    def test_encode_preferred(self):
        for name, value, hexa, preferred in VECTORS:
            if preferred:
                with self.subTest(name):
                    self.assertEqual(dumps(value).hex(), hexa)

    def test_non_preferred_rows_encode_to_the_preferred_form(self):
        # The value of each non-preferred row, written back, is the preferred
        # row for the same value: shortest float, definite lengths, joined strings.
        expected = {
            "single Infinity": "f97c00", "single NaN": "f97e00", "single -Infinity": "f9fc00",
            "double Infinity": "f97c00", "double NaN": "f97e00", "double -Infinity": "f9fc00",
            "indefinite bytes": "450102030405",
            "indefinite text": "6973747265616d696e67",
            "indefinite array empty": "80",
            "indefinite arrays mixed 1": "8301820203820405",
            "indefinite arrays mixed 2": "8301820203820405",
            "indefinite arrays mixed 3": "8301820203820405",
            "indefinite arrays mixed 4": "8301820203820405",
            "indefinite array of 25":
                "98190102030405060708090a0b0c0d0e0f101112131415161718181819",
            "indefinite map": "a26161016162820203",
            "array with indefinite map": "826161a161626163",
            "indefinite map Fun Amt": "a26346756ef563416d7421",
        }
        rows = [row for row in VECTORS if not row[3]]
        self.assertEqual(sorted(expected), sorted(name for name, *_ in rows))
        for name, _, hexa, _ in rows:
            with self.subTest(name):
                self.assertEqual(dumps(loads(h(hexa))).hex(), expected[name])


class IntegerBoundaries(unittest.TestCase):
    ROWS = [
        ("23 immediate", 23, "17"), ("24 one byte", 24, "1818"),
        ("255 one byte", 255, "18ff"), ("256 two bytes", 256, "190100"),
        ("65535 two bytes", 65535, "19ffff"), ("65536 four bytes", 65536, "1a00010000"),
        ("2^32-1 four bytes", 2**32 - 1, "1affffffff"),
        ("2^32 eight bytes", 2**32, "1b0000000100000000"),
        ("-24 immediate", -24, "37"), ("-25 one byte", -25, "3818"),
        ("-256 one byte", -256, "38ff"), ("-257 two bytes", -257, "390100"),
        ("-2^32 four bytes", -2**32, "3affffffff"),
        ("-2^32-1 eight bytes", -2**32 - 1, "3b0000000100000000"),
        ("-2^63 eight bytes", -2**63, "3b7fffffffffffffff"),
        ("2^63 eight bytes", 2**63, "1b8000000000000000"),
        ("2^128 bignum", 2**128, "c25101" + "00" * 16),
        ("-2^128-1 bignum", -2**128 - 1, "c35101" + "00" * 16),
        ("2^64+255 bignum keeps low byte", 2**64 + 255, "c24901000000000000" + "00ff"),
    ]

    def test_rows(self):
        for name, value, hexa in self.ROWS:
            with self.subTest(name):
                self.assertEqual(dumps(value).hex(), hexa)
                self.assertEqual(canon(loads(h(hexa))), canon(value))

    def test_bignum_tags_with_leading_zeros_and_small_values_decode_to_int(self):
        self.assertEqual(loads(h("c2420001")), 1)
        self.assertEqual(loads(h("c340")), -1)
        self.assertEqual(loads(h("c240")), 0)
        # An indefinite byte string is a byte string too.
        self.assertEqual(loads(h("c25f4101ff")), 1)
        # Tag 2 over anything but a byte string is an error (as in cbor2),
        # reported at the tag.
        with self.assertRaises(CBORDecodeError) as cm:
            loads(h("82 00 c201"))
        self.assertEqual((cm.exception.status, cm.exception.offset), (None, 2))


class SemanticDates(unittest.TestCase):
    def test_appendix_a_dates(self):
        utc = datetime.timezone.utc
        self.assertEqual(loads(h("c074323031332d30332d32315432303a30343a30305a")),
                         datetime.datetime(2013, 3, 21, 20, 4, tzinfo=utc))
        self.assertEqual(loads(h("c11a514b67b0")),
                         datetime.datetime(2013, 3, 21, 20, 4, tzinfo=utc))
        self.assertEqual(loads(h("c1fb41d452d9ec200000")),
                         datetime.datetime(2013, 3, 21, 20, 4, 0, 500000, tzinfo=utc))


class FloatWidths(unittest.TestCase):
    ROWS = [
        ("half subnormal max", 6.097555160522461e-05, "f903ff"),
        ("single needed: 1/3 rounded to single", 0.3333333432674408, "fa3eaaaaab"),
        ("double needed: 1/3", 1 / 3, "fb3fd5555555555555"),
        ("half 2^-24 * 3", 1.7881393432617188e-07, "f90003"),
        ("single smallest subnormal 2^-149", 1.401298464324817e-45, "fa00000001"),
        ("double 2^-1074", 5e-324, "fb0000000000000001"),
        ("half 65504 is the largest half; 65520 needs single", 65520.0, "fa477ff000"),
        ("-0.0 stays negative", -0.0, "f98000"),
    ]

    def test_shortest_exact_width(self):
        for name, value, hexa in self.ROWS:
            with self.subTest(name):
                self.assertEqual(dumps(value).hex(), hexa)
                self.assertEqual(canon(loads(h(hexa))), canon(value))


if __name__ == "__main__":
    unittest.main()

"""Input that is not well-formed, invalid or over a limit: CBORDecodeError with
the library's status name and code, and the offset the C API documents."""

import unittest

from support import h

from cbor_fast import CBORDecodeError, Reader, iter_sequence, loads

# (name, hex, status, offset), grouped by cause. Offsets follow the reader's
# rules: a truncated head or string -> its first byte; input ending where an
# item is due -> len(input); a bad head -> that head; a break -> the 0xff byte.
TRUNCATED = [
    ("empty input", "", 0),
    ("uint8 argument missing", "18", 0),
    ("uint16 argument short", "1901", 0),
    ("uint32 argument short", "1a010203", 0),
    ("uint64 argument short", "1b01020304050607", 0),
    ("negative argument missing", "38", 0),
    ("bytes length missing", "58", 0),
    ("text length missing", "78", 0),
    ("array count missing", "98", 0),
    ("map count missing", "b8", 0),
    ("tag number missing", "d8", 0),
    ("simple value missing", "f8", 0),
    ("half float short", "f900", 0),
    ("single float short", "fa0000", 0),
    ("double float short", "fb000000", 0),
    ("bytes content missing", "41", 0),
    ("text content missing", "61", 0),
    ("bytes length 2^32-1", "5affffffff00", 0),
    ("bytes length 2^64-1", "5bffffffffffffffff010203", 0),
    ("text length 2^32-1", "7affffffff00", 0),
    ("array count over remaining bytes, at once", "81", 0),
    ("nested array count over remaining bytes", "8181", 1),
    ("array of 2 with 1 byte left", "8200", 0),
    ("map of 1 with 1 byte left", "a100", 0),
    ("map of 2 with 3 bytes left", "a2010203", 0),
    ("map of 1 before a break", "a1ff", 0),
    ("open indefinite array", "9f", 1),
    ("indefinite array without break", "9f0102", 3),
    ("open indefinite map", "bf", 1),
    ("indefinite map without break", "bf01020102", 5),
    ("indefinite bytes without break", "5f4100", 3),
    ("open indefinite text", "7f", 1),
    ("tag 24 without content", "d818", 2),
    ("tag 0 without content", "c0", 1),
]

NOT_WELL_FORMED = [
    ("ai 28 on uint", "1c", "reserved_additional_info", 0),
    ("ai 29 on uint", "1d", "reserved_additional_info", 0),
    ("ai 30 on uint", "1e", "reserved_additional_info", 0),
    ("ai 28 on negative", "3c", "reserved_additional_info", 0),
    ("ai 28 on bytes", "5c", "reserved_additional_info", 0),
    ("ai 28 on text", "7c", "reserved_additional_info", 0),
    ("ai 28 on array", "9c", "reserved_additional_info", 0),
    ("ai 28 on map", "bc", "reserved_additional_info", 0),
    ("ai 28 on tag", "dc", "reserved_additional_info", 0),
    ("ai 28 on major 7", "fc", "reserved_additional_info", 0),
    ("ai 29 on major 7", "fd", "reserved_additional_info", 0),
    ("ai 30 on major 7", "fe", "reserved_additional_info", 0),
    ("ai 28 inside an array", "811c", "reserved_additional_info", 1),
    ("indefinite uint", "1f", "indefinite_not_allowed", 0),
    ("indefinite negative", "3f", "indefinite_not_allowed", 0),
    ("indefinite tag", "df", "indefinite_not_allowed", 0),
    ("indefinite uint inside an array", "811f", "indefinite_not_allowed", 1),
    ("two-byte simple 0", "f800", "bad_simple_value", 0),
    ("two-byte simple 31", "f81f", "bad_simple_value", 0),
    ("text chunk in indefinite bytes", "5f6100ff", "chunk_type_mismatch", 1),
    ("bytes chunk in indefinite text", "7f4100ff", "chunk_type_mismatch", 1),
    ("uint in indefinite bytes", "5f00ff", "chunk_type_mismatch", 1),
    ("array in indefinite bytes", "5f80ff", "chunk_type_mismatch", 1),
    ("indefinite chunk in indefinite bytes", "5f5fffff", "nested_indefinite_chunk", 1),
    ("indefinite chunk in indefinite text", "7f7fffff", "nested_indefinite_chunk", 1),
    ("lone break", "ff", "unexpected_break", 0),
    ("break in a definite array", "81ff", "unexpected_break", 1),
    ("break in a definite array of 2", "8201ff", "unexpected_break", 2),
    ("break as tag content", "d818ff", "unexpected_break", 2),
    ("break where a map value is due", "bf01ff", "map_missing_value", 2),
    ("break after a text key", "bf6161ff", "map_missing_value", 3),
]

TRAILING = [
    ("two items", "0000", 1),
    ("byte after an empty array", "8001", 1),
    ("byte after an indefinite array", "9fff00", 2),
]

# strict_utf8=True: the offset is the first byte of the first bad sequence.
BAD_UTF8 = [
    ("bad continuation", "62c328", 1),
    ("surrogate U+D800 after an ASCII byte", "6461eda080", 2),
    ("bad second chunk of an indefinite text", "7f616161ffff", 4),
    ("bad text inside an array", "82616162c328", 4),
    ("bad text as a map key", "a162c32800", 2),
    ("5-byte lead F8", "62f880", 1),
    ("above U+10FFFF", "64f4908080", 1),
    ("overlong 2-byte", "62c080", 1),
    ("overlong 3-byte", "63e08080", 1),
    ("overlong 4-byte", "64f0808080", 1),
    # RFC 8949 3.2.3: each chunk of an indefinite text is UTF-8 on its own.
    ("a character split between two chunks", "7f61c361a9ff", 2),
    ("a split character in a map key", "a17f61c361a9ff01", 3),
    ("a chunk ending in a lead byte", "7f62c3a961c3ff", 5),
]

# (name, max_depth, hex, offset of the head that opened one level too many)
DEPTH = [
    ("array 3 deep, limit 2", 2, "81818100", 2),
    ("empty array 3 deep, limit 2", 2, "818180", 2),
    ("tags 3 deep, limit 2", 2, "c1c1c100", 2),
    ("array in an array, limit 1", 1, "8180", 1),
    ("tag in an array, limit 1", 1, "81c100", 1),
    ("indefinite bytes in an array, limit 1", 1, "815f4100ff", 1),
    ("array as map value, limit 1", 1, "a10080", 2),
    ("array as map key, limit 1", 1, "a18000", 1),
]


class Malformed(unittest.TestCase):
    def check(self, data, status, offset, **kw):
        with self.assertRaises(CBORDecodeError) as cm:
            loads(data, **kw)
        e = cm.exception
        self.assertEqual((e.status, e.offset), (status, offset))
        self.assertEqual(e.item_offset, 0)
        self.assertIsInstance(e, ValueError)
        return e

    def test_truncated(self):
        for name, hexa, offset in TRUNCATED:
            with self.subTest(name):
                e = self.check(h(hexa), "truncated", offset)
                self.assertEqual(e.code, 100)

    def test_not_well_formed(self):
        codes = {"reserved_additional_info": 101, "indefinite_not_allowed": 102,
                 "bad_simple_value": 103, "chunk_type_mismatch": 104,
                 "nested_indefinite_chunk": 105, "unexpected_break": 106,
                 "map_missing_value": 107}
        for name, hexa, status, offset in NOT_WELL_FORMED:
            with self.subTest(name):
                e = self.check(h(hexa), status, offset)
                self.assertEqual(e.code, codes[status])

    def test_trailing_bytes(self):
        for name, hexa, offset in TRAILING:
            with self.subTest(name):
                self.assertEqual(self.check(h(hexa), "trailing_bytes", offset).code, 201)

    def test_invalid_utf8_strict(self):
        for name, hexa, offset in BAD_UTF8:
            with self.subTest(name):
                self.assertEqual(self.check(h(hexa), "invalid_utf8", offset, strict_utf8=True).code,
                                 200)

    def test_invalid_utf8_by_default_and_str_errors(self):
        # str_errors="strict" (the default, as cbor2): CBORDecodeError
        # "invalid_utf8" at the bad byte (in an indefinite text too: each
        # chunk is decoded on its own, as cbor2 does).
        from cbor_fast import CBOREncodeValueError, dumps
        for name, hexa, offset in BAD_UTF8:
            with self.subTest(name):
                self.check(h(hexa), "invalid_utf8", offset)
                # other handlers decode; the escapes cannot be encoded back
                value = loads(h(hexa), str_errors="surrogateescape")
                with self.assertRaises(CBOREncodeValueError):
                    dumps(value)
        self.assertEqual(loads(h("62c328"), str_errors="surrogateescape"), "\udcc3(")
        self.assertEqual(loads(h("62c328"), str_errors="replace"), "\ufffd(")
        self.assertEqual(loads(h("62c328"), str_errors="ignore"), "(")
        # A split character: each half replaced, as cbor2 does.
        self.assertEqual(loads(h("7f61c361a9ff"), str_errors="replace"), "\ufffd\ufffd")
        self.assertEqual(loads(h("7f62c3a9ff"), str_errors="strict"), "\u00e9")
        with self.assertRaises(ValueError):
            loads(h("62c328"), str_errors="nonsense")

    def test_valid_utf8_edge_cases_pass_strict(self):
        self.assertEqual(loads(h("63efbfbf"), strict_utf8=True), "\uffff")
        self.assertEqual(loads(h("64f48fbfbf"), strict_utf8=True), "\U0010ffff")
        self.assertEqual(loads(h("63ed9fbf"), strict_utf8=True), "\ud7ff")

    def test_depth(self):
        for name, max_depth, hexa, offset in DEPTH:
            with self.subTest(name):
                self.assertEqual(
                    self.check(h(hexa), "depth_exceeded", offset, max_depth=max_depth).code, 300)

    def test_depth_limit_is_inclusive(self):
        self.assertEqual(loads(h("818100"), max_depth=2), [[0]])
        self.assertEqual(loads(h("8100"), max_depth=1), [0])

    def test_zero_means_the_default(self):
        # max_depth=0 is 512, as in the library: 512 levels decode, 513 do not.
        self.assertEqual(loads(h("00"), max_depth=0), 0)
        at_limit = b"\x81" * 512 + b"\x00"
        value = loads(at_limit, max_depth=0)
        for _ in range(512):
            value = value[0]
        self.assertEqual(value, 0)
        self.check(b"\x81" * 513 + b"\x00", "depth_exceeded", 512, max_depth=0)
        # The other limits: 0 like None (2**24 entries, 2**28 items, no string limit).
        self.assertEqual(loads(h("83010203"), max_container_items=0, max_items=0), [1, 2, 3])
        self.assertEqual(loads(h("43010203"), max_string_length=0), b"\x01\x02\x03")
        self.assertEqual(loads(h("43010203"), max_memory=0), b"\x01\x02\x03")
        self.check(h("83010203"), "container_too_large", 0, max_container_items=2)
        with self.assertRaises(ValueError):
            loads(b"\x00", max_items=-1)

    def test_bad_arguments(self):
        with self.assertRaises(ValueError):
            loads(b"\x00", max_depth=-1)
        with self.assertRaises(ValueError):
            loads(b"\x00", max_depth=2**32)
        with self.assertRaises(TypeError):
            loads("00")
        with self.assertRaises(TypeError):
            loads(5)  # bytes(5) would be five zero bytes: refused instead

    def test_message_and_str(self):
        e = self.check(h("9f"), "truncated", 1)
        self.assertEqual(e.message, "unexpected end of input")
        self.assertEqual(str(e), "truncated at offset 1: unexpected end of input")
        self.assertEqual(e.depth, 1)
        # The constructor takes a name or a code.
        self.assertEqual(CBORDecodeError(106, 3).status, "unexpected_break")
        self.assertEqual(CBORDecodeError("depth_exceeded", 3).code, 300)


class NestedCountsDoNotReserveTheInputPerLevel(unittest.TestCase):
    # 511 arrays each claiming 2**20 items over 1 MiB of zeros: each count
    # fits the bytes after its head, so every level preallocated a list of
    # 2**20 slots (4.2 GB in all; MemoryError, not CBORDecodeError, under a
    # 2 GB address-space limit). The preallocation now leaves room for the
    # slots already reserved around it; the input is truncated where the zeros
    # end, as every binding reports it.
    def test_truncated_at_the_end_with_bounded_reservations(self):
        import tracemalloc

        data = bytes.fromhex("9a00100000") * 511 + bytes(2**20)
        tracemalloc.start()
        try:
            with self.assertRaises(CBORDecodeError) as cm:
                loads(data)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        self.assertEqual((cm.exception.status, cm.exception.offset), ("truncated", len(data)))
        # One level's 8 MiB list and the decoded zeros' slots, not 511 lists.
        self.assertLess(peak, 64 << 20)

    def test_honest_nesting_still_decodes(self):
        # Arrays that end with the input: the innermost ones take the
        # appending path, with the same values.
        self.assertEqual(loads(bytes.fromhex("82820102820304")), [[1, 2], [3, 4]])
        self.assertEqual(loads(bytes.fromhex("838181008201028103")), [[[0]], [1, 2], [3]])
        want = 0
        for _ in range(600):
            want = [want]
        self.assertEqual(loads(bytes.fromhex("81" * 600 + "00"), max_depth=1000), want)


class IndefiniteByteStringsJoinInOneBuffer(unittest.TestCase):
    # The chunks were kept as a list and joined by _PyBytes_Join, which
    # takes an 80-byte Py_buffer per chunk: 2 MiB of empty chunks peaked at
    # 176 MiB for b"". They now go into one growing buffer.
    def test_many_chunks_cost_their_bytes(self):
        import tracemalloc

        for body, want in ((b"\x40", b""), (b"\x41a", b"a" * (1 << 20))):
            with self.subTest(chunk=body.hex()):
                data = b"\x5f" + body * ((2 << 20) // len(body)) + b"\xff"
                tracemalloc.start()
                try:
                    got = loads(data)
                    peak = tracemalloc.get_traced_memory()[1]
                finally:
                    tracemalloc.stop()
                self.assertEqual(got, want)
                self.assertLess(peak, 4 * len(want) + (4 << 20))

    def test_values(self):
        self.assertEqual(loads(h("5f42010243030405ff")), b"\x01\x02\x03\x04\x05")
        self.assertEqual(loads(h("5fff")), b"")
        self.assertEqual(loads(h("5f4040ff")), b"")
        self.assertEqual(loads(h("825f4161ff5f40ff")), [b"a", b""])
        with self.assertRaises(CBORDecodeError) as cm:
            loads(h("5f4161"))
        self.assertEqual((cm.exception.status, cm.exception.offset), ("truncated", 3))


class ErrorsComeInInputOrder(unittest.TestCase):
    # As cbor2: a tag whose content its decoder refuses raises that error
    # (status None, at the tag) even when malformed input follows it (the
    # C, Rust and Go decoders report the malformation: truncated at 4).
    def test_tag_content_error_before_a_later_malformation(self):
        for name, hexdata, offset in (
            ("datetime text, then the map's value missing", "a1c06130", 1),
            ("decimal fraction of an int, then the array short", "82c400", 1),
        ):
            with self.subTest(name):
                with self.assertRaises(CBORDecodeError) as cm:
                    loads(h(hexdata))
                self.assertEqual((cm.exception.status, cm.exception.offset), (None, offset))
        # Without the tag: the malformation itself (the map's value is due
        # where the input ends).
        with self.assertRaises(CBORDecodeError) as cm:
            loads(h("a16130"))
        self.assertEqual((cm.exception.status, cm.exception.offset), ("truncated", 3))


class SequenceErrors(unittest.TestCase):
    def test_items_before_the_bad_one_are_yielded(self):
        got = []
        with self.assertRaises(CBORDecodeError) as cm:
            for v in iter_sequence(h("01 8202 03 81 1c")):
                got.append(v)
        self.assertEqual(got, [1, [2, 3]])
        e = cm.exception
        self.assertEqual((e.status, e.offset, e.item_offset), ("reserved_additional_info", 5, 4))

    def test_truncated_last_item(self):
        with self.assertRaises(CBORDecodeError) as cm:
            list(iter_sequence(h("00 18")))
        self.assertEqual((cm.exception.status, cm.exception.offset, cm.exception.item_offset),
                         ("truncated", 1, 1))

    def test_strict_utf8_in_a_sequence(self):
        data = h("00 62c328")
        self.assertEqual(list(iter_sequence(data, str_errors="surrogateescape")), [0, "\udcc3("])
        for options in ({"strict_utf8": True}, {}):  # str_errors="strict" is the default
            with self.subTest(**options), self.assertRaises(CBORDecodeError) as cm:
                list(iter_sequence(data, **options))
            self.assertEqual((cm.exception.status, cm.exception.offset,
                              cm.exception.item_offset), ("invalid_utf8", 2, 1))

    def test_depth_in_a_sequence(self):
        with self.assertRaises(CBORDecodeError) as cm:
            list(iter_sequence(h("80 8180"), max_depth=1))
        self.assertEqual((cm.exception.status, cm.exception.offset, cm.exception.item_offset),
                         ("depth_exceeded", 2, 1))

    def test_reader_error_is_sticky(self):
        r = Reader(h("00 1c"))
        self.assertEqual(next(r).value, 0)
        for _ in range(2):
            with self.assertRaises(CBORDecodeError) as cm:
                next(r)
            self.assertEqual((cm.exception.status, cm.exception.offset,
                              cm.exception.item_offset), ("reserved_additional_info", 1, 1))
        r.close()


if __name__ == "__main__":
    unittest.main()

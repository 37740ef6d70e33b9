"""Strict checks (duplicate keys, deterministic encoding), the decode limits,
and the batched reader (cbor_reader_next_batch) against one item per call.

Every expected status and offset below is read off the bytes in the comment
next to it, not taken from a run of the code.
"""

import os
import unittest

from support import CORPUS_FILES, corpus_dir, h

from cbor_fast import STATUS_CODES, CBORDecodeError, ItemType, Reader, iter_sequence, loads

# {"a": 1, "a": 2}: a2 | 61 61 | 01 | 61 61 (the second key, offset 4) | 02
DUPLICATE = h("a2 6161 01 6161 02")
# {2: 0, 1: 0}: a2 | 02 | 00 | 01 (offset 3, sorts before 02) | 00
UNSORTED = h("a2 02 00 01 00")
# 5 in a two-byte head (18 05) where one byte (05) is enough: offset 0
NOT_PREFERRED = h("1805")
# [_ 1]: an indefinite-length array, head at 0
INDEFINITE = h("9f 01 ff")
# A 10-byte text string: head 6a at 0, content 1..10
TEN_BYTES = h("6a") + b"0123456789"
# [1, 2, 3]: 83 at 0, items at 1, 2, 3
THREE = h("83 01 02 03")
# An array of 100000 uints 1: 9a 00 01 86 a0 and 100000 bytes 01
MANY_INTS = h("9a 00 01 86 a0") + b"\x01" * 100000


class Strict(unittest.TestCase):
    def fails(self, status, offset, fn, *args, **kwargs):
        with self.assertRaises(CBORDecodeError) as cm:
            fn(*args, **kwargs)
        self.assertEqual((cm.exception.status, cm.exception.offset), (status, offset))
        self.assertEqual(cm.exception.code, STATUS_CODES[status])
        return cm.exception

    def reader_fails(self, data, status, offset, items_before, **options):
        """The Reader hands out `items_before` items, then raises at `offset`."""
        seen = []
        with Reader(data, **options) as r:
            with self.assertRaises(CBORDecodeError) as cm:
                for item in r:
                    seen.append(item.offset)
        self.assertEqual((cm.exception.status, cm.exception.offset), (status, offset))
        self.assertEqual(len(seen), items_before)

    def test_duplicate_key(self):
        self.assertEqual(loads(DUPLICATE), {"a": 2})  # off by default: last wins
        self.fails("duplicate_key", 4, loads, DUPLICATE, reject_duplicate_keys=True)
        self.fails("duplicate_key", 4, loads, DUPLICATE, deterministic=True)
        # map, "a", 1 come out first; the second key is the error.
        self.reader_fails(DUPLICATE, "duplicate_key", 4, 3, reject_duplicate_keys=True)
        seq = iter_sequence(h("01") + DUPLICATE, reject_duplicate_keys=True)
        self.assertEqual(next(seq), 1)
        err = self.fails("duplicate_key", 5, next, seq)
        self.assertEqual(err.item_offset, 1)
        # Equal by value: 1 and 18 01 are one key. a2 01 00 | 18 01 (offset 3) | 00
        self.fails("duplicate_key", 3, loads, h("a2 01 00 1801 00"), reject_duplicate_keys=True)
        # Distinct keys pass.
        self.assertEqual(loads(h("a2 6161 01 6162 02"), reject_duplicate_keys=True),
                         {"a": 1, "b": 2})
        # Different CBOR values that are one Python key: refused at the
        # second key (they were merged, one entry dropped), as cbor2 does;
        # allow_duplicate_keys=False (cbor2's spelling) alike.
        for name, hexa, offset in [
                ("1 and 1.0", "a2 01 01 f93c00 02", 3),
                ("true and 1", "a2 f5 01 01 02", 3),
                ("sets {1, 2} and {2, 1}", "a2 d90102 820102 01 d90102 820201 02", 8),
                ("1/2 and 2/4", "a2 d81e 820102 01 d81e 820204 02", 7)]:
            with self.subTest(name):
                self.fails("duplicate_key", offset, loads, h(hexa), reject_duplicate_keys=True)
                self.fails("duplicate_key", offset, loads, h(hexa), allow_duplicate_keys=False)
                self.assertEqual(len(loads(h(hexa))), 1)  # off: the later value wins

    def test_deterministic(self):
        self.assertEqual(loads(UNSORTED), {2: 0, 1: 0})
        self.fails("unsorted_map_keys", 3, loads, UNSORTED, deterministic=True)
        self.fails("non_preferred_encoding", 0, loads, NOT_PREFERRED, deterministic=True)
        self.fails("indefinite_length", 0, loads, INDEFINITE, deterministic=True)
        # A float64 that fits a half: fb 3ff0000000000000 (1.0) at 0
        self.fails("non_preferred_encoding", 0, loads, h("fb 3ff0000000000000"),
                   deterministic=True)
        self.reader_fails(UNSORTED, "unsorted_map_keys", 3, 3, deterministic=True)
        self.reader_fails(h("82 01 1805"), "non_preferred_encoding", 2, 2, deterministic=True)
        seq = iter_sequence(h("00") + UNSORTED, deterministic=True)
        self.assertEqual(next(seq), 0)
        self.fails("unsorted_map_keys", 4, next, seq)
        # Sorted, shortest: passes.
        self.assertEqual(loads(h("a2 01 00 02 00"), deterministic=True), {1: 0, 2: 0})
        self.assertEqual(loads(h("05"), deterministic=True), 5)

    def test_max_string_length(self):
        self.fails("string_too_long", 0, loads, TEN_BYTES, max_string_length=9)
        self.assertEqual(loads(TEN_BYTES, max_string_length=10), "0123456789")
        self.reader_fails(TEN_BYTES, "string_too_long", 0, 0, max_string_length=9)
        self.fails("string_too_long", 0, list, iter_sequence(TEN_BYTES, max_string_length=9))
        # Joined: (_ "01234" "56789") 7f | 65 at 1 | 65 at 7 (crosses 9) | ff
        joined = h("7f 65") + b"01234" + h("65") + b"56789" + h("ff")
        self.fails("string_too_long", 7, loads, joined, max_string_length=9)
        self.assertEqual(loads(joined, max_string_length=10), "0123456789")

    def test_max_container_items(self):
        self.fails("container_too_large", 0, loads, THREE, max_container_items=2)
        self.assertEqual(loads(THREE, max_container_items=3), [1, 2, 3])
        self.reader_fails(THREE, "container_too_large", 0, 0, max_container_items=2)
        # {1: 2, 3: 4} has 2 pairs: a2 at 0
        self.fails("container_too_large", 0, loads, h("a2 01 02 03 04"), max_container_items=1)

    def test_default_container_limit(self):
        # A head alone: a count the default lets through is truncated (its
        # entries are missing), one over it is container_too_large, at the head.
        import cbor_fast
        self.assertEqual(cbor_fast.DEFAULT_MAX_CONTAINER_ITEMS, 1 << 24)
        self.assertEqual(cbor_fast.DEFAULT_MAX_ITEMS, 1 << 28)
        n = cbor_fast.DEFAULT_MAX_CONTAINER_ITEMS

        def head(prefix, major, count):  # prefix, then a 9-byte head
            return h(prefix) + bytes([major << 5 | 27]) + count.to_bytes(8, "big")

        rows = [
            ("array_at_default_passes_the_limit", head("", 4, n), {}, "truncated", 0, 0),
            ("array_one_over_default", head("", 4, n + 1), {}, "container_too_large", 0, 0),
            ("map_at_default_passes_the_limit", head("", 5, n), {}, "truncated", 0, 0),
            ("map_one_over_default", head("", 5, n + 1), {}, "container_too_large", 0, 0),
            ("nested_one_over_default", head("82 00", 4, n + 1), {}, "container_too_large", 2, 2),
            ("array_one_over_default.lifted_to_max", head("", 4, n + 1),
             {"max_container_items": 2 ** 64 - 1}, "truncated", 0, 0),
            ("map_one_over_default.lifted_by_one", head("", 5, n + 1),
             {"max_container_items": n + 1}, "truncated", 0, 0),
            ("array_one_over_default.none_is_default", head("", 4, n + 1),
             {"max_container_items": None}, "container_too_large", 0, 0),
        ]
        for name, data, options, status, offset, before in rows:
            with self.subTest(name):
                self.fails(status, offset, loads, data, **options)
                self.fails(status, offset, list, iter_sequence(data, **options))
                self.reader_fails(data, status, offset, before, **options)

    def test_max_items(self):
        # [1, 2, 3] is 4 data items; the 4th (03) is at offset 3.
        self.fails("too_many_items", 3, loads, THREE, max_items=3)
        self.assertEqual(loads(THREE, max_items=4), [1, 2, 3])
        self.reader_fails(THREE, "too_many_items", 3, 3, max_items=3)
        # In a sequence max_items bounds each item (since 0.5; before, items
        # were counted from its start): 01 | 82 01 02 passes with 3, and in
        # 01 | 83 01 02 03 the second item's 4th head (03) fails at offset 4.
        self.assertEqual(list(iter_sequence(h("01") + h("820102"), max_items=3)), [1, [1, 2]])
        seq = iter_sequence(h("01") + THREE, max_items=3)
        self.assertEqual(next(seq), 1)
        self.fails("too_many_items", 4, next, seq)
        self.reader_fails(h("01") + THREE, "too_many_items", 4, 4, max_items=3)

    def test_max_memory(self):
        # 100001 nodes cannot fit 64 KiB, whatever a node costs.
        err = self.fails_status("memory_budget_exceeded", loads, MANY_INTS, max_memory=65536)
        self.assertLess(err.offset, len(MANY_INTS))
        self.assertEqual(loads(MANY_INTS, max_memory=64 << 20), [1] * 100000)
        with self.assertRaises(CBORDecodeError) as cm:
            list(iter_sequence(h("00") + MANY_INTS, max_memory=65536))
        self.assertEqual((cm.exception.status, cm.exception.item_offset),
                         ("memory_budget_exceeded", 1))
        self.assertEqual(list(iter_sequence(h("00") + THREE + THREE, max_memory=65536)),
                         [0, [1, 2, 3], [1, 2, 3]])

    def fails_status(self, status, fn, *args, **kwargs):
        with self.assertRaises(CBORDecodeError) as cm:
            fn(*args, **kwargs)
        self.assertEqual(cm.exception.status, status)
        return cm.exception

    def test_bad_arguments(self):
        for name in ("max_string_length", "max_container_items", "max_items", "max_memory"):
            for bad in (-1, 2 ** 64, True, 1.5):
                with self.subTest(name=name, value=bad):
                    with self.assertRaises(ValueError):
                        loads(THREE, **{name: bad})
            # 0 is the default, as None is (the library's rule for 0).
            with self.subTest(name=name, value=0):
                self.assertEqual(loads(THREE, **{name: 0}), loads(THREE))
        for budget in (100, 2 ** 64 - 2):
            with self.subTest(max_memory=budget):
                with self.assertRaises(ValueError):
                    Reader(THREE, max_memory=budget)  # not a reader option
        # 2**64 - 1 is no budget (lifted), which a reader keeps; the other
        # options apply: max_depth=1 refuses [[1]] at its second head.
        r = Reader(b"\x81\x81\x01", max_memory=2 ** 64 - 1, max_depth=1)
        next(iter(r))
        with self.assertRaises(CBORDecodeError) as cm:
            list(r)
        self.assertEqual(cm.exception.offset, 1)


class BatchedPositions(unittest.TestCase):
    # [ (_ h'61' h'62'), 24(5), [1, [2]], 7 ] then a second top-level 8:
    # 84 at 0 | 5f at 1 | 41 61 at 2 | 41 62 at 4 | ff at 6 | d8 18 at 7 | 05 at 9 |
    # 82 at 10 | 01 at 11 | 81 at 12 | 02 at 13 | END(def) at 14 | END at 14 |
    # 07 at 14 | END at 15 | 08 at 15
    DATA = h("84 5f 4161 4162 ff d818 05 82 01 81 02 07 08")

    def test_join_with_chunks_buffered(self):
        with Reader(self.DATA) as r:
            next(r)
            start = next(r)
            self.assertTrue(start.indefinite)
            self.assertEqual(r.offset, 2)
            self.assertEqual(bytes(r.join()), b"ab")
            self.assertEqual(r.offset, 7)
            self.assertEqual(next(r).offset, 7)  # the tag comes next
            with self.assertRaises(ValueError):
                r.join()

    def test_skip_and_skip_to_end_with_items_buffered(self):
        with Reader(self.DATA) as r:
            next(r)  # the outer array
            self.assertTrue(r.skip())  # the indefinite string with its chunks and END
            self.assertEqual((r.offset, r.depth), (7, 1))
            self.assertTrue(r.skip())  # the tag and its content
            self.assertEqual(r.offset, 10)
            next(r)  # [1, [2]]
            next(r)  # 1
            self.assertEqual(r.depth, 2)
            r.skip_to_end()  # [2] and the END of [1, [2]]
            self.assertEqual((r.offset, r.depth), (14, 1))
            self.assertEqual(next(r).value, 7)
            self.assertFalse(r.skip())  # the END of the outer array is next
            self.assertEqual(next(r).type, ItemType.END)
            self.assertEqual((r.offset, r.depth), (15, 0))
            with self.assertRaises(CBORDecodeError) as cm:
                r.finish()  # 08 is left
            self.assertEqual((cm.exception.status, cm.exception.offset), ("trailing_bytes", 15))
            self.assertEqual(next(r).value, 8)
            r.finish()

    def test_skip_to_end_of_a_tag(self):
        # d8 18 at 0 | 82 at 2 | 01 | 02 | END at 5 | then 03 at 5
        with Reader(h("d818 82 01 02 03")) as r:
            self.assertEqual(next(r).type, ItemType.TAG)
            self.assertEqual(r.depth, 1)
            r.skip_to_end()  # the tag's content, [1, 2]
            self.assertEqual((r.offset, r.depth), (5, 0))
            self.assertEqual(next(r).value, 3)

    def test_finish_with_a_container_open_and_input_left(self):
        with Reader(h("82 01 02")) as r:
            next(r)
            with self.assertRaises(ValueError):
                r.finish()


if __name__ == "__main__":
    unittest.main()

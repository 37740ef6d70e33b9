"""Round trips over the real-world corpus (twitter, citm_catalog, canada).

What is asserted, and why. The files were written by cbor2 with every float
as a float64 but otherwise in preferred serialization (shortest integer and
length heads, definite lengths). dumps() writes the shortest float width that
keeps the value exactly, so:

1. Values: loads(dumps(loads(x))) equals loads(x) exactly (floats by bits,
   ints and bools kept apart; see support.canon).
2. Bytes: dumps(loads(x)) == x for every file in which no float fits a half or
   single exactly (twitter, citm_catalog); the test computes that with the
   struct module rather than assuming it.
3. Where floats shrink (canada), the two encodings are compared item by item
   with the Reader: the same item kinds in the same order, the same head bytes
   and contents for every non-float item, and for each float the same value
   at exactly the width struct says is the shortest exact one; the output is
   shorter than x by exactly the bytes those floats saved.
"""

import math
import os
import struct
import unittest

from support import CORPUS_FILES, canon, require_corpus

from cbor_fast import ItemType, Reader, dumps, iter_sequence, loads


def shortest_float_width(value):
    """The width preferred serialization gives value (2, 4 or 8), by trying each."""
    if math.isnan(value):
        return 2
    bits = struct.pack(">d", value)
    for fmt, width in (("<e", 2), ("<f", 4)):
        try:
            back = struct.unpack(fmt, struct.pack(fmt, value))[0]
        except OverflowError:
            continue
        if struct.pack(">d", back) == bits:
            return width
    return 8


def read_all(path):
    with open(path, "rb") as f:
        return f.read()


class CorpusRoundTrip(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        corpus = require_corpus()
        cls.files = {name: read_all(os.path.join(corpus, name)) for name in CORPUS_FILES}

    def test_values_survive_dumps(self):
        for name, data in self.files.items():
            with self.subTest(name):
                value = loads(data)
                self.assertEqual(canon(loads(dumps(value))), canon(value))

    def test_bytes_identical_unless_floats_shrink(self):
        shrinking = {}
        for name, data in self.files.items():
            shrinking[name] = sum(
                1 for it in Reader(data)
                if it.type == ItemType.FLOAT and shortest_float_width(it.value) < it.float_width)
            out = dumps(loads(data))
            with self.subTest(name):
                if shrinking[name] == 0:
                    self.assertEqual(out, data)
                else:
                    self.assertNotEqual(out, data)
        # The corpus is what the README says: two files reproduce byte for byte.
        self.assertEqual(shrinking["twitter.cbor"], 0)
        self.assertEqual(shrinking["citm_catalog.cbor"], 0)
        self.assertGreater(shrinking["canada.cbor"], 0)

    def test_item_by_item_against_the_input(self):
        for name, data in self.files.items():
            with self.subTest(name):
                out = dumps(loads(data))
                saved = 0
                floats = 0
                count = 0
                with Reader(data) as a, Reader(out) as b:
                    for x, y in zip(a, b):
                        count += 1
                        self.assertEqual((x.type, x.depth), (y.type, y.depth))
                        if x.type == ItemType.FLOAT:
                            floats += 1
                            self.assertEqual(x.float_width, 8)  # as the README says
                            self.assertEqual(struct.pack(">d", x.value),
                                             struct.pack(">d", y.value))
                            self.assertEqual(y.float_width, shortest_float_width(x.value))
                            saved += x.float_width - y.float_width
                            continue
                        self.assertEqual(data[x.offset:x.offset + x.head_size],
                                         out[y.offset:y.offset + y.head_size])
                        if x.type in (ItemType.BYTES, ItemType.TEXT) and not x.indefinite:
                            self.assertEqual(bytes(x.value), bytes(y.value))
                        else:
                            self.assertEqual(x.value, y.value)
                    # zip stops at the shorter: both must be exhausted together.
                    self.assertIsNone(next(a, None))
                    self.assertIsNone(next(b, None))
                self.assertGreater(count, 1000)
                self.assertEqual(len(out), len(data) - saved)
                if name == "canada.cbor":
                    self.assertGreater(floats, 100000)

    def test_the_three_files_as_one_sequence(self):
        joined = b"".join(self.files[name] for name in CORPUS_FILES)
        values = list(iter_sequence(joined))
        self.assertEqual(len(values), 3)
        for name, value in zip(CORPUS_FILES, values):
            with self.subTest(name):
                self.assertEqual(canon(value), canon(loads(self.files[name])))


if __name__ == "__main__":
    unittest.main()

"""The shared test vectors (tests/vectors/*.json) through the public API:
loads() of every RFC 8949 Appendix A row (its JSON value where the file gives
one, dumps() back to the same bytes where the row is preferred), the status
code and offset of every not-well-formed row, every strict row with its
checks on, and every item-budget row through Reader and iter_sequence. Status names in the files are the C enumerators; their numbers
come from cbor_fast.h itself."""

import json
import math
import os
import re
import unittest

from support import canon

from cbor_fast import CBORDecodeError, CBORTag, Reader, _semantic, dumps, iter_sequence, loads

_ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
_VECTORS = os.path.join(_ROOT, "tests", "vectors")
_HEADER = os.path.join(_ROOT, "capi", "include", "cbor_fast.h")


def _load(name):
    with open(os.path.join(_VECTORS, name), encoding="utf-8") as f:
        return json.load(f)


def _status_codes():
    with open(_HEADER, encoding="utf-8") as f:
        text = f.read()
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"\b(CBOR_FAST_\w+) = (\d+)", text)}


CODES = _status_codes()
# The strict rows test the library's checks, not the meaning of tags: every tag
# the package would interpret (datetime, decimal, ...) stays a CBORTag.
RAW_TAGS = {tag: (lambda v, immutable, tag=tag: CBORTag(tag, v))
            for tag in [2, 3, *_semantic._DECODERS]}
CHECK_KEYWORDS = {"utf8": "strict_utf8", "duplicate_keys": "reject_duplicate_keys",
                  "deterministic": "deterministic"}
# Rows the library passes whose keys are one Python key: the binding refuses
# them too (as cbor2), at the second key, instead of merging the entries.
PYTHON_EQUAL_KEYS = {"duplicate_keys/1 and 1.0": ("CBOR_FAST_ERR_DUPLICATE_KEY", 3)}


class SharedVectors(unittest.TestCase):
    def test_appendix_a(self):
        rows = _load("appendix_a.json")
        self.assertGreaterEqual(len(rows), 80)
        for row in rows:
            with self.subTest(row["name"]):
                data = bytes.fromhex(row["hex"])
                # Tag 1 decodes to a datetime, as in cbor2, and datetimes are
                # written as tag 0: keep epoch times as tags for the round trip.
                value = loads(data, strict_utf8=True,
                              semantic_decoders={1: lambda v, immutable: CBORTag(1, v)})
                if "decoded" in row:
                    self.assertEqual(canon(value), canon(row["decoded"]))
                if row["roundtrip"]:
                    self.assertEqual(dumps(value).hex(), row["hex"])
                elif isinstance(value, float) and not math.isnan(value):
                    # Infinities at single/double width: dumps writes them as halves.
                    self.assertEqual(len(dumps(value)), 3)

    def test_malformed(self):
        rows = _load("malformed.json")
        self.assertGreaterEqual(len(rows), 90)
        for row in rows:
            with self.subTest(row["name"]):
                with self.assertRaises(CBORDecodeError) as cm:
                    loads(bytes.fromhex(row["hex"]))
                self.assertEqual((cm.exception.code, cm.exception.offset),
                                 (CODES[row["status"]], row["offset"]))

    def test_strict(self):
        rows = _load("strict.json")
        self.assertGreaterEqual(len(rows), 100)
        for row in rows:
            with self.subTest(row["name"]):
                data = bytes.fromhex(row["hex"])
                options = {CHECK_KEYWORDS[c]: True for c in row["checks"]}
                options["semantic_decoders"] = RAW_TAGS
                if options.get("reject_duplicate_keys") and row["name"] in PYTHON_EQUAL_KEYS:
                    row = dict(row, status=PYTHON_EQUAL_KEYS[row["name"]][0],
                               offset=PYTHON_EQUAL_KEYS[row["name"]][1])
                if row["status"] == "CBOR_FAST_OK":
                    loads(data, **options)
                else:
                    with self.assertRaises(CBORDecodeError) as cm:
                        loads(data, **options)
                    self.assertEqual((cm.exception.code, cm.exception.offset),
                                     (CODES[row["status"]], row["offset"]))
                # Without the checks every row is well-formed (text that is not
                # UTF-8 decodes with replacement characters).
                loads(data, str_errors="replace", semantic_decoders=RAW_TAGS)

    def test_item_budget(self):
        # max_items bounds each top-level item of a sequence: one Reader, and
        # iter_sequence, over the whole input stop at the same head.
        rows = _load("item_budget.json")
        self.assertGreaterEqual(len(rows), 15)
        for row in rows:
            with self.subTest(row["name"]):
                data = bytes.fromhex(row["hex"])
                for read in (lambda: [i.offset for i in Reader(data, max_items=row["max_items"])],
                             lambda: list(iter_sequence(data, max_items=row["max_items"]))):
                    if row["status"] == "CBOR_FAST_OK":
                        read()
                    else:
                        with self.assertRaises(CBORDecodeError) as cm:
                            read()
                        self.assertEqual((cm.exception.code, cm.exception.offset),
                                         (CODES[row["status"]], row["offset"]))

    def test_header_codes_found(self):
        self.assertEqual(CODES["CBOR_FAST_ERR_TRUNCATED"], 100)
        self.assertEqual(CODES["CBOR_FAST_OK"], 0)


if __name__ == "__main__":
    unittest.main()

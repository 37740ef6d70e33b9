"""The Python API: value mapping both ways, the Reader, sequences, deep input."""

import array
import enum
import gc
import io
import os
import threading
import unittest
from collections import OrderedDict

import pytest

from support import canon, h, nested_depth

import cbor_fast
from cbor_fast import (CBORDecodeError, CBOREncodeError, CBOREncodeTypeError, CBOREncodeValueError, FrozenDict, Item,
                       ItemType, Reader, Simple, Tag, dumps, iter_sequence, loads, undefined)


class Library(unittest.TestCase):
    def test_compiled_extension_and_library_version(self):
        # The package is the compiled extension, not a ctypes binding.
        self.assertTrue(cbor_fast._ext.__file__.endswith(".so"))
        # ctest passes the project version the core was built from.
        version = os.environ.get("CBOR_FAST_EXPECTED_VERSION")
        if version is not None:
            self.assertEqual(cbor_fast.library_version, version)
        self.assertRegex(cbor_fast.library_version, r"^\d+\.\d+\.\d+$")


class Types(unittest.TestCase):
    def test_undefined_is_a_singleton(self):
        self.assertIs(type(undefined)(), undefined)
        self.assertIs(loads(h("f7")), undefined)
        self.assertEqual(repr(undefined), "undefined")
        self.assertFalse(undefined)

    def test_simple(self):
        self.assertEqual(Simple(0), Simple(0))
        self.assertNotEqual(Simple(0), Simple(1))
        self.assertEqual(Simple(0), 0)  # as cbor2's CBORSimpleValue
        self.assertNotEqual(Simple(0), True)
        self.assertEqual(len({Simple(3), Simple(3)}), 1)
        for bad in (-1, 20, 23, 24, 31, 256, True, "1"):
            with self.subTest(bad), self.assertRaises(ValueError):
                Simple(bad)
        self.assertEqual(dumps(Simple(19)), h("f3"))
        self.assertEqual(dumps(Simple(32)), h("f820"))
        self.assertEqual(loads(h("f820")), Simple(32))

    def test_tag(self):
        self.assertEqual(Tag(1, [1]), Tag(1, [1]))
        self.assertNotEqual(Tag(1, 1), Tag(2, 1))
        self.assertNotEqual(Tag(1, 1), (1, 1))
        self.assertEqual(hash(Tag(5, "x")), hash(Tag(5, "x")))
        with self.assertRaises(TypeError):
            hash(Tag(5, [1]))
        for bad in (-1, 2**64, 1.0, True):
            with self.subTest(bad), self.assertRaises(ValueError):
                Tag(bad, 0)
        self.assertEqual(dumps(Tag(2**64 - 1, None)), h("dbfffffffffffffffff6"))
        self.assertEqual(repr(Tag(7, b"a")), "CBORTag(7, b'a')")

    def test_frozen_dict(self):
        d = FrozenDict({1: 2, "a": [3]})
        self.assertEqual(d[1], 2)
        self.assertEqual(len(d), 2)
        self.assertEqual(list(d), [1, "a"])
        self.assertEqual(d, {1: 2, "a": [3]})
        with self.assertRaises(TypeError):
            d[2] = 3  # FrozenDict has no __setitem__
        self.assertEqual(hash(FrozenDict({1: 2})), hash(FrozenDict({1: 2})))


class DecodeValues(unittest.TestCase):
    def test_scalars(self):
        rows = [("00", 0), ("20", -1), ("3bffffffffffffffff", -2**64), ("f4", False),
                ("f5", True), ("f6", None), ("f93c00", 1.0), ("fa3fc00000", 1.5),
                ("4100", b"\x00"), ("6161", "a")]
        for hexa, value in rows:
            with self.subTest(hexa):
                self.assertEqual(canon(loads(h(hexa))), canon(value))
        self.assertIs(type(loads(h("4100"))), bytes)
        self.assertIs(type(loads(h("f93c00"))), float)

    def test_containers_as_map_keys_are_hashable(self):
        # {[1, 2]: 3, {1: [2]}: 4, 6([6]): 7}
        value = loads(h("a3 820102 03 a1018102 04 c68106 07"))
        self.assertEqual(value, {(1, 2): 3, FrozenDict({1: (2,)}): 4, Tag(6, (6,)): 7})
        key = list(value)[1]
        self.assertIs(type(key), FrozenDict)
        self.assertIs(type(key[1]), tuple)
        # Values stay mutable lists and dicts.
        value = loads(h("a1 01 a1 02 81 03"))
        self.assertIs(type(value[1][2]), list)

    def test_indefinite_containers_as_keys(self):
        self.assertEqual(loads(h("a1 9f01ff 02")), {(1,): 2})
        self.assertEqual(loads(h("a1 5f4161ff 02")), {b"a": 2})

    def test_duplicate_keys_last_wins(self):
        self.assertEqual(loads(h("a2 6161 01 6161 02")), {"a": 2})

    def test_accepts_any_buffer(self):
        data = h("83 01 4161 6162")
        expected = [1, b"a", "b"]
        for buf in (data, bytearray(data), memoryview(data), memoryview(bytearray(data)),
                    array.array("B", data), memoryview(b"xx" + data)[2:]):
            with self.subTest(type(buf).__name__):
                self.assertEqual(loads(buf), expected)


class EncodeValues(unittest.TestCase):
    def test_python_types(self):
        class Color(enum.IntEnum):
            RED = 1

        class Text(str):
            pass

        rows = [
            (True, "f5"), (False, "f4"), (None, "f6"), (undefined, "f7"),
            (bytearray(b"ab"), "426162"), (memoryview(b"ab"), "426162"),
            (memoryview(array.array("H", [1])), "420100"),
            ((1, 2), "820102"), (OrderedDict([("a", 1)]), "a1616101"),
            (FrozenDict({1: 2}), "a10102"), (Color.RED, "01"), (Text("x"), "6178"),
            (-2**64, "3bffffffffffffffff"), (float("-inf"), "f9fc00"),
            (Tag(3, b"\x01"), "c34101"),  # a Tag stays as given, even for bignum numbers
            ({"b": 1, "a": 2}, "a2616201616102"),  # insertion order, not sorted
        ]
        for value, hexa in rows:
            with self.subTest(repr(value)):
                self.assertEqual(dumps(value).hex(), hexa)

    def test_unsupported_type(self):
        # (complex numbers and range are encodable since cbor2 6.3's support
        # was added: tag 43000, arrays)
        import collections
        for value in (object(), collections.UserString("ab"), iter([1])):
            with self.subTest(repr(value)), self.assertRaises(CBOREncodeTypeError) as cm:
                dumps(value)
            self.assertIsInstance(cm.exception, TypeError)
            self.assertIsInstance(cm.exception, CBOREncodeError)
        with self.assertRaises(CBOREncodeTypeError):
            dumps([1, {"a": object()}])

    def test_cycles_are_refused(self):
        a = [1]
        a.append(a)
        with self.assertRaises(CBOREncodeError):
            dumps(a)
        d = {}
        d["self"] = [d]
        with self.assertRaises(CBOREncodeError):
            dumps(d)
        t = Tag(1, None)
        t.value = [t]
        with self.assertRaises(CBOREncodeError):
            dumps(t)
        # Cycles through tags alone (no container to notice them): a tag
        # that is its own value, and a run of three coming back to its
        # second; with value sharing too. (Before, heads were written until
        # memory ran out.)
        own = Tag(6, None)
        own.value = own
        a = Tag(6, None)
        b = Tag(7, a)
        a.value = b
        # The same through subclasses of CBORTag, which went through the
        # semantic encoder, a new CBORTag each time (it hung without end).
        class SubTag(Tag):
            pass

        sub = SubTag(6, None)
        sub.value = sub
        c = SubTag(9, None)
        mixed = Tag(10, c)
        c.value = mixed
        for name, value, kw in [("own value", own, {}), ("a run of three", Tag(8, b), {}),
                                ("value sharing", own, {"value_sharing": True}),
                                ("subclass, own value", sub, {}),
                                ("subclass and CBORTag in a run", Tag(11, c), {})]:
            with self.subTest(name), self.assertRaises(CBOREncodeValueError) as cm:
                dumps(value, **kw)
            self.assertIn("cyclic", str(cm.exception))
        # A subclass is written as its tag and value (a run of them too).
        self.assertEqual(dumps(SubTag(6, SubTag(7, [Tag(8, 1)]))), h("c6 c7 81 c8 01"))
        self.assertEqual(dumps([SubTag(1, "a")], canonical=True), h("81 c1 6161"))
        # A Mapping or Sequence the encoder converts (a new dict or list each
        # time) holding itself: a cycle (it encoded without end, eating
        # memory); the same one twice, not nested, is fine.
        import collections
        ud = collections.UserDict()
        ud["x"] = ud
        dq = collections.deque()
        dq.append([dq])
        for name, value in [("UserDict", ud), ("deque", dq)]:
            with self.subTest(name), self.assertRaises(CBOREncodeValueError) as cm:
                dumps(value)
            self.assertIn("holds itself", str(cm.exception))
        u = collections.UserDict({"a": 1})
        self.assertEqual(dumps([u, u]), h("82 a1616101 a1616101"))

        # A Sequence whose item is a new one of its kind, for ever: bounded.
        class Endless(collections.abc.Sequence):
            def __len__(self):
                return 1

            def __getitem__(self, i):
                if i:
                    raise IndexError
                return Endless()

        with self.assertRaises(CBOREncodeValueError) as cm:
            dumps(Endless())
        self.assertIn("nested deeper than 100000", str(cm.exception))
        # A cycle through a tuple with value sharing on: tuples are not
        # shared (README); the message says so (it said sharing was off).
        t = ([],)
        t[0].append(t)
        with self.assertRaises(CBOREncodeValueError) as cm:
            dumps(t, value_sharing=True)
        self.assertIn("through a tuple", str(cm.exception))
        # default= calling encode() deeper than Python's recursion limit
        # allows: the encoder's error (it was a bare RecursionError), with the
        # RecursionError as its cause; 300 levels still encode.
        class N:
            def __init__(self, n):
                self.n = n

        def nest(encoder, obj):
            encoder.encode([obj.n and N(obj.n - 1)])

        self.assertEqual(len(dumps(N(300), default=nest)), 302)
        with self.assertRaises(CBOREncodeValueError) as cm:
            dumps(N(5000), default=nest)
        self.assertIn("maximum recursion depth", str(cm.exception))
        self.assertIsInstance(cm.exception.__cause__, RecursionError)
        # Sets nested past Python's recursion limit, canonical (each level is
        # encoded apart to be sorted, in Python frames): the encoder's error.
        nested = frozenset()
        for _ in range(2000):
            nested = frozenset([nested])
        with self.assertRaises(CBOREncodeValueError) as cm:
            dumps(nested, canonical=True)
        self.assertIn("nested too deeply", str(cm.exception))
        self.assertEqual(dumps(nested)[:7], h("d90102 81 d90102"))
        # Canonical sets in sets with value sharing: each level encoded its
        # members once to sort them and again to write them, 2^depth in all
        # (20 levels took 11 s); the sort keys are taken without sharing.
        deep = frozenset()
        for i in range(40):
            deep = frozenset([deep, i])
        out = dumps(deep, canonical=True, value_sharing=True)
        self.assertEqual(loads(out), deep)
        self.assertEqual(out[:9], h("d90102 d81c 82 1827 d9"))  # 39 sorts before the set
        # Canonical map keys holding maps (each key is encoded apart to be
        # sorted, a C call per level): 30,000 deep crashed the process.
        key = FrozenDict({1: 2})
        for i in range(30000):
            key = FrozenDict({key: 0})
        with self.assertRaises(CBOREncodeValueError) as cm:
            dumps({key: 0}, canonical=True)
        self.assertIn("maximum encoding depth (500)", str(cm.exception))
        key = FrozenDict({1: 2})
        for i in range(400):
            key = FrozenDict({key: 0})
        self.assertEqual(dumps({key: 0}, canonical=True), h("a1") * 402 + h("0102") + h("00") * 401)
        # One tag object in several places, and a long run of distinct tags,
        # are not cycles.
        x = Tag(5, 1)
        self.assertEqual(dumps([x, x, Tag(9, x)]), h("83 c501 c501 c9c501"))
        deep = 0
        for _ in range(1000):
            deep = Tag(1, deep)
        self.assertEqual(dumps(deep), h("c1") * 1000 + h("00"))
        # The same object twice, not nested in itself, is fine.
        shared = [1]
        self.assertEqual(dumps([shared, shared]), h("82 8101 8101"))

    def test_surrogates(self):
        # Never a text string that is not UTF-8: every lone surrogate fails.
        for s in ("\udcff", "\ud800", "a\udfffb"):
            with self.subTest(s), self.assertRaises(CBOREncodeValueError) as cm:
                dumps([s])
            self.assertIsInstance(cm.exception.__cause__, UnicodeEncodeError)
            # chained as `raise ... from`: cause and context, traceback kept
            self.assertIs(cm.exception.__context__, cm.exception.__cause__)
            self.assertTrue(cm.exception.__suppress_context__)

    def test_invalid_utf8_chains_the_unicode_error(self):
        # 82 01 62 c3 28: the text's second byte is not a continuation byte
        with self.assertRaises(CBORDecodeError) as cm:
            loads(h("82 01 62 c328"))
        self.assertEqual(cm.exception.offset, 3)
        cause = cm.exception.__cause__
        self.assertIsInstance(cause, UnicodeDecodeError)
        self.assertEqual((cause.start, cause.end), (0, 1))
        self.assertIs(cm.exception.__context__, cause)

    def test_mutation_during_encoding_is_an_error(self):
        class Grow:
            pass

        target = [Grow(), 1]

        def default(encoder, obj):
            target.append(2)  # the list being encoded grows
            encoder.encode(0)

        with self.assertRaises(CBOREncodeError):
            dumps(target, default=default)
        d = {"a": Grow()}

        def default_dict(encoder, obj):
            d["b"] = 1
            encoder.encode(0)

        with self.assertRaises(CBOREncodeError):
            dumps(d, default=default_dict)


class Sequences(unittest.TestCase):
    def test_items(self):
        self.assertEqual(list(iter_sequence(b"")), [])
        self.assertEqual(list(iter_sequence(h("01 8202 03 6161 f7"))), [1, [2, 3], "a", undefined])

    def test_buffers_and_early_stop(self):
        data = bytearray(h("01 02 03"))
        it = iter_sequence(data)
        self.assertEqual(next(it), 1)
        it.close()  # frees the handles; the bytearray is not pinned
        data.append(4)

    def test_close_and_next_from_a_hook(self):
        # A hook of the iterator closing it, or asking it for the next item,
        # while it decodes an item (both freed the decoder under it: a
        # segfault). close() stops the iteration once the item is done.
        def closing(tag, immutable):
            it.close()
            return tag.value

        it = iter_sequence(h("c601 c602 03"), tag_hook=closing)
        self.assertEqual(list(it), [])
        with self.assertRaises(StopIteration):
            next(it)
        seen = []

        def nexting(tag, immutable):
            with self.assertRaises(RuntimeError) as cm:
                next(it2)
            seen.append(str(cm.exception))
            return tag.value

        it2 = iter_sequence(h("c601 02"), tag_hook=nexting)
        self.assertEqual(list(it2), [1, 2])
        self.assertEqual(seen, ["iter_sequence: next() called while it runs"])

        def closing_object(decoder, obj):
            it3.close()
            return obj

        it3 = iter_sequence(h("a10102 a10304"), object_hook=closing_object)
        self.assertEqual(list(it3), [])

    def test_close_from_another_thread(self):
        # close() while another thread is inside next() (the library runs
        # with the GIL released): no crash; the iteration stops.
        import threading
        data = dumps(list(range(200))) * 5000
        for _ in range(20):
            it = iter_sequence(data)
            got = []
            errors = []

            def run():
                try:
                    for v in it:
                        got.append(v)
                except Exception as e:  # noqa: BLE001 - any error fails the test
                    errors.append(e)

            th = threading.Thread(target=run)
            th.start()
            it.close()
            th.join()
            self.assertEqual(errors, [])
            self.assertLessEqual(len(got), 5000)
            with self.assertRaises(StopIteration):
                next(it)


class ReaderTests(unittest.TestCase):
    def test_items(self):
        data = h("a2 6161 01 6162 9f f93e00 ff")  # {"a": 1, "b": [_ 1.5]}
        with Reader(data) as r:
            items = list(r)
        kinds = [(it.type, it.depth, it.offset) for it in items]
        self.assertEqual(kinds, [
            (ItemType.MAP, 0, 0), (ItemType.TEXT, 1, 1), (ItemType.UINT, 1, 3),
            (ItemType.TEXT, 1, 4), (ItemType.ARRAY, 1, 6), (ItemType.FLOAT, 2, 7),
            (ItemType.END, 1, 10), (ItemType.END, 0, 11)])
        self.assertEqual(items[0].value, 2)
        self.assertIsNone(items[4].value)
        self.assertTrue(items[4].indefinite)
        self.assertEqual((items[5].value, items[5].float_width), (1.5, 2))
        self.assertTrue(items[6].is_break)
        self.assertEqual(items[6].head_size, 1)
        self.assertFalse(items[7].is_break)
        self.assertEqual(items[7].head_size, 0)
        self.assertIsInstance(items[0], Item)

    def test_values_by_type(self):
        data = h("20 c1 00 f0 f5 f6 f7 3bffffffffffffffff")
        with Reader(data) as r:
            values = [(it.type, it.value) for it in r]
        self.assertEqual(values, [
            (ItemType.NEGATIVE, -1), (ItemType.TAG, 1), (ItemType.UINT, 0),
            (ItemType.SIMPLE, 16), (ItemType.BOOL, True), (ItemType.NULL, None),
            (ItemType.UNDEFINED, undefined), (ItemType.NEGATIVE, -2**64)])

    def test_strings_are_views_into_the_input(self):
        data = h("82 43616263 62c3a9")
        r = Reader(data)
        next(r)
        b = next(r).value
        t = next(r).value
        self.assertIsInstance(b, memoryview)
        self.assertIs(b.obj, data)  # a view of the caller's object: no copy
        self.assertEqual(bytes(b), b"abc")
        self.assertEqual(str(t, "utf-8"), "\u00e9")
        r.close()
        del r
        gc.collect()
        self.assertEqual(bytes(b), b"abc")  # views keep the input alive on their own

    def test_bytearray_input_is_pinned_while_viewed(self):
        data = bytearray(h("4161"))
        r = Reader(data)
        view = next(r).value
        self.assertEqual(view.tobytes(), b"a")
        with self.assertRaises(BufferError):
            data.append(0)
        r.close()
        with self.assertRaises(BufferError):
            data.append(0)  # the view is still alive
        view.release()
        data.append(0)

    def test_read_only_buffers_are_copied(self):
        source = h("00 4161")
        view = memoryview(source)
        with Reader(view) as r:
            next(r)
            b = next(r).value
        self.assertEqual(bytes(b), b"a")  # a view into the read-only input, no copy

    def test_join_skip_finish(self):
        # [1, (_ "ab", "c"), [2, 3], 4] then 5
        data = h("84 01 7f 6261 62 6163 ff 82 02 03 04 05")
        r = Reader(data)
        self.assertEqual(next(r).type, ItemType.ARRAY)
        self.assertEqual(next(r).value, 1)
        start = next(r)
        self.assertTrue(start.indefinite)
        self.assertEqual(r.join(), b"abc")
        self.assertTrue(r.skip())  # the [2, 3]
        self.assertEqual(r.offset, 12)
        self.assertEqual(r.depth, 1)
        self.assertEqual(next(r).value, 4)
        self.assertFalse(r.skip())  # only the array's END is left
        self.assertEqual(next(r).type, ItemType.END)
        with self.assertRaises(CBORDecodeError) as cm:
            r.finish()
        self.assertEqual((cm.exception.status, cm.exception.offset), ("trailing_bytes", 13))
        self.assertEqual(next(r).value, 5)
        r.finish()
        self.assertFalse(r.skip())
        with self.assertRaises(StopIteration):
            next(r)
        r.close()
        with self.assertRaises(ValueError):
            next(r)

    def test_join_definite_is_a_view(self):
        data = h("43616263")
        with Reader(data) as r:
            next(r)
            joined = r.join()
            self.assertIs(joined.obj, data)
            self.assertEqual(bytes(joined), b"abc")
        with Reader(h("01")) as r:
            next(r)
            with self.assertRaises(ValueError):
                r.join()

    def test_skip_to_end(self):
        with Reader(h("83 8201 09 02 08 03")) as r:
            next(r)
            self.assertEqual(next(r).value, 2)  # the inner array's head
            r.skip_to_end()  # its 1, 9 and END
            self.assertEqual(next(r).value, 2)
            r.skip_to_end()  # the outer 8 and END
            self.assertEqual(next(r).value, 3)
            with self.assertRaises(ValueError):
                r.skip_to_end()

    def test_finish_truncated_and_open(self):
        with Reader(h("9f 01")) as r:
            next(r)
            next(r)
            with self.assertRaises(CBORDecodeError) as cm:
                r.finish()
            self.assertEqual((cm.exception.status, cm.exception.offset), ("truncated", 2))
        with Reader(h("82 01 02")) as r:
            next(r)
            with self.assertRaises(ValueError):
                r.finish()

    def test_options(self):
        with Reader(h("8180"), max_depth=1) as r:
            next(r)
            with self.assertRaises(CBORDecodeError) as cm:
                next(r)
            self.assertEqual((cm.exception.status, cm.exception.offset), ("depth_exceeded", 1))
        with Reader(h("61ff"), strict_utf8=True) as r:
            with self.assertRaises(CBORDecodeError) as cm:
                next(r)
            self.assertEqual(cm.exception.status, "invalid_utf8")
        with Reader(h("61ff")) as r:
            self.assertEqual(bytes(next(r).value), b"\xff")


DEEP = 10000


class DeepNesting(unittest.TestCase):
    """10,000 levels decode and encode without recursion (and without crashing)."""

    def test_arrays(self):
        data = b"\x81" * (DEEP - 1) + b"\x80"
        with self.assertRaises(CBORDecodeError) as cm:
            loads(data)
        self.assertEqual((cm.exception.status, cm.exception.offset), ("depth_exceeded", 512))
        value = loads(data, max_depth=DEEP)
        self.assertEqual(nested_depth(value), (DEEP - 1, []))
        self.assertEqual(dumps(value), data)
        with self.assertRaises(CBORDecodeError):
            loads(data, max_depth=DEEP - 1)

    def test_indefinite_arrays(self):
        data = b"\x9f" * DEEP + b"\xff" * DEEP
        value = loads(data, max_depth=DEEP)
        self.assertEqual(nested_depth(value), (DEEP - 1, []))
        self.assertEqual(dumps(value), b"\x81" * (DEEP - 1) + b"\x80")

    def test_maps_and_tags(self):
        data = b"\xa1\x00" * DEEP + b"\x00"
        value = loads(data, max_depth=DEEP)
        self.assertEqual(nested_depth(value), (DEEP, 0))
        self.assertEqual(dumps(value), data)
        data = b"\xc6" * DEEP + b"\x00"
        value = loads(data, max_depth=DEEP)
        self.assertEqual(nested_depth(value), (DEEP, 0))
        self.assertEqual(dumps(value), data)

    def test_deep_map_key(self):
        # Hashing a key recurses in C: keys (and set members) nest at most
        # 1000 deep whatever max_depth allows; the 1001st level is refused.
        data = b"\xa1" + b"\x81" * 999 + b"\x80" + b"\x00"
        value = loads(data, max_depth=DEEP)
        (key,) = value
        self.assertIs(type(key), tuple)
        self.assertEqual(nested_depth(key), (999, ()))
        self.assertEqual(dumps(value), data)
        data = b"\xa1" + b"\x81" * (DEEP - 2) + b"\x80" + b"\x00"
        with self.assertRaises(CBORDecodeError) as cm:
            loads(data, max_depth=DEEP)
        self.assertEqual((cm.exception.status, cm.exception.offset), ("depth_exceeded", 1001))

    def test_reader_and_sequence(self):
        data = b"\x81" * (DEEP - 1) + b"\x80"
        with Reader(data, max_depth=DEEP) as r:
            depths = [it.depth for it in r if it.type == ItemType.ARRAY]
        self.assertEqual(depths, list(range(DEEP)))
        (value,) = iter_sequence(data + b"", max_depth=DEEP)
        self.assertEqual(nested_depth(value), (DEEP - 1, []))

    def test_dumps_deep_python_structure(self):
        value = []
        for _ in range(DEEP):
            value = [value]
        self.assertEqual(dumps(value), b"\x81" * DEEP + b"\x80")


if __name__ == "__main__":
    unittest.main()


class NoOffsetTimezones(unittest.TestCase):
    def test_a_tzinfo_without_offset_is_naive(self):
        import datetime as dt

        class NoOffset(dt.tzinfo):
            def utcoffset(self, d):
                return None

        when = dt.datetime(2020, 1, 1, tzinfo=NoOffset())
        # Python's rule: naive (it was written as text without an offset,
        # which loads refuses, or failed with AttributeError as a timestamp)
        for kw in ({}, {"datetime_as_timestamp": True}):
            with self.subTest(**kw), self.assertRaises(CBOREncodeValueError) as cm:
                dumps(when, **kw)
            self.assertIn("naive datetime", str(cm.exception))
        self.assertEqual(dumps(when, timezone=dt.timezone.utc),
                         h("c0 74") + b"2020-01-01T00:00:00Z")
        self.assertEqual(dumps(when, timezone=dt.timezone.utc, datetime_as_timestamp=True),
                         h("c1 1a5e0be100"))
        with self.assertRaises(CBOREncodeValueError) as cm:
            dumps(dt.datetime(2020, 1, 1), timezone=NoOffset())
        self.assertIn("gives no UTC offset", str(cm.exception))


def test_keyword_options_parsed_in_one_pass():
    # loads() matches its keywords in one pass over them (the general
    # parser made a str of each name it looked for); anything unusual goes
    # to the general parser, for its errors. Either way, the same options.
    msg = cbor_fast.dumps({"a": [1, b"x"]})
    assert cbor_fast.loads(msg, immutable=True, str_errors="replace", max_depth=5) == \
        cbor_fast.FrozenDict({"a": (1, b"x")})
    # a name built at run time (not interned) is matched too
    name = "".join(["immu", "table"])
    assert cbor_fast.loads(msg, **{name: True}) == cbor_fast.FrozenDict({"a": (1, b"x")})
    # truth values as the general parser takes them
    assert cbor_fast.loads(msg, immutable=[]) == {"a": [1, b"x"]}
    assert cbor_fast.loads(msg, immutable=0, max_depth=0) == {"a": [1, b"x"]}
    with pytest.raises(ValueError, match="max_depth"):
        cbor_fast.loads(msg, max_depth=None)

    class Bad:
        def __bool__(self):
            raise ZeroDivisionError("no truth")

    with pytest.raises(ZeroDivisionError):
        cbor_fast.loads(msg, immutable=Bad())
    # data by keyword, an unknown name, a str_errors that is not a str or
    # holds a NUL: the general parser and its errors
    assert cbor_fast.loads(data=b"\x01") == 1
    with pytest.raises(TypeError, match="bogus"):
        cbor_fast.loads(msg, bogus=1)
    with pytest.raises(TypeError):
        cbor_fast.loads(msg, str_errors=1)
    with pytest.raises(ValueError):
        cbor_fast.loads(msg, str_errors="re\0place")
    with pytest.raises(TypeError):
        cbor_fast.loads(msg, b"\x01")
    # the limits: max_items over 3 items refuses the 4-item message
    with pytest.raises(cbor_fast.CBORDecodeError) as e:
        cbor_fast.loads(msg, max_items=3)
    assert e.value.status == "too_many_items"
    # and the stream paths, which share the parser
    assert cbor_fast.load(io.BytesIO(msg), immutable=True) == cbor_fast.FrozenDict({"a": (1, b"x")})
    assert list(cbor_fast.iter_sequence(msg + b"\x02", immutable=True))[1] == 2


def test_no_keywords_skip_the_parser():
    # loads(data) with no keywords takes its one argument without the
    # general parser (its pass over the format was most of loads(b"\x01")'s
    # own cost); two or none go to it for its errors. (name, call, result)
    msg = cbor_fast.dumps({"a": [1, b"x"]})
    assert cbor_fast.loads(msg) == {"a": [1, b"x"]}
    assert cbor_fast.loads(b"\x01") == 1
    assert cbor_fast.loads(bytearray(b"\x01")) == 1
    assert cbor_fast.loads(memoryview(b"\x82\x01\x02")) == [1, 2]
    assert list(cbor_fast.iter_sequence(b"\x01\x02")) == [1, 2]
    assert cbor_fast.load(io.BytesIO(b"\x03")) == 3
    for name, call in (("none", lambda: cbor_fast.loads()),
                       ("two", lambda: cbor_fast.loads(b"\x01", b"\x02")),
                       ("three to iter_sequence", lambda: cbor_fast.iter_sequence(b"", b"", b""))):
        try:
            call()
        except TypeError:
            continue
        raise AssertionError(f"{name}: no TypeError")
    # not a buffer: the same TypeError as before
    with pytest.raises(TypeError):
        cbor_fast.loads("text")
    with pytest.raises(TypeError):
        cbor_fast.loads(None)
    # the defaults are those of the keyword path (given a default keyword):
    # the same value or the same error for each row
    rows = [
        ("indefinite array", "9f0102ff"),
        ("duplicate keys", "a2616101616102"),
        ("invalid UTF-8", "62c328"),
        ("512 levels", "81" * 511 + "00"),
        ("513 levels", "81" * 512 + "00"),
        ("a tag", "c11a5e0be100"),
        ("a map key that is a list", "a1820102f6"),
        ("trailing bytes", "0102"),
        ("truncated", "82"),
        ("a long string", "7a00010000" + "61" * 65536),
    ]

    def outcome(f):
        try:
            return ("value", f())
        except Exception as e:  # noqa: BLE001 -- any error, compared
            return (type(e), str(e))

    for name, hexdata in rows:
        data = bytes.fromhex(hexdata)
        plain = outcome(lambda: cbor_fast.loads(data))
        keyed = outcome(lambda: cbor_fast.loads(data, immutable=False))
        assert plain == keyed, name


def test_the_kept_reader_takes_no_options_along():
    # A one-shot decode keeps its decoder block, and its reader when that
    # has the default options, for the next call: options of one call must
    # not reach the next, in either order, nor an error. (name, call, want)
    deep6 = b"\x81" * 6 + b"\x00"
    deep513 = b"\x81" * 513 + b"\x00"
    dup = bytes.fromhex("a2616101616102")
    nested6 = [[[[[[0]]]]]]

    def depth_error(**options):
        with pytest.raises(cbor_fast.CBORDecodeError) as e:
            cbor_fast.loads(deep6, **options)
        return e.value.status

    sequence = [
        ("default", lambda: cbor_fast.loads(deep6), nested6),
        ("max_depth 5", lambda: depth_error(max_depth=5), "depth_exceeded"),
        ("default after max_depth 5", lambda: cbor_fast.loads(deep6), nested6),
        ("duplicates refused", lambda: outcome_status(dup, allow_duplicate_keys=False),
         "duplicate_key"),
        ("duplicates after", lambda: cbor_fast.loads(dup), {"a": 2}),
        ("an error", lambda: outcome_status(b"\x82\x01"), "truncated"),
        ("after the error", lambda: cbor_fast.loads(b"\x82\x01\x02"), [1, 2]),
        ("513 levels at the default", lambda: outcome_status(deep513), "depth_exceeded"),
        ("strict UTF-8 after the default", lambda: outcome_status(b"\x62\xc3\x28", strict_utf8=True),
         "invalid_utf8"),
        ("default again", lambda: cbor_fast.loads(b"\x01"), 1),
    ]
    for name, call, want in sequence:
        assert call() == want, name


def outcome_status(data, **options):
    try:
        cbor_fast.loads(data, **options)
    except cbor_fast.CBORDecodeError as e:
        return e.status
    return "ok"


def test_threads_decoding_with_and_without_options():
    # Threads share the one kept decoder slot (taken and given back with the
    # GIL; a large input lets the GIL go while its batches are read, so the
    # others decode meanwhile): every result as decoded alone.
    big = cbor_fast.dumps(list(range(40000)))  # > 64 KiB: the GIL is let go
    deep6 = b"\x81" * 6 + b"\x00"
    errors = []

    def work(k):
        try:
            for i in range(150):
                if (i + k) % 3 == 0:
                    assert cbor_fast.loads(big)[-1] == 39999
                elif (i + k) % 3 == 1:
                    assert cbor_fast.loads(deep6) == [[[[[[0]]]]]]
                else:
                    with pytest.raises(cbor_fast.CBORDecodeError) as e:
                        cbor_fast.loads(deep6, max_depth=5)
                    assert e.value.status == "depth_exceeded"
        except BaseException as e:  # noqa: BLE001 -- reported below
            errors.append((k, e))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []

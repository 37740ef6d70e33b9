"""Streamed decoding from files: load(fp) and CBORDecoder(fp).decode().

Files that return one byte per read, random-sized reads, only read() (no
readinto), pipes; the corpus as a sequence item by item; truncation, the
max_buffer bound and a length bomb, each with its offset."""

import io
import os
import random
import threading
import tracemalloc
import unittest

from support import canon, h, require_corpus

import cbor_fast
from cbor_fast import CBORDecodeEOF, CBORDecodeError, CBORDecoder, dumps, load, loads


class ChunkedFile(io.RawIOBase):
    """A file that cannot seek, giving at most `sizes()` bytes per read; it
    records the buffer sizes asked for and the reads made."""

    def __init__(self, data, sizes=lambda: 1 << 30):
        self.data = bytes(data)
        self.pos = 0
        self.sizes = sizes
        self.asked = []

    def readable(self):
        return True

    def readinto(self, b):
        self.asked.append(len(b))
        n = min(len(b), self.sizes(), len(self.data) - self.pos)
        b[:n] = self.data[self.pos:self.pos + n]
        self.pos += n
        return n


class ReadOnlyFile:
    """An object with read() only (no readinto, no seek), as cbor2 accepts."""

    def __init__(self, data, step):
        self.data = bytes(data)
        self.pos = 0
        self.step = step

    def read(self, n):
        n = min(n, self.step)
        out = self.data[self.pos:self.pos + n]
        self.pos += len(out)
        return out


class ZeroFile(io.RawIOBase):
    """Zero bytes after `head`, without end, counting the bytes handed out."""

    def __init__(self, head):
        self.head = head
        self.given = 0
        self.asked = []

    def readable(self):
        return True

    def readinto(self, b):
        self.asked.append(len(b))
        n = len(b)
        for i in range(n):
            at = self.given + i
            b[i] = self.head[at] if at < len(self.head) else 0
        self.given += n
        return n


def corpus_docs():
    path = require_corpus()
    docs = []
    for name in ("twitter.cbor", "citm_catalog.cbor", "canada.cbor"):
        with open(os.path.join(path, name), "rb") as f:
            docs.append(f.read())
    return docs


def decode_all(decoder, count):
    return [decoder.decode() for _ in range(count)]


SMALL = [h("01"), h("8301820203820405"), h("a26161016162820203"), h("60"), h("f6"),
         h("5f42010243030405ff"), h("da000186a001"), h("fb3ff199999999999a")]


class Sequences(unittest.TestCase):
    def check_sequence(self, items, make_file):
        data = b"".join(items)
        f = make_file(data)
        dec = CBORDecoder(f)
        offset = 0
        for i, item in enumerate(items):
            self.assertEqual(dec.offset, offset, "item %d" % i)
            self.assertEqual(canon(dec.decode()), canon(loads(item)), "item %d" % i)
            offset += len(item)
        with self.assertRaises(CBORDecodeEOF) as cm:
            dec.decode()
        self.assertEqual((cm.exception.status, cm.exception.offset, cm.exception.item_offset),
                         ("truncated", len(data), len(data)))
        return f

    def test_small_items_one_byte_per_read(self):
        f = self.check_sequence(SMALL, lambda d: ChunkedFile(d, lambda: 1))
        self.assertEqual(f.pos, len(f.data))

    def test_corpus_one_byte_per_read(self):
        docs = corpus_docs()
        self.check_sequence(docs, lambda d: ChunkedFile(d, lambda: 1))

    def test_corpus_random_reads(self):
        docs = corpus_docs()
        for seed in range(3):
            rng = random.Random(seed)
            items = list(docs) + SMALL
            rng.shuffle(items)
            self.check_sequence(items, lambda d: ChunkedFile(d, lambda: rng.randint(1, 100000)))

    def test_read_only_object(self):
        docs = corpus_docs()
        self.check_sequence(docs + SMALL, lambda d: ReadOnlyFile(d, 7777))

    def test_bytesio(self):
        self.check_sequence(corpus_docs() + SMALL, io.BytesIO)

    def test_reads_in_blocks(self):
        # three corpus documents (about 2.5 MB) in reads of 64 KiB and more,
        # not one read per head
        docs = corpus_docs()
        f = self.check_sequence(docs, ChunkedFile)
        total = sum(len(d) for d in docs)
        self.assertGreaterEqual(min(f.asked), 1)
        self.assertLessEqual(len(f.asked), total // 65536 + 8)
        self.assertEqual(max(f.asked) <= 8 << 20, True)

    def test_pipe(self):
        docs = corpus_docs()
        data = b"".join(docs + SMALL)
        r, w = os.pipe()

        def writer():
            with os.fdopen(w, "wb") as fw:
                for i in range(0, len(data), 4093):
                    fw.write(data[i:i + 4093])
                    fw.flush()

        t = threading.Thread(target=writer)
        t.start()
        try:
            with os.fdopen(r, "rb", buffering=0) as fr:
                dec = CBORDecoder(fr)
                for item in docs + SMALL:
                    self.assertEqual(canon(dec.decode()), canon(loads(item)))
                with self.assertRaises(CBORDecodeEOF) as cm:
                    dec.decode()
                self.assertEqual(cm.exception.offset, len(data))
        finally:
            t.join()

    def test_conversation_over_a_buffered_pipe(self):
        # the peer sends one item and waits for it to be read before it sends
        # the next: decode() returns with what came (a buffered file's
        # readinto1, not readinto, which would wait for 64 KiB)
        first, second = dumps({"ask": 1}), dumps([2] * 10)
        r, w = os.pipe()
        answered = threading.Event()
        got, peer_saw_answer = [], []

        def peer():
            with os.fdopen(w, "wb") as fw:
                fw.write(first)
                fw.flush()
                peer_saw_answer.append(answered.wait(10))
                fw.write(second)

        def reader():
            with os.fdopen(r, "rb") as fr:
                dec = CBORDecoder(fr)
                got.append(dec.decode())
                answered.set()
                got.append(dec.decode())

        threads = [threading.Thread(target=peer, daemon=True),
                   threading.Thread(target=reader, daemon=True)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        answered.set()
        self.assertEqual(peer_saw_answer, [True])
        self.assertEqual(got, [{"ask": 1}, [2] * 10])

    def test_load_twice_from_a_pipe(self):
        # load() on a file that cannot seek reads only the item's bytes, so
        # the next load() finds the next item
        first, second = dumps({"a": [1, 2.5, "x" * 100]}), dumps([b"y" * 70000, 3])
        r, w = os.pipe()

        def writer():
            with os.fdopen(w, "wb") as fw:
                fw.write(first + second)

        t = threading.Thread(target=writer)
        t.start()
        try:
            with os.fdopen(r, "rb") as fr:
                self.assertEqual(load(fr), loads(first))
                self.assertEqual(load(fr), loads(second))
                with self.assertRaises(CBORDecodeEOF):
                    load(fr)
        finally:
            t.join()


class TwoItems(unittest.TestCase):
    FIRST = h("a2616101616282f5f6")  # {"a": 1, "b": [true, null]}
    SECOND = h("6568656c6c6f")  # "hello"

    def test_second_item_from_second_decode(self):
        f = ChunkedFile(self.FIRST + self.SECOND)
        dec = CBORDecoder(f)
        self.assertEqual(dec.decode(), {"a": 1, "b": [True, None]})
        self.assertEqual(f.pos, len(self.FIRST + self.SECOND))  # read in one block
        self.assertEqual(dec.decode(), "hello")
        self.assertEqual(dec.offset, len(self.FIRST + self.SECOND))

    def test_load_reads_no_byte_past_the_item(self):
        f = ChunkedFile(self.FIRST + self.SECOND)
        self.assertEqual(load(f), {"a": 1, "b": [True, None]})
        self.assertEqual(f.pos, len(self.FIRST))
        self.assertEqual(load(f), "hello")
        self.assertEqual(f.pos, len(self.FIRST + self.SECOND))

    def test_load_seeks_back(self):
        f = io.BytesIO(b"\x00" * 3 + self.FIRST + self.SECOND)
        f.seek(3)
        self.assertEqual(load(f), {"a": 1, "b": [True, None]})
        self.assertEqual(f.tell(), 3 + len(self.FIRST))
        self.assertEqual(load(f), "hello")
        self.assertEqual(f.tell(), 3 + len(self.FIRST + self.SECOND))

    def test_immutable(self):
        dec = CBORDecoder(io.BytesIO(self.FIRST + self.FIRST))
        self.assertIsInstance(dec.decode(immutable=True), cbor_fast.FrozenDict)
        self.assertIsInstance(dec.decode(), dict)

    def test_new_fp_drops_the_buffer(self):
        dec = CBORDecoder(io.BytesIO(self.FIRST + self.SECOND))
        dec.decode()
        dec.fp = io.BytesIO(h("03"))
        self.assertEqual(dec.decode(), 3)


class Errors(unittest.TestCase):
    def error(self, data, sizes=lambda: 1 << 30, skip=0, **options):
        dec = CBORDecoder(ChunkedFile(data, sizes), **options)
        for _ in range(skip):
            dec.decode()
        with self.assertRaises(CBORDecodeError) as cm:
            dec.decode()
        e = cm.exception
        return e.status, e.offset, e.item_offset

    def test_truncated_inside_an_item(self):
        # 01, then [1, "a<missing>": loads gives truncated at 2 for the item,
        # the stream at 1 + 2
        item = h("82016261")
        with self.assertRaises(CBORDecodeEOF) as cm:
            loads(item)
        self.assertEqual(cm.exception.offset, 2)
        for sizes in (lambda: 1, lambda: 1 << 30):
            self.assertEqual(self.error(h("01") + item, sizes, skip=1), ("truncated", 3, 1))

    def test_max_items_per_item(self):
        # max_items bounds each item of the stream, never the stream: 1000
        # items [0] (two heads each) under max_items=2, one byte per read and
        # all at once; then an item of three heads fails at its third (offset
        # 2 of the second item, 4 in the stream), item offset 2.
        for sizes in (lambda: 1, lambda: 1 << 30):
            dec = CBORDecoder(ChunkedFile(h("8100") * 1000, sizes), max_items=2)
            self.assertEqual([dec.decode() for _ in range(1000)], [[0]] * 1000)
            self.assertEqual(self.error(h("8100") + h("820000"), sizes, skip=1, max_items=2),
                             ("too_many_items", 4, 2))

    def test_truncated_is_eof(self):
        dec = CBORDecoder(io.BytesIO(h("1901")))
        with self.assertRaises(EOFError):
            dec.decode()

    def test_truncated_item_completes_when_the_file_grows(self):
        f = io.BytesIO(h("8201"))
        dec = CBORDecoder(f)
        with self.assertRaises(CBORDecodeEOF):
            dec.decode()
        f.write(h("02"))
        f.seek(2)
        self.assertEqual(dec.decode(), [1, 2])

    def test_eof_between_items(self):
        self.assertEqual(self.error(b""), ("truncated", 0, 0))
        self.assertEqual(self.error(h("0102"), skip=2), ("truncated", 2, 2))
        with self.assertRaises(CBORDecodeEOF):
            load(io.BytesIO(b""))

    def test_malformed_offsets_from_the_stream(self):
        # reserved additional information: found by the scanning reader
        self.assertEqual(self.error(h("01 1c"), skip=1), ("reserved_additional_info", 1, 1))
        self.assertEqual(self.error(h("01 81 1c"), lambda: 1, skip=1),
                         ("reserved_additional_info", 2, 1))
        # a strict check: made by the decoder over the item's bytes
        self.assertEqual(self.error(h("01 a2 0101 0102"), skip=1, allow_duplicate_keys=False),
                         ("duplicate_key", 4, 1))
        self.assertEqual(self.error(h("0102 62c328"), skip=2, strict_utf8=True),
                         ("invalid_utf8", 3, 2))
        # a semantic error (tag 0 over an integer): its tag's offset
        self.assertEqual(self.error(h("01 c0 01"), skip=1), (None, 1, 1))

    def test_depth_limit_while_scanning(self):
        self.assertEqual(self.error(h("01 818181 01"), lambda: 1, skip=1, max_depth=2),
                         ("depth_exceeded", 3, 1))

    def test_the_decoders_earlier_error_comes_first(self):
        # Where the decoder's own check (text as UTF-8) fails before the
        # reader's error further on, the stream gives loads()'s error (it gave
        # the reader's): {22: "\x01", "\xd9": <break>} is invalid UTF-8 at 5
        # before the missing value at 6; ["\xc3" <break>] at 2 before 3.
        for hexa, want in [("bf 16 6101 61d9 ff", ("invalid_utf8", 5)),
                           ("82 61c3 ff", ("invalid_utf8", 2))]:
            with self.assertRaises(CBORDecodeError) as cm:
                loads(h(hexa))
            self.assertEqual((cm.exception.status, cm.exception.offset), want, hexa)
            for sizes in (lambda: 1, lambda: 1 << 30):
                self.assertEqual(self.error(h("00") + h(hexa), sizes, skip=1)[:2],
                                 (want[0], want[1] + 1), hexa)
        # A count larger than the bytes left: loads() says truncated at the
        # head; a stream, which cannot know the bytes to come, reads on to
        # the break in the definite array.
        with self.assertRaises(CBORDecodeEOF) as cm:
            loads(h("9f 9f 8b ff 16 a2 ff"))
        self.assertEqual(cm.exception.offset, 2)
        self.assertEqual(self.error(h("9f 9f 8b ff 16 a2 ff"))[:2], ("unexpected_break", 3))

    def test_item_over_max_buffer(self):
        item = dumps(b"x" * 2000)  # 59 07d0 ...: 2003 bytes
        data = h("01") + item + h("02")
        # boundary rows: an item of exactly max_buffer bytes decodes
        dec = CBORDecoder(ChunkedFile(data), max_buffer=len(item))
        self.assertEqual(decode_all(dec, 3), [1, b"x" * 2000, 2])
        # one byte fewer: memory_budget_exceeded at the item's offset
        for sizes in (lambda: 1 << 30, lambda: 1, lambda: 333):
            self.assertEqual(self.error(data, sizes, skip=1, max_buffer=len(item) - 1),
                             ("memory_budget_exceeded", 1, 1))
        with self.assertRaises(CBORDecodeError) as cm:
            load(io.BytesIO(item), max_buffer=1000)
        self.assertEqual((cm.exception.status, cm.exception.offset), ("memory_budget_exceeded", 0))

    def test_item_over_max_buffer_cut_short_is_truncated(self):
        # 1500 of the item's 2003 bytes: with max_buffer 1000 the buffer fills
        # first (memory_budget_exceeded); with 1600 the input ends first
        # (truncated, as loads says for those bytes)
        item = dumps(b"x" * 2000)[:1500]
        self.assertEqual(self.error(h("01") + item, skip=1, max_buffer=1000),
                         ("memory_budget_exceeded", 1, 1))
        self.assertEqual(self.error(h("01") + item, skip=1, max_buffer=1600),
                         ("truncated", 1, 1))

    def test_length_bomb(self):
        # a 5-byte head declaring a 2**32 - 1 byte string, then the end
        bomb = h("5a ffffffff")
        f = ChunkedFile(bomb)
        tracemalloc.start()
        try:
            with self.assertRaises(CBORDecodeEOF) as cm:
                CBORDecoder(f).decode()
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        self.assertEqual((cm.exception.status, cm.exception.offset), ("truncated", 0))
        self.assertLessEqual(max(f.asked), 65536)
        self.assertLess(peak, 4 << 20)
        # a file that keeps giving bytes: read up to max_buffer, then refused
        z = ZeroFile(bomb)
        with self.assertRaises(CBORDecodeError) as cm:
            CBORDecoder(z, max_buffer=1 << 20).decode()
        self.assertEqual((cm.exception.status, cm.exception.offset), ("memory_budget_exceeded", 0))
        self.assertEqual(z.given, 1 << 20)
        # a bomb with 64 bits of length: the same bound
        z = ZeroFile(h("5b 0000000100000000"))
        with self.assertRaises(CBORDecodeError) as cm:
            CBORDecoder(z, max_buffer=300000).decode()
        self.assertEqual(cm.exception.status, "memory_budget_exceeded")
        self.assertEqual(z.given, 300000)

    def test_array_count_bomb(self):
        # 2**32 entries declared: container_too_large at the head (the
        # default max_container_items), before the entries are read
        self.assertEqual(self.error(h("01 9b 0000000100000000 01"), skip=1),
                         ("container_too_large", 1, 1))

    def test_bad_arguments(self):
        for bad in (0, -1, "1", True):
            with self.assertRaises(ValueError):
                CBORDecoder(io.BytesIO(b""), max_buffer=bad)
        with self.assertRaises(TypeError):
            CBORDecoder(object())
        with self.assertRaises(TypeError):
            CBORDecoder(io.StringIO("x")).decode()

    def test_file_returning_too_much(self):
        class Liar(io.RawIOBase):
            def readinto(self, b):
                return len(b) + 1

        with self.assertRaises(ValueError):
            CBORDecoder(Liar()).decode()

    def test_reentrant_decode_refused(self):
        dec = None

        class Reentrant(io.RawIOBase):
            def readinto(self, b):
                dec.decode()

        dec = CBORDecoder(Reentrant())
        with self.assertRaises(RuntimeError):
            dec.decode()


class FailingFile(io.RawIOBase):
    def readinto(self, b):
        raise OSError("gone")


class SeekableChunkedFile(ChunkedFile):
    """A ChunkedFile that can seek (load() seeks back over what it read past
    the item)."""

    def seekable(self):
        return True

    def seek(self, offset, whence=io.SEEK_SET):
        self.pos = offset if whence == io.SEEK_SET else self.pos + offset
        return self.pos


class ReadSize(unittest.TestCase):
    """cbor2's read_size: the least bytes asked for in one read from a file
    that can seek (a file that cannot is read exactly, as cbor2 ignores it
    there); below the 64 KiB block it changes nothing."""

    ITEMS = [list(range(i, i + 40000)) for i in range(3)]  # about 180 KB each

    def data(self):
        return b"".join(dumps(v) for v in self.ITEMS)

    def decode_all(self, f, **options):
        dec = CBORDecoder(f, **options)
        self.assertEqual([dec.decode() for _ in self.ITEMS], self.ITEMS)
        self.assertEqual(dec.offset, len(self.data()))
        return f.asked

    def test_decoder_asks_read_size_at_least(self):
        asked = self.decode_all(ChunkedFile(self.data()), read_size=300000)
        self.assertEqual(asked[0], 300000)
        self.assertGreaterEqual(min(asked), 300000)
        # default and small values: blocks of 64 KiB
        for options in ({}, {"read_size": 100}, {"read_size": None}):
            asked = self.decode_all(ChunkedFile(self.data()), **options)
            self.assertEqual(asked[0], 65536, options)
            self.assertGreaterEqual(min(asked), 65536, options)
        self.assertEqual(CBORDecoder(io.BytesIO(b""), read_size=300000).read_size, 300000)

    def test_load(self):
        data = self.data()
        f = SeekableChunkedFile(data)
        self.assertEqual(load(f, read_size=300000), self.ITEMS[0])
        self.assertEqual(f.asked[0], 300000)
        self.assertEqual(f.pos, len(dumps(self.ITEMS[0])))  # seeked back after the item
        # a file that cannot seek: the item's bytes only, read_size or not
        plain = ChunkedFile(data)
        self.assertEqual(load(plain), self.ITEMS[0])
        sized = ChunkedFile(data)
        self.assertEqual(load(sized, read_size=300000), self.ITEMS[0])
        self.assertEqual(sized.asked, plain.asked)
        self.assertEqual(sized.pos, len(dumps(self.ITEMS[0])))

    def test_load_starts_small(self):
        # load() reads one item and seeks back over the rest: its reads start
        # at 4 KiB and double up to the 64 KiB block (a 64 KiB read for a
        # 20-byte item was most of its time); the decoder's reads stay 64 KiB
        data = self.data()
        f = SeekableChunkedFile(data)
        self.assertEqual(load(f), self.ITEMS[0])
        first = len(dumps(self.ITEMS[0]))
        self.assertGreater(first, 4096 + 8192 + 16384 + 32768)  # 119,... bytes
        self.assertEqual(f.asked, [4096, 8192, 16384, 32768, 65536])
        self.assertEqual(f.pos, first)
        small = SeekableChunkedFile(b"\xa1\x61a\x01" + data)
        self.assertEqual(load(small), {"a": 1})
        self.assertEqual((small.asked, small.pos), ([4096], 4))
        # a boundary: an item of exactly 4096 bytes, then one of 4097
        for size, asked in ((4096, [4096]), (4097, [4096, 8192])):
            item = dumps(b"x" * (size - 3))
            self.assertEqual(len(item), size)
            g = SeekableChunkedFile(item + data)
            self.assertEqual(load(g), b"x" * (size - 3))
            self.assertEqual((g.asked, g.pos), (asked, size))

    def test_bad_values(self):
        for bad in (0, -1, True, 1.5, "1", 2**64):
            with self.subTest(bad), self.assertRaises(ValueError):
                CBORDecoder(io.BytesIO(b"\x01"), read_size=bad)
            with self.subTest(bad), self.assertRaises(ValueError):
                load(io.BytesIO(b"\x01"), read_size=bad)


class RefCounts(unittest.TestCase):
    """No reference or memory block is lost on the streaming paths, the error
    paths included (sys.getrefcount of what the decoder holds, and
    sys.getallocatedblocks over many rounds: a leak of one block per round
    would show as thousands)."""

    ROUNDS = 5000

    def one_round(self, hook, fp_box):
        data = h("a2616101616282f5f6") + h("d9 0f a0 820102") + h("6568656c6c6f")
        dec = CBORDecoder(ChunkedFile(data, lambda: 3), tag_hook=hook)
        dec.decode()
        dec.decode()
        dec.decode()
        try:
            dec.decode()
        except CBORDecodeEOF:
            pass
        f = fp_box[0]
        f.seek(0)
        load(f, tag_hook=hook)
        for bad, options in ((h("82 01"), {}), (h("01 1c"), {}), (dumps(b"x" * 300), {"max_buffer": 100}),
                             (h("a2 0101 0102"), {"allow_duplicate_keys": False})):
            try:
                dec = CBORDecoder(io.BytesIO(bad), tag_hook=hook, **options)
                while True:
                    dec.decode()
            except CBORDecodeError:
                pass
        try:
            CBORDecoder(FailingFile()).decode()
        except OSError:
            pass

    def test_no_leak(self):
        import gc
        import sys

        def hook(tag, immutable):
            return tag.value

        fp_box = [io.BytesIO(dumps([1, {"k": b"v" * 100}]) + h("01"))]
        for _ in range(1000):
            self.one_round(hook, fp_box)
        gc.collect()
        refs = (sys.getrefcount(hook), sys.getrefcount(fp_box[0]))
        blocks = sys.getallocatedblocks()
        for _ in range(self.ROUNDS):
            self.one_round(hook, fp_box)
        gc.collect()
        self.assertEqual((sys.getrefcount(hook), sys.getrefcount(fp_box[0])), refs)
        # measured without a leak: 25 to 320 blocks of noise over 1000 to
        # 9000 rounds, not growing with them
        self.assertLess(sys.getallocatedblocks() - blocks, self.ROUNDS // 4)


if __name__ == "__main__":
    unittest.main()


class _BytesIOSubclass(io.BytesIO):
    """Takes load()'s file path (only an exact BytesIO is decoded in place)."""


class LoadFromBytesIO(unittest.TestCase):
    """load() from an io.BytesIO decodes the item where it is: the same
    value, error (status, offset) and position after it as from a file."""

    CASES = [
        ("one int", b"\x01" + b"\x02"),
        ("a map then more", dumps({"a": [1, 2.5, "x"]}) + dumps(7)),
        ("empty", b""),
        ("truncated head", b"\x19\x01"),
        ("truncated string", b"\x62a"),
        ("truncated array", b"\x83\x01\x02"),
        ("reserved byte", b"\x1c"),
        ("a break alone", b"\xff"),
        ("invalid UTF-8", b"\x62\xff\xfe" + b"\x01"),
        ("nested", b"\x81" * 100 + b"\x00"),
        ("too deep", b"\x81" * 600 + b"\x00"),
        ("a large byte string", dumps(b"z" * 200000) + b"\x00"),
    ]

    def outcome(self, f, **options):
        try:
            return ("value", load(f, **options), f.tell())
        except CBORDecodeError as e:
            return ("error", type(e), e.status, e.offset)

    def test_same_as_a_file(self):
        for name, data in self.CASES:
            for start in (0, 1):
                if start > len(data):
                    continue
                a, b = io.BytesIO(data), _BytesIOSubclass(data)
                a.seek(start)
                b.seek(start)
                # a value and the position after it, or the error
                self.assertEqual(self.outcome(a), self.outcome(b), (name, start))

    def test_no_stream_decoder(self):
        # the in-place path is the one taken (a file's would build a decoder)
        from unittest import mock
        with mock.patch.object(cbor_fast._ext, "StreamDecoder", side_effect=AssertionError):
            f = io.BytesIO(dumps("x") + b"\x01")
            self.assertEqual((load(f), load(f), f.tell()), ("x", 1, 3))
            with self.assertRaises(AssertionError):
                load(_BytesIOSubclass(b"\x01"))

    def test_large_buffers_and_errors(self):
        # more than 64 MiB left: the file path; an item that fails: the
        # file path, for its error and position (a truncation at the head
        # in one shot is the malformed byte in the stream: 83 1e f6)
        from unittest import mock
        real = cbor_fast._ext.StreamDecoder
        made = []

        def counting(*args):
            made.append(1)
            return real(*args)

        with mock.patch.object(cbor_fast._ext, "StreamDecoder", side_effect=counting):
            big = io.BytesIO(b"\x01" + bytes(64 << 20))
            self.assertEqual((load(big), big.tell(), len(made)), (1, 1, 1))
            small = io.BytesIO(b"\x01" + bytes(1 << 20))
            self.assertEqual((load(small), small.tell(), len(made)), (1, 1, 1))
        for data in (b"\x82\x01", b"\x83\x1e\xf6", b"\xff", b"\x61\xff\x01"):
            a, b = io.BytesIO(data), _BytesIOSubclass(data)
            with self.assertRaises(CBORDecodeError) as ca:
                load(a)
            with self.assertRaises(CBORDecodeError) as cb:
                load(b)
            self.assertEqual((type(ca.exception), ca.exception.status, ca.exception.offset,
                              a.tell()),
                             (type(cb.exception), cb.exception.status, cb.exception.offset,
                              b.tell()), data)
        with self.assertRaises(CBORDecodeError) as c:
            load(io.BytesIO(b"\x83\x1e\xf6"))
        self.assertEqual((c.exception.status, c.exception.offset),
                         ("reserved_additional_info", 1))

    def test_options_and_max_buffer(self):
        data = dumps([1, {"k": b"v"}]) + b"\x00"
        self.assertEqual(load(io.BytesIO(data), immutable=True), (1, cbor_fast.FrozenDict({"k": b"v"})))
        # an item over max_buffer: memory_budget_exceeded, as from a file
        big = dumps(b"z" * 5000)
        for f in (io.BytesIO(big), _BytesIOSubclass(big)):
            with self.assertRaises(CBORDecodeError) as cm:
                load(f, max_buffer=4000)
            self.assertEqual((cm.exception.status, cm.exception.offset),
                             ("memory_budget_exceeded", 0))
        # hooks take the file path (they could write to the file)
        f = io.BytesIO(data)
        self.assertEqual(load(f, object_hook=lambda *a: "hooked"), [1, "hooked"])
        self.assertEqual(f.tell(), len(data) - 1)
        # bad values are refused as before
        for bad in ({"max_buffer": 0}, {"read_size": 0}, {"max_buffer": True}):
            with self.assertRaises(ValueError):
                load(io.BytesIO(data), **bad)
        # the buffer is released: the file can grow after load()
        f = io.BytesIO(data)
        load(f)
        f.seek(0, io.SEEK_END)
        f.write(b"\x05")
        f.seek(len(data) - 1)
        self.assertEqual((load(f), load(f)), (0, 5))

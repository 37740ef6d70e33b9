"""Objects and callbacks that turn on the extension while it works: int
subclasses overriding int's methods, hooks that re-enter loads(), re-initialise
or share an encoder, mutate what a set is built from, or keep the buffer a
file's readinto() was given. Each crashed the process or leaked before
(found by a probe of the binding, 2026-12-07); each is an exception or the
right value now."""
import io
import pickle
import sys
import threading
import tracemalloc

import pytest

from support import h

import cbor_fast
from cbor_fast import CBORDecodeError, CBOREncodeValueError, CBORTag, dumps, loads


class _Liar(int):
    """An int whose own methods lie about it."""

    def to_bytes(self, *args, **kwargs):
        return self.answer

    def bit_length(self):
        return -5

    def __invert__(self):
        return "not an int"


@pytest.mark.parametrize("answer", [[0] * 1000, "short", None, 7, b"\x01"])
def test_int_subclass_methods_are_not_called(answer):
    # write_bignum called to_bytes and bit_length on the object, and read
    # what to_bytes returned as bytes (a crash, or the object's memory
    # written out); ~ came from the subclass's __invert__.
    class I(_Liar):
        pass

    I.answer = answer
    assert dumps(I(2**70)) == h("c2 49 40 0000000000000000")
    assert dumps(I(-(2**70) - 1)) == h("c3 49 40 0000000000000000")
    assert dumps(I(2**64)) == h("c2 49 01 0000000000000000")
    assert dumps([I(5), I(-(2**64))]) == h("82 05 3b ffffffffffffffff")


def test_reinitialising_an_encoder_while_it_encodes_is_refused():
    # __init__ from `default` switched value sharing on without its table:
    # the next list dereferenced NULL.
    class Foo:
        pass

    def default(enc, obj):
        enc.__init__(io.BytesIO(), value_sharing=True, default=default)

    with pytest.raises(RuntimeError, match="cannot reinitialise a CBOREncoder while it encodes"):
        dumps([Foo(), [1]], default=default)
    # An encoder re-initialised between encodes is fine.
    fp = io.BytesIO()
    enc = cbor_fast.CBOREncoder(fp)
    enc.encode([1])
    enc.__init__(fp, value_sharing=True)
    enc.encode([2])
    assert fp.getvalue() == h("81 01 d81c 81 02")


def test_an_encoder_encoding_in_one_thread_refuses_another():
    # Thread B's encode wrote into thread A's writer while A's `default`
    # ran, and went on writing after A freed it.
    inside, b_done = threading.Event(), threading.Event()
    seen = {}

    class Slow:
        pass

    def default(enc, obj):
        inside.set()
        b_done.wait(10)
        enc.encode("a")

    fp = io.BytesIO()
    enc = cbor_fast.CBOREncoder(fp, default=default)

    def b():
        inside.wait(10)
        try:
            enc.encode([1, 2])
        except RuntimeError as e:
            seen["error"] = str(e)
        finally:
            b_done.set()

    t = threading.Thread(target=b)
    t.start()
    enc.encode([Slow(), 3])
    t.join()
    assert seen == {"error": "this CBOREncoder is encoding in another thread; "
                             "use one encoder per thread"}
    assert fp.getvalue() == h("82 6161 03")
    # Afterwards another thread may use it.
    t = threading.Thread(target=lambda: enc.encode(4))
    t.start()
    t.join()
    assert fp.getvalue() == h("82 6161 03 04")


def test_a_set_built_from_a_list_its_members_shorten():
    # Tag 258 over a tag_hook's list: a member's __eq__ emptied the list
    # while PySet_Add ran it, and the loop read past the list's end.
    held = []

    class Evil:
        def __hash__(self):
            return 1

        def __eq__(self, other):
            held.clear()
            return False

    def tag_hook(tag, immutable):
        held[:] = [Evil() for _ in range(10)]
        return held

    got = loads(h("d90102 d903e8 f6"), tag_hook=tag_hook)  # 258(1000(null))
    assert isinstance(got, set) and len(got) == 10
    assert all(type(m) is Evil for m in got)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the stack check is Linux's")
def test_loads_re_entered_from_hooks_stops_at_a_depth_error():
    # object_hook and tag_hook calling loads() again: about 330 levels
    # overflowed a 512 KiB thread's stack (a crash).
    data = dumps({})
    tagged = dumps(cbor_fast.CBORTag(1000, 1))

    def object_hook(decoder, value):
        return loads(data, object_hook=object_hook)

    def tag_hook(tag, immutable):
        return loads(tagged, tag_hook=tag_hook)

    old_stack = threading.stack_size(512 * 1024)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(100000)
    try:
        for fn in (lambda: loads(data, object_hook=object_hook),
                   lambda: loads(tagged, tag_hook=tag_hook)):
            out = {}

            def run(fn=fn):
                try:
                    out["value"] = fn()
                except Exception as e:  # noqa: BLE001 (checked below)
                    out["error"] = e

            t = threading.Thread(target=run)
            t.start()
            t.join()
            e = out.get("error")
            while e is not None and not (isinstance(e, CBORDecodeError)
                                         and e.status == "depth_exceeded"):
                e = e.__cause__ or e.__context__
            assert e is not None, out
            assert e.offset == 0
    finally:
        sys.setrecursionlimit(limit)
        threading.stack_size(old_stack)
    # A few levels are fine.
    depth = [0]

    def bounded(decoder, value):
        depth[0] += 1
        return loads(data, object_hook=bounded) if depth[0] < 20 else "bottom"

    assert loads(data, object_hook=bounded) == "bottom"


def test_a_file_keeping_the_readinto_buffer_leaks_nothing():
    # readinto() keeping an export of the slice it was given: BufferError
    # (right), but the whole buffer's view and the decoder's buffer were
    # never freed (13 MB over 200 decodes).
    kept = []

    class F:
        def __init__(self):
            self.b = io.BytesIO(dumps([1, 2]))

        def readinto(self, buf):
            kept.append(pickle.PickleBuffer(buf))
            d = self.b.read(len(buf))
            buf[:len(d)] = d
            return len(d)

    def run(n):
        for _ in range(n):
            with pytest.raises(BufferError):
                cbor_fast.CBORDecoder(F()).decode()
            kept.clear()

    tracemalloc.start()
    try:
        run(20)
        before = tracemalloc.get_traced_memory()[0]
        run(200)
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 1 << 20, grown


def test_a_tag_whose_value_makes_a_new_tag_each_time():
    # A CBORTag subclass whose `value` property returns a new tag on each
    # read: never a cycle, only without end; it wrote until memory ran out.
    class T(CBORTag):
        __slots__ = ()

        @property
        def value(self):
            return T(5, None)

        @value.setter
        def value(self, v):
            pass

    with pytest.raises(CBOREncodeValueError,
                       match="tags whose content is made as it is read nested deeper than 100000"):
        dumps(T(5, None))

    # A property that ends is fine; so is a long chain of tags held in memory.
    class Countdown(CBORTag):
        __slots__ = ("n",)

        def __init__(self, n):
            super().__init__(6, None)
            self.n = n

        @property
        def value(self):
            return Countdown(self.n - 1) if self.n > 0 else "end"

        @value.setter
        def value(self, v):
            pass

    assert dumps(Countdown(3)) == h("c6 c6 c6 c6 63656e64")
    chain = 0
    for _ in range(200000):
        chain = CBORTag(6, chain)
    assert dumps(chain) == b"\xc6" * 200000 + b"\x00"


def test_a_set_holding_itself_through_a_tag():
    # The set became a new tag 258 over a new list at every level, so the
    # cycle set never saw an object twice: it encoded until memory ran out.
    s = set()
    t = CBORTag(1000, None)
    s.add(t)
    t.value = s
    for options in ({}, {"value_sharing": True}):
        with pytest.raises(CBOREncodeValueError,
                           match="cyclic data structure detected: a mapping or sequence "
                                 "converted for encoding holds itself"):
            dumps(s, **options)
    # The same set twice, or inside another, is no cycle.
    a = frozenset([1])
    assert dumps([a, a, {a}]) == h("83 d90102 8101 d90102 8101 d90102 81 d90102 8101")
    assert dumps(CBORTag(1000, {frozenset([2])})) == h("d903e8 d90102 81 d90102 8102")


# A readinto() that reports bytes it did not write: what comes out for them
# is zeros, never the buffer's earlier bytes. Rows: what the first read
# writes, what it reports, what the second reports (writing nothing), the
# items decoded.
@pytest.mark.parametrize("written,first,second,items", [
    # the [1, 2] of the first read came out a second time (before zeroing)
    (b"\x82\x01\x02", 3, 3, [[1, 2], 0, 0, 0]),
    # only bytes that may not be zero are zeroed (not the whole 64 KiB): a
    # lie about 5 after a 7-byte read gives zeros, not [1, 2] and [1, 2, 3]
    (b"\x82\x01\x02\x83\x01\x02\x03", 7, 5, [[1, 2], [1, 2, 3], 0, 0, 0, 0, 0]),
    # the whole slice a readinto() was given counts as written: 7 bytes
    # written, 3 reported, then 5 reported: not the 4 written past its count
    (b"\x82\x01\x02\x83\x01\x02\x03", 3, 5, [[1, 2], 0, 0, 0, 0, 0]),
])
def test_a_readinto_that_reports_bytes_it_did_not_write(written, first, second, items):
    class F:
        calls = 0

        def readinto(self, buf):
            self.calls += 1
            if self.calls == 1:
                buf[:len(written)] = written
                return first
            return second if self.calls == 2 else 0

    d = cbor_fast.CBORDecoder(F())
    assert [d.decode() for _ in range(len(items))] == items
    with pytest.raises(cbor_fast.CBORDecodeEOF):
        d.decode()


def test_only_io_own_files_read_without_zeroing(tmp_path):
    # io's own files write every byte their readinto1()/readinto() reports,
    # so their reads are not zeroed first (64 KiB per decoder was most of
    # CBORDecoder(io.BytesIO(msg)).decode()); anything else is. (row, file,
    # honest)
    path = tmp_path / "x.cbor"
    path.write_bytes(b"\x82\x01\x02")

    class SubBytesIO(io.BytesIO):
        pass

    class Raw(io.RawIOBase):
        def readable(self):
            return True

        def readinto(self, b):
            return 0

    shadowed = io.BytesIO(b"\x01")
    shadowed.readinto1 = lambda b: 0  # an instance attribute over the method
    borrowed = io.BytesIO(b"\x01")
    borrowed.readinto1 = io.BytesIO(b"\x02").readinto1  # another file's method
    files = [
        ("io.BytesIO", io.BytesIO(b"\x01"), True),
        ("open(path, 'rb'): BufferedReader over FileIO", open(path, "rb"), True),
        ("open(path, 'rb', buffering=0): FileIO", open(path, "rb", buffering=0), True),
        ("open(path, 'r+b'): BufferedRandom over FileIO", open(path, "r+b"), True),
        ("a BytesIO subclass", SubBytesIO(b"\x01"), False),
        ("BufferedReader over a Python raw file", io.BufferedReader(Raw()), False),
        ("a method shadowed by a lambda", shadowed, False),
        ("another file's method", borrowed, False),
    ]
    for name, f, honest in files:
        d = cbor_fast._ext.StreamDecoder(f, None, None, False, None)
        assert d._honest is honest, name
    # each still decodes as it did
    with open(path, "rb") as f:
        assert cbor_fast.CBORDecoder(f).decode() == [1, 2]
    assert cbor_fast.CBORDecoder(io.BytesIO(b"\x82\x01\x02")).decode() == [1, 2]
    for name, f, honest in files:
        if hasattr(f, "close"):
            f.close()


def test_max_buffer_beyond_ssize_t_is_refused():
    # 2**63 was taken, though the message names PY_SSIZE_T_MAX as the limit.
    with pytest.raises(ValueError, match=r"max_buffer must be None or an int in 1 \.\. "):
        cbor_fast.CBORDecoder(io.BytesIO(b""), max_buffer=2**63)
    assert cbor_fast.CBORDecoder(io.BytesIO(b"\x01"), max_buffer=2**63 - 1).decode() == 1


class _Unknown:
    """A key only a default hook can encode."""


def test_a_default_hook_that_changes_the_dict_canonical_sorts():
    # The hook runs while canonical=True encodes the keys to sort them: the
    # pairs are those the dict had when its encoding began (as cbor2 writes
    # them). It had gone on iterating over the changed dict, and wrote
    # {"k": 1}, losing "b" and "c" without an error.
    def emptying(enc, o):
        d.clear()
        enc.encode("k")

    d = {_Unknown(): 1, "b": 2, "c": 3}
    assert dumps(d, default=emptying, canonical=True) == h("a3 6162 02 6163 03 616b 01")

    def growing(enc, o):
        d.update({"x": 4, "y": 5})
        enc.encode("k")

    d = {_Unknown(): 1, "b": 2}
    assert dumps(d, default=growing, canonical=True) == h("a2 6162 02 616b 01")


def test_a_list_being_filled_is_not_seen_by_the_collector():
    # [[1234567, 7654321], 6(0), 3]: while the tag hook runs, the outer list
    # of 3 is half filled (NULL slots). gc.get_objects() handed it out, and
    # iterating it crashed the process; it is out of the collector's sight
    # until complete. (Only its first slot, filled, is looked at here.)
    import gc

    inner = [1234567, 7654321]
    seen = []

    def hook(tag, immutable):
        for o in gc.get_objects():
            if type(o) is list and len(o) == 3 and o[0] == inner:
                seen.append(o)
        return "x"

    data = h("83 82 1a0012d687 1a0074cbb1 c600 03")
    assert loads(data, tag_hook=hook) == [inner, "x", 3]
    assert seen == []
    # Complete, the list is tracked again: a cycle through it is collected.
    import weakref

    class Box:
        pass

    def box_hook(tag, immutable):
        return Box()

    out = loads(h("82 c600 01"), tag_hook=box_hook)
    assert gc.is_tracked(out)
    out[0].cycle = out
    ref = weakref.ref(out[0])
    del out
    gc.collect()
    assert ref() is None


def test_a_hook_cannot_resize_the_stream_decoders_buffer():
    # A file's readinto() gets a view whose .obj is the decoder's bytearray
    # and keeps it; a tag hook then cleared it while the decoder read the
    # rest of the item from it (freed memory). It is held (exported) while
    # the item is decoded: resizing it is a BufferError, the hook's exception.
    stash = {}
    item = dumps([CBORTag(6, 0)] + ["A" * 64] * 200)

    class F(io.RawIOBase):
        def __init__(self, data):
            self.d, self.p = data, 0

        def readable(self):
            return True

        def readinto(self, b):
            stash["buf"] = b.obj
            k = min(len(b), len(self.d) - self.p)
            b[:k] = self.d[self.p : self.p + k]
            self.p += k
            return k

    def hook(tag, immutable):
        stash["buf"][:] = b""
        return "tag"

    with pytest.raises(CBORDecodeError) as e:
        cbor_fast.CBORDecoder(F(item), tag_hook=hook).decode()
    assert isinstance(e.value.__cause__, BufferError)
    assert type(stash["buf"]) is bytearray

    def quiet(tag, immutable):
        return "tag"

    assert cbor_fast.CBORDecoder(F(item), tag_hook=quiet).decode() == ["tag"] + ["A" * 64] * 200


def test_a_file_that_shrinks_the_stream_decoders_buffer_between_calls():
    # The file keeps the bytearray (the .obj of its readinto() view) and,
    # between two decode() calls, shrinks it to 20 bytes while the decoder
    # holds 64 KiB of the next item in it: the decoder read past its end and
    # moved 64 KiB into it (a heap overflow). Every use checks its size now.
    data = dumps(1) + dumps(b"A" * 200000)

    class F:
        def __init__(self, b):
            self.b, self.pos, self.stash = b, 0, None

        def readinto(self, mv):
            self.stash = mv.obj
            n = min(len(mv), len(self.b) - self.pos)
            mv[:n] = self.b[self.pos : self.pos + n]
            self.pos += n
            return n

    f = F(data)
    dec = cbor_fast.CBORDecoder(f)
    assert dec.decode() == 1
    assert f.pos > 20  # the decoder holds more than the 20 bytes left it
    f.stash[:] = data[:20]
    with pytest.raises(RuntimeError, match="resized from outside"):
        dec.decode()
    # Growing it instead is harmless: only the bytes counted are read.
    f = F(data)
    dec = cbor_fast.CBORDecoder(f)
    assert dec.decode() == 1
    f.stash.extend(b"\x00" * 100)
    assert dec.decode() == b"A" * 200000


class _HashRaises:
    def __hash__(self):
        raise RuntimeError("hash boom")


def test_a_key_whose_hash_raises_is_a_decode_error_caused_by_it():
    # {6(0): 1, 6(1): 2} with keys a tag hook made: the key's __hash__ raised
    # out of loads() as it was; now as any hook's exception (and as a set
    # member's already was): a CBORDecodeError at the map, caused by it.
    with pytest.raises(CBORDecodeError) as e:
        loads(h("a2 c600 01 c601 02"), tag_hook=lambda tag, immutable: _HashRaises())
    assert str(e.value) == "error decoding map at offset 0"
    assert e.value.offset == 0
    assert isinstance(e.value.__cause__, RuntimeError)
    # An unhashable key (a list from the hook) keeps its TypeError as the cause.
    with pytest.raises(CBORDecodeError) as e:
        loads(h("a1 c600 01"), tag_hook=lambda tag, immutable: [1])
    assert "unhashable map key" in str(e.value)
    assert isinstance(e.value.__cause__, TypeError)


def test_the_repr_of_a_tag_that_holds_itself():
    # 28(6(29(0))): the shared value 0 is the tag itself.
    t = loads(h("d81c c6 d81d 00"))
    assert t.value is t
    assert repr(t) == "CBORTag(6, CBORTag(...))"
    assert repr(CBORTag(1, [CBORTag(2, 3)])) == "CBORTag(1, [CBORTag(2, 3)])"


def test_a_decode_error_made_with_a_message_as_cbor2_code_makes_it():
    e = CBORDecodeError("invalid timestamp in my tag")
    assert (e.status, e.code, e.message, str(e)) == (
        None, None, "invalid timestamp in my tag", "invalid timestamp in my tag")
    # A status name stays a status (the library's own way to make one).
    e = CBORDecodeError("truncated", 3)
    assert (type(e).__name__, e.status, e.offset) == ("CBORDecodeEOF", "truncated", 3)

    def semantic(value, immutable):
        raise CBORDecodeError("timestamp out of range")

    with pytest.raises(CBORDecodeError) as info:
        loads(h("d863 00"), semantic_decoders={99: semantic})
    assert info.value.status is None
    assert str(info.value) == "timestamp out of range at offset 0"


def test_input_rewritten_by_another_thread_never_gives_a_broken_str():
    # Another thread rewrites the input without the GIL (ctypes.memmove)
    # while loads() runs, between two layouts of the same shape: ASCII keys,
    # and the same bytes with the high bit set. A short ASCII key was checked,
    # then copied again: a str made for ASCII could hold bytes >= 0x80 (95 to
    # 257 in these 300 loads), which CPython crashes on. Each key is now either str
    # (ASCII, as checked on the copy), or decoded the normal way.
    import ctypes

    keys = [("k%05d" % i) * 3 for i in range(4000)]
    doc_a = dumps([{k: i} for i, k in enumerate(keys)] + keys)
    doc_b = bytearray(doc_a)
    at = 0
    for k in keys:
        at = doc_b.index(b"\x72" + k.encode(), at) + 1
        doc_b[at : at + 18] = bytes(x | 0x80 for x in doc_b[at : at + 18])
    buf = bytearray(doc_a)
    addr = ctypes.addressof((ctypes.c_char * len(buf)).from_buffer(buf))
    a = ctypes.create_string_buffer(bytes(doc_a), len(doc_a))
    b = ctypes.create_string_buffer(bytes(doc_b), len(doc_b))
    stop = threading.Event()

    def rewrite():
        while not stop.is_set():
            ctypes.memmove(addr, b, len(doc_a))
            ctypes.memmove(addr, a, len(doc_a))

    t = threading.Thread(target=rewrite, daemon=True)
    t.start()
    broken = 0
    try:
        for _ in range(300):
            v = loads(buf, str_errors="replace")
            for k in [next(iter(d)) for d in v[:4000]] + v[4000:]:
                # isascii() reads the str's flag; encode() copies its bytes
                broken += k.isascii() and max(k.encode("latin-1")) > 127
    finally:
        stop.set()
        t.join()
    assert broken == 0


def test_a_semantic_decoder_that_removes_itself_while_it_runs():
    # The decoder (a bound method whose only reference is the dict entry)
    # is held for its call: a key whose __hash__ clears the dict freed it,
    # and the method's own object, while dict.get() ran (SIGSEGV).
    class D(dict):
        pass

    import weakref

    holder = D({i: i for i in range(100)})
    ref = weakref.ref(holder)
    sd = {1000: holder.get}
    del holder
    alive = []

    class Evil:
        def __hash__(self):
            sd.clear()
            alive.append(ref() is not None)  # dict.get() still runs on it
            return 1

        def __eq__(self, other):
            return False

    # 1000({}): the hook makes the map an Evil, and the decoder, called as
    # holder.get(Evil(), False), looks it up and gives its default.
    assert loads(h("d903e8 a0"), semantic_decoders=sd, object_hook=lambda m, imm: Evil()) is False
    assert (sd, alive) == ({}, [True])


def test_the_decoders_own_tables_are_out_of_a_hooks_reach():
    # Tables only the decoder and the encoder use (string references, shared
    # values, the stream decoder's options) were reachable from a hook
    # through gc: a hook replaced a string-reference table by an int
    # (SIGSEGV), emptied the encoder's keep-alive list (a new object written
    # as a reference to a freed one), or replaced the stream decoder's
    # tag_hook (the freed hook called).
    import gc

    mark = "zqxjkv"
    found = []

    def tag_hook(tag, imm):
        for o in gc.get_objects():
            if type(o) is list and len(o) == 1 and type(o[0]) is list and o[0] == [mark]:
                found.append(o)
                o[0] = 2**62 + 12345
        return tag.value

    # 256(["zqxjkv", 1000(0), 25(0)]): the reference 25(0) is "zqxjkv".
    data = h("d90100 83 66") + mark.encode() + h("d903e800 d81900")
    assert loads(data, tag_hook=tag_hook) == [mark, 0, mark]
    assert found == []

    seen = []

    def default(enc, o):
        seen.extend(r for r in gc.get_referents(enc) if type(r) in (list, dict))
        enc.encode(0)

    obj = [[1, 2], object(), [1, 2]]
    assert loads(dumps(obj, value_sharing=True, default=default)) == [[1, 2], 0, [1, 2]]
    assert [r for r in seen if r is not obj and r != [1, 2]] == []

    dec = cbor_fast.CBORDecoder(io.BytesIO(h("d903e8 00")), tag_hook=lambda t, imm: "hook")
    assert [r for r in gc.get_referents(dec._decoder) if type(r) is dict] == []
    assert dec.decode() == "hook"


def test_an_iter_sequence_in_a_cycle_with_its_hook_is_collected():
    # An object that keeps its iterator and passed one of its own methods as
    # the hook: the iterator was not a collected type, so the cycle (and the
    # input it holds) was never freed (300 of them: 300 MB).
    import gc
    import weakref

    class Parser:
        def __init__(self, data):
            self.it = cbor_fast.iter_sequence(data, object_hook=self.hook)

        def hook(self, m, imm):
            return m

    p = Parser(b"\xa1\x61a\x01" + bytes(1 << 20))
    assert next(p.it) == {"a": 1}
    ref = weakref.ref(p)
    del p
    gc.collect()
    assert ref() is None


def test_an_encoder_made_without_init_has_every_option_off():
    e = cbor_fast.CBOREncoder.__new__(cbor_fast.CBOREncoder)
    assert (e.value_sharing, e.canonical, e.datetime_as_timestamp, e.indefinite_containers) == (
        False,
        False,
        False,
        False,
    )
    assert e.encode_to_bytes([[1], {"b": 1, "a": 2}]) == h("82 8101 a2 6162 01 6161 02")


def test_array_array_replaced_before_first_use_is_refused():
    # The array type is looked up once: a stand-in (a lambda giving a
    # bytearray) had count * 8 bytes written into count (a heap overflow).
    # A fresh interpreter, so that the type is not looked up yet.
    import subprocess

    script = (
        "import array, cbor_fast\n"
        "array.array = lambda typecode, *a: bytearray()\n"
        "try:\n"
        "    cbor_fast.loads_array(cbor_fast.dumps(list(range(1000))), 'q')\n"
        "except TypeError as e:\n"
        "    print('TypeError', e)\n"
    )
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "TypeError cbor_fast: array.array is not a type\n"

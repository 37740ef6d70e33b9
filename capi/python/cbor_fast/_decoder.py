"""Decoding: loads(), iter_sequence() and the low-level Reader."""

import ctypes
from collections import namedtuple
from enum import IntEnum

from . import _capi
from ._capi import (END, ITEM_BREAK, ITEM_INDEFINITE, OK, TYPE_ARRAY, TYPE_BOOL, TYPE_BYTES,
                    TYPE_END, TYPE_FLOAT, TYPE_MAP, TYPE_NEGATIVE, TYPE_NULL, TYPE_SIMPLE, TYPE_TAG,
                    TYPE_TEXT, TYPE_UINT, TYPE_UNDEFINED, byref, c_size_t, c_void_p, lib)
from ._types import CBORDecodeError, FrozenDict, Simple, Tag, undefined

__all__ = ["loads", "iter_sequence", "Reader", "Item", "ItemType"]

_UINT32_MAX = 0xFFFFFFFF
_UINT64_MAX = 0xFFFFFFFFFFFFFFFF
_NO_ITEM = object()  # _decode_item at the end of the input (never a decoded value)
_DEFAULT_MAX_DEPTH = 512
_OUT_OF_MEMORY = _capi.STATUS_CODE_BY_NAME["out_of_memory"]

# What the decode loop is filling: the frame kinds of its explicit stack.
_K_TOP = 0          # nothing open: the next value is the result
_K_LIST = 1         # an array: append
_K_KEY = 2          # a map, a key is due
_K_VALUE = 3        # a map, the value of `key` is due
_K_TAG = 4          # a tag (cur = its number): the next value is its content
_K_BYTE_CHUNKS = 5  # an indefinite byte string (cur = list of chunks)
_K_TEXT_CHUNKS = 6  # an indefinite text string (cur = list of raw UTF-8 chunks)


def _check_max_depth(max_depth):
    if not isinstance(max_depth, int) or not 0 <= max_depth <= _UINT32_MAX:
        raise ValueError("max_depth must be an int in 0 .. 2**32 - 1, not %r" % (max_depth,))


class _Options:
    """The checked keyword arguments of loads, iter_sequence and Reader."""

    __slots__ = ("strict_utf8", "max_depth", "reject_duplicate_keys", "deterministic",
                 "max_string_length", "max_container_items", "max_items", "max_memory")

    def __init__(self, strict_utf8, max_depth, reject_duplicate_keys, deterministic,
                 max_string_length, max_container_items, max_items, max_memory=None):
        _check_max_depth(max_depth)
        self.strict_utf8 = bool(strict_utf8)
        self.max_depth = max_depth
        self.reject_duplicate_keys = bool(reject_duplicate_keys)
        self.deterministic = bool(deterministic)
        self.max_string_length = _check_limit("max_string_length", max_string_length)
        self.max_container_items = _check_limit("max_container_items", max_container_items)
        self.max_items = _check_limit("max_items", max_items)
        self.max_memory = _check_limit("max_memory", max_memory)

    def decode_flags(self):
        """The strict checks as cbor_decode / cbor_seq_next flags."""
        return ((_capi.DECODE_VALIDATE_UTF8 if self.strict_utf8 else 0) |
                (_capi.DECODE_REJECT_DUPLICATE_KEYS if self.reject_duplicate_keys else 0) |
                (_capi.DECODE_DETERMINISTIC if self.deterministic else 0))

    def decode_options(self):
        return _capi.decode_options(self.max_depth, self.max_string_length,
                                    self.max_container_items, self.max_items, self.max_memory)


def _check_limit(name, value):
    # None is "no limit". 0 is refused rather than read as "no limit" (what a
    # 0 means in cbor_fast_decode_options) or as "nothing allowed" (what it
    # means to the reader): the same argument must mean one thing everywhere.
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or \
            not 1 <= value <= _UINT64_MAX:
        raise ValueError("%s must be None or an int in 1 .. 2**64 - 1, not %r" % (name, value))
    return value



def _failure(code, err):
    """The exception for a decode failure: MemoryError when the library ran
    out of memory (not a property of the input), else CBORDecodeError."""
    if code == _OUT_OF_MEMORY:
        return MemoryError("cbor_fast: out of memory while decoding")
    return CBORDecodeError(code, err.offset, item_offset=err.item_offset, depth=err.depth)


def _reader_error(rd):
    err = _capi.Error()
    err.struct_size = ctypes.sizeof(_capi.Error)
    return _failure(lib.cbor_reader_error(rd, byref(err)), err)


def _raise_status(code, what):
    if code == _OUT_OF_MEMORY:
        raise MemoryError("cbor_fast: %s: out of memory" % what)
    raise RuntimeError("cbor_fast: %s failed: %s" % (what, _capi.status_name(code)))


def _new_reader(address, size, opts):
    """A reader over address[0, size) with the options `opts` (an _Options, or
    None for the defaults). The memory budget is not a reader option."""
    rd = c_void_p()
    st = lib.cbor_reader_new(address, size, _capi.allocator, byref(rd))
    if st != OK:
        _raise_status(st, "cbor_reader_new")
    if opts is None:
        return rd
    try:
        for option, value, name in (
                (_capi.OPT_MAX_DEPTH,
                 opts.max_depth if opts.max_depth != _DEFAULT_MAX_DEPTH else None, "max_depth"),
                (_capi.OPT_VALIDATE_UTF8, 1 if opts.strict_utf8 else None, "validate_utf8"),
                (_capi.OPT_MAX_STRING_LENGTH, opts.max_string_length, "max_string_length"),
                (_capi.OPT_MAX_CONTAINER_ITEMS, opts.max_container_items,
                 "max_container_items"),
                (_capi.OPT_MAX_ITEMS, opts.max_items, "max_items"),
                (_capi.OPT_REJECT_DUPLICATE_KEYS, 1 if opts.reject_duplicate_keys else None,
                 "reject_duplicate_keys"),
                (_capi.OPT_DETERMINISTIC, 1 if opts.deterministic else None, "deterministic")):
            if value is not None:
                st = lib.cbor_reader_set(rd, option, value)
                if st != OK:
                    _raise_status(st, "cbor_reader_set(%s)" % name)
    except BaseException:
        lib.cbor_reader_free(rd)
        raise
    return rd


# Batches for the decode loops: taken from and given back to this pool, so a
# loads() call does not build a 16 KiB ctypes array. list.pop and
# list.append are atomic, so threads and nested generators each get their own.
_batches = []


def _take_batch():
    try:
        return _batches.pop()
    except IndexError:
        return _capi.Batch()


def _give_batch(batch):
    if len(_batches) < 8:
        _batches.append(batch)


def _as_bytes(data):
    try:
        return memoryview(data).tobytes()
    except TypeError:
        raise TypeError("a bytes-like object is required, not %r"
                        % type(data).__name__) from None


def _tag(number, value):
    """A decoded tag: bignums (tags 2 and 3 over a byte string) become ints."""
    if type(value) is bytes:
        if number == 2:
            return int.from_bytes(value, "big")
        if number == 3:
            return -1 - int.from_bytes(value, "big")
    return Tag(number, value)


# What the decode loop reads of each item: (type, flags, value, float_value, data).
_DECODE_RECORD = _capi.item_record("type", "flags", "value", "float_value", "data")


def _item_end(batch, index):
    """Offset just past element `index` of the batch: its head, plus the
    content of a definite string (size is 0 for every other item)."""
    c = batch.items[index]
    return c.offset + c.head_size + c.size


def _decode_item(rd, batch, data, base):
    """Reads one complete top-level item from reader `rd` and returns
    (value, end): the value and the offset just past the item's last byte.

    The items come from cbor_reader_next_batch into `batch` (a _capi.Batch),
    up to 256 per call, and are unpacked by struct.iter_unpack; the reader may
    have read items beyond this one (for loads, trailing items), which `end`
    lets the caller tell. `data` is the input as bytes and `base` the address
    the reader was given for data[0], so a string view (pointer, length) is
    data[pointer - base:][:length]. Containers are built on an explicit stack:
    any depth the reader allows decodes without Python recursion. Containers
    opened where a map key is due (and everything inside them) are built
    hashable: tuples and FrozenDicts.
    Raises CBORDecodeError for a reader error; returns _NO_ITEM at the end of input.
    """
    nxt = _capi.reader_next_batch
    batch_ref = batch.ref
    capacity = batch.capacity
    count = batch.count
    count_ref = batch.count_ref
    raw = batch.raw
    unpack = _DECODE_RECORD.iter_unpack
    size = _capi.ITEM_SIZE
    stack = []
    push = stack.append
    pop = stack.pop
    cur = None
    kind = _K_TOP
    key = None
    frozen = False
    while True:
        st = nxt(rd, batch_ref, capacity, count_ref)
        if st:
            if st == END and kind == _K_TOP:
                return _NO_ITEM
            raise _reader_error(rd)
        n = count.value
        records = unpack(raw[:n * size])
        for t, flags, value, fv, p in records:
            if t == TYPE_TEXT:
                if kind >= _K_BYTE_CHUNKS:
                    off = p - base
                    cur.append(data[off:off + value])
                    continue
                if flags & ITEM_INDEFINITE:
                    push((cur, kind, key, frozen))
                    cur = []
                    kind = _K_TEXT_CHUNKS
                    continue
                off = p - base
                v = data[off:off + value]
                try:
                    v = v.decode()  # no arguments: measurably faster than naming the handler
                except UnicodeDecodeError:
                    v = v.decode("utf-8", "surrogateescape")
            elif t == TYPE_UINT:
                v = value
            elif t == TYPE_FLOAT:
                v = fv
            elif t == TYPE_END:
                if kind == _K_LIST:
                    v = tuple(cur) if frozen else cur
                elif kind == _K_KEY:
                    v = FrozenDict(cur) if frozen else cur
                elif kind == _K_BYTE_CHUNKS:
                    v = b"".join(cur)
                else:
                    v = b"".join(cur).decode("utf-8", "surrogateescape")
                cur, kind, key, frozen = pop()
            elif t == TYPE_MAP:
                push((cur, kind, key, frozen))
                frozen = frozen or kind == _K_KEY
                cur = {}
                kind = _K_KEY
                continue
            elif t == TYPE_ARRAY:
                push((cur, kind, key, frozen))
                frozen = frozen or kind == _K_KEY
                cur = []
                kind = _K_LIST
                continue
            elif t == TYPE_NEGATIVE:
                v = -1 - value
            elif t == TYPE_BOOL:
                v = value == 21
            elif t == TYPE_NULL:
                v = None
            elif t == TYPE_BYTES:
                if kind >= _K_BYTE_CHUNKS:
                    off = p - base
                    cur.append(data[off:off + value])
                    continue
                if flags & ITEM_INDEFINITE:
                    push((cur, kind, key, frozen))
                    cur = []
                    kind = _K_BYTE_CHUNKS
                    continue
                off = p - base
                v = data[off:off + value]
            elif t == TYPE_TAG:
                push((cur, kind, key, frozen))
                frozen = frozen or kind == _K_KEY
                cur = value
                kind = _K_TAG
                continue
            elif t == TYPE_UNDEFINED:
                v = undefined
            elif t == TYPE_SIMPLE:
                v = Simple(value)
            else:
                raise RuntimeError("cbor_fast: unknown item type %d from the reader" % t)
            # Hand the finished value to its parent.
            if kind == _K_LIST:
                cur.append(v)
            elif kind == _K_VALUE:
                cur[key] = v
                kind = _K_KEY
            elif kind == _K_KEY:
                key = v
                kind = _K_VALUE
            elif kind == _K_TOP:
                return v, _item_end(batch, n - 1 - records.__length_hint__())
            else:  # _K_TAG: its content finishes it, and it may finish enclosing tags
                while True:
                    v = _tag(cur, v)
                    cur, kind, key, frozen = pop()
                    if kind != _K_TAG:
                        break
                if kind == _K_LIST:
                    cur.append(v)
                elif kind == _K_VALUE:
                    cur[key] = v
                    kind = _K_KEY
                elif kind == _K_KEY:
                    key = v
                    kind = _K_VALUE
                else:
                    return v, _item_end(batch, n - 1 - records.__length_hint__())


def loads(data, *, strict_utf8=False, max_depth=_DEFAULT_MAX_DEPTH, reject_duplicate_keys=False,
          deterministic=False, max_string_length=None, max_container_items=None,
          max_items=None, max_memory=None):
    """Decodes exactly one CBOR data item from a bytes-like object.

    Returns int (any size: tags 2 and 3 over a byte string become ints), float,
    bytes, str, list, dict, bool, None, Tag, Simple or undefined. Maps and
    arrays used as map keys become FrozenDict and tuple. Duplicate map keys
    (unless rejected): the last value wins (and Python's 1 == 1.0 == True
    makes those one key).

    Text strings: with strict_utf8=False the library does not check UTF-8 and
    invalid sequences decode with the "surrogateescape" error handler, so
    dumps() gives the original bytes back; with strict_utf8=True the library
    rejects them (CBORDecodeError "invalid_utf8" at the first bad byte).

    max_depth: maximum nesting of arrays, maps and tags (0 .. 2**32 - 1).
    Empty input is "truncated" at offset 0; bytes after the item are
    "trailing_bytes" at the first of them.

    Strict checks and limits (each failure is a CBORDecodeError whose
    ``status`` names it, at the offset the library reports):

    reject_duplicate_keys: a map key equal by value to an earlier key of the
    same map ("duplicate_key", at the second key's head).
    deterministic: RFC 8949 core deterministic encoding (section 4.2.1):
    "non_preferred_encoding" (a head or float longer than needed),
    "indefinite_length", "unsorted_map_keys" (keys not in bytewise order of
    their encodings), "duplicate_key" (an equal key).
    max_string_length: bytes in one string, chunk or joined indefinite string
    ("string_too_long"). max_container_items: items of one array or pairs of
    one map ("container_too_large"). max_items: data items (keys, values,
    tags, chunks) ("too_many_items"). Each is None (no limit) or at least 1.
    max_memory: bytes the library may hold to decode the item as a document
    (its node array, strings and tables; "memory_budget_exceeded"). The
    Python objects are not counted. loads() builds them from the library's
    reader, which holds no document, so with max_memory the input is first
    decoded once by cbor_decode to apply the budget (a second pass); max_depth
    must then be at least 1.
    Raises CBORDecodeError (a ValueError) for input that is not well-formed
    or fails a check or limit.
    """
    opts = _Options(strict_utf8, max_depth, reject_duplicate_keys, deterministic,
                    max_string_length, max_container_items, max_items, max_memory)
    if type(data) is not bytes:
        data = _as_bytes(data)
    _, _, address, size = _capi.borrow(data)
    if opts.max_memory is not None:
        _check_as_document(address, size, opts)
    rd = _new_reader(address, size, opts)
    batch = _take_batch()
    try:
        try:
            result = _decode_item(rd, batch, data, address if address is not None else 0)
        except CBORDecodeError as exc:
            # loads() reads one item, at offset 0 (the reader's item_offset of a
            # top-level text string with bad UTF-8 is the bad byte instead).
            exc.item_offset = 0
            raise
        if result is _NO_ITEM:
            raise CBORDecodeError("truncated", 0, item_offset=0, depth=0)
        value, end = result
        if end != size:
            raise CBORDecodeError("trailing_bytes", end, item_offset=0, depth=0)
        return value
    finally:
        _give_batch(batch)
        lib.cbor_reader_free(rd)


def _check_as_document(address, size, opts):
    """Decodes address[0, size) with cbor_decode, all checks and limits
    (the memory budget too), and frees the document; raises what it reports."""
    if opts.max_depth == 0:
        raise ValueError("loads: max_depth must be at least 1 with max_memory")
    options = opts.decode_options()
    doc = c_void_p()
    err = _capi.Error()
    err.struct_size = ctypes.sizeof(_capi.Error)
    st = lib.cbor_decode(address, size, _capi.DECODE_EXACT | opts.decode_flags(), byref(options),
                         byref(doc), byref(err))
    lib.cbor_doc_free(doc)
    if st == OK:
        return
    if st == END:
        raise CBORDecodeError("truncated", 0, item_offset=0, depth=0)
    exc = _failure(st, err)
    if isinstance(exc, CBORDecodeError):
        exc.item_offset = 0
    raise exc


def iter_sequence(data, *, strict_utf8=False, max_depth=_DEFAULT_MAX_DEPTH,
                  reject_duplicate_keys=False, deterministic=False, max_string_length=None,
                  max_container_items=None, max_items=None, max_memory=None):
    """Yields each top-level item of an RFC 8742 CBOR sequence, decoded as by loads().

    The sequence is walked with the library's cbor_seq_* iterator, which checks
    each item whole before it is decoded: the items before a bad one are
    yielded, then CBORDecodeError is raised with ``offset`` at the problem and
    ``item_offset`` at the start of the bad item. max_depth is at least 1 here
    (the C decode options read 0 as "the default").
    The checks and limits are those of loads(), applied to each item on its
    own (max_items and max_memory count per item).
    """
    opts = _Options(strict_utf8, max_depth, reject_duplicate_keys, deterministic,
                    max_string_length, max_container_items, max_items, max_memory)
    if max_depth == 0:
        raise ValueError("iter_sequence: max_depth must be at least 1")
    if type(data) is not bytes:
        data = _as_bytes(data)
    return _iter_sequence(data, opts)


def _seq_failure(seq, st, what):
    err = _capi.Error()
    err.struct_size = ctypes.sizeof(_capi.Error)
    lib.cbor_seq_error(seq, byref(err))
    if err.code == OK:  # not an input error
        _raise_status(st, what)
    return _failure(err.code, err)


def _iter_sequence(data, opts):
    _, _, address, size = _capi.borrow(data)
    options = opts.decode_options()
    seq = c_void_p()
    st = lib.cbor_seq_new(address, size, byref(options), byref(seq))
    if st != OK:
        _raise_status(st, "cbor_seq_new")
    rd = None
    batch = _take_batch()
    try:
        # The reader re-walks each item the sequence checked: the checks and
        # limits were the sequence's; only the depth limit must let it through.
        rd = _new_reader(address, size,
                         _Options(False, opts.max_depth, False, False, None, None, None))
        base = address if address is not None else 0
        flags = opts.decode_flags()
        off = c_size_t()
        length = c_size_t()
        doc = c_void_p()
        start = 0
        while True:
            if opts.max_memory is None:
                # Checked without building anything.
                st = lib.cbor_seq_next(seq, flags, byref(off), byref(length))
                item_start, item_size = off.value, length.value
            else:
                # The memory budget applies to documents: build one, and free it.
                st = lib.cbor_seq_next_doc(seq, flags, byref(doc))
                if st == OK:
                    end = lib.cbor_doc_encoded_size(doc)
                    lib.cbor_doc_free(doc)
                    item_start, item_size = start, end - start
                    start = end
            if st == END:
                return
            if st != OK:
                raise _seq_failure(seq, st, "cbor_seq_next")
            st = lib.cbor_reader_reset(rd, base + item_start, item_size)
            if st != OK:
                _raise_status(st, "cbor_reader_reset")
            result = _decode_item(rd, batch, data, base)
            if result is _NO_ITEM:  # cannot happen: the sequence found an item here
                raise RuntimeError("cbor_fast: reader and sequence disagree")
            yield result[0]
    finally:
        _give_batch(batch)
        lib.cbor_reader_free(rd)
        lib.cbor_seq_free(seq)


# ---- the low-level reader -------------------------------------------------------------


class ItemType(IntEnum):
    """Kind of a Reader item (cbor_fast_type)."""
    UINT = TYPE_UINT
    NEGATIVE = TYPE_NEGATIVE
    BYTES = TYPE_BYTES
    TEXT = TYPE_TEXT
    ARRAY = TYPE_ARRAY
    MAP = TYPE_MAP
    TAG = TYPE_TAG
    SIMPLE = TYPE_SIMPLE
    BOOL = TYPE_BOOL
    NULL = TYPE_NULL
    UNDEFINED = TYPE_UNDEFINED
    FLOAT = TYPE_FLOAT
    END = TYPE_END


_ITEM_TYPES = {int(t): t for t in ItemType}


class Item(namedtuple("Item", "type value offset depth head_size flags float_width")):
    """One item from a Reader.

    ``value`` by type: UINT/NEGATIVE the int; BYTES/TEXT a memoryview of the
    content inside the input (UTF-8 bytes for TEXT; None for the start of an
    indefinite-length string, whose chunks follow as items); ARRAY/MAP the
    item/pair count (None if indefinite); TAG the tag number; SIMPLE the simple
    value number; BOOL a bool; NULL None; UNDEFINED ``undefined``; FLOAT the
    float; END None.
    """

    __slots__ = ()

    @property
    def indefinite(self):
        """True for an indefinite-length string, array or map."""
        return bool(self.flags & ITEM_INDEFINITE)

    @property
    def is_break(self):
        """True for an END item that consumed a break byte (0xff)."""
        return bool(self.flags & ITEM_BREAK)


# What a Reader keeps of each item, and the positions in that tuple.
_READER_RECORD = _capi.item_record("type", "flags", "depth", "offset", "head_size",
                                   "float_width", "value", "float_value", "data", "size")
_R_TYPE, _R_FLAGS, _R_DEPTH, _R_OFFSET, _R_HEAD_SIZE, _R_FLOAT_WIDTH, _R_VALUE, _R_FLOAT, \
    _R_DATA, _R_SIZE = range(10)
_INVALID_STATE = _capi.STATUS_CODE_BY_NAME["invalid_state"]


def _opens(rec):
    """True for an item followed by children and an END: an array, a map or
    an indefinite-length string."""
    t = rec[_R_TYPE]
    return t == TYPE_ARRAY or t == TYPE_MAP or \
        ((t == TYPE_BYTES or t == TYPE_TEXT) and rec[_R_FLAGS] & ITEM_INDEFINITE)


class Reader:
    """Pull reader over a CBOR sequence: iterate to get Item tuples.

    Arrays, maps and indefinite-length strings are followed by their children
    one level deeper and an END item; a TAG is followed by its one content item
    (no END).

    Zero copy: byte and text string values are memoryview slices of the input
    object itself (for bytes and writable buffers such as bytearray; other
    read-only buffers are copied once). Each view keeps the input alive on its
    own, so views stay valid after the Reader is closed. A bytearray input
    cannot be resized while the Reader or any view is alive, and it must not
    be modified while the Reader is in use.

    Items are read from the library up to 256 at a time
    (cbor_reader_next_batch) and handed out one by one; an error is raised
    where it occurs in the item stream, after the items before it. offset,
    depth, skip(), skip_to_end(), join() and finish() behave exactly as if
    items had been read one at a time.

    Options are those of loads() but max_memory (the reader builds no
    document): strict_utf8, max_depth, reject_duplicate_keys, deterministic,
    max_string_length, max_container_items, max_items (counted from the
    start of the input).

    Free the library handle with close() or a ``with`` block (garbage
    collection also frees it).
    """

    _rd = None  # also what close() finds when __init__ failed early

    def __init__(self, data, *, strict_utf8=False, max_depth=_DEFAULT_MAX_DEPTH,
                 reject_duplicate_keys=False, deterministic=False, max_string_length=None,
                 max_container_items=None, max_items=None):
        opts = _Options(strict_utf8, max_depth, reject_duplicate_keys, deterministic,
                        max_string_length, max_container_items, max_items)
        keep, obj, address, size = _capi.borrow(data)
        self._keep = keep  # holds the buffer the library reads
        self._mv = memoryview(obj).cast("B")
        self._base = address if address is not None else 0
        # The allocation hooks (if any) must outlive the handle made with them.
        self._alloc = _capi.allocator
        self._rd = _new_reader(address, size, opts)
        self._batch = _capi.Batch()
        # Items of the last batch as _READER_RECORD tuples; _next is the index
        # of the first one not handed out yet (== len(_recs): none buffered).
        self._recs = []
        self._next = 0
        self._last = None  # the last record handed out

    # -- lifetime

    def close(self):
        """Frees the library reader. Views already returned stay valid."""
        rd, self._rd = self._rd, None
        if rd is not None:
            lib.cbor_reader_free(rd)
        # Drop this object's hold on the input (a bytearray becomes resizable
        # again once the views handed out are gone too).
        self._keep = self._mv = None
        self._recs = []
        self._next = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()

    def _handle(self):
        if self._rd is None:
            raise ValueError("the Reader is closed")
        return self._rd

    # -- items

    def __iter__(self):
        return self

    def __next__(self):
        i = self._next
        recs = self._recs
        if i == len(recs):
            recs = self._fill()
            i = 0
        self._next = i + 1
        rec = self._last = recs[i]
        return self._make(rec)

    def _fill(self):
        """Reads the next batch into _recs; StopIteration at the end of input."""
        rd = self._handle()
        b = self._batch
        st = _capi.reader_next_batch(rd, b.ref, b.capacity, b.count_ref)
        if st != OK:
            if st == END:
                raise StopIteration
            raise _reader_error(rd)
        self._recs = recs = list(_READER_RECORD.iter_unpack(b.raw[:b.count.value *
                                                                    _capi.ITEM_SIZE]))
        self._next = 0
        return recs

    def _take(self):
        """The next record, inside an item (so the end of input is an error)."""
        try:
            self.__next__()
        except StopIteration:  # the reader reports truncation instead; be safe
            raise RuntimeError("cbor_fast: input ended inside an item") from None
        return self._last

    def _buffered(self):
        """True when items have been read from the library but not handed out:
        the library reader is ahead of this Reader's position."""
        return self._next < len(self._recs)

    def _make(self, rec):
        t, flags, depth, offset, head_size, float_width, raw, fv, data, size = rec
        if t == TYPE_UINT or t == TYPE_TAG:
            value = raw
        elif t == TYPE_NEGATIVE:
            value = -1 - raw
        elif t == TYPE_BYTES or t == TYPE_TEXT:
            if flags & ITEM_INDEFINITE:
                value = None
            else:
                off = data - self._base if data else offset + head_size
                value = self._mv[off:off + size]
        elif t == TYPE_ARRAY or t == TYPE_MAP:
            value = None if flags & ITEM_INDEFINITE else raw
        elif t == TYPE_FLOAT:
            value = fv
        elif t == TYPE_BOOL:
            value = raw == 21
        elif t == TYPE_SIMPLE:
            value = raw
        elif t == TYPE_UNDEFINED:
            value = undefined
        else:  # NULL, END
            value = None
        return Item(_ITEM_TYPES[t], value, offset, depth, head_size, flags, float_width)

    def _pass_item(self):
        """Hands out one complete item (a tag with its content, a container or
        indefinite string with its children and END) from the buffered stream."""
        while True:
            rec = self._take()
            if rec[_R_TYPE] == TYPE_TAG:
                continue  # its content is the next complete item
            if _opens(rec):
                self._pass_to_end(rec[_R_DEPTH])
            return

    def _pass_to_end(self, depth):
        """Hands out items up to and including the END at `depth`."""
        while True:
            rec = self._take()
            if rec[_R_TYPE] == TYPE_END and rec[_R_DEPTH] == depth:
                return

    def skip(self):
        """Passes over the next complete item. False if there is none (end of
        input, or the next thing is the END of the enclosing container)."""
        rd = self._handle()
        if self._buffered():
            if self._recs[self._next][_R_TYPE] == TYPE_END:
                return False
            self._pass_item()
            return True
        st = lib.cbor_reader_skip(rd)
        if st == OK:
            return True
        if st == END or st == _INVALID_STATE:
            return False
        raise _reader_error(rd)

    def skip_to_end(self):
        """Passes over the rest of the innermost open container, tag or
        indefinite string, including its END. ValueError at the top level."""
        rd = self._handle()
        if self._buffered():
            depth = self.depth
            if depth == 0:
                raise ValueError("skip_to_end: no open container")
            if self._last[_R_TYPE] == TYPE_TAG:
                self._pass_item()  # the innermost open level is that tag
            else:
                self._pass_to_end(depth - 1)
            return
        st = lib.cbor_reader_skip_to_end(rd)
        if st == OK:
            return
        if st == _INVALID_STATE:
            raise ValueError("skip_to_end: no open container")
        raise _reader_error(rd)

    def join(self):
        """The whole content of the string item just returned.

        Definite string: the same zero-copy memoryview. Indefinite string
        (call right after its start item): its chunks and END are consumed and
        their joined content returned as bytes (a copy).
        """
        rd = self._handle()
        last = self._last
        is_string = last is not None and last[_R_TYPE] in (TYPE_BYTES, TYPE_TEXT)
        if is_string and not last[_R_FLAGS] & ITEM_INDEFINITE:
            return self._make(last).value
        if is_string and self._buffered():
            # The chunks are (partly) buffered: join them here.
            self._last = None  # a second join is a usage error, as in C
            chunks = []
            while True:
                rec = self._take()
                if rec[_R_TYPE] == TYPE_END and rec[_R_DEPTH] == last[_R_DEPTH]:
                    return b"".join(chunks)
                chunks.append(self._make(rec).value)
        if not is_string:
            raise ValueError("join: the last item is not the start of a string")
        # Nothing buffered: the library reader is right after the start item,
        # the last element of the batch.
        data = c_void_p()
        size = c_size_t()
        item = self._batch.item_ref(len(self._recs) - 1)
        st = lib.cbor_reader_join(rd, item, byref(data), byref(size))
        if st == _INVALID_STATE:
            raise ValueError("join: the last item is not the start of a string")
        if st != OK:
            if st == _OUT_OF_MEMORY:  # the join buffer; the reader itself is fine
                raise MemoryError("cbor_fast: join: out of memory")
            raise _reader_error(rd)
        self._last = None
        return ctypes.string_at(data.value, size.value) if size.value else b""

    def finish(self):
        """Checks that all input was read at the top level (CBORDecodeError
        "trailing_bytes" or "truncated" otherwise; ValueError while a container
        is still open with input left)."""
        rd = self._handle()
        if self._buffered():  # input is left
            if self.depth != 0:
                raise ValueError("finish: a container is still open")
            off = self.offset
            raise CBORDecodeError("trailing_bytes", off, item_offset=off, depth=0)
        st = lib.cbor_reader_finish(rd)
        if st == OK:
            return
        if st == _INVALID_STATE:
            raise ValueError("finish: a container is still open")
        if st == _capi.STATUS_CODE_BY_NAME["trailing_bytes"]:
            off = lib.cbor_reader_offset(rd)
            raise CBORDecodeError(st, off, item_offset=off, depth=0)
        code = lib.cbor_reader_error(rd, None)
        if code == OK:  # finish() reports without making the error sticky
            raise CBORDecodeError(st, lib.cbor_reader_offset(rd))
        raise _reader_error(rd)

    @property
    def offset(self):
        """Offset of the next byte to read."""
        rd = self._handle()
        if self._buffered():
            # Just past the last item handed out: its head, and the content
            # of a definite string.
            last = self._last
            return last[_R_OFFSET] + last[_R_HEAD_SIZE] + last[_R_SIZE]
        return lib.cbor_reader_offset(rd)

    @property
    def depth(self):
        """Current nesting depth (0 at the top level)."""
        rd = self._handle()
        if self._buffered():
            # The levels open before the next item: its depth, or one more
            # for an END (which carries its container's depth).
            rec = self._recs[self._next]
            return rec[_R_DEPTH] + (1 if rec[_R_TYPE] == TYPE_END else 0)
        return lib.cbor_reader_depth(rd)


# ---- the document-walk decoder (kept for comparison: see bench.py) --------------------

def _declare_node_api():
    f = _capi.fast
    p = c_void_p
    for name, restype, args in (
            ("cbor_node_type", ctypes.c_int, (p,)),
            ("cbor_node_child", p, (p,)),
            ("cbor_node_next", p, (p,)),
            ("cbor_node_is_indefinite", ctypes.c_int, (p,)),
            ("cbor_node_get_int_raw", ctypes.c_int,
             (p, ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(ctypes.c_int))),
            ("cbor_node_get_uint64", ctypes.c_int, (p, ctypes.POINTER(ctypes.c_uint64))),
            ("cbor_node_get_tag", ctypes.c_int, (p, ctypes.POINTER(ctypes.c_uint64))),
            ("cbor_node_get_double", ctypes.c_int, (p, ctypes.POINTER(ctypes.c_double))),
            ("cbor_node_get_simple", ctypes.c_int, (p, ctypes.POINTER(ctypes.c_uint8))),
            ("cbor_node_get_bytes", ctypes.c_int,
             (p, ctypes.POINTER(p), ctypes.POINTER(c_size_t))),
            ("cbor_node_get_text", ctypes.c_int,
             (p, ctypes.POINTER(p), ctypes.POINTER(c_size_t)))):
        fn = getattr(f, name)
        fn.restype = restype
        fn.argtypes = args


_declare_node_api()


def _loads_document(data, *, max_depth=_DEFAULT_MAX_DEPTH):
    """loads() through cbor_decode and a cbor_node_child/cbor_node_next walk.

    Not used by loads(): it needs about three library calls per node (type,
    getter, next sibling) where the reader needs one per item; bench.py
    measures both. Same results as loads() for well-formed input.
    """
    if type(data) is not bytes:
        data = _as_bytes(data)
    _, _, address, size = _capi.borrow(data)
    base = address if address is not None else 0
    opts = _capi.decode_options(max_depth)
    doc = c_void_p()
    err = _capi.Error()
    err.struct_size = ctypes.sizeof(_capi.Error)
    st = lib.cbor_decode(address, size, _capi.DECODE_EXACT, byref(opts), byref(doc), byref(err))
    if st != OK:
        if st == END:
            raise CBORDecodeError("truncated", 0)
        raise CBORDecodeError(st, err.offset, item_offset=err.item_offset, depth=err.depth)
    f = _capi.fast
    node_type = f.cbor_node_type
    child = f.cbor_node_child
    sibling = f.cbor_node_next
    u64 = ctypes.c_uint64()
    u64_ref = byref(u64)
    neg = ctypes.c_int()
    neg_ref = byref(neg)
    dbl = ctypes.c_double()
    dbl_ref = byref(dbl)
    u8 = ctypes.c_uint8()
    ptr = c_void_p()
    ptr_ref = byref(ptr)
    sz = c_size_t()
    sz_ref = byref(sz)
    end = base + size
    try:
        node = lib.cbor_doc_root(doc)
        stack = []
        cur = None
        kind = _K_TOP
        key = None
        frozen = False
        while True:
            if node is None:  # end of the current container
                v = cur
                if kind == _K_LIST:
                    if frozen:
                        v = tuple(cur)
                elif frozen:
                    v = FrozenDict(cur)
                cur, kind, key, frozen, node = stack.pop()
            else:
                t = node_type(node)
                if t == TYPE_TEXT or t == TYPE_BYTES:
                    if t == TYPE_TEXT:
                        f.cbor_node_get_text(node, ptr_ref, sz_ref)
                    else:
                        f.cbor_node_get_bytes(node, ptr_ref, sz_ref)
                    p = ptr.value or base
                    n = sz.value
                    if base <= p <= end:
                        off = p - base
                        v = data[off:off + n]
                    else:  # an indefinite string joined in the document's arena
                        v = ctypes.string_at(p, n)
                    if t == TYPE_TEXT:
                        v = v.decode("utf-8", "surrogateescape")
                elif t == TYPE_UINT or t == TYPE_NEGATIVE:
                    f.cbor_node_get_int_raw(node, u64_ref, neg_ref)
                    v = -1 - u64.value if neg.value else u64.value
                elif t == TYPE_FLOAT:
                    f.cbor_node_get_double(node, dbl_ref)
                    v = dbl.value
                elif t == TYPE_MAP or t == TYPE_ARRAY or t == TYPE_TAG:
                    stack.append((cur, kind, key, frozen, sibling(node)))
                    frozen = frozen or kind == _K_KEY
                    if t == TYPE_MAP:
                        cur = {}
                        kind = _K_KEY
                    elif t == TYPE_ARRAY:
                        cur = []
                        kind = _K_LIST
                    else:
                        f.cbor_node_get_tag(node, u64_ref)
                        cur = u64.value
                        kind = _K_TAG
                    node = child(node)
                    continue
                elif t == TYPE_BOOL or t == TYPE_NULL or t == TYPE_UNDEFINED or \
                        t == TYPE_SIMPLE:
                    f.cbor_node_get_simple(node, byref(u8))
                    v = (u8.value == 21 if t == TYPE_BOOL else None if t == TYPE_NULL
                         else undefined if t == TYPE_UNDEFINED else Simple(u8.value))
                else:
                    raise RuntimeError("cbor_fast: unknown node type %d" % t)
                node = sibling(node)
            while True:
                if kind == _K_LIST:
                    cur.append(v)
                elif kind == _K_KEY:
                    key = v
                    kind = _K_VALUE
                elif kind == _K_VALUE:
                    cur[key] = v
                    kind = _K_KEY
                elif kind == _K_TAG:
                    v = _tag(cur, v)
                    cur, kind, key, frozen, node = stack.pop()
                    continue
                else:
                    return v
                break
    finally:
        lib.cbor_doc_free(doc)

"""Decoding: loads(), iter_sequence() and the low-level Reader."""

import ctypes
from collections import namedtuple
from enum import IntEnum

from . import _capi
from ._capi import (END, F64_FLOAT, ITEM_BREAK, ITEM_INDEFINITE, OK, PTR_DATA, SIZE_OFFSET,
                    SIZE_SIZE, TYPE_ARRAY, TYPE_BOOL, TYPE_BYTES, TYPE_END, TYPE_FLOAT, TYPE_MAP,
                    TYPE_NEGATIVE, TYPE_NULL, TYPE_SIMPLE, TYPE_TAG, TYPE_TEXT, TYPE_UINT,
                    TYPE_UNDEFINED, U32_DEPTH, U32_FLAGS, U32_FLOAT_WIDTH, U32_HEAD_SIZE, U32_TYPE,
                    U64_VALUE, byref, c_size_t, c_void_p, lib)
from ._types import CBORDecodeError, FrozenDict, Simple, Tag, undefined

__all__ = ["loads", "iter_sequence", "Reader", "Item", "ItemType"]

_UINT32_MAX = 0xFFFFFFFF
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


def _new_reader(address, size, strict_utf8, max_depth):
    rd = c_void_p()
    st = lib.cbor_reader_new(address, size, _capi.allocator, byref(rd))
    if st != OK:
        _raise_status(st, "cbor_reader_new")
    try:
        if max_depth != _DEFAULT_MAX_DEPTH:
            st = lib.cbor_reader_set(rd, _capi.OPT_MAX_DEPTH, max_depth)
            if st != OK:
                _raise_status(st, "cbor_reader_set(max_depth)")
        if strict_utf8:
            st = lib.cbor_reader_set(rd, _capi.OPT_VALIDATE_UTF8, 1)
            if st != OK:
                _raise_status(st, "cbor_reader_set(validate_utf8)")
    except BaseException:
        lib.cbor_reader_free(rd)
        raise
    return rd


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


def _decode_item(rd, views, data, base):
    """Reads one complete top-level item from reader `rd` and returns its value.

    `data` is the input as bytes and `base` the address the reader was given
    for data[0], so a string view (pointer, size) is data[pointer - base:][:size].
    Containers are built on an explicit stack: any depth the reader allows
    decodes without Python recursion. Containers opened where a map key is due
    (and everything inside them) are built hashable: tuples and FrozenDicts.
    Raises CBORDecodeError for a reader error; returns _NO_ITEM at the end of input.
    """
    item_ref, u32, u64, f64, ptr, sizes = views
    nxt = _capi.reader_next
    stack = []
    push = stack.append
    pop = stack.pop
    cur = None
    kind = _K_TOP
    key = None
    frozen = False
    while True:
        st = nxt(rd, item_ref)
        if st:
            if st == END and kind == _K_TOP:
                return _NO_ITEM
            raise _reader_error(rd)
        t = u32[U32_TYPE]
        if t == TYPE_TEXT:
            if kind >= _K_BYTE_CHUNKS:
                off = ptr[PTR_DATA] - base
                cur.append(data[off:off + sizes[SIZE_SIZE]])
                continue
            if u32[U32_FLAGS] & ITEM_INDEFINITE:
                push((cur, kind, key, frozen))
                cur = []
                kind = _K_TEXT_CHUNKS
                continue
            off = ptr[PTR_DATA] - base
            v = data[off:off + sizes[SIZE_SIZE]]
            try:
                v = v.decode()  # no arguments: measurably faster than naming the handler
            except UnicodeDecodeError:
                v = v.decode("utf-8", "surrogateescape")
        elif t == TYPE_UINT:
            v = u64[U64_VALUE]
        elif t == TYPE_FLOAT:
            v = f64[F64_FLOAT]
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
            v = -1 - u64[U64_VALUE]
        elif t == TYPE_BOOL:
            v = u64[U64_VALUE] == 21
        elif t == TYPE_NULL:
            v = None
        elif t == TYPE_BYTES:
            if kind >= _K_BYTE_CHUNKS:
                off = ptr[PTR_DATA] - base
                cur.append(data[off:off + sizes[SIZE_SIZE]])
                continue
            if u32[U32_FLAGS] & ITEM_INDEFINITE:
                push((cur, kind, key, frozen))
                cur = []
                kind = _K_BYTE_CHUNKS
                continue
            off = ptr[PTR_DATA] - base
            v = data[off:off + sizes[SIZE_SIZE]]
        elif t == TYPE_TAG:
            push((cur, kind, key, frozen))
            frozen = frozen or kind == _K_KEY
            cur = u64[U64_VALUE]
            kind = _K_TAG
            continue
        elif t == TYPE_UNDEFINED:
            v = undefined
        elif t == TYPE_SIMPLE:
            v = Simple(u64[U64_VALUE])
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
            return v
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
                return v


def loads(data, *, strict_utf8=False, max_depth=_DEFAULT_MAX_DEPTH):
    """Decodes exactly one CBOR data item from a bytes-like object.

    Returns int (any size: tags 2 and 3 over a byte string become ints), float,
    bytes, str, list, dict, bool, None, Tag, Simple or undefined. Maps and
    arrays used as map keys become FrozenDict and tuple. Duplicate map keys:
    the last value wins (and Python's 1 == 1.0 == True makes those one key).

    Text strings: with strict_utf8=False the library does not check UTF-8 and
    invalid sequences decode with the "surrogateescape" error handler, so
    dumps() gives the original bytes back; with strict_utf8=True the library
    rejects them (CBORDecodeError "invalid_utf8" at the first bad byte).

    max_depth: maximum nesting of arrays, maps and tags (0 .. 2**32 - 1).
    Empty input is "truncated" at offset 0; bytes after the item are
    "trailing_bytes" at the first of them.
    Raises CBORDecodeError (a ValueError) for input that is not well-formed.
    """
    _check_max_depth(max_depth)
    if type(data) is not bytes:
        data = _as_bytes(data)
    _, _, address, size = _capi.borrow(data)
    rd = _new_reader(address, size, strict_utf8, max_depth)
    try:
        views = _capi.new_item()
        try:
            value = _decode_item(rd, (byref(views[0]),) + views[1:], data,
                                 address if address is not None else 0)
        except CBORDecodeError as exc:
            # loads() reads one item, at offset 0 (the reader's item_offset of a
            # top-level text string with bad UTF-8 is the bad byte instead).
            exc.item_offset = 0
            raise
        if value is _NO_ITEM:
            raise CBORDecodeError("truncated", 0, item_offset=0, depth=0)
        end = lib.cbor_reader_offset(rd)
        if end != size:
            raise CBORDecodeError("trailing_bytes", end, item_offset=0, depth=0)
        return value
    finally:
        lib.cbor_reader_free(rd)


def iter_sequence(data, *, strict_utf8=False, max_depth=_DEFAULT_MAX_DEPTH):
    """Yields each top-level item of an RFC 8742 CBOR sequence, decoded as by loads().

    The sequence is walked with the library's cbor_seq_* iterator, which checks
    each item whole before it is decoded: the items before a bad one are
    yielded, then CBORDecodeError is raised with ``offset`` at the problem and
    ``item_offset`` at the start of the bad item. max_depth is at least 1 here
    (the C decode options read 0 as "the default").
    """
    _check_max_depth(max_depth)
    if max_depth == 0:
        raise ValueError("iter_sequence: max_depth must be at least 1")
    if type(data) is not bytes:
        data = _as_bytes(data)
    return _iter_sequence(data, strict_utf8, max_depth)


def _iter_sequence(data, strict_utf8, max_depth):
    _, _, address, size = _capi.borrow(data)
    opts = _capi.decode_options(max_depth)
    seq = c_void_p()
    st = lib.cbor_seq_new(address, size, byref(opts), byref(seq))
    if st != OK:
        _raise_status(st, "cbor_seq_new")
    rd = None
    try:
        # The reader re-walks each item cbor_seq_next checked; UTF-8 is left to
        # cbor_seq_next, and the depth limit holds already.
        rd = _new_reader(address, size, False, max_depth)
        views = _capi.new_item()
        views = (byref(views[0]),) + views[1:]
        base = address if address is not None else 0
        flags = _capi.DECODE_VALIDATE_UTF8 if strict_utf8 else 0
        off = c_size_t()
        length = c_size_t()
        while True:
            st = lib.cbor_seq_next(seq, flags, byref(off), byref(length))
            if st == END:
                return
            if st != OK:
                err = _capi.Error()
                err.struct_size = ctypes.sizeof(_capi.Error)
                lib.cbor_seq_error(seq, byref(err))
                if err.code == OK:  # not an input error
                    _raise_status(st, "cbor_seq_next")
                raise _failure(err.code, err)
            st = lib.cbor_reader_reset(rd, base + off.value, length.value)
            if st != OK:
                _raise_status(st, "cbor_reader_reset")
            value = _decode_item(rd, views, data, base)
            if value is _NO_ITEM:  # cannot happen: cbor_seq_next found an item here
                raise RuntimeError("cbor_fast: reader and sequence disagree")
            yield value
    finally:
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

    Free the library handle with close() or a ``with`` block (garbage
    collection also frees it).
    """

    def __init__(self, data, *, strict_utf8=False, max_depth=_DEFAULT_MAX_DEPTH):
        _check_max_depth(max_depth)
        self._rd = None
        keep, obj, address, size = _capi.borrow(data)
        self._keep = keep  # holds the buffer the library reads
        self._mv = memoryview(obj).cast("B")
        self._base = address if address is not None else 0
        # The allocation hooks (if any) must outlive the handle made with them.
        self._alloc = _capi.allocator
        self._rd = _new_reader(address, size, strict_utf8, max_depth)
        views = _capi.new_item()
        self._item = views[0]
        self._item_ref = byref(views[0])
        self._u32, self._u64, self._f64, self._ptr, self._sizes = views[1:]

    # -- lifetime

    def close(self):
        """Frees the library reader. Views already returned stay valid."""
        rd, self._rd = self._rd, None
        if rd is not None:
            lib.cbor_reader_free(rd)
        # Drop this object's hold on the input (a bytearray becomes resizable
        # again once the views handed out are gone too).
        self._keep = self._mv = None

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
        rd = self._handle()
        st = _capi.reader_next(rd, self._item_ref)
        if st != OK:
            if st == END:
                raise StopIteration
            raise _reader_error(rd)
        return self._current()

    def _current(self):
        u32 = self._u32
        t = u32[U32_TYPE]
        flags = u32[U32_FLAGS]
        raw = self._u64[U64_VALUE]
        if t == TYPE_UINT or t == TYPE_TAG:
            value = raw
        elif t == TYPE_NEGATIVE:
            value = -1 - raw
        elif t == TYPE_BYTES or t == TYPE_TEXT:
            if flags & ITEM_INDEFINITE:
                value = None
            else:
                off = self._ptr[PTR_DATA] - self._base
                value = self._mv[off:off + self._sizes[SIZE_SIZE]]
        elif t == TYPE_ARRAY or t == TYPE_MAP:
            value = None if flags & ITEM_INDEFINITE else raw
        elif t == TYPE_FLOAT:
            value = self._f64[F64_FLOAT]
        elif t == TYPE_BOOL:
            value = raw == 21
        elif t == TYPE_SIMPLE:
            value = raw
        elif t == TYPE_UNDEFINED:
            value = undefined
        else:  # NULL, END
            value = None
        return Item(_ITEM_TYPES[t], value, self._sizes[SIZE_OFFSET], u32[U32_DEPTH],
                    u32[U32_HEAD_SIZE], flags, u32[U32_FLOAT_WIDTH])

    def skip(self):
        """Passes over the next complete item. False if there is none (end of
        input, or the next thing is the END of the enclosing container)."""
        rd = self._handle()
        st = lib.cbor_reader_skip(rd)
        if st == OK:
            return True
        if st == END or st == _capi.STATUS_CODE_BY_NAME["invalid_state"]:
            return False
        raise _reader_error(rd)

    def skip_to_end(self):
        """Passes over the rest of the innermost open container, tag or
        indefinite string, including its END. ValueError at the top level."""
        rd = self._handle()
        st = lib.cbor_reader_skip_to_end(rd)
        if st == OK:
            return
        if st == _capi.STATUS_CODE_BY_NAME["invalid_state"]:
            raise ValueError("skip_to_end: no open container")
        raise _reader_error(rd)

    def join(self):
        """The whole content of the string item just returned.

        Definite string: the same zero-copy memoryview. Indefinite string
        (call right after its start item): its chunks and END are consumed and
        their joined content returned as bytes (a copy).
        """
        rd = self._handle()
        data = c_void_p()
        size = c_size_t()
        st = lib.cbor_reader_join(rd, self._item_ref, byref(data), byref(size))
        if st == _capi.STATUS_CODE_BY_NAME["invalid_state"]:
            raise ValueError("join: the last item is not the start of a string")
        if st != OK:
            if st == _OUT_OF_MEMORY:  # the join buffer; the reader itself is fine
                raise MemoryError("cbor_fast: join: out of memory")
            raise _reader_error(rd)
        if not self._u32[U32_FLAGS] & ITEM_INDEFINITE:
            off = (data.value or self._base) - self._base
            return self._mv[off:off + size.value]
        return ctypes.string_at(data.value, size.value) if size.value else b""

    def finish(self):
        """Checks that all input was read at the top level (CBORDecodeError
        "trailing_bytes" or "truncated" otherwise; ValueError while a container
        is still open with input left)."""
        rd = self._handle()
        st = lib.cbor_reader_finish(rd)
        if st == OK:
            return
        if st == _capi.STATUS_CODE_BY_NAME["invalid_state"]:
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
        return lib.cbor_reader_offset(self._handle())

    @property
    def depth(self):
        """Current nesting depth (0 at the top level)."""
        return lib.cbor_reader_depth(self._handle())


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

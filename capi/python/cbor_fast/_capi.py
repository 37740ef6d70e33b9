"""ctypes declarations of the libcbor_fast C API (capi/include/cbor_fast.h).

Internal module: the rest of the package calls the library only through the
names defined here. Loading order: the CBOR_FAST_LIB environment variable (full
path of libcbor_fast.so), then ctypes.util.find_library("cbor_fast"), then the
system loader with the SONAME.

Two handles on the same shared object: ``lib`` (ctypes.CDLL: releases the GIL
around each call) for calls that may do a lot of work at once, and ``fast``
(ctypes.PyDLL: keeps the GIL) for the per-item calls of the decode and encode
loops, where releasing and re-taking the GIL would cost about a fifth of each
call and the C side does only one item's work.
"""

import ctypes
import ctypes.util
import os
import struct

__all__ = []  # nothing public: see cbor_fast/__init__.py

# The ABI major this binding was written for (SOVERSION of libcbor_fast.so).
_ABI_MAJOR = 0
_MIN_VERSION = 200  # 0.2.0 (cbor_reader_next_batch, strict checks) as major * 10000 + minor * 100 + patch


def _load_path():
    path = os.environ.get("CBOR_FAST_LIB")
    if path:
        return path
    found = ctypes.util.find_library("cbor_fast")
    if found:
        return found
    return "libcbor_fast.so.%d" % _ABI_MAJOR


def _open():
    path = _load_path()
    try:
        return path, ctypes.CDLL(path), ctypes.PyDLL(path)
    except OSError as exc:
        raise ImportError(
            "cbor_fast: cannot load the libcbor_fast shared library (%s): %s; set "
            "CBOR_FAST_LIB to the full path of libcbor_fast.so" % (path, exc)) from None


library_path, lib, fast = _open()

# ---- types ---------------------------------------------------------------------

c_void_p = ctypes.c_void_p
c_size_t = ctypes.c_size_t
c_uint32 = ctypes.c_uint32
c_uint64 = ctypes.c_uint64
c_int = ctypes.c_int
c_int64 = ctypes.c_int64
c_double = ctypes.c_double
c_char_p = ctypes.c_char_p
POINTER = ctypes.POINTER
byref = ctypes.byref
status_t = ctypes.c_int  # enum cbor_fast_status


class Error(ctypes.Structure):
    """struct cbor_fast_error."""
    _fields_ = [("struct_size", c_uint32), ("code", status_t), ("offset", c_size_t),
                ("item_offset", c_size_t), ("depth", c_uint32), ("message", c_char_p)]


class Item(ctypes.Structure):
    """struct cbor_fast_item."""
    _fields_ = [("struct_size", c_uint32), ("type", c_int), ("flags", c_uint32),
                ("depth", c_uint32), ("offset", c_size_t), ("head_size", c_uint32),
                ("float_width", c_uint32), ("value", c_uint64), ("float_value", c_double),
                ("data", c_void_p), ("size", c_size_t)]


MALLOC_FN = ctypes.CFUNCTYPE(c_void_p, c_void_p, c_size_t)
REALLOC_FN = ctypes.CFUNCTYPE(c_void_p, c_void_p, c_void_p, c_size_t, c_size_t)
FREE_FN = ctypes.CFUNCTYPE(None, c_void_p, c_void_p, c_size_t)


class Allocator(ctypes.Structure):
    """struct cbor_fast_allocator."""
    _fields_ = [("malloc", MALLOC_FN), ("realloc", REALLOC_FN), ("free", FREE_FN),
                ("context", c_void_p)]


class DecodeOptions(ctypes.Structure):
    """struct cbor_fast_decode_options (the 0.2 layout: limits appended)."""
    _fields_ = [("struct_size", c_uint32), ("max_depth", c_uint32),
                ("alloc", POINTER(Allocator)), ("max_string_length", c_uint64),
                ("max_container_items", c_uint64), ("max_items", c_uint64),
                ("max_memory", c_uint64)]


ITEM_SIZE = ctypes.sizeof(Item)

# Field codes for struct formats over Item storage, by ctypes field type.
_FIELD_CODES = {c_uint32: "I", ctypes.c_int: "i", c_uint64: "Q", c_double: "d",
                c_size_t: "Q" if ctypes.sizeof(c_size_t) == 8 else "I",
                c_void_p: "Q" if ctypes.sizeof(c_void_p) == 8 else "I"}


def item_record(*names):
    """A struct.Struct that unpacks the named Item fields (in layout order)
    from one element of an Item array, skipping the rest: struct.iter_unpack
    over a batch then yields one tuple per item in a single C call, where
    reading each field through a ctypes descriptor or a memoryview index is a
    Python-level operation per field."""
    types = dict(Item._fields_)
    fmt = "="
    pos = 0
    for name in names:
        field = getattr(Item, name)
        if field.offset < pos:
            raise ValueError("item_record: fields out of layout order")
        if field.offset > pos:
            fmt += "%dx" % (field.offset - pos)
        fmt += _FIELD_CODES[types[name]]
        pos = field.offset + field.size
    if pos < ITEM_SIZE:
        fmt += "%dx" % (ITEM_SIZE - pos)
    record = struct.Struct(fmt)
    assert record.size == ITEM_SIZE, fmt
    return record


# Items per cbor_reader_next_batch call: 16 KiB of Item structs. Larger
# batches gain nothing measurable (the per-call cost is already spread over
# 256 items) and make a Reader read further ahead of its caller.
BATCH_CAPACITY = 256


class Batch:
    """An array of Item for cbor_reader_next_batch, with the ctypes
    arguments of the call made once: ``ref`` (the array), ``capacity``,
    ``count_ref`` (the count out-parameter, read through ``count``) and
    ``raw``, a byte memoryview of the array for struct.iter_unpack."""

    __slots__ = ("items", "ref", "capacity", "count", "count_ref", "raw")

    def __init__(self, capacity=BATCH_CAPACITY):
        self.items = (Item * capacity)()
        # Only the first element's struct_size is read (it sizes them all).
        self.items[0].struct_size = ITEM_SIZE
        self.ref = byref(self.items)
        self.capacity = c_size_t(capacity)
        self.count = c_size_t()
        self.count_ref = byref(self.count)
        self.raw = memoryview(self.items).cast("B")

    def item_ref(self, index):
        """byref() of element `index` (for cbor_reader_join)."""
        return byref(self.items, index * ITEM_SIZE)


# ---- constants (cbor_fast.h) -------------------------------------------------------

OK = 0
END = 1

TYPE_NONE = 0
TYPE_UINT = 1
TYPE_NEGATIVE = 2
TYPE_BYTES = 3
TYPE_TEXT = 4
TYPE_ARRAY = 5
TYPE_MAP = 6
TYPE_TAG = 7
TYPE_SIMPLE = 8
TYPE_BOOL = 9
TYPE_NULL = 10
TYPE_UNDEFINED = 11
TYPE_FLOAT = 12
TYPE_END = 13

ITEM_INDEFINITE = 1
ITEM_BREAK = 2

OPT_MAX_DEPTH = 1
OPT_VALIDATE_UTF8 = 2
OPT_MAX_STRING_LENGTH = 3
OPT_MAX_CONTAINER_ITEMS = 4
OPT_MAX_ITEMS = 5
OPT_REJECT_DUPLICATE_KEYS = 6
OPT_DETERMINISTIC = 7

FLOAT_SHORTEST = 0

DECODE_EXACT = 1
DECODE_COPY_STRINGS = 2
DECODE_VALIDATE_UTF8 = 4
DECODE_REJECT_DUPLICATE_KEYS = 8
DECODE_DETERMINISTIC = 16

# Every status code of cbor_fast.h (names come from the library itself).
STATUS_CODES = (0, 1, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
                100, 101, 102, 103, 104, 105, 106, 107, 200, 201, 202, 203, 204, 205,
                300, 301, 302, 303, 304, 305, 399)

# ---- prototypes ----------------------------------------------------------------------


def _proto(handle, name, restype, *argtypes):
    fn = getattr(handle, name)
    fn.restype = restype
    fn.argtypes = argtypes
    return fn


def _both(name, restype, *argtypes):
    _proto(lib, name, restype, *argtypes)
    return _proto(fast, name, restype, *argtypes)


_proto(lib, "cbor_status_string", c_char_p, status_t)
_proto(lib, "cbor_status_name", c_char_p, status_t)
_proto(lib, "cbor_fast_version", c_uint32)
_proto(lib, "cbor_fast_version_string", c_char_p)

# Reader. cbor_reader_next is the hot call of every decode: it is declared
# without argtypes on `fast` so ctypes passes the c_void_p handle and the byref()
# item as they are, with no per-call conversion (both are ctypes objects).
_proto(lib, "cbor_reader_new", status_t, c_void_p, c_size_t, POINTER(Allocator),
       POINTER(c_void_p))
_proto(lib, "cbor_reader_free", None, c_void_p)
_proto(lib, "cbor_reader_reset", status_t, c_void_p, c_void_p, c_size_t)
_proto(lib, "cbor_reader_set", status_t, c_void_p, c_int, c_uint64)
_proto(lib, "cbor_reader_skip", status_t, c_void_p)
_proto(lib, "cbor_reader_skip_to_end", status_t, c_void_p)
_proto(lib, "cbor_reader_join", status_t, c_void_p, POINTER(Item), POINTER(c_void_p),
       POINTER(c_size_t))
_proto(lib, "cbor_reader_finish", status_t, c_void_p)
_proto(lib, "cbor_reader_offset", c_size_t, c_void_p)
_proto(lib, "cbor_reader_depth", c_uint32, c_void_p)
_proto(lib, "cbor_reader_error", status_t, c_void_p, POINTER(Error))
reader_next = fast.cbor_reader_next
reader_next.restype = status_t
# The same for the batched call, which every decode loop uses (arguments: the
# handle, Batch.ref, Batch.capacity, Batch.count_ref: all ctypes objects).
reader_next_batch = fast.cbor_reader_next_batch
reader_next_batch.restype = status_t

# Writer: argtypes everywhere (Python ints must become uint64_t/size_t, not int).
_proto(lib, "cbor_writer_new", status_t, POINTER(Allocator), POINTER(c_void_p))
_proto(lib, "cbor_writer_free", None, c_void_p)
_proto(lib, "cbor_writer_reset", status_t, c_void_p)
_proto(lib, "cbor_writer_finish", status_t, c_void_p, POINTER(c_void_p), POINTER(c_size_t))
_proto(lib, "cbor_writer_size", c_size_t, c_void_p)
writer_uint = _both("cbor_writer_uint", status_t, c_void_p, c_uint64)
writer_negative = _both("cbor_writer_negative", status_t, c_void_p, c_uint64)
writer_bignum = _both("cbor_writer_bignum", status_t, c_void_p, c_char_p, c_size_t, c_int)
writer_bytes = _both("cbor_writer_bytes", status_t, c_void_p, c_char_p, c_size_t)
writer_text = _both("cbor_writer_text", status_t, c_void_p, c_char_p, c_size_t)
writer_tag = _both("cbor_writer_tag", status_t, c_void_p, c_uint64)
writer_bool = _both("cbor_writer_bool", status_t, c_void_p, c_int)
writer_null = _both("cbor_writer_null", status_t, c_void_p)
writer_undefined = _both("cbor_writer_undefined", status_t, c_void_p)
writer_simple = _both("cbor_writer_simple", status_t, c_void_p, ctypes.c_uint8)
writer_float = _both("cbor_writer_float", status_t, c_void_p, c_double, c_int)
writer_array = _both("cbor_writer_array", status_t, c_void_p, c_uint64)
writer_map = _both("cbor_writer_map", status_t, c_void_p, c_uint64)
writer_end = _both("cbor_writer_end", status_t, c_void_p)

# Documents (used by the node-walk decoder kept for comparison in bench.py).
_proto(lib, "cbor_decode", status_t, c_void_p, c_size_t, c_uint32, POINTER(DecodeOptions),
       POINTER(c_void_p), POINTER(Error))
_proto(lib, "cbor_doc_free", None, c_void_p)
_proto(lib, "cbor_doc_root", c_void_p, c_void_p)
_proto(lib, "cbor_doc_node_count", c_size_t, c_void_p)
_proto(lib, "cbor_doc_encoded_size", c_size_t, c_void_p)

# Sequences. cbor_seq_next checks a whole top-level item: lib, not fast.
_proto(lib, "cbor_seq_new", status_t, c_void_p, c_size_t, POINTER(DecodeOptions),
       POINTER(c_void_p))
_proto(lib, "cbor_seq_free", None, c_void_p)
_proto(lib, "cbor_seq_next", status_t, c_void_p, c_uint32, POINTER(c_size_t),
       POINTER(c_size_t))
_proto(lib, "cbor_seq_next_doc", status_t, c_void_p, c_uint32, POINTER(c_void_p))
_proto(lib, "cbor_seq_error", status_t, c_void_p, POINTER(Error))

version = lib.cbor_fast_version()
version_string = lib.cbor_fast_version_string().decode("ascii")
if version // 10000 != _ABI_MAJOR or version < _MIN_VERSION:
    raise ImportError("cbor_fast: %s is version %s; this binding needs %d.x, at least 0.1.0"
                      % (library_path, version_string, _ABI_MAJOR))

STATUS_NAMES = {code: lib.cbor_status_name(code).decode("ascii") for code in STATUS_CODES}
STATUS_CODE_BY_NAME = {name: code for code, name in STATUS_NAMES.items()}


def status_name(code):
    """The library's name for a status code ("truncated")."""
    name = STATUS_NAMES.get(code)
    return name if name is not None else lib.cbor_status_name(code).decode("ascii")


def status_message(code):
    """The library's English description of a status code."""
    return lib.cbor_status_string(code).decode("ascii")


# ---- allocation hooks ----------------------------------------------------------------

# The cbor_fast_allocator every handle of this package is created with; None
# means the library's default (malloc/realloc/free). Tests install counting
# hooks here (set_allocator); the struct must outlive every handle made with it.
allocator = None


def set_allocator(alloc):
    """Creates all later handles with `alloc` (an Allocator) or the default (None).

    Returns the previous value. Handles already created keep their own hooks.
    """
    global allocator
    previous = allocator
    allocator = None if alloc is None else ctypes.pointer(alloc)
    return previous if previous is None else previous.contents


def decode_options(max_depth, max_string_length=None, max_container_items=None,
                   max_items=None, max_memory=None):
    """A cbor_fast_decode_options with the package's allocator (None limits: 0, none)."""
    opts = DecodeOptions()
    opts.struct_size = ctypes.sizeof(DecodeOptions)
    opts.max_depth = max_depth
    opts.alloc = allocator
    opts.max_string_length = max_string_length or 0
    opts.max_container_items = max_container_items or 0
    opts.max_items = max_items or 0
    opts.max_memory = max_memory or 0
    return opts


# ---- buffers -------------------------------------------------------------------------


def borrow(data):
    """(keep, obj, address, size) for an input buffer without copying where possible.

    bytes: its own storage. A writable contiguous buffer (bytearray, writable
    memoryview, array): a ctypes array over it, which also stops a bytearray
    from being resized while `keep` is alive. Anything else (e.g. a read-only
    memoryview) is copied into bytes once. `obj` is what memoryview slices
    should be taken from (the original object or the copy); `keep` must stay
    referenced while the library holds `address`.
    """
    if type(data) is bytes:
        n = len(data)
        return data, data, ctypes.cast(c_char_p(data), c_void_p).value if n else None, n
    try:
        mv = memoryview(data)
    except TypeError:
        raise TypeError("a bytes-like object is required, not %r"
                        % type(data).__name__) from None
    if not mv.c_contiguous or mv.readonly:
        copy = mv.tobytes()
        return borrow(copy)
    mv = mv.cast("B")
    n = mv.nbytes
    if n == 0:
        return mv, mv, None, 0
    arr = (ctypes.c_char * n).from_buffer(mv)
    return (arr, mv), mv, ctypes.addressof(arr), n

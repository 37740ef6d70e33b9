"""Encoding: dumps() through the library's push writer."""

import ctypes
from collections.abc import Mapping
from itertools import chain

from . import _capi
from ._capi import FLOAT_SHORTEST, OK, byref, c_size_t, c_void_p, lib
from ._types import CBOREncodeError, CBOREncodeTypeError, Simple, Tag, _Undefined

__all__ = ["dumps"]

_U64_MAX = 0xFFFFFFFFFFFFFFFF
_pairs = chain.from_iterable


def _bignum(w, v):
    n = v if v >= 0 else -1 - v
    magnitude = n.to_bytes((n.bit_length() + 7) // 8, "big")
    _capi.writer_bignum(w, magnitude, len(magnitude), 1 if v < 0 else 0)


def _other(w, v):
    """Writes a value of a less common type (subclasses, buffers, Simple, ...).

    Returns None once a scalar is written, or (children iterator, needs_end)
    for a container or tag whose head it wrote.
    """
    if isinstance(v, bool):  # unreachable for exact bools (main loop), kept for clarity
        _capi.writer_bool(w, 1 if v else 0)
    elif isinstance(v, int):
        v = int(v)
        if 0 <= v <= _U64_MAX:
            _capi.writer_uint(w, v)
        elif -_U64_MAX - 1 <= v < 0:
            _capi.writer_negative(w, -1 - v)
        else:
            _bignum(w, v)
    elif isinstance(v, float):
        _capi.writer_float(w, float(v), FLOAT_SHORTEST)
    elif isinstance(v, str):
        b = str(v).encode("utf-8", "surrogateescape")
        _capi.writer_text(w, b, len(b))
    elif isinstance(v, (bytes, bytearray, memoryview)):
        b = memoryview(v).tobytes()
        _capi.writer_bytes(w, b, len(b))
    elif type(v) is Simple:
        _capi.writer_simple(w, v.value)
    elif type(v) is _Undefined:
        _capi.writer_undefined(w)
    elif isinstance(v, Mapping):  # dict subclasses, FrozenDict, other mappings
        _capi.writer_map(w, len(v))
        return _pairs(v.items()), True
    elif isinstance(v, (list, tuple)):
        _capi.writer_array(w, len(v))
        return iter(v), True
    elif isinstance(v, Tag):
        _capi.writer_tag(w, v.number)
        return iter((v.value,)), False
    else:
        raise CBOREncodeTypeError("cannot encode an object of type %r" % type(v).__name__)
    return None


def _encode(w, obj):
    """Writes obj to writer w, depth-first on an explicit stack (no recursion).

    Writer calls are not checked one by one: the writer's errors are sticky and
    cbor_writer_finish() reports the first of them.
    """
    text = _capi.writer_text
    uint = _capi.writer_uint
    negative = _capi.writer_negative
    flt = _capi.writer_float
    array = _capi.writer_array
    map_ = _capi.writer_map
    end = _capi.writer_end
    boolean = _capi.writer_bool
    null = _capi.writer_null
    bytes_ = _capi.writer_bytes
    tag = _capi.writer_tag
    u64_max = _U64_MAX
    neg_min = -_U64_MAX - 1
    stack = []
    push = stack.append
    pop = stack.pop
    open_ids = set()  # containers and tags being written: a repeat is a cycle
    it = iter((obj,))
    cid = None        # id of the container or tag `it` walks
    needs_end = False  # containers need cbor_writer_end; tags do not
    while True:
        for v in it:
            t = type(v)
            if t is str:
                b = v.encode("utf-8", "surrogateescape")
                text(w, b, len(b))
            elif t is int:
                if 0 <= v <= u64_max:
                    uint(w, v)
                elif neg_min <= v < 0:
                    negative(w, -1 - v)
                else:
                    _bignum(w, v)
            elif t is float:
                flt(w, v, 0)
            elif t is dict or t is list or t is tuple:
                i = id(v)
                if i in open_ids:
                    raise CBOREncodeError("cyclic data structure: a container holds itself")
                if t is dict:
                    map_(w, len(v))
                    child = _pairs(v.items())
                else:
                    array(w, len(v))
                    child = iter(v)
                push((it, cid, needs_end))
                open_ids.add(i)
                it = child
                cid = i
                needs_end = True
                break
            elif t is bool:
                boolean(w, 1 if v else 0)
            elif v is None:
                null(w)
            elif t is bytes:
                bytes_(w, v, len(v))
            elif t is Tag:
                i = id(v)
                if i in open_ids:
                    raise CBOREncodeError("cyclic data structure: a tag holds itself")
                tag(w, v.number)
                push((it, cid, needs_end))
                open_ids.add(i)
                it = iter((v.value,))
                cid = i
                needs_end = False
                break
            else:
                opened = _other(w, v)
                if opened is not None:
                    i = id(v)
                    if i in open_ids:
                        raise CBOREncodeError("cyclic data structure: a container holds itself")
                    push((it, cid, needs_end))
                    open_ids.add(i)
                    it, needs_end = opened
                    cid = i
                    break
        else:
            if not stack:
                return
            if needs_end:
                end(w)
            open_ids.discard(cid)
            it, cid, needs_end = pop()


def dumps(obj):
    """Encodes obj as CBOR with preferred serialization; returns bytes.

    int (any size: beyond 64 bits as bignum tags 2/3), float (the shortest of
    half/single/double that keeps the value exactly, NaN and infinities
    included), bool, None, bytes/bytearray/memoryview, str (UTF-8; lone
    surrogates from the "surrogateescape" handler become the original bytes,
    as loads() makes them), list/tuple (array), dict/FrozenDict/other Mapping
    (map, in iteration order, definite length), Tag, Simple, undefined.
    Subclasses of these types are encoded as the base type.
    Raises CBOREncodeTypeError (a CBOREncodeError and TypeError) for other
    types, CBOREncodeError for cycles, strings that cannot be encoded, and
    writer failures.
    """
    w = c_void_p()
    st = lib.cbor_writer_new(_capi.allocator, byref(w))
    if st != OK:
        if _capi.status_name(st) == "out_of_memory":
            raise MemoryError("cbor_fast: cbor_writer_new: out of memory")
        raise CBOREncodeError("cbor_writer_new failed: %s" % _capi.status_name(st),
                              _capi.status_name(st))
    try:
        try:
            _encode(w, obj)
        except UnicodeEncodeError as exc:
            raise CBOREncodeError("text string cannot be encoded as UTF-8: %s" % exc) from None
        data = c_void_p()
        size = c_size_t()
        st = lib.cbor_writer_finish(w, byref(data), byref(size))
        if st != OK:
            name = _capi.status_name(st)
            if name == "out_of_memory":
                raise MemoryError("cbor_fast: writer: out of memory")
            raise CBOREncodeError("writer failed: %s (%s)" % (name, _capi.status_message(st)),
                                  name)
        return ctypes.string_at(data.value, size.value)
    finally:
        lib.cbor_writer_free(w)

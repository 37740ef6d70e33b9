"""cbor_fast: CBOR (RFC 8949) and CBOR sequences (RFC 8742) over libcbor_fast.

A ctypes binding of the libcbor_fast C API (standard library only).

    loads(data, *, strict_utf8=False, max_depth=512,  one data item -> Python value
          reject_duplicate_keys=False, deterministic=False, max_string_length=None,
          max_container_items=None, max_items=None, max_memory=None)
    dumps(obj)                                        Python value -> bytes (preferred form)
    iter_sequence(data, ...)                          each item of a CBOR sequence
    Reader(data, ...)                                 low-level items, strings as zero-copy views

Value mapping (loads / dumps):

    CBOR                          Python
    unsigned / negative integer   int (down to -2**64)
    tag 2 / 3 over a byte string  int (bignum); dumps() writes ints beyond 64 bits this way
    float16/32/64                 float; dumps() picks the shortest exact width
    byte string                   bytes (dumps() also takes bytearray and memoryview)
    text string                   str
    array                         list (tuple when used as a map key; dumps() takes tuple)
    map                           dict (FrozenDict when used as a map key)
    other tags                    Tag(number, value)
    false / true / null           False / True / None
    undefined                     undefined (singleton)
    other simple values           Simple(n)

The shared library is found through the CBOR_FAST_LIB environment variable
(the full path of libcbor_fast.so), else ctypes.util.find_library and the
system loader. Every library handle this package creates is freed before the
call that made it returns (the Reader frees its handle on close(), at the end
of a ``with`` block or when collected).
"""

from ._capi import library_path, version_string as library_version
from ._decoder import Item, ItemType, Reader, iter_sequence, loads
from ._encoder import dumps
from ._types import (CBORDecodeError, CBOREncodeError, CBOREncodeTypeError, FrozenDict, Simple,
                     Tag, undefined)

__version__ = "0.3.0"

__all__ = ["loads", "dumps", "iter_sequence", "Reader", "Item", "ItemType", "Tag", "Simple",
           "undefined", "FrozenDict", "CBORDecodeError", "CBOREncodeError",
           "CBOREncodeTypeError", "library_path", "library_version"]

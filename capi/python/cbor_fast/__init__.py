"""cbor_fast: CBOR (RFC 8949) for Python, a compiled extension over libcbor_fast.

A drop-in for cbor2 (same names and options; switch with the import):

    import cbor_fast as cbor2
    data = cbor2.dumps({"a": [1, 2.5, b"x"]}, canonical=True)
    value = cbor2.loads(data)

    loads(data, **options)      exactly one data item -> Python value
    load(fp, **options)         the next data item of a binary file (read in
                                blocks; the file is left just after the item)
    CBORDecoder(fp, **options).decode()  the items of a file one by one (the
                                bytes read past an item kept for the next)
    dumps(obj, **options)       Python value -> bytes
    dump(obj, fp, **options)    writes dumps(obj) to a binary file
    iter_sequence(data, ...)    each item of an RFC 8742 CBOR sequence
    Reader(data, ...)           low-level items, strings as zero-copy memoryviews
    loads_array(data, typecode="d")  one array of numbers (or RFC 8746 typed
                                array) -> array.array ('d', 'q' or 'Q'), in one
                                library call

Decoding options (cbor2's): tag_hook(tag, immutable), object_hook(dict,
immutable), semantic_decoders {tag: fn(value, immutable)}, str_errors
("strict", "replace", ...), max_depth (default 512; any depth decodes without
recursion), allow_indefinite, allow_duplicate_keys, strict_hashable_types (map
keys and set members: str and bytes only), immutable. cbor_fast's
own: strict_utf8, reject_duplicate_keys, deterministic, max_string_length,
max_container_items, max_items, max_memory (bytes the decoder may hold: the
library reader, the extension's stack, the table counting map keys that share
a hash, and an estimate of the objects built),
typed_arrays (RFC 8746 tags 64..86 -> array.array in host byte order; float16
widened to 'd'; float128, tag 76 and typed arrays inside map keys, set members
or with immutable=True stay CBORTag, as cbor2 leaves them all).
None selects a limit's default: no string limit, DEFAULT_MAX_CONTAINER_ITEMS
(2**24) entries per array or map and DEFAULT_MAX_ITEMS (2**28) items (both
since 0.5; counted per top-level item for Reader and iter_sequence);
2**64 - 1 lifts a limit. load and CBORDecoder also take max_buffer (default
64 MiB): the most bytes of one item held ("memory_budget_exceeded" beyond).

Encoding options (cbor2's): datetime_as_timestamp, timezone, value_sharing,
default(encoder, obj), canonical (byte-identical to cbor2's canonical mode),
date_as_datetime, indefinite_containers. An array.array is written as
a CBOR array of its numbers (as cbor2 does); cbor_fast's typed_arrays=True
writes it, and a memoryview of numbers (not of bytes), as an RFC 8746 typed
array in the buffer's byte order, with tag 40 and the shape for more than one
dimension; halves (format 'e', numpy's float16) as tag 84 or 80, which
loads(typed_arrays=True) gives back as array('d').

Differences from cbor2, on purpose: loads() rejects bytes after the item
("trailing_bytes"); errors carry .status, .code, .offset, .depth; floats are
written in their shortest exact width (cbor2 writes doubles unless canonical);
map keys and set members nest at most 1000 deep and hold no shared references
to containers (hashing them recurses in C); value_sharing shares lists and
dicts; string_referencing is decoded only; encoders= is not supported.
"""

import io

from . import _ext, _semantic
from ._ext import (DEFAULT_MAX_CONTAINER_ITEMS, DEFAULT_MAX_ITEMS, CBOREncoder, Reader, dumps,
                   iter_sequence, loads, loads_array)
from ._types import (STATUS_CODES, CBORDecodeEOF, CBORDecodeError, CBOREncodeError,
                     CBOREncodeTypeError, CBOREncodeValueError, CBORError, CBORSimpleValue,
                     CBORTag, FrozenDict, Item, ItemType, UndefinedType, undefined)

_ext._setup(tag_type=CBORTag, simple_type=CBORSimpleValue, undefined=undefined,
            frozendict=FrozenDict, decode_error=CBORDecodeError, encode_error=CBOREncodeError,
            encode_type_error=CBOREncodeTypeError, encode_value_error=CBOREncodeValueError,
            semantic_decode=_semantic.decode, special_encode=_semantic.encode,
            written=_semantic.WRITTEN, item_type=Item,
            semantic_tags=frozenset(_semantic._DECODERS))

__version__ = "0.4.0"
library_version = _ext.library_version

# Older cbor_fast names.
Tag = CBORTag
Simple = CBORSimpleValue
frozendict = FrozenDict


def _seekable(fp):
    try:
        return bool(fp.seekable())
    except (AttributeError, OSError, ValueError):
        return False


def load(fp, *, max_buffer=None, read_size=None, **options):
    """Decodes the next data item from the binary file `fp` (as cbor2.load).

    Reads the file in blocks of 4 KiB, then 8, 16, 32 and 64 KiB, until the
    item is complete (no more of the item than `max_buffer` bytes, default 64
    MiB, are held: a longer one fails with status "memory_budget_exceeded")
    and leaves the file just after
    the item: a file that can seek is seeked back over the bytes read past it;
    from one that cannot (a pipe, a socket) only the item's bytes are read,
    as the item's heads ask for them. CBORDecoder(fp).decode() reads several
    items with fewer reads. Error offsets count from the file's position
    when load() was called; after an error the file is after the bytes
    read. `read_size` (cbor2's): the least bytes read at
    once from a file that can seek, if more than 64 KiB (then every read asks
    for that much).
    """
    if type(fp) is io.BytesIO and max_buffer is None and read_size is None:
        # Its bytes are in memory: decoded where they are (no reads, no
        # buffer), unless a hook is given or more than 64 MiB are left; an
        # item that fails goes the file's way too, for its error and the
        # position it leaves.
        value = _ext._load_in_place(fp, **options)
        if value is not NotImplemented:
            return value
    seekable = _seekable(fp)
    decoder = _ext.StreamDecoder(fp, options, max_buffer, not seekable, read_size, True)
    value = decoder.decode()
    if decoder.pending:
        fp.seek(-decoder.pending, 1)
    return value


def dump(obj, fp, **options):
    """Writes dumps(obj, **options) to the binary file `fp`."""
    fp.write(dumps(obj, **options))


class CBORDecoder:
    """cbor2-style decoder over a binary file: decode() reads the next item.

    The file is read in blocks of 64 KiB; the bytes read past an item stay in
    the decoder for the next decode(), so a pipe or socket carrying several
    items is read with one CBORDecoder (load() does not keep them). Options
    are those of loads, and `max_buffer` (default 64 MiB): the most bytes of
    one item held, beyond which it fails with status "memory_budget_exceeded"
    at the item's offset. Error offsets count from the start of the stream
    (where the file was when the decoder was made); the end of the file
    between items is CBORDecodeEOF (status "truncated") at the stream's end.
    `read_size` (cbor2's): the least bytes asked for in one read, if more
    than 64 KiB.
    """

    def __init__(self, fp, *, max_buffer=None, read_size=None, **options):
        self._options = options
        self._max_buffer = max_buffer
        self.read_size = read_size
        self.tag_hook = options.get("tag_hook")
        self.object_hook = options.get("object_hook")
        self.str_errors = options.get("str_errors", "strict")
        self.fp = fp

    @property
    def fp(self):
        return self._fp

    @fp.setter
    def fp(self, fp):
        """A new file: the bytes buffered from the old one are dropped."""
        self._decoder = _ext.StreamDecoder(fp, self._options, self._max_buffer, False,
                                           self.read_size)
        self._fp = fp

    def decode(self, *, immutable=False):
        # Positional: parsing a keyword argument cost the call about 0.09 us,
        # 13 % of a 30-byte item's decode (0.76 -> 0.67 us, best of 15).
        if immutable:
            return self._decoder.decode(True)
        return self._decoder.decode()

    @property
    def offset(self):
        """Stream offset of the next item."""
        return self._decoder.offset


__all__ = ["loads", "loads_array", "load", "dumps", "dump", "iter_sequence", "Reader", "Item", "ItemType",
           "CBORTag", "CBORSimpleValue", "undefined", "UndefinedType", "FrozenDict",
           "frozendict", "CBORError", "CBORDecodeError", "CBORDecodeEOF", "CBOREncodeError",
           "CBOREncodeTypeError", "CBOREncodeValueError", "CBOREncoder", "CBORDecoder",
           "STATUS_CODES", "library_version", "Tag", "Simple", "DEFAULT_MAX_CONTAINER_ITEMS",
           "DEFAULT_MAX_ITEMS"]

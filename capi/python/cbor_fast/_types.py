"""Value types and exceptions of the cbor_fast package (cbor2-compatible names)."""

from __future__ import annotations

import _thread
from collections import namedtuple
from collections.abc import Iterator, Mapping
from enum import IntEnum
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

__all__ = ["CBORError", "CBORDecodeError", "CBORDecodeEOF", "CBOREncodeError",
           "CBOREncodeTypeError", "CBOREncodeValueError", "FrozenDict", "CBORSimpleValue",
           "CBORTag", "undefined", "STATUS_CODES", "Item", "ItemType"]

# The library's status codes (cbor_fast_status in capi/include/cbor_fast.h), by
# name. tests/test_status.py checks this table against the header's enum.
STATUS_CODES: dict[str, int] = {
    "ok": 0, "end": 1, "need_more": 2,
    "invalid_argument": 10, "invalid_state": 11, "buffer_too_small": 12,
    "writer_unclosed": 13, "writer_count_mismatch": 14, "writer_no_container": 15,
    "writer_bad_chunk": 16, "writer_odd_map": 17, "sink_failed": 18, "type_mismatch": 19,
    "out_of_range": 20, "source_failed": 21,
    "truncated": 100, "reserved_additional_info": 101, "indefinite_not_allowed": 102, "bad_simple_value": 103,
    "chunk_type_mismatch": 104, "nested_indefinite_chunk": 105, "unexpected_break": 106, "map_missing_value": 107,
    "invalid_utf8": 200, "trailing_bytes": 201, "non_preferred_encoding": 202,
    "indefinite_length": 203, "unsorted_map_keys": 204, "duplicate_key": 205,
    "syntax_error": 220,
    "depth_exceeded": 300, "out_of_memory": 301, "too_many_items": 302,
    "container_too_large": 303, "string_too_long": 304, "memory_budget_exceeded": 305,
    "internal_error": 399,
}
STATUS_NAMES = {code: name for name, code in STATUS_CODES.items()}


class CBORError(Exception):
    """Base of every cbor_fast error (as cbor2.CBORError)."""


class CBORDecodeError(CBORError, ValueError):
    """Input that is not well-formed, refused by a check or limit, or whose
    tag content is not what the tag needs.

    ``status``: the library's status name ("truncated"), None for a semantic
    error (a tag over the wrong content, a missing shared or string
    reference); ``code`` its number (100); ``offset`` the byte offset of the
    problem (for a semantic error the tag's head); ``item_offset`` the offset
    of the top-level item containing it; ``depth`` the nesting depth there;
    ``message`` the description.
    """

    status: str | None
    code: int | None
    offset: int | None
    message: str
    item_offset: int | None
    depth: int | None

    def __new__(cls, status: str | int | None = None, *args: Any, **kwargs: Any) -> CBORDecodeError:
        # truncated input is also an EOFError, as in cbor2
        if cls is CBORDecodeError and status in (100, "truncated"):
            cls = CBORDecodeEOF
        return super().__new__(cls, status, *args)

    def __init__(self, status: str | int | None = None, offset: int | None = None,
                 message: str | None = None, *, item_offset: int | None = None,
                 depth: int | None = None) -> None:
        name: str | None
        code: int | None
        if isinstance(status, int) and not isinstance(status, bool):
            code = status
            name = STATUS_NAMES.get(code, "unknown")
        elif isinstance(status, str) and status not in STATUS_CODES and message is None:
            # CBORDecodeError("what went wrong"), as cbor2 code raises it
            # (from a hook, a semantic decoder): the message, no status. It
            # had been taken for a status name and printed twice.
            name, code, message = None, None, status
        else:
            name = status if isinstance(status, str) else None
            code = STATUS_CODES.get(name) if name is not None else None
        if message is None:
            from . import _ext
            message = _ext.status_string(code) if code is not None else str(name)
        super().__init__(name, offset, message)
        self.status = name
        self.code = code
        self.offset = offset
        self.message = message
        self.item_offset = item_offset
        self.depth = depth

    def __str__(self) -> str:
        where = "" if self.offset is None else " at offset %d" % self.offset
        if self.status is None:
            return "%s%s" % (self.message, where)
        return "%s%s: %s" % (self.status, where, self.message)


class CBORDecodeEOF(CBORDecodeError, EOFError):
    """The input ended inside an item (status "truncated"), as cbor2.CBORDecodeEOF."""


class CBOREncodeError(CBORError):
    """A value that cannot be encoded, or a writer failure (``status`` names
    the library status then, e.g. "writer_count_mismatch" for a list that changed size
    while it was encoded)."""

    status: str | None = None


class CBOREncodeTypeError(CBOREncodeError, TypeError):
    """An object of a type dumps() does not know (and `default` did not handle)."""


class CBOREncodeValueError(CBOREncodeError, ValueError):
    """A value that cannot be encoded: a cycle without value_sharing, a str
    with lone surrogates, a naive datetime without `timezone`, ..."""


_REPR_RUNNING: set[tuple[int, int]] = set()  # CBORTag reprs under way: (id, thread)


class CBORTag:
    """A tagged data item: tag number ``tag`` (0 .. 2**64 - 1) over ``value``.

    Equal to another CBORTag with equal number and value, ordered by (tag,
    value); hashable when its value is.
    """

    __slots__ = ("tag", "value")

    tag: int
    value: Any

    def __init__(self, tag: int, value: Any) -> None:
        if not isinstance(tag, int) or isinstance(tag, bool) or \
                not 0 <= tag <= 0xFFFFFFFFFFFFFFFF:
            raise ValueError("CBORTag tags must be positive integers less than 2**64, not %r"
                             % (tag,))
        self.tag = tag
        self.value = value

    @property
    def number(self) -> int:
        """The tag number (same as ``tag``)."""
        return self.tag

    def _key(self) -> tuple[int, Any]:
        return (self.tag, self.value)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CBORTag):
            return NotImplemented
        return self._key() == other._key()

    def __lt__(self, other: CBORTag) -> bool:
        if not isinstance(other, CBORTag):
            return NotImplemented
        return self._key() < other._key()

    def __le__(self, other: CBORTag) -> bool:
        if not isinstance(other, CBORTag):
            return NotImplemented
        return self._key() <= other._key()

    def __gt__(self, other: CBORTag) -> bool:
        if not isinstance(other, CBORTag):
            return NotImplemented
        return self._key() > other._key()

    def __ge__(self, other: CBORTag) -> bool:
        if not isinstance(other, CBORTag):
            return NotImplemented
        return self._key() >= other._key()

    def __hash__(self) -> int:
        return hash((CBORTag, self.tag, self.value))

    def __repr__(self) -> str:
        # A tag that holds itself (28(6(29(0))), a shared value) shows as
        # CBORTag(6, CBORTag(...)); it recursed until RecursionError. (As
        # reprlib.recursive_repr does it, whose wrapper the stubs would not
        # match.)
        key = (id(self), _thread.get_ident())
        if key in _REPR_RUNNING:
            return "CBORTag(...)"
        _REPR_RUNNING.add(key)
        try:
            return "CBORTag(%d, %r)" % (self.tag, self.value)
        finally:
            _REPR_RUNNING.discard(key)


class CBORSimpleValue:
    """A simple value other than false, true, null and undefined: ``value``
    0..19 or 32..255 (20..23 are False/True/None/undefined, 24..31 are not
    well-formed). Compares equal to another CBORSimpleValue or an int of the
    same value, as in cbor2."""

    __slots__ = ("value",)

    value: int

    def __init__(self, value: int) -> None:
        if not isinstance(value, int) or isinstance(value, bool) or \
                not (0 <= value <= 19 or 32 <= value <= 255):
            raise ValueError("simple value must be 0..19 or 32..255, not %r" % (value,))
        self.value = value

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CBORSimpleValue):
            return self.value == other.value
        if isinstance(other, int) and not isinstance(other, bool):
            return self.value == other
        return NotImplemented

    def __lt__(self, other: CBORSimpleValue | int) -> bool:
        if isinstance(other, CBORSimpleValue):
            return self.value < other.value
        if isinstance(other, int):
            return self.value < other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.value)

    def __repr__(self) -> str:
        return "CBORSimpleValue(%d)" % self.value


class UndefinedType:
    """The CBOR undefined value (simple 23); use the ``undefined`` singleton."""

    __slots__ = ()
    _instance: UndefinedType | None = None

    def __new__(cls) -> UndefinedType:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "undefined"

    def __bool__(self) -> bool:
        return False

    def __reduce__(self) -> tuple[type[UndefinedType], tuple[()]]:
        return (UndefinedType, ())


undefined = UndefinedType()


_KT = TypeVar("_KT")
_VT_co = TypeVar("_VT_co", covariant=True)


class FrozenDict(Mapping[_KT, _VT_co]):
    """An immutable, hashable mapping: what loads() returns for a map used as
    a map key (or with immutable=True). dumps() encodes it as a map."""

    __slots__ = ("_d", "_hash")

    _d: dict[_KT, _VT_co]
    _hash: int | None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._d = dict(*args, **kwargs)
        self._hash = None

    def __getitem__(self, key: _KT) -> _VT_co:
        return self._d[key]

    def __iter__(self) -> Iterator[_KT]:
        return iter(self._d)

    def __len__(self) -> int:
        return len(self._d)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenDict):
            return self._d == other._d
        return self._d == other

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._d.items()))
        return self._hash

    def __repr__(self) -> str:
        return "FrozenDict(%r)" % (self._d,)


class ItemType(IntEnum):
    """Kind of a Reader item (cbor_fast_type)."""
    UINT = 1
    NEGATIVE = 2
    BYTES = 3
    TEXT = 4
    ARRAY = 5
    MAP = 6
    TAG = 7
    SIMPLE = 8
    BOOL = 9
    NULL = 10
    UNDEFINED = 11
    FLOAT = 12
    END = 13


_ITEM_TYPES = {int(t): t for t in ItemType}


if TYPE_CHECKING:
    class _ItemFields(NamedTuple):
        type: ItemType
        value: Any
        offset: int
        depth: int
        head_size: int
        flags: int
        float_width: int
else:
    _ItemFields = namedtuple("Item", "type value offset depth head_size flags float_width")


class Item(_ItemFields):
    """One item from a Reader.

    ``value`` by type: UINT/NEGATIVE the int; BYTES/TEXT a memoryview of the
    content inside the input (UTF-8 bytes for TEXT; None for the start of an
    indefinite-length string, whose chunks follow as items); ARRAY/MAP the
    item/pair count (None if indefinite); TAG the tag number; SIMPLE the simple
    value number; BOOL a bool; NULL None; UNDEFINED ``undefined``; FLOAT the
    float; END None.
    """

    __slots__ = ()

    def __new__(cls, type: int, value: Any, offset: int, depth: int, head_size: int, flags: int,
                float_width: int) -> Item:
        return super().__new__(cls, _ITEM_TYPES[type], value, offset, depth, head_size, flags,
                               float_width)

    @property
    def indefinite(self) -> bool:
        """True for an indefinite-length string, array or map (and its END)."""
        return bool(self.flags & 1)

    @property
    def is_break(self) -> bool:
        """True for an END item that consumed a break byte (0xff)."""
        return bool(self.flags & 2)

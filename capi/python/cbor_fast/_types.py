"""Value types and exceptions of the cbor_fast package."""

from collections.abc import Mapping

from . import _capi

__all__ = ["CBORDecodeError", "CBOREncodeError", "CBOREncodeTypeError", "FrozenDict",
           "Simple", "Tag", "undefined"]


class CBORDecodeError(ValueError):
    """Input that is not well-formed (or refused by a check or limit).

    Attributes: ``status`` the library's status name ("truncated"), ``code``
    its number (100), ``offset`` the byte offset where the problem was found,
    ``item_offset`` the offset of the top-level item containing it (for
    iter_sequence, the start of the bad item), ``depth`` the nesting depth
    there, ``message`` the library's description.
    """

    def __init__(self, status, offset, message=None, *, item_offset=None, depth=None):
        if isinstance(status, int):
            code = status
            status = _capi.status_name(code)
        else:
            code = _capi.STATUS_CODE_BY_NAME.get(status)
        if message is None:
            message = _capi.status_message(code) if code is not None else status
        super().__init__(status, offset, message)
        self.status = status
        self.code = code
        self.offset = offset
        self.message = message
        self.item_offset = item_offset
        self.depth = depth

    def __str__(self):
        return "%s at offset %d: %s" % (self.status, self.offset, self.message)


class CBOREncodeError(ValueError):
    """A value that cannot be encoded, or a writer failure.

    ``status``/``code`` name the library status for writer failures (for
    example "out_of_memory"); they are None for failures found in Python
    (cycles, strings that cannot be encoded as UTF-8).
    """

    def __init__(self, message, status=None):
        super().__init__(message)
        self.status = status
        self.code = _capi.STATUS_CODE_BY_NAME.get(status) if status is not None else None


class CBOREncodeTypeError(CBOREncodeError, TypeError):
    """An object of a type dumps() does not know."""


class Tag:
    """A tagged data item: tag ``number`` (0 .. 2**64 - 1) over ``value``.

    Equal to another Tag with equal number and value; hashable when its value
    is (loads() builds tags inside map keys from hashable values).
    """

    __slots__ = ("number", "value")

    def __init__(self, number, value):
        if not isinstance(number, int) or isinstance(number, bool) or \
                not 0 <= number <= 0xFFFFFFFFFFFFFFFF:
            raise ValueError("tag number must be an int in 0 .. 2**64 - 1, not %r" % (number,))
        self.number = number
        self.value = value

    def __eq__(self, other):
        if type(other) is not Tag:
            return NotImplemented
        return self.number == other.number and self.value == other.value

    def __hash__(self):
        return hash((Tag, self.number, self.value))

    def __repr__(self):
        return "Tag(%d, %r)" % (self.number, self.value)


class Simple:
    """A simple value other than false, true, null and undefined.

    ``value`` is 0..19 or 32..255: 20..23 are False/True/None/undefined, and
    24..31 are not well-formed.
    """

    __slots__ = ("value",)

    def __init__(self, value):
        if not isinstance(value, int) or isinstance(value, bool) or \
                not (0 <= value <= 19 or 32 <= value <= 255):
            raise ValueError("simple value must be 0..19 or 32..255, not %r" % (value,))
        self.value = value

    def __eq__(self, other):
        if type(other) is not Simple:
            return NotImplemented
        return self.value == other.value

    def __hash__(self):
        return hash((Simple, self.value))

    def __repr__(self):
        return "Simple(%d)" % self.value


class _Undefined:
    """The CBOR undefined value (simple 23); use the ``undefined`` singleton."""

    __slots__ = ()
    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self):
        return "undefined"

    def __bool__(self):
        return False

    def __reduce__(self):
        return (_Undefined, ())


undefined = _Undefined()


class FrozenDict(Mapping):
    """An immutable, hashable mapping: what loads() returns for a map used as a map key.

    (Arrays used as keys become tuples.) dumps() encodes it as a map.
    """

    __slots__ = ("_d", "_hash")

    def __init__(self, *args, **kwargs):
        self._d = dict(*args, **kwargs)
        self._hash = None

    def __getitem__(self, key):
        return self._d[key]

    def __iter__(self):
        return iter(self._d)

    def __len__(self):
        return len(self._d)

    def __eq__(self, other):
        if isinstance(other, FrozenDict):
            return self._d == other._d
        return self._d == other

    def __hash__(self):
        if self._hash is None:
            self._hash = hash(frozenset(self._d.items()))
        return self._hash

    def __repr__(self):
        return "FrozenDict(%r)" % (self._d,)

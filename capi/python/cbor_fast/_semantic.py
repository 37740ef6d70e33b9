"""Semantic tags, both ways, as cbor2 handles them.

decode(tag, value, immutable, tag_hook) is called by the C decoder for a tag
it does not finish itself (it does 2/3 bignums, 25/256 string references,
28/29 shared values and strips 55799). encode(encoder, obj) is called by the C
encoder for an object of a type it does not know; it returns a replacement
the encoder knows (usually a CBORTag), or WRITTEN when `default` wrote the
object through encoder.encode().
"""

import abc
import re
import uuid
import weakref
from collections import UserString
from collections.abc import Mapping, Sequence
from datetime import date, datetime, time, timedelta, timezone
from decimal import Decimal
from email.message import Message
from fractions import Fraction
from ipaddress import (IPv4Address, IPv4Interface, IPv4Network, IPv6Address, IPv6Interface,
                       IPv6Network, ip_address, ip_interface, ip_network)

from . import _ext
from ._types import (CBORDecodeError, CBOREncodeTypeError, CBOREncodeValueError,
                     CBORSimpleValue, CBORTag)

WRITTEN = object()
_EPOCH_ORDINAL = date(1970, 1, 1).toordinal()
_UTC = timezone.utc


def _datetime_string(value, immutable):
    if not isinstance(value, str):
        raise ValueError("string-form datetime must be a str")
    if value.endswith(("z", "Z")):
        value = value[:-1] + "+00:00"
    dt = datetime.fromisoformat(value)
    if dt.tzinfo is None:
        raise ValueError("string-form datetime without a time zone")
    return dt


def _datetime_epoch(value, immutable):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError("epoch-based datetime must be an int or a float")
    return datetime.fromtimestamp(value, _UTC)


# The integers of tags 4, 5 and 30 (bignums when tagged 2/3) may have at most
# this many bits: the largest bit length whose integers all have at most 4300
# decimal digits, the bound Python itself puts on int/str conversion
# (CVE-2020-10735). Past it Fraction's gcd and Decimal(int) take quadratic
# time: two 200 KB bignums made a Fraction in 5.7 s, a 1 MB input could take
# hours.
_MAX_INT_BITS = 14284


def _bounded_ints(what, parts, *values):
    for v in values:
        if not isinstance(v, int) or isinstance(v, bool):  # true is no exponent
            raise ValueError("%s: %s must be ints" % (what, parts))
        if v.bit_length() > _MAX_INT_BITS:
            raise ValueError("%s: an integer of more than %d bits" % (what, _MAX_INT_BITS))


def _pair(value, what):
    # An array of two items (a list, or a tuple when immutable): not any
    # iterable of two, such as a 2-byte string or a 2-key map.
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise ValueError("%s must be an array of two items" % what)
    return value


def _decimal(value, immutable):
    exp, sig = _pair(value, "decimal fraction")
    _bounded_ints("decimal fraction", "exponent and mantissa", exp, sig)
    return Decimal("%dE%d" % (sig, exp))  # exact, as the digits' tuple (and 2x faster)


def _bigfloat(value, immutable):
    exp, sig = _pair(value, "bigfloat")
    _bounded_ints("bigfloat", "exponent and mantissa", exp, sig)
    return Decimal(sig) * (Decimal(2) ** Decimal(exp))


def _fraction(value, immutable):
    num, den = _pair(value, "rational")
    _bounded_ints("rational", "numerator and denominator", num, den)
    return Fraction(num, den)


def _complex(value, immutable):
    # cbor2's tag 43000: [real, imaginary], numbers (not booleans, as in the
    # other tags here)
    re_, im = _pair(value, "complex number")
    for part in (re_, im):
        if isinstance(part, bool) or not isinstance(part, (int, float)):
            raise ValueError("complex number parts must be numbers")
    return complex(re_, im)


def _regex(value, immutable):
    return re.compile(value)


def _mime(value, immutable):
    from email.parser import Parser
    return Parser().parsestr(value)


def _mime_text(message):
    # The email package refuses to write some messages it parsed (a header that
    # folds into a newline raises email.errors.HeaderWriteError, which is no
    # ValueError): that is a value dumps() cannot encode, not an escape.
    from email.errors import MessageError
    try:
        return message.as_string()
    except (MessageError, LookupError, UnicodeError) as exc:
        raise CBOREncodeValueError("cannot write MIME message: %s" % exc) from exc


def _uuid(value, immutable):
    return uuid.UUID(bytes=value)


def _epoch_date(value, immutable):
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError("epoch date must be an int")
    return date.fromordinal(_EPOCH_ORDINAL + value)


def _string_date(value, immutable):
    return date.fromisoformat(value)


def _set(value, immutable):
    # RFC 8949's tag 258 holds an array; anything else is refused rather than
    # iterated (a network of tag 261 iterates over every address it holds: 2**27
    # for a /5, gigabytes of memory; a text would become a set of characters).
    # Members sharing a hash are bounded as map keys are (MAX_KEYS_PER_HASH).
    if not isinstance(value, (list, tuple)):
        raise ValueError("set must be an array")
    return _ext._build_set(value, immutable)


def _ip_old(value, immutable):
    # tag 260 (deprecated network address): 4 or 16 bytes; 6 bytes is a MAC
    if isinstance(value, bytes) and len(value) in (4, 16):
        return ip_address(value)
    if isinstance(value, bytes) and len(value) == 6:
        return CBORTag(260, value)
    raise ValueError("invalid IP address")


def _net_old(value, immutable):
    # tag 261 (deprecated network prefix): {address bytes: prefix length}
    if not isinstance(value, Mapping) or len(value) != 1:
        raise ValueError("invalid IP network")
    (addr, prefix), = value.items()
    if not isinstance(addr, bytes) or not _is_int(prefix):
        raise ValueError("IP network must map an address byte string to a prefix length")
    # host bits set: an interface, as cbor2 gives it (a network would drop them)
    interface = ip_interface((ip_address(addr), prefix))
    if interface.ip != interface.network.network_address:
        return interface
    return interface.network


def _ip(version):
    # RFC 9164 tags 52 (IPv4) and 54 (IPv6)
    size = 4 if version == 4 else 16
    address_type = IPv4Address if version == 4 else IPv6Address

    def decode(value, immutable):
        if isinstance(value, bytes):
            if len(value) != size:
                raise ValueError("invalid IPv%d address" % version)
            return address_type(value)
        if version == 6 and isinstance(value, (list, tuple)) and len(value) == 3:
            return _ipv6_with_zone(*value)
        if isinstance(value, (list, tuple)) and len(value) == 2:
            a, b = value
            if isinstance(a, bool) or isinstance(b, bool):
                raise ValueError("IPv%d prefix length must be an integer, not a bool" % version)
            if _is_int(a) and isinstance(b, bytes):  # prefix: trailing zero bytes left out
                return ip_network((address_type(b.ljust(size, b"\0")), a))
            if isinstance(a, bytes) and len(a) == size:
                if _is_int(b):  # interface: the whole address
                    return ip_interface((address_type(a), b))
                if b is None and version == 6:  # an address with no prefix length (as cbor2)
                    return address_type(a)
        raise ValueError("invalid IPv%d address, network or interface" % version)

    return decode


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _ipv6_with_zone(a, b, zone):
    # RFC 9164 with a zone identifier, as cbor2 reads it: [address, null,
    # zone] an address, [address, prefix length, zone] an interface,
    # [prefix length, prefix, zone] a network; the zone a byte string (UTF-8)
    # or an integer.
    if isinstance(zone, bytes):
        zone = zone.decode("utf-8")
    elif _is_int(zone):
        zone = str(zone)
    else:
        raise ValueError("IPv6 zone identifier must be a byte string or an integer")
    if isinstance(a, bytes) and len(a) == 16 and b is None:
        return IPv6Address("%s%%%s" % (IPv6Address(a), zone))
    if isinstance(a, bytes) and len(a) == 16 and _is_int(b):
        return IPv6Interface("%s%%%s/%d" % (IPv6Address(a), zone, b))
    if _is_int(a) and isinstance(b, bytes) and len(b) <= 16:
        return IPv6Network("%s%%%s/%d" % (IPv6Address(b.ljust(16, b"\0")), zone, a))
    raise ValueError("invalid IPv6 address, network or interface with a zone")


_DECODERS = {
    0: (_datetime_string, "string-form datetime"),
    1: (_datetime_epoch, "epoch-based datetime"),
    4: (_decimal, "decimal fraction"),
    5: (_bigfloat, "bigfloat"),
    30: (_fraction, "rational"),
    35: (_regex, "regular expression"),
    36: (_mime, "MIME message"),
    37: (_uuid, "UUID"),
    52: (_ip(4), "IPv4 address"),
    54: (_ip(6), "IPv6 address"),
    100: (_epoch_date, "epoch date"),
    258: (_set, "set"),
    260: (_ip_old, "IP address"),
    261: (_net_old, "IP network"),
    1004: (_string_date, "string-form date"),
    43000: (_complex, "complex number"),
}


def decode(tag, value, immutable, tag_hook):
    entry = _DECODERS.get(tag)
    if entry is not None:
        fn, what = entry
        try:
            return fn(value, immutable)
        except CBORDecodeError:
            raise
        except Exception as exc:
            raise CBORDecodeError(None, None, "error decoding %s: %s" % (what, exc)) from exc
    if tag in (2, 3):
        raise CBORDecodeError(None, None, "error decoding %s bignum: content must be a byte "
                              "string, not %s" % ("positive" if tag == 2 else "negative",
                                                  type(value).__name__))
    result = CBORTag(tag, value)
    if tag_hook is not None:
        return tag_hook(result, immutable)
    return result


# ---- encoding -------------------------------------------------------------------------

def _encode_datetime(encoder, obj):
    # naive: no tzinfo, or one whose utcoffset() is None (Python's own rule;
    # such a datetime was written as text without an offset, which loads
    # refuses, or failed with AttributeError as a timestamp)
    if obj.tzinfo is None or obj.utcoffset() is None:
        if encoder.timezone is None:
            raise CBOREncodeValueError(
                "naive datetime %r encountered and no default timezone has been set" % (obj,))
        obj = obj.replace(tzinfo=encoder.timezone)
        if obj.utcoffset() is None:
            raise CBOREncodeValueError(
                "the default timezone %r gives no UTC offset" % (encoder.timezone,))
    if encoder.datetime_as_timestamp:
        # Whole seconds in UTC: an offset with microseconds moves the
        # fraction (local .0 at +00:00:00.5 is .5 in UTC; cbor2 agrees).
        if (obj.microsecond - obj.utcoffset().microseconds) % 1000000 == 0:
            return CBORTag(1, int(obj.timestamp()))
        return CBORTag(1, obj.timestamp())
    return CBORTag(0, obj.isoformat().replace("+00:00", "Z"))


def _encode_date(encoder, obj):
    if encoder.date_as_datetime:
        return _encode_datetime(encoder, datetime.combine(obj, time()))
    if encoder.datetime_as_timestamp:
        return CBORTag(100, obj.toordinal() - _EPOCH_ORDINAL)
    return CBORTag(1004, obj.isoformat())


def _encode_decimal(encoder, obj):
    if obj.is_nan():
        return float("nan")
    if obj.is_infinite():
        return float("inf") if obj > 0 else float("-inf")
    sign, digits, exp = obj.as_tuple()
    sig = _digits_to_int(digits)
    return CBORTag(4, [exp, -sig if sign else sig])


def _digits_to_int(digits):
    """The integer of a tuple of decimal digits, halves joined by one
    multiplication: a digit at a time (and int(Decimal)) took time quadratic
    in the digits (400,000: 12.7 s, now 0.36 s). Parts of 500 digits go
    through int(str), within any limit sys.set_int_max_str_digits() allows."""
    n = len(digits)
    if n <= 500:
        return int("".join(map(str, digits))) if n else 0
    half = n // 2
    return _digits_to_int(digits[:half]) * 10 ** (n - half) + _digits_to_int(digits[half:])


def _head(major, n):
    """A CBOR head in its shortest form."""
    if n < 24:
        return bytes([major << 5 | n])
    for ai, size in ((24, 1), (25, 2), (26, 4), (27, 8)):
        if n < 1 << (8 * size):
            return bytes([major << 5 | ai]) + n.to_bytes(size, "big")
    raise CBOREncodeValueError("set too large")


def _encode_set(encoder, obj):
    items = list(obj)
    if encoder.canonical:
        try:
            encoded = [(encoder._sort_key(x), x) for x in items]
        except RecursionError:
            # Each level of sets in sets is a few Python frames here (the
            # members are encoded apart to be sorted): past Python's limit
            # the encoder's own error, not a RecursionError from inside it.
            raise CBOREncodeValueError(
                "sets nested too deeply for canonical encoding (Python's recursion limit)") from None
        encoded.sort(key=lambda e: (len(e[0]), e[0]))
        if not encoder.value_sharing and not encoder.string_referencing:
            # The members' bytes from the sort are their bytes here too:
            # written as they are (encoding them again would cost twice per
            # level of sets nested in sets, 2^depth in all).
            indefinite = encoder.indefinite_containers
            encoder._write_encoded(
                _head(6, 258) + (b"\x9f" if indefinite else _head(4, len(encoded)))
                + b"".join(b for b, _ in encoded) + (b"\xff" if indefinite else b""))
            return WRITTEN
        items = [x for _, x in encoded]
    return CBORTag(258, items)


def _strip_zeros(packed):
    return packed.rstrip(b"\0")


def encode(encoder, obj):
    # The exact classes first (one dict lookup instead of up to 15
    # isinstance tests); subclasses and the rest through the tests below.
    handler = _EXACT.get(type(obj))
    if handler is not None:
        return handler(encoder, obj)
    if encoder.default is not None and type(obj) in _DEFAULT_ONLY:
        if _DEFAULT_ONLY_TOKEN[0] == abc.get_cache_token():
            encoder.default(encoder, obj)
            return WRITTEN
        _DEFAULT_ONLY.clear()  # an ABC registered a class since
        _DEFAULT_ONLY_TOKEN[0] = abc.get_cache_token()
    return _encode_by_tests(encoder, obj)


def _encode_by_tests(encoder, obj):
    if isinstance(obj, datetime):
        return _encode_datetime(encoder, obj)
    if isinstance(obj, date):
        return _encode_date(encoder, obj)
    if isinstance(obj, Decimal):
        return _encode_decimal(encoder, obj)
    if isinstance(obj, Fraction):
        return CBORTag(30, [obj.numerator, obj.denominator])
    if isinstance(obj, complex):
        return CBORTag(43000, [obj.real, obj.imag])
    if isinstance(obj, uuid.UUID):
        return CBORTag(37, obj.bytes)
    if isinstance(obj, re.Pattern):
        return CBORTag(35, obj.pattern)
    if isinstance(obj, (set, frozenset)):
        return _encode_set(encoder, obj)
    # RFC 9164; an IPv6 zone identifier (scope_id) as a third item, a UTF-8
    # byte string, as cbor2 writes it for addresses and interfaces (and reads
    # it for networks too, which it writes without).
    if isinstance(obj, (IPv4Interface, IPv6Interface)):  # before: they are addresses too
        return _encode_interface(encoder, obj)
    if isinstance(obj, IPv4Address):
        return CBORTag(52, obj.packed)
    if isinstance(obj, IPv6Address):
        if obj.scope_id is not None:
            return CBORTag(54, [obj.packed, None, obj.scope_id.encode("utf-8")])
        return CBORTag(54, obj.packed)
    if isinstance(obj, (IPv4Network, IPv6Network)):
        items = [obj.prefixlen, _strip_zeros(obj.network_address.packed)]
        if obj.version == 6 and obj.network_address.scope_id is not None:
            items.append(obj.network_address.scope_id.encode("utf-8"))
        return CBORTag(52 if obj.version == 4 else 54, items)
    if isinstance(obj, Message):
        return CBORTag(36, _mime_text(obj))
    if isinstance(obj, CBORSimpleValue):
        return CBORSimpleValue(obj.value)
    if isinstance(obj, Mapping):
        return dict(obj)
    if isinstance(obj, Sequence) and not isinstance(obj, (str, bytes, bytearray, memoryview,
                                                         UserString)):
        # range, deque, UserList...: arrays, as cbor2 writes them (a
        # UserString is text: its items are UserStrings again, without end)
        return list(obj)
    if encoder.default is not None:
        # None of the tests above holds for this class: next time straight
        # to default (until an ABC registers a class: Mapping, Sequence)
        if _DEFAULT_ONLY_TOKEN[0] != abc.get_cache_token():
            _DEFAULT_ONLY.clear()
            _DEFAULT_ONLY_TOKEN[0] = abc.get_cache_token()
        # (not a class whose __class__ says otherwise, as a proxy's does:
        # isinstance() goes by that, which may differ between instances)
        if len(_DEFAULT_ONLY) < 1024 and obj.__class__ is type(obj):
            _DEFAULT_ONLY.add(type(obj))
        encoder.default(encoder, obj)
        return WRITTEN
    raise CBOREncodeTypeError("cannot encode type %r" % (type(obj),))


def _encode_interface(encoder, obj):
    items = [obj.packed, obj.network.prefixlen]
    if obj.version == 6 and obj.scope_id is not None:
        items.append(obj.scope_id.encode("utf-8"))
    return CBORTag(52 if obj.version == 4 else 54, items)


# The classes encode() finds by their exact type (the same handling as the
# tests in _encode_by_tests, which subclasses still go through).
_EXACT = {
    datetime: _encode_datetime,
    date: _encode_date,
    Decimal: _encode_decimal,
    Fraction: lambda encoder, obj: CBORTag(30, [obj.numerator, obj.denominator]),
    complex: lambda encoder, obj: CBORTag(43000, [obj.real, obj.imag]),
    uuid.UUID: lambda encoder, obj: CBORTag(37, obj.bytes),
    set: _encode_set,
    frozenset: _encode_set,
    IPv4Interface: _encode_interface,
    IPv6Interface: _encode_interface,
    IPv4Address: lambda encoder, obj: CBORTag(52, obj.packed),
}

# Classes none of the tests held for, written by `default` (at most 1024,
# cleared when abc's cache token changes: a class registered with Mapping
# or Sequence then takes that path).
_DEFAULT_ONLY: "weakref.WeakSet[type]" = weakref.WeakSet()  # (keeps no class alive)
_DEFAULT_ONLY_TOKEN = [abc.get_cache_token()]


__all__ = ["decode", "encode", "WRITTEN", "timedelta"]

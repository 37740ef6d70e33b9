#!/usr/bin/env python3
"""Coverage-guided fuzzing of cbor_fast._ext with atheris (libFuzzer for Python).

    pip install atheris
    python3 capi/python/fuzz_atheris.py -max_total_time=60

Each input is decoded with a few option sets; anything but a value or
CBORDecodeError is a finding (a crash of the interpreter is one too). A value
that decodes and encodes (canonical) must decode back to a value with the
same canonical encoding. With --stream, the input is instead read as a CBOR
sequence by CBORDecoder from a file giving a few bytes per read, which must
give the items of iter_sequence and fail at the same item or end where it
ends.
The extension is instrumented through atheris.instrument_imports only at the
Python level; the C code is exercised, and a crash in it aborts the run.
"""

import io
import os
import re
import sys

import atheris
from collections.abc import Mapping
from email.message import Message

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]

with atheris.instrument_imports():
    import cbor_fast
    from cbor_fast import CBORDecodeError, CBOREncodeError
import cbor2

OPTIONS = ({}, {"max_depth": 16}, {"str_errors": "surrogateescape", "immutable": True},
           {"strict_utf8": True, "reject_duplicate_keys": True, "max_memory": 1 << 16},
           {"allow_indefinite": False, "deterministic": True})


def test_one(data):
    opts = OPTIONS[data[0] % len(OPTIONS)] if data else {}
    try:
        value = cbor_fast.loads(data[1:], **opts)
    except CBORDecodeError:
        return
    try:
        out = cbor_fast.dumps(value, canonical=True, value_sharing=True)
    except (CBOREncodeError, TypeError, ValueError):
        return  # e.g. surrogate escapes, which cannot be UTF-8
    back = cbor_fast.loads(out, max_depth=1 << 20, str_errors="surrogateescape",
                           immutable=opts.get("immutable", False))
    # the value decoded back encodes to the same canonical bytes (objects
    # such as email messages have no value equality; NaN is not equal to itself)
    again = cbor_fast.dumps(back, canonical=True, value_sharing=True)
    # A MIME message (tag 36) is the email package's text, and that package's
    # parse and write are not a fixed point at once: "hhhh:\f\f  " is written
    # as "hhhh:   " and read back as a header whose value it writes as
    # "hhhh: ". Such a value must settle after that one more round.
    if again != out and not (_has_message(value) and _settles(again)):
        raise AssertionError("round trip changed %r (%s) into %r (%s)"
                             % (value, out.hex(), back, again.hex()))

def _has_message(value, depth=0):
    if isinstance(value, Message):
        return True
    if depth > 64:  # decoded values are at most 16 or 512 levels; 64 is plenty
        return False
    if isinstance(value, (list, tuple, set, frozenset)):
        return any(_has_message(v, depth + 1) for v in value)
    if isinstance(value, Mapping):
        return any(_has_message(k, depth + 1) or _has_message(v, depth + 1)
                   for k, v in value.items())
    if isinstance(value, cbor_fast.CBORTag):
        return _has_message(value.value, depth + 1)
    return False


def _settles(data):
    back = cbor_fast.loads(data, max_depth=1 << 20, str_errors="surrogateescape")
    return cbor_fast.dumps(back, canonical=True, value_sharing=True) == data


def test_sequence(data):
    try:
        for _ in cbor_fast.iter_sequence(data, max_depth=64):
            pass
    except CBORDecodeError:
        pass


class _Chunks(io.RawIOBase):
    """A file that cannot seek, giving at most `step` bytes per read."""

    def __init__(self, data, step):
        self.data, self.pos, self.step = data, 0, step

    def readable(self):
        return True

    def readinto(self, b):
        n = min(len(b), self.step, len(self.data) - self.pos)
        b[:n] = self.data[self.pos:self.pos + n]
        self.pos += n
        return n


def _key(value):
    # repr, not a canonical encoding (that re-encodes nested map keys once per
    # level: 2**depth); without object addresses (email messages and the like)
    return re.sub(r" at 0x[0-9a-f]+", "", repr(value))


def test_stream(data):
    """CBORDecoder over the input in small reads gives the items of
    iter_sequence, and fails at the same item or ends where it ends."""
    step = 1 + (data[0] % 5) * 3 if data else 1
    want, failed = [], False
    try:
        for value in cbor_fast.iter_sequence(data, max_depth=64):
            want.append(_key(value))
    except CBORDecodeError:
        failed = True
    dec = cbor_fast.CBORDecoder(_Chunks(data, step), max_depth=64, max_buffer=1 << 16)
    got = []
    while True:
        try:
            got.append(_key(dec.decode()))
        except CBORDecodeError as e:
            stop = e
            break
    if failed:
        ok = got == want and not (stop.status == "truncated" and stop.offset == len(data) and
                                  stop.item_offset == len(data))
    else:
        ok = got == want and (stop.status, stop.offset) == ("truncated", len(data))
    if not ok and not (len(data) > 1 << 16 and stop.status == "memory_budget_exceeded"):
        raise AssertionError("stream %r (%s) against sequence %r (failed %s)"
                             % (got, stop, want, failed))


class _Incomparable(Exception):
    pass


def _plain(value, depth=0):
    """A decoded value as nested tuples, with cbor2's and cbor_fast's own
    container choices made alike: tuples as lists, frozendicts and other
    mappings as maps (entries in a fixed order), CBORTag as ("tag", n, v); NaN
    as a marker (never equal to itself otherwise). Compared by repr, which
    keeps -0.0 apart from 0.0 and True from 1, and grows linearly with depth
    (a repr of reprs would double its escapes at each level)."""
    if depth > 600:
        raise RecursionError
    if isinstance(value, float) and value != value:
        return "<NaN>"
    if isinstance(value, (list, tuple)):
        return ("list", tuple(_plain(v, depth + 1) for v in value))
    if isinstance(value, Mapping):
        if any(isinstance(k, (cbor_fast.CBORSimpleValue, cbor2.CBORSimpleValue)) and
               k.value in (0, 1) for k in value):
            # cbor2's simple(0) equals False (and simple(1) True), so keys
            # equal to 0 or 1 (False, 0, 0.0, Fraction(0) ...) merge with it
            # in its dict and not in ours, where false is simple 20
            raise _Incomparable
        entries = ((_plain(k, depth + 1), _plain(v, depth + 1)) for k, v in value.items())
        return ("map", tuple(sorted(entries, key=repr)))
    if isinstance(value, (set, frozenset)):
        return ("set", tuple(sorted((_plain(v, depth + 1) for v in value), key=repr)))
    if isinstance(value, (cbor_fast.CBORTag, cbor2.CBORTag)):
        return ("tag", value.tag, _plain(value.value, depth + 1))
    if isinstance(value, (cbor_fast.CBORSimpleValue, cbor2.CBORSimpleValue)):
        return ("simple", value.value)
    if value is cbor_fast.undefined or value is cbor2.undefined:
        return "<undefined>"
    if isinstance(value, Message):
        return ("message", repr(value._headers), repr(value.get_payload()))
    return value


def test_differential(data):
    """loads() against cbor2.loads(), default options: both fail, or both
    give the same value, apart from what README.md lists as refused on purpose
    (KNOWN_REFUSALS)."""
    try:
        ours = ("ok", _plain(cbor_fast.loads(data)))
    except CBORDecodeError as e:
        ours = ("error", e)
    except (RecursionError, _Incomparable):
        return
    try:
        theirs = ("ok", _plain(cbor2.loads(data)))
    except _Incomparable:
        return
    except Exception as e:  # cbor2 raises what its decoders raise, not only CBORDecodeError
        theirs = ("error", e)
    if ours[0] != theirs[0]:
        if ours[0] == "error" and _known_refusal(ours[1]):
            return
        raise AssertionError("loads(%s): ours %r, cbor2 %r" % (data.hex(), ours, theirs))
    if ours[0] == "ok" and repr(ours[1]) != repr(theirs[1]):
        raise AssertionError("loads(%s): ours %r, cbor2 %r" % (data.hex(), ours[1], theirs[1]))


# What loads() refuses on purpose where cbor2 gives a value (README.md),
# by status, and by the whole message of a tag's decoding error (the text
# between "error decoding <what>: " and " at offset <n>").
KNOWN_REFUSAL_STATUSES = {
    "trailing_bytes",  # cbor2.loads ignores bytes after the item
}
KNOWN_REFUSAL_MESSAGES = frozenset((
    # true/false as an epoch time or date: cbor2 takes them as 1 and 0
    "epoch-based datetime must be an int or a float",
    "epoch date must be an int",
    # true/false in a rational (tag 30): cbor2 takes them as 1 and 0 (it
    # refuses them in decimal fractions and bigfloats, as loads() does in all three)
    "rational: numerator and denominator must be ints",
    # a zone identifier that is not an integer or a byte string (cbor2 6.3
    # takes false as the integer 0, and writes "%False")
    "IPv6 zone identifier must be a byte string or an integer",
    # true/false as an IPv4 interface's prefix length: cbor2 takes them as 1
    # and 0 (it refuses the IPv6 forms, as loads() does)
    "IPv4 prefix length must be an integer, not a bool",
    # tag 261 with an integer (or true) for the address: cbor2 takes it as
    # the address of that number
    "IP network must map an address byte string to a prefix length",
))
_TAG_ERROR = re.compile(r"error decoding [^:]+: (.*) at offset [0-9]+", re.S)


def _known_refusal(e):
    if getattr(e, "status", None) in KNOWN_REFUSAL_STATUSES:
        return True
    m = _TAG_ERROR.fullmatch(str(e))
    return m is not None and m.group(1) in KNOWN_REFUSAL_MESSAGES


def test_input(data):
    test_one(data)
    test_sequence(data)


def test_stream_input(data):
    test_sequence(data)
    test_stream(data)


# Inputs the fuzzer once found, run before fuzzing starts (first byte: the
# option set). 2026-12-02: tag 36 over a header with a form feed, which the
# email package parses but refuses to write again (HeaderWriteError).
REGRESSIONS = (
    bytes.fromhex("02" "d824 67") + b"a: b\x0cc\n",
    bytes.fromhex("cf" "85 f888 d824 6e") + b"d$:\x00\x00\x0c" + bytes(8) + bytes.fromhex("00 f6 f6"),
    # 2026-12-05: tag 258 (set) over tag 261 {1: 5}, a /5 network, which set()
    # iterated address by address (2**27 of them: 21 s and 2 GiB, then an error)
    bytes.fromhex("e7cf88a100c1a1d90102d90105a10105a1cd178088a100d90105a10105a1cd17"
                  "cc4232c43f32c44232e7cfe7a8e7cf000000000000000000e800"),
    # 2026-12-05: tag 36 over "hhhh:\f\f  ", a message that settles one round later
    bytes.fromhex("60d82468") + b"hhhh:\x0c\x0c  ",
)


# One input per KNOWN_REFUSAL_MESSAGES entry, checked before fuzzing starts:
# loads() refuses it with that message, cbor2 gives a value, and
# test_differential() excuses it. An entry whose message changes fails here
# instead of excusing nothing.
KNOWN_REFUSAL_ROWS = (
    ("c1f5", "epoch-based datetime must be an int or a float"),
    ("d864f5", "epoch date must be an int"),
    ("d81e82f501", "rational: numerator and denominator must be ints"),
    ("d83683" "50" + "20010db8" + "00" * 12 + "f6f4",
     "IPv6 zone identifier must be a byte string or an integer"),
    ("d8348244c0a80001f5", "IPv4 prefix length must be an integer, not a bool"),
    ("d90105a10101", "IP network must map an address byte string to a prefix length"),
)


def check_known_refusals():
    for hex_input, message in KNOWN_REFUSAL_ROWS:
        data = bytes.fromhex(hex_input)
        try:
            cbor_fast.loads(data)
        except CBORDecodeError as e:
            m = _TAG_ERROR.fullmatch(str(e))
            assert m is not None and m.group(1) == message, (hex_input, str(e))
        else:
            raise AssertionError("%s: loads() gave a value" % hex_input)
        cbor2.loads(data)  # cbor2 takes it: the difference is real
        test_differential(data)
    assert {m for _, m in KNOWN_REFUSAL_ROWS} == KNOWN_REFUSAL_MESSAGES


def main():
    # --stream: the streamed decoder against iter_sequence (its own run, so
    # each run's inputs stay those of its seed)
    target = test_input
    if "--differential" in sys.argv:
        sys.argv.remove("--differential")
        target = test_differential
        check_known_refusals()
    if "--stream" in sys.argv:
        sys.argv.remove("--stream")
        target = test_stream_input
    for data in REGRESSIONS:
        target(data)
    atheris.Setup(sys.argv, target)
    atheris.Fuzz()


if __name__ == "__main__":
    main()

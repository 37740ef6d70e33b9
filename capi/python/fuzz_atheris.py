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


def main():
    # --stream: the streamed decoder against iter_sequence (its own run, so
    # each run's inputs stay those of its seed)
    target = test_input
    if "--stream" in sys.argv:
        sys.argv.remove("--stream")
        target = test_stream_input
    for data in REGRESSIONS:
        target(data)
    atheris.Setup(sys.argv, target)
    atheris.Fuzz()


if __name__ == "__main__":
    main()

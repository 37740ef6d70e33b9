#!/usr/bin/env python3
"""Coverage-guided fuzzing of cbor_fast._ext with atheris (libFuzzer for Python).

    pip install atheris
    python3 capi/python/fuzz_atheris.py -max_total_time=60

Each input is decoded with a few option sets; anything but a value or
CBORDecodeError is a finding (a crash of the interpreter is one too). A value
that decodes must encode, and decode back to an equal value (NaN aside).
The extension is instrumented through atheris.instrument_imports only at the
Python level; the C code is exercised, and a crash in it aborts the run.
"""

import math
import os
import sys

import atheris

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]

with atheris.instrument_imports():
    import cbor_fast
    from cbor_fast import CBORDecodeError, CBOREncodeError

OPTIONS = ({}, {"max_depth": 16}, {"str_errors": "surrogateescape", "immutable": True},
           {"strict_utf8": True, "reject_duplicate_keys": True, "max_memory": 1 << 16},
           {"allow_indefinite": False, "deterministic": True})


def has_nan(v):
    stack = [v]
    while stack:
        x = stack.pop()
        if isinstance(x, float) and math.isnan(x):
            return True
        if isinstance(x, (list, tuple)):
            stack.extend(x)
        elif isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, cbor_fast.CBORTag):
            stack.append(x.value)
    return False


def test_one(data):
    opts = OPTIONS[data[0] % len(OPTIONS)] if data else {}
    try:
        value = cbor_fast.loads(data[1:], **opts)
    except CBORDecodeError:
        return
    try:
        out = cbor_fast.dumps(value, value_sharing=True)
    except (CBOREncodeError, TypeError, ValueError):
        return  # e.g. surrogate escapes, which cannot be UTF-8
    back = cbor_fast.loads(out, max_depth=1 << 20, str_errors="surrogateescape",
                           immutable=opts.get("immutable", False))
    if not has_nan(value) and repr(back) != repr(value) and back != value:
        raise AssertionError("round trip changed %r into %r" % (value, back))


def test_sequence(data):
    try:
        for _ in cbor_fast.iter_sequence(data, max_depth=64):
            pass
    except CBORDecodeError:
        pass


def test_input(data):
    test_one(data)
    test_sequence(data)


def main():
    atheris.Setup(sys.argv, test_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()

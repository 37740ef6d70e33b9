#!/usr/bin/env python3
"""Writes example.cbor, the CBOR sequence `cbor-fast diag` prints by default.

The encoding is spelled out by hand (Python standard library only) so that the
bytes do not depend on the library they demonstrate.

    python3 make_example.py            # rewrite example.cbor next to this script
    python3 make_example.py --check    # exit 1 if example.cbor is not up to date
    python3 make_example.py --hex      # print the bytes as hex
"""

import os
import struct
import sys


def head(major, arg):
    """Initial byte plus argument, shortest form (RFC 8949 section 4.1)."""
    if arg < 24:
        return bytes([major << 5 | arg])
    if arg < 0x100:
        return bytes([major << 5 | 24, arg])
    if arg < 0x10000:
        return bytes([major << 5 | 25]) + struct.pack(">H", arg)
    if arg < 0x100000000:
        return bytes([major << 5 | 26]) + struct.pack(">I", arg)
    return bytes([major << 5 | 27]) + struct.pack(">Q", arg)


def integer(v):
    return head(0, v) if v >= 0 else head(1, -1 - v)


def byte_string(b):
    return head(2, len(b)) + b


def text(s):
    b = s.encode("utf-8")
    return head(3, len(b)) + b


def array(*items):
    return head(4, len(items)) + b"".join(items)


def text_map(pairs):
    out = head(5, len(pairs))
    for key, value in pairs:
        out += text(key) + value
    return out


def tag(number, content):
    return head(6, number) + content


def half(v):
    return b"\xf9" + struct.pack(">e", v)


def single(v):
    return b"\xfa" + struct.pack(">f", v)


def double(v):
    return b"\xfb" + struct.pack(">d", v)


FALSE, TRUE, NULL, UNDEFINED = b"\xf4", b"\xf5", b"\xf6", b"\xf7"
BREAK = b"\xff"


def indefinite_text(*chunks):
    return b"\x7f" + b"".join(text(c) for c in chunks) + BREAK


def indefinite_array(*items):
    return b"\x9f" + b"".join(items) + BREAK


def example():
    record = text_map([
        ("name", text("cbor-fast")),
        ("version", array(integer(0), integer(1), integer(0))),
        ("matrix", array(array(integer(1), integer(2)),
                         array(integer(-3), array(integer(-40), integer(-500))))),
        ("celsius", half(-12.5)),
        ("ratio", double(1.1)),
        ("pi", single(3.14159265)),
        ("raw", byte_string(bytes.fromhex("deadbeef"))),
        ("created", tag(1, integer(1700000000))),
        ("motto", indefinite_text("small, ", "fast")),
        ("flags", array(TRUE, FALSE, NULL, UNDEFINED)),
        ("big", tag(2, byte_string(bytes.fromhex("010000000000000000")))),
    ])
    # A second and third item: this is a sequence (RFC 8742), not one document.
    events = indefinite_array(
        text("caf\u00e9 \"quoted\"\tand tabbed"),
        integer(-18446744073709551616),
        tag(3, byte_string(bytes.fromhex("010000000000000000"))),
    )
    return record + events + tag(0, text("2013-03-21T20:04:00Z"))


def main(argv):
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "example.cbor")
    data = example()
    if "--hex" in argv:
        print(data.hex())
    elif "--check" in argv:
        with open(path, "rb") as f:
            if f.read() != data:
                print(f"{path} is out of date: run {argv[0]}", file=sys.stderr)
                return 1
    else:
        with open(path, "wb") as f:
            f.write(data)
        print(f"wrote {len(data)} bytes to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

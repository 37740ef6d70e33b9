#!/usr/bin/env python3
"""The hostile-input table (issue 5): inputs built to make a decoder allocate,
recurse or loop without bound, grouped by cause, each with the status and byte
offset every reading path must report.

Each row is built here from its construction, and so is its expected offset
(a depth bomb of '[' bytes under the default max_depth of 512 fails at the
513th head, so at offset 512 * head size): nothing is copied from a program's
output. The semantics are those of include/cbor_fast/reader.hpp and
document.hpp (see tests/hostile/README.md).

    table.py --out DIR      write DIR/<input>.cbor and DIR/manifest.tsv
    table.py --list         print the rows

manifest.tsv has one row per line, tab-separated:
    name  group  input-file  expected-status  expected-offset  engines  options...
where expected-offset is a number or LO..HI (memory-budget rows whose exact
failure point depends on how the decoder grows its arrays), engines is "all"
or a comma-separated list of reader, capi, check, diag, and the options are
the command-line spelling shared by every runner (--max-depth N, --strict, ...).

Python 3 standard library only. The inputs (a few MB each) are written at test
time into the build tree, never committed.
"""
import argparse
import hashlib
import os
import struct
import sys

N = 10**6          # depth bombs, item bombs and chunk bombs
KEYS = 100_000     # keys of the large maps
FILL = b"\x00" * 1000  # what follows a length bomb: far less than declared
DEFAULT_DEPTH = 512
DEFAULT_CONTAINER = 1 << 24  # entries per array or map (reader.hpp, since 0.5)
LIFT_CONTAINER = ["--max-container-items", str((1 << 64) - 1)]
DEEP = ["--max-depth", "2000000"]
NODE = 24          # bytes of one document node (document.hpp: "24-byte nodes")
MiB = 1 << 20

ALL = ("reader", "capi", "check", "diag")
DECODERS = ("capi", "check")  # what has a memory budget: the document decoder
READERS = ("reader", "diag")  # the pull reader: no document, a few bytes a level


# ---- CBOR spelled by hand (RFC 8949 section 3) ----------------------------------

def head(major, arg, size=None):
    """Initial byte and argument; size forces a head of 1, 2, 3, 5 or 9 bytes."""
    if size is None:
        size = 1 if arg < 24 else 2 if arg < 0x100 else 3 if arg < 0x10000 else \
            5 if arg < 0x100000000 else 9
    if size == 1:
        assert arg < 24
        return bytes([major << 5 | arg])
    ai, fmt = {2: (24, ">B"), 3: (25, ">H"), 5: (26, ">I"), 9: (27, ">Q")}[size]
    return bytes([major << 5 | ai]) + struct.pack(fmt, arg)


def text(s):
    b = s.encode() if isinstance(s, str) else s
    return head(3, len(b)) + b


def bstr(b):
    return head(2, len(b)) + b


def uint(v, size=None):
    return head(0, v, size)


MAJOR = {"bytes": 2, "text": 3, "array": 4, "map": 5}


# ---- the table ------------------------------------------------------------------

class Row:
    def __init__(self, name, group, data, status, offset, options=(), engines=ALL, why=""):
        self.name = name
        self.group = group
        self.data = data
        self.status = status
        self.offset = offset  # int, or (lo, hi)
        self.options = list(options)
        self.engines = engines
        self.why = why


ROWS = []


def row(*args, **kwargs):
    r = Row(*args, **kwargs)
    assert all(r.name != o.name for o in ROWS), r.name
    ROWS.append(r)
    return r


def ok(name, group, data, options=(), engines=ALL, why=""):
    """Valid input: every runner reports ok at the end of the input."""
    return row(name, group, data, "ok", len(data), options, engines, why)


# ---- depth bombs ----------------------------------------------------------------
# max_depth = N allows N open levels (containers, tags, indefinite strings):
# opening level N + 1 fails with depth_exceeded at the offset of that head.

def deep(name, g, data, status, offset, options, why="", budget_stops=False):
    """A row whose max_depth lets 10^6 levels through. The readers hold a few
    bytes a level; a document holds a node and more, so for the decoders the
    row runs twice: with the budget lifted (--max-memory 256 MiB: the row's
    own result), and, where it stops them (budget_stops), under the default
    budget of 32 bytes per input byte + 1 MiB: memory_budget_exceeded
    somewhere past the middle of the input, never a larger footprint."""
    row(name, g, data, status, offset, options, READERS, why)
    row(name + ".lifted", g, data, status, offset, options + ["--max-memory", str(256 * MiB)],
        DECODERS, why)
    if budget_stops:
        row(name + ".default_budget", g, data, "memory_budget_exceeded", (len(data) // 2, len(data)),
            options, DECODERS, "the default budget: " + why)
    else:
        row(name + ".default_budget", g, data, status, offset, options, DECODERS,
            "within the default budget: " + why)


def depth_group():
    g = "depth"
    bombs = {
        # name: (one level, the item closing the innermost level, what closes each level)
        "array": (b"\x81", b"\x00", b""),           # [[[... 0]]]
        "map": (b"\xa1\x01", b"\x00", b""),         # {1: {1: ... 0}}
        "tag": (b"\xc1", b"\x00", b""),             # 1(1(... 0))
        "indef_array": (b"\x9f", b"", b"\xff"),     # [_ [_ ... ]]
        "indef_map": (b"\xbf\x01", b"\x00", b"\xff"),  # {_ 1: {_ 1: ... 0}}
    }
    for name, (level, inner, close) in bombs.items():
        data = level * N + inner + close * N
        # The 513th head, the first over the default, starts at 512 levels in.
        row(f"depth.{name}.default", g, data, "depth_exceeded", DEFAULT_DEPTH * len(level),
            why="10^6 levels, default max_depth 512: the 513th head")
        # Under two bytes a level costs a document more than the default 32 bytes a byte.
        deep(f"depth.{name}.deep", g, data, "ok", len(data), DEEP,
             "10^6 levels under max_depth 2000000: no recursion, bounded memory",
             budget_stops=len(data) < 2 * N)
    # Exactly at the limit and one level short of it.
    arrays = b"\x81" * N + b"\x00"
    deep("depth.array.at_limit", g, arrays, "ok", len(arrays), ["--max-depth", str(N)],
         budget_stops=True)
    deep("depth.array.one_short", g, arrays, "depth_exceeded", N - 1, ["--max-depth", str(N - 1)],
         "the 10^6-th head opens level 10^6 + 1 of a limit of 10^6 - 1", budget_stops=True)
    # Unterminated: each array declares one item and the last has no byte left
    # for it (a count above the bytes left fails at once, at the head).
    deep("depth.array.unterminated", g, b"\x81" * N, "truncated", N - 1, DEEP,
         "the last [ at N-1 declares 1 item with 0 bytes left", budget_stops=True)
    deep("depth.map.unterminated", g, b"\xa1\x01" * N, "truncated", 2 * N - 2, DEEP,
         "the last map at 2N-2 declares 1 pair with 1 byte left", budget_stops=True)
    # Tags and indefinite arrays declare nothing: they run into the end of the input.
    deep("depth.tag.unterminated", g, b"\xc1" * N, "truncated", N, DEEP,
         "a tag without content at the end of the input", budget_stops=True)
    deep("depth.indef_array.unterminated", g, b"\x9f" * N, "truncated", N, DEEP,
         "10^6 open indefinite arrays at the end of the input", budget_stops=True)
    # Mixed levels: [ {1: 1( ... per 4 bytes, three levels each.
    unit, unit_heads = b"\x81\xa1\x01\xc1", (0, 1, 3)  # offsets of the level-opening heads
    data = unit * (N // 4) + b"\x00"
    level = DEFAULT_DEPTH  # 0-based index of the first head over the limit
    offset = (level // 3) * len(unit) + unit_heads[level % 3]
    row("depth.mixed.default", g, data, "depth_exceeded", offset,
        why="array, map and tag levels in turn: the 513th opening head")
    deep("depth.mixed.deep", g, data, "ok", len(data), DEEP, budget_stops=True)
    # An indefinite string takes a level too: 511 arrays + 1 string fit in 512.
    ok("depth.string_level.512", g, b"\x81" * 511 + b"\x5f\x40\xff")
    row("depth.string_level.513", g, b"\x81" * 512 + b"\x5f\x40\xff", "depth_exceeded", 512,
        why="the indefinite string opens level 513")


# ---- length bombs ---------------------------------------------------------------
# A declared length (strings) or count (arrays: one byte per item at least;
# maps: two per pair) above the bytes left fails with truncated at the head,
# before anything is sized by it. A count above the default container limit
# (2^24) fails with container_too_large at the head first, as every limit
# comes before the input length; lifted, the same head is truncated.

def count_row(name, g, data, n, offset, why=""):
    """An array or map head counting n at offset with far fewer bytes behind:
    container_too_large over the default container limit, truncated within it
    and (a second row) with the limit lifted."""
    row(name, g, data, "container_too_large" if n > DEFAULT_CONTAINER else "truncated", offset,
        why=why)
    if n > DEFAULT_CONTAINER:
        row(name + ".lifted", g, data, "truncated", offset, LIFT_CONTAINER, why=why)


def length_group():
    g = "length"
    declared = {"2p32": (1 << 32, 9), "2p64m1": ((1 << 64) - 1, 9), "2p32m1": ((1 << 32) - 1, 5)}
    for type_name, major in MAJOR.items():
        for dname, (n, size) in declared.items():
            bomb = head(major, n, size)
            base = f"length.{type_name}.{dname}"
            counted = major in (4, 5)

            def bomb_row(name, data, offset, why=""):
                if counted:
                    count_row(name, g, data, n, offset, why)
                else:
                    row(name, g, data, "truncated", offset, why=why)
            bomb_row(f"{base}.top", bomb + FILL, 0,
                     f"major {major} declaring {n} with {len(FILL)} bytes left")
            prefix = b"\x83\x01\x02"  # [1, 2, bomb]
            bomb_row(f"{base}.in_array", prefix + bomb + FILL, len(prefix))
            if major in (2, 3):
                # As a chunk of an indefinite string of the same type.
                prefix = bytes([major << 5 | 31]) + head(major, 1) + b"a"
                bomb_row(f"{base}.chunk", prefix + bomb + FILL, len(prefix))
            else:
                prefix = b"\x9f\x01\x02"  # [_ 1, 2, bomb
                bomb_row(f"{base}.in_indef", prefix + bomb + FILL, len(prefix))
            prefix = b"\x81" * 300  # 300 levels down
            bomb_row(f"{base}.deep", prefix + bomb + FILL, len(prefix))

    # The limit comes before the input length: string_too_long / container_too_large.
    for type_name in ("bytes", "text"):
        major = MAJOR[type_name]
        for dname in ("2p32", "2p64m1"):
            n, size = declared[dname]
            bomb = head(major, n, size)
            row(f"length.{type_name}.{dname}.max_string", g, bomb + FILL, "string_too_long", 0,
                ["--max-string-length", "1000"])
        prefix = bytes([major << 5 | 31]) + head(major, 1) + b"a"
        row(f"length.{type_name}.2p32.chunk.max_string", g,
            prefix + head(major, 1 << 32, 9) + FILL, "string_too_long", len(prefix),
            ["--max-string-length", "1000"])
    for type_name in ("array", "map"):
        bomb = head(MAJOR[type_name], (1 << 64) - 1, 9)
        row(f"length.{type_name}.2p64m1.max_container", g, bomb + FILL, "container_too_large", 0,
            ["--max-container-items", "1000"])

    # An absurd memory budget must not make the decoder trust the length.
    bomb = head(2, 1 << 32, 9) + FILL
    row("length.bytes.2p32.absurd_budget", g, bomb, "truncated", 0,
        ["--max-memory", str(1 << 62)], DECODERS)
    row("length.bytes.2p32.copy_absurd_budget", g, bomb, "truncated", 0,
        ["--copy-strings", "--max-memory", str(1 << 62)], ("capi",))

    # Heads of the other major types carry values, not lengths: nothing to allocate.
    ok("length.uint.2p64m1", g, uint((1 << 64) - 1, 9))
    ok("length.nint.2p64m1", g, head(1, (1 << 64) - 1, 9))
    ok("length.tag.2p64m1", g, head(6, (1 << 64) - 1, 9) + b"\x00")
    ok("length.float.nan_all_ones", g, b"\xfb" + b"\xff" * 8)
    row("length.uint.cut_head", g, b"\x1b\xff\xff", "truncated", 0,
        why="an 8-byte argument with 2 bytes left")
    row("length.bytes.cut_head", g, b"\x83\x01\x02\x5b\x00\x00", "truncated", 3)

    # A real 1 MiB string, at and over max_string_length.
    big = head(2, MiB, 5) + b"\x00" * MiB
    ok("length.bytes.1mib", g, big)
    ok("length.bytes.1mib.at_limit", g, big, ["--max-string-length", str(MiB)])
    row("length.bytes.1mib.over_limit", g, big, "string_too_long", 0,
        ["--max-string-length", str(MiB - 1)])
    ok("length.bytes.1mib.copy", g, big, ["--copy-strings"], ("capi",))
    row("length.bytes.1mib.copy_half_budget", g, big, "memory_budget_exceeded", 0,
        ["--copy-strings", "--max-memory", str(MiB // 2)], ("capi",),
        why="the copy of a 1 MiB string cannot fit 512 KiB; the string is the item at 0")
    # A copy that fits: one node and 600000 bytes of string hold well under 1 MiB.
    ok("length.bytes.600k.copy_1mib_budget", g, head(2, 600000, 5) + b"\x00" * 600000,
       ["--copy-strings", "--max-memory", str(MiB)], ("capi",),
       why="24 bytes of node and a 600000-byte copy fit a 1 MiB budget")


# ---- item-count bombs -----------------------------------------------------------

def items_group():
    g = "items"
    some = b"\x00" * 1000
    count_row("items.array.2p32_declared", g, head(4, 1 << 32, 9) + some, 1 << 32, 0,
              why="2^32 items declared, 1000 follow")
    count_row("items.array.2p32m1_declared", g, head(4, (1 << 32) - 1, 5) + some, (1 << 32) - 1, 0)
    count_row("items.map.2p32_declared", g, head(5, 1 << 32, 9) + some, 1 << 32, 0)

    # The default container limit, 2^24 entries (since 0.5). Heads: exactly
    # at it the count passes the limit and is truncated (1000 bytes follow),
    # one over it is refused at the head; lifted by one it passes again.
    n = DEFAULT_CONTAINER
    for type_name in ("array", "map"):
        major = MAJOR[type_name]
        count_row(f"items.{type_name}.default_limit.head_at", g, head(major, n) + some, n, 0,
                  why="2^24 entries declared: within the default, 1000 bytes follow")
        row(f"items.{type_name}.default_limit.head_one_over", g, head(major, n + 1) + some,
            "container_too_large", 0, why="2^24 + 1 entries declared: over the default")
        row(f"items.{type_name}.default_limit.head_one_over.lifted_by_one", g,
            head(major, n + 1) + some, "truncated", 0, ["--max-container-items", str(n + 1)])
    # Whole containers of 2^24 and 2^24 + 1 zeros (16 MiB): the readers hold
    # nothing per entry; a document of them would hold 384 MiB of nodes,
    # which the default memory budget (32 bytes per input byte) allows, so
    # the decoders take the head rows above instead.
    at = b"\x9f" + b"\x00" * n + b"\xff"
    over = b"\x9f" + b"\x00" * (n + 1) + b"\xff"
    ok("items.indef_array.default_limit.at", g, at, engines=READERS,
       why="2^24 entries in an indefinite array: the default allows them")
    row("items.indef_array.default_limit.one_over", g, over, "container_too_large", 1 + n,
        engines=READERS, why="entry 2^24 + 1, at 1 + 2^24, is one over the default")
    ok("items.indef_array.default_limit.one_over.lifted", g, over, LIFT_CONTAINER, READERS)
    row("items.array.one_short", g, head(4, N, 5) + b"\x00" * (N - 1), "truncated", 0,
        why="10^6 items declared, 10^6 - 1 bytes left")
    row("items.map.pairs_over_half", g, head(5, N, 5) + b"\x00" * (2 * N - 1), "truncated", 0,
        why="10^6 pairs declared, 2*10^6 - 1 bytes left")
    zeros_map = head(5, N, 5) + b"\x00" * (2 * N)
    ok("items.map.1e6_pairs", g, zeros_map)
    row("items.map.1e6_pairs.no_duplicates", g, zeros_map, "duplicate_key", 5 + 2,
        ["--no-duplicate-keys"], why="{0: 0, 0: 0, ...}: the second key")

    # One array of 10^6 empty arrays: item k (1-based) > 1 is at offset 5 + k - 2.
    empties = head(4, N, 5) + b"\x80" * N
    ok("items.empty_arrays", g, empties)
    row("items.empty_arrays.max_items_1000", g, empties, "too_many_items", 5 + 1001 - 2,
        ["--max-items", "1000"], why="the 1001st item: the 1000th empty array")
    ok("items.empty_arrays.max_items_all", g, empties, ["--max-items", str(N + 1)])
    row("items.empty_arrays.max_items_one_short", g, empties, "too_many_items", 5 + (N + 1) - 2,
        ["--max-items", str(N)], why="the last empty array is item 10^6 + 1")
    ok("items.empty_arrays.max_container_all", g, empties, ["--max-container-items", str(N)])
    row("items.empty_arrays.max_container_one_short", g, empties, "container_too_large", 0,
        ["--max-container-items", str(N - 1)], why="the definite head declares too many")

    # Indefinite containers reach the limit at the first entry too many.
    indef = b"\x9f" + b"\x80" * N + b"\xff"
    ok("items.indef_empty_arrays", g, indef)
    row("items.indef_empty_arrays.max_container_1000", g, indef, "container_too_large", 1 + 1000,
        ["--max-container-items", "1000"], why="the 1001st entry, at 1 + 1000")
    row("items.indef_empty_arrays.max_items_1000", g, indef, "too_many_items", 1000,
        ["--max-items", "1000"], why="item k > 1 is at offset k - 1")
    indef_map = b"\xbf" + b"\x00\x00" * (N // 2) + b"\xff"
    row("items.indef_map.max_container_1000", g, indef_map, "container_too_large", 1 + 2 * 1000,
        ["--max-container-items", "1000"], why="the key of the 1001st pair")

    # 10^5 arrays of 9 zeros: every head after the first is one byte.
    nested = head(4, KEYS, 5) + (b"\x89" + b"\x00" * 9) * KEYS
    ok("items.nested", g, nested)
    row("items.nested.max_items_500000", g, nested, "too_many_items", 5 + 500001 - 2,
        ["--max-items", "500000"])


# ---- indefinite-length strings ----------------------------------------------------

def indefinite_group():
    g = "indef"
    empty_chunks = b"\x5f" + b"\x40" * N + b"\xff"
    ok("indef.bytes.1e6_empty_chunks", g, empty_chunks)
    row("indef.bytes.1e6_empty_chunks.max_items_1000", g, empty_chunks, "too_many_items", 1000,
        ["--max-items", "1000"], why="the string is item 1, chunk k is item k + 1 at offset k")
    ok("indef.text.1e6_empty_chunks.strict", g, b"\x7f" + b"\x60" * N + b"\xff", ["--strict"])
    row("indef.bytes.1e6_empty_chunks.unterminated", g, b"\x5f" + b"\x40" * N, "truncated",
        N + 1, why="no break: the end of the input")
    # 10^6 one-byte chunks: the joined length counts against max_string_length.
    one_byte = b"\x5f" + b"\x41\x00" * N + b"\xff"
    ok("indef.bytes.1e6_one_byte_chunks", g, one_byte)
    row("indef.bytes.1e6_one_byte_chunks.max_string_1000", g, one_byte, "string_too_long",
        1 + 2 * 1000, ["--max-string-length", "1000"],
        why="chunk 1001 (at 1 + 2 * 1000) makes the joined length 1001")
    ok("indef.bytes.1e6_one_byte_chunks.max_string_all", g, one_byte,
       ["--max-string-length", str(N)])
    row("indef.bytes.1e6_one_byte_chunks.max_string_one_short", g, one_byte, "string_too_long",
        1 + 2 * (N - 1), ["--max-string-length", str(N - 1)], why="the last chunk")
    row("indef.bytes.chunk_type_mismatch", g, b"\x5f\x41\x00\x61\x61\xff",
        "chunk_type_mismatch", 3)
    row("indef.bytes.nested_indefinite", g, b"\x5f\x41\x00\x5f\xff\xff",
        "nested_indefinite_chunk", 3)


# ---- UTF-8 ------------------------------------------------------------------------
# invalid_utf8 at the absolute offset of the first byte of the first invalid
# sequence (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF).

def utf8_group():
    g = "utf8"
    strict = ["--strict"]
    prefix = b"\x82" + text("ok")  # ["ok", "ab<bad>cd"]
    bad = {
        "overlong2_c080": b"\xc0\x80", "overlong2_c1bf": b"\xc1\xbf",
        "overlong3_e08080": b"\xe0\x80\x80", "overlong3_e09fbf": b"\xe0\x9f\xbf",
        "overlong4_f0808080": b"\xf0\x80\x80\x80", "overlong4_f08fbfbf": b"\xf0\x8f\xbf\xbf",
        "surrogate_eda080": b"\xed\xa0\x80", "surrogate_edbfbf": b"\xed\xbf\xbf",
        "above_max_f4908080": b"\xf4\x90\x80\x80", "above_max_f5": b"\xf5\x80\x80\x80",
        "byte_ff": b"\xff", "stray_continuation": b"\x80",
        "cut2_then_ascii": b"\xc3\x41", "cut3_then_ascii": b"\xe2\x82\x41",
        "cut4_then_ascii": b"\xf0\x9f\x98\x41",
    }
    for name, seq in bad.items():
        content = b"ab" + seq + b"cd"
        data = prefix + text(content)
        # Past the prefix and the string's head, "ab", then the bad sequence.
        at = len(data) - len(content) + 2
        row(f"utf8.{name}", g, data, "invalid_utf8", at, strict)
    for name, seq in {"cut2_at_end": b"\xc3", "cut3_at_end": b"\xe2\x82",
                      "cut4_at_end": b"\xf0\x9f\x98"}.items():
        content = b"ab" + seq
        data = prefix + text(content)
        row(f"utf8.{name}", g, data, "invalid_utf8", len(data) - len(seq), strict)
    valid = "ab\u00e9\u20ac\U0001f600\U0010ffff\uffff\ud7ff\ue000cd".encode()
    ok("utf8.valid_all_widths", g, prefix + text(valid), strict)
    ok("utf8.surrogate_unchecked", g, prefix + text(b"ab\xed\xa0\x80cd"),
       why="without --strict text is not validated")
    # A code point split across two chunks is invalid: chunks are checked alone.
    row("utf8.split_across_chunks", g, b"\x7f\x62\xe2\x82\x61\xac\xff", "invalid_utf8", 2, strict)
    row("utf8.in_map_key", g, b"\xa1" + text(b"a\xed\xa0\x80") + b"\x00", "invalid_utf8", 3,
        strict)
    # Long strings (the vectorised validator): a bad sequence mid-way and at the end.
    mid = bytearray(b"x" * MiB)
    mid[500000:500003] = b"\xed\xa0\x80"
    row("utf8.1mib.surrogate_at_500000", g, text(bytes(mid)), "invalid_utf8", 5 + 500000, strict)
    end = b"x" * (MiB - 1) + b"\xc3"
    row("utf8.1mib.cut_at_end", g, text(end), "invalid_utf8", 5 + MiB - 1, strict)
    ok("utf8.1mib.two_byte_chars", g, text("\u00e9".encode() * (MiB // 2)), strict)
    over = bytearray("\u20ac".encode() * 300000)
    over[3 * 250000:3 * 250000 + 3] = b"\xe0\x82\xac"  # overlong euro sign
    row("utf8.900k.overlong_at_750000", g, text(bytes(over)), "invalid_utf8", 5 + 750000, strict)


# ---- duplicate keys --------------------------------------------------------------
# duplicate_key at the offset of the second key's head; keys equal by value.

def text_key_map(keys):
    """A map of KEYS text keys "k000000".. (8 bytes each) to 0: pair i at 5 + 9 i."""
    return head(5, len(keys), 5) + b"".join(text(k) + b"\x00" for k in keys)


def duplicates_group():
    g = "dupkeys"
    nodup = ["--no-duplicate-keys"]
    keys = ["k%06d" % i for i in range(KEYS)]
    pair = 9
    distinct = text_key_map(keys)
    ok("dup.text.distinct", g, distinct, nodup)
    for name, (at, copy_of) in {"second": (1, 0), "middle": (49999, 24999),
                                "last": (KEYS - 1, 12345)}.items():
        k = list(keys)
        k[at] = keys[copy_of]
        data = text_key_map(k)
        row(f"dup.text.{name}", g, data, "duplicate_key", 5 + pair * at, nodup,
            why=f"key {at + 1} of {KEYS} repeats key {copy_of + 1}")
        if name == "last":
            ok("dup.text.last.unchecked", g, data, why="duplicates are allowed by default")
        if name == "second":
            row("dup.text.second.deterministic", g, data, "duplicate_key", 5 + pair * at,
                ["--deterministic"], why="equal to the key just before it")
        if name == "middle":
            row("dup.text.middle.deterministic", g, data, "unsorted_map_keys", 5 + pair * at,
                ["--deterministic"], why="k024999 sorts before k049998")
    # Integer keys 0..KEYS-1 (preferred heads, so also in bytewise order), the
    # last one replaced by 0 in a 5-byte head: equal to the first key by value.
    parts = [uint(i) + b"\x00" for i in range(KEYS - 1)]
    body = b"".join(parts)
    int_map = head(5, KEYS, 5) + body + uint(0, 5) + b"\x00"
    last = 5 + len(body)
    row("dup.int.nonpreferred_last", g, int_map, "duplicate_key", last, nodup,
        why="0x1a 00000000 repeats the key 0")
    row("dup.int.nonpreferred_last.deterministic", g, int_map, "non_preferred_encoding", last,
        ["--deterministic"], why="the head check comes first")
    row("dup.int.small", g, bytes.fromhex("a3010002001801 00".replace(" ", "")),
        "duplicate_key", 5, nodup, why="{1: 0, 2: 0, 0x18 0x01: 0}")
    row("dup.float.half_vs_double", g, bytes.fromhex("a2f93c0000fb3ff000000000000000"),
        "duplicate_key", 5, nodup, why="{1.0 (half): 0, 1.0 (double): 0}: the double at 1 + 3 + 1")
    row("dup.string.definite_vs_indefinite", g, bytes.fromhex("a2626162007f61616162ff01"),
        "duplicate_key", 5, nodup, why="a key of several items: still its head's offset")
    row("dup.array_key", g, bytes.fromhex("a28201020082011802 00".replace(" ", "")),
        "duplicate_key", 5, nodup, why="[1, 2] and [1, 0x18 0x02]")
    row("dup.nested_map", g, bytes.fromhex("a16161a20100 0100".replace(" ", "")),
        "duplicate_key", 6, nodup)
    ok("dup.separate_maps", g, bytes.fromhex("a26161a16178006162a1617800"), nodup)
    ok("dup.text.distinct.budget", g, distinct, nodup + ["--max-memory", str(64 * MiB)],
       DECODERS, why="the key table fits a 64 MiB budget")
    # Maps nested in keys, {{{...: 0}: 0}: 0}: the check is linear in the input
    # whatever the key depth (each level's key used to be canonicalised whole:
    # 7 s for this MiB in a Release build).
    def chain(depth, inner=b"\x00"):
        return b"\xa1" * depth + inner + b"\x00" * depth
    chains = head(4, MiB // 1023, 5) + chain(511) * (MiB // 1023)
    ok("dup.key_chains_1mib", g, chains, nodup, why="1025 chains of 511 maps, each a key")
    deep_pair = b"\xa2" + chain(8000, b"\x01") + b"\x00" + chain(8000, b"\x18\x01") + b"\x01"
    row("dup.key_chains_8000_deep", g, deep_pair, "duplicate_key", 2 * 8000 + 3,
        nodup + ["--max-depth", "10000"], why="two chains of 8000 maps, 1 and 0x18 0x01 inside")


# ---- deterministic encoding --------------------------------------------------------

def deterministic_group():
    g = "det"
    det = ["--deterministic"]
    row("det.int.nonpreferred", g, b"\x18\x01", "non_preferred_encoding", 0, det)
    row("det.int.nonpreferred_deep", g, b"\x81" * 100 + b"\x19\x00\x10",
        "non_preferred_encoding", 100, det)
    row("det.len.array", g, b"\x98\x01\x00", "non_preferred_encoding", 0, det)
    row("det.len.text", g, b"\x78\x01a", "non_preferred_encoding", 0, det)
    row("det.tag", g, b"\xd8\x01\x00", "non_preferred_encoding", 0, det)
    row("det.float.double_one", g, bytes.fromhex("fb3ff0000000000000"),
        "non_preferred_encoding", 0, det)
    row("det.float.single_one", g, bytes.fromhex("fa3f800000"), "non_preferred_encoding", 0, det)
    ok("det.float.half_one", g, bytes.fromhex("f93c00"), det)
    ok("det.float.nan_payload", g, bytes.fromhex("fb7ff0000000000001"), det,
       why="the payload needs a double")
    row("det.indef.array", g, b"\x9f\xff", "indefinite_length", 0, det)
    row("det.indef.in_map", g, b"\xa1\x00\x5f\xff", "indefinite_length", 2, det)
    row("det.unsorted.text", g, bytes.fromhex("a2616200616100"), "unsorted_map_keys", 4, det)
    row("det.unsorted.shorter_first", g, bytes.fromhex("a262616100616200"),
        "unsorted_map_keys", 5, det, why='"b" (61 62) sorts before "aa" (62 61 61)')
    row("det.unsorted.negative_before_positive", g, bytes.fromhex("a2200001 00".replace(" ", "")),
        "unsorted_map_keys", 3, det)
    keys = ["k%06d" % i for i in range(KEYS)]
    keys[-2], keys[-1] = keys[-1], keys[-2]
    row("det.unsorted.large_last_pair", g, text_key_map(keys), "unsorted_map_keys",
        5 + 9 * (KEYS - 1), det)
    ok("det.sorted.large", g, text_key_map(["k%06d" % i for i in range(KEYS)]), det)
    row("det.nonpreferred_length_bomb", g, head(2, (1 << 32) - 1, 9) + FILL, "truncated", 0, det,
        why="not well-formed first: the length is checked before the head's form")


# ---- memory budget (the document decoder only) -----------------------------------
# max_memory bounds the bytes the decode holds through its allocator. 10^6 small
# ints are one node each: a budget of B bytes holds floor(B / 24) nodes.

def memory_group():
    g = "memory"
    ints = head(4, N, 5) + b"\x01" * N  # node 0 the array, node k the int at 5 + k - 1
    fit = MiB // NODE                   # nodes a 1 MiB node array holds
    row("mem.ints.1mib", g, ints, "memory_budget_exceeded", 5 + fit - 1,
        ["--max-memory", str(MiB)], DECODERS,
        why=f"{fit} nodes fit 1 MiB; node {fit} is the int at 5 + {fit} - 1")
    ok("mem.ints.64mib", g, ints, ["--max-memory", str(64 * MiB)], DECODERS)
    ok("mem.ints.exact_fit", g, ints, ["--max-memory", str(NODE * (N + 1))], DECODERS,
       why="10^6 + 1 nodes of 24 bytes, nothing else held")
    row("mem.ints.one_byte_short", g, ints, "memory_budget_exceeded", 5 + N - 1,
        ["--max-memory", str(NODE * (N + 1) - 1)], DECODERS, why="the last int has no room")
    # 10^6 one-byte chunks: node k is chunk k at 1 + 2 (k - 1). The node array
    # alone stops at node `fit`; the reader's stack (a few hundred bytes) may
    # take a few nodes' worth more.
    chunks = b"\x5f" + b"\x41\x00" * N + b"\xff"
    hi = 1 + 2 * (fit - 1)
    row("mem.chunks.1mib", g, chunks, "memory_budget_exceeded", (hi - 2 * (4096 // NODE), hi),
        ["--max-memory", str(MiB)], DECODERS,
        why="node array to node 43690, less up to 4 KiB of other bookkeeping")
    # Deep maps hold a node per head plus an open frame per level: at least
    # 24 * (x + 1) + 16 * x / 2 bytes by offset x, so the budget ends by 1 MiB / 32;
    # stacks growing by doubling may stop it up to 4 times earlier.
    maps = b"\xa1\x01" * N + b"\x00"
    row("mem.deep_maps.1mib", g, maps, "memory_budget_exceeded", (MiB // 128, MiB // 32),
        DEEP + ["--max-memory", str(MiB)], DECODERS)
    ok("mem.deep_maps.256mib", g, maps, DEEP + ["--max-memory", str(256 * MiB)], DECODERS)


# ---- sequences (RFC 8742) ----------------------------------------------------------

def sequence_group():
    g = "seq"
    seq = ["--sequence"]
    ok("seq.1e6_zeros", g, b"\x00" * N, seq)
    row("seq.zeros_then_depth_bomb", g, b"\x00" * 1000 + b"\x81" * N + b"\x00", "depth_exceeded",
        1000 + DEFAULT_DEPTH, seq)
    row("seq.zeros_then_length_bomb", g, b"\x00" * 1000 + head(2, (1 << 64) - 1, 9) + FILL,
        "truncated", 1000, seq)
    row("seq.truncated_last", g, b"\x01\x02\x83\x01", "truncated", 2, seq,
        why="an array of 3 with 1 byte left: at its head")
    row("seq.unterminated_indef_last", g, b"\x00" * 10 + b"\x9f\x00", "truncated", 12, seq)
    row("seq.duplicate_in_third", g, bytes.fromhex("0000a201000100"), "duplicate_key", 5,
        seq + ["--no-duplicate-keys"])


# ---- not well-formed, deep inside large input ---------------------------------------

def malformed_group():
    g = "malformed"
    row("wf.reserved_deep", g, b"\x81" * 500 + b"\x1c", "reserved_additional_info", 500)
    row("wf.break_in_definite", g, b"\x82\x00\xff", "unexpected_break", 2)
    row("wf.map_missing_value", g, b"\xbf\x00\xff", "map_missing_value", 2)
    row("wf.bad_simple", g, b"\xf8\x10", "bad_simple_value", 0)
    row("wf.indefinite_uint", g, b"\x83\x00\x00\x1f", "indefinite_not_allowed", 3)


for build in (depth_group, length_group, items_group, indefinite_group, utf8_group,
              duplicates_group, deterministic_group, memory_group, sequence_group,
              malformed_group):
    build()


# ---- output ------------------------------------------------------------------------

def offset_text(offset):
    return f"{offset[0]}..{offset[1]}" if isinstance(offset, tuple) else str(offset)


def stream_result(r):
    """What the tool's diag, which reads its input as a stream, reports for a
    truncated row, as (status, offset): a definite array or map that declares
    more entries than the input can hold is refused at its head by a read of
    the whole input (the row's offset), but a stream learns that the input is
    short only where it ends; except a map of 2^63 pairs or more, whose items
    no input holds, container_too_large at its head. Strings and heads cut
    short are found at their head by both. None: the row's own result holds."""
    if r.status != "truncated" or isinstance(r.offset, tuple) or r.offset >= len(r.data):
        return None
    first = r.data[r.offset]
    if first >> 5 in (4, 5) and first & 0x1F != 31:
        if first >> 5 == 5 and first & 0x1F == 27 and r.data[r.offset + 1] >= 0x80:
            return ("container_too_large", r.offset)
        return ("truncated", len(r.data))
    return None


def manifest_rows():
    """The rows as the runners see them: a row whose stream offset differs is
    split into the whole-input engines and a ".stream" row for diag."""
    for r in ROWS:
        result = stream_result(r) if "diag" in r.engines else None
        if result is None:
            yield r
            continue
        rest = tuple(e for e in r.engines if e != "diag")
        if rest:
            yield Row(r.name, r.group, r.data, r.status, r.offset, r.options, rest, r.why)
        status, at = result
        why = ("read as a stream, the input is short where it ends: " if status == "truncated"
               else "read as a stream, no input holds 2^63 pairs: ")
        yield Row(r.name + ".stream", r.group, r.data, status, at, r.options, ("diag",),
                  why + (r.why or r.name))


def write(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    files = {}  # content digest -> file name (rows share inputs)
    lines = []
    rows = list(manifest_rows())
    for r in rows:
        digest = hashlib.sha256(r.data).hexdigest()
        name = files.get(digest)
        if name is None:
            name = r.name + ".cbor"
            files[digest] = name
            path = os.path.join(out_dir, name)
            # Rewritten only when different: reruns cost nothing.
            if not os.path.exists(path) or os.path.getsize(path) != len(r.data) or \
                    hashlib.sha256(open(path, "rb").read()).hexdigest() != digest:
                with open(path, "wb") as f:
                    f.write(r.data)
        engines = "all" if r.engines == ALL else ",".join(r.engines)
        lines.append("\t".join([r.name, r.group, name, r.status, offset_text(r.offset), engines]
                               + r.options))
    with open(os.path.join(out_dir, "manifest.tsv"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{len(rows)} rows, {len(files)} inputs, "
          f"{sum(os.path.getsize(os.path.join(out_dir, n)) for n in files.values()) // 1024} KiB "
          f"in {out_dir}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", help="directory for the inputs and manifest.tsv")
    p.add_argument("--list", action="store_true", help="print the rows")
    a = p.parse_args()
    if a.list:
        for r in manifest_rows():
            print(f"{r.group:10} {r.name:52} {len(r.data):>9} B  {r.status} "
                  f"{offset_text(r.offset)}  {' '.join(r.options)}"
                  + (f"  [{', '.join(r.engines)}]" if r.engines != ALL else "")
                  + (f"  -- {r.why}" if r.why else ""))
    if a.out:
        write(a.out)
    if not a.list and not a.out:
        p.error("give --out DIR or --list")


if __name__ == "__main__":
    sys.exit(main())

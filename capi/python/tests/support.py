"""Helpers shared by the cbor_fast tests."""

import math
import os
import struct

import cbor_fast
from cbor_fast import FrozenDict, Simple, Tag, undefined

_HERE = os.path.dirname(os.path.abspath(__file__))


def corpus_dir():
    """The benchmark corpus: $CBOR_FAST_CORPUS_DIR, else the repository's sibling shared/corpus."""
    path = os.environ.get("CBOR_FAST_CORPUS_DIR")
    if path:
        return path
    if os.environ.get("CI") == "true":
        raise AssertionError("CBOR_FAST_CORPUS_DIR is not set (CI=true)")
    return os.path.normpath(os.path.join(_HERE, "..", "..", "..", "..", "shared", "corpus"))


CORPUS_FILES = ("twitter.cbor", "citm_catalog.cbor", "canada.cbor")


def require(available, what):
    """Skips the calling test when `what` is missing, except under CI=true,
    where a missing corpus or reference library is a failure, not a skip."""
    import unittest
    if available:
        return
    if os.environ.get("CI") == "true":
        raise AssertionError("%s is missing (CI=true: not skipped)" % what)
    raise unittest.SkipTest("%s is missing" % what)


def require_corpus():
    path = corpus_dir()
    require(all(os.path.isfile(os.path.join(path, n)) for n in CORPUS_FILES),
            "the corpus (CBOR_FAST_CORPUS_DIR=%s)" % path)
    return path


def h(text):
    """bytes from hex with spaces allowed."""
    return bytes.fromhex(text.replace(" ", ""))


def canon(value):
    """A strictly comparable form of a decoded value.

    Python's == treats 1 == 1.0 == True, 0.0 == -0.0 and NaN != NaN; the tests
    need each CBOR value to compare equal only to itself, so scalars are tagged
    with their kind and floats compared by their bits (any NaN maps to one key).
    Also maps cbor2's types onto cbor_fast's (by class name, so cbor2 need not
    be importable). Containers keep their order.
    """
    t = type(value)
    name = t.__name__
    if t is bool:
        return ("bool", value)
    if t is int:
        return ("int", value)
    if t is float:
        return ("float", "nan" if math.isnan(value) else struct.pack(">d", value))
    if t is str:
        return ("text", value)
    if t is bytes:
        return ("bytes", value)
    if value is None:
        return ("null",)
    if value is undefined or name in ("undefined_type", "UndefinedType"):  # cbor2.undefined
        return ("undefined",)
    if t is list or t is tuple:
        return ("array", tuple(canon(v) for v in value))
    if t is dict or t is FrozenDict or name in ("FrozenDict", "frozendict"):
        return ("map", tuple((canon(k), canon(v)) for k, v in value.items()))
    if t is Tag or name == "CBORTag":
        return ("tag", value.tag, canon(value.value))
    if t is Simple or name == "CBORSimpleValue":
        return ("simple", value.value)
    raise TypeError("canon: unexpected type %r" % name)


def nested_depth(value):
    """Depth of a chain of single-element lists/tuples/dicts/Tags, walked without recursion.

    Returns (depth, innermost value).
    """
    depth = 0
    while True:
        t = type(value)
        if (t is list or t is tuple) and len(value) == 1:
            value = value[0]
        elif t is dict and len(value) == 1:
            value = next(iter(value.values()))
        elif t is Tag:
            value = value.value
        else:
            return depth, value
        depth += 1


def rss_bytes():
    """Resident set size of this process (Linux /proc)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


__all__ = ["cbor_fast", "corpus_dir", "require", "require_corpus", "CORPUS_FILES", "h", "canon", "nested_depth", "rss_bytes"]

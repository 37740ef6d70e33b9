#!/usr/bin/env python3
"""loads/dumps throughput of the cbor_fast Python binding on the corpus files,
against cbor2 (Debian's python3-cbor2, C extension _cbor2 when present) and the
standard json module on the equivalent JSON text (json.dumps of the decoded
data). Prints a markdown table.

    CBOR_FAST_LIB=build/dev/plain/libcbor_fast.so python3 capi/python/bench.py
    python3 capi/python/bench.py --iterations 1 --files twitter.cbor   # smoke run

Each cell is the best of N runs in CPU time of this process (time.process_time:
the machine may be shared), as milliseconds and MB/s of that format's own bytes
(CBOR for cbor_fast and cbor2, the JSON text for json). Every result is
checked once before timing.
"""

import argparse
import gc
import json
import math
import os
import platform
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cbor_fast  # noqa: E402
from cbor_fast import _decoder  # noqa: E402

try:
    import cbor2
except ImportError:
    cbor2 = None

DEFAULT_FILES = ("twitter.cbor", "citm_catalog.cbor", "canada.cbor")


def default_corpus():
    env = os.environ.get("CBOR_FAST_CORPUS_DIR")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.normpath(os.path.join(here, "..", "..", "..", "shared", "corpus"))


def best_of(fn, iterations):
    best = math.inf
    for _ in range(iterations):
        gc.collect()
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


def same(a, b):
    """Equality that treats NaN as equal to itself (json has no NaN here anyway)."""
    return a == b or (isinstance(a, float) and isinstance(b, float) and
                      math.isnan(a) and math.isnan(b))


def cbor2_kind():
    if cbor2 is None:
        return None
    try:
        import _cbor2  # noqa: F401
        c_ext = cbor2.loads is _cbor2.loads
    except ImportError:
        c_ext = False
    version = getattr(cbor2, "__version__", None)
    if version is None:
        try:
            from importlib.metadata import version as dist_version
            version = dist_version("cbor2")
        except Exception:  # noqa: BLE001 - only for the report line
            version = "?"
    return "cbor2 %s (%s)" % (version, "C extension _cbor2" if c_ext else "pure Python")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--corpus", default=default_corpus())
    parser.add_argument("--files", nargs="*", default=list(DEFAULT_FILES))
    args = parser.parse_args()

    print("Python %s, %s; libcbor_fast %s (%s); %s; best of %d runs, CPU time\n" % (
        platform.python_version(), platform.machine(), cbor_fast.library_version,
        cbor_fast.library_path, cbor2_kind() or "cbor2 not installed", args.iterations))

    columns = ["cbor_fast", "cbor_fast doc walk", "cbor2", "json"]
    print("| file | op | " + " | ".join(columns) + " |")
    print("|---|---|" + "---|" * len(columns))
    for name in args.files:
        with open(os.path.join(args.corpus, name), "rb") as f:
            data = f.read()
        value = cbor_fast.loads(data)
        text = json.dumps(value)
        text_bytes = len(text.encode("utf-8"))

        # Check everything once before timing.
        assert _decoder._loads_document(data) == value
        assert cbor_fast.loads(cbor_fast.dumps(value)) == value
        assert json.loads(text) == value
        if cbor2 is not None:
            assert cbor2.loads(data) == value
            assert cbor2.loads(cbor_fast.dumps(value)) == value

        def cell(fn, size):
            t = best_of(fn, args.iterations)
            return "%.1f ms (%.1f MB/s)" % (t * 1e3, size / t / 1e6 if t > 0 else math.inf)

        rows = {
            "loads": [
                cell(lambda: cbor_fast.loads(data), len(data)),
                cell(lambda: _decoder._loads_document(data), len(data)),
                cell(lambda: cbor2.loads(data), len(data)) if cbor2 else "-",
                cell(lambda: json.loads(text), text_bytes),
            ],
            "dumps": [
                cell(lambda: cbor_fast.dumps(value), len(data)),
                "-",
                cell(lambda: cbor2.dumps(value), len(data)) if cbor2 else "-",
                cell(lambda: json.dumps(value), text_bytes),
            ],
        }
        label = "%s (%s B CBOR, %s B JSON)" % (name, format(len(data), ","),
                                             format(text_bytes, ","))
        for op, cells in rows.items():
            print("| %s | %s | %s |" % (label, op, " | ".join(cells)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

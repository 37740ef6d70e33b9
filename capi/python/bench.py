#!/usr/bin/env python3
"""loads/dumps of cbor_fast against cbor2 (its C extension), json, orjson and
msgspec (msgpack), side by side in one process.

    python3 capi/python/bench.py               # the table for the README
    python3 capi/python/bench.py --clock cpu   # process CPU time: less noisy when shared
    python3 capi/python/bench.py --ops loads iter_sequence   # some rows only
    python3 capi/python/bench.py --smoke       # one quick round (ctest)

Data: twitter, citm_catalog and canada from $CBOR_FAST_CORPUS_DIR (CBOR and
the JSON originals), and a list of 100,000 small dicts; the iter_sequence
rows read those 100,000 dicts as a CBOR sequence (RFC 8742), each decoded
item kept in a list: cbor_fast.iter_sequence against cbor2.CBORDecoder over
a BytesIO called once per item, and json/orjson over the same values as JSON
Lines (one loads per line). Each cell is the median of --repeat runs of
--number calls, in milliseconds per call (--clock wall: perf_counter; --clock
cpu: process_time, the CPU time of this process, which another process on a
shared machine disturbs less; the libraries take turns run by run either
way). json.loads and orjson.loads read the JSON text; msgspec reads its own
msgpack encoding of the same value. Every result is checked once before
timing. Ratios are cbor_fast's speed over the peer's (above 1: cbor_fast is
faster); "vs cbor2 per run" is the lowest and highest of that ratio in the
single runs (cbor2 timed right after cbor_fast in each), the spread the
median hides; the last lines give the geometric means per operation.
cbor_fast.loads and iter_sequence pause the cyclic GC while they build
objects (the GC runs at the next allocation outside them instead); the others
do not, so --no-gc disables the GC for everyone while timing, for a
comparison of the decoders alone.
"""

import argparse
import gc
import io
import json
import math
import os
import statistics
import sys
import time

# The installed package, not the source directory next to this script.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]

import cbor_fast  # noqa: E402

try:
    import cbor2
    from cbor2 import _cbor2  # noqa: F401  (the C extension must be there)
except ImportError:
    cbor2 = None
try:
    import orjson
except ImportError:
    orjson = None
try:
    import msgspec
except ImportError:
    msgspec = None

FILES = ("twitter", "citm_catalog", "canada")


def corpus_dir():
    env = os.environ.get("CBOR_FAST_CORPUS_DIR")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.normpath(os.path.join(here, "..", "..", "..", "shared", "corpus"))


def small_dicts():
    return [{"id": i, "name": "user%d" % i, "active": i % 3 == 0, "score": i * 0.5,
             "tags": ["a", "b"]} for i in range(100000)]


CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def median_ms(fns, number, repeat, no_gc=False, clock=time.perf_counter):
    """Medians in ms per call, and each function's single runs (seconds per
    call), the functions interleaved round by round (a change of load on a
    shared machine then hits every one alike)."""
    times = [[] for _ in fns]
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            if fn is None:
                continue
            gc.collect()
            if no_gc:
                gc.disable()
            t0 = clock()
            for _ in range(number):
                fn()
            times[i].append((clock() - t0) / number)
            gc.enable()
    return [statistics.median(t) * 1e3 if t else None for t in times], times


def datasets():
    d = corpus_dir()
    for name in FILES:
        with open(os.path.join(d, name + ".cbor"), "rb") as f:
            cbor = f.read()
        with open(os.path.join(d, name + ".json"), "rb") as f:
            js = f.read()
        yield name, cbor, js
    value = small_dicts()
    yield "100k small dicts", cbor_fast.dumps(value), json.dumps(value).encode()


def sequence_rows(value):
    """The iter_sequence rows: `value` (a list) as a CBOR sequence of its
    items, and as JSON Lines. Checked before timing."""
    seq = b"".join(cbor_fast.dumps(v) for v in value)
    lines = [json.dumps(v).encode() for v in value]
    count = len(value)

    def ours():
        return list(cbor_fast.iter_sequence(seq))

    def theirs():
        dec = cbor2.CBORDecoder(io.BytesIO(seq))
        return [dec.decode() for _ in range(count)]

    def by_json():
        return [json.loads(line) for line in lines]

    def by_orjson():
        return [orjson.loads(line) for line in lines]

    for fn in (ours, theirs, by_json) + ((by_orjson,) if orjson else ()):
        if fn() != value:
            sys.exit("bench.py: iter_sequence: %s disagrees" % fn.__name__)
    return ours, theirs, by_json, orjson and by_orjson, None


def ratio(peer, ours):
    return peer / ours if peer and ours else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--number", type=int, default=3)
    ap.add_argument("--smoke", action="store_true", help="one round, every check")
    ap.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                    help="wall: perf_counter (default); cpu: process_time")
    ap.add_argument("--ops", nargs="+", choices=("loads", "dumps", "iter_sequence"),
                    default=("loads", "dumps", "iter_sequence"), help="the rows to time")
    ap.add_argument("--no-gc", action="store_true",
                    help="disable the cyclic GC while timing, for every library (cbor_fast.loads "
                         "pauses it itself while it builds a large document)")
    args = ap.parse_args()
    if args.smoke:
        args.repeat, args.number = 1, 1
    if cbor2 is None:
        sys.exit("bench.py: cbor2 with its C extension is required")
    print("cbor_fast %s, cbor2 %s, orjson %s, msgspec %s, Python %s" % (
        cbor_fast.__version__, cbor2.__version__ if hasattr(cbor2, "__version__") else
        __import__("importlib.metadata").metadata.version("cbor2"),
        orjson.__version__ if orjson else "-", msgspec.__version__ if msgspec else "-",
        sys.version.split()[0]))
    print("median of %d runs of %d calls, ms per call (%s clock)%s" % (
        args.repeat, args.number, args.clock,
        "; cyclic GC disabled while timing" if args.no_gc else ""))
    print()
    print("| data | op | cbor_fast ms | cbor2 ms | json ms | orjson ms | msgspec ms "
          "| vs cbor2 | vs cbor2 per run | vs json | vs orjson | vs msgspec |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    clock = CLOCKS[args.clock]
    ratios = {}

    def row(name, op, fns):
        ms, times = median_ms(fns, args.number, args.repeat, args.no_gc, clock)
        rs = [ratio(peer, ms[0]) for peer in ms[1:]]
        # the spread: cbor2's time over cbor_fast's in each run (the two
        # timed back to back), lowest and highest
        per_run = sorted(t2 / t1 for t1, t2 in zip(times[0], times[1]) if t1 and t2)
        spread = "%.2f-%.2fx" % (per_run[0], per_run[-1]) if per_run else "-"
        for peer, r in zip(("cbor2", "json", "orjson", "msgspec"), rs):
            if r is not None:
                ratios.setdefault((op, peer), []).append(r)
        print("| %s | %s | %s |" % (name, op, " | ".join(
            ["%.2f" % m if m is not None else "-" for m in ms] +
            ["%.2fx" % r if r is not None else "-" for r in rs[:1]] + [spread] +
            ["%.2fx" % r if r is not None else "-" for r in rs[1:]])))
        sys.stdout.flush()

    last = None
    for name, cbor, js in datasets():
        value = cbor_fast.loads(cbor)
        # check every result once before timing
        if cbor2.loads(cbor) != value or json.loads(js) != value:
            sys.exit("bench.py: %s: decoders disagree" % name)
        if cbor_fast.loads(cbor_fast.dumps(value)) != value or \
                cbor2.loads(cbor_fast.dumps(value)) != value:
            sys.exit("bench.py: %s: dumps does not round-trip" % name)
        mp = msgspec.msgpack.encode(value) if msgspec else None
        if msgspec and msgspec.msgpack.decode(mp) != value:
            sys.exit("bench.py: %s: msgspec disagrees" % name)
        if orjson and orjson.loads(js) != value:
            sys.exit("bench.py: %s: orjson disagrees" % name)
        last = value
        rows = {
            "loads": (lambda: cbor_fast.loads(cbor), lambda: cbor2.loads(cbor),
                      lambda: json.loads(js), orjson and (lambda: orjson.loads(js)),
                      msgspec and (lambda: msgspec.msgpack.decode(mp))),
            "dumps": (lambda: cbor_fast.dumps(value), lambda: cbor2.dumps(value),
                      lambda: json.dumps(value), orjson and (lambda: orjson.dumps(value)),
                      msgspec and (lambda: msgspec.msgpack.encode(value))),
        }
        for op, fns in rows.items():
            if op in args.ops:
                row(name, op, fns)
    if "iter_sequence" in args.ops:
        row("100k small dicts, sequence", "iter_sequence", sequence_rows(last))
    print()
    for (op, peer), rs in ratios.items():
        print("geomean %s vs %s: %.2fx over %d rows" % (
            op, peer, math.exp(sum(math.log(r) for r in rs) / len(rs)), len(rs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Number arrays: cbor_fast's bulk and typed-array paths against its generic
ones and against cbor2 (its C extension), in one process.

    python3 capi/python/bench_arrays.py              # the table (ms per call)
    python3 capi/python/bench_arrays.py --callgrind  # instructions per call
    python3 capi/python/bench_arrays.py --smoke      # one round, every check (ctest)

Each case's result is checked once before timing: every decoder of a case
gives the same numbers, every encoder's output decodes to them. Times are the
median of --repeat runs of --number calls, the cases taking turns run by run.
--callgrind runs each cell under valgrind twice, with and without the calls,
and divides the difference by the number of calls.
"""

import argparse
import array
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]

import cbor2  # noqa: E402
import cbor_fast  # noqa: E402


def data(large=True):
    """The inputs; large=False leaves out the 1M-element ones (a callgrind run of a small case)."""
    floats = [i * 0.37 + 0.001 for i in range(100000)]
    small = [i % 24 for i in range(100000)]
    u32 = [100000 + i * 40000 for i in range(100000)]
    big = array.array("d", (i * 0.25 + 0.001 for i in range(1000000 if large else 1)))
    return {
        "floats": cbor2.dumps(floats),  # 100k doubles (fb heads: cbor2 writes float64)
        "small": cbor_fast.dumps(small),
        "u32": cbor_fast.dumps(u32),
        "typed": cbor_fast.dumps(big, typed_arrays=True),  # tag 86, 8 MB
        "big": big,
    }


def tag_hook_array(tag, immutable):
    # what a cbor2 user writes to get an array.array from tag 86
    if tag.tag == 86:
        return array.array("d", tag.value)
    return tag


def cases(d):
    """name -> [(label, fn)]; the first entry is the fast path."""
    big = d["big"]
    big_list = big.tolist()
    return {
        "decode 100k float64 (plain array)": [
            ("cbor_fast.loads_array", lambda: cbor_fast.loads_array(d["floats"])),
            ("cbor_fast.loads (list)", lambda: cbor_fast.loads(d["floats"])),
            ("cbor2.loads (list)", lambda: cbor2.loads(d["floats"])),
        ],
        "decode 100k small ints (plain array)": [
            ("cbor_fast.loads_array 'Q'", lambda: cbor_fast.loads_array(d["small"], "Q")),
            ("cbor_fast.loads (list)", lambda: cbor_fast.loads(d["small"])),
            ("cbor2.loads (list)", lambda: cbor2.loads(d["small"])),
        ],
        "decode 100k uint32 (plain array)": [
            ("cbor_fast.loads_array 'Q'", lambda: cbor_fast.loads_array(d["u32"], "Q")),
            ("cbor_fast.loads (list)", lambda: cbor_fast.loads(d["u32"])),
            ("cbor2.loads (list)", lambda: cbor2.loads(d["u32"])),
        ],
        "decode 1M float64 typed array": [
            ("cbor_fast.loads typed_arrays=True", lambda: cbor_fast.loads(d["typed"], typed_arrays=True)),
            ("cbor_fast.loads_array", lambda: cbor_fast.loads_array(d["typed"])),
            ("cbor_fast.loads (CBORTag) + array()", lambda: array.array("d", cbor_fast.loads(d["typed"]).value)),
            ("cbor2.loads tag_hook -> array", lambda: cbor2.loads(d["typed"], tag_hook=tag_hook_array)),
        ],
        "encode 1M float64 array.array": [
            ("cbor_fast.dumps typed_arrays=True", lambda: cbor_fast.dumps(big, typed_arrays=True)),
            ("cbor_fast.dumps (plain array)", lambda: cbor_fast.dumps(big)),
            ("cbor_fast.dumps(list)", lambda: cbor_fast.dumps(big_list)),
            ("cbor2.dumps(CBORTag(86, tobytes()))", lambda: cbor2.dumps(cbor2.CBORTag(86, big.tobytes()))),
            ("cbor2.dumps (plain array)", lambda: cbor2.dumps(big)),
        ],
    }


def check(d, table):
    for name, fns in table.items():
        results = [fn() for _, fn in fns]
        if name.startswith("decode"):
            want = list(results[0])
            for (label, _), r in zip(fns, results):
                if list(r) != want:
                    raise AssertionError("%s: %s differs" % (name, label))
        else:
            want = d["big"].tolist()
            for (label, _), r in zip(fns, results):
                v = cbor_fast.loads(r, typed_arrays=True)
                if list(v) != want:
                    raise AssertionError("%s: %s does not decode to the array" % (name, label))


def median_ms(fns, number, repeat):
    times = {label: [] for label, _ in fns}
    for _ in range(repeat):
        for label, fn in fns:
            t0 = time.perf_counter()
            for _ in range(number):
                fn()
            times[label].append((time.perf_counter() - t0) / number * 1000)
    return {label: statistics.median(v) for label, v in times.items()}


CHILD = r'''
import sys
sys.path.insert(0, {here!r})
import bench_arrays as b
d = b.data(large="1M" in sys.argv[1])
fn = dict(b.cases(d)[sys.argv[1]])[sys.argv[2]]
fn()
for _ in range(int(sys.argv[3])):
    fn()
'''


def instructions(case, label, calls, tmp):
    out = os.path.join(tmp, "cg.out")
    script = CHILD.format(here=_HERE)
    p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
                        sys.executable, "-c", script, case, label, str(calls)],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(p.stderr[-2000:])
    m = re.search(r"Collected\s*:\s*(\d+)", p.stderr)
    return int(m.group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--number", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--smoke", action="store_true")
    ap.add_argument("--callgrind", action="store_true")
    ap.add_argument("--calls", type=int, default=3)
    ap.add_argument("--only", default="", help="--callgrind: the cases whose name contains this")
    args = ap.parse_args()
    d = data()
    table = cases(d)
    check(d, table)
    if args.smoke:
        for fns in table.values():
            median_ms(fns, 1, 1)
        print("bench_arrays smoke: ok")
        return
    if args.callgrind:
        with tempfile.TemporaryDirectory() as tmp:
            for name, fns in table.items():
                if args.only not in name:
                    continue
                print("\n" + name, flush=True)
                first = None
                for label, _ in fns:
                    n = (instructions(name, label, args.calls, tmp) - instructions(name, label, 0, tmp)) / args.calls
                    first = first or n
                    print("  %-40s %14.0f instr  %6.2fx" % (label, n, n / first), flush=True)
        return
    for name, fns in table.items():
        ms = median_ms(fns, args.number, args.repeat)
        first = ms[fns[0][0]]
        print("\n" + name)
        for label, _ in fns:
            print("  %-40s %9.3f ms  %6.2fx" % (label, ms[label], ms[label] / first))


if __name__ == "__main__":
    main()

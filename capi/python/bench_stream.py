#!/usr/bin/env python3
"""Streamed decoding (load, CBORDecoder) against loads() of the same bytes.

    python3 capi/python/bench_stream.py                 # the table
    python3 capi/python/bench_stream.py --smoke         # one quick round (ctest)
    python3 capi/python/bench_stream.py --instructions  # callgrind counts (valgrind)

For each corpus document (twitter, citm_catalog, canada from
$CBOR_FAST_CORPUS_DIR): loads(data); load() of a BytesIO and of a file on
disk opened unbuffered (the file is written to a temporary directory once;
each call seeks it to 0); CBORDecoder(BytesIO).decode(); and cbor2's loads
and load for reference. Then the three documents as one sequence, repeated 20
times: iter_sequence(bytes) against CBORDecoder over a BytesIO, item by item.
Each cell is the median of --repeat runs of --number calls in milliseconds per
call (perf_counter, one process); the ratio is loads' time over the row's
(below 1: slower than loads). --instructions counts instructions instead
(valgrind --tool=callgrind, the interpreter run with 4 calls and with none,
the difference divided by 4), for loads, load(BytesIO) and
CBORDecoder(BytesIO).decode(), with the ratio the row's count over loads'
(above 1: more work than loads): the timings are noisy on a shared machine,
the counts are not.
"""

import argparse
import io
import os
import statistics
import sys
import tempfile
import time

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]

import cbor_fast  # noqa: E402

try:
    import cbor2
except ImportError:
    cbor2 = None

FILES = ("twitter", "citm_catalog", "canada")


def corpus_dir():
    env = os.environ.get("CBOR_FAST_CORPUS_DIR")
    if env:
        return env
    return os.path.normpath(os.path.join(_HERE, "..", "..", "..", "shared", "corpus"))


def median_ms(fn, number, repeat):
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        runs.append((time.perf_counter() - t0) / number * 1000.0)
    return statistics.median(runs)


def child(op, name, calls):
    with open(os.path.join(corpus_dir(), name + ".cbor"), "rb") as f:
        data = f.read()
    fn = {"loads": lambda: cbor_fast.loads(data),
          "load": lambda: cbor_fast.load(io.BytesIO(data)),
          "decoder": lambda: cbor_fast.CBORDecoder(io.BytesIO(data)).decode()}[op]
    assert fn() == cbor_fast.loads(data)
    for _ in range(calls):
        fn()


def instructions():
    import re
    import subprocess

    def count(op, name, calls):
        with tempfile.TemporaryDirectory() as tmp:
            p = subprocess.run(["valgrind", "--tool=callgrind",
                                "--callgrind-out-file=" + os.path.join(tmp, "cg.out"),
                                sys.executable, os.path.abspath(__file__), "--child", op, name,
                                str(calls)], capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit("bench_stream: valgrind failed:\n" + p.stderr[-2000:])
        return int(re.search(r"Collected\s*:\s*(\d+)", p.stderr).group(1))

    print("%-13s %-30s %9s %7s" % ("document", "call", "Minstr", "ratio"))
    for name in FILES:
        base = None
        for op, label in (("loads", "loads(bytes)"), ("load", "load(BytesIO)"),
                          ("decoder", "CBORDecoder(BytesIO).decode()")):
            per = (count(op, name, 4) - count(op, name, 0)) / 4 / 1e6
            base = per if base is None else base
            print("%-13s %-30s %9.2f %7.2f" % (name, label, per, per / base))
            sys.stdout.flush()


def main():
    if sys.argv[1:2] == ["--child"]:
        return child(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    if sys.argv[1:2] == ["--instructions"]:
        return instructions()
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument("--number", type=int, default=3)
    ap.add_argument("--smoke", action="store_true", help="one round, every check")
    args = ap.parse_args()
    if args.smoke:
        args.repeat = args.number = 1
    docs = {}
    for name in FILES:
        with open(os.path.join(corpus_dir(), name + ".cbor"), "rb") as f:
            docs[name] = f.read()
    tmp = tempfile.TemporaryDirectory()
    print("%-13s %-34s %9s %7s" % ("document", "call", "ms/call", "ratio"))
    for name, data in docs.items():
        path = os.path.join(tmp.name, name + ".cbor")
        with open(path, "wb") as f:
            f.write(data)
        disk = open(path, "rb", buffering=0)
        expected = cbor_fast.loads(data)

        def from_disk():
            disk.seek(0)
            return cbor_fast.load(disk)

        rows = [
            ("loads(bytes)", lambda: cbor_fast.loads(data)),
            ("load(BytesIO)", lambda: cbor_fast.load(io.BytesIO(data))),
            ("load(file on disk, unbuffered)", from_disk),
            ("CBORDecoder(BytesIO).decode()", lambda: cbor_fast.CBORDecoder(io.BytesIO(data)).decode()),
        ]
        if cbor2 is not None:
            rows += [("cbor2.loads(bytes)", lambda: cbor2.loads(data)),
                     ("cbor2.load(BytesIO)", lambda: cbor2.load(io.BytesIO(data)))]
        for label, fn in rows:
            if not label.startswith("cbor2"):
                assert fn() == expected, label
        base = None
        for label, fn in rows:
            ms = median_ms(fn, args.number, args.repeat)
            base = ms if base is None else base
            print("%-13s %-34s %9.2f %7.2f" % (name, label, ms, base / ms))
        disk.close()
    seq = b"".join(docs.values()) * 20
    count = 3 * 20

    def by_iter():
        return sum(1 for _ in cbor_fast.iter_sequence(seq))

    def by_decoder():
        dec = cbor_fast.CBORDecoder(io.BytesIO(seq))
        for _ in range(count):
            dec.decode()
        return count

    assert by_iter() == by_decoder() == count
    base = median_ms(by_iter, 1, args.repeat)
    print("%-13s %-34s %9.2f %7.2f" % ("sequence x20", "iter_sequence(bytes)", base, 1.0))
    ms = median_ms(by_decoder, 1, args.repeat)
    print("%-13s %-34s %9.2f %7.2f" % ("sequence x20", "CBORDecoder(BytesIO) x60", ms, base / ms))
    tmp.cleanup()


if __name__ == "__main__":
    main()

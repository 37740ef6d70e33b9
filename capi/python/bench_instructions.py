#!/usr/bin/env python3
"""Instruction counts (valgrind --tool=callgrind) per call of loads/dumps, for
cbor_fast, cbor2 and json, on the same data as bench.py: the timings there
are noisy on a shared machine, instruction counts are not.

    python3 capi/python/bench_instructions.py [--calls 5]

Each cell runs the interpreter twice under callgrind, once with the calls and
once without (imports, reading and checking the data), and divides the
difference by the number of calls. Needs valgrind.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

CHILD = r'''
import gc, json, os, sys
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != {here!r}]
import cbor_fast, cbor2
lib, op, name, calls = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
d = os.environ.get("CBOR_FAST_CORPUS_DIR") or os.path.join({here!r}, "..", "..", "..", "shared", "corpus")
if name == "small_dicts":
    value = [{{"id": i, "name": "user%d" % i, "active": i % 3 == 0, "score": i * 0.5,
              "tags": ["a", "b"]}} for i in range(100000)]
    cbor, js = cbor_fast.dumps(value), json.dumps(value)
else:
    cbor = open(os.path.join(d, name + ".cbor"), "rb").read()
    js = open(os.path.join(d, name + ".json"), "rb").read()
    value = cbor_fast.loads(cbor)
m = {{"cbor_fast": cbor_fast, "cbor2": cbor2, "json": json}}[lib]
arg = (js if lib == "json" else cbor) if op == "loads" else value
fn = getattr(m, op)
fn(arg)
gc.collect()
for _ in range(calls):
    fn(arg)
'''


def instructions(args, tmp):
    out = os.path.join(tmp, "cg.out")
    p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out] + args,
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("bench_instructions: %s failed:\n%s" % (args, p.stderr[-2000:]))
    m = re.search(r"Collected\s*:\s*(\d+)", p.stderr)
    return int(m.group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=5)
    ap.add_argument("--files", default="twitter,citm_catalog,canada,small_dicts")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "child.py")
        with open(script, "w") as f:
            f.write(CHILD.format(here=HERE))
        print("| data | op | cbor_fast Minstr | cbor2 Minstr | json Minstr | vs cbor2 | vs json |")
        print("|---|---|---:|---:|---:|---:|---:|")
        for name in a.files.split(","):
            for op in ("loads", "dumps"):
                per = {}
                for lib in ("cbor_fast", "cbor2", "json"):
                    base = instructions([sys.executable, script, lib, op, name, "0"], tmp)
                    full = instructions([sys.executable, script, lib, op, name, str(a.calls)], tmp)
                    per[lib] = (full - base) / a.calls / 1e6
                print("| %s | %s | %.1f | %.1f | %.1f | %.2fx | %.2fx |" % (
                    name, op, per["cbor_fast"], per["cbor2"], per["json"],
                    per["cbor2"] / per["cbor_fast"], per["json"] / per["cbor_fast"]))
                sys.stdout.flush()


if __name__ == "__main__":
    main()

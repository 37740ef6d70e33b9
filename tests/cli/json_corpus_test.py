#!/usr/bin/env python3
"""cbor-fast from-json / to-json / canonical against Python's json and cbor2.

  json_corpus_test.py TOOL CORPUS_DIR

For each corpus JSON original (twitter, citm_catalog, canada):
  - from-json: cbor2 decodes the output to exactly the value json.loads gives
    (types compared too: an int is never a float, a float never an int);
  - to-json of that output, and to-json of the corpus's own CBOR file: json.loads
    of the text equals the original's value, with the same strictness;
  - canonical --length-first of the from-json output is byte for byte
    cbor2.dumps(value, canonical=True) (RFC 7049 / RFC 8949 4.2.3 order).
Plus boundary values through both directions and the canonical comparison.
"""
import json
import math
import subprocess
import sys

import cbor2

tool, corpus = sys.argv[1], sys.argv[2]
failures = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL:", msg, file=sys.stderr)


def same(a, b, path="$"):
    """Equal values of the same JSON types, recursively."""
    if type(a) is not type(b):
        fail(f"{path}: {type(a).__name__} {a!r:.60} vs {type(b).__name__} {b!r:.60}")
        return False
    if isinstance(a, dict):
        if list(a.keys()) != list(b.keys()):
            fail(f"{path}: keys differ")
            return False
        return all(same(a[k], b[k], f"{path}.{k}") for k in a)
    if isinstance(a, list):
        if len(a) != len(b):
            fail(f"{path}: lengths {len(a)} vs {len(b)}")
            return False
        return all(same(x, y, f"{path}[{i}]") for i, (x, y) in enumerate(zip(a, b)))
    if isinstance(a, float) and math.isnan(a) and math.isnan(b):
        return True
    if a != b:
        fail(f"{path}: {a!r:.60} != {b!r:.60}")
        return False
    return True


def run(args, data):
    p = subprocess.run([tool] + args, input=data, capture_output=True)
    if p.returncode != 0:
        fail(f"{args}: exit {p.returncode}: {p.stderr.decode(errors='replace')}")
    return p.stdout


for name in ("twitter", "citm_catalog", "canada"):
    with open(f"{corpus}/{name}.json", "rb") as f:
        text = f.read()
    value = json.loads(text)
    cbor = run(["from-json"], text)
    same(value, cbor2.loads(cbor), f"{name}: from-json")
    back = run(["to-json", "-"], cbor)
    if not back.endswith(b"\n") or back.count(b"\n") != 1:
        fail(f"{name}: to-json is not one line")
    same(value, json.loads(back), f"{name}: to-json(from-json)")
    with open(f"{corpus}/{name}.cbor", "rb") as f:
        same(value, json.loads(run(["to-json", "-"], f.read())), f"{name}: to-json(corpus cbor)")
    canon = run(["canonical", "--length-first", "-"], cbor)
    want = cbor2.dumps(value, canonical=True)
    if canon != want:
        at = next((i for i, (x, y) in enumerate(zip(canon, want)) if x != y), min(len(canon), len(want)))
        fail(f"{name}: canonical --length-first differs from cbor2 canonical at byte {at}")
    print(f"{name}: {len(text)} bytes of JSON, {len(cbor)} of CBOR: ok")

# Boundary rows: integers at every head size and beyond 64 bits, floats of
# each width, keys of every length class for the canonical order.
values = [
    [0, 23, 24, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**64 - 1, 2**64, 10**40],
    [-1, -24, -25, -256, -257, -2**63, -2**64, -2**64 - 1, -10**40],
    # (65504.0, the largest half, is left out: cbor2 5.4 writes it as a single,
    # fa477fe000, where the shortest exact form is f97bff; json_test.cpp has it.)
    [0.0, -0.0, 1.5, 65000.0, 100000.0, 1.1, 3.4028234663852886e38, 5e-324, 1e300],
    {"b": 1, "a": 2, "aa": 3, "": 4, "\u00fc": 5, "z" * 24: 6, "y" * 23: 7},
    {"nested": {"k": [{"x": None, "y": True, "z": False}], "s": "\"\\\n\t\u0001\u007f"}},
]
for v in values:
    text = json.dumps(v).encode()
    cbor = run(["from-json"], text)
    same(v, cbor2.loads(cbor), f"boundary {text[:40]!r}")
    same(v, json.loads(run(["to-json", "-"], cbor)), f"boundary back {text[:40]!r}")
    if run(["canonical", "--length-first", "-"], cbor) != cbor2.dumps(v, canonical=True):
        fail(f"canonical of {text[:60]!r}")

if failures:
    print(f"{failures} failure(s)", file=sys.stderr)
    sys.exit(1)
print("all ok")

#!/usr/bin/env python3
"""from-json of containers with 2^24 - 1 and 2^24 members (the tool built
without sanitizers): simdjson's DOM tape holds 24 bits of a container's size
and size() stops at 0xFFFFFF, so the array of 2^24 zeros came out with the
head 9a00ffffff over 2^24 items (and writer_count_mismatch at the end).

    json_huge_test.py TOOL
"""
import os
import subprocess
import sys
import tempfile

tool = sys.argv[1]
failed = False
with tempfile.TemporaryDirectory() as work:
    for name, n in (("below_the_tape_limit", (1 << 24) - 1), ("at_the_tape_limit", 1 << 24),
                    ("past_the_tape_limit", (1 << 24) + 3)):
        path = os.path.join(work, name + ".json")
        with open(path, "w") as f:
            f.write("[" + "0," * (n - 1) + "[]]")
        r = subprocess.run([tool, "from-json", path], capture_output=True, timeout=120)
        want = b"\x9a" + n.to_bytes(4, "big") + b"\x00" * (n - 1) + b"\x80"
        if r.returncode != 0 or r.stdout != want:
            failed = True
            print(f"{name}: rc {r.returncode}, {len(r.stdout)} bytes, head "
                  f"{r.stdout[:5].hex()}, tail {r.stdout[-2:].hex()}: {r.stderr.decode()!r}")
        else:
            print(f"{name}: ok ({n} elements)")
sys.exit(1 if failed else 0)

#!/usr/bin/env python3
"""Checks cbor_fast.h against the one table of status codes.

  status_table.py cbor_fast.h status.def

- the enum cbor_fast_status declares exactly the table's codes (name and value);
- each code's full spelling, CBOR_FAST_ERR_<C++ NAME> (CBOR_FAST_<NAME> for ok
  and end), is the enumerator itself or an alias macro of it;
- every code sits in its block: 0-9 (not errors), usage 10-99, not well-formed 100-199,
  invalid / strict 200-299, limits and memory 300-399.
(capi/src/common.cpp checks the values at compile time; this adds the
direction a compiler cannot: nothing in the header that the table lacks.)
"""
import re
import sys


def main():
    header_path, table_path = sys.argv[1:3]
    header = open(header_path, encoding="utf-8").read()
    table = open(table_path, encoding="utf-8").read()
    rows = re.findall(r'^CBOR_FAST_STATUS\((\w+), (\d+), (\w+), "[^"]*"\)', table, re.M)
    if len(rows) < 30:
        raise SystemExit(f"status_table.py: only {len(rows)} rows in {table_path}")
    enum = re.search(r"typedef enum cbor_fast_status \{(.*?)\} cbor_fast_status;", header, re.S)
    body = re.sub(r"/\*.*?\*/", "", enum.group(1), flags=re.S)
    declared = {n: int(v) for n, v in re.findall(r"\b(CBOR_FAST_\w+) = (\d+)", body)}
    expected = {"CBOR_FAST_" + c: int(code) for _, code, c in rows}
    errors = []
    for n in sorted(set(declared) | set(expected)):
        if declared.get(n) != expected.get(n):
            errors.append(f"{n}: header {declared.get(n)}, table {expected.get(n)}")
    aliases = dict(re.findall(r"^#define (CBOR_FAST_\w+) (CBOR_FAST_\w+)\s*$", header, re.M))
    for cxx, code, c in rows:
        success = cxx in ("ok", "end", "need_more")  # not errors: no ERR_ prefix
        full = "CBOR_FAST_" + (cxx.upper() if success else "ERR_" + cxx.upper())
        if full != "CBOR_FAST_" + c and aliases.get(full) != "CBOR_FAST_" + c:
            errors.append(f"{cxx}: no alias {full} for CBOR_FAST_{c}")
        v = int(code)
        if not (v <= 9 if success else 10 <= v < 400):
            errors.append(f"{cxx} = {v}: outside the blocks")
    for a, target in aliases.items():
        if a.startswith("CBOR_FAST_ERR_") and target.startswith("CBOR_FAST_ERR_") and \
                target[len("CBOR_FAST_"):] not in {c for _, _, c in rows}:
            errors.append(f"alias {a} of {target}, which is no code")
    if errors:
        raise SystemExit("status_table.py:\n  " + "\n  ".join(errors))
    print(f"status_table.py: {len(rows)} codes, header and table agree")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Runs the libcbor_fast benchmark suite and prints one markdown table per operation.

    python3 benchmarks/run.py --build-dir build/bench
    python3 benchmarks/run.py --build-dir build/bench --filter 'corpus|twitter' --min-time 0.2
    python3 benchmarks/run.py --build-dir build/bench --callgrind   # instructions per byte
    python3 benchmarks/run.py --build-dir build/bench --placements 8  # spread over code placement

Benchmarks are named "<operation>/<implementation>/<input>". Each table has the
inputs as rows and, as columns, the libcbor_fast variants, the peers, memcpy of
the same bytes, and the speed-up of `cbor_fast` over the best peer (best peer
time / cbor_fast time: above 1 means libcbor_fast is faster). A cell reads
"ns per data item · MB/s" (MB = 10^6 bytes), from CPU time.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

OPERATIONS = [
    ("walk", "walk: every item through the realistic consumer (a 12-case switch folding "
             "value, length, first byte, float bits and tag into a hash; benchmarks/realistic.hpp)"),
    ("doc", "doc: one single-item document per call, reader set-up included"),
    ("validate", "validate: well-formedness only"),
    ("decode", "decode: a document from the bytes, then free it"),
    ("encode", "encode: streaming encoder fed from a tape of the items"),
    ("encode_doc", "encode_doc: a decoded document back to bytes"),
    ("seq_walk", "seq_walk: every item of a sequence of 1000 documents"),
    ("seq_validate", "seq_validate: find and check each document of the sequence"),
    ("seq_decode", "seq_decode: a document per item of the sequence"),
]
PEERS = ["libcbor", "nlohmann"]
PRIMARY = "cbor_fast"

CALLGRIND_OPS = [
    "walk", "walk_visit", "walk_visit_bound", "walk_capi", "walk_capi_batch", "walk_capi_visit",
    "walk_utf8",
    "validate", "validate_utf8", "validate_strict", "decode", "encode", "encode_doc", "to_json",
    "libcbor_walk", "libcbor_validate", "libcbor_decode", "libcbor_encode", "libcbor_encode_doc",
    "nlohmann_walk", "nlohmann_validate", "nlohmann_decode", "nlohmann_encode_doc",
]
CORPUS = ["twitter", "citm_catalog", "canada"]


def find_binary(build_dir, name):
    for candidate in (os.path.join(build_dir, "benchmarks", name), os.path.join(build_dir, name)):
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    sys.exit(f"run.py: {name} not found under {build_dir} (build the 'bench' preset first)")


def cache_value(build_dir, key):
    try:
        with open(os.path.join(build_dir, "CMakeCache.txt"), encoding="utf-8") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return line.split("=", 1)[1].strip()
    except OSError:
        pass
    return None


def run_binary(binary, args):
    cmd = [binary, "--benchmark_format=json", f"--benchmark_min_time={args.min_time}"]
    if args.filter:
        cmd.append(f"--benchmark_filter={args.filter}")
    if args.repetitions > 1:
        # Interleaved at random, so a burst of load from elsewhere on a shared
        # machine does not land on all repetitions of one benchmark.
        cmd += [f"--benchmark_repetitions={args.repetitions}",
                "--benchmark_enable_random_interleaving=true"]
    print(f"running: {' '.join(cmd)}", file=sys.stderr)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, check=False)
    if proc.returncode != 0:
        sys.exit(f"run.py: the benchmark binary failed (exit {proc.returncode})")
    return json.loads(proc.stdout)


def run_suite(args):
    data = run_binary(find_binary(args.build_dir, "cbor_fast_bench"), args)
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1)
    return data


def run_placements(args):
    """The suite once per code placement (benchmarks/code_shift.cpp): builds
    the cbor_fast_bench_shiftN binaries, runs them in turn and returns
    {"placements": [{"shift": N, "data": ...}, ...]}."""
    build = ["cmake", "--build", args.build_dir, "--target", "cbor_fast_bench_placements"]
    print(f"building: {' '.join(build)}", file=sys.stderr)
    if subprocess.run(build, check=False).returncode != 0:
        sys.exit("run.py: building the placement binaries failed")
    found = []
    for name in os.listdir(os.path.join(args.build_dir, "benchmarks")):
        m = re.fullmatch(r"cbor_fast_bench_shift(\d+)", name)
        if m:
            found.append((int(m.group(1)), os.path.join(args.build_dir, "benchmarks", name)))
    if not found:
        sys.exit("run.py: no cbor_fast_bench_shiftN binaries were built")
    found.sort()
    if args.placements < len(found):
        found = found[:args.placements]
    data = {"placements": [{"shift": shift, "data": run_binary(binary, args)}
                           for shift, binary in found]}
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1)
    return data


def collect(data, stat):
    """{(op, impl, input): (ns_per_item, mb_per_s)} and the input order.

    Over repetitions: "best" keeps the fastest run (interference on a shared
    machine only ever adds time), "median" the middle one.
    """
    runs = {}
    order = {}  # input -> first registration index (interleaved runs come shuffled)
    for b in data["benchmarks"]:
        if b.get("run_type") == "aggregate" or b.get("error_occurred"):
            continue
        parts = b.get("run_name", b["name"]).split("/")
        if len(parts) != 3:
            continue
        items = b.get("items_per_second", 0.0)
        rate = b.get("bytes_per_second", 0.0)
        if not items:
            continue
        runs.setdefault(tuple(parts), []).append((1e9 / items, rate / 1e6))
        index = b.get("family_index", len(order))
        order[parts[2]] = min(order.get(parts[2], index), index)
    inputs = sorted(order, key=order.get)
    results = {}
    for key, values in runs.items():
        values.sort()
        results[key] = values[0] if stat == "best" else values[len(values) // 2]
    return results, inputs


def fmt_cell(value):
    if value is None:
        return "–"
    ns, mbps = value
    ns_text = f"{ns:.3g}" if ns < 100 else f"{ns:,.0f}"
    return f"{ns_text} ns · {mbps:,.0f} MB/s"


def impl_order(impls):
    fast = sorted((i for i in impls if i.startswith(PRIMARY)), key=lambda i: (i != PRIMARY, i))
    peers = [p for p in PEERS if p in impls]
    others = sorted(i for i in impls if i not in fast and i not in peers)
    return fast + peers + others


def tables(results, inputs):
    out = []
    ratios = {}
    for op, title in OPERATIONS:
        impls = {impl for (o, impl, _inp) in results if o == op}
        if not impls:
            continue
        cols = impl_order(impls)
        rows = [inp for inp in inputs if any((op, i, inp) in results for i in cols)]
        extra_utf8 = op == "validate" and "cbor_fast_utf8" in cols
        header = ["input"] + cols + ["memcpy", "vs best peer"]
        if extra_utf8:
            header.append("UTF-8 cost")
        out.append(f"\n### {title}\n")
        out.append("| " + " | ".join(header) + " |")
        out.append("|" + "---|" * len(header))
        for inp in rows:
            cells = [inp] + [fmt_cell(results.get((op, c, inp))) for c in cols]
            cells.append(fmt_cell(results.get(("copy", "memcpy", inp))))
            fast = results.get((op, PRIMARY, inp))
            peer_times = [results[(op, p, inp)][0] for p in PEERS if (op, p, inp) in results]
            if fast and peer_times:
                ratio = min(peer_times) / fast[0]
                ratios[(op, inp)] = ratio
                cells.append(f"{ratio:.2f}×")
            else:
                cells.append("–")
            if extra_utf8:
                utf8 = results.get((op, "cbor_fast_utf8", inp))
                cells.append(f"{(utf8[0] / fast[0] - 1) * 100:+.0f}%" if fast and utf8 else "–")
            out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out), ratios


def vs(results, op, impl, peer, inp):
    a = results.get((op, impl, inp))
    b = results.get((op, peer, inp))
    return b[0] / a[0] if a and b else None


def geomean(values):
    values = [v for v in values if v]
    if not values:
        return None
    product = 1.0
    for v in values:
        product *= v
    return product ** (1.0 / len(values))


def target_rows(results, inputs):
    """The issue's target ratios: (check, input, value, target, format) per
    row; the corpus geomean (what the targets are set on) after the three
    files."""
    rows = []
    corpus = [i for i in inputs if i in CORPUS]

    def row(check, inp, value, target, fmt="{:.2f}×"):
        if value is not None:
            rows.append((check, inp, value, target, fmt))

    def corpus_rows(check, fn, target, fmt="{:.2f}×"):
        values = [fn(inp) for inp in corpus]
        for inp, value in zip(corpus, values):
            row(check, inp, value, target, fmt)
        if len(corpus) > 1 and all(values):
            row(check, "**geomean**", geomean(values), target, fmt)

    # Issue 17's targets: the realistic consumer against libcbor 0.8.
    corpus_rows("realistic walk, next() loop vs libcbor cbor_stream_decode",
                lambda inp: vs(results, "walk", "cbor_fast", "libcbor", inp), "≥ 2.7×")
    corpus_rows("realistic walk, visit() vs libcbor cbor_stream_decode",
                lambda inp: vs(results, "walk", "cbor_fast_visit", "libcbor", inp), "≥ 3.3×")
    corpus_rows("realistic walk, C cbor_reader_next vs libcbor",
                lambda inp: vs(results, "walk", "cbor_fast_capi", "libcbor", inp), "≥ 2.0×")
    corpus_rows("realistic walk, C cbor_reader_next_batch vs libcbor",
                lambda inp: vs(results, "walk", "cbor_fast_capi_batch", "libcbor", inp), "≥ 2.7×")
    # The C route for a whole input (callbacks per item kind): the batch target.
    corpus_rows("realistic walk, C cbor_reader_visit vs libcbor",
                lambda inp: vs(results, "walk", "cbor_fast_capi_visit", "libcbor", inp), "≥ 2.7×")
    for impl in ("cbor_fast", "cbor_fast_reset", "cbor_fast_capi", "cbor_fast_capi_reset"):
        for inp in ["doc_text_64k", "doc_bytes_1M", "doc_int"]:
            a = results.get(("doc", impl, inp))
            b = results.get(("doc", "libcbor", inp))
            if a and b:
                row(f"single-item document, {impl} time / libcbor", inp, a[0] / b[0], "≤ 1.2",
                    "{:.2f}")
    # Issue 16's targets: input in parts against the one-shot next() loop.
    for impl, target in (("cbor_fast_grown_4k", "≤ 1.1"), ("cbor_fast_fed_4k", "≤ 1.1"),
                         ("cbor_fast_stream_4k", "≤ 1.1"), ("cbor_fast_grown_64", "≤ 2"),
                         ("cbor_fast_fed_64", "≤ 2"), ("cbor_fast_fed_needed_64", "≤ 2")):
        def part(inp, impl=impl):
            a = results.get(("walk", impl, inp))
            b = results.get(("walk", "cbor_fast", inp))
            return a[0] / b[0] if a and b else None
        corpus_rows(f"input in parts ({impl}) / one-shot next() loop", part, target, "{:.2f}")
    row("500 nested arrays, next() walk vs nlohmann", "nested_500",
        vs(results, "walk", "cbor_fast", "nlohmann", "nested_500"), "≥ 1×")
    row("500 nested arrays, validate vs libcbor", "nested_500",
        vs(results, "validate", "cbor_fast", "libcbor", "nested_500"), "≥ 1×")
    for inp in ["seq_records", "seq_citm"]:
        row("sequence walk, visit() vs libcbor", inp,
            vs(results, "seq_walk", "cbor_fast_visit", "libcbor", inp), "≥ 3×")
    corpus_rows("validate vs libcbor (empty callbacks)",
                lambda inp: vs(results, "validate", "cbor_fast", "libcbor", inp), "≥ 3×")

    def utf8_cost(inp):
        a = results.get(("validate", "cbor_fast", inp))
        b = results.get(("validate", "cbor_fast_utf8", inp))
        return b[0] / a[0] if a and b else None

    values = [utf8_cost(inp) for inp in corpus]
    for inp, value in zip(corpus, values):
        if value:
            row("strict UTF-8 cost over plain validation", inp, (value - 1) * 100, "≤ 25%",
                "{:+.0f}%")
    if len(corpus) > 1 and all(values):
        row("strict UTF-8 cost over plain validation", "**geomean**",
            (geomean(values) - 1) * 100, "≤ 25%", "{:+.0f}%")
    # Plain validation never reads string content (zero-copy), so on long
    # strings only the UTF-8 checker's own speed is meaningful.
    for inp in ["text_24_255", "text_utf8_24_255", "text_64k"]:
        b = results.get(("validate", "cbor_fast_utf8", inp))
        if b:
            row("UTF-8 check throughput", inp, b[1], "–", "{:,.0f} MB/s")
    corpus_rows("cbor_decode + free vs libcbor cbor_load + cbor_decref",
                lambda inp: vs(results, "decode", "cbor_fast", "libcbor", inp), "≥ 20×")
    corpus_rows("cbor_decode + free vs nlohmann from_cbor",
                lambda inp: vs(results, "decode", "cbor_fast", "nlohmann", inp), "≥ 10×")
    corpus_rows("encode a document vs libcbor cbor_serialize",
                lambda inp: vs(results, "encode_doc", "cbor_fast", "libcbor", inp), "≥ 1.5×")

    # Through the C API's opaque handles against the C++ core: time ratio, at
    # most 1.15. Like for like: C items against the C++ next() loop (both fill
    # an item struct per item); and, for the record, against visit().
    def ratio(op, a_impl, b_impl):
        def fn(inp):
            a = results.get((op, a_impl, inp))
            b = results.get((op, b_impl, inp))
            return a[0] / b[0] if a and b else None
        return fn

    for impl in ("cbor_fast_capi_batch", "cbor_fast_capi"):
        corpus_rows(f"walk through the C API ({impl}) / C++ next() loop",
                    ratio("walk", impl, "cbor_fast"), "≤ 1.15", "{:.2f}")
    corpus_rows("walk through the C API (cbor_fast_capi_batch) / C++ visit()",
                ratio("walk", "cbor_fast_capi_batch", "cbor_fast_visit"), "–", "{:.2f}")
    corpus_rows("cbor_decode (C) / cbor_fast::decode (C++)",
                ratio("decode", "cbor_fast", "cbor_fast_cxx"), "≤ 1.15", "{:.2f}")
    for inp in inputs:
        if inp.startswith(("uint_", "negint_", "float")):
            row("writer vs libcbor cbor_encode_*", inp,
                vs(results, "encode", "cbor_fast", "libcbor", inp), "≥ 2×")
    return rows


def targets(results, inputs):
    lines = ["\n### targets\n", "| check | input | measured | target |", "|---|---|---|---|"]
    for check, inp, value, target, fmt in target_rows(results, inputs):
        lines.append(f"| {check} | {inp} | {fmt.format(value)} | {target} |")
    return "\n".join(lines)


def median(values):
    values = sorted(values)
    n = len(values)
    return values[n // 2] if n % 2 else (values[n // 2 - 1] + values[n // 2]) / 2


def placement_report(placements, stat):
    """Tables of each row's median over the placements, and the targets as
    the median over the placements with the lowest and highest value (each
    ratio taken within one placement's run, then spread over placements)."""
    per = [(p["shift"], *collect(p["data"], stat)) for p in placements]
    inputs = per[0][2]
    keys = set()
    for _shift, results, _inputs in per:
        keys |= set(results)
    merged = {}
    for key in keys:
        values = [r[key] for _s, r, _i in per if key in r]
        merged[key] = (median([v[0] for v in values]), median([v[1] for v in values]))
    text, _ratios = tables(merged, inputs)
    spread = {}
    order = []
    for _shift, results, _inputs in per:
        for check, inp, value, target, fmt in target_rows(results, inputs):
            if (check, inp) not in spread:
                order.append((check, inp, target, fmt))
            spread.setdefault((check, inp), []).append(value)
    lines = ["\n### targets over the placements\n",
             "| check | input | median | lowest – highest | target |", "|---|---|---|---|---|"]
    for check, inp, target, fmt in order:
        values = spread[(check, inp)]
        lines.append(f"| {check} | {inp} | {fmt.format(median(values))} | "
                     f"{fmt.format(min(values))} – {fmt.format(max(values))} | {target} |")
    return text, "\n".join(lines)


# ---- callgrind -------------------------------------------------------------------

def callgrind(args):
    if shutil.which("valgrind") is None:
        sys.exit("run.py: valgrind not found (Debian: valgrind)")
    driver = find_binary(args.build_dir, "cbor_fast_walk_once")
    usage = subprocess.run([driver], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, check=False).stderr
    available = set(usage.split("operations:", 1)[-1].split())
    ops = [o for o in (args.callgrind_ops.split(",") if args.callgrind_ops else CALLGRIND_OPS)
           if o in available]
    corpus = args.corpus_dir or cache_value(args.build_dir, "CBOR_FAST_CORPUS_DIR")
    if not corpus:
        sys.exit("run.py: pass --corpus-dir")
    keep = args.callgrind_dir
    workdir = keep or tempfile.mkdtemp(prefix="cbor_fast_callgrind_")
    os.makedirs(workdir, exist_ok=True)
    table = {}
    files = [f for f in CORPUS if os.path.isfile(os.path.join(corpus, f + ".cbor"))]
    for name in files:
        path = os.path.join(corpus, name + ".cbor")
        size = os.path.getsize(path)
        for op in ops:
            out_file = os.path.join(workdir, f"callgrind.{op}.{name}.out")
            cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}",
                   "--toggle-collect=cbor_fast_bench_measure", driver, op, path]
            print(f"callgrind: {op} {name}", file=sys.stderr)
            proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True, check=False)
            if proc.returncode != 0:
                print(f"  failed: {proc.stdout.strip()} {proc.stderr.strip()[-300:]}",
                      file=sys.stderr)
                continue
            total = None
            with open(out_file, encoding="utf-8") as f:
                for line in f:
                    m = re.match(r"^(totals|summary):\s+(\d+)", line)
                    if m:
                        total = int(m.group(2))
            if total is not None:
                table[(name, op)] = total / size
    print("\n### instructions per input byte (callgrind, one run of the operation)\n")
    header = ["file"] + ops
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for name in files:
        cells = [name] + [f"{table[(name, op)]:.2f}" if (name, op) in table else "–" for op in ops]
        print("| " + " | ".join(cells) + " |")
    pairs = [("walk", "libcbor_walk"), ("walk_visit", "libcbor_walk"),
             ("walk_capi", "libcbor_walk"), ("walk_capi_batch", "libcbor_walk"),
             ("walk_capi_batch", "walk"), ("walk_capi", "walk"),
             ("validate", "libcbor_validate"),
             ("decode", "libcbor_decode"), ("encode", "libcbor_encode"),
             ("encode_doc", "libcbor_encode_doc"), ("walk", "nlohmann_walk"),
             ("decode", "nlohmann_decode"), ("encode_doc", "nlohmann_encode_doc")]
    pairs = [(a, b) for a, b in pairs if a in ops and b in ops]
    if pairs:
        print("\ninstructions of the second per instruction of the first (a peer over "
              "libcbor_fast: above 1, libcbor_fast executes fewer; the C API rows: the C++ "
              "next() loop over the C API)\n")
        print("| file | " + " | ".join(f"{b} / {a}" for a, b in pairs) + " |")
        print("|" + "---|" * (len(pairs) + 1))
        for name in files:
            cells = [name]
            for a, b in pairs:
                if (name, a) in table and (name, b) in table:
                    cells.append(f"{table[(name, b)] / table[(name, a)]:.2f}×")
                else:
                    cells.append("–")
            print("| " + " | ".join(cells) + " |")
    if keep:
        print(f"\ncallgrind outputs kept in {keep} (callgrind_annotate FILE)")
    else:
        shutil.rmtree(workdir, ignore_errors=True)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", default=os.path.join(here, "..", "build", "bench"))
    parser.add_argument("--min-time", type=float, default=0.05,
                        help="seconds per benchmark (Google Benchmark --benchmark_min_time)")
    parser.add_argument("--repetitions", type=int, default=1,
                        help="run each benchmark N times, interleaved at random")
    parser.add_argument("--stat", choices=["best", "median"], default="best",
                        help="which of the repetitions to report (default: best)")
    parser.add_argument("--filter", help="regular expression on the benchmark names")
    parser.add_argument("--json-out", help="also save Google Benchmark's JSON here")
    parser.add_argument("--from-json", help="print tables from a saved JSON instead of running")
    parser.add_argument("--callgrind", action="store_true",
                        help="count instructions per byte with callgrind instead")
    parser.add_argument("--callgrind-ops", help="comma-separated walk_once operations")
    parser.add_argument("--callgrind-dir", help="keep callgrind output files here")
    parser.add_argument("--corpus-dir", help="default: CBOR_FAST_CORPUS_DIR from the CMake cache")
    parser.add_argument("--placements", type=int, default=0, metavar="N",
                        help="run the suite with the code at N placements (up to 8: shifted by "
                             "0, 16, ..., 112 bytes) and report the spread; see BENCHMARKS.md")
    args = parser.parse_args()

    if args.callgrind:
        callgrind(args)
        return
    if args.from_json:
        with open(args.from_json, encoding="utf-8") as f:
            data = json.load(f)
    elif args.placements > 0:
        data = run_placements(args)
    else:
        data = run_suite(args)
    placements = data.get("placements")
    ctx = (placements[0]["data"] if placements else data).get("context", {})
    print(f"## libcbor_fast benchmarks\n\n{ctx.get('host_name', '?')}: {ctx.get('num_cpus', '?')} "
          f"CPUs at {ctx.get('mhz_per_cpu', '?')} MHz, load average "
          f"{', '.join(f'{x:.1f}' for x in ctx.get('load_avg', [])) or '?'}; "
          f"implementations: {ctx.get('implementations', '?')}; "
          f"min time {args.min_time} s, repetitions {args.repetitions} ({args.stat}).")
    if placements:
        shifts = ", ".join(str(p["shift"]) for p in placements)
        print(f"\n{len(placements)} code placements (shifted by {shifts} bytes); each cell is "
              f"the median over the placements of each placement's {args.stat}.")
        text, spread = placement_report(placements, args.stat)
        print(text)
        print(spread)
        return
    results, inputs = collect(data, args.stat)
    text, _ratios = tables(results, inputs)
    print(text)
    print(targets(results, inputs))


if __name__ == "__main__":
    main()

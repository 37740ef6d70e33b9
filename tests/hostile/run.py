#!/usr/bin/env python3
"""Runs the hostile-input table (written by table.py) through one runner under
a memory ceiling and compares every "<status> <offset>" with the table.

    run.py --inputs DIR --runner reader --program cbor_fast_hostile_reader --probe PROBE
    run.py --inputs DIR --runner capi   --program cbor_fast_hostile_capi   --probe PROBE
    run.py --inputs DIR --runner tool   --program cbor-fast-plain          --probe PROBE

Runners and the engines they drive (engine names of the table in brackets):
    reader  reader.next, reader.skip [reader]  C++ cbor_fast::reader, one process for both
    capi    capi [capi]                        C cbor_decode / cbor_seq_next_doc
    tool    check [check], diag [diag]         `cbor-fast check` and `cbor-fast diag`

The ceiling is set on this script's own process before it starts anything:
setrlimit(RLIMIT_AS), what `ulimit -v` sets in a shell, which every program
started from here inherits (and RLIMIT_CPU, `ulimit -t`, as the timeout of
each run). So the script runs no threads (whose stacks and malloc arenas would
eat the ceiling): it keeps --jobs programs running and reaps them with wait4().
Before the table, the probe proves the ceiling: under it, it must fail to
malloc 1024 MiB and succeed with 16 MiB. A runner that
allocates without bound then fails the same way (out_of_memory,
std::bad_alloc or a crash) and its row fails.

Each output line gives the result, the engine, the row, what was expected and
what came out, the run's CPU time and its peak resident memory; a summary per
engine follows. Python 3 standard library only.
"""
import argparse
import os
import re
import resource
import subprocess
import sys
import time

TOOL_OK = re.compile(r"ok: (\d+) items?, (\d+) nodes?, (\d+) bytes?\n\Z")
TOOL_ERROR = re.compile(r"cbor-fast: error: (\w+) \(.*\) at byte offset (\d+)\n\Z")
RUNNER_LINE = re.compile(r"(\w+) (\d+)\Z")


def read_manifest(path):
    rows = []
    with open(path) as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            name, group, file, status, offset, engines = fields[:6]
            if ".." in offset:
                lo, hi = offset.split("..")
                offset = (int(lo), int(hi))
            else:
                offset = int(offset)
            rows.append({"name": name, "group": group, "file": file, "status": status,
                         "offset": offset, "engines": engines.split(","),
                         "options": fields[6:]})
    return rows


def engines_for(runner, program):
    """(table engine, base command, output kind, the engine names the run reports)."""
    if runner == "reader":
        return [("reader", [program], "reader", ["reader.next", "reader.skip"])]
    if runner == "capi":
        return [("capi", [program], "line", ["capi"])]
    return [("check", [program, "check"], "check", ["check"]),
            ("diag", [program, "diag"], "diag", ["diag"])]


class Pool:
    """Runs programs --jobs at a time, reaping each with wait4() for its own usage."""

    def __init__(self, jobs):
        self.jobs = jobs
        self.running = {}  # pid -> (Popen, tag)

    def start(self, cmd, tag, keep_stdout=True):
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE if keep_stdout else subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
        self.running[p.pid] = (p, tag)

    def full(self):
        return len(self.running) >= self.jobs

    def reap(self):
        """Waits for any run: (tag, exit code or -signal, stdout, stderr, CPU s, peak KiB)."""
        pid, wait_status, usage = os.wait4(-1, 0)
        p, tag = self.running.pop(pid)
        p.returncode = os.waitstatus_to_exitcode(wait_status)
        # The runners write a line or two (diag's text goes to /dev/null): it
        # all sat in the pipes, which never filled.
        out = p.stdout.read() if p.stdout is not None else b""
        err = p.stderr.read()
        if p.stdout is not None:
            p.stdout.close()
        p.stderr.close()
        # CPU time, not wall time: the machine may be shared.
        return (tag, p.returncode, out.decode(errors="replace"), err.decode(errors="replace"),
                usage.ru_utime + usage.ru_stime, usage.ru_maxrss)


def run_one(cmd):
    pool = Pool(1)
    pool.start(cmd, None)
    return pool.reap()[1:]


def interpret(kind, rc, stdout, stderr, input_size):
    """[(status, offset)] for each engine of the run, or [(None, why)] if it broke."""
    if rc < 0:
        return [(None, f"killed by signal {-rc} (timeout or crash)")]
    if kind == "reader":
        lines = stdout.split("\n")
        if rc == 0 and stderr == "" and len(lines) == 3 and lines[2] == "":
            got = []
            for mode, line in zip(("next ", "skip "), lines):
                m = RUNNER_LINE.match(line[len(mode):])
                if line.startswith(mode) and m:
                    got.append((m.group(1), int(m.group(2))))
            if len(got) == 2:
                return got
    elif kind == "line":
        m = RUNNER_LINE.match(stdout.rstrip("\n"))
        if rc == 0 and stderr == "" and stdout.count("\n") == 1 and m:
            return [(m.group(1), int(m.group(2)))]
    else:
        if rc == 0 and kind == "check":
            m = TOOL_OK.match(stdout)
            if m and stderr == "":
                return [("ok", int(m.group(3)))]
        if rc == 0 and kind == "diag" and stderr == "":
            return [("ok", input_size)]
        if rc == 1:
            m = TOOL_ERROR.match(stderr)
            if m:
                return [(m.group(1), int(m.group(2)))]
    return [(None, f"exit {rc}, stdout {stdout[:200]!r}, stderr {stderr[:200]!r}")]


def offset_matches(want, got):
    if isinstance(want, tuple):
        return want[0] <= got <= want[1]
    return want == got


def offset_text(offset):
    return f"{offset[0]}..{offset[1]}" if isinstance(offset, tuple) else str(offset)


def prove_ceiling(probe):
    """The ceiling must refuse 1 GiB and allow 16 MiB to the same kind of program."""
    rc, out, _, _, _ = run_one([probe, "1024"])
    if rc != 1 or out != "refused\n":
        print(f"FAIL ceiling: malloc(1024 MiB) under the ceiling gave exit {rc}, {out!r}")
        return False
    rc, out, _, _, rss = run_one([probe, "16"])
    if rc != 0 or out != "allocated\n":
        print(f"FAIL ceiling: malloc(16 MiB) under the ceiling gave exit {rc}, {out!r}")
        return False
    print(f"ceiling: malloc(1024 MiB) refused, malloc(16 MiB) allowed (peak {rss / 1024:.1f} MiB)")
    return True


def runs_of(rows, a):
    """Every run of the table: (row index, command, output kind, engine names)."""
    for i, r in enumerate(rows):
        for table_engine, base, kind, names in engines_for(a.runner, a.program):
            if r["engines"] != ["all"] and table_engine not in r["engines"]:
                continue
            options = list(r["options"])
            if kind == "diag" and "--sequence" in options:
                options.remove("--sequence")  # diag always reads a sequence
            yield i, base + options + [os.path.join(a.inputs, r["file"])], kind, names


def run_table(rows, a):
    """[(engine, row, want, got, passed, CPU seconds, KiB, command)] in table order."""
    results = [[] for _ in rows]
    pool = Pool(a.jobs)
    pending = runs_of(rows, a)
    more = True
    while more or pool.running:
        while more and not pool.full():
            run = next(pending, None)
            if run is None:
                more = False
                break
            pool.start(run[1], run, keep_stdout=run[2] != "diag")
        if not pool.running:
            break
        (i, cmd, kind, names), rc, out, err, seconds, rss = pool.reap()
        r = rows[i]
        want = f"{r['status']} {offset_text(r['offset'])}"
        got_all = interpret(kind, rc, out, err, os.path.getsize(cmd[-1]))
        if len(got_all) != len(names):
            got_all = got_all * len(names)  # one failure for every engine of the run
        for name, (status, offset) in zip(names, got_all):
            if status is None:
                got, passed = offset, False
            else:
                got = f"{status} {offset}"
                passed = status == r["status"] and offset_matches(r["offset"], offset)
            # Without an explicit --max-memory every entry point stays within
            # a small multiple of its input: the default budget of documents
            # (32 bytes per input byte + 1 MiB), the input itself and the
            # program's own pages (rss_base_mib).
            size = os.path.getsize(cmd[-1])
            bound_kib = a.rss_base_mib * 1024 + a.rss_per_input_byte * size // 1024
            if passed and "--max-memory" not in r["options"] and rss > bound_kib:
                passed = False
                got += f" but peak RSS {rss / 1024:.1f} MiB > {bound_kib / 1024:.1f} MiB"
            results[i].append((name, r["name"], want, got, passed, seconds, rss, " ".join(cmd)))
    return [x for row_results in results for x in row_results]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--inputs", required=True, help="directory written by table.py --out")
    p.add_argument("--runner", required=True, choices=["reader", "capi", "tool"])
    p.add_argument("--program", required=True)
    p.add_argument("--probe", required=True, help="cbor_fast_hostile_probe")
    p.add_argument("--ceiling-mib", type=int, default=256, help="ulimit -v of every run, in MiB")
    p.add_argument("--timeout", type=int, default=60, help="CPU seconds per run (ulimit -t)")
    p.add_argument("--jobs", type=int, default=2, help="runs at a time")
    p.add_argument("--only", help="regular expression: run the matching rows only")
    p.add_argument("--rss-per-input-byte", type=int, default=40,
                   help="peak RSS bound per input byte of a run without --max-memory")
    p.add_argument("--rss-base-mib", type=int, default=24,
                   help="peak RSS bound's fixed part (the program and the driver's pages)")
    a = p.parse_args()

    if a.ceiling_mib >= 1024:
        print("FAIL ceiling: it must stay below the probe's 1024 MiB")
        return 1
    # `ulimit -v` and `ulimit -t` for this process and every program it starts.
    limit = a.ceiling_mib << 20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    cpu = int(a.timeout)
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, resource.getrlimit(resource.RLIMIT_CPU)[1]))
    print(f"ceiling: ulimit -v {limit >> 10} ({a.ceiling_mib} MiB), ulimit -t {cpu} for every run")
    if not prove_ceiling(a.probe):
        return 1
    rows = read_manifest(os.path.join(a.inputs, "manifest.tsv"))
    if a.only:
        rows = [r for r in rows if re.search(a.only, r["name"])]

    failures = []
    stats = {}  # engine -> [runs, max seconds, its row, peak KiB, its row]
    start = time.monotonic()
    for engine, name, want, got, passed, seconds, rss, cmd in run_table(rows, a):
        print(f"{'PASS' if passed else 'FAIL'} {engine:11} {name:52} "
              f"want {want:32} got {got:32} {seconds:6.3f} s CPU {rss / 1024:6.1f} MiB")
        if not passed:
            failures.append((engine, name, want, got, cmd))
        s = stats.setdefault(engine, [0, 0.0, "", 0, ""])
        s[0] += 1
        if seconds > s[1]:
            s[1], s[2] = seconds, name
        if rss > s[3]:
            s[3], s[4] = rss, name
    elapsed = time.monotonic() - start
    children = resource.getrusage(resource.RUSAGE_CHILDREN)

    print()
    for engine, (runs, slowest, slow_row, peak, peak_row) in stats.items():
        print(f"{engine:11} {runs:4} rows; slowest {slowest:.3f} s CPU ({slow_row}); "
              f"peak RSS {peak / 1024:.1f} MiB ({peak_row})")
    print(f"{len(rows)} rows in {elapsed:.1f} s wall, "
          f"{children.ru_utime + children.ru_stime:.1f} s CPU in the programs run "
          f"({a.jobs} at a time, ceiling {a.ceiling_mib} MiB)")
    if failures:
        print(f"\n{len(failures)} failure(s):")
        for engine, name, want, got, cmd in failures:
            print(f"  {engine} {name}: want {want}, got {got}\n    {cmd}")
        return 1
    print(f"all {sum(s[0] for s in stats.values())} runs passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

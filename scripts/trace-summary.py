#!/usr/bin/env python3
"""Summarise a trace written by an accc program run with PTXRT_TRACE=out.json.

    python3 scripts/trace-summary.py out.json [--phases] [--best-phase]

The trace (Chrome trace-event JSON) has host rows (process "host", one row
per thread: constructs, data entry and exit, transfers, launches, waits, as
nested ranges) and device rows (process "device N", one row per queue: the
default queue and each async queue, with kernels and copies at their device
times). Printed:

* per row: how many spans it has and its busy time, the length of the union
  of its spans (nested host ranges count once), also as a share of the run;
* the run's window: from the first span's start to the last span's end;
* the critical path, approximated from the device side: the union of the
  device activity (time in which at least one queue runs a kernel or a
  copy) plus the host gaps (time in the window in which no queue runs
  anything: the device waits for the host, to issue work, copy
  synchronously, or run host code, and that time is on every chain of
  dependent work). By construction it covers the window; what it tells is
  the split: a run whose host gaps dominate is bound by the host, one whose
  device union dominates by the device. Also printed: the serial device
  time (the sum of every queue's busy time: the device union if the queues
  never overlapped) and a lower bound of the run, the host gaps plus the
  busiest queue's time (what a perfect overlap of the queues would leave);
* the overlap achieved between copies and kernels across queues: the time
  in which a copy runs while a kernel runs (on another queue: one queue
  runs its work in order), as a fraction of all copy time; 100% means every
  copy was hidden under kernel time, as benchmarks/overlap aims for.

With --phases, the same overlap per phase: the run cut at the end of each
host wait (`#pragma acc wait`, acc_wait_all, ...), so that each timed
section of a benchmark that waits at its end (benchmarks/common/bench.h)
is one phase; a line for each phase whose device work used two queues or
more. With --best-phase, only the window of the phase that hid the most copy
time, as "START END" in ms since the first span (for trace-timeline.py
--window).

Only the standard library is used.
"""

import sys

from tracefile import load  # scripts/tracefile.py (the script's folder is on sys.path)


def union(intervals):
    """Sorted disjoint intervals covering the given (start, end) pairs."""
    out = []
    for s, e in sorted(intervals):
        if out and s <= out[-1][1]:
            if e > out[-1][1]:
                out[-1][1] = e
        else:
            out.append([s, e])
    return out


def length(intervals):
    return sum(e - s for s, e in intervals)


def intersect(a, b):
    """The intersection of two sorted disjoint interval lists."""
    out, i, j = [], 0, 0
    while i < len(a) and j < len(b):
        s = max(a[i][0], b[j][0])
        e = min(a[i][1], b[j][1])
        if s < e:
            out.append([s, e])
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return out




def fmt_ms(us):
    return "%.3f ms" % (us / 1000.0)


def summarise(path, out=sys.stdout):
    procs, threads, spans = load(path)
    if not spans:
        print("%s: no spans" % path, file=out)
        return 1
    start = min(e["ts"] for e in spans)
    end = max(e["ts"] + e["dur"] for e in spans)
    window = max(end - start, 1e-9)
    rows = {}
    for e in spans:
        rows.setdefault((e["pid"], e["tid"]), []).append(e)

    def row_name(key):
        pid, tid = key
        p = procs.get(pid, "process %d" % pid)
        t = threads.get(key, "row %d" % tid)
        return "%s / %s" % (p, t)

    print("trace %s: %d spans, window %s" % (path, len(spans), fmt_ms(window)), file=out)
    print("%-56s %7s %14s %7s" % ("row", "spans", "busy", "share"), file=out)
    device_spans = []
    busiest = 0.0
    serial = 0.0
    for key in sorted(rows):
        busy = length(union((e["ts"], e["ts"] + e["dur"]) for e in rows[key]))
        print(
            "%-56s %7d %14s %6.1f%%" % (row_name(key)[:56], len(rows[key]), fmt_ms(busy), 100.0 * busy / window),
            file=out,
        )
        if key[0] != 0:  # a device queue
            device_spans.extend(rows[key])
            busiest = max(busiest, busy)
            serial += busy

    dev = union((e["ts"], e["ts"] + e["dur"]) for e in device_spans)
    dev_busy = length(dev)
    gaps = window - dev_busy
    print("", file=out)
    print(
        "critical path (approx.): %s = device union %s + host gaps %s (%.1f%% host-bound)"
        % (fmt_ms(dev_busy + gaps), fmt_ms(dev_busy), fmt_ms(gaps), 100.0 * gaps / window),
        file=out,
    )
    print(
        "serial device time %s; lower bound (host gaps + busiest queue) %s"
        % (fmt_ms(serial), fmt_ms(gaps + busiest)),
        file=out,
    )

    copy_time, hidden, kern = overlap_of(device_spans)
    if copy_time > 0:
        print(
            "overlap: %s of %s copy time under kernels (%.1f%%); kernels %s"
            % (fmt_ms(hidden), fmt_ms(copy_time), 100.0 * hidden / copy_time, fmt_ms(kern)),
            file=out,
        )
    else:
        print("overlap: no device copies in the trace", file=out)
    return 0


def overlap_of(device_spans):
    """(copy time, hidden copy time, kernel time) of device spans."""
    kernels = union((e["ts"], e["ts"] + e["dur"]) for e in device_spans if e.get("cat") == "kernel")
    copies = union(
        (e["ts"], e["ts"] + e["dur"]) for e in device_spans if e.get("cat") in ("upload", "download")
    )
    return length(copies), length(intersect(copies, kernels)), length(kernels)


def phases(spans):
    """The phases of the run: (start, end, device spans starting in it),
    cut at the end of each host wait range."""
    cuts = sorted(e["ts"] + e["dur"] for e in spans if e["pid"] == 0 and e.get("cat") == "wait")
    start = min(e["ts"] for e in spans)
    end = max(e["ts"] + e["dur"] for e in spans)
    bounds = [start] + [c for c in cuts if start < c < end] + [end]
    device = sorted((e for e in spans if e["pid"] != 0), key=lambda e: e["ts"])
    out, i = [], 0
    for a, b in zip(bounds, bounds[1:]):
        mine = []
        while i < len(device) and device[i]["ts"] < b:
            mine.append(device[i])
            i += 1
        if mine:
            out.append((a, b, mine))
    return out


def print_phases(path, best_only, out=sys.stdout):
    _, _, spans = load(path)
    if not spans:
        return 1
    t0 = min(e["ts"] for e in spans)
    best = None
    lines = []
    for a, b, mine in phases(spans):
        queues = {(e["pid"], e["tid"]) for e in mine}
        if len(queues) < 2:
            continue
        copy, hidden, kern = overlap_of(mine)
        if best is None or hidden > best[0]:
            best = (hidden, a, b)
        lines.append(
            "phase %10.3f..%10.3f ms: %d queues, kernels %s, copies %s, hidden %s (%.1f%%)"
            % ((a - t0) / 1e3, (b - t0) / 1e3, len(queues), fmt_ms(kern), fmt_ms(copy), fmt_ms(hidden),
               100.0 * hidden / copy if copy else 0.0)
        )
    if best_only:
        if best is None:
            return 1
        print("%.3f %.3f" % ((best[1] - t0) / 1e3, (best[2] - t0) / 1e3), file=out)
        return 0
    print("", file=out)
    print("phases with work on two queues or more: %d" % len(lines), file=out)
    for l in lines[:60]:
        print(l, file=out)
    if len(lines) > 60:
        print("... %d more" % (len(lines) - 60), file=out)
    return 0


def main(argv):
    args = argv[1:]
    flags = {a for a in args if a.startswith("--")}
    files = [a for a in args if not a.startswith("--")]
    if len(files) != 1 or "-h" in args or "--help" in flags or flags - {"--phases", "--best-phase"}:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    if "--best-phase" in flags:
        return print_phases(files[0], True)
    rc = summarise(files[0])
    if rc == 0 and "--phases" in flags:
        rc = print_phases(files[0], False)
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv))

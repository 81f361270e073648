#!/usr/bin/env python3
"""Draw a trace written with PTXRT_TRACE=out.json as a PNG timeline.

    python3 scripts/trace-timeline.py out.json [timeline.png] [--window START END]

One row per host thread and per device queue (host threads first, then each
device's default queue and async queues), time in milliseconds from the
first span, bars coloured by kind: kernels, uploads, downloads on the device
rows; compute constructs, data entry and exit, updates, launches, transfers
and waits on the host rows, where nested ranges are drawn as thinner bars
inside the range that holds them. Needs matplotlib (as benchmarks/report.py:
without it, one line says so and the exit status is 3). The default output
is the trace's name with -timeline.png. --window draws only the spans that
overlap [START, END] (ms since the first span), e.g. the phase that
`trace-summary.py --best-phase` prints.
"""

import os
import sys

from tracefile import load  # scripts/tracefile.py (the script's folder is on sys.path)

COLOURS = {
    "kernel": "#2ca02c",
    "upload": "#1f77b4",
    "download": "#ff7f0e",
    "compute": "#98df8a",
    "data": "#c5b0d5",
    "update": "#9467bd",
    "launch": "#17becf",
    "wait": "#d62728",
    "other": "#7f7f7f",
}




def depths(spans):
    """The nesting depth of each span of one row (spans sorted by start)."""
    out, stack = [], []
    for e in spans:
        start, end = e["ts"], e["ts"] + e["dur"]
        while stack and stack[-1] <= start:
            stack.pop()
        out.append(len(stack))
        stack.append(end)
    return out


def draw(path, png, window=None):
    procs, threads, spans = load(path)
    if spans and window:
        first = min(e["ts"] for e in spans)
        lo, hi = first + window[0] * 1000.0, first + window[1] * 1000.0
        spans = [e for e in spans if e["ts"] <= hi and e["ts"] + e["dur"] >= lo]
    if not spans:
        print("trace-timeline.py: %s has no spans" % path, file=sys.stderr)
        return 1
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.patches import Patch
    except ImportError as e:
        print("trace-timeline.py: no matplotlib (%s): no picture" % e, file=sys.stderr)
        return 3
    t0 = min(e["ts"] for e in spans)
    rows = {}
    for e in spans:
        rows.setdefault((e["pid"], e["tid"]), []).append(e)
    keys = sorted(rows)
    fig, ax = plt.subplots(figsize=(14, 1.2 + 0.6 * len(keys)))
    used = set()
    labels = []
    for y, key in enumerate(keys):
        row = sorted(rows[key], key=lambda e: (e["ts"], -e["dur"]))
        ds = depths(row) if key[0] == 0 else [0] * len(row)
        for e, d in zip(row, ds):
            cat = e.get("cat", "other")
            cat = cat if cat in COLOURS else "other"
            used.add(cat)
            h = 0.8 * (0.75 ** d)
            ax.broken_barh(
                [((e["ts"] - t0) / 1000.0, max(e["dur"], 0.0) / 1000.0)],
                (y - h / 2, h),
                facecolors=COLOURS[cat],
                edgecolor="black" if d == 0 else "none",
                linewidth=0.3,
            )
        pid, tid = key
        labels.append(
            "%s\n%s" % (procs.get(pid, "process %d" % pid), threads.get(key, "row %d" % tid))
        )
    ax.set_yticks(range(len(keys)))
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("time since the first span (ms)")
    ax.set_title("accc trace: %s" % os.path.basename(path))
    ax.grid(axis="x", linewidth=0.3)
    ax.legend(
        handles=[Patch(color=COLOURS[c], label=c) for c in COLOURS if c in used],
        loc="upper left",
        bbox_to_anchor=(1.0, 1.0),
        fontsize=8,
    )
    fig.tight_layout()
    fig.savefig(png, dpi=100)
    print("trace-timeline.py: wrote %s" % png)
    return 0


def main(argv):
    args = argv[1:]
    window = None
    if "--window" in args:
        i = args.index("--window")
        try:
            window = (float(args[i + 1]), float(args[i + 2]))
        except (IndexError, ValueError):
            print(__doc__.strip(), file=sys.stderr)
            return 2
        del args[i : i + 3]
    if len(args) not in (1, 2) or args[0] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    path = args[0]
    png = args[1] if len(args) == 2 else os.path.splitext(path)[0] + "-timeline.png"
    return draw(path, png, window)


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""Draws the NPB figure of a stop: for each benchmark and class, the times of
accc, hand-written CUDA (NPB-GPU) and GCC 12's OpenACC as horizontal bars on a
log scale, rows sorted by accc/CUDA (the slowest relative to CUDA at the
bottom), each row labelled with accc/CUDA (1.0 = as fast as CUDA).

    python3 benchmarks/npb_figure.py results/<stop>-npb.md [figure.png]
    python3 benchmarks/npb_figure.py --rows results/<stop>-npb.md

--rows prints the rows in the figure's order instead (benchmark class,
accc/CUDA, then the accc, CUDA and GCC times, `-` where there is none).

Reads the stop's NPB table (benchmarks/results/*-npb.md): the first markdown
table whose header has `bench`, `class`, a column starting `accc now`, one
starting `CUDA` and, optionally, one starting `GCC`. Cells that are not numbers
("does not verify", "crashes", "-") draw no bar. Needs matplotlib (without it,
one line says so and the exit status is 3). The default output is the table's
name with .png.
"""

import os
import sys


def read_table(path):
    """The rows of the first NPB table in `path`, as dicts by header."""
    header, rows = None, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line.startswith("|"):
                if header and rows:
                    break
                continue
            cells = [c.strip() for c in line.strip("|").split("|")]
            if header is None:
                if cells[:2] == ["bench", "class"]:
                    header = cells
                continue
            if set(line) <= set("|-: "):
                continue
            rows.append(dict(zip(header, cells)))
    if header is None:
        raise ValueError(f"{path}: no table with 'bench | class' columns")
    return header, rows


def column(header, prefix):
    return next((h for h in header if h.startswith(prefix)), None)


def number(cell):
    try:
        return float(cell)
    except (TypeError, ValueError):
        return None


def main(argv):
    args = argv[1:]
    rows_only = "--rows" in args
    args = [a for a in args if a != "--rows"]
    if not args:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    src = args[0]
    out = args[1] if len(args) > 1 else os.path.splitext(src)[0] + ".png"
    header, rows = read_table(src)
    cols = {
        "accc": column(header, "accc now"),
        "CUDA": column(header, "CUDA"),
        "GCC 12": column(header, "GCC"),
    }
    if not cols["accc"] or not cols["CUDA"]:
        print(f"{src}: the table needs 'accc now' and 'CUDA' columns", file=sys.stderr)
        return 2
    data = []
    for r in rows:
        t = {k: number(r.get(c)) if c else None for k, c in cols.items()}
        if t["accc"] and t["CUDA"]:
            data.append((f"{r['bench']} {r['class']}", t, t["CUDA"] / t["accc"]))
    data.sort(key=lambda d: d[2])
    if rows_only:
        for label, t, ratio in reversed(data):
            times = " ".join("-" if t[k] is None else f"{t[k]:g}" for k in cols)
            print(f"{label} {ratio:.2f} {times}")
        return 0
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("npb_figure.py: no matplotlib here: no figure", file=sys.stderr)
        return 3
    colours = {"accc": "#1f77b4", "CUDA": "#2ca02c", "GCC 12": "#ff7f0e"}
    height = 0.8 / len(colours)
    fig, ax = plt.subplots(figsize=(9, 0.45 * len(data) + 1.5))
    for i, (label, t, _) in enumerate(data):
        for j, (name, colour) in enumerate(colours.items()):
            if t[name]:
                ax.barh(i + (j - 1) * height, t[name], height, color=colour, label=name)
    ax.set_xscale("log")
    ax.set_yticks(range(len(data)))
    ax.set_yticklabels([f"{label}  ({ratio:.2f})" for label, _, ratio in data])
    ax.set_xlabel("time (s), log scale; in brackets: accc/CUDA (1.0 = as fast as CUDA)")
    ax.set_title(f"NPB-ACC: accc, hand CUDA (NPB-GPU), GCC 12 — {os.path.basename(src)}")
    handles, labels = ax.get_legend_handles_labels()
    seen = {}
    for h, lab in zip(handles, labels):
        seen.setdefault(lab, h)
    ax.legend(seen.values(), seen.keys(), loc="lower right")
    ax.grid(axis="x", which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print(f"npb_figure.py: wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

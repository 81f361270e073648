#!/usr/bin/env python3
"""Turns results.tsv (written by the bench run script) into results.md (the
table) and results.png (bar chart of the ratios).

Ratios are speed ratios: accc/CUDA = t_CUDA / t_accc (1.0 = as fast as the
hand-written CUDA reference, above 1 = faster), accc/GCC = t_GCC / t_accc,
LLVM/nvcc = t_nvcc / t_accc (accc's two code generators on the same program:
the LLVM NVPTX default and `--backend=cuda`; above 1 = the LLVM path faster).
"% of copy" is accc's achieved GB/s over the device-to-device copy bandwidth
measured in the same run. Only PASSing measurements give ratios.

usage: report.py results.tsv results.md results.png
"""
import csv
import sys

VARIANTS = ["accc", "nvcc", "cuda", "gcc", "serial"]


def fmt_time(s):
    s = float(s)
    if s >= 1:
        return f"{s:.3f} s"
    if s >= 1e-3:
        return f"{s * 1e3:.3f} ms"
    return f"{s * 1e6:.1f} µs"


def main(tsv, md, png):
    rows = list(csv.DictReader(open(tsv), delimiter="\t"))
    ceiling = None
    # One row per (benchmark, size): a program run at several sizes (its
    # `runs` lines) gives a row per size.
    order = []  # (program label, benchmark, size)
    results = {}  # (benchmark, size, variant) -> row
    failures = {}  # (program label, variant) -> status
    for r in rows:
        if r["benchmark"] == "devcopy":
            if r["status"] == "PASS":
                ceiling = float(r["rate"])
            continue
        if r["benchmark"] != "-":
            key = (r["program"], r["benchmark"], r["size"])
            if not any(b == key[1] and z == key[2] for _, b, z in order):
                order.append(key)
            results[(r["benchmark"], r["size"], r["variant"])] = r
        else:
            failures[(r["program"], r["variant"])] = r["status"]
    # Programs that produced no result in any variant still get a row.
    for prog, _ in list(failures):
        if not any(p == prog for p, _, _ in order):
            order.append((prog, prog, "-"))

    def cell(prog, bench, size, v):
        r = results.get((bench, size, v))
        if r is None:
            return failures.get((prog, v), "no result"), None
        if r["status"] != "PASS":
            return r["status"], None
        return fmt_time(r["seconds"]), float(r["seconds"])

    sizes = {}
    for _, bench, size in order:
        sizes.setdefault(bench, []).append(size)
    lines = []
    head = ["benchmark", "size", "accc", "accc nvcc", "CUDA", "GCC", "serial", "accc/CUDA", "accc/GCC", "LLVM/nvcc", "accc rate", "% of copy"]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "---|" * len(head))
    chart = []
    for prog, bench, size in order:
        cells = {v: cell(prog, bench, size, v) for v in VARIANTS}
        ta, tc, tg, tn = cells["accc"][1], cells["cuda"][1], cells["gcc"][1], cells["nvcc"][1]
        r_c = f"{tc / ta:.2f}" if ta and tc else "-"
        r_g = f"{tg / ta:.2f}" if ta and tg else "-"
        r_n = f"{tn / ta:.2f}" if ta and tn else "-"
        rate, pct = "-", "-"
        acc = results.get((bench, size, "accc"))
        if acc is not None and acc["status"] == "PASS":
            rate = f"{float(acc['rate']):.1f} {acc['unit']}"
            if acc["unit"] == "GB/s" and ceiling:
                pct = f"{100 * float(acc['rate']) / ceiling:.0f}%"
        lines.append(
            "| "
            + " | ".join([bench, size] + [cells[v][0] for v in VARIANTS] + [r_c, r_g, r_n, rate, pct])
            + " |"
        )
        label = bench if len(sizes[bench]) == 1 else f"{bench} ({size})"
        chart.append((label, tc / ta if ta and tc else None, tg / ta if ta and tg else None))
    copy = f"{ceiling:.0f} GB/s" if ceiling else "not measured"
    text = (
        "# Benchmark results\n\n"
        f"Device-to-device copy (bytes read + written), same run: {copy}.\n\n"
        "Times are medians of the timed repetitions. accc/CUDA = t_CUDA / t_accc and "
        "accc/GCC = t_GCC / t_accc (1.00 = equal speed, higher = accc faster); "
        "accc nvcc is the same program built with `--backend=cuda`, LLVM/nvcc = t_nvcc / t_accc.\n\n"
        + "\n".join(lines)
        + "\n"
    )
    open(md, "w").write(text)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        # Only rows with a reference to compare with, slowest first.
        bars = sorted((c for c in chart if c[1] or c[2]), key=lambda c: (c[1] or c[2]))
        names = [c[0] for c in bars]
        ys = range(len(names))
        fig, ax = plt.subplots(figsize=(9, 1.5 + 0.32 * len(names)))
        h = 0.4
        ax.barh([y - h / 2 for y in ys], [c[1] or 0 for c in bars], h, label="accc/CUDA")
        ax.barh([y + h / 2 for y in ys], [c[2] or 0 for c in bars], h, label="accc/GCC")
        ax.axvline(1.0, color="black", linewidth=0.8)
        ax.set_xscale("log")
        ax.set_yticks(list(ys))
        ax.set_yticklabels(names)
        ax.invert_yaxis()
        ax.set_xlabel("speed ratio, log scale (right of 1 = accc faster); no bar: not measured")
        ax.set_title("accc vs hand-written CUDA and GCC OpenACC (sorted by accc/CUDA)")
        ax.legend(loc="best", framealpha=0.9)
        fig.tight_layout()
        fig.savefig(png, dpi=100)
    except Exception as e:  # the table is what matters; say why there is no chart
        print(f"report.py: no chart: {e}", file=sys.stderr)


if __name__ == "__main__":
    main(*sys.argv[1:4])

#!/usr/bin/env python3
"""The kernel time of every compute construct through both code generators,
side by side: the LLVM NVPTX path (`accc`) and the nvcc path
(`accc --backend=cuda`), from the runtime's profile (`PTXRT_TIME=1`) of one
run of each build (`run.sh --kernels` writes the profiles).

LLVM/nvcc = t_nvcc / t_LLVM per construct, a speed ratio like report.py's
(1.00 = equal, above 1 = the LLVM path faster). Rows where the paths differ
by more than 10% are marked; benchmarks/README.md says why they differ.

usage: kernels.py PROFDIR kernels.md
  PROFDIR holds <bench>.<run>.<accc|nvcc>.prof (the profile on stderr) and
  <bench>.<run>.<accc|nvcc>.out (the program's RESULT lines).
"""
import os
import re
import sys


def kernel_rows(text):
    """{region label: (launches, kernel ms)} from a PTXRT_TIME table.

    Columns after the first are right-aligned under their headers, so each
    value ends where its header ends."""
    lines = text.splitlines()
    head = next((i for i, l in enumerate(lines) if l.startswith("region ")), None)
    if head is None:
        return {}
    h = lines[head]
    end_launch = h.index("launches") + len("launches")
    end_ms = h.index("kernel ms") + len("kernel ms")
    rows = {}
    for line in lines[head + 1:]:
        if line.startswith("total") or line.startswith("(") or not line.strip():
            continue
        if len(line) < end_launch or line[end_launch - 1] == " ":
            continue  # no kernel launches in this region
        left = line[:end_launch].rsplit(None, 1)
        if len(left) != 2 or not left[1].isdigit():
            continue
        ms = line[end_launch:end_ms].strip().rstrip("*")
        try:
            rows[left[0].strip()] = (int(left[1]), float(ms))
        except ValueError:
            rows[left[0].strip()] = (int(left[1]), None)
    return rows


def result_status(path):
    """PASS when every RESULT line of the run says PASS."""
    try:
        res = [l.split() for l in open(path) if l.startswith("RESULT ")]
    except OSError:
        return "no output"
    if not res:
        return "no result"
    return "PASS" if all(r[-1] == "PASS" for r in res) else "FAIL"


def main(prof, md):
    runs = {}
    for f in sorted(os.listdir(prof)):
        m = re.fullmatch(r"(.+)\.(\d+)\.(accc|nvcc)\.prof", f)
        if m:
            runs.setdefault((m.group(1), int(m.group(2))), set()).add(m.group(3))
    lines = [
        "| benchmark | construct | launches | LLVM ms | nvcc ms | LLVM/nvcc | |",
        "|---|---|---|---|---|---|---|",
    ]
    differ = 0
    for (bench, n), variants in sorted(runs.items()):
        tag = bench if n == 1 else f"{bench} (run {n})"
        table = {}
        status = {}
        for v in ("accc", "nvcc"):
            base = os.path.join(prof, f"{bench}.{n}.{v}")
            status[v] = result_status(base + ".out") if v in variants else "not built"
            text = open(base + ".prof").read() if v in variants else ""
            table[v] = kernel_rows(text)
        if any(s != "PASS" for s in status.values()):
            lines.append(f"| {tag} | (accc: {status['accc']}, nvcc: {status['nvcc']}) | | | | | |")
        for region in sorted(set(table["accc"]) | set(table["nvcc"])):
            a = table["accc"].get(region)
            c = table["nvcc"].get(region)
            ta = a[1] if a else None
            tc = c[1] if c else None
            ratio, mark = "-", ""
            if ta and tc:
                r = tc / ta
                ratio = f"{r:.2f}"
                if abs(r - 1) > 0.10:
                    mark = "nvcc faster" if r < 1 else "LLVM faster"
                    differ += 1
            launches = a[0] if a else (c[0] if c else "-")
            fmt = lambda t: "-" if t is None else f"{t:.3f}"
            lines.append(
                f"| {tag} | {region} | {launches} | {fmt(ta)} | {fmt(tc)} | {ratio} | {mark} |"
            )
    text = (
        "# Kernel time per construct: LLVM NVPTX path vs nvcc path\n\n"
        "From `PTXRT_TIME=1` (one run of each build, BENCH_REPS=3, the same GPU). "
        "LLVM/nvcc = t_nvcc / t_LLVM (above 1: the LLVM path is faster). "
        f"{differ} constructs differ by more than 10%.\n\n" + "\n".join(lines) + "\n"
    )
    open(md, "w").write(text)


if __name__ == "__main__":
    main(*sys.argv[1:3])

#!/usr/bin/env python3
"""The race hunt's runner (copied into the folder scripts/difftest-hunt.sh builds,
as hunt.py; run it with `bash run.sh`). Python 3 standard library only.

Unpacks programs.tar.xz, runs every program `--repeat` times on the GPU
(ACC_DEVICE_TYPE=nvidia: no host fallback), `--jobs` runs at a time, in an order
that spreads a program's runs apart, and compares each run's exit status and
output with the plain-cc build's (tolerance as the program's header says). With
`--sanitize K` and compute-sanitizer installed, the first K programs also run once
under each of `--tools` (racecheck, synccheck by default; memcheck too if asked).
racecheck reports hazards that are not there when the rows of a block run
different numbers of named barriers (scripts/racecheck-named-barriers.cu shows
it): check its reports with the emulated device's race detector before taking
them for bugs.

Prints one line per program that disagreed in any run (with the runs that did and
their first difference), the details under `--logs`, and the summary line
  hunt: X programs × N runs on the GPU, Y disagreed (seeds …)
Exit status 0 when nothing disagreed and no sanitizer reported an error.
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from compare import difference  # noqa: E402

SANITIZER_PATHS = [
    "/usr/local/cuda/bin/compute-sanitizer",
    "/usr/local/cuda/compute-sanitizer/compute-sanitizer",
]


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[1])
    p.add_argument("--repeat", type=int, default=3, help="runs of each program (3)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 4,
                   help="runs at a time (the cores)")
    p.add_argument("--sanitize", type=int, default=0, metavar="K",
                   help="also run the first K programs under compute-sanitizer")
    p.add_argument("--tools", default="racecheck,synccheck",
                   help="compute-sanitizer tools (racecheck,synccheck)")
    p.add_argument("--only", default="",
                   help="comma-separated program names or seeds to run")
    p.add_argument("--shard", default="1/1", metavar="I/M",
                   help="run only the I-th of M equal parts (for several sessions)")
    p.add_argument("--timeout", type=int, default=120, help="seconds per run (120)")
    p.add_argument("--time-budget", type=float, default=0, metavar="S",
                   help="start no run after S seconds (0: no limit); the summary says "
                   "how many runs were done")
    p.add_argument("--logs", default=os.path.join(HERE, "logs"),
                   help="where the details of disagreements go (logs/)")
    p.add_argument("--host", action="store_true",
                   help="run through the host fallback (checks the folder and this "
                   "runner on a machine without a GPU)")
    return p.parse_args()


def unpack(dest):
    with tarfile.open(os.path.join(HERE, "programs.tar.xz")) as t:
        try:
            t.extractall(dest, filter="data")
        except TypeError:  # Python before 3.12
            t.extractall(dest)
    with open(os.path.join(dest, "programs.txt")) as f:
        return [line.strip() for line in f if line.strip()]


def select(names, only, shard):
    if only:
        wanted = set(only.split(","))
        names = [n for n in names if n in wanted or n.split("_")[1] in wanted]
    i, m = (int(x) for x in shard.split("/"))
    if not 1 <= i <= m:
        sys.exit(f"hunt: --shard {shard}: I must be in 1..M")
    return [n for k, n in enumerate(names) if k % m == i - 1]


def read(path, default=""):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return default


class Program:
    def __init__(self, root, name):
        self.name = name
        exp = os.path.join(root, "exp", name)
        self.bin = os.path.join(root, "bin", name)
        self.src = os.path.join(root, "src", name + ".c")
        self.want = read(exp + ".out")
        self.want_rc = int(read(exp + ".rc", "0").strip() or 0)
        self.tol = read(exp + ".tol", "0").strip() or "0"
        self.compile_error = read(exp + ".compile-error", None)
        self.failures = []  # (run, why)
        self.runs = 0


def environment(host):
    env = dict(os.environ)
    env.pop("ACC_DEVICE_NUM", None)
    env.pop("PTXRT_DEBUG", None)
    env["ACC_DEVICE_TYPE"] = "host" if host else "nvidia"
    env["PTXRT_NOTIFY"] = "1"
    env["PTXRT_PLUGIN"] = os.path.join(HERE, "lib", "libptxrt-cuda.so")
    lib = os.path.join(HERE, "lib")
    env["LD_LIBRARY_PATH"] = lib + (":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
    return env


def judge(prog, rc, out, err, host):
    """Why a run disagrees with the plain-cc build, or None."""
    launches = sum(1 for line in err.splitlines() if line.startswith("ptxrt: launch"))
    tail = " | ".join(line for line in err.splitlines() if not line.startswith("ptxrt: "))[-400:]
    if rc != prog.want_rc:
        return f"exit status {rc} (expected {prog.want_rc}): {tail}"
    if launches == 0 and not host:
        return "no kernel launches (did it run on the host?)"
    return difference(prog.want, out, prog.tol)


def run_once(prog, run, env, args):
    timeout, logs = args.timeout, args.logs
    cmd = [prog.bin]
    try:
        r = subprocess.run(cmd, env=env, capture_output=True, timeout=timeout)
        rc, out, err = r.returncode, r.stdout.decode(errors="replace"), r.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired as e:
        rc = "timeout"
        out = (e.stdout or b"").decode(errors="replace")
        err = (e.stderr or b"").decode(errors="replace") + f"\n(killed after {timeout} s)"
    why = judge(prog, rc, out, err, args.host) if rc != "timeout" else f"timed out after {timeout} s"
    if why is not None:
        base = os.path.join(logs, f"{prog.name}.run{run}")
        with open(base + ".out", "w") as f:
            f.write(out)
        with open(base + ".err", "w") as f:
            f.write(err)
    return why, out, err


def find_sanitizer():
    for p in SANITIZER_PATHS:
        if os.access(p, os.X_OK):
            return p
    return shutil.which("compute-sanitizer")


def sanitizer_report(tool, rc, out, err):
    """Why a sanitizer run failed, or None. The tools print `ERROR SUMMARY: n
    errors` (memcheck, synccheck) or `RACECHECK SUMMARY: n hazards displayed (e
    errors, w warnings)`; --error-exitcode makes any error exit 99."""
    text = out + err
    counts = [int(m) for line in text.splitlines() if "SUMMARY" in line
              for m in re.findall(r"(\d+) errors?", line)]
    if rc == 99 or any(c > 0 for c in counts):
        detail = [line for line in text.splitlines() if line.startswith("========")][:12]
        return f"{tool}: " + " | ".join(detail)
    return None


def main():
    args = parse_args()
    os.makedirs(args.logs, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="hunt.")
    try:
        names = select(unpack(tmp), args.only, args.shard)
        # $ORIGIN/../lib of the binaries.
        os.symlink(os.path.join(HERE, "lib"), os.path.join(tmp, "lib"))
        progs = [Program(tmp, n) for n in names]
        return hunt(args, progs)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def hunt(args, progs):
    env = environment(args.host)
    if not args.host:
        subprocess.run(["nvidia-smi", "-L"], check=False)
    runnable = [p for p in progs if p.compile_error is None]
    # Run k of every program before run k + 1 of any: a program's runs meet
    # different neighbours on the GPU.
    tasks = [(p, k) for k in range(1, args.repeat + 1) for p in runnable]
    start = time.time()
    lock = threading.Lock()
    done = [0]
    skipped = [0]

    def task(item):
        prog, k = item
        if args.time_budget and time.time() - start > args.time_budget:
            with lock:
                skipped[0] += 1
            return
        why, _, _ = run_once(prog, k, env, args)
        with lock:
            prog.runs += 1
            done[0] += 1
            if why is not None:
                prog.failures.append((k, why))
                print(f"DISAGREE {prog.name} run {k}: {why}", flush=True)
            if done[0] % 500 == 0:
                print(f"hunt: {done[0]} of {len(tasks)} runs done ({time.time() - start:.0f} s)",
                      flush=True)

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        list(pool.map(task, tasks))
    elapsed = time.time() - start

    sanitized, sanitizer_failures = sanitize(args, runnable, env)

    print()
    not_compiled = [p for p in progs if p.compile_error is not None]
    for p in not_compiled:
        first = next((line for line in p.compile_error.splitlines() if "error" in line),
                     p.compile_error.strip().split("\n")[0])
        print(f"NOT COMPILED {p.name}: {first}")
    bad = [p for p in runnable if p.failures]
    for p in bad:
        runs = sorted(k for k, _ in p.failures)
        kind = "every run" if len(runs) == p.runs else f"runs {runs} of {p.runs} (intermittent)"
        print(f"--- {p.name}: disagreed in {kind}")
        for k, why in sorted(p.failures)[:3]:
            print(f"    run {k}: {why}")
        kept = os.path.join(args.logs, p.name + ".c")
        shutil.copy(p.src, kept)
        print(f"    source: {kept}; outputs: {args.logs}/{p.name}.run*.out/.err")
    for name, why in sanitizer_failures:
        print(f"--- {name}: {why}")

    ran = [p for p in runnable if p.runs > 0]
    runs_done = sum(p.runs for p in runnable)
    seeds = ", ".join(p.name.replace("difftest_", "") for p in bad)
    print()
    if not_compiled:
        print(f"hunt: {len(not_compiled)} programs did not compile")
    if skipped[0]:
        print(f"hunt: time budget reached: {skipped[0]} runs not started")
    if sanitized:
        names = ", ".join(sorted({n.replace("difftest_", "") for n, _ in sanitizer_failures}))
        print(f"sanitize: {sanitized} programs × {args.tools}, "
              f"{len({n for n, _ in sanitizer_failures})} reported errors"
              + (f" (seeds {names})" if names else ""))
        if any(why.startswith("racecheck") for _, why in sanitizer_failures):
            print("sanitize: racecheck reports false hazards where rows run different numbers of "
                  "named barriers (scripts/racecheck-named-barriers.cu); check them with -gpu=emu")
    intermittent = sum(1 for p in bad if len(p.failures) < p.runs)
    where = "through the host fallback" if args.host else "on the GPU"
    print(f"hunt: {len(ran)} programs × {args.repeat} runs {where} ({runs_done} runs, "
          f"{elapsed:.0f} s), {len(bad)} disagreed ({intermittent} intermittently)"
          + (f" (seeds {seeds})" if seeds else ""))
    return 1 if bad or sanitizer_failures or not_compiled else 0


def sanitize(args, runnable, env):
    """Runs the first --sanitize programs under each tool; returns how many and
    the failures as (name, why)."""
    if args.sanitize <= 0:
        return 0, []
    tool_path = find_sanitizer()
    if tool_path is None:
        print("sanitize: compute-sanitizer not found: NOT RUN")
        return 0, []
    chosen = runnable[: args.sanitize]
    tools = [t for t in args.tools.split(",") if t]
    failures = []
    lock = threading.Lock()

    def task(item):
        prog, tool = item
        prefix = [tool_path, "--tool", tool, "--error-exitcode", "99", "--print-limit", "20"]
        if tool == "racecheck":
            prefix += ["--racecheck-report", "all"]
        try:
            r = subprocess.run(prefix + [prog.bin], env=env, capture_output=True,
                               timeout=args.timeout * 10)
            rc, out, err = r.returncode, r.stdout.decode(errors="replace"), r.stderr.decode(errors="replace")
        except subprocess.TimeoutExpired:
            rc, out, err = "timeout", "", ""
        if rc == "timeout":
            why = f"{tool}: timed out"
        else:
            why = sanitizer_report(tool, rc, out, err)
            if why is None and rc != prog.want_rc:
                why = f"{tool}: exit status {rc} (expected {prog.want_rc})"
        if why is not None:
            with open(os.path.join(args.logs, f"{prog.name}.{tool}.txt"), "w") as f:
                f.write(out + err)
            with lock:
                failures.append((prog.name, why))
                print(f"SANITIZER {prog.name}: {why}", flush=True)

    items = [(p, t) for p in chosen for t in tools]
    # The tools are slow and hold much device memory: half the jobs.
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs // 2)) as pool:
        list(pool.map(task, items))
    return len(chosen), failures


if __name__ == "__main__":
    sys.exit(main())

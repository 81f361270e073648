#!/usr/bin/env bash
# npb-run.sh — runs the NPB-ACC binaries that scripts/npb.sh built and prints one
# table. scripts/npb.sh copies this file into its output folder as run.sh, so the
# folder runs anywhere (a GPU machine with no Rust and no network):
#
#   bash OUTDIR/run.sh [--timeout SECONDS] [--bench "BT CG …"] [--classes "S W …"]
#
# OUTDIR holds builds.tsv (one line per benchmark × class: what was built, the
# build times, the build log), bin/ (the binaries and the runtime's CUDA plugin,
# libptxrt-cuda.so, found next to them) or bin.tar.xz (the same, packed: unpacked
# on the first run), and logs/. Every binary runs with `ulimit -s unlimited` and
# PTXRT_DEBUG=1 (its stderr says where constructs ran: the "device" column).
# Set ACC_DEVICE_TYPE=nvidia to make a run without a usable GPU fail instead of
# falling back to the host; PTXRT_TIME=1 prints each run's profile after the table.
#
# Each row is honest: a build that failed, a crash (signal), a timeout, a non-zero
# exit or a missing verification line is a row saying so. Writes the table to
# OUTDIR/table.txt too. Exit status 0 only when every row is SUCCESSFUL.
# Needs bash, coreutils (timeout), awk, grep, sed; tar and xz for bin.tar.xz.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
timeout_s=900
only_bench=""
only_class=""
while [ $# -gt 0 ]; do
    case "$1" in
        --timeout) timeout_s="$2"; shift 2 ;;
        --bench) only_bench="$2"; shift 2 ;;
        --classes) only_class="$2"; shift 2 ;;
        -h|--help) sed -n '2,19p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "run.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done

[ -f "$here/builds.tsv" ] || { echo "run.sh: no builds.tsv in $here (made by scripts/npb.sh)" >&2; exit 2; }
if [ ! -d "$here/bin" ] && [ -f "$here/bin.tar.xz" ]; then
    echo "run.sh: unpacking bin.tar.xz" >&2
    tar -C "$here" -xJf "$here/bin.tar.xz" || { echo "run.sh: cannot unpack bin.tar.xz" >&2; exit 2; }
fi
mkdir -p "$here/logs"
if ! ulimit -s unlimited 2>/dev/null; then
    echo "run.sh: WARNING: cannot set 'ulimit -s unlimited' (NPB keeps large arrays on the stack)" >&2
fi
if [ ! -f "$here/bin/libptxrt-cuda.so" ]; then
    echo "run.sh: WARNING: no bin/libptxrt-cuda.so: the binaries run on the host unless the runtime finds a plugin elsewhere" >&2
fi

# in_list WORD LIST: whether WORD is one of LIST's words (an empty LIST holds all).
in_list() {
    [ -z "$2" ] && return 0
    local w
    for w in $2; do [ "$w" = "$1" ] && return 0; done
    return 1
}

# value_of LABEL FILE: the value after "LABEL =" in NPB's report, or "-".
value_of() {
    local v
    v="$(grep -m1 "^ *$1 *=" "$2" 2>/dev/null | sed 's/^[^=]*= *//; s/ *$//')"
    echo "${v:--}"
}

# last_error FILE: the last line of a run's stderr that is not a PTXRT_DEBUG line.
last_error() {
    grep -v '^ptxrt: ' "$1" 2>/dev/null | grep -v '^[[:space:]]*$' | tail -n 1 | cut -c1-100
}

table="$here/table.txt"
rows=0
good=0
{
    printf '%-5s %-5s %-14s %10s %12s %-6s %10s %10s  %s\n' \
        bench class verification "time(s)" "Mop/s" device "accc(s)" "gcc(s)" note
} >"$table"
while IFS=$'\t' read -r bench class binary built accc_s gcc_s log; do
    [ "$bench" = "bench" ] && continue # header
    in_list "$bench" "$only_bench" && in_list "$class" "$only_class" || continue
    rows=$((rows + 1))
    verification="-"; t="-"; mops="-"; device="-"; note=""
    if [ "$built" != "ok" ]; then
        verification="BUILD FAILED"
        note="$(grep -m1 -i 'error' "$here/$log" 2>/dev/null | cut -c1-100)"
        note="${note:-see $log}"
    else
        out="$here/logs/$bench.$class.run.out"
        err="$here/logs/$bench.$class.run.err"
        rc=0
        (cd "$here/bin" && PTXRT_DEBUG=1 timeout "$timeout_s" "./$binary") </dev/null >"$out" 2>"$err" || rc=$?
        v="$(value_of Verification "$out")"
        t="$(value_of 'Time in seconds' "$out")"
        mops="$(value_of 'Mop/s total' "$out")"
        if grep -q '^ptxrt: constructs run on NVIDIA device' "$err"; then
            device="gpu"
        elif grep -q '^ptxrt: constructs run on the host' "$err"; then
            device="host"
        fi
        if [ "$rc" -eq 124 ]; then
            verification="TIMEOUT"; note="after ${timeout_s}s"
        elif [ "$rc" -gt 128 ]; then
            verification="CRASHED"; note="signal $((rc - 128)): $(last_error "$err")"
        elif [ "$rc" -ne 0 ]; then
            verification="FAILED"; note="exit $rc: $(last_error "$err")"
        elif [ "$v" = "-" ]; then
            verification="NO VERIFICATION"; note="no 'Verification =' line: $(last_error "$err")"
        else
            verification="$v"
        fi
    fi
    [ "$verification" = "SUCCESSFUL" ] && good=$((good + 1))
    printf '%-5s %-5s %-14s %10s %12s %-6s %10s %10s  %s\n' \
        "$bench" "$class" "$verification" "$t" "$mops" "$device" "$accc_s" "$gcc_s" "$note" >>"$table"
done <"$here/builds.tsv"
echo "$good of $rows SUCCESSFUL" >>"$table"

echo "NPB-ACC built by accc, run on $(hostname) $(date -u '+%Y-%m-%d %H:%M UTC') (accc(s), gcc(s): build time of the whole make, gcc -O3 -fopenacc -foffload=disable)"
cat "$table"
if [ -n "${PTXRT_TIME:-}" ] && [ "${PTXRT_TIME}" != "0" ]; then
    for err in "$here"/logs/*.run.err; do
        [ -f "$err" ] || continue
        echo
        echo "== $(basename "$err" .run.err): PTXRT_TIME profile"
        sed -n '/^accc runtime profile/,$p' "$err"
    done
fi
[ "$rows" -gt 0 ] && [ "$good" -eq "$rows" ]

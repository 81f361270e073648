#!/usr/bin/env bash
# Runs the benchmark bundle on the GPU machine (copied there as run.sh by
# scripts/bench.sh): compiles the CUDA references with nvcc, measures the
# device-to-device copy ceiling, runs every variant of every benchmark, and
# writes results.tsv, results.md and results.png (into $OUT when set, else
# next to this script). Exit status 0; failures are rows in the table.
#
#   run.sh --kernels   instead: runs the accc and nvcc builds once each with
#                      PTXRT_TIME=1 and writes kernels.md, the kernel time of
#                      every compute construct through both code generators
#                      side by side (LLVM/nvcc), from the runtime's profile.
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$HERE"
DEST="${OUT:-$HERE}"
TSV="$DEST/results.tsv"
LOG="$DEST/bench.log"
: >"$LOG"
NVCC="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
nvidia-smi -L 2>&1 | tee -a "$LOG"

if [ "${1:-}" = "--kernels" ]; then
    mkdir -p "$DEST/prof"
    while read -r name; do
        [ -n "$name" ] || continue
        runs="$(cat "src/$name/runs")"
        [ -n "$runs" ] || runs=" "
        n=0
        while IFS= read -r line; do
            n=$((n + 1))
            args=() skip=""
            for tok in $line; do
                case "$tok" in
                    serial_reps=* | serial_warmup=*) ;;
                    skip=*) skip="$skip ${tok#skip=}" ;;
                    *) args+=("$tok") ;;
                esac
            done
            for v in accc nvcc; do
                [[ " $skip " == *" $v "* || " $skip " == *" accc "* ]] && continue
                [ -x "bin/$name.$v" ] || continue
                timeout 300 env ACC_DEVICE_TYPE=nvidia PTXRT_TIME=1 BENCH_REPS=3 BENCH_WARMUP=1 \
                    "bin/$name.$v" "${args[@]}" >"$DEST/prof/$name.$n.$v.out" 2>"$DEST/prof/$name.$n.$v.prof"
                echo "$name.$n.$v exit $?" >>"$LOG"
            done
        done <<<"$runs"
    done <benchmarks.txt
    python3 kernels.py "$DEST/prof" "$DEST/kernels.md" 2>>"$LOG"
    cat "$DEST/kernels.md"
    exit 0
fi
mkdir -p cuda
printf 'program\tbenchmark\tsize\tvariant\tstatus\tseconds\trate\tunit\n' >"$TSV"

# result lines of one run → rows; anything else → a failure row.
record() { # variant name output status
    local v="$1" name="$2" out="$3" rc="$4"
    if grep -q '^RESULT ' <<<"$out"; then
        grep '^RESULT ' <<<"$out" | while read -r _ n size s rate unit check; do
            st="$check"
            [ "$rc" -ne 0 ] && st="FAIL(exit $rc)"
            printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$n" "$size" "$v" "$st" "$s" "$rate" "$unit" >>"$TSV"
        done
    else
        printf '%s\t-\t-\t%s\t%s\t-\t-\t-\n' "$name" "$v" "FAIL(exit $rc, no result)" >>"$TSV"
    fi
}

run() { # variant name timeout env-and-command...
    local v="$1" name="$2" t="$3"; shift 3
    local out rc
    out="$(timeout "$t" env "$@" 2>>"$LOG")"
    rc=$?
    echo "[$v] $name: $out" >>"$LOG"
    record "$v" "$name" "$out" "$rc"
}

if "$NVCC" -O3 -arch=sm_90 -o cuda/devcopy src/common/devcopy.cu >>"$LOG" 2>&1; then
    run cuda devcopy 120 ./cuda/devcopy
else
    printf 'devcopy\tdevcopy\t-\tcuda\tdoes not build\t-\t-\t-\n' >>"$TSV"
fi

while read -r name; do
    [ -n "$name" ] || continue
    if [ -f "src/$name/$name.cu" ]; then
        "$NVCC" -O3 -arch=sm_90 -o "cuda/$name" "src/$name/$name.cu" >>"$LOG" 2>&1 || echo "nvcc failed: $name" >>"$LOG"
    fi
    runs="$(cat "src/$name/runs")"
    [ -n "$runs" ] || runs=" "
    while IFS= read -r line; do
        args=() sreps=3 swarm=1 skip=""
        for tok in $line; do
            case "$tok" in
                serial_reps=*) sreps="${tok#serial_reps=}" ;;
                serial_warmup=*) swarm="${tok#serial_warmup=}" ;;
                skip=*) skip="$skip ${tok#skip=}" ;;
                *) args+=("$tok") ;;
            esac
        done
        label="$name${args[0]:+ ${args[*]}}"
        for v in cuda accc nvcc gcc serial; do
            case "$v" in
                cuda) exe="cuda/$name" ;;
                *) exe="bin/$name.$v" ;;
            esac
            if [[ " $skip " == *" $v "* ]]; then
                printf '%s\t-\t-\t%s\tnot run\t-\t-\t-\n' "$label" "$v" >>"$TSV"
                continue
            fi
            if [ ! -x "$exe" ]; then
                printf '%s\t-\t-\t%s\tdoes not build\t-\t-\t-\n' "$label" "$v" >>"$TSV"
                continue
            fi
            case "$v" in
                cuda) run cuda "$label" 300 "$exe" "${args[@]}" ;;
                accc | nvcc) run "$v" "$label" 300 ACC_DEVICE_TYPE=nvidia "$exe" "${args[@]}" ;;
                gcc) run gcc "$label" 300 ACC_DEVICE_TYPE=nvidia LD_LIBRARY_PATH="$HERE/lib" "$exe" "${args[@]}" ;;
                serial) run serial "$label" 300 BENCH_REPS="$sreps" BENCH_WARMUP="$swarm" "$exe" "${args[@]}" ;;
            esac
        done
    done <<<"$runs"
done <benchmarks.txt

python3 report.py "$TSV" "$DEST/results.md" "$DEST/results.png" 2>>"$LOG"
cat "$DEST/results.md"

#!/usr/bin/env bash
# Builds .gpu/trace/: the trace file (PTXRT_TRACE) and the NVTX ranges
# (PTXRT_NVTX) on a GPU, for benchmarks/overlap and tests/programs/trace_async.c.
#
#   bash scripts/trace-bundle.sh      # here: build .gpu/trace/
#   bash .gpu/trace/run.sh            # on the GPU machine (OUT=dir: where the results go,
#                                     # default .gpu/trace/out)
#
# The bundle: bin/overlap and bin/trace_async (accc -O3), the CUDA plugin beside
# them (bin/libptxrt-cuda.so, where the runtime looks first), trace-summary.py,
# trace-timeline.py and run.sh, which writes $OUT/overlap.json,
# $OUT/overlap-timeline.png (the phase that hid the most copy time; needs
# matplotlib), $OUT/overlap-timeline-all.png, $OUT/trace_async.json, and, when
# Nsight Systems is there, $OUT/trace_async-nsys.nsys-rep with its NVTX ranges.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
if ! command -v cargo >/dev/null 2>&1; then export PATH="$HOME/.cargo/bin:$PATH"; fi
[ "${TRACE_BUNDLE_NO_BUILD:-}" = 1 ] || cargo build --release --workspace
ACCC="$ROOT/target/release/accc"
PLUGIN="$ROOT/target/release/libptxrt_cuda.so"
[ -x "$ACCC" ] && [ -f "$PLUGIN" ] || { echo "trace-bundle: build the workspace first" >&2; exit 1; }
[ -x .tools/pip/nvidia/cu13/bin/ptxas ] && export ACCC_REQUIRE_PTXAS=1

OUT="$ROOT/.gpu/trace"
rm -rf "$OUT"
mkdir -p "$OUT/bin"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
"$ACCC" -O3 benchmarks/overlap/overlap.c -o "$OUT/bin/overlap" -lm
# Built from its own folder, so that locations name it trace_async.c.
cp tests/programs/trace_async.c "$WORK/"
(cd "$WORK" && "$ACCC" -O3 trace_async.c -o "$OUT/bin/trace_async")
strip "$OUT/bin/overlap" "$OUT/bin/trace_async"
cp "$PLUGIN" "$OUT/bin/libptxrt-cuda.so"
cp scripts/trace-summary.py scripts/trace-timeline.py scripts/tracefile.py "$OUT/"

cat >"$OUT/run.sh" <<'EOF'
#!/usr/bin/env bash
# The trace and NVTX bundle (scripts/trace-bundle.sh): bash run.sh on the GPU machine.
set -u
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="${OUT:-$HERE/out}"
mkdir -p "$OUT"
export ACC_DEVICE_TYPE=nvidia
unset PTXRT_TRACE PTXRT_NVTX PTXRT_TIME
status=0
fail() { echo "FAIL: $*"; status=1; }

echo "== trace_async with PTXRT_TRACE"
PTXRT_TRACE="$OUT/trace_async.json" "$HERE/bin/trace_async" || fail "trace_async"
python3 "$HERE/trace-summary.py" "$OUT/trace_async.json" || fail "trace-summary.py trace_async"

REPS="${BENCH_REPS:-3}" WARM="${BENCH_WARMUP:-1}"
echo "== overlap ${OVERLAP_ARGS:-} without the trace (BENCH_REPS=$REPS)"
BENCH_REPS=$REPS BENCH_WARMUP=$WARM "$HERE/bin/overlap" ${OVERLAP_ARGS:-} || fail "overlap"
echo "== overlap ${OVERLAP_ARGS:-} with PTXRT_TRACE=$OUT/overlap.json"
BENCH_REPS=$REPS BENCH_WARMUP=$WARM PTXRT_TRACE="$OUT/overlap.json" "$HERE/bin/overlap" ${OVERLAP_ARGS:-} \
    || fail "overlap with the trace"
ls -l "$OUT/overlap.json"
python3 "$HERE/trace-summary.py" "$OUT/overlap.json" --phases || fail "trace-summary.py overlap"
if python3 -c 'import matplotlib' 2>/dev/null; then
    python3 "$HERE/trace-timeline.py" "$OUT/overlap.json" "$OUT/overlap-timeline-all.png" || fail "timeline"
    if W="$(python3 "$HERE/trace-summary.py" "$OUT/overlap.json" --best-phase)"; then
        echo "best phase: $W ms"
        python3 "$HERE/trace-timeline.py" "$OUT/overlap.json" "$OUT/overlap-timeline.png" --window $W \
            || fail "timeline of the best phase"
    fi
else
    echo "no matplotlib here: no timeline PNG (copy $OUT/overlap.json back and run trace-timeline.py)"
fi

echo "== PTXRT_NVTX=1 without Nsight Systems (must change nothing)"
a="$("$HERE/bin/trace_async" 2>&1)"
b="$(PTXRT_NVTX=1 "$HERE/bin/trace_async" 2>&1)"
[ "$a" = "$b" ] && echo "same output: $b" || fail "PTXRT_NVTX=1 changed the output: '$a' vs '$b'"
NSYS="$(command -v nsys || ls /opt/nvidia/nsight-systems/*/bin/nsys /usr/local/cuda*/bin/nsys 2>/dev/null | head -1 || true)"
if [ -n "$NSYS" ]; then
    echo "== nsys profile ($NSYS): PTXRT_NVTX=1, NVTX and CUDA traced"
    PTXRT_NVTX=1 "$NSYS" profile -t cuda,nvtx -o "$OUT/trace_async-nsys" -f true "$HERE/bin/trace_async" \
        || fail "nsys profile"
    "$NSYS" stats -r nvtx_sum "$OUT/trace_async-nsys.nsys-rep" 2>/dev/null \
        || "$NSYS" stats -r nvtxsum "$OUT/trace_async-nsys.nsys-rep" || fail "nsys stats"
    PTXRT_NVTX=1 "$NSYS" profile -t cuda,nvtx -o "$OUT/overlap-nsys" -f true \
        "$HERE/bin/overlap" $((1 << 24)) 8 256 >/dev/null || fail "nsys profile overlap"
else
    echo "nsys: not on PATH (nor in /opt/nvidia/nsight-systems, /usr/local/cuda*): no Nsight Systems run"
fi
echo "results in $OUT"
[ $status = 0 ] && echo "trace bundle: PASS" || echo "trace bundle: FAIL"
exit $status
EOF
chmod +x "$OUT/run.sh"
echo "==> trace bundle: $OUT ($(du -sh "$OUT" | cut -f1)); on the GPU machine: bash .gpu/trace/run.sh"

#!/usr/bin/env bash
# Builds a self-contained folder, .gpu/bundle/, that checks accc's test programs on a
# GPU machine: carry the folder there and run `bash run.sh` inside it.
#
#   bin/<name>             tests/programs/<name>.c compiled by target/release/accc -O2
#                          (or tests/programs/<name>/*.c: each file accc -c, then linked)
#   bin/libptxrt-cuda.so   the CUDA plugin (also as libptxrt_cuda.so, cargo's name)
#   difftest-bin.tar.xz    dtbin/<name>: every program's binary (tests/programs and the
#                          generated ones), compressed; dtbin/difftest_<seed>: the generated programs of
#                          tests/difftest (ACCC_DIFFTEST_COUNT, default 200, from seed
#                          ACCC_DIFFTEST_FIRST, default 0), compiled the same way;
#                          packed because they share most of their bytes (the runtime)
#   src/difftest_<seed>.c  their sources
#   expected/<name>.out    stdout of the plain-cc build (pragmas ignored), run here
#   expected/<name>.rc     its exit status
#   expected/<name>.tol    relative tolerance for floating tokens (0: exact; `A B`:
#                          A for tokens of up to 9 digits, B for longer ones)
#   expected/<name>.compile-error   accc's stderr when it could not compile <name>
#   expected/<name>.stderr an extended regex stderr must match (a program that must fail:
#                          `// gpu-expect-fail:`); `// gpu-stdout:` lines replace .out
#                          (and are the only expected output of an `// oracle: none`
#                          program, which has no plain-cc build)
#   expected/<name>.env    its `// env: NAME=VALUE` settings, one per line (run.sh runs it
#                          with them; ACC_DEVICE_TYPE=host there means no launches)
#   bin/rdc_*              the relocatable-image check (tests/rdc.rs): two hand-made
#                          units whose kernel calls a device function of the other,
#                          linked by the runtime from cubins (rdc_link) or PTX
#                          (rdc_link_ptx), and one that must fail naming the undefined
#                          function (rdc_undefined); built by tests/rdc.rs's ignored
#                          test write_gpu_bundle_programs
#   compare.py             token-wise comparison with tolerance
#   run.sh                 runs everything with ACC_DEVICE_TYPE=nvidia, PTXRT_NOTIFY=1
#
# Variants: ACCC_BUNDLE_FLAGS adds flags to every accc invocation and ACCC_BUNDLE_DIR
# names the folder (default .gpu/bundle). The nvcc path's bundle, whose programs must
# print the same as the default path's (the same expected/ files):
#   ACCC_BUNDLE_FLAGS=--backend=cuda ACCC_BUNDLE_DIR=.gpu/bundle-nvcc bash scripts/gpu-bundle.sh
#
# Needs on the GPU machine: glibc (libc, libm, libdl, libpthread), libgcc_s, python3
# and the driver's libcuda.so.1. Exits non-zero when a program did not compile (the
# bundle is still written; run.sh reports those programs as failed).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

bash scripts/setup.sh
if ! command -v cargo >/dev/null 2>&1; then export PATH="$HOME/.cargo/bin:$PATH"; fi

echo "==> cargo build --release --workspace"
cargo build --release --workspace

# ACCC_BUNDLE_COMPILER replaces the compiler (for testing this script).
ACCC="${ACCC_BUNDLE_COMPILER:-$ROOT/target/release/accc}"
PLUGIN="$ROOT/target/release/libptxrt_cuda.so"
[ -x "$ACCC" ] || { echo "gpu-bundle: $ACCC not built" >&2; exit 1; }
[ -f "$PLUGIN" ] || { echo "gpu-bundle: $PLUGIN not built" >&2; exit 1; }
if [ -x "$ROOT/.tools/pip/nvidia/cu13/bin/ptxas" ]; then
    export ACCC_REQUIRE_PTXAS=1
fi
HOST_CC="${ACCC_HOST_CC:-cc}"
read -r -a EXTRA <<<"${ACCC_BUNDLE_FLAGS:-}"

BUNDLE="${ACCC_BUNDLE_DIR:-.gpu/bundle}"
case "$BUNDLE" in /*) ;; *) BUNDLE="$ROOT/$BUNDLE" ;; esac
rm -rf "$BUNDLE"
mkdir -p "$BUNDLE/bin" "$BUNDLE/expected" "$BUNDLE/src"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# The generated programs of tests/difftest, written by its test entry so the
# generator lives in one place.
DIFFTEST_COUNT="${ACCC_DIFFTEST_COUNT:-200}"
mkdir -p "$WORK/difftest" "$WORK/dtbin"
if [ "$DIFFTEST_COUNT" -gt 0 ]; then
    echo "==> generating $DIFFTEST_COUNT difftest programs"
    ACCC_DIFFTEST_OUT="$WORK/difftest" ACCC_DIFFTEST_COUNT="$DIFFTEST_COUNT" \
        cargo test --release --test difftest -- --ignored --exact write_programs
    cp "$WORK"/difftest/*.c "$BUNDLE/src/"
fi

cp "$PLUGIN" "$BUNDLE/bin/libptxrt-cuda.so"
cp "$PLUGIN" "$BUNDLE/bin/libptxrt_cuda.so"

compile_failures=0
: >"$BUNDLE/programs.txt"
# accc-builds $1 (a .c file, or a folder of .c files making one program: each
# compiled with -c, then linked) into $2, with the program's `// flags:` after
# the bundle's; its messages go to $3.
build_accc() {
    local src="$1" exe="$2" err="$3" files flags
    if [ -d "$src" ]; then files=("$src"/*.c); else files=("$src"); fi
    read -r -a flags <<<"$(sed -n 's|^// flags:[[:space:]]*||p' "${files[@]}" | tr '\n' ' ')"
    if [ -d "$src" ]; then
        local objs=() f i=0
        for f in "$src"/*.c; do
            "$ACCC" -O2 "${EXTRA[@]}" "${flags[@]}" -c "$f" -o "$WORK/obj.$i.o" 2>>"$err" || return 1
            objs+=("$WORK/obj.$i.o")
            i=$((i + 1))
        done
        "$ACCC" "${EXTRA[@]}" "${flags[@]}" "${objs[@]}" -o "$exe" -lm 2>>"$err"
    else
        "$ACCC" -O2 "${EXTRA[@]}" "${flags[@]}" "$src" -o "$exe" -lm 2>"$err"
    fi
}

for src in "$ROOT"/tests/programs/*.c "$ROOT"/tests/programs/*/ "$WORK"/difftest/*.c; do
    src="${src%/}"
    [ -e "$src" ] || continue
    name="$(basename "$src" .c)"
    if [ -d "$src" ]; then files=("$src"/*.c); else files=("$src"); fi
    echo "$name" >>"$BUNDLE/programs.txt"
    # Every program goes into one compressed archive (each links the runtime
    # statically: ~2 MB apiece), unpacked by run.sh.
    bin="$WORK/dtbin/$name"

    # Environment of both runs.
    sed -n 's|^// env:[[:space:]]*||p' "${files[@]}" | sed 's/[[:space:]]*=[[:space:]]*/=/' >"$BUNDLE/expected/$name.env"
    # Oracle: plain cc, pragmas ignored (GCC's -fopenacc without offloading when the
    # program includes <openacc.h>), unless the program has none.
    rc=0
    if grep -q '^// oracle:[[:space:]]*none' "${files[@]}"; then
        : >"$BUNDLE/expected/$name.out"
    else
        cc_flags=(-O1 -w)
        if grep -q '<openacc.h>' "${files[@]}"; then cc_flags+=(-fopenacc -foffload=disable); fi
        "$HOST_CC" "${cc_flags[@]}" "${files[@]}" -o "$WORK/$name.cc" -lm
        mapfile -t envs <"$BUNDLE/expected/$name.env"
        env -u ACC_DEVICE_TYPE -u ACC_DEVICE_NUM "${envs[@]}" "$WORK/$name.cc" >"$BUNDLE/expected/$name.out" || rc=$?
    fi
    echo "$rc" >"$BUNDLE/expected/$name.rc"
    # The answer on the GPU when it is not the oracle's (separate memories),
    # or the runtime error it must stop with.
    if grep -q '^// gpu-stdout:' "${files[@]}"; then
        sed -n 's|^// gpu-stdout:[[:space:]]*||p' "${files[@]}" >"$BUNDLE/expected/$name.out"
    fi
    fail="$(sed -n 's|^// gpu-expect-fail:[[:space:]]*||p' "${files[@]}" | head -n1)"
    if [ -n "$fail" ]; then
        echo "$fail" >"$BUNDLE/expected/$name.stderr"
        echo 1 >"$BUNDLE/expected/$name.rc"
        : >"$BUNDLE/expected/$name.out"
    fi
    tol="$(sed -n 's|^// tolerance:[[:space:]]*\(.*[^[:space:]]\)[[:space:]]*$|\1|p' "${files[@]}" | head -n1)"
    echo "${tol:-0}" >"$BUNDLE/expected/$name.tol"

    : >"$WORK/$name.err"
    if build_accc "$src" "$bin" "$WORK/$name.err"; then
        case "$name" in
            difftest_*) strip "$bin" 2>/dev/null || true ;;
            *) strip --strip-debug "$bin" 2>/dev/null || true ;;
        esac
        echo "compiled $name"
    else
        compile_failures=$((compile_failures + 1))
        cp "$WORK/$name.err" "$BUNDLE/expected/$name.compile-error"
        rm -f "$bin"
        echo "gpu-bundle: accc failed on $name:" >&2
        sed 's/^/    /' "$WORK/$name.err" | head -n 20 >&2
    fi
done
if [ -n "$(ls -A "$WORK/dtbin")" ]; then
    echo "==> packing the difftest binaries"
    XZ_OPT=-6 tar -C "$WORK" -cJf "$BUNDLE/difftest-bin.tar.xz" dtbin
fi

echo "==> relocatable-image check (tests/rdc.rs)"
if ! ACCC_RDC_BUNDLE="$BUNDLE" cargo test --release -p accc --test rdc -- \
    --ignored --exact write_gpu_bundle_programs --nocapture; then
    compile_failures=$((compile_failures + 1))
    echo "gpu-bundle: the relocatable-image programs (tests/rdc.rs) were not built" >&2
fi
strip --strip-debug "$BUNDLE"/bin/rdc_* 2>/dev/null || true

cp "$ROOT/scripts/compare.py" "$BUNDLE/compare.py"

cat >"$BUNDLE/run.sh" <<'SH'
#!/usr/bin/env bash
# Runs every bundled test program on the GPU (ACC_DEVICE_TYPE=nvidia: no host
# fallback) and compares its output with the plain-cc build's. Logs go to
# $GPU_BUNDLE_LOGS (default: logs/ next to this script). The generated programs
# (difftest_*) get their own summary line.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
logs="${GPU_BUNDLE_LOGS:-$here/logs}"
mkdir -p "$logs"

nvidia-smi -L || echo "run.sh: nvidia-smi -L failed"

dtbin=""
if [ -f "$here/difftest-bin.tar.xz" ]; then
    dtdir="$(mktemp -d)"
    trap 'rm -rf "$dtdir"' EXIT
    if tar -C "$dtdir" -xJf "$here/difftest-bin.tar.xz" 2>/dev/null ||
        python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' \
            "$here/difftest-bin.tar.xz" "$dtdir"; then
        dtbin="$dtdir/dtbin"
    else
        echo "run.sh: cannot unpack difftest-bin.tar.xz"
    fi
fi

export ACC_DEVICE_TYPE=nvidia
export PTXRT_NOTIFY=1
export PTXRT_PLUGIN="$here/bin/libptxrt-cuda.so"
unset PTXRT_DEBUG

passed=0
failed=0
dt_ran=0       # difftest programs that launched kernels
dt_disagreed=0 # ... and whose exit status or output differs from cc's
dt_norun=0     # difftest programs that did not compile or launched nothing
while read -r name; do
    [ -n "$name" ] || continue
    exp="$here/expected/$name"
    case "$name" in
        difftest_*) difftest=1 bin="$dtbin/$name" ;;
        rdc_*) difftest=0 bin="$here/bin/$name" ;;
        *) difftest=0 bin="$dtbin/$name" ;;
    esac
    if [ -f "$exp.compile-error" ]; then
        echo "FAIL $name: accc could not compile it ($(head -n1 "$exp.compile-error"))"
        failed=$((failed + 1))
        dt_norun=$((dt_norun + difftest))
        continue
    fi
    rc=0
    envs=()
    [ -f "$exp.env" ] && mapfile -t envs <"$exp.env"
    timeout 300 env "${envs[@]}" "$bin" >"$logs/$name.out" 2>"$logs/$name.err" || rc=$?
    launches="$(grep -c '^ptxrt: launch' "$logs/$name.err" || true)"
    on_host=0
    grep -qi '^ACC_DEVICE_TYPE=host$' "$exp.env" 2>/dev/null && on_host=1
    want_rc="$(cat "$exp.rc")"
    if [ "$launches" -gt 0 ]; then
        dt_ran=$((dt_ran + difftest))
    else
        dt_norun=$((dt_norun + difftest))
    fi
    if [ "$rc" != "$want_rc" ]; then
        why="exit status $rc (expected $want_rc): $(grep -v '^ptxrt: ' "$logs/$name.err" | tail -n 3 | tr '\n' ' ')"
    elif [ -f "$exp.stderr" ]; then
        # A program that must fail: its error line, not launches, is the check.
        if grep -Eq -f "$exp.stderr" "$logs/$name.err"; then
            why="$(python3 "$here/compare.py" "$exp.out" "$logs/$name.out" 0)" || true
        else
            why="stderr does not match '$(cat "$exp.stderr")': $(grep -v '^ptxrt: ' "$logs/$name.err" | tail -n 3 | tr '\n' ' ')"
        fi
    elif [ "$launches" -eq 0 ] && [ "$on_host" -eq 0 ]; then
        why="no kernel launches (did it run on the host?)"
    elif why="$(python3 "$here/compare.py" "$exp.out" "$logs/$name.out" "$(cat "$exp.tol")")"; then
        why="" # outputs match
    fi
    if [ -z "$why" ]; then
        echo "PASS $name ($launches launches)"
        passed=$((passed + 1))
    else
        echo "FAIL $name: $why"
        failed=$((failed + 1))
        if [ "$launches" -gt 0 ]; then dt_disagreed=$((dt_disagreed + difftest)); fi
    fi
done <"$here/programs.txt"

if [ $((dt_ran + dt_norun)) -gt 0 ]; then
    echo "difftest: $dt_ran ran on the GPU, $dt_disagreed disagreed"
    if [ "$dt_norun" -gt 0 ]; then
        echo "difftest: $dt_norun did not run on the GPU (not compiled, or no launches)"
    fi
fi
echo "gpu-bundle: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
SH
chmod +x "$BUNDLE/run.sh" "$BUNDLE/compare.py"

echo "==> plugin needs: $(readelf -d "$BUNDLE/bin/libptxrt-cuda.so" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | tr '\n' ' ')"
echo "==> bundle: $BUNDLE ($(du -sh "$BUNDLE" | cut -f1)); on the GPU machine: bash .gpu/bundle/run.sh"
if [ "$compile_failures" -ne 0 ]; then
    echo "gpu-bundle: $compile_failures program(s) did not compile" >&2
    exit 1
fi

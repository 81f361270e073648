#!/usr/bin/env bash
# Builds a compact "race hunt" folder: many generated difftest programs
# (tests/difftest), compiled by accc, with the plain-cc answers, and a runner that
# runs each program several times on a GPU machine (bash and python3 only there).
#
#   scripts/difftest-hunt.sh [--count 2000] [--first 0] [--out .gpu/hunt]
#                            [--jobs N] [--features SPEC] [--link shared|static]
#                            [--no-host-check] [--programs DIR]
#
# Then, on the GPU machine (carry the folder there):
#
#   bash .gpu/hunt/run.sh [--repeat 3] [--jobs 16] [--sanitize 100] ...
#
# (`bash .gpu/hunt/run.sh --help` lists its options.) It prints
# `hunt: X programs × N runs on the GPU, Y disagreed (seeds …)` and the details of
# every program that disagreed in any run.
#
# The folder:
#   run.sh, hunt.py, compare.py   the runner (hunt.py) and the output comparison
#   programs.tar.xz               bin/<name>: accc -O2 builds; exp/<name>.out, .rc,
#                                 .tol: the plain-cc run and the tolerance;
#                                 exp/<name>.compile-error: accc's messages when it
#                                 failed; src/<name>.c: the sources
#   lib/libptxrt.so               --link shared (default): the runtime every program
#                                 links dynamically, so that each binary is ~25 KB
#                                 instead of ~1.5 MB (same code as libptxrt.a, which
#                                 accc links statically; the device code and host
#                                 code are accc's as always)
#   lib/libptxrt-cuda.so          the CUDA plugin
#   manifest.txt                  what was built, how, and how long it took
#
# Building runs `--jobs` programs at a time (default: the cores here): each is
# built by cc and accc, and (unless --no-host-check) its accc build is also run
# here through the host fallback and compared with cc's, so host-side
# disagreements show before the GPU run. `--programs DIR` takes the .c files of DIR
# instead of generating them (for tests of this script). ACCC_BUNDLE_COMPILER
# replaces the compiler (its folder must hold libptxrt.a and libptxrt_cuda.so, as
# target/debug and target/release do); without it the release build is made.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

COUNT=2000
FIRST=0
OUT="$ROOT/.gpu/hunt"
JOBS="$(nproc 2>/dev/null || echo 2)"
FEATURES="${ACCC_DIFFTEST_FEATURES:-}"
LINK=shared
HOST_CHECK=1
PROGRAMS=""
while [ $# -gt 0 ]; do
    case "$1" in
        --count) COUNT="$2"; shift 2 ;;
        --first) FIRST="$2"; shift 2 ;;
        --out) OUT="$2"; shift 2 ;;
        --jobs) JOBS="$2"; shift 2 ;;
        --features) FEATURES="$2"; shift 2 ;;
        --link) LINK="$2"; shift 2 ;;
        --no-host-check) HOST_CHECK=0; shift ;;
        --programs) PROGRAMS="$2"; shift 2 ;;
        -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "difftest-hunt: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
case "$LINK" in shared | static) ;; *) echo "difftest-hunt: --link shared|static" >&2; exit 2 ;; esac
case "$OUT" in /*) ;; *) OUT="$ROOT/$OUT" ;; esac

if ! command -v cargo >/dev/null 2>&1; then export PATH="$HOME/.cargo/bin:$PATH"; fi
START=$(date +%s)
if [ -z "${ACCC_BUNDLE_COMPILER:-}" ]; then
    echo "==> cargo build --release --workspace"
    cargo build --release --workspace
fi
ACCC="${ACCC_BUNDLE_COMPILER:-$ROOT/target/release/accc}"
LIBDIR="$(dirname "$ACCC")"
[ -f "$LIBDIR/libptxrt.a" ] || LIBDIR="$ROOT/target/release"
[ -x "$ACCC" ] || { echo "difftest-hunt: $ACCC not built" >&2; exit 1; }
[ -f "$LIBDIR/libptxrt_cuda.so" ] || { echo "difftest-hunt: $LIBDIR/libptxrt_cuda.so not built" >&2; exit 1; }
if [ -x "$ROOT/.tools/pip/nvidia/cu13/bin/ptxas" ]; then
    export ACCC_REQUIRE_PTXAS=1
fi
HOST_CC="${ACCC_HOST_CC:-cc}"

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/pack/bin" "$WORK/pack/exp" "$WORK/pack/src" "$WORK/lib" "$WORK/log"

if [ -n "$PROGRAMS" ]; then
    cp "$PROGRAMS"/*.c "$WORK/pack/src/"
else
    echo "==> generating $COUNT programs from seed $FIRST${FEATURES:+ (features: $FEATURES)}"
    ACCC_DIFFTEST_OUT="$WORK/pack/src" ACCC_DIFFTEST_COUNT="$COUNT" ACCC_DIFFTEST_FIRST="$FIRST" \
        ACCC_DIFFTEST_FEATURES="$FEATURES" \
        cargo test --release --test difftest -- --ignored --exact write_programs
fi
GEN_END=$(date +%s)

LINK_FLAGS=()
if [ "$LINK" = shared ]; then
    # The runtime as a shared library: libptxrt.a is position-independent.
    "$HOST_CC" -shared -o "$WORK/lib/libptxrt.so" -Wl,--whole-archive "$LIBDIR/libptxrt.a" \
        -Wl,--no-whole-archive -lpthread -ldl -lm -lrt
    strip "$WORK/lib/libptxrt.so"
    # A -l before accc's libptxrt.a resolves the runtime first; $ORIGIN/../lib
    # finds it next to the unpacked binaries' folder on the GPU machine (hunt.py
    # also sets LD_LIBRARY_PATH).
    LINK_FLAGS=(-L"$WORK/lib" -lptxrt "-Wl,-rpath,\$ORIGIN/../lib")
fi

# build_one NAME: the oracle's answer, accc's build, and (HOST_CHECK) the accc
# build's host-fallback answer compared with the oracle's. One line of status
# on stdout: `ok NAME`, `compile-error NAME`, `host-differs NAME: why`,
# `oracle-failed NAME`.
build_one() {
    local name="$1" p="$WORK/pack" t="$WORK/tmp.$1"
    local src="$p/src/$name.c"
    mkdir -p "$t"
    local tol
    tol="$(sed -n 's|^// tolerance:[[:space:]]*\(.*[^[:space:]]\)[[:space:]]*$|\1|p' "$src" | head -n1)"
    echo "${tol:-0}" >"$p/exp/$name.tol"
    if ! "$HOST_CC" -O1 -w "$src" -o "$t/cc" -lm 2>"$t/cc.err"; then
        echo "oracle-failed $name: $(head -n 3 "$t/cc.err" | tr '\n' ' ')"
        rm -rf "$t"
        return 0
    fi
    local rc=0
    env -u ACC_DEVICE_TYPE -u ACC_DEVICE_NUM timeout 20 "$t/cc" >"$p/exp/$name.out" 2>/dev/null || rc=$?
    echo "$rc" >"$p/exp/$name.rc"
    if ! "$ACCC" -O2 "$src" -o "$p/bin/$name" -lm "${LINK_FLAGS[@]}" 2>"$t/accc.err"; then
        cp "$t/accc.err" "$p/exp/$name.compile-error"
        rm -f "$p/bin/$name"
        echo "compile-error $name: $(grep -m1 -i 'error' "$t/accc.err" || head -n1 "$t/accc.err")"
        rm -rf "$t"
        return 0
    fi
    strip "$p/bin/$name" 2>/dev/null || true
    if [ "$HOST_CHECK" = 1 ]; then
        local hrc=0 why
        LD_LIBRARY_PATH="$WORK/lib" env -u ACC_DEVICE_TYPE -u ACC_DEVICE_NUM \
            timeout 20 "$p/bin/$name" >"$t/host.out" 2>"$t/host.err" || hrc=$?
        if [ "$hrc" != "$rc" ]; then
            echo "host-differs $name: exit status $hrc, the oracle's $rc: $(tail -n 2 "$t/host.err" | tr '\n' ' ')"
        elif ! why="$(python3 "$ROOT/scripts/compare.py" "$p/exp/$name.out" "$t/host.out" "${tol:-0}")"; then
            echo "host-differs $name: $why"
        else
            echo "ok $name"
        fi
    else
        echo "ok $name"
    fi
    rm -rf "$t"
}
export -f build_one
export WORK HOST_CC ACCC HOST_CHECK ROOT
export LINK_FLAGS_STR="${LINK_FLAGS[*]:-}"
# Arrays do not cross `export`: rebuild LINK_FLAGS in each worker.
build_worker() {
    read -r -a LINK_FLAGS <<<"$LINK_FLAGS_STR"
    build_one "$1"
}
export -f build_worker

NPROG="$(ls "$WORK/pack/src" | wc -l)"
echo "==> building $NPROG programs with cc and accc, $JOBS at a time"
ls "$WORK/pack/src" | sed 's/\.c$//' |
    xargs -P "$JOBS" -I{} bash -c 'build_worker "$1"' _ {} | tee "$WORK/log/build.txt" |
    awk '{ n++; if ($1 != "ok") print; if (n % 100 == 0) printf "   %d built\n", n > "/dev/stderr" }'
BUILD_END=$(date +%s)

ok="$(grep -c '^ok ' "$WORK/log/build.txt" || true)"
cerr="$(grep -c '^compile-error ' "$WORK/log/build.txt" || true)"
hdiff="$(grep -c '^host-differs ' "$WORK/log/build.txt" || true)"
ofail="$(grep -c '^oracle-failed ' "$WORK/log/build.txt" || true)"
# Programs whose oracle failed are not hunted (the generator's fault: reported).
{ grep '^oracle-failed ' "$WORK/log/build.txt" || true; } | awk '{print $2}' | tr -d ':' |
    while read -r n; do rm -f "$WORK/pack/src/$n.c" "$WORK/pack/bin/$n" "$WORK/pack/exp/$n".*; done

echo "==> packing"
rm -rf "$OUT"
mkdir -p "$OUT/lib"
ls "$WORK/pack/src" | sed 's/\.c$//' | sort -t_ -k2,2n >"$WORK/pack/programs.txt"
# Binaries first, so that xz finds what they share within its window.
(cd "$WORK/pack" && XZ_OPT="-6 -T2" tar -cJf "$OUT/programs.tar.xz" programs.txt bin exp src)
if [ "$LINK" = shared ]; then cp "$WORK/lib/libptxrt.so" "$OUT/lib/"; fi
cp "$LIBDIR/libptxrt_cuda.so" "$OUT/lib/libptxrt-cuda.so"
cp "$ROOT/scripts/compare.py" "$ROOT/scripts/difftest-hunt.py" "$OUT/"
mv "$OUT/difftest-hunt.py" "$OUT/hunt.py"
cat >"$OUT/run.sh" <<'SH'
#!/usr/bin/env bash
# The race hunt's runner: see `bash run.sh --help`.
exec python3 "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/hunt.py" "$@"
SH
chmod +x "$OUT/run.sh" "$OUT/hunt.py" "$OUT/compare.py"
PACK_END=$(date +%s)

{
    echo "programs: $NPROG (seeds $FIRST..$((FIRST + COUNT - 1)) and the regression seeds)"
    echo "features: ${FEATURES:-accc (the CI set)}"
    echo "accc: $("$ACCC" --version 2>/dev/null | head -n1) ($(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?'))"
    echo "link: $LINK"
    echo "built: $ok, accc failed: $cerr, oracle failed: $ofail, host fallback differs: $hdiff"
    echo "time: generate $((GEN_END - START)) s, build $((BUILD_END - GEN_END)) s ($JOBS jobs), pack $((PACK_END - BUILD_END)) s"
    echo "size: $(du -sh "$OUT" | cut -f1)"
    grep -v '^ok ' "$WORK/log/build.txt" || true
} >"$OUT/manifest.txt"
echo "==> $(sed -n 's/^built: //p' "$OUT/manifest.txt")"
echo "==> $(sed -n 's/^time: //p' "$OUT/manifest.txt")"
echo "==> hunt folder: $OUT ($(du -sh "$OUT" | cut -f1)); on the GPU machine: bash $OUT/run.sh --repeat 3"
if [ "$cerr" -ne 0 ] || [ "$hdiff" -ne 0 ] || [ "$ofail" -ne 0 ]; then
    echo "difftest-hunt: $cerr did not compile, $hdiff differ on the host fallback, $ofail oracles failed (manifest.txt)" >&2
    exit 1
fi

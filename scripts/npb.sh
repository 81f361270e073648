#!/usr/bin/env bash
# npb.sh — builds NPB-ACC (the OpenACC NAS Parallel Benchmarks, not part of accc)
# with accc from its own Makefiles, each benchmark × class in its own copy, runs
# it, and prints one table: verification, time, Mop/s, where it ran, and accc's
# build time next to that of gcc -O3 -fopenacc -foffload=disable.
#
#   scripts/npb.sh SUITE_DIR [--classes "S W A B C"] [--bench "BT CG EP FT LU MG SP"]
#                  [--accc PATH] [--accc-flags FLAGS] [--no-gcc] [--jobs N] [--timeout SECONDS]
#                  [--build-only OUTDIR [--pack]] [--out OUTDIR] [--keep-work]
#
# SUITE_DIR is NPB-ACC's folder (../shared/suites/NPB-ACC). Each build is
#   make CC=accc CLINK=accc CFLAGS="-O3 -fgnu89-inline" CLINKFLAGS=-O3 UCC=cc CLASS=X
# in BENCH/BENCH (LU: LU/LU-HP) of a fresh copy; classes B and C add -mcmodel=medium
# to both flags (FT's arrays pass 2 GiB). The gcc build uses the same make line with
# CC=CLINK=gcc and -fopenacc -foffload=disable added (NPB-ACC calls acc_init, so
# plain gcc does not link it); only its build time is reported (--no-gcc: none).
# --accc-flags adds flags to accc's CFLAGS and CLINKFLAGS (e.g. --backend=cuda: the
# nvcc path, whose table is set beside the default path's).
# Build times are the whole make's wall time (sys/setparams and common/ included);
# with --jobs N > 1 builds run side by side and the times include that load.
#
# Split in two (build here, run on a GPU machine without Rust or network):
#   scripts/npb.sh SUITE_DIR --build-only OUTDIR [--pack] …   then, anywhere:
#   bash OUTDIR/run.sh [--timeout SECONDS]      (ACC_DEVICE_TYPE=nvidia: no host fallback)
# OUTDIR holds bin/ (binaries, stripped of debug info, and the runtime's CUDA plugin
# libptxrt-cuda.so next to them, where the runtime looks first), builds.tsv, logs/
# and run.sh (scripts/npb-run.sh: runs each binary with ulimit -s unlimited and
# prints the table). --pack replaces bin/ by bin.tar.xz (the binaries share most of
# their bytes; run.sh unpacks it), for carrying. Without --build-only, OUTDIR is
# --out or a temporary folder, and run.sh runs at once.
#
# --accc defaults to target/release/accc (built with cargo when missing). A build
# that fails is a row saying so (its log is in OUTDIR/logs). Exit status: 0 when
# every build succeeded (--build-only) or every row verified SUCCESSFUL.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
usage() { sed -n '2,34p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
die() { echo "npb.sh: $*" >&2; exit 2; }

suite=""
classes="S W A B C"
benches="BT CG EP FT LU MG SP"
accc=""
accc_flags=""
gcc_too=1
jobs=1
timeout_s=900
build_only=""
out=""
pack=0
keep_work=0
while [ $# -gt 0 ]; do
    case "$1" in
        --classes) classes="${2:-}"; shift 2 ;;
        --bench) benches="${2:-}"; shift 2 ;;
        --accc) accc="${2:-}"; shift 2 ;;
        --accc-flags) accc_flags="${2:-}"; shift 2 ;;
        --no-gcc) gcc_too=0; shift ;;
        --jobs) jobs="${2:-}"; shift 2 ;;
        --timeout) timeout_s="${2:-}"; shift 2 ;;
        --build-only) build_only="${2:-}"; shift 2 ;;
        --out) out="${2:-}"; shift 2 ;;
        --pack) pack=1; shift ;;
        --keep-work) keep_work=1; shift ;;
        -h|--help) usage; exit 0 ;;
        -*) die "unknown option '$1' (see --help)" ;;
        *) [ -z "$suite" ] || die "one SUITE_DIR only ('$suite', '$1')"; suite="$1"; shift ;;
    esac
done
[ -n "$suite" ] || { usage >&2; exit 2; }
[ -d "$suite" ] || die "$suite: no such folder (NPB-ACC: ../shared/suites/NPB-ACC)"
suite="$(cd "$suite" && pwd)"
for c in $classes; do
    case "$c" in S|W|A|B|C) ;; *) die "unknown class '$c' (S W A B C)" ;; esac
done
for b in $benches; do
    case "$b" in BT|CG|EP|FT|LU|MG|SP) ;; *) die "unknown benchmark '$b' (BT CG EP FT LU MG SP)" ;; esac
    [ -d "$suite/$b" ] || die "$suite/$b: no such folder"
done
case "$jobs" in ''|*[!0-9]*|0) die "--jobs takes a positive number" ;; esac
[ "$pack" = 0 ] || [ -n "$build_only" ] || die "--pack goes with --build-only"

if [ -z "$accc" ]; then
    accc="$ROOT/target/release/accc"
    if [ ! -x "$accc" ]; then
        if ! command -v cargo >/dev/null 2>&1; then export PATH="$HOME/.cargo/bin:$PATH"; fi
        echo "==> cargo build --release --workspace" >&2
        (cd "$ROOT" && cargo build --release --workspace) || die "cannot build accc"
    fi
fi
[ -x "$accc" ] || die "$accc: not an executable"
accc="$(cd "$(dirname "$accc")" && pwd)/$(basename "$accc")"
# The runtime's CUDA plugin, where accc's libptxrt.a is (target/<profile>, PREFIX/lib).
plugin=""
for p in "$(dirname "$accc")"/libptxrt_cuda.so "$(dirname "$accc")"/libptxrt-cuda.so \
    "$(dirname "$accc")"/../lib/libptxrt-cuda.so; do
    if [ -f "$p" ]; then plugin="$p"; break; fi
done
[ -n "$plugin" ] || echo "npb.sh: WARNING: no libptxrt-cuda.so next to $accc: the binaries will find no GPU plugin" >&2

outdir="${build_only:-$out}"
if [ -z "$outdir" ]; then
    outdir="$(mktemp -d "${TMPDIR:-/tmp}/npb-out.XXXXXX")"
fi
mkdir -p "$outdir" || die "cannot make $outdir"
outdir="$(cd "$outdir" && pwd)"
rm -rf "$outdir/bin" "$outdir/bin.tar.xz" "$outdir/logs" "$outdir/builds.tsv" "$outdir/table.txt"
mkdir -p "$outdir/bin" "$outdir/logs" "$outdir/.rows"
work="$(mktemp -d "${TMPDIR:-/tmp}/npb-work.XXXXXX")"
cleanup() {
    rm -rf "$outdir/.rows"
    if [ "$keep_work" = 1 ]; then echo "npb.sh: build copies kept in $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

# secs_since START: seconds (two decimals) since START (date +%s.%N).
secs_since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }'; }

# make_one COMPILER_KIND BENCH CLASS: a fresh copy of the benchmark built by
# `make` with the kind's flags; prints the build time, fails when make does.
make_one() {
    local kind="$1" bench="$2" class="$3"
    local copy="$work/$kind/$bench.$class" sub="$bench" cflags ldflags cc
    [ "$bench" = LU ] && sub="LU-HP"
    rm -rf "$copy" && mkdir -p "$copy" && cp -R "$suite/$bench/." "$copy/" || return 1
    cflags="-O3 -fgnu89-inline"
    ldflags="-O3"
    if [ "$kind" = gcc ]; then
        cc=gcc
        cflags="$cflags -fopenacc -foffload=disable"
        ldflags="$ldflags -fopenacc -foffload=disable"
    else
        cc="$accc"
        cflags="$cflags $accc_flags"
        ldflags="$ldflags $accc_flags"
    fi
    case "$class" in B|C) cflags="$cflags -mcmodel=medium"; ldflags="$ldflags -mcmodel=medium" ;; esac
    local start
    start="$(date +%s.%N)"
    (cd "$copy/$sub" && make CC="$cc" CLINK="$cc" CFLAGS="$cflags" CLINKFLAGS="$ldflags" \
        UCC=cc CLASS="$class") </dev/null >"$outdir/logs/$bench.$class.$kind.log" 2>&1 || return 1
    secs_since "$start"
}

# build_one BENCH CLASS: the accc build (binary into bin/) and the gcc build;
# writes the row of builds.tsv to .rows/.
build_one() {
    local bench="$1" class="$2" lower binary="-" built="failed" accc_s="-" gcc_s="-"
    lower="$(echo "$bench" | tr '[:upper:]' '[:lower:]')"
    local sub="$bench"
    [ "$bench" = LU ] && sub="LU-HP"
    if accc_s="$(make_one accc "$bench" "$class")"; then
        local exe="$work/accc/$bench.$class/$sub/$lower.$class.x"
        if [ -x "$exe" ]; then
            binary="$lower.$class.x"
            built="ok"
            cp "$exe" "$outdir/bin/$binary"
            strip --strip-debug "$outdir/bin/$binary" 2>/dev/null || true
        else
            echo "npb.sh: make succeeded but made no $lower.$class.x" >>"$outdir/logs/$bench.$class.accc.log"
            accc_s="-"
        fi
    else
        accc_s="failed"
    fi
    if [ "$gcc_too" = 1 ]; then
        gcc_s="$(make_one gcc "$bench" "$class")" || gcc_s="failed"
    fi
    rm -rf "$work/accc/$bench.$class" "$work/gcc/$bench.$class"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$bench" "$class" "$binary" "$built" "$accc_s" "$gcc_s" \
        "logs/$bench.$class.accc.log" >"$outdir/.rows/$bench.$class"
    local also=""
    [ "$gcc_too" = 1 ] && also=", gcc $gcc_s s"
    echo "built $bench $class: accc $accc_s s$also ($built)" >&2
}

order=()
for b in $benches; do
    for c in $classes; do
        order+=("$b $c")
    done
done
running=0
for bc in "${order[@]}"; do
    # shellcheck disable=SC2086
    build_one $bc &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait -n
        running=$((running - 1))
    fi
done
wait

printf 'bench\tclass\tbinary\tbuilt\taccc_s\tgcc_s\tlog\n' >"$outdir/builds.tsv"
failed_builds=0
for bc in "${order[@]}"; do
    read -r b c <<<"$bc"
    row="$outdir/.rows/$b.$c"
    if [ ! -f "$row" ]; then
        # The build job itself died: still a row.
        printf '%s\t%s\t-\tfailed\t-\t-\tlogs/%s.%s.accc.log\n' "$b" "$c" "$b" "$c" >"$row"
    fi
    cat "$row" >>"$outdir/builds.tsv"
    [ "$(cut -f4 "$row")" = ok ] || failed_builds=$((failed_builds + 1))
done
if [ -n "$plugin" ]; then
    cp "$plugin" "$outdir/bin/libptxrt-cuda.so"
fi
cp "$ROOT/scripts/npb-run.sh" "$outdir/run.sh"
chmod +x "$outdir/run.sh"

if [ -n "$build_only" ]; then
    if [ "$pack" = 1 ]; then
        echo "==> packing bin/ into bin.tar.xz" >&2
        (cd "$outdir" && tar -cf - bin | xz -T0 -6 >bin.tar.xz) && rm -rf "$outdir/bin" \
            || die "cannot pack $outdir/bin"
    fi
    echo "npb.sh: built ${#order[@]} benchmark × class ($failed_builds failed) into $outdir; run: bash $outdir/run.sh" >&2
    [ "$failed_builds" -eq 0 ]
    exit
fi
bash "$outdir/run.sh" --timeout "$timeout_s"

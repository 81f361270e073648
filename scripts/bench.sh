#!/usr/bin/env bash
# Builds the benchmark bundle, .gpu/bench/, to carry to the GPU machine and run
# there with `bash .gpu/bench/run.sh` (see benchmarks/README.md).
#
# For every benchmarks/<name>/<name>.c this builds, here:
#   bin/<name>.accc    accc -O3                                  (libptxrt-cuda.so beside it)
#   bin/<name>.nvcc    accc -O3 --backend=cuda: the same program, kernels through nvcc
#                      (the nvcc path; accc finds nvcc as $ACCC_NVCC, on PATH or in .tools/pip)
#   bin/<name>.gcc     gcc -O3 -fopenacc -foffload=nvptx-none    (lib/: libgomp + its nvptx plugin)
#   bin/<name>.serial  cc -O3, pragmas ignored
# A variant that does not build is recorded in build/<name>.<variant>.log and
# shows as "does not build" in the table. The CUDA references (<name>.cu) are
# copied to src/ and compiled by run.sh with the GPU machine's nvcc.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
bash scripts/setup.sh
if ! command -v cargo >/dev/null 2>&1; then export PATH="$HOME/.cargo/bin:$PATH"; fi

# GCC's OpenACC offloading to NVPTX (Debian packages).
if ! dpkg-query -W -f='${Status}' gcc-12-offload-nvptx 2>/dev/null | grep -q "ok installed" ||
   ! dpkg-query -W -f='${Status}' libgomp-plugin-nvptx1 2>/dev/null | grep -q "ok installed"; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -q
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q gcc-12-offload-nvptx libgomp-plugin-nvptx1
fi

echo "==> cargo build --release --workspace"
cargo build --release --workspace

OUT="$ROOT/.gpu/bench"
rm -rf "$OUT"
mkdir -p "$OUT/bin" "$OUT/lib" "$OUT/src/common" "$OUT/build"
cp "$ROOT/target/release/libptxrt_cuda.so" "$OUT/bin/libptxrt-cuda.so"
for lib in libgomp.so.1 libgomp-plugin-nvptx.so.1; do
    path="$(gcc -print-file-name="$lib")"
    [ -f "$path" ] || path="/usr/lib/x86_64-linux-gnu/$lib"
    cp -L "$path" "$OUT/lib/$lib"
done
cp benchmarks/common/bench.h benchmarks/common/devcopy.cu "$OUT/src/common/"
cp benchmarks/report.py benchmarks/kernels.py "$OUT/"
[ -x .tools/pip/nvidia/cu13/bin/ptxas ] && export ACCC_REQUIRE_PTXAS=1

: >"$OUT/benchmarks.txt"
for dir in benchmarks/*/; do
    name="$(basename "$dir")"
    src="$dir$name.c"
    [ -f "$src" ] || continue
    echo "$name" >>"$OUT/benchmarks.txt"
    mkdir -p "$OUT/src/$name"
    cp "$dir"runs "$OUT/src/$name/runs" 2>/dev/null || echo "" >"$OUT/src/$name/runs"
    [ -f "$dir$name.cu" ] && cp "$dir$name.cu" "$OUT/src/$name/"
    build() { # variant, command...
        local v="$1"; shift
        if "$@" >"$OUT/build/$name.$v.log" 2>&1; then
            echo "built $name.$v"
        else
            echo "FAILED $name.$v (build/$name.$v.log)"
            rm -f "$OUT/bin/$name.$v"
        fi
    }
    build accc "$ROOT/target/release/accc" -O3 "$src" -o "$OUT/bin/$name.accc" -lm
    # The runtime's symbols are most of an unstripped binary (the bundle must fit a device call).
    [ -f "$OUT/bin/$name.accc" ] && strip "$OUT/bin/$name.accc"
    build nvcc "$ROOT/target/release/accc" -O3 --backend=cuda "$src" -o "$OUT/bin/$name.nvcc" -lm
    [ -f "$OUT/bin/$name.nvcc" ] && strip "$OUT/bin/$name.nvcc"
    build gcc gcc -O3 -fopenacc -foffload=nvptx-none -foffload=-lm -foffload=-O3 "$src" -o "$OUT/bin/$name.gcc" -lm
    build serial cc -O3 "$src" -o "$OUT/bin/$name.serial" -lm
done
cp scripts/bench-run.sh "$OUT/run.sh"
echo "==> bench bundle: $OUT ($(du -sh "$OUT" | cut -f1)); on the GPU machine: bash .gpu/bench/run.sh"

#!/usr/bin/env bash
# install.sh — install accc into a prefix, the layout a cc user expects:
#
#   PREFIX/bin/accc                 the compiler
#   PREFIX/lib/libptxrt.a           the runtime every accc program links
#   PREFIX/lib/libptxrt-cuda.so     the CUDA plugin the runtime dlopens
#   PREFIX/lib/libptxrt-emu.so      the emulated device (PTXRT_PLUGIN=..., accc -gpu=emu)
#   PREFIX/include/openacc.h, acc_prof.h, ptxrt.h
#   PREFIX/lib/accc/ptxas, libdevice.10.bc   (when scripts/setup.sh fetched them)
#
# Usage: scripts/install.sh --prefix DIR [--profile release|debug] [--no-build]
# Builds the workspace first (cargo build --workspace, release by default)
# unless --no-build. accc finds everything relative to its own executable,
# so the prefix can be moved; `cargo build` output also works in place
# (target/<profile>/accc).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
prefix=""
profile="release"
build=1
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) prefix="${2:-}"; shift 2 ;;
        --prefix=*) prefix="${1#--prefix=}"; shift ;;
        --profile) profile="${2:-}"; shift 2 ;;
        --profile=*) profile="${1#--profile=}"; shift ;;
        --no-build) build=0; shift ;;
        -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
[ -n "$prefix" ] || { echo "install.sh: --prefix DIR is required" >&2; exit 2; }
case "$profile" in release|debug) ;; *) echo "install.sh: --profile is release or debug" >&2; exit 2 ;; esac

if [ "$build" = 1 ]; then
    if ! command -v cargo >/dev/null 2>&1; then export PATH="$HOME/.cargo/bin:$PATH"; fi
    flag=""
    [ "$profile" = release ] && flag="--release"
    (cd "$ROOT" && cargo build $flag --workspace)
fi

out="$ROOT/target/$profile"
for f in accc libptxrt.a libptxrt_cuda.so libptxrt_emu.so; do
    [ -f "$out/$f" ] || { echo "install.sh: $out/$f is missing (build first, or drop --no-build)" >&2; exit 1; }
done

mkdir -p "$prefix/bin" "$prefix/lib/accc" "$prefix/include"
install -m 755 "$out/accc" "$prefix/bin/accc"
install -m 644 "$out/libptxrt.a" "$prefix/lib/libptxrt.a"
install -m 755 "$out/libptxrt_cuda.so" "$prefix/lib/libptxrt-cuda.so"
install -m 755 "$out/libptxrt_emu.so" "$prefix/lib/libptxrt-emu.so"
install -m 644 "$ROOT/ptx-runtime/include/openacc.h" "$ROOT/ptx-runtime/include/acc_prof.h" "$ROOT/ptx-runtime/include/ptxrt.h" "$prefix/include/"
pip="$ROOT/.tools/pip/nvidia/cu13"
[ -x "$pip/bin/ptxas" ] && install -m 755 "$pip/bin/ptxas" "$prefix/lib/accc/ptxas"
[ -f "$pip/nvvm/libdevice/libdevice.10.bc" ] && install -m 644 "$pip/nvvm/libdevice/libdevice.10.bc" "$prefix/lib/accc/libdevice.10.bc"
echo "install.sh: installed accc into $prefix ($("$prefix/bin/accc" --version | head -n1))"

#!/usr/bin/env bash
# Installs everything accc needs to build and test, project-locally where possible.
# Idempotent: when everything is already there it only checks and returns.
#
#   system (apt):  LLVM 22 development files (inkwell links LLVM statically), the
#                  libraries llvm-config-22 --system-libs names, a host C compiler
#   rust:          rustup components rustfmt and clippy
#   .tools/pip:    ptxas, nvcc and libdevice from PyPI (nvidia-cuda-nvcc, nvidia-nvvm),
#                  and the CUDA runtime headers nvcc includes (nvidia-cuda-runtime,
#                  nvidia-cuda-crt: the nvcc path, --backend=cuda), pinned to
#                  CUDA 13.0 to match the GPU machine's driver
#   cargo:         cargo fetch, then the stub libcuda (scripts/stub-libcuda.sh) so the
#                  CUDA plugin links without a CUDA toolkit
set -euo pipefail
export PIP_ROOT_USER_ACTION=ignore

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

CUDA_PIP_VERSION="13.0.88"
PIP_DIR="$ROOT/.tools/pip"
PTXAS="$PIP_DIR/nvidia/cu13/bin/ptxas"
LIBDEVICE="$PIP_DIR/nvidia/cu13/nvvm/libdevice/libdevice.10.bc"
CUDA_RUNTIME_H="$PIP_DIR/nvidia/cu13/include/cuda_runtime.h"
PIP_STAMP="$PIP_DIR/.accc-cuda-$CUDA_PIP_VERSION"

APT_PACKAGES=(
    build-essential
    llvm-22-dev
    libpolly-22-dev
    zlib1g-dev
    libzstd-dev
    libxml2-dev
    libffi-dev
    libncurses-dev
    libz3-dev
    python3
)

say() { printf 'setup: %s\n' "$*"; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }

as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        die "need root for: $* (no sudo available)"
    fi
}

# --- system packages -------------------------------------------------------
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
        missing+=("$pkg")
    fi
done
if ! command -v python3 >/dev/null 2>&1 || ! python3 -m pip --version >/dev/null 2>&1; then
    if ! dpkg-query -W -f='${Status}' python3-pip 2>/dev/null | grep -q 'install ok installed'; then
        missing+=(python3-pip)
    fi
fi
if [ "${#missing[@]}" -gt 0 ]; then
    command -v apt-get >/dev/null 2>&1 || die "missing packages ${missing[*]} and no apt-get"
    say "installing system packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    # Update the package lists only when a package is unknown to the current ones.
    need_update=0
    for pkg in "${missing[@]}"; do
        cand="$(apt-cache policy "$pkg" 2>/dev/null | awk '/Candidate:/ {print $2}')"
        if [ -z "$cand" ] || [ "$cand" = "(none)" ]; then need_update=1; fi
    done
    if [ "$need_update" -eq 1 ]; then
        say "apt-get update"
        as_root apt-get update -q
    fi
    as_root apt-get install -y -q --no-install-recommends "${missing[@]}"
else
    say "system packages present"
fi
command -v llvm-config-22 >/dev/null 2>&1 || die "llvm-config-22 not found after installing llvm-22-dev"

# --- rust toolchain --------------------------------------------------------
if ! command -v cargo >/dev/null 2>&1 && [ -x "$HOME/.cargo/bin/cargo" ]; then
    export PATH="$HOME/.cargo/bin:$PATH"
fi
if ! command -v cargo >/dev/null 2>&1; then
    command -v curl >/dev/null 2>&1 || as_root apt-get install -y -q curl
    say "installing the Rust toolchain with rustup"
    curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
    export PATH="$HOME/.cargo/bin:$PATH"
fi
if command -v rustup >/dev/null 2>&1; then
    installed="$(rustup component list --installed 2>/dev/null || true)"
    for comp in rustfmt clippy; do
        if ! grep -q "^$comp" <<<"$installed"; then
            say "rustup component add $comp"
            rustup component add "$comp"
        fi
    done
else
    for tool in rustfmt cargo-clippy; do
        command -v "$tool" >/dev/null 2>&1 || die "$tool missing and no rustup to install it"
    done
fi

# --- ptxas and libdevice from PyPI -----------------------------------------
if [ -f "$PIP_STAMP" ] && [ -x "$PTXAS" ] && [ -f "$LIBDEVICE" ] && [ -f "$CUDA_RUNTIME_H" ]; then
    say "ptxas, nvcc and libdevice present (CUDA $CUDA_PIP_VERSION)"
else
    say "installing ptxas, nvcc, libdevice and the CUDA headers (CUDA $CUDA_PIP_VERSION) into .tools/pip"
    rm -rf "$PIP_DIR"
    mkdir -p "$PIP_DIR"
    # --no-deps: only the compilers, libdevice and the headers nvcc includes
    # (all four wheels install into nvidia/cu13, where nvcc.profile looks).
    python3 -m pip install --quiet --disable-pip-version-check --no-deps \
        --target "$PIP_DIR" \
        "nvidia-cuda-nvcc==$CUDA_PIP_VERSION" "nvidia-nvvm==$CUDA_PIP_VERSION" \
        "nvidia-cuda-runtime==$CUDA_PIP_VERSION" "nvidia-cuda-crt==$CUDA_PIP_VERSION"
    [ -x "$PTXAS" ] || die "ptxas not found at $PTXAS after pip install"
    [ -f "$LIBDEVICE" ] || die "libdevice not found at $LIBDEVICE after pip install"
    [ -f "$CUDA_RUNTIME_H" ] || die "cuda_runtime.h not found at $CUDA_RUNTIME_H after pip install"
    touch "$PIP_STAMP"
fi

# --- cargo dependencies and the stub libcuda --------------------------------
say "cargo fetch"
cargo fetch --quiet
if [ -f "$ROOT/scripts/stub-libcuda.sh" ]; then
    bash "$ROOT/scripts/stub-libcuda.sh"
else
    say "scripts/stub-libcuda.sh not found; skipping the stub libcuda"
fi

say "ptxas:     $PTXAS"
say "libdevice: $LIBDEVICE"
say "llvm:      $(command -v llvm-config-22) ($(llvm-config-22 --version))"
say "done"

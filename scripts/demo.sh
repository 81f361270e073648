#!/usr/bin/env bash
# Builds accc (release), compiles examples/saxpy.c with it and runs the program,
# saying whether its kernel ran on the GPU or through the host fallback.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

bash scripts/setup.sh
if ! command -v cargo >/dev/null 2>&1; then export PATH="$HOME/.cargo/bin:$PATH"; fi

echo "==> cargo build --release --workspace"
cargo build --release --workspace

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

echo "==> target/release/accc -O2 examples/saxpy.c -o saxpy"
"$ROOT/target/release/accc" -O2 "$ROOT/examples/saxpy.c" -o "$WORK/saxpy"

echo "==> PTXRT_NOTIFY=1 ./saxpy"
rc=0
PTXRT_NOTIFY=1 "$WORK/saxpy" 2>"$WORK/stderr" || rc=$?
grep -v '^ptxrt: ' "$WORK/stderr" >&2 || true
grep '^ptxrt: launch' "$WORK/stderr" | head -n 5 || true
if [ "$rc" -ne 0 ]; then
    echo "demo: saxpy failed (exit status $rc)" >&2
    exit "$rc"
fi

if grep -q '^ptxrt: launch' "$WORK/stderr"; then
    device="$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n1 || true)"
    echo "saxpy ran on the GPU (${device:-NVIDIA GPU})"
else
    # PTXRT_DEBUG=1 makes the runtime say why it did not use a device.
    why="$(PTXRT_DEBUG=1 "$WORK/saxpy" 2>&1 >/dev/null | grep '^ptxrt: ' | grep -v '^ptxrt: launch' | tail -n 1 || true)"
    why="${why#ptxrt: }"
    if [ -z "$why" ]; then
        if command -v nvidia-smi >/dev/null 2>&1; then why="the runtime did not use the device"; else why="no NVIDIA driver"; fi
    fi
    echo "saxpy ran on the host (no usable GPU: $why)"
fi

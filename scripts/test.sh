#!/usr/bin/env bash
# The CI entry point (.ci/run): setup, build, format check, clippy, tests.
# Exits non-zero on the first failing step; the last line says what happened.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

step=""
rc=0
trap 'rc=$?; if [ "$rc" -ne 0 ]; then echo "test.sh: FAILED at: $step (exit $rc)" >&2; fi' EXIT

run() {
    step="$*"
    printf '\n==> %s\n' "$step"
    "$@"
}

run bash scripts/setup.sh
if ! command -v cargo >/dev/null 2>&1; then export PATH="$HOME/.cargo/bin:$PATH"; fi
run cargo build --workspace
run cargo fmt --all -- --check
run cargo clippy --workspace --all-targets -- -D warnings
run cargo test --workspace

step=""
echo "test.sh: all checks passed (build, fmt, clippy, tests)"

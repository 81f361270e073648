#!/usr/bin/env python3
"""compare.py EXPECTED ACTUAL TOL: token-wise comparison of two program outputs.

Tokens are whitespace-separated; floating tokens (spelled with . e E inf nan) may
differ by a relative tolerance, every other token must be equal. TOL is "A" (every
floating token) or "A B" (A for tokens of up to 9 digits such as %.6e, B for longer
ones such as %.15e), as tests/common/mod.rs reads `// tolerance:`. Exit 0 when they
match, else 1 with the first difference on stdout.

Copied into the GPU bundle (scripts/gpu-bundle.sh) and the race hunt
(scripts/difftest-hunt.sh), whose runner imports `difference`. Python 3 standard
library only: it runs on the GPU machine.
"""
import math
import sys


def as_float(tok):
    low = tok.lower()
    if not any(c in low for c in ".e") and "inf" not in low and "nan" not in low:
        return None
    try:
        return float(tok)
    except ValueError:
        return None


def tokens(text):
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        out.extend((n, t) for t in line.split())
    return out


def tol_for(tok, short, long):
    mantissa = tok.replace("E", "e").split("e")[0]
    return long if sum(c.isdigit() for c in mantissa) > 9 else short


def same(want, got, short, long):
    if want == got:
        return True
    tol = max(tol_for(want, short, long), tol_for(got, short, long))
    w, g = as_float(want), as_float(got)
    if w is None or g is None or tol <= 0:
        return False
    if math.isnan(w) or math.isnan(g):
        return math.isnan(w) and math.isnan(g)
    return abs(w - g) <= tol * max(abs(w), abs(g))


def difference(want_text, got_text, tol):
    """The first difference between two outputs (strings), or None when they
    match; `tol` as the TOL argument."""
    want, got = tokens(want_text), tokens(got_text)
    tols = [float(t) for t in tol.split()] or [0.0]
    short, long = tols[0], tols[-1]
    for i, ((wl, wt), (gl, gt)) in enumerate(zip(want, got), 1):
        if not same(wt, gt, short, long):
            return (
                f"token {i} differs: expected '{wt}' (line {wl}), got '{gt}' "
                f"(line {gl}), tolerance {tol}"
            )
    if len(want) != len(got):
        return f"expected {len(want)} tokens, got {len(got)}"
    return None


def main():
    def read(path):
        with open(path, errors="replace") as f:
            return f.read()

    why = difference(read(sys.argv[1]), read(sys.argv[2]), sys.argv[3])
    if why is not None:
        print(why)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

//! Unit tests of the flatten pass: the shapes it produces (from the text
//! form) and the addresses they compute (by evaluation).

use crate::ir::*;

/// `text` read, flattened, and printed back (only the body lines).
fn flat(text: &str) -> String {
    let mut m = match read_module(text) {
        Ok(m) => m,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(join(&validate(&m, true)), "");
    flatten_indices(&mut m);
    assert_eq!(join(&validate(&m, true)), "");
    let printed = print_module(&m);
    assert!(!printed.contains("index."), "{printed}");
    printed
        .lines()
        .filter(|l| l.trim_start().starts_with("store"))
        .map(|l| l.trim().to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// A kernel whose parameters are `%0 p: PTY`, `%1 i`, `%2 j`, `%3 k`,
/// `%4 n` (all `i64`), storing 0 at `ADDR`.
fn kernel(pty: &str, addr: &str) -> String {
    format!(
        "module \"t.c\"\n\nkernel @k parallel \"parallel\" at t.c:1:1\n  launch grid=(1, 1, 1) block=(1, 1, 1)\n  \
         param %0 p: {pty} deviceptr\n  param %1 i: i64 value\n  param %2 j: i64 value\n  \
         param %3 k: i64 value\n  param %4 n: i64 value\n{{\n    store {addr} <- 0\n  }}\n"
    )
}

#[test]
fn one_dimension_is_one_ptradd() {
    let t = kernel("ptr<f64>", "index.f64(%0 p, [], %1 i)");
    assert_eq!(flat(&t), "store ptradd(%0 p, %1 i) <- 0");
}

#[test]
fn rows_become_the_chain_of_casts_and_ptradds() {
    let t = kernel(
        "ptr<[[i32; 4]; 3]>",
        "index.i32(%0 p, [3, 4], %1 i, -1, add.i64(%3 k, 2))",
    );
    assert_eq!(
        flat(&t),
        "store ptradd(cast.ptr<[i32; 4]>.ptr<i32>(ptradd(cast.ptr<[[i32; 4]; 3]>.ptr<[i32; 4]>(\
         ptradd(%0 p, %1 i)), -1)), add.i64(%3 k, 2)) <- 0"
    );
}

#[test]
fn a_flat_base_or_a_runtime_extent_gives_the_linear_offset() {
    let t = kernel("ptr<f32>", "index.f32(%0 p, [%4 n, 8], %1 i, %2 j, %3 k)");
    assert_eq!(
        flat(&t),
        "store ptradd(%0 p, add.i64(mul.i64(add.i64(mul.i64(%1 i, %4 n), %2 j), 8), %3 k)) <- 0"
    );
}

/// The byte address an address expression computes, with local `l` of
/// pointer type at `0x1000 * (l + 1)` and integer locals from `ints`.
fn address(f: &Function, e: ExprId, ints: &[i128]) -> i128 {
    let ty = f.ty(e);
    match f.expr(e) {
        Expr::Literal(Literal::Int(v)) => *v,
        Expr::Local(l) if matches!(f.local(*l).ty, Type::Ptr(_)) => 0x1000 * (i128::from(l.0) + 1),
        Expr::Local(l) => ints[l.0 as usize],
        Expr::Cast(a) => address(f, *a, ints),
        Expr::Unary { op: UnOp::Neg, arg } => -address(f, *arg, ints),
        Expr::Binary { op, lhs, rhs } => {
            let (a, b) = (address(f, *lhs, ints), address(f, *rhs, ints));
            match op {
                BinOp::Add => a + b,
                BinOp::Mul => a * b,
                BinOp::Sub => a - b,
                _ => panic!("{op:?}"),
            }
        }
        Expr::PtrAdd { base, index } => {
            let size = i128::from(ty.pointee().map_or(0, Type::size));
            address(f, *base, ints) + size * address(f, *index, ints)
        }
        Expr::Index(ix) => {
            let elem = ty.pointee().map_or(0, Type::size);
            let strides = ix.byte_strides(elem);
            let mut a = address(f, ix.base, ints);
            for (s, st) in ix.subs.iter().zip(strides) {
                a += address(f, *s, ints)
                    * i128::from(st.unwrap_or_else(|| {
                        // Run-time extents: only `%4 n` here.
                        let inner: u64 = ix.extents[1..]
                            .iter()
                            .map(|e| match e {
                                Extent::Const(c) => *c,
                                Extent::Dyn(_) => 1,
                            })
                            .product();
                        (ints[4] as u64) * inner * elem
                    }));
            }
            a
        }
        x => panic!("{x:?}"),
    }
}

/// The address stored to, before and after flattening, for subscripts
/// `i, j, k` (and `n` = 5).
fn both(text: &str, ijk: [i128; 3]) -> (i128, i128) {
    let m = read_module(text).unwrap_or_else(|e| panic!("{e}"));
    let ints = [0, ijk[0], ijk[1], ijk[2], 5];
    let at = |m: &Module| {
        let f = &m.kernels[0].body;
        match &f.body[..] {
            [Stmt::Store { ptr, .. }] => address(f, *ptr, &ints),
            b => panic!("{b:?}"),
        }
    };
    let mut flat = m.clone();
    flatten_indices(&mut flat);
    (at(&m), at(&flat))
}

#[test]
fn flattened_addresses_are_the_indexed_ones() {
    let cases = [
        kernel(
            "ptr<[[f64; 4]; 3]>",
            "index.f64(%0 p, [3, 4], %1 i, %2 j, %3 k)",
        ),
        kernel("ptr<f64>", "index.f64(%0 p, [3, 4], %1 i, %2 j, %3 k)"),
        kernel("ptr<i16>", "index.i16(%0 p, [%4 n, 7], %1 i, %2 j, %3 k)"),
        kernel("ptr<[u8; 6]>", "index.u8(%0 p, [6], %1 i, %3 k)"),
        kernel("ptr<f32>", "index.f32(%0 p, [], %2 j)"),
    ];
    for t in &cases {
        for ijk in [[0, 0, 0], [1, 2, 3], [-1, 3, -2], [2, -5, 9], [-3, -1, -1]] {
            let (indexed, flattened) = both(t, ijk);
            assert_eq!(indexed, flattened, "{t} at {ijk:?}");
        }
    }
    // Negative subscripts: p[1][-1][0] of rows of [3][4] doubles is p[0][2][0].
    let t = &cases[0];
    assert_eq!(both(t, [1, -1, 0]).0, both(t, [0, 2, 0]).0);
    assert_eq!(both(t, [1, -1, 0]).1, 0x1000 + 8 * (12 - 4));
}

#[test]
fn flattened_borrows_a_module_without_indices() {
    let t = kernel("ptr<f64>", "ptradd(%0 p, %1 i)");
    let m = read_module(&t).unwrap_or_else(|e| panic!("{e}"));
    assert!(matches!(flattened(&m), std::borrow::Cow::Borrowed(_)));
    let t = kernel("ptr<f64>", "index.f64(%0 p, [], %1 i)");
    let m = read_module(&t).unwrap_or_else(|e| panic!("{e}"));
    assert!(matches!(flattened(&m), std::borrow::Cow::Owned(_)));
}

#[test]
fn the_validator_checks_indices() {
    let bad = [
        (
            "index.f64(%0 p, [4], %1 i)",
            "1 subscripts for 1 inner extents",
        ),
        (
            "index.f64(%0 p, [], cast.i64.i32(%1 i))",
            "subscript is not a 64-bit integer",
        ),
        ("index.f64(%0 p, [3.i32], %1 i, %2 j)", "extent is not i64"),
    ];
    for (addr, want) in bad {
        let m = read_module(&kernel("ptr<f64>", addr)).unwrap_or_else(|e| panic!("{e}"));
        let p = join(&validate(&m, true));
        assert!(p.contains(want), "{addr}: {p}");
    }
    let m = read_module(&kernel("ptr<[f64; 5]>", "index.f64(%0 p, [4], %1 i, %2 j)"))
        .unwrap_or_else(|e| panic!("{e}"));
    let p = join(&validate(&m, true));
    assert!(
        p.contains("neither ptr<f64> nor a pointer to its outermost row"),
        "{p}"
    );
}

/// The validator's messages, one a line.
fn join(errs: &[crate::ir::ValidationError]) -> String {
    errs.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

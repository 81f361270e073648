//! Schedule tests: hand-built loops are scheduled, validated, printed
//! (snapshots) and run by a small interpreter over several launch sizes to
//! check that every iteration runs exactly once.

mod interp;

use super::schedule;
use crate::ir::*;
use interp::{norm, run_grid};

const GV: Parallelism = Parallelism::Par {
    gang: Some(0),
    worker: false,
    vector: Some(0),
};

/// `for (i = init; i cmp limit; i += step) { [if (i % 2 == 0) continue;] *a = (i64)i; }`
/// with an index of kind `k`.
fn kernel(par: Parallelism, k: IntKind, cmp: LoopCmp, b: [i128; 3], skip_even: bool) -> Module {
    let t = Type::Int(k);
    let mut f = Function::default();
    let a = f.new_local("a", Type::I64.ptr_to());
    let i = f.new_local("i", t.clone());
    let init = f.int(b[0], t.clone());
    let limit = f.int(b[1], t.clone());
    let step = f.int(b[2], t.clone());
    let mut body = vec![];
    if skip_even {
        let iv = f.read(i);
        let two = f.int(2, t.clone());
        let r = f.add(
            Expr::Binary {
                op: BinOp::Rem,
                lhs: iv,
                rhs: two,
            },
            t.clone(),
        );
        let zero = f.int(0, t.clone());
        let c = f.add(
            Expr::Cmp {
                op: CmpOp::Eq,
                lhs: r,
                rhs: zero,
            },
            Type::BOOL,
        );
        body.push(Stmt::If {
            cond: c,
            then: vec![Stmt::Continue],
            otherwise: vec![],
            single: false,
        });
    }
    let ptr = f.read(a);
    let iv = f.read(i);
    let value = if t == Type::I64 {
        iv
    } else {
        f.add(Expr::Cast(iv), Type::I64)
    };
    body.push(Stmt::Store { ptr, value });
    f.body = vec![Stmt::Loop(Loop {
        var: i,
        init,
        cmp,
        limit,
        step,
        collapsed: vec![],
        tile: vec![],
        chunk: None,
        body,
        par,
        loc: SrcLoc::default(),
        sizes: None,
        directive: None,
        c_form: None,
        cache: vec![],
        reductions: vec![],
    })];
    module(f, a)
}

fn module(body: Function, a: LocalId) -> Module {
    Module {
        source: "t.c".into(),
        kernels: vec![Kernel {
            name: "k".into(),
            construct: "parallel loop".into(),
            loc: SrcLoc::default(),
            params: vec![Param {
                name: "a".into(),
                local: a,
                mode: ParamMode::DevicePtr,
                own: false,
            }],
            body,
            sizes: Default::default(),
            launch: Some(Launch {
                grid: [GridSize::Const(1), GridSize::Const(1), GridSize::Const(1)],
                block: [GridSize::Const(128), GridSize::Const(1), GridSize::Const(1)],
            }),
            scratch: None,
            kind: crate::ir::ComputeKind::Parallel,
        }],
        functions: vec![],
        cells: vec![],
        host: Default::default(),
        scheduled: false,
    }
}

fn scheduled(mut m: Module) -> Module {
    let info = crate::analysis::analyze(&m);
    schedule(&mut m, &info, &crate::schedule::Target::gpu(90));
    let errs = validate(&m, true);
    assert!(errs.is_empty(), "{errs:?}\n{}", print_module(&m));
    m
}

/// The iterations of the loop in OpenACC's meaning (no wrap-around; the
/// step is negative for `>`/`>=` even when the index is unsigned).
fn expected(k: IntKind, cmp: LoopCmp, b: [i128; 3], skip_even: bool) -> (Vec<i128>, bool) {
    let (mut i, limit) = (b[0], b[1]);
    let step = match cmp {
        LoopCmp::Gt | LoopCmp::Ge if !k.is_signed() => b[2] - (1i128 << k.bits()),
        _ => b[2],
    };
    let mut v = vec![];
    while match cmp {
        LoopCmp::Lt => i < limit,
        LoopCmp::Le => i <= limit,
        LoopCmp::Gt => i > limit,
        LoopCmp::Ge => i >= limit,
    } {
        if !(skip_even && i % 2 == 0) {
            v.push(norm(i, IntKind::I64));
        }
        i += step;
    }
    v.sort();
    // Whether C's loop (which wraps or overflows) would differ.
    (v, norm(i, k) != i)
}

const LAUNCHES: [(u32, [u32; 2]); 5] = [
    (1, [1, 1]),
    (1, [4, 1]),
    (3, [1, 1]),
    (2, [3, 2]),
    (5, [7, 3]),
];

#[test]
fn every_level_and_bound_runs_each_iteration_once() {
    use IntKind::*;
    let cases: Vec<(IntKind, LoopCmp, [i128; 3])> = vec![
        (I32, LoopCmp::Lt, [0, 10, 1]),
        (I32, LoopCmp::Le, [0, 10, 3]),
        (I32, LoopCmp::Gt, [10, 0, -1]),
        (I32, LoopCmp::Ge, [10, -5, -4]),
        (I32, LoopCmp::Lt, [5, 5, 1]),
        (I32, LoopCmp::Gt, [5, 7, -1]),
        (
            I32,
            LoopCmp::Lt,
            [i32::MIN.into(), i32::MAX.into(), 1 << 30],
        ),
        (
            I32,
            LoopCmp::Gt,
            [i32::MAX.into(), i32::MIN.into(), i32::MIN.into()],
        ),
        (I32, LoopCmp::Le, [i32::MAX.into(), i32::MAX.into(), 1]),
        (U32, LoopCmp::Lt, [0, 4_000_000_000, 1_000_000_000]),
        (U32, LoopCmp::Gt, [10, 0, norm(-3, U32)]),
        (
            U32,
            LoopCmp::Ge,
            [u32::MAX.into(), 0, norm(-(1 << 30), U32)],
        ),
        (U8, LoopCmp::Le, [250, 255, 2]),
        (I8, LoopCmp::Ge, [127, -128, -50]),
        (I16, LoopCmp::Lt, [-300, 300, 7]),
        (
            I64,
            LoopCmp::Lt,
            [i64::MIN.into(), i64::MAX.into(), 1 << 62],
        ),
        (
            I64,
            LoopCmp::Ge,
            [i64::MAX.into(), i64::MIN.into(), -(1 << 62)],
        ),
        (U64, LoopCmp::Lt, [0, u64::MAX.into(), 1 << 62]),
        (
            U64,
            LoopCmp::Gt,
            [u64::MAX.into(), 0, norm(-(1 << 63), U64)],
        ),
    ];
    for bits in 0..8u8 {
        let par = if bits == 0 {
            Parallelism::Seq
        } else {
            Parallelism::levels(bits & 1 != 0, bits & 2 != 0, bits & 4 != 0)
        };
        for &(k, cmp, b) in &cases {
            for skip in [false, true] {
                let m = scheduled(kernel(par, k, cmp, b, skip));
                let (want, wraps) = expected(k, cmp, b, skip);
                if wraps && par == Parallelism::Seq {
                    continue;
                }
                for (grid, block) in LAUNCHES {
                    let got = run_grid(&m.kernels[0].body, grid, block);
                    // Threads at the levels the loop is not shared among
                    // run its iterations redundantly.
                    let (g, w, v) = par.flags();
                    let n = [(g, grid), (w, block[1]), (v, block[0])]
                        .iter()
                        .map(|&(on, size)| if on { 1 } else { size as usize })
                        .product::<usize>();
                    let mut want: Vec<i128> = want
                        .iter()
                        .flat_map(|v| std::iter::repeat_n(*v, n))
                        .collect();
                    want.sort();
                    assert_eq!(
                        got,
                        want,
                        "{par:?} {k:?} {cmp:?} {b:?} skip={skip} grid={grid} block={block:?}\n{}",
                        print_module(&m)
                    );
                }
            }
        }
    }
}

#[test]
fn nested_gang_and_vector_loops_use_their_own_levels() {
    // for i in 0..5 gang { for j in 0..6 vector { *a = i * 100 + j } }
    let mut f = Function::default();
    let a = f.new_local("a", Type::I64.ptr_to());
    let i = f.new_local("i", Type::I64);
    let j = f.new_local("j", Type::I64);
    let ptr = f.read(a);
    let (iv, jv) = (f.read(i), f.read(j));
    let h = f.int(100, Type::I64);
    let m = f.add(
        Expr::Binary {
            op: BinOp::Mul,
            lhs: iv,
            rhs: h,
        },
        Type::I64,
    );
    let value = f.add(
        Expr::Binary {
            op: BinOp::Add,
            lhs: m,
            rhs: jv,
        },
        Type::I64,
    );
    let counted = |f: &mut Function, var, n, par, body| {
        let (init, limit, step) = (
            f.int(0, Type::I64),
            f.int(n, Type::I64),
            f.int(1, Type::I64),
        );
        Stmt::Loop(Loop::counted(var, [init, limit, step], par, body))
    };
    let vector = Parallelism::levels(false, false, true);
    let gang = Parallelism::levels(true, false, false);
    let inner = counted(&mut f, j, 6, vector, vec![Stmt::Store { ptr, value }]);
    f.body = vec![counted(&mut f, i, 5, gang, vec![inner])];
    let m = scheduled(module(f, a));
    let want: Vec<i128> = (0..5)
        .flat_map(|i| (0..6).map(move |j| i * 100 + j))
        .collect();
    for (grid, block) in [(1, [1, 1]), (2, [4, 1]), (7, [8, 1])] {
        // Workers (y) redundantly run a loop not shared among them.
        let got = run_grid(&m.kernels[0].body, grid, block);
        assert_eq!(got, want, "grid={grid} block={block:?}");
    }
}

#[test]
fn gang_vector_loop_snapshot() {
    let m = scheduled(kernel(GV, IntKind::I32, LoopCmp::Lt, [0, 100, 1], false));
    let text = print_module(&m);
    let body = text.split_once("{\n").map(|x| x.1).unwrap_or_default();
    let want = "    {
      %2 init = 0
      %3 limit = 100
      %4 step = 1
      %5 trip = 0
      if lt.i32(%2 init, %3 limit) {
        %5 trip = add.u64(div.u64(sub.u64(sub.u64(cast.i32.u64(%3 limit), cast.i32.u64(%2 init)), 1), cast.i32.u64(%4 step)), 1)
      }
      %6 k = add.u64(mul.u64(cast.u32.u64(ctaid.x), cast.u32.u64(ntid.x)), cast.u32.u64(tid.x))
      %7 stride = mul.u64(cast.u32.u64(nctaid.x), cast.u32.u64(ntid.x))
      while lt.u64(%6 k, %5 trip) {
        %1 i = cast.u32.i32(add.u32(cast.i32.u32(%2 init), mul.u32(cast.u64.u32(%6 k), cast.i32.u32(%4 step))))
        store %0 a <- cast.i32.i64(%1 i)
      }
      step {
        %6 k = add.u64(%6 k, %7 stride)
      }
    }
  }
";
    assert_eq!(body, want, "{text}");
}

#[test]
fn downward_unsigned_and_seq_snapshots() {
    let m = scheduled(kernel(
        Parallelism::levels(false, true, true),
        IntKind::U32,
        LoopCmp::Ge,
        [10, 0, norm(-2, IntKind::U32)],
        false,
    ));
    let text = print_module(&m);
    for line in [
        "if ge.u32(%2 init, %3 limit) {",
        "%5 trip = add.u64(div.u64(sub.u64(cast.u32.u64(%2 init), cast.u32.u64(%3 limit)), cast.u32.u64(neg.u32(%4 step))), 1)",
        "%6 k = add.u64(mul.u64(cast.u32.u64(tid.y), cast.u32.u64(ntid.x)), cast.u32.u64(tid.x))",
        "%7 stride = mul.u64(cast.u32.u64(ntid.y), cast.u32.u64(ntid.x))",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
    let m = scheduled(kernel(
        Parallelism::Seq,
        IntKind::I64,
        LoopCmp::Gt,
        [9, 0, -3],
        true,
    ));
    let text = print_module(&m);
    let body = text.split_once("{\n").map(|x| x.1).unwrap_or_default();
    let want = "    {
      %1 i = 9
      %2 limit = 0
      %3 step = -3
      while gt.i64(%1 i, %2 limit) {
        if eq.i64(rem.i64(%1 i, 2), 0) {
          continue
        }
        store %0 a <- %1 i
      }
      step {
        %1 i = add.i64(%1 i, %3 step)
      }
    }
  }
";
    assert_eq!(body, want, "{text}");
}

/// `collapse(3)` over i = 4 down to 2 (step -1), j = 0..5 step 2, k = 10..13
/// (<=): every (i, j, k) exactly once, for any launch shape, in gang and
/// vector mode and sequentially.
#[test]
fn collapsed_nest_visits_each_point_once() {
    let mut f = Function::default();
    let a = f.new_local("a", Type::I64.ptr_to());
    let vars: Vec<LocalId> = ["i", "j", "k"]
        .iter()
        .map(|n| f.new_local(n, Type::I64))
        .collect();
    let ptr = f.read(a);
    // value = i * 10000 + j * 100 + k
    let mut value = f.int(0, Type::I64);
    for (v, scale) in vars.iter().zip([10000, 100, 1]) {
        let r = f.read(*v);
        let s = f.int(scale, Type::I64);
        let m = f.add(
            Expr::Binary {
                op: BinOp::Mul,
                lhs: r,
                rhs: s,
            },
            Type::I64,
        );
        value = f.add(
            Expr::Binary {
                op: BinOp::Add,
                lhs: value,
                rhs: m,
            },
            Type::I64,
        );
    }
    let header = |f: &mut Function, var, init: i128, cmp, limit: i128, step: i128| LoopHeader {
        var,
        init: f.int(init, Type::I64),
        cmp,
        limit: f.int(limit, Type::I64),
        step: f.int(step, Type::I64),
    };
    let hi = header(&mut f, vars[0], 4, LoopCmp::Ge, 2, -1);
    let hj = header(&mut f, vars[1], 0, LoopCmp::Lt, 5, 2);
    let hk = header(&mut f, vars[2], 10, LoopCmp::Le, 13, 1);
    let want: Vec<i128> = {
        let mut w: Vec<i128> = [4, 3, 2]
            .iter()
            .flat_map(|i| [0, 2, 4].map(move |j| (i, j)))
            .flat_map(|(i, j)| (10..=13).map(move |k| i * 10000 + j * 100 + k))
            .collect();
        w.sort();
        w
    };
    for par in [GV, Parallelism::Seq] {
        let mut g = f.clone();
        g.body = vec![Stmt::Loop(Loop {
            var: hi.var,
            init: hi.init,
            cmp: hi.cmp,
            limit: hi.limit,
            step: hi.step,
            collapsed: vec![hj.clone(), hk.clone()],
            tile: vec![],
            chunk: None,
            body: vec![Stmt::Store { ptr, value }],
            par,
            loc: SrcLoc::default(),
            sizes: None,
            directive: None,
            c_form: None,
            cache: vec![],
            reductions: vec![],
        })];
        let m = scheduled(module(g, a));
        let shapes: &[(u32, [u32; 2])] = if par == Parallelism::Seq {
            &[(1, [1, 1])]
        } else {
            &[(1, [1, 1]), (2, [4, 1]), (5, [8, 1]), (64, [32, 1])]
        };
        for &(grid, block) in shapes {
            let got = run_grid(&m.kernels[0].body, grid, block);
            assert_eq!(got, want, "{par:?} grid={grid} block={block:?}");
        }
    }
}

/// `tile(3, 2)` over a 5 x 7 nest and `gang(static:n)` over 23 iterations:
/// every iteration exactly once, whatever the launch.
#[test]
fn tiled_and_chunked_loops_visit_each_point_once() {
    let mut f = Function::default();
    let a = f.new_local("a", Type::I64.ptr_to());
    let (i, j) = (f.new_local("i", Type::I64), f.new_local("j", Type::I64));
    let ptr = f.read(a);
    let (iv, jv) = (f.read(i), f.read(j));
    let h = f.int(100, Type::I64);
    let m = f.add(
        Expr::Binary {
            op: BinOp::Mul,
            lhs: iv,
            rhs: h,
        },
        Type::I64,
    );
    let value = f.add(
        Expr::Binary {
            op: BinOp::Add,
            lhs: m,
            rhs: jv,
        },
        Type::I64,
    );
    let int = |f: &mut Function, v| f.int(v, Type::I64);
    let (i0, i1, is) = (int(&mut f, 0), int(&mut f, 5), int(&mut f, 1));
    let (j0, j1, js) = (int(&mut f, 13), int(&mut f, 0), int(&mut f, -2));
    let tiled = Loop {
        var: i,
        init: i0,
        cmp: LoopCmp::Lt,
        limit: i1,
        step: is,
        collapsed: vec![LoopHeader {
            var: j,
            init: j0,
            cmp: LoopCmp::Gt,
            limit: j1,
            step: js,
        }],
        tile: vec![Some(2), Some(3)],
        chunk: None,
        body: vec![Stmt::Store { ptr, value }],
        par: GV,
        loc: SrcLoc::default(),
        sizes: None,
        directive: None,
        c_form: None,
        cache: vec![],
        reductions: vec![],
    };
    let want: Vec<i128> = {
        let mut w: Vec<i128> = (0..5)
            .flat_map(|i| (1..=13).rev().step_by(2).map(move |j| i * 100 + j))
            .collect();
        w.sort();
        w
    };
    for (tile, chunk) in [
        (vec![Some(2), Some(3)], None),
        (vec![], Some(4)),
        (vec![], Some(0)),
    ] {
        let mut g = f.clone();
        let mut l = tiled.clone();
        l.tile = tile.clone();
        l.chunk = chunk;
        g.body = vec![Stmt::Loop(l)];
        let m = scheduled(module(g, a));
        for &(grid, block) in &[(1u32, [1u32, 1u32]), (2, [4, 1]), (5, [6, 1]), (3, [32, 1])] {
            let got = run_grid(&m.kernels[0].body, grid, block);
            assert_eq!(
                got, want,
                "tile={tile:?} chunk={chunk:?} grid={grid} block={block:?}"
            );
        }
    }
}

/// `store a <- 1; t = load a; store a <- t` in code every thread runs
/// redundantly (the stores single, as `single.rs` guards them), inside a gang
/// loop: barriers between the store and the load after it, and between the
/// load and the store after it, and at the loop's start (the previous
/// iteration's store).
#[test]
fn redundant_stores_are_fenced_from_loads() {
    let (text, barriers, first_store, load) = fenced_loop(Parallelism::Seq);
    assert!(barriers.len() >= 3, "{text}");
    // A barrier before the first store (the last iteration's load), between
    // the store and the load, and between the load and the second store.
    assert!(barriers[0] < first_store, "{text}");
    assert!(
        barriers.iter().any(|&b| b > first_store && b < load),
        "{text}"
    );
    assert!(barriers.iter().any(|&b| b > load), "{text}");
}

/// A partitioned loop's iterations are independent: within an iteration the
/// redundant store and load are fenced, but nothing of the last iteration is
/// pending at the start of the next (no barrier before the first store).
#[test]
fn partitioned_loops_carry_no_fence_across_iterations() {
    let gang = Parallelism::Par {
        gang: Some(0),
        worker: false,
        vector: None,
    };
    let (text, barriers, first_store, load) = fenced_loop(gang);
    assert!(barriers.iter().all(|&b| b > first_store), "{text}");
    assert!(
        barriers.iter().any(|&b| b > first_store && b < load),
        "{text}"
    );
}

/// A loop of `par` whose body stores `*a = 1` (one thread), loads `t = *a`
/// (every thread), stores `*a = t` (one thread), scheduled: its text, the
/// lines of its block barriers, of the first store and of the load.
fn fenced_loop(par: Parallelism) -> (String, Vec<usize>, usize, usize) {
    let mut f = Function::default();
    let a = f.new_local("a", Type::I64.ptr_to());
    let i = f.new_local("i", Type::I32);
    let t = f.new_local("t", Type::I64);
    let guard = |f: &mut Function| {
        let x = f.add(
            Expr::Special(Special::ThreadIdx(0)),
            Type::Int(IntKind::U32),
        );
        let z = f.int(0, Type::Int(IntKind::U32));
        f.add(
            Expr::Cmp {
                op: CmpOp::Eq,
                lhs: x,
                rhs: z,
            },
            Type::BOOL,
        )
    };
    let (p1, one, g1) = (f.read(a), f.int(1, Type::I64), guard(&mut f));
    let store1 = Stmt::If {
        cond: g1,
        then: vec![Stmt::Store {
            ptr: p1,
            value: one,
        }],
        otherwise: vec![],
        single: true,
    };
    let p2 = f.read(a);
    let load = f.add(Expr::Load(p2), Type::I64);
    let assign = Stmt::Assign {
        local: t,
        value: load,
    };
    let (p3, tv, g2) = (f.read(a), f.read(t), guard(&mut f));
    let store2 = Stmt::If {
        cond: g2,
        then: vec![Stmt::Store { ptr: p3, value: tv }],
        otherwise: vec![],
        single: true,
    };
    let (init, limit, step) = (
        f.int(0, Type::I32),
        f.int(4, Type::I32),
        f.int(1, Type::I32),
    );
    f.body = vec![Stmt::Loop(Loop {
        var: i,
        init,
        cmp: LoopCmp::Lt,
        limit,
        step,
        collapsed: vec![],
        tile: vec![],
        chunk: None,
        body: vec![store1, assign, store2],
        par,
        loc: SrcLoc::default(),
        sizes: None,
        directive: None,
        c_form: None,
        cache: vec![],
        reductions: vec![],
    })];
    let m = scheduled(module(f, a));
    let text = print_module(&m);
    let body: Vec<&str> = text
        .lines()
        .map(str::trim)
        .skip_while(|l| !l.starts_with("while"))
        .collect();
    let at = |what: &str| {
        body.iter()
            .position(|l| l.starts_with(what))
            .unwrap_or(usize::MAX)
    };
    let barriers: Vec<usize> = body
        .iter()
        .enumerate()
        .filter(|(_, l)| **l == "barrier Block")
        .map(|(k, _)| k)
        .collect();
    let first_store = at("store %0 a <- 1");
    let load = at("%2 t = load");
    (text, barriers, first_store, load)
}

/// A vector loop outside worker loops, in a launch with workers: only the
/// first worker runs it (the others would race with its stores).
#[test]
fn worker_single_vector_loop_runs_on_the_first_worker() {
    let mut m = kernel(
        Parallelism::Par {
            gang: None,
            worker: false,
            vector: Some(0),
        },
        IntKind::I32,
        LoopCmp::Lt,
        [0, 100, 1],
        false,
    );
    if let Some(l) = &mut m.kernels[0].launch {
        l.block[1] = GridSize::Const(4);
    }
    let text = print_module(&scheduled(m));
    assert!(
        text.contains("if and(eq.u32(tid.y, 0), eq.u32(tid.z, 0)) {"),
        "{text}"
    );
}

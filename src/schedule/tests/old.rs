//! Schedule tests: hand-built loops, scheduled, validated and printed.

use super::schedule;
use crate::ir::*;

fn kernel(par: Parallelism, cmp: LoopCmp, step: i128) -> Module {
    let mut f = Function::default();
    let a = f.new_local("a", Type::F32.ptr_to());
    let i = f.new_local("i", Type::I32);
    let init = f.int(0, Type::I32);
    let limit = f.int(100, Type::I32);
    let step = f.int(step, Type::I32);
    let p = f.read(a);
    let iv = f.read(i);
    let idx = f.add(Expr::Cast(iv), Type::I64);
    let ptr = f.add(
        Expr::PtrAdd {
            base: p,
            index: idx,
        },
        Type::F32.ptr_to(),
    );
    let one = f.add(Expr::Literal(Literal::Float(1.0)), Type::F32);
    f.body = vec![Stmt::Loop(Loop {
        var: i,
        init,
        cmp,
        limit,
        step,
        body: vec![Stmt::Store { ptr, value: one }],
        par,
        loc: SrcLoc::default(),
    })];
    Module {
        source: "t.c".into(),
        kernels: vec![Kernel {
            name: "k".into(),
            construct: "parallel loop".into(),
            loc: SrcLoc::default(),
            params: vec![Param {
                name: "a".into(),
                local: a,
                mode: ParamMode::DevicePtr { read_only: false },
            }],
            body: f,
            launch: Launch {
                grid: GridSize::Const(1),
                block: [GridSize::Const(128), GridSize::Const(1)],
            },
        }],
    }
}

#[test]
fn every_level_combination_validates() {
    for bits in 0..8u8 {
        let par = if bits == 0 {
            Parallelism::Seq
        } else {
            Parallelism::Par {
                gang: bits & 1 != 0,
                worker: bits & 2 != 0,
                vector: bits & 4 != 0,
            }
        };
        for (cmp, step) in [
            (LoopCmp::Lt, 1),
            (LoopCmp::Le, 3),
            (LoopCmp::Gt, -1),
            (LoopCmp::Ge, -2),
        ] {
            let mut m = kernel(par, cmp, step);
            schedule(&mut m);
            let errs = validate(&m, true);
            assert!(
                errs.is_empty(),
                "{par:?} {cmp:?}: {errs:?}\n{}",
                print_module(&m)
            );
        }
    }
}

#[test]
fn gang_vector_strides_over_the_grid() {
    let mut m = kernel(
        Parallelism::Par {
            gang: true,
            worker: false,
            vector: true,
        },
        LoopCmp::Lt,
        1,
    );
    schedule(&mut m);
    let text = print_module(&m);
    assert!(
        text.contains(
            "add.u64(mul.u64(cast.u32.u64(ctaid.x), cast.u32.u64(ntid.x)), cast.u32.u64(tid.x))"
        ),
        "{text}"
    );
    assert!(
        text.contains("mul.u64(cast.u32.u64(nctaid.x), cast.u32.u64(ntid.x))"),
        "{text}"
    );
    assert!(text.contains("while lt.u64("), "{text}");
}

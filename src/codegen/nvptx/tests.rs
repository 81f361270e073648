//! NVPTX back-end tests: hand-built kernels → PTX, assembled with ptxas
//! when it is installed (`ACCC_PTXAS`, or the project's `.tools`).

use super::{ptxas, write_ptx, Options};
use crate::ir::*;
use std::path::PathBuf;

fn repo_tool(rel: &str, env: &str) -> Option<PathBuf> {
    std::env::var_os(env)
        .map(PathBuf::from)
        .or_else(|| Some(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)))
        .filter(|p| p.is_file())
}

fn options() -> Options {
    Options {
        arch: "sm_90".into(),
        opt_level: 3,
        libdevice: repo_tool(
            ".tools/pip/nvidia/cu13/nvvm/libdevice/libdevice.10.bc",
            "ACCC_LIBDEVICE",
        ),
    }
}

/// `a[i] = op(b[i])` over a gang+vector loop, scheduled.
fn kernel(math: Option<MathFunc>, ty: Type) -> Module {
    let mut f = Function::default();
    let a = f.new_local("a", ty.ptr_to());
    let b = f.new_local("b", ty.ptr_to());
    let n = f.new_local("n", Type::I32);
    let i = f.new_local("i", Type::I32);
    let init = f.int(0, Type::I32);
    let limit = f.read(n);
    let step = f.int(1, Type::I32);
    let elem = |f: &mut Function, p: LocalId| {
        let base = f.read(p);
        let iv = f.read(i);
        let idx = f.add(Expr::Cast(iv), Type::I64);
        f.add(Expr::PtrAdd { base, index: idx }, ty.ptr_to())
    };
    let src = elem(&mut f, b);
    let x = f.add(Expr::Load(src), ty.clone());
    let v = match math {
        Some(func) => f.add(
            Expr::Math {
                func,
                args: vec![x],
            },
            ty.clone(),
        ),
        None => {
            let iv = f.read(i);
            let c = f.add(Expr::Cast(iv), ty.clone());
            f.add(
                Expr::Binary {
                    op: BinOp::Add,
                    lhs: x,
                    rhs: c,
                },
                ty.clone(),
            )
        }
    };
    let dst = elem(&mut f, a);
    f.body = vec![Stmt::Loop(Loop {
        var: i,
        init,
        cmp: LoopCmp::Lt,
        limit,
        step,
        body: vec![Stmt::Store { ptr: dst, value: v }],
        par: Parallelism::Par {
            gang: true,
            worker: false,
            vector: true,
        },
        loc: SrcLoc::default(),
    })];
    let mut m = Module {
        source: "t.c".into(),
        kernels: vec![Kernel {
            name: "k".into(),
            construct: "parallel loop".into(),
            loc: SrcLoc::default(),
            params: vec![
                Param {
                    name: "a".into(),
                    local: a,
                    mode: ParamMode::DevicePtr { read_only: false },
                },
                Param {
                    name: "b".into(),
                    local: b,
                    mode: ParamMode::DevicePtr { read_only: true },
                },
                Param {
                    name: "n".into(),
                    local: n,
                    mode: ParamMode::Value,
                },
            ],
            body: f,
            launch: Launch {
                grid: GridSize::Const(1),
                block: [GridSize::Const(128), GridSize::Const(1)],
            },
        }],
    };
    crate::schedule::schedule(&mut m);
    m
}

fn check_ptx(ptx: &str) {
    assert!(ptx.contains(".entry k("), "{ptx}");
    assert!(ptx.contains(".target sm_90"), "{ptx}");
    assert!(ptx.contains("%ctaid.x"), "{ptx}");
    assert!(ptx.contains("ld.global"), "{ptx}");
    if let Some(p) = repo_tool(".tools/pip/nvidia/cu13/bin/ptxas", "ACCC_PTXAS") {
        let cubin = ptxas::assemble(ptx, "sm_90", &p).unwrap_or_else(|e| panic!("{e}\n{ptx}"));
        assert!(cubin.starts_with(b"\x7fELF"));
    } else {
        assert!(
            std::env::var_os("CI").is_none(),
            "ptxas must be installed on CI (scripts/setup.sh)"
        );
    }
}

#[test]
fn vector_add_assembles() {
    for ty in [Type::I32, Type::F32, Type::F64, Type::Int(IntKind::U8)] {
        let ptx = write_ptx(&kernel(None, ty), &options()).unwrap_or_else(|e| panic!("{e}"));
        check_ptx(&ptx);
    }
}

#[test]
fn math_links_libdevice() {
    let o = options();
    if o.libdevice.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "libdevice must be installed on CI (scripts/setup.sh)"
        );
        return;
    }
    for (f, ty) in [
        (MathFunc::Sqrt, Type::F64),
        (MathFunc::Exp, Type::F32),
        (MathFunc::Sin, Type::F64),
    ] {
        let ptx = write_ptx(&kernel(Some(f), ty), &o).unwrap_or_else(|e| panic!("{e}"));
        check_ptx(&ptx);
        assert!(
            !ptx.contains(".extern .func __nv_"),
            "libdevice not linked:\n{ptx}"
        );
    }
}

#[test]
fn math_without_libdevice_is_an_error() {
    let o = Options {
        libdevice: None,
        ..options()
    };
    let e = write_ptx(&kernel(Some(MathFunc::Sqrt), Type::F64), &o)
        .err()
        .map(|e| e.to_string());
    assert!(e.is_some_and(|e| e.contains("'sqrt' needs libdevice")));
}

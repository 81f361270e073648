//! NVPTX back-end tests: hand-built kernels → LLVM IR and PTX, every PTX
//! assembled with ptxas when it is installed (`ACCC_PTXAS`, or the project's
//! `.tools` from `scripts/setup.sh`); on CI (`CI` set) ptxas and libdevice
//! must be present.

use super::{ptxas, write_llvm, write_ptx, Options};
use crate::analysis::analyze;
use crate::ir::*;
use std::path::PathBuf;

/// The first existing file among `$env` and the known install places.
pub(super) fn tool(env: &str, rel: &str) -> Option<PathBuf> {
    let env = std::env::var_os(env).map(PathBuf::from);
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".tools/pip/nvidia/cu13");
    let found = env
        .into_iter()
        .chain([repo.join(rel)])
        .find(|p| p.is_file());
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "{rel} must be installed on CI (scripts/setup.sh)"
        );
    }
    found
}

pub(super) fn options(opt_level: u8) -> Options {
    Options {
        arch: "sm_90".into(),
        opt_level,
        libdevice: tool("ACCC_LIBDEVICE", "nvvm/libdevice/libdevice.10.bc"),
        llvm_options: Vec::new(),
        fma: true,
        fast: Default::default(),
        line_info: false,
    }
}

/// PTX for the module, assembled when ptxas is available.
pub(super) fn ptx(m: &Module, o: &Options) -> String {
    assert!(validate(m, true).is_empty(), "{:?}", validate(m, true));
    let ptx = write_ptx(m, &analyze(m), o).unwrap_or_else(|e| panic!("{e}\n{}", print_module(m)));
    assert!(ptx.contains(".target sm_90"), "{ptx}");
    if let Some(p) = tool("ACCC_PTXAS", "bin/ptxas") {
        let cubin = ptxas::assemble(&ptx, "sm_90", &p, false, o.line_info)
            .unwrap_or_else(|e| panic!("{e}\n{ptx}"));
        assert!(cubin.starts_with(b"\x7fELF"));
    }
    ptx
}

pub(super) fn param(name: &str, local: LocalId, mode: ParamMode) -> Param {
    Param {
        name: name.into(),
        local,
        mode,
        own: false,
    }
}

pub(super) fn dev() -> ParamMode {
    ParamMode::DevicePtr
}

pub(super) fn kernel(name: &str, params: Vec<Param>, body: Function) -> Kernel {
    Kernel {
        name: name.into(),
        construct: "parallel loop".into(),
        loc: SrcLoc::default(),
        params,
        body,
        sizes: Default::default(),
        launch: Some(Launch {
            grid: [GridSize::Const(1), GridSize::Const(1), GridSize::Const(1)],
            block: [GridSize::Const(128), GridSize::Const(1), GridSize::Const(1)],
        }),
        scratch: None,
        kind: crate::ir::ComputeKind::Parallel,
    }
}

pub(super) fn module(kernels: Vec<Kernel>) -> Module {
    let mut m = Module {
        source: "t.c".into(),
        kernels,
        functions: vec![],
        cells: vec![],
        host: Default::default(),
        scheduled: false,
    };
    let info = crate::analysis::analyze(&m);
    crate::schedule::schedule(&mut m, &info, &crate::ir::Target::gpu(90));
    m
}

pub(super) fn bin(f: &mut Function, op: BinOp, lhs: ExprId, rhs: ExprId) -> ExprId {
    let ty = f.ty(lhs).clone();
    f.add(Expr::Binary { op, lhs, rhs }, ty)
}

fn cmp(f: &mut Function, op: CmpOp, lhs: ExprId, rhs: ExprId) -> ExprId {
    f.add(Expr::Cmp { op, lhs, rhs }, Type::BOOL)
}

/// `&p[i]` for a pointer local `p` and an `i32` local `i`.
pub(super) fn elem(f: &mut Function, p: LocalId, i: LocalId) -> ExprId {
    let ty = f.local(p).ty.clone();
    let base = f.read(p);
    let iv = f.read(i);
    let index = f.add(Expr::Cast(iv), Type::I64);
    f.add(Expr::PtrAdd { base, index }, ty)
}

/// `for i in 0..n gang vector { body(f, i) }` as the whole kernel body.
pub(super) fn gv_loop(f: &mut Function, i: LocalId, n: LocalId, body: Block) {
    let (init, limit, step) = (f.int(0, Type::I32), f.read(n), f.int(1, Type::I32));
    let gv = Parallelism::levels(true, false, true);
    f.body = vec![Stmt::Loop(Loop::counted(i, [init, limit, step], gv, body))];
}

/// `a[i] = op(b[i])` (a math function) or `a[i] = b[i] + (T)i` over a
/// gang+vector loop.
fn vector_kernel(name: &str, math: Option<MathFunc>, ty: Type) -> Kernel {
    let mut f = Function::default();
    let a = f.new_local("a", ty.ptr_to());
    let b = f.new_local("b", ty.ptr_to());
    let n = f.new_local("n", Type::I32);
    let i = f.new_local("i", Type::I32);
    let src = elem(&mut f, b, i);
    let x = f.add(Expr::Load(src), ty.clone());
    let v = match math {
        Some(func) => {
            let mut args = vec![x];
            if func.arity() == 2 {
                let src = elem(&mut f, b, i);
                args.push(f.add(Expr::Load(src), ty.clone()));
            }
            f.add(Expr::Math { func, args }, ty.clone())
        }
        None => {
            let iv = f.read(i);
            let c = f.add(Expr::Cast(iv), ty.clone());
            bin(&mut f, BinOp::Add, x, c)
        }
    };
    let dst = elem(&mut f, a, i);
    gv_loop(&mut f, i, n, vec![Stmt::Store { ptr: dst, value: v }]);
    let params = vec![
        param("a", a, dev()),
        param("b", b, dev()),
        param("n", n, ParamMode::Value),
    ];
    kernel(name, params, f)
}

#[test]
fn vector_add_ptx() {
    for ty in [Type::I32, Type::F32, Type::F64, Type::Int(IntKind::U8)] {
        for level in [0, 3] {
            let m = module(vec![vector_kernel("vadd", None, ty.clone())]);
            let text = ptx(&m, &options(level));
            assert!(text.contains(".visible .entry vadd("), "{text}");
            assert!(text.contains("%ctaid.x"), "{text}");
            if level > 0 {
                assert!(text.contains("ld.global"), "{text}");
                assert!(text.contains("st.global"), "{text}");
            }
        }
    }
}

/// `a[i] = a[i] * b[i] + (T)i` and `b[i] = (T)i - a[i] * b[i]` over a
/// gang+vector loop.
fn multiply_add_kernel(ty: Type) -> Kernel {
    let mut f = Function::default();
    let a = f.new_local("a", ty.ptr_to());
    let b = f.new_local("b", ty.ptr_to());
    let n = f.new_local("n", Type::I32);
    let i = f.new_local("i", Type::I32);
    let mut body = vec![];
    for sub in [false, true] {
        let (pa, pb) = (elem(&mut f, a, i), elem(&mut f, b, i));
        let (x, y) = (
            f.add(Expr::Load(pa), ty.clone()),
            f.add(Expr::Load(pb), ty.clone()),
        );
        let prod = bin(&mut f, BinOp::Mul, x, y);
        let iv = f.read(i);
        let c = f.add(Expr::Cast(iv), ty.clone());
        let (v, dst) = match sub {
            false => (bin(&mut f, BinOp::Add, prod, c), a),
            true => (bin(&mut f, BinOp::Sub, c, prod), b),
        };
        let ptr = elem(&mut f, dst, i);
        body.push(Stmt::Store { ptr, value: v });
    }
    gv_loop(&mut f, i, n, body);
    let params = vec![
        param("a", a, dev()),
        param("b", b, dev()),
        param("n", n, ParamMode::Value),
    ];
    kernel("madd", params, f)
}

/// With `fma` (the default) `x * y + z` and `z - x * y` are each one
/// `fma.rn`, at every level (LLVM's `-O0` too); without it, a `mul.rn`
/// and an add, and LLVM's IR carries no `contract` flag.
#[test]
fn multiply_add_contracts_unless_told_not_to() {
    for (ty, t) in [(Type::F32, "f32"), (Type::F64, "f64")] {
        let m = module(vec![multiply_add_kernel(ty)]);
        for level in [0, 3] {
            let on = ptx(&m, &options(level));
            assert_eq!(on.matches(&format!("fma.rn.{t}")).count(), 2, "{on}");
            assert!(!on.contains(&format!("mul.rn.{t}")), "{on}");
            let off = Options {
                fma: false,
                ..options(level)
            };
            let text = ptx(&m, &off);
            assert!(!text.contains("fma.rn"), "{text}");
            assert_eq!(text.matches(&format!("mul.rn.{t}")).count(), 2, "{text}");
            let ll = write_llvm(&m, &analyze(&m), &off).unwrap_or_else(|e| panic!("{e}"));
            assert!(!ll.contains("contract"), "{ll}");
        }
    }
}

#[test]
fn llvm_ir_has_kernel_convention_and_param_attributes() {
    let m = module(vec![vector_kernel("vadd", None, Type::F64)]);
    let ll = write_llvm(&m, &analyze(&m), &options(3)).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        ll.contains("target triple = \"nvptx64-nvidia-cuda\""),
        "{ll}"
    );
    assert!(ll.contains("define ptx_kernel void @vadd("), "{ll}");
    assert!(ll.contains("align 8"), "{ll}");
    assert!(ll.contains("readonly"), "{ll}");
}

#[test]
fn math_links_libdevice() {
    let Some(lib) = options(3).libdevice else {
        return;
    };
    let mut kernels = vec![];
    for (n, f) in MathFunc::ALL.iter().enumerate() {
        kernels.push(vector_kernel(&format!("m{n}f"), Some(*f), Type::F32));
        kernels.push(vector_kernel(&format!("m{n}d"), Some(*f), Type::F64));
    }
    let m = module(kernels);
    for level in [0, 3] {
        let o = Options {
            libdevice: Some(lib.clone()),
            ..options(level)
        };
        let text = ptx(&m, &o);
        assert!(
            !text.contains(".extern .func"),
            "libdevice not linked:\n{text}"
        );
        assert!(!text.contains("__nvvm_reflect"), "{text}");
        assert_eq!(text.matches(".visible .entry").count(), 28, "{text}");
    }
}

/// `sqrtf` is correctly rounded (`sqrt.rn.f32`), never libdevice's
/// approximation, at the levels the driver uses (2 and 3; at 0 libdevice's
/// reflection is not folded).
#[test]
fn sqrtf_is_correctly_rounded() {
    let Some(lib) = options(3).libdevice else {
        return;
    };
    let m = module(vec![vector_kernel("k", Some(MathFunc::Sqrt), Type::F32)]);
    for level in [2, 3] {
        let o = Options {
            libdevice: Some(lib.clone()),
            ..options(level)
        };
        let text = ptx(&m, &o);
        assert!(text.contains("sqrt.rn.f32"), "{text}");
        assert!(!text.contains(".approx"), "{text}");
    }
}

#[test]
fn math_without_libdevice_is_an_error() {
    let o = Options {
        libdevice: None,
        ..options(3)
    };
    let m = module(vec![vector_kernel("k", Some(MathFunc::Sqrt), Type::F32)]);
    let e = write_ptx(&m, &analyze(&m), &o).err().map(|e| e.to_string());
    assert!(
        e.as_deref()
            .is_some_and(|e| e.contains("'sqrtf' needs libdevice")),
        "{e:?}"
    );
}

/// `dst[0] = (to)src[0]`, through `bool` when `via_bool`.
fn cast_kernel(name: &str, from: &Type, to: &Type, via_bool: bool) -> Kernel {
    let mut f = Function::default();
    let dst = f.new_local("dst", to.ptr_to());
    let src = f.new_local("src", from.ptr_to());
    let p = f.read(src);
    let mut v = f.add(Expr::Load(p), from.clone());
    if via_bool {
        v = f.add(Expr::Cast(v), Type::BOOL);
    }
    let v = f.add(Expr::Cast(v), to.clone());
    let ptr = f.read(dst);
    f.body = vec![Stmt::Store { ptr, value: v }];
    kernel(
        name,
        vec![param("dst", dst, dev()), param("src", src, dev())],
        f,
    )
}

#[test]
fn every_cast_kind() {
    use IntKind::*;
    let mut tys: Vec<Type> = [I8, U8, I16, U16, I32, U32, I64, U64]
        .into_iter()
        .map(Type::Int)
        .collect();
    tys.extend([Type::F32, Type::F64]);
    let mut kernels = vec![];
    for (i, from) in tys.iter().enumerate() {
        for (j, to) in tys.iter().enumerate() {
            if from != to {
                kernels.push(cast_kernel(&format!("c{i}_{j}"), from, to, false));
            }
        }
        kernels.push(cast_kernel(&format!("b{i}"), from, &Type::I32, true));
    }
    let n = kernels.len();
    let m = module(kernels);
    let text = ptx(&m, &options(3));
    assert_eq!(text.matches(".visible .entry").count(), n);
    for insn in [
        "cvt.rzi.s32.f64",
        "cvt.rn.f32.u64",
        "cvt.f64.f32",
        "cvt.rzi.u16.f32",
    ] {
        assert!(text.contains(insn), "{insn}:\n{text}");
    }
    let ll = write_llvm(&m, &analyze(&m), &options(0)).unwrap_or_else(|e| panic!("{e}"));
    for insn in [
        "sext", "zext", "trunc", "fptosi", "fptoui", "sitofp", "uitofp", "fpext", "fptrunc",
        "fcmp une", "icmp ne",
    ] {
        assert!(ll.contains(insn), "{insn}:\n{ll}");
    }
}

/// A kernel with if/else, `&&`/`||`, `?:`, min/max, shifts, division, a
/// private array and `break`/`continue` in a sequential loop.
fn control_kernel(ty: IntKind) -> Kernel {
    let t = Type::Int(ty);
    let mut f = Function::default();
    let out = f.new_local("out", t.ptr_to());
    let x = f.new_local("x", t.clone());
    let y = f.new_local("y", Type::F64);
    let arr = f.new_local("arr", Type::Array(Box::new(t.clone()), 4));
    let j = f.new_local("j", Type::I32);
    let r = f.new_local("r", t.clone());

    // r = (x > 0 && y < 1.0) || x == 7 ? x / 3 : min(x, 5) >> 1
    let (xv, zero) = (f.read(x), f.int(0, t.clone()));
    let c1 = cmp(&mut f, CmpOp::Gt, xv, zero);
    let (yv, one) = (
        f.read(y),
        f.add(Expr::Literal(Literal::Float(1.0)), Type::F64),
    );
    let c2 = cmp(&mut f, CmpOp::Lt, yv, one);
    let and = f.add(
        Expr::Logical {
            and: true,
            lhs: c1,
            rhs: c2,
        },
        Type::BOOL,
    );
    let (xv, seven) = (f.read(x), f.int(7, t.clone()));
    let c3 = cmp(&mut f, CmpOp::Eq, xv, seven);
    let or = f.add(
        Expr::Logical {
            and: false,
            lhs: and,
            rhs: c3,
        },
        Type::BOOL,
    );
    let (xv, three) = (f.read(x), f.int(3, t.clone()));
    let div = bin(&mut f, BinOp::Div, xv, three);
    let (xv, five) = (f.read(x), f.int(5, t.clone()));
    let min = bin(&mut f, BinOp::Min, xv, five);
    let one_i = f.int(1, t.clone());
    let shr = bin(&mut f, BinOp::Shr, min, one_i);
    let sel = f.add(
        Expr::Select {
            cond: or,
            then: div,
            otherwise: shr,
        },
        t.clone(),
    );

    // if (r % 2 != 0) y = fmax-ish(y, -y) else x = ~x ^ -x
    let (rv, two) = (f.read(r), f.int(2, t.clone()));
    let rem = bin(&mut f, BinOp::Rem, rv, two);
    let zero = f.int(0, t.clone());
    let odd = cmp(&mut f, CmpOp::Ne, rem, zero);
    let (ya, yb) = (f.read(y), f.read(y));
    let neg = f.add(
        Expr::Unary {
            op: UnOp::Neg,
            arg: yb,
        },
        Type::F64,
    );
    let ymax = bin(&mut f, BinOp::Max, ya, neg);
    let (xa, xb) = (f.read(x), f.read(x));
    let not = f.add(
        Expr::Unary {
            op: UnOp::BitNot,
            arg: xa,
        },
        t.clone(),
    );
    let negx = f.add(
        Expr::Unary {
            op: UnOp::Neg,
            arg: xb,
        },
        t.clone(),
    );
    let xor = bin(&mut f, BinOp::Xor, not, negx);

    // for (j = 0; j < 4; j++) { if (j == 3) break; if (j == 1) continue; arr[j] = r; }
    let (jv, three) = (f.read(j), f.int(3, Type::I32));
    let is3 = cmp(&mut f, CmpOp::Eq, jv, three);
    let (jv, one) = (f.read(j), f.int(1, Type::I32));
    let is1 = cmp(&mut f, CmpOp::Eq, jv, one);
    let base = f.add(Expr::LocalAddr(arr), t.ptr_to());
    let jv = f.read(j);
    let idx = f.add(Expr::Cast(jv), Type::I64);
    let slot = f.add(Expr::PtrAdd { base, index: idx }, t.ptr_to());
    let rv = f.read(r);
    let (init, limit, step) = (
        f.int(0, Type::I32),
        f.int(4, Type::I32),
        f.int(1, Type::I32),
    );
    let seq = Stmt::Loop(Loop {
        var: j,
        init,
        cmp: LoopCmp::Lt,
        limit,
        step,
        collapsed: vec![],
        tile: vec![],
        chunk: None,
        body: vec![
            Stmt::If {
                cond: is3,
                then: vec![Stmt::Break],
                otherwise: vec![],
                single: false,
            },
            Stmt::If {
                cond: is1,
                then: vec![Stmt::Continue],
                otherwise: vec![],
                single: false,
            },
            Stmt::Store {
                ptr: slot,
                value: rv,
            },
        ],
        par: Parallelism::Seq,
        loc: SrcLoc::default(),
        sizes: None,
        directive: None,
        c_form: None,
        cache: vec![],
        reductions: vec![],
    });
    // *out = arr[2] + x
    let base = f.add(Expr::LocalAddr(arr), t.ptr_to());
    let two = f.int(2, Type::I64);
    let slot = f.add(Expr::PtrAdd { base, index: two }, t.ptr_to());
    let a2 = f.add(Expr::Load(slot), t.clone());
    let xv = f.read(x);
    let sum = bin(&mut f, BinOp::Add, a2, xv);
    let ptr = f.read(out);
    f.body = vec![
        Stmt::Assign {
            local: r,
            value: sel,
        },
        Stmt::If {
            cond: odd,
            then: vec![Stmt::Assign {
                local: y,
                value: ymax,
            }],
            otherwise: vec![Stmt::Assign {
                local: x,
                value: xor,
            }],
            single: false,
        },
        seq,
        Stmt::Store { ptr, value: sum },
        Stmt::Return(None),
    ];
    let params = vec![
        param("out", out, dev()),
        param("x", x, ParamMode::Value),
        param("y", y, ParamMode::Value),
    ];
    kernel(&format!("ctl_{ty:?}"), params, f)
}

#[test]
fn control_flow_and_operators() {
    use IntKind::*;
    let kernels = [I8, U16, I32, U32, I64, U64]
        .into_iter()
        .map(control_kernel)
        .collect();
    let m = module(kernels);
    for level in [0, 2, 3] {
        let text = ptx(&m, &options(level));
        assert_eq!(text.matches(".visible .entry").count(), 6, "{text}");
    }
    let ll = write_llvm(&m, &analyze(&m), &options(0)).unwrap_or_else(|e| panic!("{e}"));
    for insn in [
        "sdiv",
        "udiv",
        "ashr",
        "lshr",
        "llvm.smin",
        "llvm.umin",
        "llvm.maxnum",
        "phi i1",
    ] {
        assert!(ll.contains(insn), "{insn}:\n{ll}");
    }
}

/// C's promise that signed `int`/`long` arithmetic never overflows reaches
/// LLVM as `nsw` (it widens and strength-reduces index arithmetic with it);
/// unsigned and narrower signed arithmetic wraps.
#[test]
fn signed_int_arithmetic_is_nsw() {
    use IntKind::*;
    for (ty, nsw) in [
        (I8, false),
        (I16, false),
        (I32, true),
        (I64, true),
        (U32, false),
        (U64, false),
    ] {
        let m = module(vec![control_kernel(ty)]);
        let ll = write_llvm(&m, &analyze(&m), &options(0)).unwrap_or_else(|e| panic!("{e}"));
        let width = Type::Int(ty);
        let bits = match width {
            Type::Int(k) => k.bits(),
            _ => unreachable!(),
        };
        // `*out = arr[2] + x`, the kernel's last statement, is its last add.
        let sum = ll
            .lines()
            .rev()
            .find(|l| {
                l.contains(" = add ") && l.contains(&format!(" i{bits} ")) && l.contains("%add")
            })
            .unwrap_or_else(|| panic!("no add of i{bits}:\n{ll}"));
        assert_eq!(sum.contains("add nsw"), nsw, "{ty:?}: {sum}");
    }
}

#[test]
fn bad_arch_is_an_error() {
    let m = module(vec![vector_kernel("k", None, Type::F32)]);
    let o = Options {
        arch: "gfx90a".into(),
        ..options(3)
    };
    let e = write_ptx(&m, &analyze(&m), &o).err().map(|e| e.to_string());
    assert!(e.as_deref().is_some_and(|e| e.contains("gfx90a")), "{e:?}");
}

/// A kernel using the reduction primitives on `ty`: `v = *in; v +=
/// shfl_bfly(v, 1, ~0); shared[tid] = v; *out = shared[0]` after a fence,
/// and an `atomicInc` on a counter.
fn primitives_kernel(ty: Type) -> Kernel {
    let mut f = Function::default();
    let p = f.new_local("p", ty.ptr_to());
    let cnt = f.new_local("cnt", Type::Int(IntKind::U32).ptr_to());
    let v = f.new_local("v", ty.clone());
    let old = f.new_local("old", Type::Int(IntKind::U32));
    f.shared.push(Type::Array(Box::new(ty.clone()), 64));
    let pv = f.read(p);
    let load = f.add(Expr::Load(pv), ty.clone());
    let vv = f.read(v);
    let (lane, mask) = (
        f.int(1, Type::Int(IntKind::U32)),
        f.int(0xffff_ffff, Type::Int(IntKind::U32)),
    );
    let sh = f.add(
        Expr::Shuffle {
            value: vv,
            lane_xor: lane,
            members: mask,
        },
        ty.clone(),
    );
    let vv = f.read(v);
    let sum = bin(&mut f, BinOp::Add, vv, sh);
    let base = f.add(Expr::SharedAddr(0), ty.ptr_to());
    let tid = f.add(
        Expr::Special(Special::ThreadIdx(0)),
        Type::Int(IntKind::U32),
    );
    let tid = f.add(Expr::Cast(tid), Type::I64);
    let slot = f.add(Expr::PtrAdd { base, index: tid }, ty.ptr_to());
    let vv = f.read(v);
    let first = f.add(Expr::SharedAddr(0), ty.ptr_to());
    let s0 = f.add(Expr::Load(first), ty.clone());
    let pv = f.read(p);
    let cv = f.read(cnt);
    let limit = f.int(7, Type::Int(IntKind::U32));
    f.body = vec![
        Stmt::Assign {
            local: v,
            value: load,
        },
        Stmt::Assign {
            local: v,
            value: sum,
        },
        Stmt::Store {
            ptr: slot,
            value: vv,
        },
        Stmt::Barrier(BarrierScope::Block),
        Stmt::Fence,
        Stmt::AtomicRmw {
            op: AtomicOp::IncWrap,
            ptr: cv,
            value: limit,
            old: Some(old),
        },
        Stmt::Store { ptr: pv, value: s0 },
    ];
    kernel(
        &format!("prim_{}", format!("{ty}").replace(['<', '>'], "")),
        vec![param("p", p, dev()), param("cnt", cnt, dev())],
        f,
    )
}

#[test]
fn reduction_primitives() {
    let kernels = [
        Type::Int(IntKind::I8),
        Type::I32,
        Type::Int(IntKind::U64),
        Type::F32,
        Type::F64,
    ]
    .into_iter()
    .map(primitives_kernel)
    .collect();
    let m = module(kernels);
    for level in [0, 3] {
        let text = ptx(&m, &options(level));
        for insn in ["shfl.sync.bfly.b32", ".shared", "membar.gl", "atom"] {
            assert!(text.contains(insn), "{insn}:\n{text}");
        }
    }
}

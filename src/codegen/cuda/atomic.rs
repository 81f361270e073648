//! Atomic statements → CUDA's `atomic*` functions, which are relaxed and
//! of device scope, as the IR's atomics are.
//!
//! Owns: the atomic half of `FnWriter`. `AtomicRmw` is CUDA's function of
//! the operation on the type's word (`long long` through `unsigned long
//! long` where CUDA has no signed version: the same bits; subtraction as
//! the addition of the negation, which IEEE and two's complement make
//! exact; a `double` exchange on its bits). `AtomicCas` compares and
//! swaps the values' bits (floats through `__float_as_uint` and
//! `__double_as_longlong`, so a NaN or -0.0 found still matches itself;
//! 16-bit through CUDA's `unsigned short` version, bytes through the
//! `__accc_cas8` helper). `AtomicLoad`/`AtomicStore` are volatile
//! accesses of the natural alignment (one piece: `ld.volatile`/
//! `st.volatile`).
//!
//! In host C (`Dialect::HostC`) they are GCC's relaxed `__atomic`
//! builtins ([`host_rmw`]).
//!
//! May call: `ir`, `codegen::c`.

use super::names::Helper;
use super::types::c_type;
use super::writer::{internal, FnWriter};
use super::Error;
use crate::codegen::c::{CBinOp, CExpr, CUnOp};
use crate::ir::{AtomicOp, ExprId, FloatKind, IntKind, LocalId, Type};

/// `(t *)e` unless `e` is one already.
fn ptr_as(e: CExpr, from: &Type, t: &str) -> CExpr {
    if c_type(from) == format!("{t} *") {
        e
    } else {
        CExpr::cast(format!("{t} *"), e)
    }
}

/// The unsigned type of `t`'s bits.
fn bits_type(t: &Type) -> Result<&'static str, Error> {
    Ok(match t.size() {
        1 => "unsigned char",
        2 => "unsigned short",
        4 => "unsigned int",
        8 => "unsigned long long",
        _ => return internal(&format!("compare-and-swap of {t}")),
    })
}

/// CUDA's functions reinterpreting float bits, and host C's
/// (`names::HOST_PRELUDE`): float → u32, u32 → float, double → i64,
/// i64 → double.
const BITS: [[&str; 4]; 2] = [
    [
        "__float_as_uint",
        "__uint_as_float",
        "__double_as_longlong",
        "__longlong_as_double",
    ],
    [
        "__accc_float_bits",
        "__accc_bits_float",
        "__accc_double_bits",
        "__accc_bits_double",
    ],
];

/// The bits of `e` (of type `t`) as an unsigned integer of its width.
fn to_bits(e: CExpr, t: &Type, host: bool) -> Result<CExpr, Error> {
    let f = BITS[usize::from(host)];
    Ok(match t {
        Type::Float(FloatKind::F32) => CExpr::call(f[0], vec![e]),
        Type::Float(FloatKind::F64) => {
            CExpr::cast("unsigned long long", CExpr::call(f[2], vec![e]))
        }
        _ => CExpr::cast(bits_type(t)?, e),
    })
}

/// The value of type `t` whose bits `e` holds.
fn from_bits(e: CExpr, t: &Type, host: bool) -> CExpr {
    let f = BITS[usize::from(host)];
    match t {
        Type::Float(FloatKind::F32) => CExpr::call(f[1], vec![e]),
        Type::Float(FloatKind::F64) => CExpr::call(f[3], vec![CExpr::cast("long long", e)]),
        _ => CExpr::cast(c_type(t), e),
    }
}

/// Host C: `*p = *p op v` on GCC's `__atomic` builtins, giving the old
/// value: fetch-and-op where GCC has it (integers), else a
/// compare-and-swap loop computing `next` from the old value `__accc_o`
/// and the operand `__accc_v` (a no-op swap leaves the loop at once where
/// `keep` holds: the minimum or maximum already there).
fn host_rmw(op: AtomicOp, t: &Type, p: CExpr, v: CExpr) -> Result<CExpr, Error> {
    let ct = c_type(t);
    let relaxed = "__ATOMIC_RELAXED";
    let fetch = |f: &str| {
        CExpr::call(
            format!("__atomic_{f}"),
            vec![p.clone(), v.clone(), CExpr::atom(relaxed)],
        )
    };
    let float = t.is_float();
    let cas = |next: &str, keep: &str| {
        CExpr::atom(format!(
            "({{ {ct} *__accc_p = {}; {ct} __accc_v = {}, __accc_o, __accc_n; \
             __atomic_load(__accc_p, &__accc_o, {relaxed}); \
             do {{ if ({keep}) break; __accc_n = {next}; }} \
             while (!__atomic_compare_exchange(__accc_p, &__accc_o, &__accc_n, 1, {relaxed}, {relaxed})); \
             __accc_o; }})",
            p.to_c(),
            v.to_c()
        ))
    };
    Ok(match op {
        AtomicOp::Add if float => cas("__accc_o + __accc_v", "0"),
        AtomicOp::Sub if float => cas("__accc_o - __accc_v", "0"),
        AtomicOp::Add => fetch("fetch_add"),
        AtomicOp::Sub => fetch("fetch_sub"),
        AtomicOp::And if !float => fetch("fetch_and"),
        AtomicOp::Or if !float => fetch("fetch_or"),
        AtomicOp::Xor if !float => fetch("fetch_xor"),
        AtomicOp::Exchange if float => cas("__accc_v", "0"),
        AtomicOp::Exchange => fetch("exchange_n"),
        AtomicOp::Min if !float => cas("__accc_v", "!(__accc_v < __accc_o)"),
        AtomicOp::Max if !float => cas("__accc_v", "!(__accc_v > __accc_o)"),
        // `ir::validate` allows it on u32 only (the gang counters).
        AtomicOp::IncWrap if *t == Type::Int(IntKind::U32) => {
            cas("__accc_o >= __accc_v ? 0u : __accc_o + 1u", "0")
        }
        op => return internal(&format!("atomic {op:?} on {t}")),
    })
}

impl FnWriter<'_> {
    /// The call of `*ptr = *ptr op value` returning the old value (of the
    /// type of CUDA's function; the caller converts it).
    pub fn atomic_rmw(&mut self, op: AtomicOp, ptr: ExprId, value: ExprId) -> Result<CExpr, Error> {
        let pt = self.f.ty(ptr).clone();
        let t = self.f.ty(value).clone();
        let p = self.expr(ptr)?;
        let v = self.expr(value)?;
        if self.host() {
            let p = match pt.pointee() {
                Some(e) if *e == t => p,
                _ => CExpr::cast(c_type(&t.ptr_to()), p),
            };
            return host_rmw(op, &t, p, v);
        }
        let neg = |v: CExpr| CExpr::un(CUnOp::Neg, v);
        let call = |f: &str, p: CExpr, v: CExpr| CExpr::call(f, vec![p, v]);
        Ok(match (&t, op) {
            (Type::Float(_), AtomicOp::Add) => call("atomicAdd", p, v),
            (Type::Float(_), AtomicOp::Sub) => call("atomicAdd", p, neg(v)),
            (Type::Float(FloatKind::F32), AtomicOp::Exchange) => call("atomicExch", p, v),
            (Type::Float(FloatKind::F64), AtomicOp::Exchange) => {
                let old = call(
                    "atomicExch",
                    ptr_as(p, &pt, "unsigned long long"),
                    to_bits(v, &t, false)?,
                );
                from_bits(old, &t, false)
            }
            (Type::Float(_), op) => return internal(&format!("atomic {op:?} on a float")),
            (Type::Int(k), op) if k.bits() == 32 => {
                let w = if k.is_signed() { "int" } else { "unsigned int" };
                let f = match op {
                    AtomicOp::Add => "atomicAdd",
                    AtomicOp::Sub => "atomicSub",
                    AtomicOp::Min => "atomicMin",
                    AtomicOp::Max => "atomicMax",
                    AtomicOp::And => "atomicAnd",
                    AtomicOp::Or => "atomicOr",
                    AtomicOp::Xor => "atomicXor",
                    AtomicOp::Exchange => "atomicExch",
                    AtomicOp::IncWrap => {
                        let u = "unsigned int";
                        let v = if k.is_signed() { CExpr::cast(u, v) } else { v };
                        return Ok(call("atomicInc", ptr_as(p, &pt, u), v));
                    }
                };
                call(f, ptr_as(p, &pt, w), v)
            }
            (Type::Int(k), op) if k.bits() == 64 => {
                let ull = "unsigned long long";
                let u = |v: CExpr| {
                    if k.is_signed() {
                        CExpr::cast(ull, v)
                    } else {
                        v
                    }
                };
                match op {
                    // CUDA has signed 64-bit minimum and maximum only.
                    AtomicOp::Min | AtomicOp::Max => {
                        let f = if op == AtomicOp::Min {
                            "atomicMin"
                        } else {
                            "atomicMax"
                        };
                        let w = if k.is_signed() { "long long" } else { ull };
                        call(f, ptr_as(p, &pt, w), v)
                    }
                    AtomicOp::Sub => {
                        let d = CExpr::bin(CBinOp::Sub, CExpr::atom("0ULL"), u(v));
                        call("atomicAdd", ptr_as(p, &pt, ull), d)
                    }
                    // `ir::validate` allows the wrapping increment on u32
                    // only (what the schedule's gang counters use), as
                    // the NVPTX back end relies on too.
                    AtomicOp::IncWrap => return internal("64-bit wrapping increment"),
                    op => {
                        let f = match op {
                            AtomicOp::Add => "atomicAdd",
                            AtomicOp::And => "atomicAnd",
                            AtomicOp::Or => "atomicOr",
                            AtomicOp::Xor => "atomicXor",
                            _ => "atomicExch",
                        };
                        call(f, ptr_as(p, &pt, ull), u(v))
                    }
                }
            }
            _ => return internal(&format!("atomic {op:?} on {t}")),
        })
    }

    /// `old, ok = compare-and-swap(*ptr, expected, desired)` on the bits,
    /// as a block with the expected bits and the bits found in
    /// temporaries (`expected` may read `old`).
    pub fn atomic_cas(
        &mut self,
        ptr: ExprId,
        expected: ExprId,
        desired: ExprId,
        old: LocalId,
        ok: LocalId,
    ) -> Result<(), Error> {
        let pt = self.f.ty(ptr).clone();
        let t = self.f.ty(expected).clone();
        let u = bits_type(&t)?;
        let host = self.host();
        let p = ptr_as(self.expr(ptr)?, &pt, u);
        let e = to_bits(self.expr(expected)?, &t, host)?;
        let d = to_bits(self.expr(desired)?, &t, host)?;
        let (ve, vo) = (CExpr::atom("__accc_e"), CExpr::atom("__accc_o"));
        let found = if host {
            // The bits found: the expected ones when the swap lands.
            CExpr::atom(format!(
                "({{ {u} __accc_x = __accc_e; __atomic_compare_exchange_n({}, &__accc_x, {}, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED); __accc_x; }})",
                p.to_c(),
                d.to_c()
            ))
        } else if t.size() == 1 {
            self.helpers.insert(Helper::Cas8);
            CExpr::call("__accc_cas8", vec![p, ve.clone(), d])
        } else {
            CExpr::call("atomicCAS", vec![p, ve.clone(), d])
        };
        let set_old = self.assign(old, from_bits(vo.clone(), &t, host))?;
        let set_ok = self.assign(ok, CExpr::bin(CBinOp::Eq, vo, ve))?;
        self.w_open("");
        self.w_line(&format!("{u} __accc_e = {};", e.to_c()));
        self.w_line(&format!("{u} __accc_o = {};", found.to_c()));
        self.w_line(&format!("{};", set_old.to_c()));
        self.w_line(&format!("{};", set_ok.to_c()));
        self.w_close();
        Ok(())
    }

    /// `*(volatile T *)ptr`: one load of the pointee.
    pub fn atomic_load(&mut self, ptr: ExprId) -> Result<CExpr, Error> {
        let p = self.volatile(ptr)?;
        Ok(CExpr::un(CUnOp::Deref, p))
    }

    /// `*(volatile T *)ptr = value`: one store.
    pub fn atomic_store(&mut self, ptr: ExprId, value: ExprId) -> Result<CExpr, Error> {
        let p = self.volatile(ptr)?;
        let v = self.expr(value)?;
        Ok(CExpr::bin(CBinOp::Assign, CExpr::un(CUnOp::Deref, p), v))
    }

    /// `ptr` as a pointer to a volatile scalar.
    fn volatile(&mut self, ptr: ExprId) -> Result<CExpr, Error> {
        // `ir::validate` allows atomic loads and stores of integers and
        // floats only (the front end rejects other types with a located
        // error, as it does for both back ends).
        let t = match self.f.ty(ptr).pointee() {
            Some(t @ (Type::Int(_) | Type::Float(_))) => t.clone(),
            Some(t) => return internal(&format!("atomic read or write of {t}")),
            None => return internal("atomic access through a non-pointer"),
        };
        let p = self.expr(ptr)?;
        Ok(CExpr::cast(format!("{} volatile *", c_type(&t)), p))
    }
}

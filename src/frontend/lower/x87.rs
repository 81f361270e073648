//! `long double` objects in device memory: the host's x87 80-bit extended
//! format (x86-64 SysV: the 64-bit significand, integer bit explicit, in
//! bytes 0–7; sign and 15-bit biased exponent in bytes 8–9; 6 bytes of
//! padding) read into, and written from, the `f64` values device code
//! computes `long double` with.
//!
//! Reading rounds to the nearest `double`, ties to even (what the x87 does
//! storing a double): infinities, NaNs (quiet bit and the payload's high
//! bits kept), signed zeros, values beyond `DBL_MAX` (infinite) and below
//! `DBL_MIN` (subnormal, rounded once) included; unnormals (integer bit
//! clear, exponent not zero), which x87 arithmetic never produces, read as
//! the value their bits denote. Writing is exact (every
//! double is an extended value). Bytes 10–15 are never written, as the
//! host's own `fstpt` leaves them. Both are plain integer IR, so every back
//! end gets them.
//!
//! Owns: `Lower::load_x87`, `Lower::store_x87`. May call: `ir`.

use super::Lower;
use crate::ir::{BinOp, CmpOp, Expr, ExprId, IntKind, LocalId, Stmt, Type};

const U64: Type = Type::U64;

impl Lower<'_> {
    fn k(&mut self, v: i128) -> ExprId {
        self.f.int(v, U64)
    }

    /// `a op b` on two `u64` locals or constants, as an expression.
    fn op(&mut self, op: BinOp, a: ExprId, b: ExprId) -> ExprId {
        self.f.add(Expr::Binary { op, lhs: a, rhs: b }, U64)
    }

    fn cmp64(&mut self, op: CmpOp, a: ExprId, b: ExprId) -> ExprId {
        self.f.add(Expr::Cmp { op, lhs: a, rhs: b }, Type::BOOL)
    }

    /// `local = value`.
    fn set(&mut self, local: LocalId, value: ExprId) {
        self.emit(Stmt::Assign { local, value });
    }

    /// `if (cond) { then } else { otherwise }`, both lowered by closures.
    fn branch(
        &mut self,
        cond: ExprId,
        then: impl FnOnce(&mut Self),
        otherwise: impl FnOnce(&mut Self),
    ) {
        self.blocks.push(vec![]);
        then(self);
        let then = self.blocks.pop().unwrap_or_default();
        self.blocks.push(vec![]);
        otherwise(self);
        let otherwise = self.blocks.pop().unwrap_or_default();
        self.emit(Stmt::If {
            cond,
            then,
            otherwise,
            single: false,
        });
    }

    /// The number of leading zero bits of `x` (a non-zero `u64` local) into
    /// a new local, and `x` shifted left by it (its top bit set) into `x`.
    fn normalize(&mut self, x: LocalId) -> LocalId {
        let n = self.temp(U64);
        let z = self.k(0);
        self.set(n, z);
        for bits in [32, 16, 8, 4, 2, 1] {
            // if ((x >> (64 - bits)) == 0) { x <<= bits; n += bits; }
            let (xv, sh) = (self.f.read(x), self.k(64 - bits));
            let top = self.op(BinOp::Shr, xv, sh);
            let zero = self.k(0);
            let empty = self.cmp64(CmpOp::Eq, top, zero);
            self.branch(
                empty,
                |l| {
                    let (xv, b) = (l.f.read(x), l.k(bits));
                    let v = l.op(BinOp::Shl, xv, b);
                    l.set(x, v);
                    let (nv, b) = (l.f.read(n), l.k(bits));
                    let v = l.op(BinOp::Add, nv, b);
                    l.set(n, v);
                },
                |_| {},
            );
        }
        n
    }

    /// `p` (any pointer) moved `off` bytes and retyped to point at `t`.
    fn bytes_at(&mut self, p: LocalId, off: i128, t: Type) -> ExprId {
        let byte = Type::Int(IntKind::U8).ptr_to();
        let base = self.f.read(p);
        let base = self.cast_ir(base, byte.clone());
        let o = self.f.int(off, Type::I64);
        let q = self.f.add(Expr::PtrAdd { base, index: o }, byte);
        self.cast_ir(q, t.ptr_to())
    }

    /// The value of the `long double` object at `ptr`, as an `f64`.
    pub fn load_x87(&mut self, ptr: ExprId) -> ExprId {
        let p = self.hold(ptr);
        let a = self.bytes_at(p, 0, U64);
        let m = self.f.add(Expr::Load(a), U64);
        let m = self.hold(m);
        let a = self.bytes_at(p, 8, Type::Int(IntKind::U16));
        let se = self.f.add(Expr::Load(a), Type::Int(IntKind::U16));
        let se = self.cast_ir(se, U64);
        let se = self.hold(se);
        // sign = (se >> 15) << 63; e = se & 0x7fff
        let (v, c) = (self.f.read(se), self.k(15));
        let s = self.op(BinOp::Shr, v, c);
        let c = self.k(63);
        let s = self.op(BinOp::Shl, s, c);
        let sign = self.hold(s);
        let (v, c) = (self.f.read(se), self.k(0x7fff));
        let e = self.op(BinOp::And, v, c);
        let e = self.hold(e);
        let r = self.temp(U64);
        let (ev, c) = (self.f.read(e), self.k(0x7fff));
        let special = self.cmp64(CmpOp::Eq, ev, c);
        self.branch(
            special,
            |l| {
                // Infinity or NaN: the payload below the integer bit, the
                // quiet bit forced so that a NaN stays one.
                let (mv, one) = (l.f.read(m), l.k(1));
                let frac = l.op(BinOp::Shl, mv, one);
                let frac = l.hold(frac);
                let (fv, z) = (l.f.read(frac), l.k(0));
                let nan = l.cmp64(CmpOp::Ne, fv, z);
                let (fv, c) = (l.f.read(frac), l.k(12));
                let payload = l.op(BinOp::Shr, fv, c);
                let q = l.k(0x0008_0000_0000_0000);
                let payload = l.op(BinOp::Or, payload, q);
                let z = l.k(0);
                let payload = l.f.add(
                    Expr::Select {
                        cond: nan,
                        then: payload,
                        otherwise: z,
                    },
                    U64,
                );
                let (sv, inf) = (l.f.read(sign), l.k(0x7ff0_0000_0000_0000));
                let v = l.op(BinOp::Or, sv, inf);
                let v = l.op(BinOp::Or, v, payload);
                l.set(r, v);
            },
            |l| {
                let (mv, z) = (l.f.read(m), l.k(0));
                let zero = l.cmp64(CmpOp::Eq, mv, z);
                l.branch(
                    zero,
                    |l| {
                        let sv = l.f.read(sign);
                        l.set(r, sv);
                    },
                    |l| l.finite_x87(m, e, sign, r),
                );
            },
        );
        let rv = self.f.read(r);
        self.bits_as_f64(rv)
    }

    /// `r` = the double bits of the non-zero finite extended value of
    /// significand `m` and biased exponent `e` (0: denormal), sign bit
    /// `sign` (at bit 63), rounded to nearest even.
    fn finite_x87(&mut self, m: LocalId, e: LocalId, sign: LocalId, r: LocalId) {
        // value = m * 2^(max(e, 1) - 16446); normalised: mn * 2^(… - lz).
        let (ev, one) = (self.f.read(e), self.k(1));
        let e1 = self.op(BinOp::Max, ev, one);
        let e1 = self.hold(e1);
        let mn = self.temp(U64);
        let mv = self.f.read(m);
        self.set(mn, mv);
        let lz = self.normalize(mn);
        // The double's biased exponent: b = e1 - lz - 15360 (signed).
        let i64t = Type::I64;
        let (ev, lv) = (self.f.read(e1), self.f.read(lz));
        let ev = self.cast_ir(ev, i64t.clone());
        let lv = self.cast_ir(lv, i64t.clone());
        let d = self.f.add(
            Expr::Binary {
                op: BinOp::Sub,
                lhs: ev,
                rhs: lv,
            },
            i64t.clone(),
        );
        let c = self.f.int(15360, i64t.clone());
        let b = self.f.add(
            Expr::Binary {
                op: BinOp::Sub,
                lhs: d,
                rhs: c,
            },
            i64t.clone(),
        );
        let b = self.hold(b);
        let (bv, c) = (self.f.read(b), self.f.int(2047, i64t.clone()));
        let overflow = self.f.add(
            Expr::Cmp {
                op: CmpOp::Ge,
                lhs: bv,
                rhs: c,
            },
            Type::BOOL,
        );
        self.branch(
            overflow,
            |l| {
                let (sv, inf) = (l.f.read(sign), l.k(0x7ff0_0000_0000_0000));
                let v = l.op(BinOp::Or, sv, inf);
                l.set(r, v);
            },
            |l| {
                let (bv, c) = (l.f.read(b), l.f.int(1, Type::I64));
                let normal = l.f.add(
                    Expr::Cmp {
                        op: CmpOp::Ge,
                        lhs: bv,
                        rhs: c,
                    },
                    Type::BOOL,
                );
                l.branch(
                    normal,
                    |l| {
                        // 53 bits kept, 11 rounded off; a carry out of the
                        // significand moves into the exponent (up to inf).
                        let sh = l.k(11);
                        let mant = l.round_off(mn, sh);
                        let (bv, c) = (l.f.read(b), l.k(52));
                        let bv = l.cast_ir(bv, U64);
                        let ex = l.op(BinOp::Shl, bv, c);
                        let mv = l.f.read(mant);
                        let v = l.op(BinOp::Add, ex, mv);
                        let hidden = l.k(1 << 52);
                        let v = l.op(BinOp::Sub, v, hidden);
                        let sv = l.f.read(sign);
                        let v = l.op(BinOp::Or, sv, v);
                        l.set(r, v);
                    },
                    |l| {
                        // Subnormal: frac = mn >> (12 - b), rounded; past
                        // 64 bits of shift it rounds to zero.
                        let (c, bv) = (l.f.int(12, Type::I64), l.f.read(b));
                        let sh = l.f.add(
                            Expr::Binary {
                                op: BinOp::Sub,
                                lhs: c,
                                rhs: bv,
                            },
                            Type::I64,
                        );
                        let sh = l.cast_ir(sh, U64);
                        let sh = l.hold(sh);
                        let (sv, c) = (l.f.read(sh), l.k(64));
                        let tiny = l.cmp64(CmpOp::Gt, sv, c);
                        l.branch(
                            tiny,
                            |l| {
                                let sv = l.f.read(sign);
                                l.set(r, sv);
                            },
                            |l| {
                                let shv = l.f.read(sh);
                                let mant = l.round_off(mn, shv);
                                let (sv, mv) = (l.f.read(sign), l.f.read(mant));
                                let v = l.op(BinOp::Or, sv, mv);
                                l.set(r, v);
                            },
                        );
                    },
                );
            },
        );
    }

    /// `x >> sh` rounded to nearest, ties to even (`sh` a `u64` from 1 to
    /// 64), into a new local.
    fn round_off(&mut self, x: LocalId, sh: ExprId) -> LocalId {
        let sh = self.hold(sh);
        let (mant, rem, half) = (self.temp(U64), self.temp(U64), self.temp(U64));
        let (sv, c) = (self.f.read(sh), self.k(64));
        let all = self.cmp64(CmpOp::Eq, sv, c);
        self.branch(
            all,
            |l| {
                let z = l.k(0);
                l.set(mant, z);
                let xv = l.f.read(x);
                l.set(rem, xv);
                let h = l.k(1 << 63);
                l.set(half, h);
            },
            |l| {
                let (xv, sv) = (l.f.read(x), l.f.read(sh));
                let v = l.op(BinOp::Shr, xv, sv);
                l.set(mant, v);
                let (one, sv) = (l.k(1), l.f.read(sh));
                let h = l.op(BinOp::Shl, one, sv);
                let one = l.k(1);
                let mask = l.op(BinOp::Sub, h, one);
                let xv = l.f.read(x);
                let v = l.op(BinOp::And, xv, mask);
                l.set(rem, v);
                let (sv, one) = (l.f.read(sh), l.k(1));
                let s1 = l.op(BinOp::Sub, sv, one);
                let one = l.k(1);
                let h = l.op(BinOp::Shl, one, s1);
                l.set(half, h);
            },
        );
        // up = rem > half || (rem == half && (mant & 1))
        let (rv, hv) = (self.f.read(rem), self.f.read(half));
        let above = self.cmp64(CmpOp::Gt, rv, hv);
        let (rv, hv) = (self.f.read(rem), self.f.read(half));
        let tie = self.cmp64(CmpOp::Eq, rv, hv);
        let (mv, one) = (self.f.read(mant), self.k(1));
        let odd = self.op(BinOp::And, mv, one);
        let z = self.k(0);
        let odd = self.cmp64(CmpOp::Ne, odd, z);
        let tie_odd = self.f.add(
            Expr::Logical {
                and: true,
                lhs: tie,
                rhs: odd,
            },
            Type::BOOL,
        );
        let up = self.f.add(
            Expr::Logical {
                and: false,
                lhs: above,
                rhs: tie_odd,
            },
            Type::BOOL,
        );
        let up = self.cast_ir(up, U64);
        let mv = self.f.read(mant);
        let v = self.op(BinOp::Add, mv, up);
        self.set(mant, v);
        mant
    }

    /// The `f64` whose bits are the `u64` `bits` (through a local's memory).
    fn bits_as_f64(&mut self, bits: ExprId) -> ExprId {
        let cell = self.temp(U64);
        self.set(cell, bits);
        let a = self.f.add(Expr::LocalAddr(cell), U64.ptr_to());
        let a = self.cast_ir(a, Type::F64.ptr_to());
        self.f.add(Expr::Load(a), Type::F64)
    }

    /// The bits of `f64` value `x`, as a `u64`.
    fn f64_bits(&mut self, x: ExprId) -> ExprId {
        let cell = self.temp(Type::F64);
        self.set(cell, x);
        let a = self.f.add(Expr::LocalAddr(cell), Type::F64.ptr_to());
        let a = self.cast_ir(a, U64.ptr_to());
        self.f.add(Expr::Load(a), U64)
    }

    /// The statements that write `f64` value `value` into the `long double`
    /// object at `ptr` (not emitted: the caller decides which threads run
    /// them).
    pub fn store_x87(&mut self, ptr: ExprId, value: ExprId) -> Vec<Stmt> {
        self.blocks.push(vec![]);
        let p = self.hold(ptr);
        let bits = self.f64_bits(value);
        let bits = self.hold(bits);
        // sign16 = (bits >> 48) & 0x8000; E = (bits >> 52) & 0x7ff; f = low 52.
        let (v, c) = (self.f.read(bits), self.k(48));
        let s = self.op(BinOp::Shr, v, c);
        let c = self.k(0x8000);
        let s = self.op(BinOp::And, s, c);
        let sign = self.hold(s);
        let (v, c) = (self.f.read(bits), self.k(52));
        let ex = self.op(BinOp::Shr, v, c);
        let c = self.k(0x7ff);
        let ex = self.op(BinOp::And, ex, c);
        let ex = self.hold(ex);
        let (v, c) = (self.f.read(bits), self.k((1 << 52) - 1));
        let frac = self.op(BinOp::And, v, c);
        let frac = self.hold(frac);
        let (m, e) = (self.temp(U64), self.temp(U64));
        let (xv, z) = (self.f.read(ex), self.k(0));
        let sub = self.cmp64(CmpOp::Eq, xv, z);
        self.branch(
            sub,
            |l| {
                // Zero, or a subnormal double: normalised (x87 reaches it).
                let (fv, z) = (l.f.read(frac), l.k(0));
                let zero = l.cmp64(CmpOp::Eq, fv, z);
                l.branch(
                    zero,
                    |l| {
                        let z = l.k(0);
                        l.set(m, z);
                        let z = l.k(0);
                        l.set(e, z);
                    },
                    |l| {
                        let fv = l.f.read(frac);
                        l.set(m, fv);
                        let lz = l.normalize(m);
                        let (c, lv) = (l.k(15372), l.f.read(lz));
                        let v = l.op(BinOp::Sub, c, lv);
                        l.set(e, v);
                    },
                );
            },
            |l| {
                // Normal, infinite or NaN: the integer bit made explicit.
                let (fv, c) = (l.f.read(frac), l.k(11));
                let v = l.op(BinOp::Shl, fv, c);
                let top = l.k(1 << 63);
                let v = l.op(BinOp::Or, v, top);
                l.set(m, v);
                let (xv, c) = (l.f.read(ex), l.k(0x7ff));
                let special = l.cmp64(CmpOp::Eq, xv, c);
                let (xv, c) = (l.f.read(ex), l.k(15360));
                let biased = l.op(BinOp::Add, xv, c);
                let all = l.k(0x7fff);
                let v = l.f.add(
                    Expr::Select {
                        cond: special,
                        then: all,
                        otherwise: biased,
                    },
                    U64,
                );
                l.set(e, v);
            },
        );
        let a = self.bytes_at(p, 0, U64);
        let mv = self.f.read(m);
        self.emit(Stmt::Store { ptr: a, value: mv });
        let (sv, ev) = (self.f.read(sign), self.f.read(e));
        let se = self.op(BinOp::Or, sv, ev);
        let se = self.cast_ir(se, Type::Int(IntKind::U16));
        let a = self.bytes_at(p, 8, Type::Int(IntKind::U16));
        self.emit(Stmt::Store { ptr: a, value: se });
        self.blocks.pop().unwrap_or_default()
    }
}

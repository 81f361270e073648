//! Atomic statements → LLVM atomics, for the NVPTX writer.
//!
//! Owns: [`Stmt::AtomicRmw`] (`atomicrmw`; on floats `fadd`/`fsub`/`xchg`,
//! which inkwell does not build, through the LLVM C API), `AtomicCas`
//! (`cmpxchg` on the value's bits: floats are compared as integers of their
//! width, so a NaN or -0.0 found in memory still matches itself), and
//! `AtomicLoad`/`AtomicStore` (monotonic loads and stores of the natural
//! alignment). Every atomic is relaxed (`monotonic`) and of device scope
//! (`syncscope("device")`: `.gpu` in PTX), as CUDA's `atomic*` functions
//! are. Types narrower than 32 bits are widened to their word by
//! LLVM's atomic expansion (NVPTX has no byte atomics).
//!
//! May call: `ir`.
//!
//! [`Stmt::AtomicRmw`]: crate::ir::Stmt::AtomicRmw

use super::writer::{internal, llvm, Writer};
use super::Error;
use crate::ir::{AtomicOp, ExprId, LocalId, Type};
use inkwell::llvm_sys::core::{LLVMBuildAtomicRMW, LLVMGetSyncScopeID, LLVMSetAtomicSyncScopeID};
use inkwell::llvm_sys::prelude::LLVMValueRef;
use inkwell::llvm_sys::{LLVMAtomicOrdering, LLVMAtomicRMWBinOp};
use inkwell::values::{AsValueRef, BasicValue, BasicValueEnum};
use inkwell::{AtomicOrdering, AtomicRMWBinOp};

impl<'c> Writer<'_, 'c> {
    /// Makes atomic instruction `i` of device scope.
    fn device_scope(&self, i: LLVMValueRef) {
        let name = b"device";
        // SAFETY: `i` is an atomic instruction of this writer's context;
        // the name is a byte string of the length given.
        unsafe {
            let id = LLVMGetSyncScopeID(self.ctx.raw(), name.as_ptr().cast(), name.len());
            LLVMSetAtomicSyncScopeID(i, id);
        }
    }

    /// `old = atomic op(*ptr, value)`.
    pub fn atomic_rmw(
        &mut self,
        op: AtomicOp,
        ptr: ExprId,
        value: ExprId,
        old: Option<LocalId>,
    ) -> Result<(), Error> {
        let p = self.ptr(ptr)?;
        let r: BasicValueEnum<'c> = match self.f.ty(value) {
            Type::Float(_) => {
                let v = self.expr(value)?;
                let bop = match op {
                    AtomicOp::Add => LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpFAdd,
                    AtomicOp::Sub => LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpFSub,
                    AtomicOp::Exchange => LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpXchg,
                    _ => return internal(&format!("atomic {op:?} on a float")),
                };
                // SAFETY: the builder is positioned in a function (the
                // writer only emits there), the pointer and value are live
                // values of this context, and the value's type is the
                // pointee type (IR validation).
                unsafe {
                    let r = LLVMBuildAtomicRMW(
                        self.b.as_mut_ptr(),
                        bop,
                        p.as_value_ref(),
                        v.as_value_ref(),
                        LLVMAtomicOrdering::LLVMAtomicOrderingMonotonic,
                        0,
                    );
                    if r.is_null() {
                        return internal("LLVM did not build a float atomic");
                    }
                    self.device_scope(r);
                    BasicValueEnum::new(r)
                }
            }
            t => {
                let signed = matches!(t, Type::Int(k) if k.is_signed());
                use AtomicOp as A;
                use AtomicRMWBinOp as B;
                let bop = match (op, signed) {
                    (A::Add, _) => B::Add,
                    (A::Sub, _) => B::Sub,
                    (A::Min, true) => B::Min,
                    (A::Min, false) => B::UMin,
                    (A::Max, true) => B::Max,
                    (A::Max, false) => B::UMax,
                    (A::And, _) => B::And,
                    (A::Or, _) => B::Or,
                    (A::Xor, _) => B::Xor,
                    (A::Exchange, _) => B::Xchg,
                    (A::IncWrap, _) => B::UIncWrap,
                };
                let v = self.int(value)?;
                let r = llvm(self.b.build_atomicrmw(bop, p, v, AtomicOrdering::Monotonic))?;
                self.device_scope(r.as_value_ref());
                r.as_basic_value_enum()
            }
        };
        if let Some(l) = old {
            llvm(self.b.build_store(self.local_ptr(l.0)?, r))?;
        }
        Ok(())
    }

    /// The integer type of `t`'s width (a float's bits).
    fn bits_type(&self, t: &Type) -> Result<inkwell::types::IntType<'c>, Error> {
        Ok(match t.size() {
            1 => self.ctx.i8_type(),
            2 => self.ctx.i16_type(),
            4 => self.ctx.i32_type(),
            8 => self.ctx.i64_type(),
            _ => return internal("compare-and-swap of a non-scalar"),
        })
    }

    /// `value`'s bits as an integer (floats bit-cast).
    fn as_bits(&self, value: ExprId) -> Result<inkwell::values::IntValue<'c>, Error> {
        let t = self.f.ty(value).clone();
        match self.expr(value)? {
            BasicValueEnum::IntValue(v) => Ok(v),
            BasicValueEnum::FloatValue(v) => {
                let it = self.bits_type(&t)?;
                Ok(llvm(self.b.build_bit_cast(v, it, "bits"))?.into_int_value())
            }
            _ => internal("compare-and-swap of a non-scalar"),
        }
    }

    /// `old, ok = cmpxchg(*ptr, expected, desired)`, on the values' bits.
    pub fn atomic_cas(
        &mut self,
        ptr: ExprId,
        expected: ExprId,
        desired: ExprId,
        old: LocalId,
        ok: LocalId,
    ) -> Result<(), Error> {
        let p = self.ptr(ptr)?;
        let t = self.f.ty(expected).clone();
        let e = self.as_bits(expected)?;
        let d = self.as_bits(desired)?;
        let pair = llvm(self.b.build_cmpxchg(
            p,
            e,
            d,
            AtomicOrdering::Monotonic,
            AtomicOrdering::Monotonic,
        ))?;
        self.device_scope(pair.as_value_ref());
        let found = llvm(self.b.build_extract_value(pair, 0, "found"))?.into_int_value();
        let swapped = llvm(self.b.build_extract_value(pair, 1, "swapped"))?;
        let found: BasicValueEnum<'c> = match &t {
            Type::Float(_) => llvm(self.b.build_bit_cast(found, self.ty(&t)?, "old"))?,
            _ => found.into(),
        };
        llvm(self.b.build_store(self.local_ptr(old.0)?, found))?;
        llvm(self.b.build_store(self.local_ptr(ok.0)?, swapped))?;
        Ok(())
    }

    /// `dst = *ptr`, one relaxed atomic load.
    pub fn atomic_load(&mut self, ptr: ExprId, dst: LocalId) -> Result<(), Error> {
        let p = self.ptr(ptr)?;
        let Some(t) = self.f.ty(ptr).pointee().cloned() else {
            return internal("atomic load through a non-pointer");
        };
        let v = llvm(self.b.build_load(self.ty(&t)?, p, "atomic.read"))?;
        if let Some(i) = v.as_instruction_value() {
            let _ = i.set_alignment(t.align() as u32);
            let _ = i.set_atomic_ordering(AtomicOrdering::Monotonic);
            self.device_scope(i.as_value_ref());
        }
        llvm(self.b.build_store(self.local_ptr(dst.0)?, v))?;
        Ok(())
    }

    /// `*ptr = value`, one relaxed atomic store.
    pub fn atomic_store(&mut self, ptr: ExprId, value: ExprId) -> Result<(), Error> {
        let p = self.ptr(ptr)?;
        let v = self.expr(value)?;
        let align = self.f.ty(value).align() as u32;
        let s = llvm(self.b.build_store(p, v))?;
        let _ = s.set_alignment(align);
        let _ = s.set_atomic_ordering(AtomicOrdering::Monotonic);
        self.device_scope(s.as_value_ref());
        Ok(())
    }
}

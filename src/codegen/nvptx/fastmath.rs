//! Opt-in fast single-precision math for the NVPTX writer
//! ([`Options::fast`]), per module and per instruction, never through
//! LLVM's process-wide options:
//! * division: `fdiv float` with `afn arcp` (`div.approx.f32`, or one
//!   `rcp.approx.f32` times each dividend where a divisor is reused or
//!   loop-invariant); a reciprocal `1 / x` alone with `afn`
//!   (`rcp.approx.f32`);
//! * `sqrtf` as `llvm.sqrt.f32` with `afn` (`sqrt.approx.f32`) instead of
//!   libdevice's `__nv_sqrtf` (correctly rounded, see `mod.rs`); under a
//!   reciprocal NVPTX's instruction selection makes it `rsqrt.approx.f32`,
//!   which is how `1 / sqrtf(x)` alone is relaxed (`rsqrt`);
//! * flush to zero: every defined function (libdevice's too) gets
//!   `"denormal-fp-math-f32"="preserve-sign,preserve-sign"` (`.ftz` on every
//!   f32 instruction) and the module flag `nvvm-reflect-ftz` is 1
//!   (libdevice's `__CUDA_FTZ`, which LLVM 22's NVVMReflect reads per module);
//! * `expf`, `logf`, `powf`, `sinf`, `cosf`, `tanf` as libdevice's
//!   `__nv_fast_*` (nvcc's `__expf`…).
//!
//! `double` is never relaxed. With [`Options::fast`] off nothing here
//! changes the module.
//!
//! Owns: those choices. May call: `ir`, `codegen::fastmath`.
//!
//! [`Options::fast`]: super::Options::fast

use super::writer::{internal, llvm, Writer};
use super::Error;
use crate::ir::{Expr, ExprId, FloatKind, Literal, MathFunc, Type};
use inkwell::attributes::AttributeLoc;
use inkwell::intrinsics::Intrinsic;
use inkwell::values::{BasicValueEnum, FastMathFlags, FloatValue};

/// The value of `denormal-fp-math-f32` that flushes f32 denormals (outputs
/// and inputs) to zero.
const FTZ: &str = "preserve-sign,preserve-sign";

impl<'c> Writer<'_, 'c> {
    /// Whether `ty` is `float`, the only type fast math relaxes.
    fn is_f32(ty: &Type) -> bool {
        *ty == Type::Float(FloatKind::F32)
    }

    /// Whether expression `e` is the literal 1.
    fn is_one(&self, e: ExprId) -> bool {
        matches!(self.f.expr(e), Expr::Literal(Literal::Float(v)) if *v == 1.0)
    }

    /// The fast-math flags of the division `lhs / rhs` of type `ty`: `afn
    /// arcp` with relaxed division, `afn` for a relaxed reciprocal; none
    /// otherwise.
    pub(super) fn div_flags(&self, lhs: ExprId, ty: &Type) -> FastMathFlags {
        if !Self::is_f32(ty) {
            FastMathFlags::empty()
        } else if self.fast.div {
            FastMathFlags::ApproxFunc | FastMathFlags::AllowReciprocal
        } else if self.fast.recip && self.is_one(lhs) {
            FastMathFlags::ApproxFunc
        } else {
            FastMathFlags::empty()
        }
    }

    /// The divisor of `lhs / rhs` (of type `ty`) when it is `sqrtf(x)`
    /// under a relaxed reciprocal square root: `sqrtf(x)` approximate, so
    /// that the division becomes `rsqrt.approx.f32`. `None`: evaluate
    /// `rhs` as usual.
    pub(super) fn rsqrt_divisor(
        &self,
        lhs: ExprId,
        rhs: ExprId,
        ty: &Type,
    ) -> Result<Option<BasicValueEnum<'c>>, Error> {
        if !(self.fast.rsqrt && Self::is_f32(ty) && self.is_one(lhs)) {
            return Ok(None);
        }
        match self.f.expr(rhs) {
            Expr::Math {
                func: MathFunc::Sqrt,
                args,
            } if args.len() == 1 => self.approx_sqrt(args[0]).map(Some),
            _ => Ok(None),
        }
    }

    /// `sqrtf(x)` as `llvm.sqrt.f32` with `afn` (`sqrt.approx.f32`).
    pub(super) fn approx_sqrt(&self, x: ExprId) -> Result<BasicValueEnum<'c>, Error> {
        let v = self.expr(x)?;
        let Some(f) = Intrinsic::find("llvm.sqrt")
            .and_then(|i| i.get_declaration(self.module, &[v.get_type()]))
        else {
            return internal("LLVM has no intrinsic llvm.sqrt");
        };
        let call = llvm(self.b.build_call(f, &[v.into()], "sqrt"))?;
        match call.try_as_basic_value().basic() {
            Some(BasicValueEnum::FloatValue(v)) => {
                Ok(Self::with_flags(v, FastMathFlags::ApproxFunc).into())
            }
            _ => internal("llvm.sqrt returned no floating value"),
        }
    }

    /// Whether math function `func` of type `ty` is the approximate
    /// `llvm.sqrt` ([`Self::approx_sqrt`]).
    pub(super) fn sqrt_is_approx(&self, func: MathFunc, ty: &Type) -> bool {
        func == MathFunc::Sqrt && self.fast.sqrt && Self::is_f32(ty)
    }

    /// The libdevice name of `func` of type `ty` (its C name `c_name`):
    /// `__nv_fast_<c_name>` where libdevice has a fast form and fast
    /// functions are on, else `__nv_<c_name>`.
    pub(super) fn libdevice_name(&self, func: MathFunc, c_name: &str, ty: &Type) -> String {
        let fast = matches!(
            func,
            MathFunc::Exp
                | MathFunc::Log
                | MathFunc::Pow
                | MathFunc::Sin
                | MathFunc::Cos
                | MathFunc::Tan
        );
        if fast && self.fast.funcs && Self::is_f32(ty) {
            format!("__nv_fast_{c_name}")
        } else {
            format!("__nv_{c_name}")
        }
    }

    /// Floating `v` with `flags` (a value the builder folded to
    /// a constant is no instruction and stays as it is).
    pub(super) fn with_flags(v: FloatValue<'c>, flags: FastMathFlags) -> FloatValue<'c> {
        if let Some(i) = v.as_instruction().filter(|_| !flags.is_empty()) {
            // Only fails on an instruction that takes no fast-math flags.
            let _ = i.set_fast_math_flags(flags);
        }
        v
    }
}

/// With `ftz`, flushes f32 denormals to zero in every function `module`
/// defines.
pub(super) fn flush_to_zero(
    ctx: &inkwell::context::Context,
    module: &inkwell::module::Module,
    ftz: bool,
) {
    if !ftz {
        return;
    }
    let mut f = module.get_first_function();
    while let Some(func) = f {
        if func.count_basic_blocks() > 0 {
            func.add_attribute(
                AttributeLoc::Function,
                ctx.create_string_attribute("denormal-fp-math-f32", FTZ),
            );
        }
        f = func.get_next_function();
    }
}

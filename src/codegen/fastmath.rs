//! Opt-in relaxed floating point in device code: which of nvcc's
//! `-use_fast_math` relaxations are on. The driver sets it from `-gpu=fastmath`,
//! `-ffast-math`, `-Mfprelaxed[=…]` (`driver::args`); the NVPTX back end
//! (LLVM fast-math flags, `denormal-fp-math-f32`, libdevice's `__nv_fast_*`)
//! and the nvcc command line (`-use_fast_math`, `-prec-div`, `-prec-sqrt`,
//! `-ftz`) read it; the emulated device (`simt`) does not: it keeps IEEE
//! arithmetic (see its module doc). Only single precision (`float`) is ever
//! relaxed: `double` stays IEEE, as under nvcc's `-use_fast_math`. Off by
//! default: C's and nvcc's precise math.
//!
//! Owns: [`FastMath`]. May call: nothing.

/// Which single-precision relaxations device code gets (all off: IEEE,
/// correctly rounded division and square root, denormals kept).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FastMath {
    /// `x / y` approximate: `div.approx.f32` (2 ulp for |y| in
    /// [2^-126, 2^126]), or a reciprocal `rcp.approx.f32` times `x`
    /// where the divisor is reused (LLVM's `afn arcp`). Includes `1 / x`.
    pub div: bool,
    /// `1 / x` approximate: `rcp.approx.f32` (LLVM's `afn` on that
    /// division only).
    pub recip: bool,
    /// `sqrtf` approximate: `sqrt.approx.f32` (`llvm.sqrt` with `afn`);
    /// LLVM then also folds `1 / sqrtf(x)` into `rsqrt.approx.f32`.
    pub sqrt: bool,
    /// `1 / sqrtf(x)` as one `rsqrt.approx.f32`.
    pub rsqrt: bool,
    /// Single-precision denormal inputs and results flushed to zero (`.ftz`
    /// on every f32 instruction; libdevice's `__CUDA_FTZ` is 1).
    pub ftz: bool,
    /// libdevice's fast forms of `expf`, `logf`, `powf`, `sinf`, `cosf`
    /// and `tanf` (`__nv_fast_expf`…: nvcc's `__expf`…, built on
    /// `ex2.approx`, `lg2.approx`, `sin.approx`, `cos.approx`).
    pub funcs: bool,
}

impl FastMath {
    /// Every relaxation: `-gpu=fastmath`, `-ffast-math` (nvcc's
    /// `-use_fast_math`).
    pub const ALL: FastMath = FastMath {
        div: true,
        recip: true,
        sqrt: true,
        rsqrt: true,
        ftz: true,
        funcs: true,
    };

    /// Whether any relaxation is on.
    pub fn any(self) -> bool {
        self != FastMath::default()
    }
}

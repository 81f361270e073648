//! Back ends: each translates the IR (and only the IR) into one output form.
//! `nvptx`: LLVM IR → PTX through inkwell; `cuda`: CUDA C for nvcc (the
//! nvcc path); `simt`: the emulated device's
//! bytecode (`ptxrt-simt`); `host`: the host C rewrite;
//! `embed`: the device image as C data with a registration constructor;
//! `c`: the C-text writer (expressions, literals, layout, names) that
//! `host` writes with and every later C writer shares; `fastmath`: the
//! opt-in relaxed single-precision math the device back ends read.

pub mod c;
pub mod cuda;
pub mod embed;
pub mod fastmath;
pub mod host;
pub mod nvptx;
pub mod simt;

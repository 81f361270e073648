//! ptxrt-simt: the SIMT bytecode that accc's `codegen/simt` back end writes
//! (the same scheduled IR its NVPTX back end translates), and the emulator
//! that runs it on the CPU as a GPU would: grid × block threads with CUDA's
//! semantics, block barriers, named (row) barriers, warp syncs and shuffles
//! with member masks, shared memory per block, atomics, separate device
//! memory whose illegal accesses are caught, PTX's integer and float
//! arithmetic — and a deterministic data-race detector.
//!
//! Used by accc (to build and encode modules: [`module`], [`code`],
//! [`encode`], [`text`]) and by the emulated device plugin
//! `libptxrt-emu.so` (to decode, link and run them: [`program`],
//! [`mem`], [`launch`], [`race`]). Depends on nothing but `std` (and the C
//! library's `snprintf` for device printf): no accc, LLVM or CUDA.
//!
//! Files: `code.rs` (instructions), `module.rs` (modules, validation),
//! `encode.rs` and `decode.rs` (bytes), `text.rs` (text form), `arith.rs` (PTX arithmetic),
//! `mem.rs` (address spaces, allocations), `program.rs` (linking),
//! `exec.rs` (one thread), `access.rs` (its memory accesses), `block.rs` (one block's threads), `race.rs`
//! (race detector), `launch.rs` (a grid, messages), `printf.rs`,
//! `fault.rs`.

mod access;
pub mod arith;
mod block;
pub mod code;
pub mod decode;
pub mod encode;
mod exec;
pub mod fault;
pub mod launch;
pub mod mem;
pub mod module;
mod printf;
pub mod program;
pub mod race;
pub mod text;

pub use code::{AtomOp, BinOp, CmpOp, Inst, MathFn, Reg, Sreg, Table, Ty, UnOp};
pub use decode::decode;
pub use encode::encode;
pub use launch::{check_launch, launch, Launch, Limits, RaceMode, Report};
pub use mem::Memory;
pub use module::{Function, Global, Kernel, KernelParam, Linkage, Module, ParamKind, Site, Slot};
pub use program::{link, Program};
pub use race::RaceState;
pub use text::module_text;

#[cfg(test)]
mod tests;

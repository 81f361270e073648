//! accc — an OpenACC compiler for C targeting NVIDIA GPUs.
//!
//! Data flow (see `shared/DESIGN.md`): driver → frontend (preprocess, pragma
//! capture, lang-c, sema) → directive → ir ← analysis, schedule ← codegen
//! (nvptx, host, embed). This crate root only declares the modules.

pub mod analysis;
pub mod codegen;
pub mod diag;
pub mod directive;
pub mod driver;
pub mod frontend;
pub mod ir;
pub mod schedule;

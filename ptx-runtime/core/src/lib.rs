//! libptxrt: the runtime library of accc (`libptxrt.a`, C ABI).
//!
//! Owns: the entry points declared in `ptx-runtime/include/ptxrt.h` (compiler
//! ABI, `__ptxrt_*`) and `ptx-runtime/include/openacc.h` (user API, `acc_*`).
//! Each module owns one concept and says in its doc comment what it may call:
//!
//! * [`abi`] — the C structs of ptxrt.h, read safely.
//! * [`error`] — fatal error reporting (one line on stderr, exit 1) and the
//!   panic guard of every extern "C" function.
//! * [`present`] — the present table (host range → device range, counts).
//! * [`plugin`] — finding and dlopening the device plugin (libptxrt-cuda.so).
//! * [`device`] — the global runtime state: device selection, lazy init,
//!   `ACC_DEVICE_TYPE`, host fallback; `__ptxrt_use_device`.
//! * [`image`] — registered device images and lazy module loading (and
//!   linking of relocatable images).
//! * [`link`] — which code of the relocatable images is linked on a device.
//! * [`data`] — data clauses: `__ptxrt_data_begin/end`, `__ptxrt_deviceptr`.
//! * [`launch`] — `__ptxrt_launch`, `__ptxrt_default_gangs`.
//! * [`api`] — the `acc_*` functions.
//! * [`notify`] — `PTXRT_NOTIFY` / `PTXRT_DEBUG` lines.
//!
//! The device plugin is only ever dlopened, so a program linked with
//! `cc prog.o libptxrt.a -ldl -lpthread -lm` runs without CUDA (host fallback).
//! No panic crosses the C boundary ([`error::guard`]).

pub mod abi;
pub mod api;
pub mod data;
pub mod device;
pub mod error;
pub mod image;
pub mod launch;
pub mod link;
pub mod notify;
pub mod plugin;
pub mod present;

//! What stops a kernel on the emulated device, and where it happened.
//!
//! Owns: [`Fault`] and [`Kind`] (plain data: the instruction that faulted
//! and why). [`crate::launch`] turns one into the one-line message a
//! program stops with, naming the kernel, construct, thread, source line
//! and address.
//! May call: [`crate::race`] (the race record).

use crate::race::Race;

/// Why a kernel stopped.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// A load, store or atomic outside any usable memory
    /// (CUDA_ERROR_ILLEGAL_ADDRESS); `why` says where the address points.
    Illegal {
        addr: u64,
        bytes: u64,
        write: bool,
        why: String,
    },
    /// An access not aligned to its size (CUDA_ERROR_MISALIGNED_ADDRESS).
    Misaligned { addr: u64, bytes: u64, write: bool },
    /// A data race (when races stop the program).
    Race(Race),
    /// Threads wait for each other forever (or wait at different
    /// barriers, or in a shuffle a lane never reaches): the text says who
    /// waits where.
    Deadlock(String),
    /// Call depth beyond the emulator's limit.
    StackOverflow,
    /// Bytecode the emulator cannot run (an accc bug).
    Internal(String),
}

/// A fault of one thread (or, for a deadlock, of its block).
#[derive(Clone, Debug, PartialEq)]
pub struct Fault {
    pub kind: Kind,
    /// Linear index of the thread in its block (of the first thread
    /// involved, for a deadlock).
    pub thread: u32,
    /// Program index of the function and site of the instruction, when
    /// one instruction is to blame.
    pub func: u32,
    pub site: Option<u32>,
}
